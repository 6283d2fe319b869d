"""Event replay from the start of the turn: priority loop, steps, and illegal events."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from checks_support import real_graph, situation
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.checks.report import check, game_model, report_json, report_text
from judge.errors import IllegalEvent
from judge.game.situationmodel import Situation
from judge.procedure.replay import Replayed
from judge.procedure.replay import replay as replay_with

if TYPE_CHECKING:
    from judge.legality.context import RuleSource




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
    assert bear.attacking and bear.tapped and bear.blocked and elf.blocking == ("Ours",)
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
    ("2004", ['{cast = "sorcery", by = "A"}'], 0, "phase principale", "212.7a"),
    ("2004", [*[P] * 5, '{cast = "instant", by = "B"}', P, '{cast = "sorcery", by = "A"}'], 7,
     "la pile n'est pas vide", "212.7a"),
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
    # the rule deciding it first (then any other rule the refusal cites)
    assert rule is None or rule in (info.value.rule or "").split(", ")
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


# -- the whole state through a replay ----------------------------------------------------

TO_MAIN = [P] * 4


@pytest.mark.parametrize(("edition", "first_turn", "hand"), [
    ("2004", False, 8), ("2004", True, 7), ("2010", False, 8), ("2010", True, 7)])
def test_replay_draws_in_the_draw_step_except_on_the_first_turn(
    graph: RuleSource, edition: str, first_turn: bool, hand: int
) -> None:
    text = f"hands = {{A = 7, B = 7}}\nfirst_turn = {str(first_turn).lower()}\n" + _events(*TO_MAIN)
    done = replay(graph, edition, situation(text))
    assert done.situation.hand("A") == hand and done.situation.hand("B") == 7
    # the first turn's draw step is skipped: passed over as though it didn't exist (no priority
    # there), the skip cited (2004 101.5, 300.9; 2010 103.7a, 500.10)
    in_draw = [t for t in done.trail if t.step == "draw"]
    assert (not in_draw) == first_turn
    cited = {n for t in done.trail for n in t.concepts}
    assert ("turn.first_turn" in cited) == first_turn


def test_replay_land_and_spell_leave_the_hand_so_cleanup_discards_right(graph: RuleSource) -> None:
    # 8 cards at the start of the turn, +1 drawn, -1 land, -1 sorcery: 7 left, nothing to discard
    events = [*TO_MAIN, '{play_land = "A"}', '{cast = "sorcery", by = "A"}', P, P, *[P] * 12]
    report = report_json(check(graph, situation(
        'edition = "2010"\nhands = {A = 8}\n' + _events(*events)
        + '[[questions]]\nask = "discard"\n')))
    assert report["where"]["turn_ended"] is True
    assert report["answers"][0]["answer"] == 0
    assert "7 cartes en main" in report["answers"][0]["why"]
    assert not [t for t in report["trail"] if "se défausse" in t["what"]]


@pytest.mark.parametrize(("edition", "rule"), [("2004", "409.1a"), ("2010", "601.2a")])
def test_replay_spell_without_a_card_in_a_known_hand_is_illegal(
    graph: RuleSource, edition: str, rule: str
) -> None:
    with pytest.raises(IllegalEvent) as info:
        replay(graph, edition, situation(
            "hands = {A = 0}\nfirst_turn = true\n" + _events(*TO_MAIN, '{cast = "sorcery", by = "A"}')))
    assert info.value.index == 4 and info.value.rule == rule
    assert "aucune carte en main" in info.value.reason


def test_replay_land_without_a_card_in_hand_names_the_event(graph: RuleSource) -> None:
    with pytest.raises(IllegalEvent) as info:
        replay(graph, "2004", situation(
            "hands = {A = 0}\nfirst_turn = true\n" + _events(P, P, '{play_land = "A"}')))
    assert info.value.index == 2 and "305.4" in (info.value.rule or "").split(", ")


def test_replay_untaps_the_active_players_creatures_only(graph: RuleSource) -> None:
    text = _events() + '[[creatures]]\nname = "Ours"\ntapped = true\n[[creatures]]\nname = "Elfe"\n' \
        'controller = "B"\ntapped = true\n'
    done = replay(graph, "2010", situation(text))
    assert not done.situation.creature("Ours").tapped
    assert done.situation.creature("Elfe").tapped
    assert any("dégage" in t.what and t.concepts == ("action.untap",) for t in done.trail)


def test_replay_vigilance_attacker_stays_untapped(graph: RuleSource) -> None:
    text = _events(*[P] * 8, '{declare_attackers = ["Ange"]}') + \
        '[[creatures]]\nname = "Ange"\nabilities = ["vigilance", "vol"]\n'
    done = replay(graph, "2010", situation(text))
    angel = done.situation.creature("Ange")
    assert angel is not None and angel.attacking and not angel.tapped


@pytest.mark.parametrize(("edition", "pool", "burn"), [("2004", 0, True), ("2010", 0, False)])
def test_replay_mana_burns_at_phase_end_in_2004_and_empties_silently_in_2010(
    graph: RuleSource, edition: str, pool: int, burn: bool
) -> None:
    events = [*TO_MAIN, '{add_mana = 3, by = "A"}']
    still = replay(graph, edition, situation(_events(*events)))
    assert still.situation.mana("A") == 3
    done = replay(graph, edition, situation(_events(*events, P, P)))
    assert done.situation.mana("A") == pool and done.situation.step == "beginning_of_combat"
    lost = [t for t in done.trail if "mana" in t.what and t.event is None]
    assert len(lost) == 1 and ("3 points de vie" in lost[0].what) is burn


def test_replay_mana_stays_between_steps_of_a_phase_in_2004_only(graph: RuleSource) -> None:
    events = ['{add_mana = 1, by = "A"}', P, P]  # added in upkeep, then the upkeep ends
    assert replay(graph, "2004", situation(_events(*events))).situation.mana("A") == 1
    assert replay(graph, "2010", situation(_events(*events))).situation.mana("A") == 0


def test_replay_add_mana_needs_priority(graph: RuleSource) -> None:
    with pytest.raises(IllegalEvent) as info:
        replay(graph, "2010", situation(_events('{add_mana = 1, by = "B"}')))
    assert (info.value.index, info.value.rule) == (0, "503.2")


def test_replay_blocks_by_evasion_rules(graph: RuleSource) -> None:
    text = _events(*[P] * 8, '{declare_attackers = ["Griffon"]}', P, P,
                   '{declare_blockers = {Elfe = "Griffon"}}') + \
        '[[creatures]]\nname = "Griffon"\nabilities = ["vol"]\n[[creatures]]\nname = "Elfe"\n' \
        'controller = "B"\n'
    for edition, rule in (("2004", "502.4b"), ("2010", "702.9b")):
        with pytest.raises(IllegalEvent) as info:
            replay(graph, edition, situation(text))
        assert (info.value.index, info.value.rule) == (11, rule)


def test_report_trail_is_in_the_json_and_a_numbered_journal_in_the_text(graph: RuleSource) -> None:
    described = situation('edition = "2004"\nhands = {A = 7}\n' + _events(P, P, '{add_mana = 1, by = "A"}'))
    report = check(graph, described)
    trail = report_json(report)["trail"]
    assert isinstance(trail, list)
    assert set(trail[0]) == {"event", "what", "phase", "step", "priority", "rules"}
    assert [t["event"] for t in trail if t["event"] is not None] == [0, 1, 2]
    draw = next(t for t in trail if "pioche une carte" in t["what"])
    assert (draw["event"], draw["step"], draw["rules"]) == (None, "draw", ["304.1"])
    text = report_text(report)
    assert "Journal du tour :" in text
    assert "  1. [action du tour] Début de l'étape « dégagement »" in text
    assert ("[événement 2] A ajoute 1 mana à sa réserve (1 mana en tout) et garde la priorité. "
            "(règles 304.1, 408.1c, 408.2e)") in text
    assert "trail" not in report_json(check(graph, situation('step = "upkeep"\n')))


EVENT = st.sampled_from([
    P, P, P, '{cast = "instant", by = "A"}', '{cast = "sorcery", by = "B"}',
    '{activate = "ability", by = "B"}', '{add_mana = 2, by = "A"}', '{play_land = "A"}',
    '{declare_attackers = ["Ours", "Chevalier"]}', '{declare_attackers = []}',
    '{declare_blockers = {Elfe = "Ours"}}', '{declare_blockers = {}}',
])


@settings(max_examples=150, deadline=None)
@given(edition=st.sampled_from(["2004", "2010"]), events=st.lists(EVENT, max_size=40),
       hand=st.integers(0, 9), first=st.booleans())
def test_any_event_list_gives_a_report_or_an_illegal_event(
    edition: str, events: list[str], hand: int, first: bool
) -> None:
    text = (f'edition = "{edition}"\nhands = {{A = {hand}, B = 7}}\nfirst_turn = {str(first).lower()}\n'
            + _events(*events) + CREATURES + '[[questions]]\nask = "discard"\n')
    try:
        report = report_json(check(real_graph(), situation(text)))
    except IllegalEvent as error:
        assert 0 <= error.index < len(events) and error.reason
        return
    trail = report["trail"]
    assert isinstance(trail, list) and trail
    assert [t["event"] for t in trail if t["event"] is not None] == sorted(
        {t["event"] for t in trail if t["event"] is not None})
    answer = report["answers"][0]
    assert isinstance(answer["answer"], int) and answer["answer"] >= 0


def test_triggers_of_declarations_and_later_blocks_go_on_the_stack(graph: RuleSource) -> None:
    """509.4: once per blocker for « bloquée par une créature »; 509.7: the creature put onto
    the battlefield blocking triggers it again, not its own « quand elle bloque »."""
    text = (_events(*[P] * 8, '{declare_attackers = ["Ours"]}', P, P,
                    '{declare_blockers = {Elfe = "Ours"}}',
                    '{enters_blocking = {name = "Jeton", controller = "B", blocking = "Ours"}}')
            + CREATURES
            + '[[triggers]]\nname = "Ours bloqué par"\non = "blocked_by_creature"\ncreature = "Ours"\n'
            + '[[triggers]]\nname = "Jeton bloque"\non = "blocks"\ncreature = "Jeton"\n')
    done = replay(graph, "2010", situation(text))
    assert [item.kind for item in done.situation.stack] == ["trigger", "trigger"]
    bear = done.situation.creature("Ours")
    assert bear is not None and bear.damage_order == ("Elfe", "Jeton")


def test_a_creature_cannot_enter_blocking_before_the_blockers(graph: RuleSource) -> None:
    text = (_events(*[P] * 8, '{declare_attackers = ["Ours"]}',
                    '{enters_blocking = {name = "Jeton", controller = "B", blocking = "Ours"}}')
            + CREATURES)
    with pytest.raises(IllegalEvent) as info:
        replay(graph, "2010", situation(text))
    assert info.value.index == 9 and "après la déclaration des bloqueurs" in info.value.reason


def test_a_blocker_of_one_member_of_a_band_blocks_the_band(graph: RuleSource) -> None:
    """2004 502.10e: each other creature in the band becomes blocked by that blocker."""
    text = (_events(*[P] * 8, '{declare_attackers = ["Héros", "Ours"]}', P, P,
                    '{declare_blockers = {Elfe = "Ours"}}')
            + '[[creatures]]\nname = "Héros"\nabilities = ["regroupement"]\nband = "a"\n'
            + '[[creatures]]\nname = "Ours"\nband = "a"\n'
            + '[[creatures]]\nname = "Elfe"\ncontroller = "B"\n')
    done = replay(graph, "2004", situation(text))
    elf, hero = done.situation.creature("Elfe"), done.situation.creature("Héros")
    assert elf is not None and hero is not None
    assert elf.blocking == ("Ours", "Héros") and hero.blocked
