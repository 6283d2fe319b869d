"""Combat damage as the replay deals it: which creatures deal damage in this damage step,
damage on the stack resolving (to the recipients still there), and dealing it — damage marked on
creatures, the `DamageRecord` the questions read (`Context.damage`).

The assignment itself (default hits, the concepts explaining it) is `judge.legality.damage`'s.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from judge.game.turnplan import DamageStep
from judge.legality.combat import has_quality
from judge.legality.damage import DamageRecord, Hit

if TYPE_CHECKING:
    from judge.game.gamemodel import GameModel
    from judge.game.situationmodel import Creature


def damage_dealers(creatures: dict[str, Creature], damage_step: str | None) -> list[Creature]:
    """The creatures that assign combat damage in this damage step; marks who dealt
    first-strike damage (in `creatures`)."""
    dealers = []
    for creature in creatures.values():
        if not creature.in_combat:
            continue
        if damage_step == DamageStep.FIRST_STRIKE and not creature.strikes_first:
            continue
        if damage_step == DamageStep.REGULAR and not creature.has("double_strike") and (
            creature.dealt_first_strike_damage
        ):
            continue
        dealers.append(creature)
    if damage_step == DamageStep.FIRST_STRIKE:
        for creature in dealers:
            creatures[creature.name] = replace(creature, dealt_first_strike_damage=True)
    if damage_step == DamageStep.REGULAR:
        for name, creature in creatures.items():
            if creature.dealt_first_strike_damage is None:
                creatures[name] = replace(creature, dealt_first_strike_damage=False)
    return dealers


def split_resolved(assigned: tuple[Hit, ...], creatures: dict[str, Creature]
                   ) -> tuple[tuple[Hit, ...], tuple[Hit, ...]]:
    """Damage on the stack as it resolves: dealt, and dropped (its recipient is gone)."""
    dealt, dropped = [], []
    for hit in assigned:
        target = creatures.get(hit.target)
        if target is not None and not (target.in_play and target.is_creature):
            dropped.append(hit)
        else:
            dealt.append(hit)
    return tuple(dealt), tuple(dropped)


def prevented(model: GameModel, creatures: dict[str, Creature], hits: tuple[Hit, ...]
              ) -> tuple[tuple[Hit, ...], tuple[Hit, ...]]:
    """The hits dealt, and those prevented: to a creature with protection from a quality its
    source has (2004 502.7e, 2010 702.14e)."""
    if not any(model.grants(c.abilities, "protection") for c in creatures.values()):
        return hits, ()
    kept, stopped = [], []
    for hit in hits:
        target, source = creatures.get(hit.target), creatures.get(hit.source)
        if target is not None and source is not None and model.grants(
                target.abilities, "protection") and any(
                has_quality(source, q) for q in target.params("protection")):
            stopped.append(hit)
        else:
            kept.append(hit)
    return tuple(kept), tuple(stopped)


def deal(creatures: dict[str, Creature], assigned: tuple[Hit, ...], dealt: tuple[Hit, ...],
         dropped: tuple[Hit, ...], powers: dict[str, int | None], *, on_stack: bool,
         why: tuple[str, ...] = (), model: GameModel | None = None) -> DamageRecord:
    """Mark the damage dealt on the creatures (in `creatures`); the record of the resolution.
    With the model: damage prevented by protection is not dealt; a source with wither puts
    -1/-1 counters instead (2010 702.77a); one with deathtouch marks its victim (704.5h)."""
    stopped: tuple[Hit, ...] = ()
    if model is not None:
        dealt, stopped = prevented(model, creatures, dealt)
    for hit in dealt:
        target = creatures.get(hit.target)
        if target is None:
            continue
        source = creatures.get(hit.source)
        abilities = source.abilities if source is not None else ()
        if model is not None and abilities and model.grants(abilities, "damage_as_counters"):
            target = replace(target, power=None if target.power is None else target.power - hit.amount,
                             toughness=None if target.toughness is None else target.toughness - hit.amount)
        else:
            target = replace(target, damage=target.damage + hit.amount)
        if model is not None and abilities and hit.amount > 0 and model.grants(
                abilities, "destroys_damaged"):
            target = replace(target, deathtouch_damage=True)
        creatures[hit.target] = target
    gone = tuple(dict.fromkeys(h.source for h in dealt if not creatures[h.source].in_play))
    changed = tuple(dict.fromkeys(h.source for h in dealt if h.source in powers
                                  and creatures[h.source].power != powers[h.source]))
    return DamageRecord(assigned=assigned, dealt=dealt, dropped=dropped, on_stack=on_stack,
                        sources_gone=gone, power_changed=changed, why=why, prevented=stopped)
