"""Combat events of a replay: the declarations of attackers and blockers, a permanent put onto
the battlefield attacking or blocking, an effect that makes a creature block, and the abilities
that these trigger (`judge.procedure.blocks` counts them).

Mutates the replay's table of creatures; returns what the trail says, the concepts deciding
it and the triggered abilities to put on the stack. A creature put onto the battlefield
attacking or blocking is never « declared »: no cost, no « quand elle attaque / bloque »
trigger (2010 508.4, 509.7); one that cannot be attacking or blocking enters anyway, outside
combat (506.3a–c). The priority loop is `judge.procedure.replay`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from judge.game.events import BlockByEffect, EntersAttacking, EntersBlocking
from judge.game.situationmodel import Creature
from judge.game.turnplan import Step
from judge.legality.combat import (
    attack_reasons,
    attack_rules,
    block_reasons,
    block_rules,
    too_many_blocks,
)
from judge.legality.defenders import attacked_player
from judge.legality.words import listing, plural
from judge.procedure.blocks import (
    Fired,
    declared_attack_triggers,
    declared_block_triggers,
    later_block_triggers,
    not_fired,
)

if TYPE_CHECKING:
    from judge.game.objects import Trigger
    from judge.legality.board import Board

CombatEvent = EntersAttacking | EntersBlocking | BlockByEffect

_ATTACK_STEPS = (Step.DECLARE_ATTACKERS, Step.DECLARE_BLOCKERS, Step.COMBAT_DAMAGE, Step.END_OF_COMBAT)
_BLOCK_STEPS = _ATTACK_STEPS[1:]


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """What a combat event did: the trail's sentence, its concepts, the triggers it fired."""

    what: str
    concepts: tuple[str, ...]
    fired: tuple[Fired, ...] = ()
    attacking: bool = False  # a creature became attacking (the blockers step is not skipped)


@dataclass(frozen=True, slots=True, kw_only=True)
class Refused:
    """An illegal declaration: why, and the concept of the rule it breaks."""

    reason: str
    concept: str


def declare_attackers(board: Board, creatures: dict[str, Creature], attackers: tuple[str, ...],
                      *, pool: int) -> Outcome | Refused:
    """The active player declares attackers: they become attacking and tap (not with
    vigilance). `board` is `creatures` as the combat rules read them; `pool`, the active
    player's mana pool now."""
    for name in attackers:
        if attackers.count(name) > 1:
            return Refused(reason=f"{name} est déclarée deux fois", concept="attack.legal")
        reasons, concepts = attack_reasons(board, creatures[name])
        if reasons:
            return Refused(reason=f"{name} ne peut pas attaquer : " + " ; ".join(reasons),
                           concept=concepts[0])
    problems, concepts = attack_rules(board, attackers)
    if problems:
        return Refused(reason=" ; ".join(problems), concept=concepts[0])
    cost = sum(creatures[name].attack_cost for name in attackers)
    can = board.seating.available(board.active, pool)
    if cost > can:
        return Refused(reason=f"le coût d'attaque total est de {plural(cost, 'mana')} et "
                       f"{board.active} ne peut en payer que {can} (réserve et capacités de mana) ; "
                       "le paiement partiel n'est pas permis", concept="attack.pay")
    tapped = []
    for name in attackers:
        creature = creatures[name]
        creatures[name] = replace(creature, attacking=True,
                                  tapped=creature.tapped or not creature.has("vigilance"))
        if not creature.has("vigilance"):
            tapped.append(name)
    if not attackers:
        return Outcome(what=f"{board.active} ne déclare aucun attaquant : les étapes de déclaration "
                       "des bloqueurs et des blessures de combat seront sautées.",
                       concepts=("action.declare_attackers", "combat.no_attackers"))
    several = len(attackers) > 1
    text = (f"{board.active} déclare comme {'attaquants' if several else 'attaquant'} : "
            f"{listing(attackers)}")
    concepts = ["action.declare_attackers", "attack.taps"]
    if tapped:
        verb = "s'engagent" if len(tapped) > 1 else "s'engage"
        text += f" ; {', '.join(tapped)} {verb}"
    vigilant = [n for n in attackers if n not in tapped]
    if vigilant:
        verb = "s'engagent" if len(vigilant) > 1 else "s'engage"
        text += f" ; {', '.join(vigilant)} ne {verb} pas (vigilance)"
        concepts.append("attack.vigilance")
    return Outcome(what=text + ".", concepts=tuple(concepts))


def declare_blockers(board: Board, creatures: dict[str, Creature],
                     blocks: tuple[tuple[str, str], ...]) -> Outcome | Refused:
    """The defending player declares blockers: each blocks its attacker, which becomes blocked
    (`board`: `creatures` as the combat rules read them)."""
    several = too_many_blocks(board, blocks)
    if several:
        return Refused(reason=" ; ".join(several), concept="block.legal")
    for blocker, attacker in blocks:
        reasons, concepts = block_reasons(board, creatures[blocker], creatures[attacker])
        if reasons:
            return Refused(reason=f"{blocker} ne peut pas bloquer {attacker} : "
                           + " ; ".join(reasons), concept=concepts[0])
    problems, concepts = block_rules(board, blocks)
    if problems:
        return Refused(reason=" ; ".join(problems), concept=concepts[0])
    bands: dict[str, list[str]] = {}
    for creature in creatures.values():
        if creature.band is not None and creature.attacking:
            bands.setdefault(creature.band, []).append(creature.name)
    for blocker, attacker in blocks:
        # a blocker of one member of a band blocks the whole band (2004 502.10e, 2010 702.19h)
        band = creatures[attacker].band
        mates = tuple(dict.fromkeys((attacker, *(bands.get(band, []) if band else ()))))
        mine = tuple(dict.fromkeys((*creatures[blocker].blocking, *mates)))
        creatures[blocker] = replace(creatures[blocker], blocking=mine)
        for name in mates:
            if not creatures[name].blocked:  # already blocked by another blocker: unchanged
                creatures[name] = replace(creatures[name], blocked=True)
    pairs = ", ".join(f"{b} bloque {a}" for b, a in blocks) or "aucun bloqueur"
    return Outcome(what=f"Déclaration des bloqueurs : {pairs}.",
                   concepts=("action.declare_blockers",
                             *(("block.becomes_blocking",) if blocks else ())))


def timing_problem(event: CombatEvent, step: str | None) -> str | None:
    """Why the event cannot happen in this step (None: it can)."""
    if isinstance(event, EntersAttacking):
        if step not in _ATTACK_STEPS:
            return ("une créature ne peut être mise sur le champ de bataille attaquante qu'après "
                    "la déclaration des attaquants, pendant la phase de combat")
        return None
    if step not in _BLOCK_STEPS:
        return ("une créature ne peut bloquer qu'après la déclaration des bloqueurs, pendant la "
                "phase de combat")
    return None


def _placed(order: tuple[str, ...], current: list[str], name: str, position: int | None
            ) -> tuple[str, ...]:
    """`name` put into a damage assignment order at `position` (1 = first; None: last)."""
    base = [n for n in (order or tuple(current)) if n in current and n != name]
    at = len(base) if position is None else min(position - 1, len(base))
    base.insert(at, name)
    return tuple(base)


def _blockers_of(creatures: dict[str, Creature], attacker: str) -> list[str]:
    return [c.name for c in creatures.values() if c.blocks(attacker) and c.in_combat]


def apply(event: CombatEvent, creatures: dict[str, Creature], board: Board, *,
          triggers: tuple[Trigger, ...]) -> Outcome:
    """Apply a combat event (its timing already checked) and say what it did (`board`:
    `creatures` as the combat rules read them). A permanent put onto the battlefield has not
    been controlled continuously since the turn began."""
    if isinstance(event, EntersAttacking):
        return _enters_attacking(replace(event.creature, since_turn_start=False), creatures,
                                 board.active)
    if isinstance(event, EntersBlocking):
        event = replace(event, creature=replace(event.creature, since_turn_start=False))
        return _enters_blocking(event, creatures, board, triggers)
    return _block_by_effect(event, creatures, triggers)


def _enters_attacking(creature: Creature, creatures: dict[str, Creature], active: str) -> Outcome:
    name = creature.name
    if not creature.is_creature or "creature" not in creature.card_types:
        creatures[name] = replace(creature, attacking=False, is_creature=False,
                                  entered="enters.noncreature")
        return Outcome(what=f"{name} arrive sur le champ de bataille, mais ce n'est pas une "
                       "créature : elle n'est jamais un permanent attaquant.",
                       concepts=("enters.noncreature",))
    if creature.controller != active:
        creatures[name] = replace(creature, attacking=False, entered="enters.attacking_other")
        return Outcome(what=f"{name} arrive sur le champ de bataille sous le contrôle de "
                       f"{creature.controller}, qui n'est pas le joueur attaquant : elle n'est "
                       "jamais une créature attaquante.", concepts=("enters.attacking_other",))
    creatures[name] = replace(creature, attacking=True, entered_attacking=True,
                              entered="enters.attacking")
    target = f" ; elle attaque {creature.attacks}" if creature.attacks else ""
    return Outcome(what=f"{name} arrive sur le champ de bataille attaquante{target} : elle est "
                   "attaquante, mais n'a jamais « attaqué » (aucun coût d'attaque, aucune "
                   "capacité « quand elle attaque »).", concepts=("enters.attacking",),
                   attacking=True)


def _enters_blocking(event: EntersBlocking, creatures: dict[str, Creature], board: Board,
                     triggers: tuple[Trigger, ...]) -> Outcome:
    creature = event.creature
    name = creature.name
    attacker = creatures[creature.blocking[0]]
    if not creature.is_creature or "creature" not in creature.card_types:
        creatures[name] = replace(creature, blocking=(), is_creature=False,
                                  entered="enters.noncreature")
        return Outcome(what=f"{name} arrive sur le champ de bataille, mais ce n'est pas une "
                       "créature : elle n'est jamais un permanent bloqueur.",
                       concepts=("enters.noncreature",))
    if not (attacker.attacking and attacker.in_combat):
        creatures[name] = replace(creature, blocking=(), entered="enters.blocking_other")
        return Outcome(what=f"{name} arrive sur le champ de bataille, mais {attacker.name} "
                       "n'attaque pas : elle n'est jamais une créature bloqueuse.",
                       concepts=("enters.blocking_other",))
    victim = attacked_player(board, attacker)
    if victim != creature.controller:
        creatures[name] = replace(creature, blocking=(), entered="enters.blocking_other")
        return Outcome(what=f"{name} arrive sur le champ de bataille, mais {attacker.name} "
                       f"n'attaque ni {creature.controller} ni un planeswalker qu'il contrôle : "
                       "elle n'est jamais une créature bloqueuse.",
                       concepts=("enters.blocking_other",))
    current = _blockers_of(creatures, attacker.name)
    fired = later_block_triggers(triggers, replace(creature, blocking=()), attacker, entered=True,
                                 blockers_after=len(current) + 1)
    order = _placed(attacker.damage_order, current, name, event.position)
    creatures[name] = replace(creature, entered_blocking=True, entered="enters.blocking")
    creatures[attacker.name] = replace(attacker, blocked=True, damage_order=order)
    silent = not_fired(triggers, creature)
    what = (f"{name} arrive sur le champ de bataille bloquant {attacker.name}, qui est bloquée ; "
            f"ordre d'assignation de {attacker.name} : {', '.join(order)}. Elle « bloque » mais "
            "n'a jamais « bloqué »")
    what += (f" ({', '.join(t.name for t in silent)} ne se déclenche pas)." if silent else ".")
    what += _fired_text(fired)
    return Outcome(what=what, concepts=("enters.blocking", *(f.concept for f in fired)),
                   fired=tuple(fired))


def _block_by_effect(event: BlockByEffect, creatures: dict[str, Creature],
                     triggers: tuple[Trigger, ...]) -> Outcome:
    blocker, attacker = creatures[event.creature], creatures[event.attacker]
    current = _blockers_of(creatures, attacker.name)
    fired = later_block_triggers(triggers, blocker, attacker, entered=False,
                                 blockers_after=len(current) + (0 if blocker.name in current else 1))
    order = _placed(attacker.damage_order, current, blocker.name, event.position)
    mine = tuple(dict.fromkeys((*blocker.blocking, attacker.name)))
    creatures[blocker.name] = replace(blocker, blocking=mine,
                                      damage_order=_placed(blocker.damage_order, list(mine[:-1]),
                                                           attacker.name, None))
    creatures[attacker.name] = replace(attacker, blocked=True, damage_order=order)
    what = (f"Un effet fait bloquer {attacker.name} par {blocker.name} : ordre d'assignation de "
            f"{attacker.name} : {', '.join(order)} (les autres gardent leur ordre) ; "
            f"{attacker.name} se place en dernier dans celui de {blocker.name}.")
    return Outcome(what=what + _fired_text(fired),
                   concepts=("block.by_effect", "block.becomes_blocking",
                             *(f.concept for f in fired)), fired=tuple(fired))


def _fired_text(fired: list[Fired]) -> str:
    return "".join(f" {f.trigger.name} se déclenche ({f.why})." for f in fired)


def declaration_triggers(attackers: bool, triggers: tuple[Trigger, ...],
                         creatures: tuple[Creature, ...]) -> list[Fired]:
    """The abilities a declaration of attackers (or of blockers) triggers."""
    if attackers:
        return declared_attack_triggers(triggers, creatures)
    return declared_block_triggers(triggers, creatures)
