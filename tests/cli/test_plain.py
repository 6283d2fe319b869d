"""A plain command line read without argparse gives exactly what argparse gives; any other
line is left to argparse. And a plain `judge rule`, `search` or `check` does not import
argparse, nor `inspect` (judge.deferred)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.cli.commands import COMMANDS
from judge.cli.parser import build_parser
from judge.cli.plain import plain_arguments

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
    assert modules == "['inspect']", modules  # only the placeholder
    assert inspect == "module placeholder"
