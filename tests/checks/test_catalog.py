"""The catalog's table of topic modules."""

from __future__ import annotations

from judge.checks.catalog import TOPICS, every_check
from judge.game.situationmodel import ASKS


def test_every_question_of_the_format_is_a_registered_check_of_a_topic_module() -> None:
    specs = every_check()
    topics = [module.__name__ for module in TOPICS]
    assert {spec.name for spec in specs if spec.ask is not None} == set(ASKS)
    # listed topic by topic, in the order of TOPICS
    assert [topics.index(spec.topic) for spec in specs] == sorted(
        topics.index(spec.topic) for spec in specs)
    for spec in specs:
        if spec.function is None:
            assert spec.name not in ASKS  # a mechanism (the replay's rules), not a question
        else:
            assert spec.function.__module__ == spec.topic in topics, spec.name

