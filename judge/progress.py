"""What a long first run is doing, told to the user: one French line on stderr per stage.

Library code calls `say` when it builds a cache (the corpus, the search index, the rule store,
a concordance, the book); nothing is printed unless the command line turned it on (`enable`):
a library user or an in-process test sees nothing, a user of `judge` sees on stderr — never on
stdout, so `--json` output stays clean — why the first command takes seconds.
"""

from __future__ import annotations

import sys
import time

_enabled = False
_start = 0.0


def enable() -> None:
    """Print stages on stderr from now on (the `judge` command does this)."""
    global _enabled, _start
    _enabled = True
    _start = time.perf_counter()


def disable() -> None:
    global _enabled
    _enabled = False


def say(text: str) -> None:
    """One stage, on its own line, with the time since the command started."""
    if not _enabled:
        return
    try:
        sys.stderr.write(f"[{time.perf_counter() - _start:5.1f} s] {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed or broken stderr never stops the work
        pass


def number(n: int) -> str:
    """A count written the French way (2 727)."""
    return f"{n:,}".replace(",", "\u202f")
