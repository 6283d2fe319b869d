"""The replay events of a described game situation (its `events` key) as frozen dataclasses.

A module of their own, imported only when a situation has events (with their reader,
`judge.game.eventreaders`, and the replay): building these classes is a good part of a cold
`judge check`, which a situation without events does not pay.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.game.objects import Permanent
from judge.game.situationmodel import Creature


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    """The player holding priority passes."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Cast:
    """`by` casts a spell of `kind` ("instant", "sorcery", a permanent type…)."""

    kind: str
    by: str
    flash: bool = False  # a creature spell with flash (cast as an instant could be)
    cost: int = 0  # mana paid from the caster's pool


@dataclass(frozen=True, slots=True, kw_only=True)
class Activate:
    """`by` activates an ability (not a mana ability: see `AddMana`)."""

    ability: str
    by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AddMana:
    """A player holding priority adds mana to his or her pool (a mana ability)."""

    amount: int
    by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayLand:
    """`player` plays a land."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareAttackers:
    """The active player declares `attackers` (creature names)."""

    attackers: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareBlockers:
    """The defending player declares `blocks`: (blocker, attacker) name pairs."""

    blocks: tuple[tuple[str, str], ...]  # (blocker, attacker)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeavesPlay:
    """A creature or permanent leaves play (destroyed, sacrificed…), whoever holds priority."""

    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Regenerate:
    """A regeneration shield is set up for the creature `name`."""

    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SetPower:
    """An effect sets the power of `creature` to `power`."""

    creature: str
    power: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GainControl:
    """Player `by` gains control of `creature` (`until`: a duration, None: indefinitely)."""

    creature: str
    by: str
    until: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Tap:
    """The permanent `name` becomes tapped."""

    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Untap:
    """The permanent `name` becomes untapped."""

    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class EntersAttacking:
    """An effect puts a permanent onto the battlefield attacking (2010 506.3a–b, 508.4)."""

    creature: Creature


@dataclass(frozen=True, slots=True, kw_only=True)
class EntersBlocking:
    """An effect puts a permanent onto the battlefield blocking `creature.blocking` (506.3a,
    506.3c, 509.7); `position`: its place (1 = first) in the attacker's damage assignment
    order, last when None."""

    creature: Creature
    position: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BlockByEffect:
    """An effect makes a creature on the battlefield block an attacker (509.6)."""

    creature: str
    attacker: str
    position: int | None = None




@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerChange:
    """Something happens to a player while a player holds priority (an effect): `draw` cards
    (from the library: an empty one makes the player lose, 2004 420.5g, 2010 704.5b), get
    `poison` counters, or `leaves_game` (a multiplayer game continues, 2010 800.4)."""

    kind: str  # draw, poison, leaves_game
    player: str
    count: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Shield:
    """A regeneration shield on a creature (2004 419.6b, 2010 701.11a), or (`destroy`) an effect
    destroys it: a shield regenerates it instead."""

    name: str
    destroy: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class DealDamage:
    """A spell or ability deals noncombat damage (2010 119.3, 306.7–306.8): `amount` from
    `source` (a creature or permanent by its name, or the name of a spell) controlled by
    `controller` to `to` (a player, a creature or a planeswalker); `redirect_to`: the
    planeswalker the damage to a player is redirected to (2010 306.7)."""

    source: str
    to: str
    amount: int
    controller: str | None = None
    redirect_to: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EntersBattlefield:
    """A noncreature permanent comes onto the battlefield (a spell resolves, an effect puts it
    there): the legend, world and planeswalker uniqueness rules look at it (2010 704.5j)."""

    permanent: Permanent


Event = (Pass | Cast | Activate | AddMana | PlayLand | DeclareAttackers | DeclareBlockers
         | LeavesPlay | Regenerate | SetPower | GainControl | Tap | Untap | EntersAttacking
         | EntersBlocking | BlockByEffect | PlayerChange | Shield | DealDamage
         | EntersBattlefield)
