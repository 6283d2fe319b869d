"""`judge ask` on questions nobody tuned the grammar to, by question kind.

The questions (`tests/ask/questions.toml`) were written by a helper who never read the grammar,
from the rule texts only: each with the expected answer and the rules that may decide it, or
`expect = "decline"` (out of scope, ambiguous). Run:
`.venv/bin/python bench/eval_ask.py [--verbose] [--kind KIND]`. Prints, by kind: right (the
expected answer, citing at least one of the expected rules), right without such a rule, not
understood, wrong (an answer that is not the expected one, or an answer to a question that
should have been declined). The test suite imports `load_questions` and `grade` from here.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.ask.answer import AskResult, ask

QUESTIONS_FILE = Path(__file__).resolve().parent.parent / "tests" / "ask" / "questions.toml"
OUTCOMES = ("right", "right_no_rule", "declined", "not_understood", "wrong")


@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """One question of the set, as written."""

    q: str
    edition: str
    kind: str
    expect: str
    answer: Any
    rules: tuple[str, ...]
    note: str


def load_questions(path: Path = QUESTIONS_FILE) -> tuple[Question, ...]:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return tuple(Question(q=item["q"], edition=str(item.get("edition", "")), kind=item["kind"],
                          expect=item["expect"], answer=item.get("answer"), rules=tuple(item.get("rules", ())),
                          note=item.get("note", ""))
                 for item in data["question"])


def _plain(value: Any) -> Any:
    """TOML has no null: the set writes it "null"."""
    if value == "null":
        return None
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _same(expected: Any, given: Any) -> bool:
    expected = _plain(expected)
    if isinstance(expected, dict) and isinstance(given, dict):
        return all(_same(v, given.get(k)) for k, v in expected.items())
    if isinstance(expected, list) and isinstance(given, list):
        return len(expected) == len(given) and all(_same(e, g) for e, g in zip(expected, given, strict=True))
    return bool(expected == given)


def grade(question: Question, result: AskResult) -> str:
    """One of OUTCOMES."""
    if question.expect == "decline":
        return "declined" if not result.understood else "wrong"
    if not result.understood:
        return "not_understood"
    if result.situation is None or result.situation.get("edition") != question.edition:
        return "wrong"
    answers = [a for a in result.answers if a.get("ask") == question.kind] or list(result.answers)
    if len(answers) != 1:
        return "wrong"
    given = answers[0].get("answer")
    if isinstance(given, dict) and not isinstance(question.answer, dict) and question.kind in given:
        given = given[question.kind]  # `where` after a told sequence: who holds priority now
    if not _same(question.answer, given):
        return "wrong"
    return "right" if set(answers[0].get("rules", ())) & set(question.rules) else "right_no_rule"


def evaluate(questions: tuple[Question, ...]) -> list[tuple[Question, AskResult, str]]:
    out = []
    for question in questions:
        result = ask(question.q, with_search=False)
        out.append((question, result, grade(question, result)))
    return out


def figures(graded: list[tuple[Question, AskResult, str]]) -> str:
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    for question, _, outcome in graded:
        by_kind[question.kind][outcome] += 1
    lines = [f"{'kind':20} {'n':>4} " + " ".join(f"{o:>14}" for o in OUTCOMES)]
    total: Counter[str] = Counter()
    for kind in sorted(by_kind):
        counts = by_kind[kind]
        total.update(counts)
        lines.append(f"{kind:20} {sum(counts.values()):>4} " + " ".join(f"{counts[o]:>14}" for o in OUTCOMES))
    n = sum(total.values())
    lines.append(f"{'total':20} {n:>4} " + " ".join(f"{total[o]:>14}" for o in OUTCOMES))
    good = total["right"] + total["declined"]
    lines.append(f"right with a deciding rule, or rightly declined: {good}/{n} = {good / max(n, 1):.1%}; "
                 f"wrong: {total['wrong']}")
    answerable = sum(1 for q, _, _ in graded if q.expect == "answer")
    lines.append(f"answerable questions right with a deciding rule: {total['right']}/{answerable} = "
                 f"{total['right'] / max(answerable, 1):.1%}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--verbose", action="store_true", help="every question not right, with what was understood")
    parser.add_argument("--kind", help="only this kind")
    args = parser.parse_args(argv)
    questions = tuple(q for q in load_questions() if args.kind in (None, q.kind))
    graded = evaluate(questions)
    if args.verbose:
        for question, result, outcome in graded:
            if outcome not in ("right", "declined"):
                print(f"[{outcome}] {question.kind}: {question.q}")
                print(f"    {result.understood_as}")
                if result.understood:
                    print(f"    attendu {question.answer!r} {list(question.rules)} ; "
                          f"donné {[(a.get('answer'), a.get('rules')) for a in result.answers]}")
    print(figures(graded))
    return 0


if __name__ == "__main__":
    sys.exit(main())
