"""`judge ask` never breaks on a question it half-understands: the fresh questions, mutated
(words dropped, swapped, repeated, cut, numbers and names changed), get an answer, a « pas
compris » or a French refusal (`JudgeError`) — never another exception (a traceback)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.ask.answer import ask
from judge.errors import JudgeError

QUESTIONS = [q["q"] for q in tomllib.loads((Path(__file__).with_name("questions.toml")).read_text("utf-8"))["question"]]
NOISE = ["0", "99", "-1", "3/3", "Alice", "B", "le", "de", "pas", "tour", "étape", "attaque", "bloque",
         "blessures", "?", "«", "»", "2004", "2010", "mana", "RRG", "éphémère", "créature", "Ours"]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    words = draw(st.sampled_from(QUESTIONS)).split()
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["drop", "swap", "repeat", "cut", "insert"]))
        if not words:
            break
        i = draw(st.integers(0, len(words) - 1))
        if op == "drop":
            del words[i]
        elif op == "swap":
            j = draw(st.integers(0, len(words) - 1))
            words[i], words[j] = words[j], words[i]
        elif op == "repeat":
            words.insert(i, words[i])
        elif op == "cut":
            words = words[:i + 1]
        else:
            words.insert(i, draw(st.sampled_from(NOISE)))
    return " ".join(words) or "?"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_a_mutated_question_is_answered_declined_or_refused_in_french(question: str) -> None:
    try:
        result = ask(question, with_search=False)
    except JudgeError as error:
        assert str(error)  # a French message, shown without a traceback
        return
    assert result is not None
