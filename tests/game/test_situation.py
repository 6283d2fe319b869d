"""Loading situations: keys, defaults, French aliases, and French errors naming the field path."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.errors import JudgeError, SituationError
from judge.game.events import (
    AddMana,
    Cast,
    DeclareAttackers,
    DeclareBlockers,
    GainControl,
    Pass,
    PlayLand,
    SetPower,
)
from judge.game.situation import load_situation, load_situation_file


def test_load_situation_applies_every_default() -> None:
    s = load_situation('phase = "precombat_main"')
    assert s.edition is None
    assert s.players == ("A", "B")
    assert s.active == "A"
    assert s.step is None and s.priority is None and s.damage_step is None
    assert s.stack == () and s.creatures == () and s.questions == ()
    assert (s.lands_played, s.land_plays, s.max_hand_size) == (0, 1, 7)
    assert s.events is None and s.skip == () and s.extra_turns == ()


def test_load_situation_reads_a_creature_with_defaults() -> None:
    s = load_situation('step = "upkeep"\n[[creatures]]\nname = "Ours"\n')
    bear = s.creatures[0]
    assert bear.controller == "A"
    assert (bear.tapped, bear.since_turn_start, bear.is_creature) == (False, True, True)
    assert bear.blocking == () and bear.dealt_first_strike_damage is None


@pytest.mark.parametrize(
    ("phase", "step", "expected"),
    [
        ("phase de début", "Dégagement", ("beginning", "untap")),
        (None, "entretien", ("beginning", "upkeep")),
        (None, "PIOCHE", ("beginning", "draw")),
        (None, "debut du combat", ("combat", "beginning_of_combat")),
        (None, "Déclaration des attaquants", ("combat", "declare_attackers")),
        (None, "declaration des bloqueurs", ("combat", "declare_blockers")),
        (None, "blessures de combat", ("combat", "combat_damage")),
        (None, "fin du combat", ("combat", "end_of_combat")),
        (None, "fin du tour", ("ending", "end_of_turn")),
        ("fin", "Nettoyage", ("ending", "cleanup")),
        ("phase principale", None, ("precombat_main", None)),
        ("Seconde phase principale", None, ("postcombat_main", None)),
        ("phase principale d'après combat", None, ("postcombat_main", None)),
        (None, "phase principale", ("precombat_main", None)),
        ("combat", "declare_blockers", ("combat", "declare_blockers")),
    ],
)
def test_load_situation_accepts_french_aliases(phase: str | None, step: str | None,
                                               expected: tuple[str, str | None]) -> None:
    lines = [f'phase = "{phase}"' if phase else "", f'step = "{step}"' if step else ""]
    s = load_situation("\n".join(lines))
    assert (s.phase, s.step) == expected


def test_load_situation_normalises_abilities_and_kinds() -> None:
    s = load_situation("""
phase = "main1"
stack = [{kind = "Éphémère", controller = "B"}]
[[creatures]]
name = "Chevalier"
abilities = ["Initiative", "double initiative", "célérité", "défenseur", "piétinement"]
""")
    assert s.stack[0].kind == "instant" and s.stack[0].controller == "B"
    assert s.creatures[0].abilities == ("first_strike", "double_strike", "haste", "defender",
                                        "trample")


def test_load_situation_reads_french_colors_card_types_and_evasion_abilities() -> None:
    s = load_situation("""
phase = "main1"
first_turn = true
events = [{add_mana = 3, by = "A"}]
[[creatures]]
name = "Spectre"
abilities = ["vol", "Peur", "portée", "vigilance"]
colors = ["Noir", "bleu"]
card_types = ["artefact", "Créature"]
""")
    spectre = s.creatures[0]
    assert spectre.abilities == ("flying", "fear", "reach", "vigilance")
    assert spectre.colors == ("black", "blue")
    assert spectre.card_types == ("artifact", "creature")
    assert s.first_turn is True
    assert s.events is not None and s.events[0] == AddMana(amount=3, by="A")
    assert load_situation('phase = "main1"\n[[creatures]]\nname = "X"').creatures[0].card_types == (
        "creature",)


def test_load_situation_reads_json_and_integer_edition() -> None:
    s = load_situation('{"edition": 2004, "players": ["X", "Y", "Z"], "active": "Y", '
                       '"phase": "combat", "step": "combat_damage", "damage_step": "initiative"}')
    assert s.edition == "2004" and s.active == "Y" and s.damage_step == "first_strike"


def test_load_situation_reads_events() -> None:
    s = load_situation("""
events = ["pass", {cast = "rituel", by = "A"}, {play_land = "A"},
          {declare_attackers = ["Ours"]}, {declare_blockers = {Elfe = "Ours"}}]
[[creatures]]
name = "Ours"
[[creatures]]
name = "Elfe"
controller = "B"
""")
    assert s.events == (Pass(), Cast(kind="sorcery", by="A"), PlayLand(player="A"),
                        DeclareAttackers(attackers=("Ours",)),
                        DeclareBlockers(blocks=(("Elfe", "Ours"),)))


def test_load_situation_question_player_defaults_to_active() -> None:
    s = load_situation('active = "B"\nphase = "main1"\n[[questions]]\nask = "play_land"\n')
    assert s.questions[0].player == "B"


BAD = [
    ('phase = "main1"\ncouleur = "bleu"', "couleur", "clé inconnue"),
    ('phase = "main1"\n[[effects]]\nname = "E"\nuntil = "à la fin du tour"', "effects[0].until",
     "jusqu'à la fin du tour"),
    ('phase = "main1"\n[[effects]]\nname = "E"\nuntil = "demain"', "effects[0].until",
     "durée inconnu(e) « demain »"),
    ('phase = "main1"\n[[triggers]]\nname = "T"\nat = "sieste"', "triggers[0].at",
     "étape inconnue « sieste »"),
    ('phase = "main1"\n[[triggers]]\nname = "T"', "triggers[0].at", "clé obligatoire manquante"),
    ('phase = "main1"\nplayers = ["A", "B", "C"]\ndefending = "A"', "defending",
     "n'est pas un adversaire du joueur actif"),
    ('phase = "main1"\nvariant = "two_headed_giant"', "teams", "deux équipes"),
    ('phase = "main1"\nvariant = "archenemy"', "archenemy", "clé obligatoire manquante"),
    ('phase = "main1"\narchenemy = "A"', "archenemy", "variante archenemy"),
    ('phase = "main1"\nattack_option = "en diagonale"', "attack_option", "option d'attaque inconnu"),
    ('phase = "main1"\n[[creatures]]\nname = "X"\nattacks = "Zorro"', "creatures[0].attacks",
     "ni un joueur ni un planeswalker"),
    ('phase = "main1"\n[[creatures]]\nname = "X"\nattacks = "A"', "creatures[0].attacks",
     "son propre contrôleur"),
    ('events = [{enters_blocking = {name = "J", controller = "B"}}]', "events[0].enters_blocking.blocking",
     "la créature attaquante qu'elle bloque est attendue"),
    ('events = [{enters_blocking = {name = "J", blocking = "Fantôme"}}]',
     "events[0].enters_blocking.blocking", "aucune créature ne s'appelle « Fantôme »"),
    ('events = [{enters_attacking = {name = "X"}}]\n[[creatures]]\nname = "X"',
     "events[0].name", "déjà le nom"),
    ('events = [{block = {creature = "X"}}]\n[[creatures]]\nname = "X"', "events[0].block.attacker",
     "clé obligatoire manquante"),
    ('phase = "main1"\n[[triggers]]\nname = "T"\nat = "upkeep"\non = "blocks"', "triggers[0].on",
     "pas les deux"),
    ('phase = "main1"\n[[triggers]]\nname = "T"\non = "bloque"', "triggers[0].creature",
     "clé obligatoire manquante"),
    ('phase = "main1"\n[[creatures]]\nname = "X"\n[[triggers]]\nname = "T"\non = "sieste"\ncreature = "X"',
     "triggers[0].on", "événement inconnu"),
    ('phase = "main1"\n[[creatures]]\nname = "X"\n[[triggers]]\nname = "T"\non = "blocked_by_count"\n'
     'creature = "X"', "triggers[0].count", "clé obligatoire manquante"),
    ('phase = "main1"\n[[creatures]]\nname = "X"\n[[triggers]]\nname = "T"\non = "blocks"\n'
     'creature = "X"\ncount = 2', "triggers[0].count", "sans objet"),
    ('phase = "main1"\n[[pending_triggers]]\nname = "T"\nat = "upkeep"', "pending_triggers[0].at",
     "clé inconnue"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\ndamage_order = ["X"]',
     "creatures[0].damage_order[0]", "aucune créature ne s'appelle « X »"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\n"coût d\'attaque" = -1', "creatures[0].attack_cost",
     "supérieur ou égal à 0"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\n[[permanents]]\nname = "A1"', "permanents[0].name",
     "déjà le nom"),
    ('phase = "main1"\nextra_steps = [{step = "upkeep", after = "draw", before = "draw"}]',
     "extra_steps[0]", "l'un des deux"),
    ('phase = "main1"\nextra_steps = [{step = "upkeep", after = "declare_blockers"}]',
     "extra_steps[0].after", "n'appartient pas"),
    ('phase = "main1"\nextra_phases = [{phase = "combat"}]', "extra_phases[0].after",
     "clé obligatoire manquante"),
    ('phase = "main1"\nmana_available = {C = 1}', "mana_available.C", "joueur inconnu"),
    ('[[creatures]]\nname = "A1"\n[[events]]\nset_power = {creature = "A1"}', "events[0].set_power.power",
     "clé obligatoire manquante"),
    ('[[creatures]]\nname = "A1"\n[[events]]\nleaves_play = "Z"', "events[0].leaves_play",
     "aucun permanent"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\n[[questions]]\nask = "assign_damage"\n'
     'creature = "A1"\nassignment = {Z = 1}', "questions[0].assignment.Z", "ni un permanent ni un joueur"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\n[[creatures]]\nname = "B1"\ntapped = "oui"',
     "creatures[1].tapped", "un booléen est attendu"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\nforce = 2', "creatures[0].force", "clé inconnue"),
    ('phase = "main1"\n[[creatures]]\ntapped = true', "creatures[0].name", "clé obligatoire manquante"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\npower = "2"', "creatures[0].power",
     "un entier est attendu"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\nabilities = "vol"', "creatures[0].abilities",
     "une liste est attendue"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\nblocking = "Fantôme"', "creatures[0].blocking",
     "aucune créature ne s'appelle « Fantôme »"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\n[[creatures]]\nname = "A1"', "creatures[1].name",
     "en double"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\ncontroller = "C"', "creatures[0].controller",
     "joueur inconnu « C »"),
    ('phase = "main1"\nlands_played = true', "lands_played", "un entier est attendu"),
    ('phase = "main1"\nlands_played = -1', "lands_played", "supérieur ou égal à 0"),
    ('phase = "main1"\nland_plays = 1.5', "land_plays", "un entier est attendu"),
    ('phase = "main1"\nplayers = ["A"]', "players", "au moins deux joueurs"),
    ('phase = "main1"\nplayers = ["A", "A"]', "players[1]", "en double"),
    ('phase = "main1"\nplayers = "AB"', "players", "une liste est attendue"),
    ('phase = "main1"\nactive = "C"', "active", "joueur inconnu « C »"),
    ('phase = "main1"\npriority = 3', "priority", "une chaîne est attendue"),
    ('phase = "sieste"', "phase", "phase inconnu"),
    ('step = "sieste"', "step", "étape inconnue"),
    ('phase = "combat"\nstep = "pioche"', "step", "n'appartient pas à la phase combat"),
    ('phase = "combat"', "step", "une étape de la phase combat est attendue"),
    ('phase = "main1"\nstack = [{kind = "sort"}]', "stack[0].kind", "inconnu"),
    ('phase = "main1"\nstack = [{kind = "instant", qui = "A"}]', "stack[0].qui", "clé inconnue"),
    ('phase = "main1"\nstack = ["instant"]', "stack[0]", "une table est attendue"),
    ('phase = "main1"\nhands = {C = 3}', "hands.C", "joueur inconnu"),
    ('phase = "main1"\nhands = {A = "trois"}', "hands.A", "un entier est attendu"),
    ('phase = "main1"\nmana_pools = [1]', "mana_pools", "une table est attendue"),
    ('phase = "main1"\nmax_hand_size = "beaucoup"', "max_hand_size", "« aucune »"),
    ('phase = "main1"\nextra_turns = ["Z"]', "extra_turns[0]", "joueur inconnu"),
    ('phase = "main1"\nskip = ["sieste"]', "skip[0]", "inconnue"),
    ('phase = "main1"\nskip = ["phase principale"]', "skip[0]", "en cours ne peut pas"),
    ('events = ["attendre"]', "events[0]", "événement inconnu"),
    ('events = [{cast = "instant"}]', "events[0].by", "clé obligatoire manquante"),
    ('events = [{cast = "ability", by = "A"}]', "events[0].cast", "n'est pas un type de sort"),
    ('events = [{cast = "instant", by = "A", play_land = "A"}]', "events[0]", "un événement est attendu"),
    ('events = [{activate = "mana", by = "A"}]', "events[0].activate", "« ability »"),
    ('events = [{declare_attackers = ["Ours"]}]', "events[0].declare_attackers[0]",
     "aucune créature"),
    ('events = [{play_land = "A", by = "A"}]', "events[0].by", "clé inconnue"),
    ('phase = "main1"\n[[questions]]\nask = "quoi"', "questions[0].ask", "question inconnue"),
    ('phase = "main1"\n[[questions]]\nplayer = "A"', "questions[0].ask", "clé obligatoire"),
    ('phase = "main1"\n[[questions]]\nask = "attack"', "questions[0].creature", "clé obligatoire"),
    ('phase = "main1"\n[[questions]]\nask = "attack"\ncreature = "Ours"', "questions[0].creature",
     "aucune créature ne s'appelle « Ours »"),
    ('phase = "main1"\n[[questions]]\nask = "where"\nplayer = "A"', "questions[0].player",
     "clé inconnue"),
    ('phase = "main1"\n[[questions]]\nask = "cast"\nkind = "trigger"', "questions[0].kind",
     "n'est pas un type de sort"),
    ('phase = "main1"\n[[questions]]\nask = "turn_order"\ncount = 0', "questions[0].count",
     "supérieur ou égal à 1"),
    ('phase = "main1"\n[[questions]]\nask = "mana_burn"\nplayer = "Z"', "questions[0].player",
     "joueur inconnu"),
    ('phase = "main1"\n[[questions]]\nask = "turn_order"\ncount = 2000000', "questions[0].count",
     "au plus 1000"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\nabilities = ["vol", "lévitation"]',
     "creatures[0].abilities[1]", "capacité inconnue « lévitation » (capacités connues : bushido, "
     "célérité (haste), contact mortel (deathtouch), débordement (flanking), déchaînement "
     "(rampage), défenseur (defender), double initiative (double_strike), équitation "
     "(horsemanship), exalté (exalted), flash, flétrissement (wither), initiative (first_strike), "
     "intimidation (intimidate), lien de vie (lifelink), ombre (shadow), peur (fear), piétinement "
     "(trample), portée (reach), protection, regroupement (banding), traversée de terrain "
     "(landwalk), venimeux (poisonous), vigilance, vol (flying))"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\ncolors = ["violet"]', "creatures[0].colors[0]",
     "couleur inconnu(e) « violet »"),
    ('phase = "main1"\n[[creatures]]\nname = "A1"\ncard_types = ["rituel", "bateau"]',
     "creatures[0].card_types[1]", "type de carte inconnu(e) « bateau »"),
    ('phase = "main1"\nfirst_turn = "oui"', "first_turn", "un booléen est attendu"),
    ('events = [{add_mana = 0, by = "A"}]', "events[0].add_mana", "supérieur ou égal à 1"),
    ('events = [{add_mana = 5000, by = "A"}]', "events[0].add_mana", "au plus 1000"),
    ('events = [{add_mana = 2}]', "events[0].by", "clé obligatoire manquante"),
    ("events = [" + ", ".join(['"pass"'] * 10_001) + "]", "events", "au plus 10 000"),
    ('phase = "main1"\n' + "".join(f'[[creatures]]\nname = "C{i}"\n' for i in range(1001)),
     "creatures", "au plus 1 000"),
    ('phase = "main1"\n' + '[[questions]]\nask = "where"\n' * 101, "questions", "au plus 100"),
]


@pytest.mark.parametrize(("text", "field", "reason"), BAD, ids=[b[1] + ":" + b[2] for b in BAD])
def test_load_situation_rejects_bad_field_with_its_path(text: str, field: str, reason: str) -> None:
    with pytest.raises(SituationError) as info:
        load_situation(text, fmt="toml")
    assert info.value.field == field
    assert reason in info.value.reason
    assert str(info.value).startswith(field)


def test_load_situation_rejects_a_non_table_document() -> None:
    with pytest.raises(SituationError, match="une table est attendue"):
        load_situation("[1, 2]", fmt="json")


@pytest.mark.parametrize(
    ("text", "fmt", "where", "reason"),
    [
        ('phase = "main1"\nstep = \n', "toml", "f.toml:2:8", "valeur invalide"),
        ('phase = "main1"\nphase = "combat"\n', "toml", "f.toml:2:", "TOML"),
        ('{"phase": "main1",\n "step": }', "json", "f.toml:2:10", "valeur attendue"),
        ('{"phase": "main1"\n "step": 1}', "json", "f.toml:2:2", "virgule attendue"),
    ],
)
def test_load_situation_reports_syntax_errors_with_line_and_column(
    text: str, fmt: str, where: str, reason: str
) -> None:
    with pytest.raises(SituationError) as info:
        load_situation(text, source="f.toml", fmt=fmt)
    assert info.value.field.startswith(where)
    assert reason in info.value.reason and "erreur de syntaxe" in info.value.reason


def test_load_situation_guesses_json_from_text() -> None:
    assert load_situation('{"phase": "combat", "step": "upkeep"}'.replace("combat", "beginning")
                          ).step == "upkeep"


def test_load_situation_file_reads_path_and_stdin(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"step": "pioche"}', encoding="utf-8")
    assert load_situation_file(str(path)).step == "draw"
    assert load_situation_file("-", stdin_text='step = "entretien"').step == "upkeep"
    assert load_situation_file(str(path)).source == str(path)


def test_load_situation_file_missing_is_a_judge_error(tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match="introuvable"):
        load_situation_file(str(tmp_path / "absent.toml"))


def test_load_situation_reads_the_turn_structure_keys_in_french() -> None:
    s = load_situation("""
phase = "main1"
"mana disponible" = {A = 2}
"phases supplémentaires" = [{phase = "combat", "après" = "main2"}]
"étapes supplémentaires" = [{"étape" = "upkeep", "avant" = "draw"}]
[[creatures]]
name = "Ours"
blessures = 1
"coût d'attaque" = 2
"ordre des blessures" = []
"déphasée" = true
[[permanents]]
name = "Forêt"
"ne se dégage pas" = true
[[effets]]
name = "Croissance"
"jusqu'à" = "jusqu'à la fin du tour"
[["déclenchements"]]
name = "Fin"
"au début de" = "à la fin du tour"
[[events]]
"change la force" = {"créature" = "Ours", force = 4}
[[events]]
"prend le contrôle" = {"créature" = "Ours", par = "B"}
[[questions]]
ask = "déclarer les attaquants"
"créatures" = ["Ours"]
""")
    creature = s.creatures[0]
    assert (creature.damage, creature.attack_cost, creature.phased_out) == (1, 2, True)
    assert s.permanents[0].doesnt_untap and s.mana_available == (("A", 2),)
    assert s.effects[0].until == "end_of_turn" and s.triggers[0].at == "end_of_turn"
    assert s.extra_phases[0].after == "postcombat_main" and s.extra_steps[0].before
    assert s.questions[0].ask == "declare_attackers" and s.questions[0].creatures == ("Ours",)
    assert s.events == (SetPower(creature="Ours", power=4), GainControl(creature="Ours", by="B"))
