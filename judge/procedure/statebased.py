"""State-based actions (2004 420 « effets basés sur un état », 2010 704): which the edition's
game model lists (`[[state_based_action]]`), and performing them on a state.

Performed whenever a player would receive priority — by the replay after turn-based actions,
after a spell or ability resolves and after a player acts, and on a described situation — all
at once, then checked again until none applies. A creature they put into the graveyard leaves
play and combat (`Creature.destroyed` names the action); an attacker it blocked stays blocked;
a noncreature permanent they put into the graveyard is no longer among the permanents. The
legend and world rules keep at most one permanent of a group (the model says which: `keeps`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from judge.errors import SituationError
from judge.game.gamemodel import UNIQUENESS_ACTIONS, GameModel
from judge.game.situationmodel import Creature, Situation

if TYPE_CHECKING:
    from judge.game.objects import Permanent

# The French sentence of each action, and what it does to what it names.
_SAID = {
    "zero_life": "{names} {have} 0 point de vie ou moins : {lose} la partie",
    "zero_toughness": "{creature} {names} {have} une endurance de 0 ou moins : {go} au "
                      "cimetière",
    "lethal_damage": "{creature} {names} {have} des blessures mortelles : {destroyed}",
    "legend_rule": "règle de la légende, permanents légendaires du même nom : {names} {go} au "
                   "cimetière",
    "world_rule": "règle du monde, plusieurs permanents du monde : {names} {go} au cimetière",
}
_RULE_NAMES = {"legend_rule": "la règle de la légende", "world_rule": "la règle du monde"}
# Which permanents a uniqueness action keeps of a group (the action's `keeps`), as words.
_KEEPS_WORDS = {"oldest": "celui qui l'est depuis le plus longtemps",
                "newest": "celui qui l'est depuis le moins longtemps"}


@dataclass(frozen=True, slots=True, kw_only=True)
class Performed:
    """One state-based action performed on some creatures, permanents or players."""

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
            go="vont" if self.what in UNIQUENESS_ACTIONS and several else
               "va" if self.what in UNIQUENESS_ACTIONS else "elles vont" if several else "elle va",
            destroyed="elles sont détruites" if several else "elle est détruite")


def _alive(creature: Creature) -> bool:
    return creature.in_play and creature.is_creature and not creature.phased_out


def _there(item: Creature | Permanent) -> bool:
    """On the battlefield, as the legend and world rules see it (a phased-out permanent is
    treated as though it doesn't exist: 2004 217.8c, 2010 702.23b)."""
    return getattr(item, "in_play", True) and not item.phased_out


def _unique(model: GameModel, what: str, items: list[Creature | Permanent]) -> list[str]:
    """The names a uniqueness action (the legend or world rule) puts into the graveyard."""
    action = model.state_based(what)
    if action is None:
        return []
    supertype = UNIQUENESS_ACTIONS[what]
    groups: dict[str, list[Creature | Permanent]] = {}
    for item in items:
        if supertype in item.supertypes and _there(item):
            key = (item.card_name or item.name) if what == "legend_rule" else ""
            groups.setdefault(key, []).append(item)
    out: list[str] = []
    for group in groups.values():
        if len(group) < 2:
            continue
        keep = None
        if action.keeps in _KEEPS_WORDS:
            unknown = [i.name for i in group if i.timestamp is None]
            if unknown:
                rules = ", ".join(action.rules)
                raise SituationError("timestamp", f"{', '.join(i.name for i in group)} : "
                                     f"{_RULE_NAMES[what]} ({rules}) garde "
                                     f"{_KEEPS_WORDS[action.keeps]} ; l'horodatage "
                                     f"(timestamp) de {', '.join(unknown)} n'est pas dit")
            stamps = sorted(i.timestamp or 0 for i in group)
            best = stamps[0] if action.keeps == "oldest" else stamps[-1]
            if stamps.count(best) == 1:  # a tie keeps none
                keep = next(i.name for i in group if i.timestamp == best)
        out += [i.name for i in group if i.name != keep]
    return out


def _check(model: GameModel, creatures: dict[str, Creature], permanents: dict[str, Permanent],
           life: dict[str, int], lost: set[str]) -> list[Performed]:
    found: list[Performed] = []
    if model.performs("zero_life"):
        losers = tuple(p for p, n in life.items() if n <= 0 and p not in lost)
        if losers:
            found.append(Performed(what="zero_life", names=losers))
    zero: list[str] = []
    lethal: list[str] = []
    unique = False
    for name, creature in creatures.items():
        unique = unique or bool(creature.supertypes)
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
    if unique or any(p.supertypes for p in permanents.values()):
        items: list[Creature | Permanent] = [*creatures.values(), *permanents.values()]
        for what in UNIQUENESS_ACTIONS:
            names = _unique(model, what, items)
            if names:
                found.append(Performed(what=what, names=tuple(names)))
    return found


def perform(model: GameModel, creatures: dict[str, Creature], permanents: dict[str, Permanent],
            life: dict[str, int], lost: set[str]) -> list[Performed]:
    """Check and perform the state-based actions until none applies (in `creatures`,
    `permanents`, `lost`)."""
    done: list[Performed] = []
    for _ in range(len(creatures) + len(permanents) + len(life) + 1):  # each round removes one
        found = _check(model, creatures, permanents, life, lost)
        if not found:
            break
        gone: set[str] = set()  # performed simultaneously: the first action found names it
        for action in found:
            if action.what == "zero_life":
                lost.update(action.names)
                continue
            for name in action.names:
                if name in gone:
                    continue
                gone.add(name)
                if name in permanents:
                    del permanents[name]
                    continue
                creatures[name] = replace(creatures[name], in_play=False, attacking=False,
                                          blocking=(), destroyed=action.concept)
        done += found
    return done


def described(model: GameModel, situation: Situation) -> tuple[Situation, list[Performed]]:
    """A described situation as it is once the state-based actions are performed (a player
    receives priority in every step but the untap step and, usually, cleanup; the state of a
    cleanup step comes from the end step, where they were)."""
    if situation.step == "untap" or not (situation.life or any(
            c.supertypes or (c.toughness is not None and (c.toughness <= 0 or c.damage >= c.toughness))
            for c in situation.creatures) or any(p.supertypes for p in situation.permanents)):
        return situation, []
    creatures = {c.name: c for c in situation.creatures}
    permanents = {p.name: p for p in situation.permanents}
    lost: set[str] = set()
    done = perform(model, creatures, permanents, dict(situation.life), lost)
    if not any(a.what != "zero_life" for a in done):
        return situation, done
    return replace(situation, creatures=tuple(creatures.values()),
                   permanents=tuple(permanents.values())), done
