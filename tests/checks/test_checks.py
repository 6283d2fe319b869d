"""The checks against the real corpus: every situation file, registry and coverage invariants."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from checks_support import SITUATIONS, load_case, real_graph, situation, situation_files
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.checks.catalog import every_check, registered
from judge.checks.coverage import coverage, coverage_json, coverage_text
from judge.checks.report import check, game_model, report_json, report_text
from judge.checks.rulemap import load_checks_for
from judge.errors import JudgeError, SituationError
from judge.game.situationmodel import ASKS
from judge.game.turnplan import PHASE_STEPS, PHASES

if TYPE_CHECKING:
    from judge.legality.context import RuleSource


def _matches(expected: object, actual: object) -> bool:
    """Expected dicts are subsets of the actual ones (extra keys are allowed)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _matches(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(_matches(e, a) for e, a in zip(expected, actual, strict=True)))
    return type(expected) is type(actual) and expected == actual


@pytest.mark.parametrize("path", situation_files(), ids=lambda p: p.stem)
def test_situation_file_answers_as_expected(graph: RuleSource, path: Path) -> None:
    loaded, expect = load_case(path)
    answers = report_json(check(graph, loaded))["answers"]
    assert isinstance(answers, list)
    assert len(answers) == len(expect)
    for got, want in zip(answers, expect, strict=True):
        value = None if want.get("nobody") else want["answer"]
        assert _matches(value, got["answer"]), (got["answer"], got["why"])
        assert got["rules"] == want["rules"], got["why"]
        if "why_contains" in want:
            assert str(want["why_contains"]) in got["why"]
        if "at" in want:
            assert got["at"] == want["at"]


def test_situation_files_cover_every_ask_in_both_editions() -> None:
    seen: set[tuple[str, str]] = set()
    for path in situation_files():
        loaded, _ = load_case(path)
        for question in loaded.questions or ():
            seen.add((question.ask, loaded.edition or "2010"))
    for ask in ASKS:
        assert (ask, "2004") in seen, ask
    assert len(situation_files()) >= 60
    assert len({ask for ask, edition in seen if edition == "2010"}) >= 10


def test_report_json_has_the_documented_shape(graph: RuleSource) -> None:
    report = report_json(check(graph, situation("""
edition = "2004"
phase = "precombat_main"
priority = "A"
stack = [{kind = "instant", controller = "B"}]
[[questions]]
ask = "play_land"
player = "A"
""")))
    assert report["edition"] == "2004"
    assert report["where"] == {"phase": "precombat_main", "step": None, "main": "precombat",
                               "priority": "A"}
    [only] = report["answers"]
    assert {k: v for k, v in only.items() if k != "why"} == {
        "ask": "play_land", "player": "A", "answer": False, "rules": ["305.4"]}
    assert "pile n'est pas vide" in only["why"]


def test_check_without_questions_answers_where(graph: RuleSource) -> None:
    report = report_json(check(graph, situation('edition = "2004"\nstep = "pioche"\n')))
    assert [a["ask"] for a in report["answers"]] == ["where"]


def _exists(graph: RuleSource, edition: str, number: str) -> bool:
    home, _, plain = number.rpartition(":")
    home = home or edition
    return any(graph.get(home, plain, language) is not None
               for language in graph.edition(home).languages)


def test_registry_rules_exist_in_the_corpus(graph: RuleSource) -> None:
    for edition in ("2004", "2010"):
        model = game_model(graph, edition)
        for spec in every_check():
            for number in spec.rules_in(model):
                assert _exists(graph, edition, number), (edition, spec.name, number)


def test_unchecked_reasons_name_rules_without_check(graph: RuleSource) -> None:
    checks_for = load_checks_for()
    for edition in ("2004", "2010"):
        for number, _ in game_model(graph, edition).unchecked:
            assert _exists(graph, edition, number), number
            assert checks_for(edition, number) == (), number


def test_checks_for_names_the_implementing_checks() -> None:
    checks_for = load_checks_for()
    assert "play_land" in checks_for("2004", "305.4")
    assert "play_land" in checks_for("2010", "505.5b")
    assert "mana_burn" in checks_for("2004", "300.3")
    assert "mana_burn" in checks_for("2010", "500.4")
    assert {"replay", "untap"} <= set(checks_for("2004", "302.1"))
    assert {"deals_damage", "assign_damage"} <= set(checks_for("2010", "510.1c"))


def test_coverage_lists_every_rule_with_checks_or_reason(graph: RuleSource) -> None:
    cov = coverage(graph)
    numbers_2004 = {r.number for r in cov.of("2004")}
    assert {"300.3", "308.2a", "314.3"} <= numbers_2004
    numbers_2010 = {r.number for r in cov.of("2010")}
    assert {"500.4", "505.5b", "510.2", "514.1"} <= numbers_2010
    assert all(n.split(".")[0] in {str(i) for i in range(500, 515)} for n in numbers_2010)
    assert all(r.checks or r.why_none for r in cov.rules)
    assert cov.percent == 100.0
    assert 0 < cov.percent_of_all < 100
    data = coverage_json(cov)
    assert data["percent"] == cov.percent
    text = coverage_text(cov)
    assert text.splitlines()[0].startswith(f"Couverture : {cov.percent_of_all} %")


PLACES = [(phase, step) for phase in PHASES for step in (PHASE_STEPS[phase] or (None,))]


@st.composite
def situations_text(draw: st.DrawFn) -> str:
    phase, step = draw(st.sampled_from(PLACES))
    edition = draw(st.sampled_from(["2004", "2010"]))
    lines = [f'edition = "{edition}"', f'phase = "{phase}"']
    if step:
        lines.append(f'step = "{step}"')
    if draw(st.booleans()):
        lines.append('stack = [{kind = "instant", controller = "B"}]')
    lines.append(f"mana_pools = {{A = {draw(st.integers(0, 5))}}}")
    lines.append(f"hands = {{A = {draw(st.integers(0, 12))}}}")
    until = draw(st.sampled_from(["end_of_turn", "end_of_combat", "this_turn", "your_next_turn"]))
    lines.append(f'effects = [{{name = "E", until = "{until}"}}]')
    blocking = step in ("declare_blockers", "combat_damage", "end_of_combat")
    attacking = blocking or (step == "declare_attackers" and draw(st.booleans()))
    # Vigilance is no keyword of 2004 (refused there, 502.1).
    keywords = ["first_strike", "double_strike", "haste"] + (["vigilance"] if edition == "2010" else [])
    abilities = draw(st.lists(st.sampled_from(keywords), max_size=2))
    lines.append(f'[[creatures]]\nname = "X"\ncontroller = "A"\nattacking = {str(attacking).lower()}'
                 f"\npower = 2\nabilities = {abilities!r}".replace("'", '"'))
    lines.append('[[creatures]]\nname = "Y"\ncontroller = "B"' + ('\nblocking = "X"' if blocking else ""))
    for ask in ASKS:
        if ask == "damage_dealt":
            continue  # it follows a replay (events): without one it is an error, tested apart
        params = {"play_land": 'player = "A"', "cast": 'player = "A"\nkind = "sorcery"',
                  "declare_attackers": 'creatures = ["X"]', "declare_blockers": 'blocks = {Y = "X"}',
                  "assign_damage": 'creature = "X"\nassignment = {B = 2}', "in_combat": 'creature = "X"',
                  "defending_player": 'creature = "X"',
                  "combat_timing": 'when = "before_blockers"',
                  "attack": 'creature = "X"', "block": 'creature = "Y"\nattacker = "X"',
                  "deals_damage": 'creature = "X"', "discard": 'player = "A"',
                  "mana_burn": 'player = "A"', "turn_order": "count = 3",
                  "loyalty": 'permanent = "Y"', "controller": 'creature = "X"',
                  "effect_ends": 'effect = "E"',
                  "redirect": 'source = "X"\nplayer = "B"\nplaneswalker = "Y"'}.get(ask, "")
        lines.append(f'[[questions]]\nask = "{ask}"\n{params}')
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None)
@given(situations_text())
def test_answers_never_cite_a_rule_absent_from_the_corpus(text: str) -> None:
    graph = real_graph()
    report = check(graph, situation(text))
    for item in report.answers:
        implemented = registered(item.check).rules_in(game_model(graph, report.edition))
        for number in item.rules:
            assert _exists(graph, report.edition, number), number
            assert number in implemented, (item.ask, number)
        assert item.why


@settings(max_examples=100, deadline=None)
@given(situations_text())
def test_rest_of_turn_always_ends_with_cleanup(text: str) -> None:
    report = report_json(check(real_graph(), situation(text)))
    rest = next(a for a in report["answers"] if a["ask"] == "rest_of_turn")["answer"]
    where = report["where"]
    if where["step"] != "cleanup":
        assert rest[-1] == {"phase": "ending", "step": "cleanup"}
    else:
        assert rest in ([], [{"phase": "ending", "step": "cleanup"}])


def test_report_text_shows_timeline_with_current_and_skipped_steps(graph: RuleSource) -> None:
    text = report_text(check(graph, situation("""
edition = "2004"
step = "declare_attackers"
skip = ["pioche"]
[[creatures]]
name = "Ours"
[[questions]]
ask = "attack"
creature = "Ours"
""")))
    lines = text.splitlines()
    assert lines[0] == "Édition 2004"
    assert lines[1].startswith("Tour de A : dégagement › entretien › (pioche : sautée)")
    assert "[DÉCLARATION DES ATTAQUANTS]" in lines[1]
    assert "(déclaration des bloqueurs : sautée)" in lines[1]
    # The question as a judge reads it, in French: no `ask` name, no Python value.
    assert "1. Cette créature peut-elle attaquer ? (créature : Ours)\n   Réponse : oui\n" in text
    assert "Règles : 308.2a" in text


def test_report_text_words_parameters_in_french(graph: RuleSource) -> None:
    text = report_text(check(graph, situation("""
edition = "2010"
step = "combat_damage"
[[creatures]]
name = "Craw Wurm"
power = 6
toughness = 4
attacking = true
blocked = true
damage_order = ["Mur de bois", "Cadet"]
[[creatures]]
name = "Mur de bois"
controller = "B"
power = 0
toughness = 3
blocking = "Craw Wurm"
[[creatures]]
name = "Cadet"
controller = "B"
power = 1
toughness = 1
blocking = "Craw Wurm"
[[questions]]
ask = "assign_damage"
creature = "Craw Wurm"
assignment = { "Mur de bois" = 4, "Cadet" = 2 }
[[questions]]
ask = "cast"
player = "A"
kind = "sorcery"
""")))
    assert ("1. Cette répartition des blessures de combat est-elle permise ? (créature : Craw Wurm ; "
            "répartition des blessures : Mur de bois : 4, Cadet : 2)\n   Réponse : oui\n") in text
    assert "(joueur : A ; type de sort : rituel)\n   Réponse : non\n" in text
    assert "{" not in text and "assign_damage" not in text


def test_report_text_says_when_no_rule_of_the_corpus_is_cited(graph: RuleSource) -> None:
    text = report_text(check(graph, situation('edition = "2004"\nstep = "upkeep"\n'
                                              '[[questions]]\nask = "combat_timing"\n'
                                              'when = "before_blockers"\n')))
    assert "Règles : aucune règle du corpus" in text


def test_check_rejects_an_unknown_edition(graph: RuleSource) -> None:
    with pytest.raises(SituationError) as info:
        check(graph, situation('edition = "1999"\nstep = "upkeep"\n'))
    assert info.value.field == "edition" and "2004, 2010" in info.value.reason


def test_discard_without_hand_size_names_the_missing_field(graph: RuleSource) -> None:
    with pytest.raises(SituationError) as info:
        check(graph, situation('step = "cleanup"\n[[questions]]\nask = "discard"\n'))
    assert info.value.field == "hands.A"


def test_mana_burn_is_the_same_in_every_step_of_a_phase(graph: RuleSource) -> None:
    answers = []
    for step in ("untap", "upkeep", "draw"):
        report = check(graph, situation(f'edition = "2004"\nstep = "{step}"\nmana_pools = {{A = 2}}\n'
                                        '[[questions]]\nask = "mana_burn"\n'))
        answers.append((report.answers[0].value, report.answers[0].extra))
    assert answers == [(2, (("at", {"phase": "beginning"}),))] * 3


def test_every_registered_rule_is_cited_by_some_answer(graph: RuleSource) -> None:
    """Honest links: each (check, rule) pair of the registry, in each edition, is cited by at
    least one answer of the situation files (the replay's pairs by a trail entry)."""
    cited: set[tuple[str, str, str]] = set()
    derived = sorted([*(SITUATIONS / "derived").glob("*/*.toml"),
                      *(SITUATIONS / "derived-r11").glob("20*/*.toml")])
    for path in [*situation_files(), *derived]:
        try:
            loaded, _ = load_case(path)
            report = check(graph, loaded)
        except (KeyError, JudgeError):
            continue  # a derived file that describes an impossible state
        for item in report.answers:
            cited.update((report.edition, item.check, number) for number in item.rules)
        for entry in report.trail or ():
            cited.update((report.edition, "replay", number) for number in entry.rules)
    missing = []
    for edition in ("2004", "2010"):
        model = game_model(graph, edition)
        for spec in every_check():
            for number in spec.rules_in(model):
                if (edition, spec.name, number) not in cited:
                    missing.append(f"{edition} {spec.name} {number}")
    assert missing == []
