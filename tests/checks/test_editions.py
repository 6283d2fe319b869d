"""Editions follow the game model they name (`game`), never their id; no model, no answer.

The user edition here is built from the English text of June 2004 alone (a text of its own,
another edition id): the 2004 model's numbers (300.3, 308.2a, 502.4b) are the numbers of that
text, so it is the sensible text to pair with `game = "2004"`. A renumbered release (the 2022
text renumbers the turn structure and the keywords) needs a model file of its own, which a
user gives as `game = "file.toml"`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from checks_support import real_graph, situation

from judge.checks.report import check, report_json
from judge.cli import main
from judge.corpus.loader import load_graph
from judge.errors import ManifestError, SituationError
from judge.game.gamemodel import load_game_model
from judge.resources import rules_dir

QUESTIONS = """
edition = "{edition}"
phase = "precombat_main"
mana_pools = {{A = 3}}
[[creatures]]
name = "Mur de pierre"
types = ["Mur"]
[[questions]]
ask = "mana_burn"
[[questions]]
ask = "attack"
creature = "Mur de pierre"
"""


def _config(tmp_path: Path, game: str | None) -> Path:
    shutil.copy(rules_dir() / "CR-2004-06-01.txt", tmp_path / "anglais-2004.txt")
    line = f'game = "{game}"\n' if game else ""
    config = tmp_path / "judge.toml"
    config.write_text(f'[[edition]]\nid = "maison"\nlabel = "Anglais 2004"\n{line}'
                      '[[edition.text]]\nlanguage = "en"\nfiles = ["anglais-2004.txt"]\n',
                      encoding="utf-8")
    return config


def test_user_edition_answers_by_the_model_it_names(tmp_path: Path) -> None:
    graph = load_graph(str(_config(tmp_path, "2004")))
    answers = report_json(check(graph, situation(QUESTIONS.format(edition="maison"))))["answers"]
    assert isinstance(answers, list)
    burn, wall = answers
    assert (burn["answer"], burn["rules"]) == (3, ["300.3"])
    assert "3 points de vie" in burn["why"]
    assert (wall["answer"], wall["rules"]) == (False, ["308.2a"])


def test_user_edition_with_its_own_model_file(tmp_path: Path) -> None:
    # a model file of the user's: the 2004 model without mana burn (mana empties each step)
    model = (rules_dir() / "games" / "2004.toml").read_text(encoding="utf-8")
    model = model.replace('mana_burn = { value = true, rules = ["300.3"] }',
                          'mana_burn = { value = false, rules = [] }')
    model = model.replace('mana_empties = { value = "phase", rules = ["300.3"] }',
                          'mana_empties = { value = "step", rules = ["300.3"] }')
    (tmp_path / "sans-brulure.toml").write_text(model, encoding="utf-8")
    graph = load_graph(str(_config(tmp_path, "sans-brulure.toml")))
    burn = check(graph, situation(QUESTIONS.format(edition="maison"))).answers[0]
    assert burn.value == 0 and "brûlure de mana n'existe pas" not in burn.why
    assert "sans perte de points de vie" in burn.why


def test_edition_without_a_model_cannot_be_checked(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path, None)
    with pytest.raises(SituationError) as info:
        check(load_graph(str(config)), situation(QUESTIONS.format(edition="maison")))
    assert info.value.field == "edition" and "modèle de jeu" in info.value.reason
    path = tmp_path / "s.toml"
    path.write_text(QUESTIONS.format(edition="maison"), encoding="utf-8")
    assert main(["--config", str(config), "check", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "ne dit pas quel modèle de jeu elle suit" in captured.err


def test_config_names_a_missing_model_file(tmp_path: Path) -> None:
    with pytest.raises(ManifestError) as info:
        load_graph(str(_config(tmp_path, "absent.toml")))
    assert info.value.field == "edition[0].game" and "modèle de jeu introuvable" in info.value.reason


@pytest.mark.parametrize(("change", "field"), [
    (('mana_burn = { value = true', 'mana_burn = { value = "oui"'), "facts.mana_burn.value"),
    (('id = "draw"', 'id = "sieste"'), "phase[0].step[2].id"),
    (('fear = { rules = ["502.25b"]', 'levitation = { rules = ["1"] }\nfear = { rules = ["502.25b"]'),
     "abilities.levitation"),
    (('"land.play" = ["305.4"]', '"land.play" = "305.4"'), "rules.land.play"),
    (("format = 1", "format = 7"), "format"),
    (('keeps = "oldest"', 'keeps = "le plus beau"'), "state_based_action[5].keeps"),
    (('rules = ["420.5c"]', 'rules = ["420.5c"]\nkeeps = "none"'), "state_based_action[2].keeps"),
])
def test_bad_model_files_name_the_field(tmp_path: Path, change: tuple[str, str], field: str) -> None:
    text = (rules_dir() / "games" / "2004.toml").read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / "modele.toml"
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    with pytest.raises(ManifestError) as info:
        load_game_model(str(path))
    assert info.value.field == field


def test_embedded_models_state_the_facts_that_changed() -> None:
    old, new = load_game_model("2004"), load_game_model("2010")
    assert (old.fact("mana_burn").value, new.fact("mana_burn").value) == (True, False)
    assert (old.fact("mana_empties").value, new.fact("mana_empties").value) == ("phase", "step")
    assert old.fact("combat_damage_on_stack").value and not new.fact("combat_damage_on_stack").value
    assert old.fact("walls_cannot_attack").value and not new.fact("walls_cannot_attack").value
    assert [a.what for a in new.step("combat", "combat_damage").actions][:2] == [
        "combat_damage", "deal_combat_damage"]
    assert json.dumps(dict(new.concepts())["priority.upkeep"]) == '["503.2"]'


@pytest.mark.parametrize("name", ["defender", "défenseur", "vigilance", "reach", "portée", "flash"])
def test_keywords_born_after_2004_are_refused_there_citing_its_keyword_section(name: str) -> None:
    """The 2004 text names none of defender, vigilance, reach, flash (they came later): a 2004
    situation giving one to a creature is refused citing 502.1, as deathtouch is; 2010 has them."""
    text = ('edition = "{}"\nphase = "combat"\nstep = "declare_attackers"\npriority = "A"\n'
            '[[creatures]]\nname = "Serra"\ncontroller = "A"\nabilities = ["' + name + '"]\n'
            '[[questions]]\nask = "attack"\ncreature = "Serra"\n')
    with pytest.raises(SituationError) as info:
        check(real_graph(), situation(text.format("2004")))
    assert info.value.field == "creatures[0].abilities[0]"
    assert "n'existe pas dans l'édition 2004" in str(info.value) and "502.1" in str(info.value)
    answers = report_json(check(real_graph(), situation(text.format("2010"))))["answers"]
    assert isinstance(answers, list) and len(answers) == 1
