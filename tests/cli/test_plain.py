"""A plain command line read without argparse gives exactly what argparse gives; any other
line is left to argparse. And a plain `judge rule`, `search` or `check` does not import
argparse, nor `inspect` (judge.deferred)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.cli.commands import COMMANDS
from judge.cli.parser import build_parser
from judge.cli.plain import _defaults, plain_arguments
from judge.deferred import DEFERRED_BY_SHORT_COMMANDS

ROOT = Path(__file__).resolve().parent.parent.parent


def _argparse(argv: list[str]) -> dict[str, object] | None:
    """What argparse reads from `argv`, or None when it refuses it (or prints help)."""
    try:
        return vars(build_parser().parse_args(argv))
    except SystemExit:
        return None


def _positionals(arguments: tuple) -> list[str]:
    return [names[0] for names, _ in arguments if not names[0].startswith("-")]


@pytest.mark.parametrize("name", [name for name, *_ in COMMANDS])
def test_a_plain_line_of_every_command_reads_as_argparse_reads_it(name: str) -> None:
    arguments = next(arguments for command, _, arguments, _ in COMMANDS if command == name)
    argv = [name, *(f"mot {i} é" for i, _ in enumerate(_positionals(arguments)))]
    plain = plain_arguments(argv)
    assert plain is not None
    assert vars(plain) == _argparse(argv)


@pytest.mark.parametrize("argv", [
    [], ["rule"], ["rule", "300.3", "306"], ["rule", "300.3", "--json"], ["rule", "--json", "300.3"],
    ["rule", "-h"], ["--config", "x.toml", "rule", "300.3"], ["check", "-"], ["search", "--", "x"],
    ["search", "-x"], ["règle", "300.3"], ["--version"], ["lint", "--strict"], ["serve", "--port", "1"],
])
def test_a_line_with_an_option_a_dash_or_the_wrong_words_is_left_to_argparse(argv: list[str]) -> None:
    assert plain_arguments(argv) is None


WORDS = st.sampled_from([name for name, *_ in COMMANDS] + [
    "300.3", "blessures de combat", "", " ", "-", "--", "-h", "--json", "--edition", "2004", "--lang", "fr",
    "--limit", "3", "--config", "--strict", "--out", "x", "règle", "-1", "a=b", "--base-url", "/regles/"])


@settings(max_examples=400, deadline=None)
@given(st.lists(WORDS, max_size=5))
def test_any_line_is_read_as_argparse_reads_it_or_left_to_argparse(argv: list[str]) -> None:
    plain = plain_arguments(argv)
    if plain is not None:
        assert vars(plain) == _argparse(argv)


@pytest.mark.parametrize("argv", [
    ["rule", "300.3"], ["search", "blessures de combat"], ["check", str(ROOT / "examples" / "attaque-2004.toml")],
])
def test_a_plain_command_imports_neither_argparse_nor_inspect(argv: list[str], tmp_path: Path) -> None:
    # The installed package, run outside the checkout; twice: the first run may build caches.
    code = ("import sys; from judge.cli import main; code = main(sys.argv[1:]); "
            "print(sorted({'argparse', 'inspect', 'ast', 'dis'} & set(sys.modules))); "
            "print(type(sys.modules.get('inspect')).__name__, 'placeholder' if "
            "'__getattr__' in vars(sys.modules['inspect']) else 'real'); sys.exit(code)")
    for _ in range(2):
        run = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                             cwd=tmp_path, timeout=120)
        assert run.returncode in (0, 1), run.stderr
    *_, modules, inspect = run.stdout.rstrip().splitlines()
    if "inspect" in DEFERRED_BY_SHORT_COMMANDS:  # Python 3.11: dataclasses leaves it unread
        assert modules == "['inspect']", modules  # only the placeholder
        assert inspect == "module placeholder"
    else:
        assert "argparse" not in modules


@pytest.mark.parametrize("argument", [
    (("--x",), {"required": True}), (("--x",), {"default": argparse.SUPPRESS}), (("--x",), {"dest": "y"}),
    (("--x",), {"action": "append"}), (("--x",), {"type": int, "default": "3"}), (("-x",), {}),
    (("x",), {"nargs": "?"}), (("x",), {"choices": ("a", "b")}), (("x",), {"type": int}),
])
def test_an_argument_argparse_would_read_otherwise_is_never_read_plainly(argument: tuple) -> None:
    # Such an argument in a command's table makes none of its lines plain: argparse reads them.
    assert _defaults((argument,)) is None
    assert _defaults(((("--json",), {"action": "store_true"}), (("file",), {"help": "h"}))) == (
        ["file"], {"json": False})
