"""`judge`'s entry point: reads the command line, runs the command, turns errors into French.

Every `JudgeError` becomes one French message on stderr and its exit code (2 bad input,
1 not found, 3 unreadable cache); no traceback for a user mistake. A plain command line is
read without argparse (`judge.cli.plain`), any other by argparse (`judge.cli.parser`).
"""

from __future__ import annotations

import sys

from judge.cli.commands import command_of
from judge.cli.plain import plain_arguments
from judge.deferred import DEFERRED_BY_SHORT_COMMANDS, defer
from judge.errors import JudgeError

TYPE_CHECKING = False  # `typing` costs a cold start 3 ms; mypy reads this block as true
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
    command = command_of(words)
    if command is not None and command != "serve":  # a command that answers and exits
        for name in DEFERRED_BY_SHORT_COMMANDS:
            defer(name)
    args: Arguments | None = plain_arguments(words)
    if args is None:
        from judge.cli.parser import build_parser

        parser = build_parser(command)
        args = parser.parse_args(words)
        if not getattr(args, "command", None):
            parser.print_help()
            return 2
    from judge import progress

    progress.enable()  # a cache to build says so on stderr
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
