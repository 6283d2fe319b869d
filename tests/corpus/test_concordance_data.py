"""The concordance judge ships: reviewed data in rules/, current with the texts, read without the matcher."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from judge import DISTRIBUTION
from judge.cli import main
from judge.corpus.concordance import concordance, load_table, table_path
from judge.errors import ManifestError

# Runs `judge` with numpy, scipy and rapidfuzz made unimportable, as in a default install.
BLOCKED = """\
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("numpy", "scipy", "rapidfuzz"):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None
sys.meta_path.insert(0, Blocker())
from judge.cli import main
code = main(sys.argv[1:])
assert not {"numpy", "scipy", "rapidfuzz"} & set(sys.modules)
sys.exit(code)
"""

# Computing a concordance needs the matcher: the `history` extra (which .ci/run installs).
needs_matcher = pytest.mark.skipif(importlib.util.find_spec("scipy") is None,
                                   reason="extra history absent : pip install -e '.[test,history]'")


def run_blocked(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, JUDGE_CACHE_DIR=str(tmp_path / "cache"))
    # cwd: the package under test is the installed one, never a source tree in the current folder
    return subprocess.run([sys.executable, "-c", BLOCKED, *args], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300)


@needs_matcher
def test_the_shipped_table_is_what_the_command_writes_from_the_texts(capsys: pytest.CaptureFixture[str]) -> None:
    """Aligning the texts again (the matcher, the folds, the overrides) gives the shipped file byte
    for byte: the reviewed data is current with the texts and the code."""
    assert main(["concordance", "2010", "2004"]) == 0  # either order: release order is used
    generated = capsys.readouterr().out
    shipped = table_path("2004", "2010").read_text(encoding="utf-8")
    assert generated == shipped
    table = load_table("2004", "2010")
    assert table.computed is not None and len(table.computed.pairs) > 500
    assert [o.source for o in table.overrides][:2] == ["300.3", "310.4"]  # the reviewed overrides are kept
    assert all(o.reason for o in table.overrides)  # each with its reason


def test_history_and_diff_of_the_embedded_editions_need_no_matcher(tmp_path: Path) -> None:
    history = run_blocked(tmp_path, "history", "305.4", "--edition", "2004", "--json")
    assert history.returncode == 0, history.stderr
    (found,) = json.loads(history.stdout)
    assert [(s["edition"], s["number"], s["change"]) for s in found["steps"]] == [
        ("2004", "305.4", None), ("2010", "505.5b", "edited")]
    assert any(op["op"] == "-" and "212.6" in op["text"] for op in found["steps"][1]["diff"])
    diff = run_blocked(tmp_path, "diff", "2004", "2010", "--section", "310", "--json")
    assert diff.returncode == 0, diff.stderr
    pairs = {(p["from"], p["to"]): p for p in json.loads(diff.stdout)["pairs"]}
    assert pairs[("310.4", "510.2")]["method"] == "override"  # a reviewed override
    assert pairs[("310", "510")]["change"] == "renumbered"
    assert not list((tmp_path / "cache").glob("concordance-*"))  # read from rules/, nothing computed


def house_config(tmp_path: Path) -> Path:
    """A user's configuration with an edition released after 2010, in English (its concordance
    with the embedded editions is not shipped: it is to compute)."""
    text = tmp_path / "house.txt"
    text.write_text("500. Turn Structure\n\n500.1. A turn has five phases (see rule 505).\n", encoding="utf-8")
    config = tmp_path / "judge.toml"
    config.write_text('[[edition]]\nid = "maison"\nlabel = "Règles maison"\nreleased = "2011-01-01"\n'
                      '[[edition.text]]\nlanguage = "en"\nfiles = ["house.txt"]\n', encoding="utf-8")
    return config


def test_a_concordance_to_compute_without_the_matcher_names_the_extra(tmp_path: Path) -> None:
    config = house_config(tmp_path)
    result = run_blocked(tmp_path, "diff", "2010", "maison", "--config", str(config))
    assert result.returncode == 2 and result.stdout == ""
    assert f"pip install '{DISTRIBUTION}[history]'" in result.stderr
    assert "Traceback" not in result.stderr and result.stderr.splitlines()[-1].startswith("judge : ")
    again = run_blocked(tmp_path, "concordance", "2004", "2010")
    assert again.returncode == 2 and "[history]" in again.stderr and "Traceback" not in again.stderr


@needs_matcher
def test_stale_data_is_not_used(graph, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A [computed] section written from other texts (another digest) is recomputed, not read."""
    from judge.corpus import concordance as module

    shipped = table_path("2004", "2010").read_text(encoding="utf-8")
    table = load_table("2004", "2010")
    assert table.computed is not None
    copy = tmp_path / "2004-2010.toml"
    # the data says 305.4 -> 505.1, but was written from other texts
    wrong = re.sub(r"(?m)^305\.4 +505\.5b ", "305.4     505.1     ", shipped)
    assert wrong != shipped
    copy.write_text(wrong, encoding="utf-8")
    monkeypatch.setattr(module, "table_path", lambda source, target: copy)
    assert concordance(graph, "2004", "2010").counterparts("305.4")[0].target == "505.1"  # same digest: read
    copy.write_text(wrong.replace(table.computed.texts, "0" * 32), encoding="utf-8")
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    assert concordance(graph, "2004", "2010").counterparts("305.4")[0].target == "505.5b"  # computed


@pytest.mark.parametrize(("computed", "field"), [
    ('language = "en"\ntexts = "x"\npairs = 3\n', "computed.pairs"),
    ('language = "en"\ntexts = "x"\nwhat = 1\npairs = ""\n', "computed.what"),
    ('language = "en"\ntexts = "x"\npairs = """\n100 100 same 1.00 exact\n101 101 same\n"""\n',
     "computed.pairs, ligne 2"),
    ('language = "en"\ntexts = "x"\npairs = """\n100 100 moved 0.50 exact\n"""\n', "computed.pairs, ligne 1"),
    ('language = "en"\ntexts = "x"\npairs = """\n100 100 same 1.5 exact\n"""\n', "computed.pairs, ligne 1"),
    ('texts = "x"\npairs = ""\n', "computed.language"),
])
def test_computed_section_errors_name_the_field(tmp_path: Path, computed: str, field: str) -> None:
    path = tmp_path / "2004-2010.toml"
    path.write_text(f'from = "2004"\nto = "2010"\n[computed]\n{computed}', encoding="utf-8")
    with pytest.raises(ManifestError) as error:
        load_table("2004", "2010", path)
    assert error.value.field == field


def test_write_refuses_a_folder_it_cannot_write(tmp_path: Path) -> None:
    from judge.corpus.concordance import write_table
    from judge.errors import JudgeError

    with pytest.raises(JudgeError, match="impossible d'écrire"):
        write_table(tmp_path / "absent" / "2004-2010.toml", "x")
    target = tmp_path / "t.toml"
    write_table(target, "from = 1\n")
    assert target.read_text(encoding="utf-8") == "from = 1\n" and [p.name for p in tmp_path.iterdir()] == ["t.toml"]
