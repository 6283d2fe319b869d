"""`judge`'s entry point: reads the command line, runs the command, turns errors into French.

Every `JudgeError` becomes one French message on stderr and its exit code (2 bad input,
1 not found, 3 unreadable cache, 130 interrupted); no traceback for a user mistake. The
command line is read by argparse (`judge.cli.argparser`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from judge.cli.argparser import build_parser
from judge.cli.commands import command_of
from judge.errors import JudgeError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from judge.cli.commands import Arguments


def _one_line(text: str) -> str:
    """A message on one line: control and line-break characters (quoted from the user's
    input, e.g. a player named "0\\r0") written as escapes."""
    import unicodedata

    return "".join(
        ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
        for ch in text
    )


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(command_of(words))
    args: Arguments = parser.parse_args(words)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except JudgeError as exc:
        sys.stderr.write(f"judge : {_one_line(str(exc))}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("judge : interrompu\n")
        return 130
    except BrokenPipeError:
        return 0
    return code
