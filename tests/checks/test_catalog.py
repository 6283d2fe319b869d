"""The catalog's table of topic modules."""

from __future__ import annotations

import json
import subprocess
import sys

from judge.checks.catalog import TOPICS, every_check
from judge.game.model import ASKS


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

