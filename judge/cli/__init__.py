"""The `judge` command: a thin client of the library (`judge.cli.entry.main`).

`commands` holds each command's arguments (as data) and what runs it; `plain` reads a plain
command line, `parser` (argparse, French messages) any other; `entry` runs the command and
turns errors into French messages. Nothing here decides a rule: the layers below do.
"""

from __future__ import annotations

from judge.cli.entry import main

__all__ = ["main"]
