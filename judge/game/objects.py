"""What a situation holds besides its creatures and questions, as frozen dataclasses.

Noncreature permanents, continuous effects, triggered abilities, the objects on the stack,
and the phases and steps an effect adds (the turn plan, `judge.game.turnplan.plan_turn`, places
them). Imported only when a situation has one of them: `judge.game.readers` reads them, the
checks that need them import them. The `Situation` holding them is in `judge.game.situationmodel`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class Permanent:
    """A noncreature permanent (for untap, phasing, the legend and world rules)."""

    name: str
    controller: str
    card_types: tuple[str, ...] = ()
    tapped: bool = False
    phasing: bool = False
    phased_out: bool = False
    doesnt_untap: bool = False
    # The legend and world rules: as a creature's (`judge.game.situationmodel.Creature`).
    supertypes: tuple[str, ...] = ()
    card_name: str | None = None
    timestamp: int | None = None
    # Its subtypes (land types for landwalk, planeswalker types for 704.5j), folded; a
    # planeswalker's loyalty (306.5c; None: not said).
    subtypes: tuple[str, ...] = ()
    loyalty: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Effect:
    """A continuous effect with a duration (`until`: one of `judge.game.situationmodel.DURATIONS`)."""

    name: str
    until: str
    controller: str | None = None  # « until your next turn »: whose (None: the active player)


@dataclass(frozen=True, slots=True, kw_only=True)
class Trigger:
    """A triggered ability « au début de » a step (`at`); `entered_this_step`: its source came
    into play (or its condition became true) after that step began. A pending trigger (waiting
    to be put on the stack) has `at` None. A trigger on a combat event has `on` (one of
    `judge.game.situationmodel.TRIGGER_EVENTS`) and the `creature` it watches; `count` / `at_least`
    for the « by N creatures » kinds."""

    name: str
    controller: str
    at: str | None = None
    entered_this_step: bool = False
    on: str | None = None
    creature: str | None = None
    count: int | None = None
    at_least: bool = False
    # A trigger at `cleanup` triggers in the first cleanup step only (« at the beginning of the
    # next cleanup step », a delayed trigger), unless `once` is False: « at the beginning of
    # each cleanup step », again in each cleanup step that follows (2004 314.3, 2010 514.3a).
    once: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class StackItem:
    """An object on the stack."""

    kind: str
    controller: str
    # A triggered keyword ability's effect as it resolves: (does, target, n, ability) — a
    # replay's only.
    effect: tuple[str, str, int, str] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtraPhase:
    """A phase an effect adds right after `after` (300.7)."""

    after: str
    phase: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtraStep:
    """A step an effect adds right after (or before) the step `anchor` (300.8)."""

    anchor: str
    step: str
    before: bool = False
