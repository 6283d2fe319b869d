"""`judge ask` on questions nobody tuned the reader to, by writer and by question kind.

A set file (`tests/ask/questions.toml` by default; the development sets in `tests/ask/dev/`,
any file in the writers' format) holds questions written from the rule texts only, by writers
who never read the reader: each with the expected answer and the rules that may decide it, or
`expect = "decline"` (`kind = "out_of_scope"`, or `"ambiguous"`: a fact the answer depends on is
missing). Run: `.venv/bin/python bench/eval_ask.py [FILE ...] [--verbose] [--kind KIND]`.
Prints, by writer (the file's name) and by kind: right (the expected answer, citing at least one
of the expected rules), right without such a rule, declined as out of scope, declined as
something missing, not understood, wrong (an answer that is not the expected one, or an answer
to a question that should have been declined). A decline of an out-of-scope question counts as
right only when declined as out of scope. The test suite imports `load_questions` and `grade`.
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
from judge.errors import JudgeError

QUESTIONS_FILE = Path(__file__).resolve().parent.parent / "tests" / "ask" / "questions.toml"
OUTCOMES = ("right", "right_no_rule", "declined_out_of_scope", "declined_missing", "not_understood", "wrong")
DECLINES = ("declined_out_of_scope", "declined_missing", "not_understood")


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
    writer: str = ""


def load_questions(path: Path = QUESTIONS_FILE) -> tuple[Question, ...]:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return tuple(Question(q=item["q"], edition=str(item.get("edition", "")), kind=item["kind"],
                          expect=item["expect"], answer=item.get("answer"), rules=tuple(item.get("rules", ())),
                          note=item.get("note", ""), writer=path.stem)
                 for item in data["question"])


def good(question: Question, outcome: str) -> bool:
    """Right with a deciding rule, or declined for the right reason (an out-of-scope question as
    out of scope; an ambiguous one as something missing or not understood)."""
    if question.expect == "answer":
        return outcome == "right"
    if question.kind == "out_of_scope":
        return outcome == "declined_out_of_scope"
    return outcome in DECLINES


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
    if not result.understood:
        declined = getattr(result, "declined", None) or ("not_understood" if result.not_understood else "missing")
        return {"out_of_scope": "declined_out_of_scope", "missing": "declined_missing"}.get(declined, "not_understood")
    if question.expect == "decline":
        return "wrong"
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
        try:
            result = ask(question.q, with_search=False)
        except JudgeError as error:  # refused as input (too long, too many names): not understood
            result = AskResult(question=question.q, understood=False, not_understood=(), understood_as=str(error),
                               situation=None, answers=(), report=None, search=(), declined="not_understood")
        out.append((question, result, grade(question, result)))
    return out


def _table(title: str, groups: dict[str, list[tuple[Question, str]]]) -> list[str]:
    lines = [f"{title:22} {'n':>4} " + " ".join(f"{o[:13]:>13}" for o in OUTCOMES) + f" {'good':>6}"]
    for name in sorted(groups):
        counts = Counter(outcome for _, outcome in groups[name])
        ok = sum(good(q, o) for q, o in groups[name])
        lines.append(f"{name:22} {len(groups[name]):>4} " + " ".join(f"{counts[o]:>13}" for o in OUTCOMES)
                     + f" {ok:>6}")
    return lines


def figures(graded: list[tuple[Question, AskResult, str]]) -> str:
    by_kind: dict[str, list[tuple[Question, str]]] = defaultdict(list)
    by_writer: dict[str, list[tuple[Question, str]]] = defaultdict(list)
    for question, _, outcome in graded:
        by_kind[question.kind].append((question, outcome))
        by_writer[question.writer].append((question, outcome))
        by_writer["total"].append((question, outcome))
    lines = [*_table("kind", by_kind), "", *_table("writer", by_writer), ""]
    for writer in sorted(by_writer):
        rows = by_writer[writer]
        answerable = [o for q, o in rows if q.expect == "answer"]
        scope = [o for q, o in rows if q.kind == "out_of_scope"]
        wrong = sum(o == "wrong" for _, o in rows)
        lines.append(f"{writer}: answerable right with a deciding rule {answerable.count('right')}/{len(answerable)}"
                     f" = {answerable.count('right') / max(len(answerable), 1):.1%}; out of scope declined as such "
                     f"{scope.count('declined_out_of_scope')}/{len(scope)}; wrong {wrong}")
    total = by_writer["total"]
    right = sum(o == "right" for q, o in total if q.expect == "answer")
    answerable_n = sum(q.expect == "answer" for q, _ in total)
    lines.append(f"answerable questions right with a deciding rule: {right}/{answerable_n} = "
                 f"{right / max(answerable_n, 1):.1%}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", nargs="*", type=Path, help="set files (default: tests/ask/questions.toml)")
    parser.add_argument("--verbose", action="store_true", help="every question not right, with what was understood")
    parser.add_argument("--kind", help="only this kind")
    args = parser.parse_args(argv)
    questions = tuple(q for path in (args.files or [QUESTIONS_FILE]) for q in load_questions(path)
                      if args.kind in (None, q.kind))
    graded = evaluate(questions)
    if args.verbose:
        for question, result, outcome in graded:
            if not good(question, outcome):
                print(f"[{outcome}] {question.writer} {question.kind}: {question.q}")
                print(f"    {result.understood_as}")
                if result.understood:
                    print(f"    attendu {question.answer!r} {list(question.rules)} ; "
                          f"donné {[(a.get('answer'), a.get('rules')) for a in result.answers]}")
    print(figures(graded))
    return 0


if __name__ == "__main__":
    sys.exit(main())
