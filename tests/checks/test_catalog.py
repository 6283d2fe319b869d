"""The catalog's table of topic modules, and the modules a cold `judge check` imports."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from judge.checks.catalog import TOPICS, every_check
from judge.game.model import ASKS

EXAMPLE = Path(__file__).resolve().parent.parent.parent / "examples" / "attaque-2004.toml"


def test_each_topic_module_registers_exactly_its_names_in_table_order() -> None:
    # A fresh interpreter: importing each module in turn, what it adds to the registry.
    code = ("import importlib, json, sys\n"
            "from judge.checks.catalog import TOPICS\n"
            "from judge.checks.context import REGISTRY\n"
            "out = []\n"
            "for module, _ in TOPICS:\n"
            "    before = list(REGISTRY)\n"
            "    importlib.import_module(module)\n"
            "    out.append([module, [name for name in REGISTRY if name not in before]])\n"
            "print(json.dumps(out))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [[module, list(names)] for module, names in TOPICS]


def test_every_question_of_the_format_is_a_registered_check_of_its_module() -> None:
    specs = {spec.name: spec for spec in every_check()}
    assert [spec.name for spec in every_check()] == [name for _, names in TOPICS for name in names]
    module_of = {name: module for module, names in TOPICS for name in names}
    assert {name for name, spec in specs.items() if spec.ask is not None} == set(ASKS)
    for name, spec in specs.items():
        if spec.function is None:
            assert name not in ASKS  # a mechanism (the replay's rules), not a question
        else:
            assert spec.function.__module__ == module_of[name], name


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
def test_judge_check_imports_only_the_modules_its_questions_need(fmt: str, tmp_path: Path) -> None:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    situation = tmp_path / f"situation.{fmt}"
    if fmt == "json":
        situation.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    else:
        situation.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    _imported(situation, tmp_path)  # the first run fills the caches (the game model parsed)
    modules = _imported(situation, tmp_path)
    asked = {question["ask"] for question in data["questions"]} | {"where"}  # `where` is always answered
    needed = {module for module, names in TOPICS if asked & set(names)}
    assert needed == {"judge.checks.turn", "judge.checks.combat"}
    assert needed <= modules
    assert {module for module, _ in TOPICS} & modules == needed
    # neither the replay, the coverage, nor the situation's other objects; for JSON, no TOML
    # parser (nor `typing`, which `tomllib` imports)
    for module in ("judge.checks.replay", "judge.checks.trail", "judge.checks.coverage",
                   "judge.game.objects", "judge.game.events"):
        assert module not in modules, module
    assert ("tomllib" in modules) == (fmt == "toml")
    assert fmt == "toml" or "typing" not in modules
