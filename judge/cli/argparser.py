"""The command line read by argparse, with French help and usage errors.

Built from the commands' argument tables (`judge.cli.commands`); with `command`, only that
command's arguments are built.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from typing import TYPE_CHECKING

from judge import __version__
from judge.cli.commands import COMMANDS, CONFIG_HELP

if TYPE_CHECKING:
    from typing import Any


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout at the terminal's width ($COLUMNS, else the terminal, else 80)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=shutil.get_terminal_size().columns - 2)


# argparse's own messages in French, by their gettext message ids (those of CPython 3.11 to
# 3.13; `tests/cli/test_argparser.py` fails on a Python whose argparse no longer has one of them).
FRENCH = {
    "usage: ": "utilisation : ",
    "positional arguments": "arguments",
    "options": "options",
    "the following arguments are required: %s": "arguments obligatoires manquants : %s",
    "unrecognized arguments: %s": "arguments inconnus : %s",
    "invalid choice: %(value)r (choose from %(choices)s)": "choix invalide : %(value)r (au choix : %(choices)s)",
    "expected one argument": "une valeur est attendue",
    "expected at least one argument": "au moins une valeur est attendue",
    "invalid %(type)s value: %(value)r": "valeur invalide (%(type)s) : %(value)r",
    "argument %(argument_name)s: %(message)s": "argument %(argument_name)s : %(message)s",
    "ambiguous option: %(option)s could match %(matches)s": "option ambiguë : %(option)s peut être %(matches)s",
    "not allowed with argument %s": "interdit avec l'argument %s",
    "one of the arguments %s is required": "l'un des arguments %s est obligatoire",
    "ignored explicit argument %r": "argument explicite ignoré : %r",
}
_DOMAIN = "judge-argparse"


def _catalogue() -> bytes:
    """`FRENCH` as a GNU message catalogue (the `.mo` format that `gettext` reads)."""
    import struct

    messages = {"": "Content-Type: text/plain; charset=UTF-8\n", **FRENCH}
    keys = sorted(messages)
    ids = b"".join(key.encode() + b"\0" for key in keys)
    strs = b"".join(messages[key].encode() + b"\0" for key in keys)
    start = 7 * 4 + 16 * len(keys)
    table_ids, table_strs, id_at, str_at = [], [], start, start + len(ids)
    for key in keys:
        table_ids += [len(key.encode()), id_at]
        table_strs += [len(messages[key].encode()), str_at]
        id_at += len(key.encode()) + 1
        str_at += len(messages[key].encode()) + 1
    header = struct.pack("<7I", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    return header + struct.pack(f"<{4 * len(keys)}I", *table_ids, *table_strs) + ids + strs


class _French:
    """argparse's messages in French while inside: its gettext domain bound to `FRENCH` in
    French (a catalogue written once per process, in a temporary folder), then put back.
    Entered only to print help or an error: a command line that parses never writes it."""

    folder: str | None = None

    def __enter__(self) -> None:
        import gettext
        import os

        if _French.folder is None:
            import atexit
            import shutil
            import tempfile

            folder = tempfile.mkdtemp(prefix="judge-argparse-")
            atexit.register(shutil.rmtree, folder, True)
            os.makedirs(os.path.join(folder, "fr", "LC_MESSAGES"))
            with open(os.path.join(folder, "fr", "LC_MESSAGES", f"{_DOMAIN}.mo"), "wb") as file:
                file.write(_catalogue())
            _French.folder = folder
        self.saved = (gettext.textdomain(), os.environ.get("LANGUAGE"))
        gettext.bindtextdomain(_DOMAIN, _French.folder)
        gettext.textdomain(_DOMAIN)
        os.environ["LANGUAGE"] = "fr"

    def __exit__(self, *exc: object) -> None:
        import gettext
        import os

        domain, language = self.saved
        gettext.textdomain(domain)
        if language is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = language


class _Unparsed(Exception):
    """A command line that does not parse, before its message is made in French."""


class _Parser(argparse.ArgumentParser):
    """argparse with French help and usage errors (exit 2, no traceback), through its public
    hooks: `gettext` for its messages (`_French`), `error` for how they are printed."""

    french = False  # inside `_French` (a class attribute: subparsers too)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["add_help"] = False  # our own -h, with a French help text
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        self.add_argument("-h", "--help", action="help", help="afficher cette aide et quitter")

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if _Parser.french:
            return super().parse_known_args(args, namespace)
        try:
            return super().parse_known_args(args, namespace)
        except _Unparsed:  # parsed again in French, to print the message in French
            with self._in_french():
                return super().parse_known_args(args, namespace)

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        if _Parser.french:
            return super().parse_args(args, namespace)
        try:
            return super().parse_args(args, namespace)
        except _Unparsed:
            with self._in_french():
                return super().parse_args(args, namespace)

    def format_usage(self) -> str:
        with self._in_french():
            return super().format_usage()

    def format_help(self) -> str:
        with self._in_french():
            return super().format_help()

    @staticmethod
    def _in_french() -> Any:
        import contextlib

        if _Parser.french:
            return contextlib.nullcontext()
        stack = contextlib.ExitStack()
        stack.enter_context(_French())
        stack.callback(setattr, _Parser, "french", False)
        _Parser.french = True
        return stack

    def error(self, message: str) -> Any:
        if not _Parser.french:
            raise _Unparsed(message)
        self.print_usage(sys.stderr)
        sys.stderr.write(f"judge : erreur : {message}\n")
        raise SystemExit(2)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with `command`, only that command's arguments."""
    parser = _Parser(
        prog="judge",
        description="Règles de Magic: The Gathering pour arbitres : consulter, chercher, vérifier.",
    )
    parser.add_argument("--config", default=None, metavar="FICHIER", help=CONFIG_HELP)
    parser.add_argument("--version", action="version", version=f"judge {__version__}",
                        help="afficher la version et quitter")
    sub = parser.add_subparsers(title="commandes", dest="command", metavar="COMMANDE", parser_class=_Parser)
    for name, help_text, arguments, run in COMMANDS:
        if command is None or name == command:
            p = sub.add_parser(name, help=help_text)
            # SUPPRESSed after the command: when absent there, it leaves a value given before it.
            p.add_argument("--config", default=argparse.SUPPRESS, metavar="FICHIER", help=CONFIG_HELP)
            positionals = p.add_argument_group("arguments")  # argparse's own group has an English title
            for names, options in arguments:
                (p if names[0].startswith("-") else positionals).add_argument(*names, **options)
            p.set_defaults(func=run)
    return parser
