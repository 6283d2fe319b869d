"""A first run that talks: a command that builds a cache says so on stderr, never on stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

JUDGE = str(Path(sys.executable).with_name("judge"))


def run(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, JUDGE_CACHE_DIR=str(cache))
    return subprocess.run([JUDGE, *args], env=env, capture_output=True, text=True, timeout=600, cwd=cache.parent)


def test_first_search_says_what_it_prepares_on_stderr_only(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = run(cache, "search", "brûlure de mana", "--json")
    assert first.returncode == 0, first.stderr
    answer = json.loads(first.stdout)  # stdout is the JSON answer alone
    stages = first.stderr.splitlines()
    assert any("Préparation du corpus (une seule fois)" in line for line in stages)
    assert any(line.endswith("règles") and "Corpus prêt" in line for line in stages)
    assert [line for line in stages if "Index de recherche (" in line]  # one line per language, with counts
    assert all(line.startswith("[") for line in stages)
    again = run(cache, "search", "brûlure de mana", "--json")
    assert (again.returncode, again.stderr) == (0, "")  # nothing to prepare: silent
    assert json.loads(again.stdout) == answer


def test_first_build_reports_pages_written(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    result = run(cache, "build", "--out", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    pages = len(list((tmp_path / "site").rglob("*.html")))
    written, then = result.stdout.strip().split("\n")
    assert written.endswith(f"({pages} pages)") and pages > 1000
    # the next step: the page to open, and the organisers' page of the book for phones
    index, organisers = tmp_path / "site" / "index.html", tmp_path / "site" / "organisateurs.html"
    assert then.startswith(f"Ensuite : ouvrir {index} ") and then.endswith(str(organisers))
    assert "hébergeur statique" in then and "judge serve" in then
    assert "Livre de règles : écriture des pages" in result.stderr
    assert "Préparation du corpus (une seule fois)" in result.stderr


def test_progress_is_on_for_the_command_only(capsys, monkeypatch) -> None:
    """A program that calls `judge.cli.entry.main` and then the library does not get stage lines."""
    from judge import progress
    from judge.cli.entry import main

    assert main(["rule", "300.3"]) == 0
    capsys.readouterr()
    progress.say("Préparation de quelque chose")
    assert capsys.readouterr().err == ""
