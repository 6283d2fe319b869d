"""Noncombat damage in the replay (2010 119.3, 306.7, 306.8), a player who loses leaving a
multiplayer game (800.4a), Two-Headed Giant's shared life (810.8–810.9) and a permanent coming
onto the battlefield (704.5j): what is refused, with the French message naming the rule or
the field."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from checks_support import situation

from judge.checks.report import check, report_json
from judge.errors import IllegalEvent, SituationError

if TYPE_CHECKING:
    from judge.legality.context import RuleSource

TO_MAIN = '"pass", "pass", "pass", "pass"'  # upkeep and draw of a two-player game
WALKER = ('[[permanents]]\nname = "Jace"\ncontroller = "B"\ncard_types = ["planeswalker"]\n'
          'subtypes = ["Jace"]\nloyalty = 4\n')


def _damage(edition: str, damage: str, extra: str = "") -> str:
    return (f'edition = "{edition}"\nlife = {{A = 20, B = 20}}\n'
            f"events = [{TO_MAIN}, {{deal_damage = {{{damage}}}}}]\n" + extra)


def test_damage_redirected_to_a_planeswalker_removes_loyalty(graph: RuleSource) -> None:
    text = _damage("2010", 'source = "Foudre", to = "B", amount = 3, redirect_to = "Jace"',
                   WALKER + '[[questions]]\nask = "loyalty"\npermanent = "Jace"\n'
                   '[[questions]]\nask = "life"\nplayer = "B"\n')
    report = report_json(check(graph, situation(text)))
    loyalty, life = report["answers"]
    assert (loyalty["answer"], life["answer"]) == (1, 20)
    assert "306.8" in loyalty["rules"]
    trail = [e["what"] for e in report["trail"]]
    assert any("redirige vers Jace" in w for w in trail)


def test_a_player_cannot_redirect_damage_from_his_own_source(graph: RuleSource) -> None:
    text = _damage("2010", 'source = "Foudre", controller = "B", to = "B", amount = 3, '
                   'redirect_to = "Jace"', WALKER)
    with pytest.raises(IllegalEvent) as caught:
        check(graph, situation(text))
    assert "n'est pas un adversaire de B" in str(caught.value) and "306.7" in str(caught.value)


def test_damage_is_not_redirected_to_another_players_planeswalker(graph: RuleSource) -> None:
    text = _damage("2010", 'source = "Foudre", to = "A", amount = 3, redirect_to = "Jace"',
                   WALKER)
    with pytest.raises(IllegalEvent) as caught:
        check(graph, situation(text))
    assert "contrôlé par B, pas par A" in str(caught.value) and "306.7" in str(caught.value)


def test_noncombat_damage_kills_a_creature_by_the_state_based_actions(graph: RuleSource) -> None:
    text = _damage("2004", 'source = "Choc", to = "Ours", amount = 2',
                   '[[creatures]]\nname = "Ours"\ncontroller = "B"\npower = 2\ntoughness = 2\n')
    report = check(graph, situation(text))
    assert report.trail is not None
    lethal = [e for e in report.trail if "des blessures mortelles" in e.what]
    assert lethal and "420.5c" in lethal[0].rules


@pytest.mark.parametrize(("damage", "field"), [
    ('source = "Choc", to = "Personne", amount = 2', "events[4].deal_damage.to"),
    ('source = "Choc", to = "B", amount = -1', "events[4].deal_damage.amount"),
    ('source = "Choc", to = "B"', "events[4].deal_damage.amount"),
    ('source = "Choc", to = "B", amount = 1, cible = "B"', "events[4].deal_damage.cible"),
])
def test_a_bad_damage_event_names_its_field(graph: RuleSource, damage: str, field: str) -> None:
    with pytest.raises(SituationError) as caught:
        check(graph, situation(_damage("2010", damage)))
    assert str(caught.value).startswith(field + " : ")


def test_2004_refuses_a_redirection_to_a_planeswalker(graph: RuleSource) -> None:
    text = _damage("2004", 'source = "Foudre", to = "B", amount = 3, redirect_to = "Mur"',
                   '[[permanents]]\nname = "Mur"\ncontroller = "B"\ncard_types = ["artifact"]\n')
    with pytest.raises(IllegalEvent) as caught:
        check(graph, situation(text))
    assert "n'a pas de planeswalkers" in str(caught.value) and "205.2a" in str(caught.value)


def test_2004_refuses_a_planeswalker_coming_onto_the_battlefield(graph: RuleSource) -> None:
    text = ('edition = "2004"\nevents = [' + TO_MAIN + ', {enters_battlefield = {name = "Jace", '
            'card_types = ["planeswalker"]}}]\n')
    with pytest.raises(IllegalEvent) as caught:
        check(graph, situation(text))
    assert "205.2a" in str(caught.value)


def test_a_loser_leaves_a_multiplayer_game_and_turn_order_skips_him(graph: RuleSource) -> None:
    text = ('edition = "2010"\nplayers = ["A", "B", "C"]\nlife = {A = 20, B = 1, C = 20}\n'
            'events = ["pass", "pass", "pass", "pass", "pass", "pass", {deal_damage = '
            '{source = "Choc", to = "B", amount = 1}}, "pass", "pass"]\n'
            '[[creatures]]\nname = "Ours"\ncontroller = "B"\n'
            '[[questions]]\nask = "turn_order"\ncount = 2\n')
    report = report_json(check(graph, situation(text)))
    answer = report["answers"][0]
    assert answer["answer"] == ["C", "A"] and "800.4" in answer["rules"]
    trail = [e["what"] for e in report["trail"]]
    assert any("B a perdu la partie et la quitte" in w and "Ours" in w for w in trail)


def test_a_two_player_game_is_over_when_a_player_loses(graph: RuleSource) -> None:
    text = _damage("2010", 'source = "Choc", to = "B", amount = 20').replace(
        "}}]\n", '}}, "pass"]\n')
    with pytest.raises(IllegalEvent) as caught:
        check(graph, situation(text))
    assert "la partie est terminée" in str(caught.value)


def test_two_headed_giant_teammates_share_one_life_total(graph: RuleSource) -> None:
    text = ('edition = "2010"\nplayers = ["A", "B", "C", "D"]\nvariant = "two_headed_giant"\n'
            'teams = [["A", "B"], ["C", "D"]]\nphase = "precombat_main"\npriority = "A"\n'
            'life = {A = 30, B = 29}\n')
    with pytest.raises(SituationError) as caught:
        check(graph, situation(text))
    assert str(caught.value).startswith("life : ") and "810.9" in str(caught.value)


def test_the_command_line_refuses_a_bad_redirection_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(_damage("2010", 'source = "Foudre", to = "A", amount = 3, '
                            'redirect_to = "Jace"', WALKER), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "judge", "check", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "306.7" in done.stderr and "Traceback" not in done.stderr
