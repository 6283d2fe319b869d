"""The state of a turn being replayed, by concern: where the turn is (`Position`), who holds
priority and why the game is where it is (`Holding`), the combat (`Combat`), the stack and the
triggers waiting for it (`Stack`), mana pools (`Mana`), hands and libraries (`Cards`), the
players (`Seats`) and what is on the battlefield (`Field`); `Turn` holds one of each with what
the replay was given, writes the trail (`note`), lays out the turn plan as it stands, takes its
snapshot as a `Situation`, its legality `Context` and its `Board` (what the combat rules read,
without a snapshot), and performs the state-based actions of `statebased` on it.

The records are mutable: the procedure's modules (`turnactions`, `flow`, `priority`,
`replay`) are functions over a `Turn` that change them as the turn goes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from judge.game.gamemodel import GameModel
from judge.game.objects import Effect, Permanent, StackItem, Trigger
from judge.game.situationmodel import Creature, Situation, priority_receiver
from judge.game.states import first_turn_skip
from judge.game.turnplan import Moment, Phase, PlannedStep, Step, plan_turn
from judge.legality.board import Battlefield
from judge.legality.context import Context, build_context
from judge.legality.damage import DamageRecord, Hit
from judge.procedure.statebased import Players, perform, shared_totals
from judge.procedure.trail import TrailEntry

if TYPE_CHECKING:
    from judge.legality.context import RuleSource


# Where every replay begins (a frozen value: one for all replays).
_TURN_START = Moment(phase=Phase.BEGINNING, step=Step.UNTAP)

Reasons = tuple[str, ...]  # concepts: why the game is where it is


@dataclass(slots=True, kw_only=True)
class Position:
    """Where the turn is in its plan."""

    moment: Moment = _TURN_START
    occurrence: int = 0  # which occurrence of the moment's place (extra phases and steps)
    added_cleanups: int = 0  # cleanup steps added (2004 314.3, 2010 514.3a)
    two_damage_steps: bool = False  # a creature in combat strikes first (2010 510.4)
    no_attackers: bool | None = None  # None: not known yet in this combat phase
    ended: bool = False


@dataclass(slots=True, kw_only=True)
class Holding:
    """Priority: who holds it, how many passed in succession, and why the game is here."""

    holder: str | None = None
    passes: int = 0
    reasons: Reasons = ()  # why the game is at this step, with this holder
    settled: Reasons = ()  # why the game is at this step, without who acted since
    at_entry: Reasons = ()  # why the game is at this step, as the step began
    after_declaration: str | None = None  # priority's concept, noted once the declaration is made


@dataclass(slots=True, kw_only=True)
class Combat:
    """The declarations awaited and combat damage: assigned (on the stack), then dealt."""

    attackers_due: bool = False  # the declare attackers step waits for the declaration
    blockers_due: bool = False
    assigned: tuple[Hit, ...] = ()  # combat damage on the stack, as assigned
    assigned_powers: dict[str, int | None] = field(default_factory=dict)  # when assigned
    assignment: Reasons = ()  # how the last combat damage was assigned (concepts)
    dealt_without_stack: bool = False  # in the step being entered
    damage: DamageRecord | None = None  # the last combat damage dealt


@dataclass(slots=True, kw_only=True)
class Stack:
    """The stack, and triggered abilities waiting to be put on it."""

    items: list[StackItem]
    waiting: list[Trigger]


@dataclass(slots=True, kw_only=True)
class Mana:
    pools: dict[str, int]
    burned: set[str] = field(default_factory=set)  # players who lost life to mana burn


@dataclass(slots=True, kw_only=True)
class Cards:
    """Hands, libraries and the lands played this turn."""

    hands: dict[str, int]
    library: dict[str, int]
    drew_from_empty: list[str]  # since the state-based actions were last checked
    lands_played: int
    discarded: int | None = None  # cards the cleanup's discard removed


@dataclass(slots=True, kw_only=True)
class Seats:
    """The players: those still in the game in turn order, life, poison, who lost or left."""

    in_game: tuple[str, ...]
    life: dict[str, int]
    poison: dict[str, int]
    left: list[str]
    lost: set[str] = field(default_factory=set)


@dataclass(slots=True, kw_only=True)
class Field:
    """Creatures, other permanents and effects; `changed`: what the state-based actions look
    at may have changed since they were last checked."""

    creatures: dict[str, Creature]
    permanents: dict[str, Permanent]
    effects: list[Effect]
    pumps: list[tuple[str, int]] = field(default_factory=list)  # +n/+n until end of turn
    changed: bool = True


class Turn:
    """A turn being replayed: what it was given (graph, edition, model, the situation it
    starts from) and its state, one record per concern."""

    def __init__(self, graph: RuleSource, edition: str, model: GameModel,
                 situation: Situation) -> None:
        self.graph = graph
        self.edition = edition
        self.model = model
        self.start = situation
        self.active = situation.active
        self.skip = frozenset(situation.skip)
        self.first_turn = first_turn_skip(model, situation)
        self.position = Position()
        self.priority = Holding()
        self.combat = Combat()
        self.stack = Stack(items=[], waiting=list(situation.pending_triggers))
        self.mana = Mana(pools=dict(situation.mana_pools))
        self.cards = Cards(hands=dict(situation.hands), library=dict(situation.library),
                           drew_from_empty=list(situation.drew_from_empty),
                           lands_played=0)
        self.seats = Seats(in_game=tuple(p for p in situation.players
                                         if p not in situation.left_game),
                           life=shared_totals(situation), poison=dict(situation.poison),
                           left=list(situation.left_game))
        self.field = Field(creatures={c.name: c for c in situation.creatures},
                           permanents={p.name: p for p in situation.permanents},
                           effects=list(situation.effects))
        self.trail: list[TrailEntry] = []
        self.noncombat: list[Hit] = []  # noncombat damage dealt, in order

    @property
    def shared_life(self) -> bool:
        """Two-Headed Giant: each team has a shared life total (2010 810.9)."""
        return self.start.variant == "two_headed_giant" and bool(self.start.teams)

    def teammates(self, player: str) -> tuple[str, ...]:
        """The other players of `player`'s team (none without teams)."""
        team = next((t for t in self.start.teams if player in t), ())
        return tuple(p for p in team if p != player)

    def knows_life(self, player: str) -> bool:
        return player in self.seats.life

    def change_life(self, player: str, amount: int) -> int:
        """A player loses (amount < 0) or gains life; in Two-Headed Giant the result is applied
        to the team's shared life total (810.9). The new total."""
        life = self.seats.life
        total = life[player] + amount
        for name in (player, *(self.teammates(player) if self.shared_life else ())):
            life[name] = total
        return total

    @property
    def moment(self) -> Moment:
        return self.position.moment

    def note(self, what: str, *concepts: str, event: int | None = None) -> None:
        moment = self.position.moment
        self.trail.append(TrailEntry(event=event, what=what, phase=moment.phase, step=moment.step,
                                     priority=self.priority.holder, concepts=concepts))

    def plan(self) -> tuple[PlannedStep, ...]:
        """The turn plan as it stands: only whether anyone attacked, whether there are two
        combat damage steps and how many cleanup steps were added change during a replay
        (`plan_turn` caches each)."""
        position = self.position
        return plan_turn(
            self.model.layout, skip=self.skip,
            no_attackers=bool(position.no_attackers),
            two_damage_steps=position.two_damage_steps, cleanup_repeats=position.added_cleanups,
            extra_phases=self.start.extra_phases, extra_steps=self.start.extra_steps,
            first_turn_skip=self.first_turn)

    def no_attackers(self) -> bool | None:
        """Whether nobody attacks: not known (None) until the declaration, unless it is awaited."""
        if self.position.no_attackers is None and self.combat.attackers_due:
            return False
        return self.position.no_attackers

    def snapshot(self) -> Situation:
        moment, field_, seats, cards = self.position.moment, self.field, self.seats, self.cards
        return replace(
            self.start,
            phase=moment.phase,
            step=moment.step,
            damage_step=moment.damage_step,
            priority=self.priority.holder,
            stack=tuple(self.stack.items),
            lands_played=cards.lands_played,
            creatures=tuple(field_.creatures.values()),
            permanents=tuple(field_.permanents.values()),
            effects=tuple(field_.effects),
            pending_triggers=tuple(self.stack.waiting),
            hands=tuple(cards.hands.items()),
            mana_pools=tuple(self.mana.pools.items()),
            life=tuple(seats.life.items()),
            poison=tuple(seats.poison.items()),
            library=tuple(cards.library.items()),
            drew_from_empty=tuple(cards.drew_from_empty),
            left_game=tuple(seats.left),
            events=None,
        )

    def board(self) -> Battlefield:
        """The creatures and permanents as they are now, as the combat rules read them (no
        event changes the seating: the start's)."""
        return Battlefield(model=self.model, seating=self.start,
                           creatures=tuple(self.field.creatures.values()),
                           permanents=tuple(self.field.permanents.values()))

    def context(self) -> Context:
        return build_context(self.graph, self.edition, self.model, self.snapshot(),
                             ended=self.position.ended, no_attackers=self.no_attackers(),
                             nth=self.position.occurrence, repeat=self.position.moment.repeat)

    def rule(self, *concepts: str) -> str | None:
        cited = self.context().cite(*self.model.rules(concepts[0])) if concepts else ()
        return cited[0] if cited else None

    def receiver(self) -> str:
        """Who receives priority where the active player would: the active player, or, once
        he has left the game, the next player in turn order still in it (2010 800.4g)."""
        gone = tuple(p for p in self.start.players if p not in self.seats.in_game)
        return priority_receiver(self.start.players, self.active, gone)

    def seat(self, player: str) -> int:
        """A player's place in turn order from the active player (APNAP order)."""
        players = self.seats.in_game
        if player not in players or self.active not in players:  # gone (800.4): last
            return len(players) + (self.start.players.index(player)
                                   if player in self.start.players else 0)
        return (players.index(player) - players.index(self.active)) % len(players)

    def state_based(self) -> bool:
        """State-based actions, as a player would receive priority; whether any was performed.
        Only damage, life, and what an event does to a permanent change what they look at:
        checked again only after one of those (`Field.changed`)."""
        field_ = self.field
        if not field_.changed:
            return False
        field_.changed = False
        fighting = {n for n, c in field_.creatures.items() if c.in_combat}
        players = Players(poison=tuple(self.seats.poison.items()),
                          drew_from_empty=tuple(self.cards.drew_from_empty),
                          teams=self.start.teams if self.shared_life else ())
        done = perform(self.model, field_.creatures, field_.permanents, self.seats.life,
                       self.seats.lost, players)
        self.cards.drew_from_empty = []  # checked
        for action in done:
            name = str(self.model.fact("state_based_name").value).split(" ", 1)[1]
            removed = ("sba.removed_from_combat",) if fighting.intersection(action.names) else ()
            team = ("team.loses",) if action.what == "zero_life" and self.shared_life else ()
            self.note(f"{name[0].upper()}{name[1:]} : {action.sentence()}.", "sba.check",
                      action.concept, *removed, *team)
        self._losers_leave()
        return bool(done)

    def game_over(self) -> bool:
        """Fewer than two players (or teams) still in the game and not lost."""
        staying = [p for p in self.seats.in_game if p not in self.seats.lost]
        sides = {next((tuple(t) for t in self.start.teams if p in t), (p,)) for p in staying}
        return len(sides) <= 1

    def _losers_leave(self) -> None:
        """In a multiplayer game that goes on, a player who lost leaves it (2010 800.4, 800.4a:
        his objects leave with him, turn order skips him); the active player too, whose turn
        then goes on to its end without an active player (800.4g: where he would receive
        priority, the next player in turn order does)."""
        if not self.model.rules("multiplayer.left") or self.game_over():
            return
        for player in [p for p in self.seats.in_game if p in self.seats.lost]:
            gone = self.leave(player)
            self.note(f"{player} a perdu la partie et la quitte : ses permanents la quittent "
                      "aussi" + (f" ({', '.join(gone)})" if gone else "")
                      + " ; la partie continue sans lui.", "multiplayer.left",
                      "multiplayer.left_objects")
            if player == self.active:
                self.note(f"Son tour continue jusqu'à sa fin sans joueur actif : là où {player} "
                          f"recevrait la priorité, {self.receiver()} la reçoit.",
                          "multiplayer.left_active")

    def leave(self, player: str) -> list[str]:
        """`player` leaves the game (2010 800.4a): his creatures and permanents leave it, turn
        order skips him; priority he held goes to the next player. The creatures gone."""
        seats = self.seats
        following = seats.in_game[(seats.in_game.index(player) + 1) % len(seats.in_game)]
        seats.left.append(player)
        seats.in_game = tuple(p for p in seats.in_game if p != player)
        creatures = self.field.creatures
        gone = [n for n, c in creatures.items() if c.controller == player and c.in_play]
        for name in gone:
            creatures[name] = replace(creatures[name], in_play=False, attacking=False, blocking=())
        permanents = self.field.permanents
        for name in [n for n, p in permanents.items() if p.controller == player]:
            del permanents[name]
        self.stack.items = [i for i in self.stack.items if i.controller != player]
        if self.priority.holder == player:
            self.priority.holder = following
            self.priority.passes = 0
        self.field.changed = True
        return gone


def priority_concept_of(moment: Moment) -> str:
    return f"priority.{moment.step or 'main'}"
