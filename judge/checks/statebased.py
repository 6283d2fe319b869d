"""State-based actions (2004 420 « effets basés sur un état », 2010 704): which the edition's
game model lists (`[[state_based_action]]`), and performing them on a state.

Performed whenever a player would receive priority — by the replay after turn-based actions,
after a spell or ability resolves and after a player acts, and on a described situation — all
at once, then checked again until none applies. A creature they put into the graveyard leaves
play and combat (`Creature.destroyed` names the action); an attacker it blocked stays blocked.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from judge.game.gamemodel import GameModel
from judge.game.situationmodel import Creature, Situation

# The French sentence of each action, and what it does to what it names.
_SAID = {
    "zero_life": "{names} {have} 0 point de vie ou moins : {lose} la partie",
    "zero_toughness": "{creature} {names} {have} une endurance de 0 ou moins : {go} au "
                      "cimetière",
    "lethal_damage": "{creature} {names} {have} des blessures mortelles : {destroyed}",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Performed:
    """One state-based action performed on some creatures or players."""

    what: str
    names: tuple[str, ...]

    @property
    def concept(self) -> str:
        return f"sba.{self.what}"

    def sentence(self) -> str:
        several = len(self.names) > 1
        players = self.what == "zero_life"
        return _SAID[self.what].format(
            creature="les créatures" if several else "la créature", names=", ".join(self.names), have="ont" if several else "a",
            lose="ils perdent" if several else ("il perd" if players else "elle perd"),
            go="elles vont" if several else "elle va",
            destroyed="elles sont détruites" if several else "elle est détruite")


def _alive(creature: Creature) -> bool:
    return creature.in_play and creature.is_creature and not creature.phased_out


def _check(model: GameModel, creatures: dict[str, Creature], life: dict[str, int],
           lost: set[str]) -> list[Performed]:
    found: list[Performed] = []
    if model.performs("zero_life"):
        losers = tuple(p for p, n in life.items() if n <= 0 and p not in lost)
        if losers:
            found.append(Performed(what="zero_life", names=losers))
    zero: list[str] = []
    lethal: list[str] = []
    for name, creature in creatures.items():
        if not _alive(creature) or creature.toughness is None:
            continue
        if creature.toughness <= 0 and model.performs("zero_toughness"):
            zero.append(name)
        elif creature.toughness > 0 and creature.damage >= creature.toughness and model.performs(
                "lethal_damage"):
            lethal.append(name)
    if zero:
        found.append(Performed(what="zero_toughness", names=tuple(zero)))
    if lethal:
        found.append(Performed(what="lethal_damage", names=tuple(lethal)))
    return found


def perform(model: GameModel, creatures: dict[str, Creature], life: dict[str, int],
            lost: set[str]) -> list[Performed]:
    """Check and perform the state-based actions until none applies (in `creatures`, `lost`)."""
    done: list[Performed] = []
    for _ in range(len(creatures) + len(life) + 1):  # each round removes something
        found = _check(model, creatures, life, lost)
        if not found:
            break
        for action in found:
            if action.what == "zero_life":
                lost.update(action.names)
                continue
            for name in action.names:
                creatures[name] = replace(creatures[name], in_play=False, attacking=False,
                                          blocking=(), destroyed=action.concept)
        done += found
    return done


def described(model: GameModel, situation: Situation) -> tuple[Situation, list[Performed]]:
    """A described situation as it is once the state-based actions are performed (a player
    receives priority in every step but the untap step and, usually, cleanup; the state of a
    cleanup step comes from the end step, where they were)."""
    if situation.step == "untap" or not (situation.life or any(
            c.toughness is not None and (c.toughness <= 0 or c.damage >= c.toughness)
            for c in situation.creatures)):
        return situation, []
    creatures = {c.name: c for c in situation.creatures}
    lost: set[str] = set()
    done = perform(model, creatures, dict(situation.life), lost)
    if not any(a.what != "zero_life" for a in done):
        return situation, done
    return replace(situation, creatures=tuple(creatures.values())), done
