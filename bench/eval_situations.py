"""Situation files written by fresh writers (the format of tests/situations/derived*), graded
once: right (the expected answers, citing one of the expected rules), right without such a rule,
refused as expected (`expect_error`: the engine refuses, naming one of the rules), wrong
(another answer, a refusal of a valid situation, or an invalid one answered). By topic (the
file name's first word) and edition. Run: `.venv/bin/python bench/eval_situations.py FOLDER...`
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

from judge.checks.report import check, report_json
from judge.checks.store import load_store
from judge.errors import JudgeError
from judge.game.situation import load_situation


def _matches(expected: object, actual: object) -> bool:
    if expected == "null":
        expected = None
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(_matches(e, a) for e, a in zip(expected, actual, strict=True)))
    return type(expected) is type(actual) and expected == actual


def grade(path: Path, rules: object) -> tuple[str, str]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    expect = data.pop("expect", [])
    error = data.pop("expect_error", None)
    text = json.dumps(data)
    if error is not None:
        numbers = [n for group in re.findall(r"\(([^()]*\d{3}\.\d[^()]*)\)", error)
                   for n in re.findall(r"\d{3}\.\d+[a-z]?", group)]
        try:
            check(rules, load_situation(text, source=str(path), fmt="json"))
        except JudgeError as caught:
            said = str(caught)
            return ("refused" if any(n in said for n in numbers) else "refused_other_rule"), said
        return "wrong", "answered an invalid situation"
    try:
        report = report_json(check(rules, load_situation(text, source=str(path), fmt="json")))
    except JudgeError as caught:
        return "wrong", f"refused: {caught}"
    answers = report["answers"]
    if not isinstance(answers, list) or len(answers) != len(expect):
        return "wrong", "answer count"
    outcome = "right"
    for got, want in zip(answers, expect, strict=True):
        wanted = None if want.get("answer_null") else want.get("answer")
        if not _matches(wanted, got["answer"]):
            return "wrong", f"{got['answer']!r} ({got['why']})"
        if want.get("rules") and not set(want["rules"]) & set(got["rules"]):
            outcome = "right_no_rule"
    return outcome, ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    rules = load_store(None).catalogue
    by: dict[str, Counter[str]] = defaultdict(Counter)
    total: Counter[str] = Counter()
    for folder in args.folders:
        for path in sorted(folder.rglob("*.toml")):
            outcome, why = grade(path, rules)
            topic, edition = path.stem.split("_")[0], path.stem.split("_")[1]
            by[f"{topic} {edition}"][outcome] += 1
            total[outcome] += 1
            if args.verbose and outcome not in ("right", "refused"):
                print(f"[{outcome}] {path.name}: {why[:300]}")
    for key in sorted(by):
        print(f"{key:22} " + " ".join(f"{o}={n}" for o, n in sorted(by[key].items())))
    n = sum(total.values())
    good = total["right"] + total["refused"]
    print(f"total {n}: " + " ".join(f"{o}={c}" for o, c in sorted(total.items()))
          + f" ; right with a deciding rule or refused citing the rule: {good}/{n} = {good / max(n, 1):.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
