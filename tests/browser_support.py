"""What every real-browser test shares: Debian's Chromium, its flags, and the marks that skip
the test when Chromium is absent. The `browser` fixture itself is in `conftest.py`."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium absent (/usr/bin/chromium)"),
]
