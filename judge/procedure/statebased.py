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
from judge.game.turnplan import Step

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
    "empty_library": "{names} {have} dû piocher dans une bibliothèque vide : {lose} la partie",
    "poison": "{names} {have} dix marqueurs poison ou plus : {lose} la partie",
    "deathtouch": "{creature} {names} {have} reçu des blessures d'une source avec le contact "
                  "mortel : {destroyed}",
    "zero_loyalty": "le planeswalker {names} a une loyauté de 0 : il va au cimetière",
    "planeswalker_uniqueness": "règle d'unicité des planeswalkers, même type de planeswalker : "
                               "{names} {go} au cimetière",
    "team_loses": "en Troll à deux têtes, l'équipe perd ensemble : {names} {lose_too} la "
                  "partie",
    "regenerated": "{creature} {names} {have} un bouclier de régénération : au lieu d'être "
                   "détruite{s}, ses blessures sont retirées, elle est engagée et retirée du combat",
}
# The actions that make players lose, and those that destroy (a regeneration shield replaces).
_LOSING = frozenset({"zero_life", "empty_library", "poison", "team_loses"})
_DESTROYING = frozenset({"lethal_damage", "deathtouch"})
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
        players = self.what in _LOSING
        unique = self.what in UNIQUENESS_ACTIONS or self.what == "planeswalker_uniqueness"
        return _SAID[self.what].format(
            creature="les créatures" if several else "la créature", names=", ".join(self.names), have="ont" if several else "a",
            lose="ils perdent" if several else ("il perd" if players else "elle perd"),
            go="vont" if unique and several else
               "va" if unique else "elles vont" if several else "elle va",
            destroyed="elles sont détruites" if several else "elle est détruite",
            lose_too="perdent aussi" if several else "perd aussi",
            s="s" if several else "")


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


@dataclass(frozen=True, slots=True, kw_only=True)
class Players:
    """What the state-based actions read of the players besides life: poison counters, and who
    had to draw from an empty library since they were last checked."""

    poison: tuple[tuple[str, int], ...] = ()
    drew_from_empty: tuple[str, ...] = ()
    teams: tuple[tuple[str, ...], ...] = ()  # Two-Headed Giant: a team loses together


_NO_PLAYERS = Players()


def _losers(model: GameModel, life: dict[str, int], lost: set[str], players: Players
            ) -> list[Performed]:
    found: list[Performed] = []
    checks = (("zero_life", tuple(p for p, n in life.items() if n <= 0)),
              ("empty_library", players.drew_from_empty),
              ("poison", tuple(p for p, n in players.poison if n >= 10)))
    losing: set[str] = set()
    for what, names in checks:
        names = tuple(p for p in names if p not in lost)
        if names and model.performs(what):
            found.append(Performed(what=what, names=names))
            losing.update(names)
    # 2010 810.8a: if either player of a team loses the game, the team loses the game
    mates = tuple(p for team in players.teams if losing.intersection(team) for p in team
                  if p not in losing and p not in lost)
    if mates:
        found.append(Performed(what="team_loses", names=mates))
    return found


def _walkers(model: GameModel, permanents: dict[str, Permanent]) -> list[Performed]:
    """704.5i (a planeswalker with 0 loyalty) and 704.5j (planeswalkers sharing a type)."""
    walkers = [p for p in permanents.values() if "planeswalker" in p.card_types and _there(p)]
    found: list[Performed] = []
    if not walkers:
        return found
    zero = tuple(p.name for p in walkers if p.loyalty is not None and p.loyalty <= 0)
    if zero and model.performs("zero_loyalty"):
        found.append(Performed(what="zero_loyalty", names=zero))
    if model.performs("planeswalker_uniqueness"):
        shared = tuple(p.name for p in walkers if any(
            q is not p and set(q.subtypes) & set(p.subtypes) for q in walkers))
        if shared:
            found.append(Performed(what="planeswalker_uniqueness", names=shared))
    return found


def _check(model: GameModel, creatures: dict[str, Creature], permanents: dict[str, Permanent],
           life: dict[str, int], lost: set[str], players: Players = _NO_PLAYERS) -> list[Performed]:
    found: list[Performed] = _losers(model, life, lost, players)
    zero: list[str] = []
    lethal: list[str] = []
    touched: list[str] = []
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
        elif creature.toughness > 0 and creature.deathtouch_damage and model.performs("deathtouch"):
            touched.append(name)
    if zero:
        found.append(Performed(what="zero_toughness", names=tuple(zero)))
    for what, names in (("lethal_damage", lethal), ("deathtouch", touched)):
        shielded = tuple(n for n in names if creatures[n].regeneration_shields > 0)
        if shielded:
            found.append(Performed(what="regenerated", names=shielded))
        names = [n for n in names if n not in shielded]
        if names:
            found.append(Performed(what=what, names=tuple(names)))
    found += _walkers(model, permanents)
    if unique or any(p.supertypes for p in permanents.values()):
        items: list[Creature | Permanent] = [*creatures.values(), *permanents.values()]
        for what in UNIQUENESS_ACTIONS:
            names = _unique(model, what, items)
            if names:
                found.append(Performed(what=what, names=tuple(names)))
    return found


def perform(model: GameModel, creatures: dict[str, Creature], permanents: dict[str, Permanent],
            life: dict[str, int], lost: set[str], players: Players = _NO_PLAYERS
            ) -> list[Performed]:
    """Check and perform the state-based actions until none applies (in `creatures`,
    `permanents`, `lost`). A creature with a regeneration shield that would be destroyed is
    regenerated instead (its damage removed, tapped, removed from combat, a shield used)."""
    done: list[Performed] = []
    for _ in range(2 * (len(creatures) + len(permanents)) + len(life) + 4):  # each round removes one
        found = _check(model, creatures, permanents, life, lost, players)
        if not found:
            break
        players = replace(players, drew_from_empty=())  # checked: done
        gone: set[str] = set()  # performed simultaneously: the first action found names it
        for action in found:
            if action.what in _LOSING:
                lost.update(action.names)
                continue
            if action.what == "regenerated":
                for name in action.names:
                    old = creatures[name]
                    creatures[name] = replace(old, damage=0, tapped=True, attacking=False,
                                              blocking=(), deathtouch_damage=False,
                                              regeneration_shields=old.regeneration_shields - 1,
                                              regenerated=True)
                    gone.add(name)
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


def shared_totals(situation: Situation) -> dict[str, int]:
    """The life totals the replay starts from; in Two-Headed Giant a team's total, said for one
    of its players, is each teammate's (2010 810.9)."""
    life = dict(situation.life)
    if situation.variant == "two_headed_giant":
        for team in situation.teams:
            said = next((life[p] for p in team if p in life), None)
            if said is not None:
                life.update(dict.fromkeys(team, said))
    return life


def _teams(situation: Situation) -> tuple[tuple[str, ...], ...]:
    """The teams that lose together (Two-Headed Giant, 2010 810.8a)."""
    return situation.teams if situation.variant == "two_headed_giant" else ()


def described(model: GameModel, situation: Situation) -> tuple[Situation, list[Performed]]:
    """A described situation as it is once the state-based actions are performed (a player
    receives priority in every step but the untap step and, usually, cleanup; the state of a
    cleanup step comes from the end step, where they were)."""
    if situation.step == Step.UNTAP or not (
            situation.life or situation.poison or situation.drew_from_empty or any(
                c.supertypes or c.deathtouch_damage or (c.toughness is not None and (
                    c.toughness <= 0 or c.damage >= c.toughness)) for c in situation.creatures)
            or any(p.supertypes or "planeswalker" in p.card_types for p in situation.permanents)):
        return situation, []
    creatures = {c.name: c for c in situation.creatures}
    permanents = {p.name: p for p in situation.permanents}
    lost: set[str] = set()
    players = Players(poison=situation.poison, drew_from_empty=situation.drew_from_empty,
                      teams=_teams(situation))
    done = perform(model, creatures, permanents, shared_totals(situation), lost, players)
    if not any(a.what not in _LOSING for a in done):
        return situation, done
    return replace(situation, creatures=tuple(creatures.values()),
                   permanents=tuple(permanents.values())), done
