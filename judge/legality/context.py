"""The frame legality is judged in: the `Context` of a situation and the `Verdict` it gives.

Owns `build_context()` (a situation placed in the turn plan of its edition's game model,
invalid states refused) and the citation of rules: a rule of legality names concepts
(`land.play`, `priority.upkeep`), the edition's model gives the numbers. The questions'
registry is `judge.checks.context`; the replay (`judge.procedure`) builds a `Context` to ask
whether a land may be played or a spell cast (the combat rules read a `Board`, which a
`Context` is too).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from judge.corpus.numbers import sort_key
from judge.errors import SituationError
from judge.game.situationmodel import Creature, Situation, priority_receiver
from judge.game.states import first_turn_skip
from judge.game.turnplan import (
    MAIN_PHASES,
    PHASE_LABELS,
    DamageStep,
    Moment,
    PlannedStep,
    Step,
    first_index,
    place_index,
    plan_turn,
)
from judge.legality.board import named_creature

if TYPE_CHECKING:
    from typing import Protocol

    from judge.game.gamemodel import GameModel
    from judge.game.objects import Permanent
    from judge.legality.damage import DamageRecord, Hit

    class EditionInfo(Protocol):
        """What the checks read of an edition (an `Edition`, or the catalogue's `EditionFacts`)."""

        @property
        def game(self) -> str | None: ...

        @property
        def removed_by(self) -> str: ...

    class RuleSource(Protocol):
        """What the checks need of the rule graph (a `RuleGraph`, or the `Catalogue` of the rule
        store: `judge check` reads no rule); built once, never changed, hashed by identity."""

        def __hash__(self) -> int: ...

        def edition(self, edition_id: str) -> EditionInfo: ...

        def numbers(self, edition: str) -> frozenset[str]: ...

        @property
        def edition_ids(self) -> tuple[str, ...]: ...

        @property
        def newest_edition(self) -> str: ...

JSON = object


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """What a check returns: the value, the deciding rules and the French reason."""

    value: JSON
    rules: tuple[str, ...]
    why: str
    extra: tuple[tuple[str, JSON], ...] = ()


# -- the context ---------------------------------------------------------------------


@lru_cache(maxsize=16)
def known_numbers(graph: RuleSource, edition: str) -> frozenset[str]:
    """Rule numbers of an edition in the graph, in any of its languages (a graph is built once
    and never changes: cached by the graph object itself)."""
    return graph.numbers(edition)


@lru_cache(maxsize=4096)
def _cited(graph: RuleSource, edition: str, model: GameModel, concepts: tuple[str, ...]
           ) -> tuple[str, ...]:
    """The concepts' numbers that the edition's text has, in rule order. Bounded by the concept
    tuples the code writes (and the trail's), times the editions."""
    numbers = [n for c in concepts for n in model.rules(c)]
    return tuple(sorted(dict.fromkeys(n for n in numbers if _present(graph, edition, n)),
                        key=_rule_order))


def _present(graph: RuleSource, edition: str, number: str) -> bool:
    if ":" in number:
        home, plain = number.split(":", 1)
        return home in graph.edition_ids and plain in known_numbers(graph, home)
    return number in known_numbers(graph, edition)


@dataclass(frozen=True, slots=True, kw_only=True)
class Context:
    """A situation placed in its turn plan, under one edition and its game model.

    `arrival` holds, after a replay, the rules of the transitions that brought the game to
    the current step and priority holder (empty for a described situation).
    """

    graph: RuleSource
    edition: str
    model: GameModel
    situation: Situation
    plan: tuple[PlannedStep, ...]
    index: int
    priority: str | None  # who holds priority now (None: nobody)
    ended: bool = False
    arrival: tuple[str, ...] = ()
    damage: DamageRecord | None = None  # after a replay with combat damage
    replayed: bool = False
    performed: tuple[str, ...] = ()  # state-based actions performed on a described situation
    discarded: int | None = None  # after a replay: cards the cleanup's discard removed
    # State-based actions performed on a described situation: (what, names), in order.
    sba_done: tuple[tuple[str, tuple[str, ...]], ...] = ()
    burned: tuple[str, ...] = ()  # after a replay: players who lost life to mana burn
    noncombat: tuple[Hit, ...] = ()  # after a replay: noncombat damage dealt, in order

    @property
    def moment(self) -> Moment:
        return self.plan[self.index].moment

    @property
    def cleanup_actions(self) -> tuple[str, ...]:
        """The state-based actions performed in this cleanup step (`cleanup_actions`)."""
        return cleanup_actions(self.situation.step, self.performed)

    @property
    def active(self) -> str:
        return self.situation.active

    @property
    def in_main(self) -> bool:
        return self.moment.phase in MAIN_PHASES

    def fact(self, name: str) -> object:
        return self.model.fact(name).value

    def rules(self, *concepts: str) -> tuple[str, ...]:
        """The numbers the model gives the concepts, in order, without duplicates."""
        out: list[str] = []
        for concept in concepts:
            out.extend(n for n in self.model.rules(concept) if n not in out)
        return tuple(out)

    def cite(self, *numbers: str) -> tuple[str, ...]:
        """The given numbers that exist in the graph, without duplicates."""
        return tuple(n for n in dict.fromkeys(numbers) if _present(self.graph, self.edition, n))

    def cited(self, concepts: tuple[str, ...]) -> tuple[str, ...]:
        """The concepts' numbers that the edition's text has, in rule order."""
        return _cited(self.graph, self.edition, self.model, concepts)

    def verdict(self, value: JSON, concepts: tuple[str, ...], why: str, topic: str,
                extra: tuple[tuple[str, JSON], ...] = ()) -> Verdict:
        """A verdict citing the edition's rules; says so when its text is not in the corpus."""
        rules = self.cited(concepts)
        if not rules:
            why += (f" Le texte de l'édition {self.edition} sur {topic} n'est pas dans le "
                    "corpus : aucune règle n'est citée.")
        return Verdict(value=value, rules=rules, why=why, extra=extra)

    def creature(self, name: str | None) -> Creature:
        return named_creature(self.situation.creature(name or ""), name)

    # -- the situation as the combat rules read it (a `Board`)

    @property
    def seating(self) -> Situation:
        return self.situation

    @property
    def creatures(self) -> tuple[Creature, ...]:
        return self.situation.creatures

    @property
    def permanents(self) -> tuple[Permanent, ...]:
        return self.situation.permanents

    def find(self, name: str) -> Creature | None:
        return self.situation.creature(name)

    def at_or_after(self, step: str) -> bool:
        at = first_index(self.plan, step)
        return at is not None and self.index >= at

    def after(self, step: str) -> bool:
        at = first_index(self.plan, step)
        if at is None:
            return False
        last = max(i for i, e in enumerate(self.plan) if e.moment.step == step)
        return self.index > last

    def skip_reason(self, step: str) -> str | None:
        """Why a step is skipped this turn (a concept: `turn.skip`, `combat.no_attackers`)."""
        for entry in self.plan:
            if entry.moment.step == step and entry.skipped:
                return entry.skip_reason
        return None

    def gives_priority(self, moment: Moment) -> bool:
        return self.model.step(moment.phase, moment.step).priority


def _rule_order(number: str) -> tuple[str, tuple[int, int, str]]:
    edition, _, plain = number.rpartition(":")
    return edition, sort_key(plain)


def where_label(moment: Moment) -> str:
    if moment.step is None:
        return f"la {moment.label}"
    return f"l'étape « {moment.label} » de la {PHASE_LABELS[moment.phase]}"


def cleanup_actions(step: str | None, performed: tuple[str, ...]) -> tuple[str, ...]:
    """The state-based actions performed on a described cleanup step: checked after the damage
    is removed (2004 314.2, 2010 514.2), so never lethal damage; any of them gives the active
    player priority, and another cleanup step follows (2004 420.3, 314.3; 2010 704.3, 514.3a)."""
    if step != Step.CLEANUP:
        return ()
    return tuple(c for c in performed if c != "sba.lethal_damage")


def _damage_steps(s: Situation) -> tuple[bool, str | None]:
    """Whether the combat has two combat damage steps (a creature in combat strikes first,
    or one dealt first-strike damage), and which one a combat damage step is."""
    any_dealt = any(c.dealt_first_strike_damage for c in s.creatures)
    two = (s.damage_step == DamageStep.FIRST_STRIKE or any_dealt
           or any(c.strikes_first for c in s.creatures if c.in_combat))
    damage_step = s.damage_step if two else None
    if s.step == Step.COMBAT_DAMAGE and two and damage_step is None:
        damage_step = DamageStep.REGULAR if any_dealt else DamageStep.FIRST_STRIKE
    return two, damage_step


def _holder(s: Situation, *, no_priority: bool, acted: tuple[str, ...]) -> str | None:
    """Who holds priority in a turn not ended: the one said, else the active player where
    players receive it (in a cleanup step, once something waits or was performed)."""
    if s.priority is not None:
        return s.priority
    if not no_priority or s.stack or (s.step == Step.CLEANUP and (s.pending_triggers or acted)):
        return priority_receiver(s.players, s.active, s.left_game)
    return None


def build_context(graph: RuleSource, edition: str, model: GameModel, situation: Situation, *,
                  ended: bool = False, no_attackers: bool | None = None,
                  arrival: tuple[str, ...] = (), damage: DamageRecord | None = None,
                  replayed: bool = False, nth: int = 0, repeat: int = 0,
                  performed: tuple[str, ...] = (), discarded: int | None = None,
                  sba_done: tuple[tuple[str, tuple[str, ...]], ...] = (),
                  burned: tuple[str, ...] = (), noncombat: tuple[Hit, ...] = ()) -> Context:
    """Place a situation in the turn plan of its edition's model (SituationError if invalid).

    `no_attackers` says whether the combat had no attacker; None infers it: in the declare
    attackers step with no attacking creature. A replay says which occurrence of the place it
    is at (`nth`: an extra phase or step repeats a place) and which cleanup step (`repeat`).
    """
    s = situation
    step = s.step
    if not model.has(s.phase, step):
        raise SituationError("step" if step else "phase", f"« {step or s.phase} » n'existe pas "
                             f"dans le modèle de jeu de l'édition {edition}")
    if no_attackers is None:
        no_attackers = step == Step.DECLARE_ATTACKERS and not any(
            c.is_creature and c.attacking for c in s.creatures)
    two, damage_step = _damage_steps(s)
    no_priority = not model.step(s.phase, step).priority
    acted = cleanup_actions(step, performed)
    waiting = s.stack or s.priority is not None or s.pending_triggers or acted
    repeats = repeat + (1 if no_priority and step == Step.CLEANUP and waiting else 0)
    plan = plan_turn(model.layout, skip=frozenset(s.skip), no_attackers=no_attackers,
                     two_damage_steps=two, cleanup_repeats=repeats,
                     extra_phases=s.extra_phases, extra_steps=s.extra_steps,
                     first_turn_skip=first_turn_skip(model, s))
    index = place_index(plan, s.phase, step, damage_step, repeat, nth)
    if index is None:
        raise ValueError(Moment(phase=s.phase, step=step, damage_step=damage_step, repeat=repeat))
    holder = None if ended else _holder(s, no_priority=no_priority, acted=acted)
    return Context(graph=graph, edition=edition, model=model, situation=s, plan=plan,
                   index=index, priority=holder, ended=ended, arrival=arrival, damage=damage,
                   replayed=replayed, performed=performed, discarded=discarded,
                   sba_done=sba_done, burned=burned, noncombat=noncombat)


# -- shared citations ----------------------------------------------------------------


def priority_concept(ctx: Context) -> str:
    """The concept whose rule says who receives priority in the current step."""
    return f"priority.{ctx.moment.step or 'main'}"


def who_holds(name: str | None) -> str:
    """« personne ne l'a » / « B l'a »: who holds priority, as a French clause."""
    return "personne ne l'a" if name is None else f"{name} l'a"
