"""Spoiling a cache file the way a disk or a stray write would, and what the user must then see."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path


def spoil_body(path: Path, magic: bytes) -> None:
    """Zero everything after the head of a `magic`, 8-byte length, marshalled head file: same
    size, head intact (it passes the checks made at open), the body unreadable."""
    data = path.read_bytes()
    base = len(magic) + 8 + int.from_bytes(data[len(magic):len(magic) + 8], "little")
    path.write_bytes(data[:base] + b"\x00" * (len(data) - base))


def assert_reported_then_rebuilt(run: Callable[[], subprocess.CompletedProcess[str]], path: Path) -> str:
    """The spoiled file is one French message, exit 3, no traceback, the file removed; the next
    run succeeds (its output returned)."""
    broken = run()
    assert broken.returncode == 3
    assert broken.stderr.startswith("judge : cache illisible, supprimé : ") and "Traceback" not in broken.stderr
    assert not path.exists()
    again = run()
    assert again.returncode == 0, again.stderr
    return again.stdout
