"""The catalog's table of topic modules, and the modules a cold `judge check` imports."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from judge.checks.catalog import TOPICS, every_check
from judge.game.situationmodel import ASKS

EXAMPLE = Path(__file__).resolve().parent.parent.parent / "examples" / "attaque-2004.toml"


def test_every_question_of_the_format_is_a_registered_check_of_a_topic_module() -> None:
    specs = every_check()
    topics = [module.__name__ for module in TOPICS]
    assert {spec.name for spec in specs if spec.ask is not None} == set(ASKS)
    # listed topic by topic, in the order of TOPICS
    assert [topics.index(spec.topic) for spec in specs] == sorted(
        topics.index(spec.topic) for spec in specs)
    for spec in specs:
        if spec.function is None:
            assert spec.name not in ASKS  # a mechanism (the replay's rules), not a question
        else:
            assert spec.function.__module__ == spec.topic in topics, spec.name


def _imported(situation: Path, cwd: Path) -> set[str]:
    """The modules a `judge check` of `situation` has imported, in a new interpreter run
    outside the checkout (`python -c` puts the current folder first on sys.path)."""
    code = ("import json, sys; from judge.cli import main; code = main(['check', sys.argv[1]]);"
            "print(json.dumps(sorted(sys.modules)), file=sys.stderr); sys.exit(code)")
    run = subprocess.run([sys.executable, "-c", code, str(situation)], capture_output=True, text=True,
                         timeout=120, cwd=cwd)
    assert run.returncode == 0, run.stderr
    assert "Réponse" in run.stdout
    return set(json.loads(run.stderr.splitlines()[-1]))


@pytest.mark.parametrize("fmt", ["json", "toml"])
def test_judge_check_imports_neither_the_replay_nor_the_coverage(fmt: str, tmp_path: Path) -> None:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    situation = tmp_path / f"situation.{fmt}"
    if fmt == "json":
        situation.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    else:
        situation.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    _imported(situation, tmp_path)  # the first run fills the caches (the game model parsed)
    modules = _imported(situation, tmp_path)
    assert {module.__name__ for module in TOPICS} <= modules
    # neither the replay, the coverage, nor the situation's other objects; for JSON, no TOML
    # parser (nor `typing`, which `tomllib` imports)
    for module in ("judge.checks.replay", "judge.checks.trail", "judge.checks.coverage",
                   "judge.game.objects", "judge.game.events"):
        assert module not in modules, module
    assert ("tomllib" in modules) == (fmt == "toml")
    assert fmt == "toml" or "typing" not in modules
