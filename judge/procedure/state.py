"""The state of a turn being replayed: hands, lands played, creatures and permanents, mana pools,
life, the stack, effects and waiting triggers, who holds priority and why the game is where it
is; the trail it writes (`note`), the turn plan as it stands, its snapshot as a `Situation`,
the legality `Context` of that snapshot, its `Board` (what the combat rules read, without a
snapshot), and the state-based actions performed on it.

The procedure's other rooms extend it: `turnactions` < `flow` < `priority` < `replay`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from judge.game.gamemodel import GameModel
from judge.game.objects import Permanent, StackItem
from judge.game.situationmodel import Creature, Situation
from judge.game.states import first_turn_skip
from judge.game.turnplan import Moment, PlannedStep, plan_turn
from judge.legality.board import Battlefield
from judge.legality.context import Context, build_context
from judge.legality.damage import DamageRecord, Hit
from judge.procedure.statebased import Players, perform
from judge.procedure.trail import TrailEntry

if TYPE_CHECKING:
    from judge.legality.context import RuleSource


# Where every replay begins (a frozen value: one for all replays).
_TURN_START = Moment(phase="beginning", step="untap")


class TurnState:
    """The state of a turn being replayed: the tables the procedure changes, the trail it
    writes, the turn plan as it stands, and the state-based actions checked on it."""

    def __init__(self, graph: RuleSource, edition: str, model: GameModel,
                 situation: Situation) -> None:
        self.graph = graph
        self.edition = edition
        self.model = model
        self.start = situation
        self.players = situation.players
        self.active = situation.active
        self.skip = frozenset(situation.skip)
        self.no_attackers: bool | None = None
        self.two = False
        self.moment = _TURN_START
        self.holder: str | None = None
        self.passes = 0
        self.stack: list[StackItem] = []
        self.lands_played = 0
        self.creatures: dict[str, Creature] = {c.name: c for c in situation.creatures}
        self.hands = dict(situation.hands)
        self.pools = dict(situation.mana_pools)
        self.pending_attackers = False
        self.pending_blockers = False
        self.ended = False
        self.trail: list[TrailEntry] = []
        self.arrival: tuple[str, ...] = ()
        self.dealt = False
        self.permanents: dict[str, Permanent] = {p.name: p for p in situation.permanents}
        self.effects = list(situation.effects)
        self.pending = list(situation.pending_triggers)
        self.assigned: tuple[Hit, ...] = ()  # combat damage on the stack, as assigned
        self.powers: dict[str, int | None] = {}  # the sources' power when it was assigned
        self.damage: DamageRecord | None = None
        self.nth = 0  # which occurrence of the current place (extra phases and steps)
        self.cleanups = 0  # cleanup steps added by triggered abilities (514.3a)
        self.why: tuple[str, ...] = ()  # how the last combat damage was assigned (concepts)
        self.discarded: int | None = None
        self.pumps: list[tuple[str, int]] = []  # +n/+n until end of turn (keyword triggers)
        self.poison = dict(situation.poison)
        self.library = dict(situation.library)
        self.drew_empty: list[str] = list(situation.drew_from_empty)
        self.left = list(situation.left_game)
        self.burned: set[str] = set()  # players who lost life to mana burn (2004 300.3)
        self.life = dict(situation.life)
        self.lost: set[str] = set()
        self.dirty = True  # what the state-based actions look at may have changed
        self.base: tuple[str, ...] = ()  # why the game is at this step (`arrival` without who acted)
        self.step_why: tuple[str, ...] = ()  # why the game is at this step, as it began
        self.priority_pending: str | None = None  # priority to note once the declaration is made
        self.first_turn = first_turn_skip(model, situation)
        self.plans: dict[tuple[bool, bool, int], tuple[PlannedStep, ...]] = {}  # `_plan`'s

    def note(self, what: str, *concepts: str, event: int | None = None) -> None:
        moment = self.moment
        self.trail.append(TrailEntry(event=event, what=what, phase=moment.phase, step=moment.step,
                                     priority=self.holder, concepts=concepts))

    def _plan(self) -> tuple[PlannedStep, ...]:
        """The turn plan as it stands: only whether anyone attacked, whether there are two
        combat damage steps and how many cleanup steps were added change during a replay.

        `plan_turn` is cached too; this table, keyed by those three values, is kept in front of
        it because asking `plan_turn`'s cache hashes all its arguments (the layout's nested
        tuples, nine keywords): 1.5 µs a call against 0.3 µs here, and a replay asks at every
        step it advances (about 530 times per pass of bench/bench_checks.py, 0.7 ms of ~40)."""
        key = (bool(self.no_attackers), self.two, self.cleanups)
        plan = self.plans.get(key)
        if plan is None:
            plan = self.plans[key] = plan_turn(
                self.model.layout, skip=self.skip, no_attackers=key[0], two_damage_steps=self.two,
                cleanup_repeats=self.cleanups, extra_phases=self.start.extra_phases,
                extra_steps=self.start.extra_steps, first_turn_skip=self.first_turn)
        return plan

    def snapshot(self) -> Situation:
        return replace(
            self.start,
            phase=self.moment.phase,
            step=self.moment.step,
            damage_step=self.moment.damage_step,
            priority=self.holder,
            stack=tuple(self.stack),
            lands_played=self.lands_played,
            creatures=tuple(self.creatures.values()),
            permanents=tuple(self.permanents.values()),
            effects=tuple(self.effects),
            pending_triggers=tuple(self.pending),
            hands=tuple(self.hands.items()),
            mana_pools=tuple(self.pools.items()),
            life=tuple(self.life.items()),
            poison=tuple(self.poison.items()),
            library=tuple(self.library.items()),
            drew_from_empty=tuple(self.drew_empty),
            left_game=tuple(self.left),
            events=None,
        )

    def board(self) -> Battlefield:
        """The creatures and permanents as they are now, as the combat rules read them (no
        event changes the seating: the start's)."""
        return Battlefield(model=self.model, seating=self.start, creatures=tuple(self.creatures.values()),
                     permanents=tuple(self.permanents.values()))

    def context(self) -> Context:
        no_attackers = self.no_attackers
        if no_attackers is None and self.pending_attackers:
            no_attackers = False
        return build_context(self.graph, self.edition, self.model, self.snapshot(),
                             ended=self.ended, no_attackers=no_attackers, nth=self.nth,
                             repeat=self.moment.repeat)

    def _rule(self, *concepts: str) -> str | None:
        cited = self.context().cite(*self.model.rules(concepts[0])) if concepts else ()
        return cited[0] if cited else None

    def _seat(self, player: str) -> int:
        """A player's place in turn order from the active player (APNAP order)."""
        return (self.players.index(player) - self.players.index(self.active)) % len(self.players)

    def _state_based(self) -> bool:
        """State-based actions, as a player would receive priority; whether any was performed.
        Only damage, life, and what an event does to a permanent change what they look at:
        checked again only after one of those (`self.dirty`)."""
        if not self.dirty:
            return False
        self.dirty = False
        fighting = {n for n, c in self.creatures.items() if c.in_combat}
        players = Players(poison=tuple(self.poison.items()), drew_from_empty=tuple(self.drew_empty))
        done = perform(self.model, self.creatures, self.permanents, self.life, self.lost, players)
        self.drew_empty = []  # checked
        for action in done:
            name = str(self.model.fact("state_based_name").value).split(" ", 1)[1]
            removed = ("sba.removed_from_combat",) if fighting.intersection(action.names) else ()
            self.note(f"{name[0].upper()}{name[1:]} : {action.sentence()}.", "sba.check",
                      action.concept, *removed)
        return bool(done)


def priority_concept_of(moment: Moment) -> str:
    return f"priority.{moment.step or 'main'}"
