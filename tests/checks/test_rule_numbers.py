"""`judge check` answers from the rule store's catalogue exactly as from the whole graph."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cache_support import kb_file, parts, spoil
from checks_support import load_case, situation_files

from judge.checks.report import check, report_json
from judge.checks.store import load_store


def test_rule_numbers_are_the_graph_numbers(graph) -> None:
    numbers = load_store().catalogue
    assert numbers.edition_ids == graph.edition_ids
    assert numbers.newest_edition == graph.newest_edition
    for edition in graph.edition_ids:
        languages = graph.edition(edition).languages
        expected = {r.number for language in languages for r in graph.rules(edition, language)}
        assert numbers.numbers(edition) == expected != set()
        facts, real = numbers.edition(edition), graph.edition(edition)
        assert (facts.game, facts.removed_by, facts.languages) == (real.game, real.removed_by, real.languages)


@pytest.mark.parametrize("path", situation_files(), ids=lambda p: p.name)
def test_check_from_numbers_equals_check_from_graph(graph, path: Path) -> None:
    situation, _ = load_case(path)
    assert report_json(check(load_store().catalogue, situation)) == report_json(check(graph, situation))


def test_warm_judge_check_does_not_load_the_corpus(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = dict(os.environ, JUDGE_CACHE_DIR=str(cache))
    situation = tmp_path / "s.toml"
    situation.write_text('edition = "2004"\nactive = "A"\nphase = "beginning"\nstep = "upkeep"\n', encoding="utf-8")
    first = subprocess.run([sys.executable, "-m", "judge", "check", str(situation), "--json"], env=env,
                           capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    kb = kb_file(cache)
    assert ("rules", "") in parts(kb)
    if ("documents", "") in parts(kb):  # had `judge check` needed the rules, it would parse again (Lark)
        spoil(kb, "DELETE FROM parts WHERE kind = 'documents'")
    code = ("import sys; from judge.cli import main; main(['check', sys.argv[1], '--json']);"
            "print('lark' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code, str(situation)], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.rstrip().endswith("False"), run.stdout[-200:]
    assert run.stdout.rstrip().removesuffix("False").strip() == first.stdout.strip()
    assert ("documents", "") not in parts(kb)
