"""The turn's procedure beyond the situation files: state-based actions in a replay, the first
turn, invalid states, the journal's order, plain names, extra phases given in any order."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from checks_support import situation

from judge.checks.report import check, game_model, report_json
from judge.errors import IllegalEvent, SituationError
from judge.procedure.replay import Replayed
from judge.procedure.replay import replay as replay_with

if TYPE_CHECKING:
    from judge.game.situationmodel import Situation
    from judge.legality.context import RuleSource

TO_ATTACKERS = ['"pass"'] * 8


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
    assert answers["2010"]["answers"][0]["answer"]["step"] == "draw"
    assert answers["2004"]["answers"][0]["answer"]["phase"] == "precombat_main"


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
    rest = report_json(check(graph, situation(text)))["answers"][0]["answer"]
    phases = list(dict.fromkeys((r["phase"], i) for i, r in enumerate(rest)))
    names = [p for p, _ in phases]
    collapsed = [n for i, n in enumerate(names) if i == 0 or names[i - 1] != n]
    assert collapsed == ["combat", "postcombat_main", "combat", "postcombat_main", "ending"]


@pytest.mark.parametrize(("edition", "rule"), [("2004", "310.5"), ("2010", "510.5")])
def test_a_damage_step_outside_combat_damage_is_refused_citing_its_rule(
        graph: RuleSource, edition: str, rule: str) -> None:
    with pytest.raises(SituationError) as caught:
        check(graph, situation(f'edition = "{edition}"\nphase = "main1"\ndamage_step = "regular"\n'))
    assert caught.value.field == "damage_step" and rule in str(caught.value)


# The legend and world rules (2004 420.5e, 420.5i; 2010 704.5k, 704.5m), read from the text.
_WORLDS = ('[[permanents]]\nname = "Monde 1"\ncard_types = ["enchantment"]\nsupertypes = ["world"]\n'
           'timestamp = {first}\n'
           '[[permanents]]\nname = "Monde 2"\ncontroller = "B"\ncard_types = ["enchantment"]\n'
           'supertypes = ["world"]\ntimestamp = {second}\n')


@pytest.mark.parametrize("edition", ["2004", "2010"])
@pytest.mark.parametrize(("first", "second", "left"), [(1, 2, ["Monde 2"]), (2, 1, ["Monde 1"]),
                                                       (1, 1, [])])
def test_the_world_rule_keeps_the_newest_world_and_none_on_a_tie(
        graph: RuleSource, edition: str, first: int, second: int, left: list[str]) -> None:
    # 2004 420.5i / 2010 704.5m: « all except the one that has been [an enchant world in play /
    # a permanent with the world supertype on the battlefield] for the shortest amount of time
    # are put into their owners' graveyards. In the event of a tie for the shortest amount of
    # time, all are put into their owners' graveyards. »
    text = (f'edition = "{edition}"\nphase = "main1"\npriority = "A"\n'
            + _WORLDS.format(first=first, second=second))
    report = check(graph, situation(text))
    assert [p.name for p in report.context.situation.permanents] == left
    # in a replay, as A would receive priority in the upkeep (420.3, 704.3), cited
    rule = {"2004": "420.5i", "2010": "704.5m"}[edition]
    trail = _trail(graph, text.replace('phase = "main1"\npriority = "A"\n',
                                       'events = ["pass", "pass"]\nhands = {A = 3}\n'))
    said = [what for what, cited in trail if rule in cited]
    assert len(said) == 1 and "règle du monde" in said[0]
    assert all(name in said[0] for name in {"Monde 1", "Monde 2"} - set(left))


@pytest.mark.parametrize(("edition", "rule"), [("2004", "420.5e"), ("2010", "704.5k")])
def test_the_legend_rule_needs_the_same_name_and_every_one_legendary(
        graph: RuleSource, edition: str, rule: str) -> None:
    # « If two permanents have the same name but only one is a Legend or is legendary, this
    # rule doesn't apply » (420.5e); « If only one of those permanents is legendary, this rule
    # doesn't apply » (704.5k). Different card names: no group either.
    text = (f'edition = "{edition}"\nphase = "main1"\npriority = "A"\n'
            '[[permanents]]\nname = "Trône (A)"\ncard_name = "Trône"\nsupertypes = ["legendary"]\n'
            'timestamp = 1\n'
            '[[permanents]]\nname = "Trône (B)"\ncard_name = "Trône"\ncontroller = "B"\ntimestamp = 2\n'
            '[[permanents]]\nname = "Sceptre"\nsupertypes = ["legendary"]\ntimestamp = 3\n')
    report = check(graph, situation(text))
    assert len(report.context.situation.permanents) == 3 and report.context.performed == ()
    both = text.replace('controller = "B"\n', 'controller = "B"\nsupertypes = ["légendaire"]\n')
    report = check(graph, situation(both))
    left = [p.name for p in report.context.situation.permanents]
    # 2004 keeps the one legendary the longest (timestamp 1); 2010 keeps none
    assert left == (["Trône (A)", "Sceptre"] if edition == "2004" else ["Sceptre"])
    assert report.context.performed == ("sba.legend_rule",)
    assert rule in game_model(graph, edition).rules("sba.legend_rule")


def test_a_legend_rule_that_keeps_the_oldest_needs_the_timestamps(graph: RuleSource) -> None:
    # 2004 420.5e keeps « the one that has been a Legend or legendary permanent with that name
    # the longest »: without when each became one, the answer cannot be known.
    text = ('edition = "2004"\nphase = "main1"\npriority = "A"\n'
            '[[creatures]]\nname = "Isamaru (A)"\ncard_name = "Isamaru"\nsupertypes = ["legendary"]\n'
            'timestamp = 1\n'
            '[[creatures]]\nname = "Isamaru (B)"\ncard_name = "Isamaru"\nsupertypes = ["legendary"]\n')
    with pytest.raises(SituationError) as caught:
        check(graph, situation(text))
    assert caught.value.field == "timestamp" and "420.5e" in str(caught.value)
    assert "Isamaru (B)" in caught.value.reason
    # 2010 704.5k puts them all into the graveyard: no timestamp needed
    report = check(graph, situation(text.replace('"2004"', '"2010"')))
    assert [c.destroyed for c in report.context.situation.creatures] == ["sba.legend_rule"] * 2


def test_no_procedure_class_derives_from_another() -> None:
    """The replay's state is composed (records in a `Turn`), not an inheritance chain: no
    class of judge/procedure has a base defined in judge/procedure."""
    import ast
    from pathlib import Path

    import judge.procedure

    trees = [ast.parse(p.read_text(encoding="utf-8"))
             for p in Path(judge.procedure.__file__).parent.glob("*.py")]
    classes = [node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    ours = {c.name for c in classes}
    derived = [(c.name, ast.unparse(base)) for c in classes for base in c.bases
               if ast.unparse(base).split(".")[-1] in ours]
    assert len(classes) > 10 and derived == []
