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
    from judge import progress

    progress.enable()  # a cache to build says so on stderr, for this command only
    try:
        return _run(args)
    finally:
        progress.disable()


def _run(args: Arguments) -> int:
    try:
        code: int = args.func(args)
        sys.stdout.flush()  # a full disk or /dev/full fails here, not at exit
    except JudgeError as exc:
        return _fail(_one_line(str(exc)), exc.exit_code)
    except KeyboardInterrupt:
        return _fail("interrompu", 130)
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except UnicodeEncodeError:
        _silence_stdout()
        return _fail("la réponse contient un caractère que la sortie ne peut pas écrire "
                     "(nom de fichier ou texte qui n'est pas de l'UTF-8 valide)", 2)
    except OSError as exc:
        from judge.errors import os_reason

        _silence_stdout()
        where = " sur la sortie standard" if exc.filename is None else f" : {exc.filename!s:.80}"
        return _fail(f"écriture ou lecture impossible{where} ({os_reason(exc)})", 2)
    except RecursionError:
        return _fail("entrée trop imbriquée : refusée", 2)
    except MemoryError:
        return _fail("mémoire insuffisante pour cette entrée : refusée", 2)
    return code


def _fail(message: str, code: int) -> int:
    try:
        sys.stderr.write(f"judge : {message}\n")
        sys.stderr.flush()
    except OSError:
        pass
    return code


def _silence_stdout() -> None:
    """What stdout still holds is dropped (it cannot be written): Python's own flush at exit
    would print a traceback."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
