"""Abilities that trigger on combat events of a creature (`triggers[i].on`): when it attacks,
blocks, becomes blocked, is blocked by N creatures, attacks and isn't blocked — how many times
each triggers, for the declarations and for blocks that come later.

2010 509.4a–e, 509.4g and 509.7 (508.4 for attacks) say when each kind triggers; 2004 has only
the declarations' triggers (308.1, 309.1). The concepts are the models'; this module computes,
the checks and the replay cite (the checks' `triggers` question asks it too).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from judge.game.situationmodel import Creature

if TYPE_CHECKING:
    from judge.game.gamemodel import GameModel
    from judge.game.objects import Trigger

# The concept deciding each kind of trigger (the edition's model numbers it).
KIND_CONCEPTS = {
    "attacks": "triggers.on.attacks",
    "blocks": "triggers.on.blocks",
    "blocks_creature": "triggers.on.blocks_creature",
    "becomes_blocked": "triggers.on.becomes_blocked",
    "blocked_by_creature": "triggers.on.blocked_by_creature",
    "blocked_by_count": "triggers.on.count",
    "blocks_count": "triggers.on.count",
    "attacks_unblocked": "triggers.on.unblocked",
}
KIND_WORDS = {
    "attacks": "« quand elle attaque »",
    "blocks": "« quand elle bloque »",
    "blocks_creature": "« quand elle bloque une créature »",
    "becomes_blocked": "« quand elle devient bloquée »",
    "blocked_by_creature": "« quand elle devient bloquée par une créature »",
    "blocked_by_count": "« quand elle devient bloquée par N créatures »",
    "blocks_count": "« quand elle bloque N créatures »",
    "attacks_unblocked": "« quand elle attaque et n'est pas bloquée »",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Fired:
    """A trigger that triggers `times` times, and the sentence saying why."""

    trigger: Trigger
    times: int
    why: str
    # A triggered keyword ability: its concept (`ability.<name>`) and its effect (does,
    # target, n) as it will resolve.
    keyword: str | None = None
    effect: tuple[str, str, int, str] | None = None

    @property
    def concept(self) -> str:
        if self.keyword is not None:
            return f"ability.{self.keyword}"
        return KIND_CONCEPTS[self.trigger.on or ""]


def _matches(count: int, trigger: Trigger) -> bool:
    wanted = trigger.count or 0
    return count >= wanted if trigger.at_least else count == wanted


def declared_attack_triggers(triggers: tuple[Trigger, ...], creatures: tuple[Creature, ...]
                             ) -> list[Fired]:
    """`attacks` triggers of the creatures declared as attackers (not those put onto the
    battlefield attacking: they never « attacked »)."""
    if not triggers:
        return []
    attackers = {c.name for c in creatures if c.attacking and c.in_combat
                 and not c.entered_attacking}
    return [Fired(trigger=t, times=1, why=f"{t.creature} a été déclarée attaquante")
            for t in triggers if t.on == "attacks" and t.creature in attackers]


# How many times a block trigger triggers on the declaration of blockers, and why, by its
# kind: from the trigger, its creature, what that creature was declared blocking (`blocks`)
# and the names of the creatures declared blocking it (`blockers`).
_Reader = Callable[["Trigger", Creature, tuple[str, ...], list[str]], tuple[int, str]]
_ON_DECLARED_BLOCKS: dict[str, _Reader] = {
    "blocks": lambda t, me, blocks, blockers: (1, f"{me.name} bloque (une fois, même si elle "
                                               "bloque plusieurs créatures)") if blocks else (0, ""),
    "blocks_creature": lambda t, me, blocks, blockers: (
        len(blocks), f"{me.name} bloque {', '.join(blocks)} (une fois par créature)"),
    "becomes_blocked": lambda t, me, blocks, blockers: (1, f"{me.name} devient bloquée (une "
                                                        "fois, même par plusieurs bloqueurs)")
    if blockers else (0, ""),
    "blocked_by_creature": lambda t, me, blocks, blockers: (
        len(blockers), f"{me.name} devient bloquée par {', '.join(blockers)} (une fois par "
        "bloqueur)"),
    "blocked_by_count": lambda t, me, blocks, blockers: (
        1, f"{me.name} est bloquée par {len(blockers)} créatures")
    if blockers and _matches(len(blockers), t) else (0, ""),
    "blocks_count": lambda t, me, blocks, blockers: (1, f"{me.name} bloque {len(blocks)} créatures")
    if blocks and _matches(len(blocks), t) else (0, ""),
    "attacks_unblocked": lambda t, me, blocks, blockers: (
        1, f"aucune créature n'a été déclarée bloqueuse de {me.name}")
    if me.attacking and me.in_combat and not me.blocked else (0, ""),
}


def declared_block_triggers(triggers: tuple[Trigger, ...], creatures: tuple[Creature, ...]
                            ) -> list[Fired]:
    """The block triggers of the declaration of blockers (creatures put onto the battlefield
    blocking come later and never « blocked »)."""
    if not triggers:
        return []
    declared = [c for c in creatures if c.blocking and c.in_combat and not c.entered_blocking]
    out: list[Fired] = []
    for t in triggers:
        me = next((c for c in creatures if c.name == (t.creature or "")), None)
        read = _ON_DECLARED_BLOCKS.get(t.on or "")
        if me is None or read is None:
            continue
        blocks = me.blocking if me in declared else ()
        times, why = read(t, me, blocks, [c.name for c in declared if c.blocks(me.name)])
        if times:
            out.append(Fired(trigger=t, times=times, why=why))
    return out


def later_block_triggers(triggers: tuple[Trigger, ...], blocker: Creature, attacker: Creature,
                         *, entered: bool, blockers_after: int) -> list[Fired]:
    """The triggers of a block that comes after the declaration: an effect makes `blocker`
    block `attacker` (`entered` False), or `blocker` is put onto the battlefield blocking it
    (`entered` True: it never « blocked », 509.7). `blocker` and `attacker` are as they were
    just before; `blockers_after` counts the attacker's blockers after."""
    out: list[Fired] = []
    for t in triggers:
        times, why = 0, ""
        if t.creature == blocker.name and not entered:
            if t.on == "blocks" and not blocker.blocking:
                times, why = 1, f"un effet fait bloquer {blocker.name}, qui ne bloquait pas"
            elif t.on == "blocks_creature" and not blocker.blocks(attacker.name):
                times, why = 1, f"un effet fait bloquer {attacker.name} par {blocker.name}"
            elif t.on == "blocks_count" and _matches(len(blocker.blocking) + 1, t):
                times, why = 1, f"{blocker.name} bloque maintenant {len(blocker.blocking) + 1} créatures"
        elif t.creature == attacker.name:
            if t.on == "becomes_blocked" and not attacker.blocked:
                times, why = 1, f"{attacker.name} était non bloquée et devient bloquée"
            elif t.on == "blocked_by_creature" and not blocker.blocks(attacker.name):
                times, why = 1, f"{blocker.name} se met à bloquer {attacker.name}"
            elif t.on == "blocked_by_count" and _matches(blockers_after, t):
                times, why = 1, f"{attacker.name} est maintenant bloquée par {blockers_after} créatures"
        if times:
            out.append(Fired(trigger=t, times=times, why=why))
    return out


def not_fired(triggers: tuple[Trigger, ...], blocker: Creature) -> list[Trigger]:
    """The « quand elle bloque » triggers of a creature put onto the battlefield blocking: they
    do not trigger (it never « blocked »)."""
    return [t for t in triggers if t.creature == blocker.name
            and t.on in ("blocks", "blocks_creature", "blocks_count")]


# (why, target, n) for each instance of a keyword ability a declaration triggers.
_Instances = list[tuple[str, str, int]]


@dataclass(frozen=True, slots=True, kw_only=True)
class _Declared:
    """What a declaration made: the creatures declared attacking, and blocking."""

    attacking: tuple[Creature, ...]
    blocking: tuple[Creature, ...]


def _attacks_alone(me: Creature, declared: _Declared, amounts: list[int], name: str,
                   ability: str) -> _Instances:
    """Exalted: an ally of `me`'s controller attacks alone."""
    if len(declared.attacking) == 1 and declared.attacking[0].controller == me.controller:
        lone = declared.attacking[0].name
        return [(f"{lone} attaque seule", lone, 1)]
    return []


def _blocks_or_blocked(me: Creature, declared: _Declared, amounts: list[int],
                       name: str, ability: str) -> _Instances:
    """Bushido: `me` blocks or becomes blocked."""
    if me in declared.blocking or any(b.blocks(me.name) for b in declared.blocking):
        why = f"{me.name} bloque" if me in declared.blocking else f"{me.name} devient bloquée"
        return [(why, me.name, n) for n in amounts]
    return []


def _becomes_blocked(me: Creature, declared: _Declared, amounts: list[int],
                     name: str, ability: str) -> _Instances:
    """Rampage: `me` becomes blocked."""
    if any(b.blocks(me.name) for b in declared.blocking):
        return [(f"{me.name} devient bloquée", me.name, n) for n in amounts]
    return []


def _blocked_by_creature_without(me: Creature, declared: _Declared, amounts: list[int],
                                 name: str, ability: str) -> _Instances:
    """Flanking: `me` becomes blocked by a creature without the ability, once per
    blocker."""
    return [(f"{me.name} devient bloquée par {b.name}, qui n'a pas {name}", b.name, 1)
            for b in declared.blocking if b.blocks(me.name) and not b.has(ability)]


# When each keyword trigger (the model's `trigger`'s first word) is looked for: on a
# declaration of attackers, or of blockers (then only for a creature in combat).
_ON_ATTACKERS: dict[str, Callable[[Creature, _Declared, list[int], str, str], _Instances]] = {
    "ally_attacks_alone": _attacks_alone,
}
_ON_BLOCKERS: dict[str, Callable[[Creature, _Declared, list[int], str, str], _Instances]] = {
    "blocks_or_blocked": _blocks_or_blocked,
    "becomes_blocked": _becomes_blocked,
    "blocked_by_creature_without": _blocked_by_creature_without,
}


def keyword_triggers(model: GameModel, creatures: tuple[Creature, ...], *, attackers: bool
                     ) -> list[Fired]:
    """The triggered keyword abilities a declaration of attackers (exalted) or of blockers
    (bushido, rampage, flanking) triggers, each instance apart (2004 502.3b, 502.12c; 2010
    702.20c, 702.22b, 702.42b): the model says when each triggers and what it does."""
    if not any(c.abilities for c in creatures):
        return []
    declared = _Declared(
        attacking=tuple(c for c in creatures
                        if c.attacking and c.in_combat and not c.entered_attacking),
        blocking=tuple(c for c in creatures
                       if c.blocking and c.in_combat and not c.entered_blocking))
    table = _ON_ATTACKERS if attackers else _ON_BLOCKERS
    return [fired for creature in creatures if creature.in_play
            and (attackers or creature.in_combat)
            for ability in creature.abilities
            for fired in _keyword_fired(model, creature, ability, declared, table)]


def _keyword_fired(model: GameModel, creature: Creature, ability: str, declared: _Declared,
                   table: dict[str, Callable[[Creature, _Declared, list[int], str, str],
                                             _Instances]]) -> list[Fired]:
    """The instances of one keyword ability of `creature` the declaration triggers."""
    from judge.game.aliases import ABILITY_NAMES
    from judge.game.objects import Trigger

    keyword = model.keyword(ability)
    if keyword is None or keyword.trigger is None:
        return []
    on, does = keyword.trigger
    instances = table.get(on)
    if instances is None:
        return []
    name = (ABILITY_NAMES.get(ability) or (ability,))[0]
    amounts = [int(n) for n in creature.params(ability)] or [1]
    return [Fired(trigger=Trigger(name=name, controller=creature.controller, creature=creature.name),
                  times=1, why=why, keyword=ability, effect=(does, target, n, ability))
            for why, target, n in instances(creature, declared, amounts, name, ability)]
