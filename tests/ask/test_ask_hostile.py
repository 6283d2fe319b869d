"""`judge ask` bounded by construction (issues 38, 40): characters, words after folding, the words
that reach the parser and names are capped, so a question of up to 2,000 characters (a story
told before it) is refused in French or answered, whatever its characters — never a traceback,
never minutes of parsing. (Each capped case took 9 s to 300 s and up to 1.4 GB before the caps;
speed itself is measured by hand, not asserted here.)"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.ask.answer import ask
from judge.ask.reader import MAX_NAMES, MAX_READ, MAX_WORDS
from judge.ask.words import MAX_QUESTION
from judge.errors import JudgeError


def test_ten_thousand_words_are_refused_in_french() -> None:
    with pytest.raises(JudgeError, match=rf"question trop longue : \d+ caractères \(au plus {MAX_QUESTION}\)"):
        ask("attaque " * 10_000, with_search=False)


@pytest.mark.parametrize("question", [
    "B" + "\ufdfa" * 120,  # one character folds into four words: 480 words
    ("B " * 1000)[:MAX_QUESTION],
    ("Ours " * 400)[:MAX_QUESTION],
])
def test_too_many_words_after_folding_is_refused_in_french(question: str) -> None:
    with pytest.raises(JudgeError, match=rf"question trop longue : \d+ mots \(au plus {MAX_WORDS}\)"):
        ask(question, with_search=False)


def test_too_many_words_that_count_is_refused_in_french() -> None:
    # Words with a game meaning all reach the parser: past MAX_READ, refused (Earley's bound).
    with pytest.raises(JudgeError, match=rf"question trop longue : \d+ mots qui comptent \(au plus {MAX_READ}\)"):
        ask(" ".join(["attaque"] * (MAX_READ + 1)), with_search=False)


def test_a_long_story_of_words_without_game_meaning_is_read() -> None:
    # A story-teller's words that carry nothing are dropped before the parser: 284 words read.
    story = "Alors voilà, bref, hier soir, " * 55 + "je peux jouer un terrain pendant mon entretien ?"
    result = ask(story[:MAX_QUESTION], with_search=False)
    assert "hier" in result.skipped and result.understood


def test_too_many_names_is_refused_in_french() -> None:
    question = "Mon " + " ".join(f"Nom{chr(65 + i)}" for i in range(MAX_NAMES + 1)) + " peut-il attaquer ?"
    with pytest.raises(JudgeError, match="trop de noms dans la question"):
        ask(question, with_search=False)


def test_repeated_words_within_the_cap_are_read() -> None:
    result = ask(" ".join(["attaque"] * (MAX_READ - 4)), with_search=False)
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
