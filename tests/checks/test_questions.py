"""The French words of the questions table cover what the situation format accepts."""

from __future__ import annotations

from judge.checks.questions import COMBAT_POINT_WORDS, KIND_LABELS, QUESTION_BY_ASK, check_label
from judge.game.situationmodel import ASKS, COMBAT_POINTS, STACK_KINDS


def test_every_stack_kind_has_its_french_name() -> None:
    assert set(KIND_LABELS) == set(STACK_KINDS)


def test_every_combat_point_has_its_french_words() -> None:
    assert set(COMBAT_POINT_WORDS) == set(COMBAT_POINTS)


def test_every_ask_of_the_format_is_a_french_question() -> None:
    assert set(QUESTION_BY_ASK) == set(ASKS)
    for ask in ASKS:
        assert check_label(ask).endswith("?") and ask not in check_label(ask)
