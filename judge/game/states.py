"""Invalid described states: a situation that no game can reach is an error naming its field.

Owns the checks of a described (not replayed) situation against its edition's game model:
priority where nobody receives it, attackers and blockers outside the steps where they can
be, blocks between creatures of one controller. Questions are answered elsewhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.errors import SituationError
from judge.game.gamemodel import GameModel
from judge.game.situationmodel import Creature, Situation, attacking_players
from judge.game.turnplan import Step

if TYPE_CHECKING:
    from judge.game.objects import Permanent

# The steps of the combat phase where creatures can be attacking, and blocking.
_ATTACKING = (Step.DECLARE_ATTACKERS, Step.DECLARE_BLOCKERS, Step.COMBAT_DAMAGE, Step.END_OF_COMBAT)
_BLOCKING = (Step.DECLARE_BLOCKERS, Step.COMBAT_DAMAGE, Step.END_OF_COMBAT)


def first_turn_skip(model: GameModel, situation: Situation) -> str | None:
    """The concept deciding that the starting player skips the draw step of the first turn,
    or None when nobody skips it (not the first turn, or a multiplayer game other than
    Two-Headed Giant where the model says the starting player draws: 2010 103.7c)."""
    if not situation.first_turn:
        return None
    if situation.variant == "two_headed_giant":
        return "turn.first_turn_team" if model.rules("turn.first_turn_team") else "turn.first_turn"
    if len(situation.players) > 2 and model.fact("first_turn_draw_multiplayer").value:
        return None
    return None if model.fact("first_turn_draw").value else "turn.first_turn"


def check_state(model: GameModel, situation: Situation) -> None:
    """Raise a SituationError naming the first field of `situation` that cannot be."""
    _check_moment(model, situation)
    _check_combat(model, situation)


def _check_moment(model: GameModel, s: Situation) -> None:
    """The step exists in the edition, can be reached, and its stack and priority can be."""
    if not model.has(s.phase, s.step):
        raise SituationError("step" if s.step else "phase",
                             f"« {s.step or s.phase} » n'existe pas dans le modèle de jeu de "
                             "cette édition")
    if s.step == Step.DRAW and first_turn_skip(model, s):
        raise SituationError("first_turn", "le joueur qui commence la partie passe l'étape de "
                             "pioche de son premier tour : on passe au-delà comme si elle "
                             f"n'existait pas (règles {', '.join(model.rules('turn.first_turn'))})")
    if s.stack and not model.fact("combat_damage_on_stack").value and any(
            item.kind == "combat_damage" for item in s.stack):
        raise SituationError("stack", "les blessures de combat n'utilisent pas la pile dans cette "
                             "édition : elles sont infligées dès qu'elles sont assignées (règle "
                             f"{', '.join(model.fact('combat_damage_on_stack').rules)})")
    entry = model.step(s.phase, s.step)
    if s.priority is not None and not entry.priority and not (
            s.step == Step.CLEANUP and (s.stack or s.pending_triggers)):
        rule = entry.priority_rule
        if s.step == Step.CLEANUP:
            raise SituationError("priority", f"personne ne reçoit la priorité pendant le "
                                 f"nettoyage sans capacité déclenchée sur la pile (règle {rule})")
        raise SituationError("priority", f"personne ne reçoit la priorité pendant cette étape "
                             f"(règle {rule})")
    if s.damage_step is not None and s.step != Step.COMBAT_DAMAGE:
        raise SituationError("damage_step", "n'a de sens que pendant l'étape combat_damage"
                             + _cited(model, "damage.two_steps"))


def _check_combat(model: GameModel, s: Situation) -> None:
    """Attacking, blocked and blocking creatures only in the steps where they can be, of the
    players who can attack, blocking what they can block."""
    names: dict[str, Creature] = {}  # filled at the first blocker met
    for i, creature in enumerate(s.creatures):
        path = f"creatures[{i}]"
        if creature.attacking and s.step not in _ATTACKING:
            raise SituationError(f"{path}.attacking", "une créature ne peut être attaquante "
                                 "qu'entre la déclaration des attaquants et la fin du combat"
                                 + _cited(model, "attack.declare", "combat.end"))
        if creature.attacking and creature.controller not in attacking_players(s):
            raise SituationError(f"{path}.attacking", f"seules les créatures du joueur actif "
                                 f"({s.active}){' ou de son équipe' if s.teams else ''} attaquent"
                                 + _cited(model, "combat.players", "attack.legal"))
        # An attacker that a creature blocks is blocked by that fact: its blocker's field is the
        # one to name when the step is wrong.
        if creature.blocked and s.step not in _BLOCKING and creature.name not in {
                a for c in s.creatures for a in c.blocking}:
            raise SituationError(f"{path}.blocked", "une créature ne peut être bloquée qu'entre "
                                 "la déclaration des bloqueurs et la fin du combat"
                                 + _cited(model, "block.declare", "combat.end"))
        if not creature.blocking:
            continue
        if s.step not in _BLOCKING:
            raise SituationError(f"{path}.blocking", "une créature ne peut bloquer qu'entre la "
                                 "déclaration des bloqueurs et la fin du combat"
                                 + _cited(model, "block.declare", "combat.end"))
        names = names or {c.name: c for c in s.creatures}
        for attacker in (names[a] for a in creature.blocking):
            _check_block(attacking_players(s), path, creature, attacker,
                         _cited(model, "block.legal", "combat.players"))


def check_edition_terms(model: GameModel, edition: str, situation: Situation) -> None:
    """What the situation names exists in its edition: every keyword ability of its creatures
    (else a SituationError citing the edition's keyword section: deathtouch in 2004, 502.1),
    planeswalkers (the card types), players who left a multiplayer game (800.4)."""
    from judge.game.aliases import ABILITY_NAMES

    kinds = model.fact("spell_kinds").value
    if isinstance(kinds, tuple) and "planeswalker" not in kinds:
        items: tuple[Permanent | Creature, ...] = (*situation.permanents, *situation.creatures)
        for i, item in enumerate(items):
            if "planeswalker" in item.card_types or getattr(item, "loyalty", None) is not None:
                where = "permanents" if i < len(situation.permanents) else "creatures"
                index = i if where == "permanents" else i - len(situation.permanents)
                raise SituationError(f"{where}[{index}].card_types", "le type planeswalker "
                                     f"n'existe pas dans l'édition {edition}"
                                     + _cited(model, "walker.none"))
    if model.rules("multiplayer.none") and (situation.variant in ("two_headed_giant", "archenemy")
                                            or situation.left_game):
        field = "left_game" if situation.left_game else "variant"
        raise SituationError(field, f"les règles de l'édition {edition} supposent une partie à "
                             "deux joueurs : ni variante multijoueur ni joueur qui quitte la "
                             "partie" + _cited(model, "multiplayer.none"))
    if situation.left_game:
        if not model.rules("multiplayer.left"):
            raise SituationError("left_game", f"l'édition {edition} n'a pas de règles pour une "
                                 "partie multijoueur qui continue après le départ d'un joueur")
        if len(situation.players) - len(set(situation.left_game)) < 2:
            raise SituationError("left_game", "la partie est finie : il reste moins de deux "
                                 "joueurs (104.2a)")
        gone = set(situation.left_game)
        things: tuple[tuple[str, tuple[Creature | Permanent, ...]], ...] = (
            ("creatures", situation.creatures), ("permanents", situation.permanents))
        for where, items in things:
            for i, item in enumerate(items):
                if item.controller in gone:
                    raise SituationError(f"{where}[{i}].controller", f"{item.controller} a "
                                         "quitté la partie : ses permanents l'ont quittée aussi"
                                         + _cited(model, "multiplayer.left",
                                                  "multiplayer.left_objects"))

    if situation.variant == "two_headed_giant" and situation.life:
        _check_shared_life(model, situation)
    for i, creature in enumerate(situation.creatures):
        for j, ability in enumerate(creature.abilities):
            if model.defines(ability):
                continue
            names = ABILITY_NAMES.get(ability, ())
            name = f"« {names[0]} » ({ability})" if names else f"« {ability} »"
            section = model.rules("ability.section")
            where = f" ({section[0].split('.')[0]})" if section else ""
            raise SituationError(f"creatures[{i}].abilities[{j}]",
                                 f"la capacité {name} n'existe pas dans l'édition {edition} : "
                                 f"ses capacités mot-clé{where} ne la définissent pas"
                                 + _cited(model, "ability.section"))


def _check_shared_life(model: GameModel, situation: Situation) -> None:
    """Two-Headed Giant: a team has one life total (2010 810.9): its players' can't differ."""
    life = dict(situation.life)
    for team in situation.teams:
        said = {p: life[p] for p in team if p in life}
        if len(set(said.values())) > 1:
            raise SituationError("life", "en Troll à deux têtes, chaque équipe a un total de "
                                 f"points de vie partagé : {', '.join(f'{p} = {n}' for p, n in said.items())} "
                                 "ne peuvent pas différer (donnez le total de l'équipe une fois)"
                                 + _cited(model, "team.life"))


def _cited(model: GameModel, *concepts: str) -> str:
    """« (règles 508.1, 511.3) »: the rules the edition's model gives the concepts."""
    numbers = list(dict.fromkeys(n for c in concepts for n in model.rules(c) if ":" not in n))
    if not numbers:
        return ""
    return f" ({'règles' if len(numbers) > 1 else 'règle'} {', '.join(numbers)})"


def _check_block(attacking: tuple[str, ...], path: str, creature: Creature, attacker: Creature,
                 cited: str) -> None:
    if attacker.controller == creature.controller:
        raise SituationError(f"{path}.blocking", f"{creature.name} et {attacker.name} ont le "
                             f"même contrôleur ({creature.controller}) : on ne bloque pas "
                             "ses propres créatures" + cited)
    if creature.controller in attacking:
        who = (f"le joueur actif ({attacking[0]}) attaque" if len(attacking) == 1
               else f"{creature.controller} est de l'équipe active, qui attaque")
        raise SituationError(f"{path}.blocking", f"{who} : ses créatures ne bloquent pas" + cited)
