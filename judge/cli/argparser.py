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


class _Parser(argparse.ArgumentParser):
    """argparse with French help and usage errors (exit 2, no traceback)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["add_help"] = False  # our own -h, with a French help text
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        self._positionals.title = "arguments"
        self._optionals.title = "options"
        self.add_argument("-h", "--help", action="help", help="afficher cette aide et quitter")

    def format_usage(self) -> str:
        return super().format_usage().replace("usage:", "utilisation :", 1)

    def format_help(self) -> str:
        return super().format_help().replace("usage:", "utilisation :", 1)

    def error(self, message: str) -> Any:
        message = (
            message.replace("the following arguments are required", "arguments obligatoires manquants")
            .replace("unrecognized arguments", "arguments inconnus")
            .replace("invalid choice:", "choix invalide :")
            .replace("(choose from", "(au choix :")
            .replace("expected one argument", "une valeur est attendue")
            .replace("invalid int value", "entier invalide")
        )
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
    sub = parser.add_subparsers(dest="command", metavar="COMMANDE", parser_class=_Parser)
    for name, help_text, arguments, run in COMMANDS:
        if command is None or name == command:
            p = sub.add_parser(name, help=help_text)
            # SUPPRESSed after the command: when absent there, it leaves a value given before it.
            p.add_argument("--config", default=argparse.SUPPRESS, metavar="FICHIER", help=CONFIG_HELP)
            for names, options in arguments:
                p.add_argument(*names, **options)
            p.set_defaults(func=run)
    return parser
