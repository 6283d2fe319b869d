"""Event replay from the start of the turn: priority loop, steps, and illegal events."""

from __future__ import annotations

import pytest
from checks_support import real_graph, situation
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.checks.context import RuleSource
from judge.checks.replay import Replayed
from judge.checks.replay import replay as replay_with
from judge.checks.report import check, game_model, report_json
from judge.errors import IllegalEvent
from judge.game.model import Situation


@pytest.fixture(scope="module")
def graph() -> RuleSource:
    return real_graph()


def replay(graph: RuleSource, edition: str, described: Situation) -> Replayed:
    return replay_with(graph, edition, game_model(graph, edition), described)


def _events(*events: str) -> str:
    return "events = [" + ", ".join(events) + "]\n"


P = '"pass"'
CREATURES = """
[[creatures]]
name = "Ours"
[[creatures]]
name = "Chevalier"
abilities = ["initiative"]
[[creatures]]
name = "Elfe"
controller = "B"
[[creatures]]
name = "Mur"
types = ["Mur"]
[[creatures]]
name = "Nouveau"
since_turn_start = false
"""


def _run(graph: RuleSource, edition: str, events: str) -> dict[str, object]:
    return report_json(check(graph, situation(f'edition = "{edition}"\n{events}{CREATURES}')))


def test_replay_without_events_stops_in_upkeep_with_active_priority(graph: RuleSource) -> None:
    done = replay(graph, "2004", situation(_events()))
    assert (done.situation.step, done.situation.priority, done.ended) == ("upkeep", "A", False)


def test_replay_passes_priority_around_before_the_step_ends(graph: RuleSource) -> None:
    done = replay(graph, "2004", situation(_events(P)))
    assert (done.situation.step, done.situation.priority) == ("upkeep", "B")


def test_replay_caster_keeps_priority_and_spell_resolves(graph: RuleSource) -> None:
    done = replay(graph, "2004", situation(_events('{cast = "instant", by = "A"}')))
    assert done.situation.priority == "A" and len(done.situation.stack) == 1
    done = replay(graph, "2004", situation(_events('{cast = "instant", by = "A"}', P, P)))
    assert done.situation.stack == () and done.situation.step == "upkeep"


def test_replay_declares_attackers_and_blockers(graph: RuleSource) -> None:
    events = _events(*[P] * 8, '{declare_attackers = ["Ours"]}', P, P,
                     '{declare_blockers = {Elfe = "Ours"}}')
    done = replay(graph, "2004", situation(events + CREATURES))
    bear = done.situation.creature("Ours")
    elf = done.situation.creature("Elfe")
    assert bear is not None and elf is not None
    assert bear.attacking and bear.tapped and bear.blocked and elf.blocking == "Ours"
    assert done.situation.step == "declare_blockers"


def test_replay_puts_combat_damage_on_the_stack_only_in_2004(graph: RuleSource) -> None:
    events = _events(*[P] * 8, '{declare_attackers = ["Ours"]}', P, P, P, P)
    old = replay(graph, "2004", situation(events + CREATURES)).situation
    new = replay(graph, "2010", situation(events + CREATURES)).situation
    assert old.step == new.step == "combat_damage"
    assert [item.kind for item in old.stack] == ["combat_damage"]
    assert new.stack == ()


def test_replay_first_strike_makes_two_damage_steps(graph: RuleSource) -> None:
    events = _events(*[P] * 8, '{declare_attackers = ["Chevalier", "Ours"]}', P, P, P, P, P, P,
                     P, P)
    report = _run(graph, "2004", events)
    assert report["where"]["step"] == "combat_damage"
    assert report["where"]["damage_step"] == "regular"


def test_replay_removes_creatures_from_combat_after_combat(graph: RuleSource) -> None:
    events = _events(*[P] * 8, '{declare_attackers = ["Ours"]}', *[P] * 10)
    done = replay(graph, "2004", situation(events + CREATURES))
    bear = done.situation.creature("Ours")
    assert done.situation.phase == "postcombat_main"
    assert bear is not None and not bear.attacking


def test_replay_cleanup_discards_down_to_maximum(graph: RuleSource) -> None:
    done = replay(graph, "2004", situation("hands = {A = 10}\n" + _events(*[P] * 16)))
    assert done.ended and done.situation.hand("A") == 7


ILLEGAL = [
    ("2004", [P, '{cast = "instant", by = "A"}'], 1, "n'a pas la priorité", "303.1"),
    ("2004", ['{cast = "sorcery", by = "A"}'], 0, "phase principale", "305.3"),
    ("2004", [*[P] * 5, '{cast = "instant", by = "B"}', P, '{cast = "sorcery", by = "A"}'], 7,
     "la pile n'est pas vide", "305.3"),
    ("2004", [*[P] * 4, '{play_land = "A"}', '{play_land = "A"}'], 5, "déjà joué", "305.4"),
    ("2004", ['{play_land = "A"}'], 0, "phase principale", "305.4"),
    ("2004", [*[P] * 4, '{play_land = "B"}'], 4, "joueur actif", "305.4"),
    ("2004", ['{activate = "ability", by = "B"}'], 0, "n'a pas la priorité", "303.1"),
    ("2004", ['{declare_attackers = ["Ours"]}'], 0, "au début de l'étape", "308.1"),
    ("2004", [*[P] * 8, '{declare_attackers = ["Mur"]}'], 8, "« Mur »", "308.2a"),
    ("2004", [*[P] * 8, '{declare_attackers = ["Nouveau"]}'], 8, "célérité", "308.2a"),
    ("2004", [*[P] * 8, '{declare_attackers = ["Elfe"]}'], 8, "joueur actif", "306.3"),
    ("2004", [*[P] * 8, '{declare_attackers = ["Ours", "Ours"]}'], 8, "deux fois", "308.2a"),
    ("2004", [*[P] * 8, '{declare_attackers = ["Ours"]}', P, P,
              '{declare_blockers = {Ours = "Ours"}}'], 11, "joueur actif", "306.3"),
    ("2004", [*[P] * 8, '{declare_attackers = ["Ours"]}', P, P, P,
              '{declare_blockers = {Elfe = "Ours"}}'], 12, "au début de l'étape", "309.1"),
    ("2004", [*[P] * 16, P], 16, "le tour est terminé", "314.3"),
    ("2010", [P, '{cast = "instant", by = "A"}'], 1, "n'a pas la priorité", "503.2"),
    ("2010", [*[P] * 8, '{declare_attackers = ["Nouveau"]}'], 8, "célérité", "508.1a"),
    ("2010", [*[P] * 4, '{cast = "planeswalker", by = "B"}'], 4, "n'a pas la priorité", "505.5"),
]


@pytest.mark.parametrize(("edition", "events", "index", "reason", "rule"), ILLEGAL)
def test_replay_rejects_illegal_event_with_index_and_rule(
    graph: RuleSource, edition: str, events: list[str], index: int, reason: str, rule: str | None
) -> None:
    with pytest.raises(IllegalEvent) as info:
        replay(graph, edition, situation(f'edition = "{edition}"\n' + _events(*events) + CREATURES))
    assert info.value.index == index
    assert reason in info.value.reason
    assert info.value.rule == rule
    assert str(info.value).startswith(f"events[{index}]")


# Steps with priority in a turn without attackers: upkeep, draw, main 1, beginning of
# combat, declare attackers, end of combat, main 2, end of turn.
PRIORITY_STEPS = 8


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 5), edition=st.sampled_from(["2004", "2010"]),
       spells=st.integers(0, 3))
def test_replaying_only_passes_reaches_the_end_of_the_turn(players: int, edition: str,
                                                           spells: int) -> None:
    names = [f"J{i}" for i in range(players)]
    events = ['{cast = "instant", by = "J0"}'] * spells + [P] * (players * (PRIORITY_STEPS + spells))
    text = f'edition = "{edition}"\nplayers = {names!r}\n'.replace("'", '"') + _events(*events)
    done = replay(real_graph(), edition, situation(text))
    assert done.ended
    assert (done.situation.phase, done.situation.step) == ("ending", "cleanup")
    with pytest.raises(IllegalEvent):
        replay(real_graph(), edition, situation(text.replace("events = [", "events = [" + P + ", ")))


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), passes=st.integers(0, 30))
def test_replaying_fewer_passes_never_ends_the_turn_early(players: int, passes: int) -> None:
    names = [f"J{i}" for i in range(players)]
    total = players * PRIORITY_STEPS
    text = f'players = {names!r}\n'.replace("'", '"') + _events(*[P] * min(passes, total - 1))
    done = replay(real_graph(), "2004", situation(text))
    assert not done.ended and done.situation.priority is not None
