"""Who defends and what each attacker attacks: the defending players of a combat (two players,
a multiplayer variant and its options), the player or planeswalker an attacker attacks, and the
« joueur défenseur » an attacking creature's ability refers to.

2010 506.2–506.2b, 507.1, 508.1b, 508.5–508.5a (and the options 802, 803, the team variants
805, 810, 904); 2004 knows only two players (306.3). The combat and damage checks use these
helpers; the checks `defending_players` and `defending_player` are in `judge.checks.combat`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from judge.game.situationmodel import Creature, Situation

if TYPE_CHECKING:
    from judge.legality.board import Board


@dataclass(frozen=True, slots=True, kw_only=True)
class Defenders:
    """The defending players of this combat (empty: not chosen yet, or nobody can be attacked),
    the concept deciding it and the French reason."""

    players: tuple[str, ...]
    concept: str
    why: str
    chosen: bool = True  # False: the attacking player has still to choose one (507.1)
    also: tuple[str, ...] = ()  # other concepts deciding it (players who left: 800.4)


def opponents(s: Situation) -> tuple[str, ...]:
    """The active player's opponents in turn order (still in the game: 2010 800.4)."""
    return _opponents(_seated(s), s.active, s.teams)


def _seated(s: Situation) -> tuple[str, ...]:
    """The players still in the game (the active player's seat kept: 800.4g)."""
    if not s.left_game:
        return s.players
    return tuple(p for p in s.players if p not in s.left_game or p == s.active)


@lru_cache(maxsize=256)
def _opponents(players: tuple[str, ...], active: str, teams: tuple[tuple[str, ...], ...]
               ) -> tuple[str, ...]:
    seat = players.index(active)
    mine = next((team for team in teams if active in team), (active,))
    turn = [players[(seat + k) % len(players)] for k in range(1, len(players))]
    return tuple(p for p in turn if p not in mine)


def defenders(s: Situation) -> Defenders:
    """Who the defending players are (506.2, 506.2a, 506.2b, 507.1, 802.2, 803.1)."""
    found = _defenders(_seated(s), s.active, s.teams, s.variant, s.attack_option, s.defending)
    if s.left_game and found.chosen:
        return Defenders(players=found.players, concept=found.concept, also=("multiplayer.left",), why=(
            f"{found.why} ; {', '.join(s.left_game)} a quitté la partie : il n'est plus un "
            "joueur défenseur (la partie continue sans lui)"))
    return found


# A pure function of the few fields of a situation that decide it, asked by several checks
# and declarations of one situation: cached (bounded by the seatings and options seen).
@lru_cache(maxsize=256)
def _defenders(players: tuple[str, ...], active: str, teams: tuple[tuple[str, ...], ...],
               variant: str | None, attack_option: str | None, defending: str | None
               ) -> Defenders:
    rivals = _opponents(players, active, teams)
    if variant == "archenemy":
        return Defenders(players=rivals, concept="variant.archenemy", why=(
            "Archenemy (équipe contre équipe, option « attaque multiple ») : tous les "
            f"adversaires du joueur attaquant ({', '.join(rivals)}) sont des joueurs défenseurs"))
    if teams:
        return Defenders(players=rivals, concept="variant.teams", why=(
            "les équipes jouent des tours partagés : l'équipe non active ("
            f"{', '.join(rivals)}) est l'équipe défenseuse, chacun de ses joueurs est un joueur "
            "défenseur"))
    if len(players) == 2:
        return Defenders(players=rivals, concept="combat.players", why=(
            f"partie à deux joueurs : le joueur non actif ({rivals[0]}) est le joueur défenseur"))
    if attack_option == "multiple":
        return Defenders(players=rivals, concept="variant.attack_multiple", why=(
            "option « attaque multiple » : tous les adversaires du joueur attaquant sont des "
            "joueurs défenseurs"))
    if attack_option in ("left", "right"):
        seat = players.index(active)
        step = 1 if attack_option == "left" else -1
        neighbour = players[(seat + step) % len(players)]
        side = "gauche" if step == 1 else "droite"
        if neighbour not in rivals:
            return Defenders(players=(), concept=f"variant.attack_{attack_option}", why=(
                f"option « attaque à {side} » : le voisin immédiat de {active} à sa {side} "
                f"({neighbour}) n'est pas un adversaire, {active} ne peut pas attaquer"))
        return Defenders(players=(neighbour,), concept=f"variant.attack_{attack_option}", why=(
            f"option « attaque à {side} » : seul l'adversaire assis immédiatement à sa {side} "
            f"({neighbour}) peut être attaqué ; c'est le joueur défenseur"))
    if defending is not None:
        return Defenders(players=(defending,), concept="variant.choose", why=(
            f"partie multijoueur : au début du combat, {active} a choisi {defending} parmi "
            "ses adversaires ; c'est le joueur défenseur"))
    return Defenders(players=(), concept="variant.choose", chosen=False, why=(
        f"partie multijoueur : {active} choisit l'un de ses adversaires "
        f"({', '.join(rivals)}) comme joueur défenseur, au début de l'étape de début du combat "
        "(action du tour, sans la pile)"))


def defending_player(s: Situation) -> str:
    """The one defending player when a single name is needed (the first one; before the choice,
    the next opponent in turn order)."""
    found = defenders(s).players or opponents(s) or (s.active,)
    return found[0]


def controller_of(board: Board, name: str) -> str | None:
    """The controller of a permanent on the board, or None."""
    creature = board.find(name)
    if creature is not None:
        return creature.controller
    return next((p.controller for p in board.permanents if p.name == name), None)


def attack_target(board: Board, attacker: Creature) -> str | None:
    """What an attacker attacks now: a player or a planeswalker; None once the planeswalker it
    attacked has left combat (left the battlefield, stopped being a planeswalker: 2010 506.4c)."""
    target = attacker.attacks
    if target is None:
        return defending_player(board.seating)
    if target in board.seating.players:
        return target
    creature = board.find(target)
    walker = next((p for p in board.permanents if p.name == target), None) or creature
    if walker is None or "planeswalker" not in walker.card_types or (
            creature is not None and not creature.in_play):
        return None
    return target


def attacked_player(board: Board, attacker: Creature) -> str:
    """The player an attacker attacks, or the controller of the planeswalker it attacks (as it
    was declared: 508.5)."""
    s = board.seating
    target = attacker.attacks or defending_player(s)
    return target if target in s.players else (controller_of(board, target) or target)
