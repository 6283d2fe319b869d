"""Plain command lines read without argparse: a command and its positional arguments only.

`judge rule 300.3`, `judge search "blessures de combat"`, `judge check situation.toml`: most
of what a judge types. Importing argparse and building its parser (with the gettext catalogue
lookups of its messages) costs a cold start about 5 ms, more than reading such a line needs.
`plain_arguments` gives, from the same argument tables, exactly the values argparse would
give (tested, word for word, against argparse on every command and on random lines), or
None for any other line: an option, a dash, a missing or extra word, help, an unknown
command. argparse reads those, with its checks and its French messages.
"""

from __future__ import annotations

from types import SimpleNamespace

from judge.cli.commands import COMMANDS

TYPE_CHECKING = False  # `typing` costs a cold start 3 ms; mypy reads this block as true
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from judge.cli.commands import Argument

# What argparse does with an option that is not given, by action: its default.
_ABSENT = {None: None, "store": None, "store_true": False}
# The options of an option argument this reader knows argparse's handling of, when it is absent
# (`required`, a SUPPRESSed default, a `dest`… are left to argparse: the line is not plain).
_KNOWN = {"action", "default", "help", "metavar", "choices", "type"}
_SUPPRESS = "==SUPPRESS=="  # argparse.SUPPRESS, without importing argparse


def _defaults(arguments: tuple[Argument, ...]) -> tuple[list[str], dict[str, Any]] | None:
    """The positional names and the options' values when absent, as argparse sets them; None
    when an argument is one this reader does not handle as argparse would."""
    positionals: list[str] = []
    values: dict[str, Any] = {}
    for names, options in arguments:
        if not names[0].startswith("-"):
            if len(names) != 1 or set(options) - {"metavar", "help"}:  # a type, choices, nargs…
                return None
            positionals.append(names[0])
            continue
        action = options.get("action")
        long_names = [name for name in names if name.startswith("--")]
        if action not in _ABSENT or set(options) - _KNOWN or not long_names:
            return None
        default = options.get("default", _ABSENT[action])
        if isinstance(default, str) and ("type" in options or default == _SUPPRESS):
            return None  # argparse would convert it, or leave the value out
        values[long_names[0][2:].replace("-", "_")] = default
    return positionals, values


def plain_arguments(argv: Sequence[str]) -> SimpleNamespace | None:
    """The values of a plain command line (a command, then exactly its positional arguments,
    none starting with a dash), as argparse gives them; None for any other line."""
    if not argv:
        return None
    name, *words = argv
    entry = next((entry for entry in COMMANDS if entry[0] == name), None)
    if entry is None:
        return None
    _name, _help, arguments, run = entry
    if any(word.startswith("-") for word in words):
        return None
    found = _defaults(arguments)
    if found is None:
        return None
    positionals, values = found
    if len(words) != len(positionals):
        return None
    return SimpleNamespace(config=None, command=name, **dict(zip(positionals, words, strict=True)),
                           **values, func=run)
