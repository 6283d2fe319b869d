"""Abilities that trigger on combat events of a creature (`triggers[i].on`): when it attacks,
blocks, becomes blocked, is blocked by N creatures, attacks and isn't blocked — how many times
each triggers, for the declarations and for blocks that come later.

2010 509.4a–e, 509.4g and 509.7 (508.4 for attacks) say when each kind triggers; 2004 has only
the declarations' triggers (308.1, 309.1). The concepts are the models'; this module computes,
the checks and the replay cite (the checks' `triggers` question asks it too).
"""

from __future__ import annotations

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


def declared_block_triggers(triggers: tuple[Trigger, ...], creatures: tuple[Creature, ...]
                            ) -> list[Fired]:
    """The block triggers of the declaration of blockers (creatures put onto the battlefield
    blocking come later and never « blocked »)."""
    if not triggers:
        return []
    declared = [c for c in creatures if c.blocking and c.in_combat and not c.entered_blocking]
    out: list[Fired] = []
    for t in triggers:
        name = t.creature or ""
        me = next((c for c in creatures if c.name == name), None)
        if me is None or t.on is None:
            continue
        blocks = me.blocking if me in declared else ()
        blockers = [c.name for c in declared if c.blocks(name)]
        times, why = 0, ""
        if t.on == "blocks" and blocks:
            times, why = 1, f"{name} bloque (une fois, même si elle bloque plusieurs créatures)"
        elif t.on == "blocks_creature" and blocks:
            times, why = len(blocks), f"{name} bloque {', '.join(blocks)} (une fois par créature)"
        elif t.on == "becomes_blocked" and blockers:
            times, why = 1, (f"{name} devient bloquée (une fois, même par plusieurs "
                             "bloqueurs)")
        elif t.on == "blocked_by_creature" and blockers:
            times, why = len(blockers), (f"{name} devient bloquée par {', '.join(blockers)} (une "
                                         "fois par bloqueur)")
        elif t.on == "blocked_by_count" and blockers and _matches(len(blockers), t):
            times, why = 1, f"{name} est bloquée par {len(blockers)} créatures"
        elif t.on == "blocks_count" and blocks and _matches(len(blocks), t):
            times, why = 1, f"{name} bloque {len(blocks)} créatures"
        elif (t.on == "attacks_unblocked" and me.attacking and me.in_combat
              and not me.blocked):
            times, why = 1, f"aucune créature n'a été déclarée bloqueuse de {name}"
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


def keyword_triggers(model: GameModel, creatures: tuple[Creature, ...], *, attackers: bool
                     ) -> list[Fired]:
    """The triggered keyword abilities a declaration of attackers (exalted) or of blockers
    (bushido, rampage, flanking) triggers, each instance apart (2004 502.3b, 502.12c; 2010
    702.20c, 702.22b, 702.42b): the model says when each triggers and what it does."""
    from judge.game.aliases import ABILITY_NAMES
    from judge.game.objects import Trigger

    out: list[Fired] = []
    if not any(c.abilities for c in creatures):
        return out
    declared = [c for c in creatures if c.attacking and c.in_combat and not c.entered_attacking]
    blocking = [c for c in creatures if c.blocking and c.in_combat and not c.entered_blocking]
    for creature in creatures:
        for ability in creature.abilities:
            keyword = model.keyword(ability)
            if keyword is None or keyword.trigger is None or not creature.in_play:
                continue
            on, does = keyword.trigger
            name = (ABILITY_NAMES.get(ability) or (ability,))[0]
            amounts = [int(n) for n in creature.params(ability)] or [1]
            found: list[tuple[str, str, int]] = []  # (why, target, n) per instance
            if attackers and on == "ally_attacks_alone":
                if len(declared) == 1 and declared[0].controller == creature.controller:
                    lone = declared[0].name
                    found = [(f"{lone} attaque seule", lone, 1)]
            elif not attackers and on == "blocks_or_blocked" and creature.in_combat:
                blocked_by = [b.name for b in blocking if b.blocks(creature.name)]
                if creature in blocking or blocked_by:
                    why = (f"{creature.name} bloque" if creature in blocking
                           else f"{creature.name} devient bloquée")
                    found = [(why, creature.name, n) for n in amounts]
            elif not attackers and on == "becomes_blocked" and creature.in_combat:
                if any(b.blocks(creature.name) for b in blocking):
                    found = [(f"{creature.name} devient bloquée", creature.name, n) for n in amounts]
            elif not attackers and on == "blocked_by_creature_without" and creature.in_combat:
                found = [(f"{creature.name} devient bloquée par {b.name}, qui n'a pas "
                          f"{name}", b.name, 1)
                         for b in blocking if b.blocks(creature.name) and not b.has(ability)]
            for why, target, n in found:
                trigger = Trigger(name=name, controller=creature.controller, creature=creature.name)
                out.append(Fired(trigger=trigger, times=1, why=why, keyword=ability,
                                 effect=(does, target, n, ability)))
    return out
