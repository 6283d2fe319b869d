"""`untraced()`: a block run with the coverage tracer paused, for the measurements that run a
whole evaluation set (the fresh questions, the search eval set): what they measure is the
quality of the answers, not which lines run (the other tests cover those), and the tracer makes
Lark's Earley parser about four times slower."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import coverage


@contextmanager
def untraced() -> Iterator[None]:
    """Pause the running coverage measurement (if any) for the block."""
    running = coverage.Coverage.current()
    if running is not None:
        running.stop()
    try:
        yield
    finally:
        if running is not None:
            running.start()
