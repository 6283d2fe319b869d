"""The `judge` command: a thin client of the library (`judge.cli.entry.main`).

`commands` holds each command's arguments (as data) and what runs it; `parser` reads the
command line (argparse, French messages); `entry` runs the command and turns errors into
French messages. Nothing here decides a rule: the layers below do.
"""

from __future__ import annotations

from judge.cli.entry import main

__all__ = ["main"]
