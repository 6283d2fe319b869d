"""The turn's procedure beyond the situation files: state-based actions in a replay, the first
turn, invalid states, the journal's order, plain names, extra phases given in any order."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from checks_support import real_graph, situation

from judge.checks.replay import Replayed
from judge.checks.replay import replay as replay_with
from judge.checks.report import check, game_model, report_json
from judge.errors import IllegalEvent, SituationError

if TYPE_CHECKING:
    from judge.checks.context import RuleSource
    from judge.game.situationmodel import Situation

TO_ATTACKERS = ['"pass"'] * 8


@pytest.fixture(scope="module")
def graph() -> RuleSource:
    return real_graph()


def replay(graph: RuleSource, edition: str, described: Situation) -> Replayed:
    return replay_with(graph, edition, game_model(graph, edition), described)


def _trail(graph: RuleSource, text: str) -> list[tuple[str, tuple[str, ...]]]:
    report = report_json(check(graph, situation(text)))
    trail = report["trail"]
    assert isinstance(trail, list)
    return [(entry["what"], tuple(entry["rules"])) for entry in trail]


@pytest.mark.parametrize(("edition", "rules"), [("2004", ("420.3", "420.5c")),
                                                ("2010", ("704.3", "704.5g"))])
def test_a_creature_with_lethal_damage_is_destroyed_before_priority_and_deals_no_more_damage(
        graph: RuleSource, edition: str, rules: tuple[str, ...]) -> None:
    # A 3/3 first striker blocked by a 3/1: the blocker dies after the first-strike damage; in
    # the regular damage step it deals nothing, and the cleanup heals only the survivors.
    on_stack = ['"pass"', '"pass"'] if edition == "2004" else []
    events = [*TO_ATTACKERS, '{declare_attackers = ["Lame"]}', '"pass"', '"pass"',
              '{declare_blockers = {Brute = "Lame"}}', '"pass"', '"pass"', *on_stack,
              '"pass"', '"pass"', *on_stack]
    text = (f'edition = "{edition}"\nevents = [{", ".join(events)}]\n'
            '[[creatures]]\nname = "Lame"\ncontroller = "A"\nabilities = ["first_strike"]\n'
            'power = 3\ntoughness = 3\n'
            '[[creatures]]\nname = "Brute"\ncontroller = "B"\npower = 3\ntoughness = 1\n'
            '[[questions]]\nask = "damage_dealt"\n')
    done = replay(graph, edition, situation(text))
    brute = done.situation.creature("Brute")
    assert brute is not None and not brute.in_play and brute.destroyed == "sba.lethal_damage"
    lame = done.situation.creature("Lame")
    assert lame is not None and lame.damage == 0  # the blocker never dealt its damage
    trail = _trail(graph, text)
    sba = [i for i, (what, cited) in enumerate(trail) if set(rules) <= set(cited)]
    assert len(sba) == 1
    # performed before the active player receives priority in the first-strike damage step
    assert trail[sba[0] + 1][0] == "A reçoit la priorité."


def test_a_player_at_zero_life_loses_and_no_event_follows(graph: RuleSource) -> None:
    events = [*TO_ATTACKERS, '{declare_attackers = ["Ours"]}', '"pass"', '"pass"', '"pass"',
              '"pass"', '"pass"']
    text = ('edition = "2010"\nlife = {B = 2}\nevents = [' + ", ".join(events) + "]\n"
            '[[creatures]]\nname = "Ours"\ncontroller = "A"\npower = 2\ntoughness = 2\n')
    with pytest.raises(IllegalEvent) as caught:
        replay(graph, "2010", situation(text))
    assert "la partie est terminée" in str(caught.value)
    assert "704.5a" in str(caught.value)


@pytest.mark.parametrize("edition", ["2004", "2010"])
def test_a_described_first_turn_has_no_draw_step(graph: RuleSource, edition: str) -> None:
    with pytest.raises(SituationError) as caught:
        check(graph, situation(f'edition = "{edition}"\nfirst_turn = true\nstep = "draw"\n'))
    assert caught.value.field == "first_turn"


def test_a_three_player_first_turn_has_a_draw_step_in_2010_only(graph: RuleSource) -> None:
    text = 'players = ["A", "B", "C"]\nfirst_turn = true\nstep = "upkeep"\n[[questions]]\nask = "next"\n'
    answers = {edition: report_json(check(graph, situation(f'edition = "{edition}"\n' + text)))
               for edition in ("2004", "2010")}
    assert answers["2010"]["answers"][0]["answer"]["step"] == "draw"  # type: ignore[index]
    assert answers["2004"]["answers"][0]["answer"]["phase"] == "precombat_main"  # type: ignore[index]


def test_combat_damage_on_the_stack_is_refused_in_2010_only(graph: RuleSource) -> None:
    text = ('step = "combat_damage"\npriority = "A"\n'
            'stack = [{kind = "combat_damage", controller = "A"}]\n'
            '[[creatures]]\nname = "Ours"\ncontroller = "A"\nattacking = true\n')
    with pytest.raises(SituationError) as caught:
        check(graph, situation('edition = "2010"\nphase = "combat"\n' + text))
    assert caught.value.field == "stack" and "510.2" in str(caught.value)
    check(graph, situation('edition = "2004"\nphase = "combat"\n' + text))


@pytest.mark.parametrize("edition", ["2004", "2010"])
def test_the_journal_gives_priority_after_the_declarations(graph: RuleSource, edition: str) -> None:
    events = [*TO_ATTACKERS, '{declare_attackers = ["Ours"]}', '"pass"', '"pass"',
              '{declare_blockers = {}}']
    text = (f'edition = "{edition}"\nevents = [' + ", ".join(events) + "]\n"
            '[[creatures]]\nname = "Ours"\ncontroller = "A"\n')
    said = [what for what, _ in _trail(graph, text)]
    attackers = next(i for i, w in enumerate(said) if w.startswith("A déclare comme attaquant"))
    blockers = next(i for i, w in enumerate(said) if w.startswith("Déclaration des bloqueurs"))
    assert said[attackers - 1].startswith("Début de l'étape « déclaration des attaquants »")
    assert said[attackers + 1] == "A reçoit la priorité."
    assert said[blockers - 1].startswith("Début de l'étape « déclaration des bloqueurs »")
    assert said[blockers + 1] == "A reçoit la priorité."


def test_plain_names_are_read_as_the_active_players() -> None:
    loaded = situation('active = "B"\nstep = "upkeep"\npending_triggers = ["Folie"]\npermanents = ["Autel"]\n')
    assert [(t.name, t.controller) for t in loaded.pending_triggers] == [("Folie", "B")]
    assert [(p.name, p.controller) for p in loaded.permanents] == [("Autel", "B")]


@pytest.mark.parametrize("order", [0, 1])
def test_combat_then_main_extra_phases_are_placed_in_either_order(graph: RuleSource,
                                                                   order: int) -> None:
    extras = ['{phase = "combat", after = "precombat_main"}',
              '{phase = "postcombat_main", after = "combat"}']
    if order:
        extras.reverse()
    text = (f'phase = "precombat_main"\nextra_phases = [{", ".join(extras)}]\n'
            '[[questions]]\nask = "rest_of_turn"\n')
    rest = report_json(check(graph, situation(text)))["answers"][0]["answer"]  # type: ignore[index]
    phases = list(dict.fromkeys((r["phase"], i) for i, r in enumerate(rest)))  # type: ignore[index]
    names = [p for p, _ in phases]
    collapsed = [n for i, n in enumerate(names) if i == 0 or names[i - 1] != n]
    assert collapsed == ["combat", "postcombat_main", "combat", "postcombat_main", "ending"]


@pytest.mark.parametrize(("edition", "rule"), [("2004", "310.5"), ("2010", "510.5")])
def test_a_damage_step_outside_combat_damage_is_refused_citing_its_rule(
        graph: RuleSource, edition: str, rule: str) -> None:
    with pytest.raises(SituationError) as caught:
        check(graph, situation(f'edition = "{edition}"\nphase = "main1"\ndamage_step = "regular"\n'))
    assert caught.value.field == "damage_step" and rule in str(caught.value)
