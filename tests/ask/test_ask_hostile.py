"""`judge ask` bounded by construction (issue 38): words after folding and names are capped, so
a 500-character question is refused in French or answered, whatever its characters — never a
traceback, never minutes of parsing. (Each capped case took 9 s to 300 s and up to 1.4 GB
before the caps; speed itself is measured by hand, not asserted here.)"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.ask.answer import ask
from judge.ask.reader import MAX_NAMES, MAX_WORDS
from judge.ask.words import MAX_QUESTION
from judge.errors import JudgeError


@pytest.mark.parametrize("question", [
    "B" + "\ufdfa" * 120,  # one character folds into four words: 480 words
    ("B " * 250)[:MAX_QUESTION],
    ("Ours " * 100)[:MAX_QUESTION],
])
def test_too_many_words_after_folding_is_refused_in_french(question: str) -> None:
    with pytest.raises(JudgeError, match=r"question trop longue : \d+ mots \(au plus 64\)"):
        ask(question, with_search=False)


def test_too_many_names_is_refused_in_french() -> None:
    question = "Mon " + " ".join(f"Nom{chr(65 + i)}" for i in range(MAX_NAMES + 1)) + " peut-il attaquer ?"
    with pytest.raises(JudgeError, match="trop de noms dans la question"):
        ask(question, with_search=False)


def test_repeated_words_within_the_cap_are_read() -> None:
    result = ask(" ".join(["attaque"] * (MAX_WORDS - 4)), with_search=False)
    assert result.understood is False


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=MAX_QUESTION))
def test_any_characters_are_answered_declined_or_refused_in_french(question: str) -> None:
    try:
        result = ask(question, with_search=False)
    except JudgeError as error:
        assert str(error)
        return
    assert result.understood_as
