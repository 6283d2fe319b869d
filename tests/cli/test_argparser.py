"""argparse in French through its public hooks (gettext, `ArgumentParser.error`): every message
id judge translates is one the running Python's argparse still asks gettext for (a Python that
renames one fails here), the messages are French whatever the user's locale, and the process's
gettext domain and `LANGUAGE` are left as they were."""

from __future__ import annotations

import argparse
import ast
import gettext
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.cli.argparser import FRENCH, build_parser

JUDGE = str(Path(sys.executable).with_name("judge"))


def _argparse_message_ids() -> set[str]:
    """The strings argparse passes to gettext (`_()` and `ngettext()`), read from its source."""
    tree = ast.parse(Path(argparse.__file__).read_text(encoding="utf-8"))
    return {arg.value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "ngettext")
            for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)}


def test_every_translated_message_is_one_this_python_asks_for() -> None:
    missing = set(FRENCH) - _argparse_message_ids()
    assert not missing, f"argparse de Python {sys.version.split()[0]} n'a plus ces messages : {sorted(missing)}"


@pytest.mark.parametrize("env", [{"LANG": "en_US.UTF-8"}, {"LANGUAGE": "de:en", "LC_ALL": "de_DE.UTF-8"}, {}])
@pytest.mark.parametrize(("args", "said"), [
    (["rule"], "judge : erreur : arguments obligatoires manquants : NUMERO"),
    (["rule", "300.3", "--bogus"], "judge : erreur : arguments inconnus : --bogus"),
    (["search", "x", "--limit", "abc"], "judge : erreur : argument --limit : valeur invalide (int) : 'abc'"),
    (["rule", "300.3", "--lang"], "judge : erreur : argument --lang : une valeur est attendue"),
])
def test_usage_errors_are_french_whatever_the_locale(env: dict[str, str], args: list[str], said: str,
                                                     tmp_path: Path) -> None:
    done = subprocess.run([JUDGE, *args], capture_output=True, text=True, timeout=120,
                          env={"PATH": os.environ["PATH"], "JUDGE_CACHE_DIR": str(tmp_path), **env})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("utilisation : judge") and said in done.stderr, done.stderr
    assert "usage:" not in done.stderr and "Traceback" not in done.stderr


def test_help_is_french_and_the_process_locale_is_put_back(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANGUAGE", "de")
    domain = gettext.textdomain()
    assert build_parser().format_help().startswith("utilisation : judge")
    with pytest.raises(SystemExit) as stopped:
        build_parser("rule").parse_args(["rule", "--help"])
    text = capsys.readouterr().out
    assert stopped.value.code == 0 and text.startswith("utilisation : judge rule")
    assert "\narguments:\n" in text and "\noptions:\n" in text and "positional arguments" not in text
    assert (os.environ["LANGUAGE"], gettext.textdomain()) == ("de", domain)
    assert (os.environ["LANGUAGE"], gettext.textdomain()) == ("de", domain)
    with pytest.raises(SystemExit) as stopped:
        build_parser("rule").parse_args(["rule"])
    assert stopped.value.code == 2
    assert (os.environ["LANGUAGE"], gettext.textdomain()) == ("de", domain)
