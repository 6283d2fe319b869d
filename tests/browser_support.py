"""What every real-browser test shares: Debian's Chromium, its flags, the marks that skip the
test when Chromium is absent, the screens (a phone, a desktop), a fresh tab that records its
errors, and a plain static server. The fixtures (`browser`, `page`, `phone`, the built book
`site`, the served app `served`) are in `conftest.py`."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# How long a test waits for the service worker's work (storing the book's pages, an update):
# a bound against a hung test, not a speed — on a loaded machine (CI beside other jobs) the
# worker's install took over a minute.
WORKER_WAIT_MS = 600_000
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium absent (/usr/bin/chromium)"),
]

# A phone (390×844, touch) and a desktop, both French.
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
                         "device_scale_factor": 1, "locale": "fr-FR"}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1, "locale": "fr-FR"}


@contextlib.contextmanager
def new_tab(browser: Any, **options: Any) -> Iterator[Any]:
    """A tab in a fresh context of `browser` (Playwright's `new_context(**options)`, French by
    default), closed afterwards. Its uncaught exceptions are collected in `tab.errors`, and
    those with the console's errors in `tab.console_errors`."""
    context = browser.new_context(**{"locale": "fr-FR", **options})
    try:
        tab = context.new_page()
        errors: list[str] = []
        console: list[str] = []
        tab.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)

        def uncaught(exc: Any) -> None:
            errors.append(str(exc))
            console.append(str(exc))

        tab.on("pageerror", uncaught)
        tab.errors = errors
        tab.console_errors = console
        yield tab
    finally:
        context.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def static_server(folder: Path) -> Iterator[str]:
    """`folder` served on a free loopback port by Python's own static server (as
    `python -m http.server` serves it); yields its address, without a final slash."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
