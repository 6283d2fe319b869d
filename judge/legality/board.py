"""The battlefield as the combat rules read it: a `Board` — the edition's game model, the
situation's seating (players, teams, variant and options, restrictions: what no event of a turn
changes) and the creatures and other permanents as they are now.

A question's `Context` is the board of its situation; the replay gives a `Battlefield`, the
board of its state mid-turn (`judge.procedure.state`), without a snapshot of the whole
situation: the combat and combat damage rules (`judge.legality.combat`, `.damage`,
`.defenders`) are asked the same way by both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from judge.errors import SituationError
from judge.game.situationmodel import find_creature

if TYPE_CHECKING:
    from judge.game.gamemodel import GameModel
    from judge.game.objects import Permanent
    from judge.game.situationmodel import Creature, Situation


class Board(Protocol):
    """What the combat and combat damage rules read. `seating` is read only for what no event
    of a turn changes (players, active player, teams, variant and options, defending player,
    restrictions, mana abilities): its creatures and permanents may be older than `creatures`
    and `permanents`."""

    @property
    def model(self) -> GameModel: ...

    @property
    def seating(self) -> Situation: ...

    @property
    def creatures(self) -> tuple[Creature, ...]: ...

    @property
    def permanents(self) -> tuple[Permanent, ...]: ...

    @property
    def active(self) -> str: ...

    def fact(self, name: str) -> object: ...

    def creature(self, name: str | None) -> Creature: ...

    def find(self, name: str) -> Creature | None: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Battlefield:
    """A `Board` of creatures and permanents that moved on from `seating`'s (a replay's)."""

    model: GameModel
    seating: Situation
    creatures: tuple[Creature, ...]
    permanents: tuple[Permanent, ...]

    @property
    def active(self) -> str:
        return self.seating.active

    def fact(self, name: str) -> object:
        return self.model.fact(name).value

    def creature(self, name: str | None) -> Creature:
        return named_creature(find_creature(self.creatures, name), name)

    def find(self, name: str) -> Creature | None:
        return find_creature(self.creatures, name)


def named_creature(creature: Creature | None, name: str | None) -> Creature:
    """The creature found for `name` (SituationError if none was)."""
    if creature is None:
        raise SituationError("creatures", f"aucune créature ne s'appelle « {name} »")
    return creature
