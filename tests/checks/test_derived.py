"""The situations derived from the rule texts by helpers who had not read the engine
(tests/situations/derived/<edition>/, each file with the quote of its deciding text).

Each expectation gives the answer (a table lists only the fields it checks; a field left out
is one whose value is null; `answer_null = true`: the answer is null) and the acceptable
deciding rules: the answer must cite at least one of them. A file with `expect_error`
describes a state or a replay the rules make impossible: the engine must refuse it, naming
one of the rules given in the reason's parentheses. Files moved to `derived/disputed/` (with
the reason) are not run.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from checks_support import SITUATIONS, real_graph

from judge.checks.report import check, report_json
from judge.errors import JudgeError
from judge.game.situation import load_situation

DERIVED = SITUATIONS / "derived"
FILES = sorted(p for edition in ("2004", "2010") for p in (DERIVED / edition).glob("*.toml"))
# Issue 33's batch (keyword abilities, state-based actions, planeswalkers…): the writers'
# development part; its sealed part is run apart, once.
R11 = SITUATIONS / "derived-r11"
R11_FILES = sorted(p for edition in ("2004", "2010") for p in (R11 / edition).glob("*.toml"))


def _matches(expected: object, actual: object) -> bool:
    """Expected tables are subsets of the actual ones; a number is not a boolean."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(_matches(e, a) for e, a in zip(expected, actual, strict=True)))
    return type(expected) is type(actual) and expected == actual


def load(path: Path) -> tuple[dict[str, object], list[dict[str, object]], str | None]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    expect = data.pop("expect", [])
    error = data.pop("expect_error", None)
    assert isinstance(expect, list)
    return data, expect, error if isinstance(error, str) else None


def test_there_are_at_least_300_derived_situations_in_both_editions() -> None:
    assert len(FILES) >= 300
    assert {p.parent.name for p in FILES} == {"2004", "2010"}


@pytest.mark.parametrize("path", FILES + R11_FILES,
                         ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.stem}")
def test_derived_situation(path: Path) -> None:
    data, expect, error = load(path)
    text = json.dumps(data)
    if error is not None:
        numbers = [n for group in re.findall(r"\(([^()]*\d{3}\.\d[^()]*)\)", error)
                   for n in re.findall(r"\d{3}\.\d+[a-z]?", group)]
        with pytest.raises(JudgeError) as caught:
            check(real_graph(), load_situation(text, source=str(path), fmt="json"))
        said = str(caught.value)
        assert any(n in said for n in numbers), (said, numbers)
        return
    report = report_json(check(real_graph(), load_situation(text, source=str(path), fmt="json")))
    answers = report["answers"]
    assert isinstance(answers, list) and len(answers) == len(expect)
    for got, want in zip(answers, expect, strict=True):
        wanted = None if want.get("answer_null") else want["answer"]
        assert _matches(wanted, got["answer"]), (got["answer"], got["why"])
        rules = want.get("rules") or []
        assert isinstance(rules, list)
        if rules:
            assert set(rules) & set(got["rules"]), (got["rules"], rules, got["why"])
