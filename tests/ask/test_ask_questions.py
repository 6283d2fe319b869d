"""`judge ask` on the questions a helper who never read the grammar wrote (tests/ask/questions.toml).

Every question goes through the library call `judge ask` makes (and a few through the
installed command). Held: no wrong answer (an answer that is not the expected one, or an
answer to a question that should be declined), every out-of-scope or ambiguous question
declined, and at least the share of right answers with a deciding rule measured when this
test was written (bench/eval_ask.py prints the figures by kind).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from judge.ask.answer import ask

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("eval_ask", ROOT / "bench" / "eval_ask.py")
assert _spec is not None and _spec.loader is not None
evaluation = importlib.util.module_from_spec(_spec)
sys.modules["eval_ask"] = evaluation
_spec.loader.exec_module(evaluation)
evaluate, figures, grade = evaluation.evaluate, evaluation.figures, evaluation.grade

QUESTIONS = evaluation.load_questions()
# Measured (bench/eval_ask.py): 191/202 = 94.6 % when the grammar was last improved (triggers,
# turn order, cleanup, named multiplayer games, combat timing, declarations, sacrifice,
# regeneration and control change understood); a floor just below it (the goal is 85 %).
RIGHT_FLOOR = 0.94
@pytest.fixture(scope="module")
def graded():
    return evaluate(QUESTIONS)


def test_the_set_is_as_written() -> None:
    assert len(QUESTIONS) >= 150
    kinds = Counter(q.kind for q in QUESTIONS)
    assert kinds["out_of_scope"] and kinds["ambiguous"]
    assert all(q.rules for q in QUESTIONS if q.expect == "answer")


def test_no_wrong_answer(graded) -> None:
    wrong = [(q.q, r.understood_as, [a.get("answer") for a in r.answers])
             for q, r, outcome in graded if outcome == "wrong"]
    assert wrong == [], figures(graded)


def test_out_of_scope_and_ambiguous_declined(graded) -> None:
    answered = [q.q for q, r, _ in graded if q.expect == "decline" and r.understood]
    assert answered == []


def test_right_with_a_deciding_rule(graded) -> None:
    answerable = [outcome for q, _, outcome in graded if q.expect == "answer"]
    right = answerable.count("right") / len(answerable)
    print(figures(graded))  # the figures by kind, with `pytest -s`
    assert right >= RIGHT_FLOOR, figures(graded)


@pytest.mark.parametrize("index", [0, 1, len(QUESTIONS) - 1])
def test_installed_command_says_the_same(index: int) -> None:
    question = QUESTIONS[index]
    done = subprocess.run([sys.executable, "-m", "judge", "ask", question.q, "--json"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == (0 if json.loads(done.stdout)["understood"] else 1)
    library = ask(question.q, with_search=False)
    data = json.loads(done.stdout)
    assert data["understood"] == library.understood
    assert data["answers"] == list(library.answers)
    assert grade(question, library) != "wrong"
