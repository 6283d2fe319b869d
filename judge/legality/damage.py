"""Combat damage as the rules assign it: who deals it in which damage step, the default
assignment in damage assignment order (lethal damage first, trample), and the concepts that
explain an assignment. `Hit` and `DamageRecord` are what was assigned and dealt.

Shared by the questions (`judge.checks.damage`) and the replay (`judge.procedure`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from judge.game.situationmodel import Creature
from judge.legality.defenders import attack_target

if TYPE_CHECKING:
    from judge.game.gamemodel import GameModel
    from judge.legality.board import Board


@dataclass(frozen=True, slots=True, kw_only=True)
class Hit:
    """Combat damage from a source to a recipient (a creature's or a player's name)."""

    source: str
    target: str
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DamageRecord:
    """The last combat damage resolution of a replay: what was assigned, what was dealt, what
    was not (its recipient had left play), and the sources that changed in between."""

    assigned: tuple[Hit, ...]
    dealt: tuple[Hit, ...]
    dropped: tuple[Hit, ...] = ()
    on_stack: bool = False
    sources_gone: tuple[str, ...] = ()
    power_changed: tuple[str, ...] = ()
    why: tuple[str, ...] = ()  # the concepts deciding how the damage was assigned
    prevented: tuple[Hit, ...] = ()  # not dealt: prevented (protection)


def current_blockers(board: Board, attacker: Creature) -> list[Creature]:
    """The creatures blocking `attacker` now, in its damage assignment order (then as listed)."""
    blockers = [c for c in board.creatures if c.blocks(attacker.name) and c.in_combat]
    rank = {name: i for i, name in enumerate(attacker.damage_order)}
    return sorted(blockers, key=lambda c: rank.get(c.name, len(rank)))


def blocked_attackers(board: Board, blocker: Creature) -> list[Creature]:
    """The attackers `blocker` blocks now, in its damage assignment order (then as listed)."""
    found = [a for a in (board.find(n) for n in blocker.blocking)
             if a is not None and a.attacking and a.in_combat]
    rank = {name: i for i, name in enumerate(blocker.damage_order)}
    return sorted(found, key=lambda c: rank.get(c.name, len(rank)))


def needed(model: GameModel, source: Creature, target: Creature, others: int = 0) -> int:
    """The damage `source` must assign to `target` for it to be lethal: its toughness minus
    damage marked and damage others assign it at the same time (2010 510.1c, 702.17b; 2004
    502.9b); 1 from a source with deathtouch (2010 702.2b)."""
    base = lethal(target)
    if base > 0 and source.abilities and model.grants(source.abilities, "lethal_any_damage"):
        base = 1
    return max(base - others, 0)


def _in_order(source: Creature, targets: list[Creature], *, trample: bool = False,
              player: str = "", model: GameModel | None = None) -> list[Hit]:
    """Lethal damage to each target in order, the rest to the last one (or to `player`)."""
    out: list[Hit] = []
    left = source.power or 0
    for i, target in enumerate(targets):
        lethal_here = lethal(target) if model is None else needed(model, source, target)
        share = left if i == len(targets) - 1 and not trample else min(left, lethal_here)
        if share:
            out.append(Hit(source=source.name, target=target.name, amount=share))
        left -= share
    if left and trample:
        out.append(Hit(source=source.name, target=player, amount=left))
    return out


def lethal(creature: Creature) -> int:
    """Damage that is lethal to a creature: its toughness minus damage already marked."""
    if creature.toughness is None:
        return 1
    return max(creature.toughness - creature.damage, 0)


def default_hits(board: Board, dealers: Iterable[Creature]) -> tuple[Hit, ...]:
    """A legal division for each dealer: lethal damage to each blocker in order, the rest to
    the last one (or, with trample, to the defending player)."""
    out: list[Hit] = []
    for creature in dealers:
        power = creature.power or 0
        if power <= 0:
            continue
        if creature.attacking:
            player = attack_target(board, creature)
            if creature.damage_to is not None and creature.attacks is None:
                player = creature.damage_to  # a Two-Headed Giant team's choice (810.7f)
            blockers = current_blockers(board, creature)
            if player is None and not blockers:
                continue  # attacking nothing any more (506.4c)
            player = player or ""
            if not creature.blocked or (not blockers and creature.has("trample")):
                out.append(Hit(source=creature.name, target=player, amount=power))
                continue
            out += _in_order(creature, blockers, trample=creature.has("trample"), player=player,
                             model=board.model)
        elif creature.blocking:
            out += _in_order(creature, blocked_attackers(board, creature), model=board.model)
    return tuple(out)


def assignment_concepts(board: Board, dealers: Iterable[Creature], *, ordered: bool,
                        damage_step: str | None) -> tuple[str, ...]:
    """The concepts deciding how the dealers assign their combat damage (`ordered`: the model's
    damage assignment order), and why others deal none (put into the graveyard by a
    state-based action)."""
    out: list[str] = ["damage.assign", "damage.power"]
    for creature in dealers:
        if creature.tapped:
            out.append("damage.tapped")
        if damage_step is not None:
            out.append("damage.two_steps")
            out += [f"ability.{a}" for a in ("first_strike", "double_strike") if creature.has(a)]
        if creature.blocking:
            out.append("damage.blocker")
            continue
        blockers = current_blockers(board, creature)
        if not creature.blocked:
            out.append("damage.unblocked")
            if creature.attacks and attack_target(board, creature) is None:
                out.append("combat.walker_removed")
            continue
        out.append("damage.blocked")
        if not blockers:
            out.append("damage.blocker_gone")
            if creature.has("trample"):
                out.append("damage.trample")
            continue
        if creature.has("trample"):
            out.append("damage.trample_lethal")
        if ordered and len(blockers) > 1 and not any(b.has("banding") for b in blockers):
            out.append("damage.order")
    for creature in board.creatures:
        if creature.destroyed is not None:
            out += [creature.destroyed, "sba.removed_from_combat"]
    return tuple(dict.fromkeys(out))


