"""The turn: the engine's vocabulary of phases and steps, and the plan of one turn.

Owns the slugs of phases and steps (`Phase`, `Step`, `DamageStep`: the one place they are
written outside the game models' data), their French labels, and the plan of one turn laid out by an
edition's game model (`judge.game.gamemodel`): skipped steps, two combat damage steps, cleanup
repeats, extra phases and steps, extra turns. Which steps an edition has, in which order and
who receives priority there is the model's data. It knows nothing of situation files or of
questions (see `judge.checks.catalog`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from judge.game.objects import ExtraPhase, ExtraStep

class Phase:
    """The phases of a turn, by their slugs (rules/games/*.toml's `[[phase]]` ids): plain
    strings, as situation files, the game models and reports spell them."""

    BEGINNING: Final = "beginning"
    PRECOMBAT_MAIN: Final = "precombat_main"
    COMBAT: Final = "combat"
    POSTCOMBAT_MAIN: Final = "postcombat_main"
    ENDING: Final = "ending"


class Step:
    """The steps of a turn, by their slugs (rules/games/*.toml's `[[phase.step]]` ids): plain
    strings, as situation files, the game models and reports spell them."""

    UNTAP: Final = "untap"
    UPKEEP: Final = "upkeep"
    DRAW: Final = "draw"
    BEGINNING_OF_COMBAT: Final = "beginning_of_combat"
    DECLARE_ATTACKERS: Final = "declare_attackers"
    DECLARE_BLOCKERS: Final = "declare_blockers"
    COMBAT_DAMAGE: Final = "combat_damage"
    END_OF_COMBAT: Final = "end_of_combat"
    END_OF_TURN: Final = "end_of_turn"
    CLEANUP: Final = "cleanup"


class DamageStep:
    """The two combat damage steps when a creature strikes first (2010 510.4)."""

    FIRST_STRIKE: Final = "first_strike"
    REGULAR: Final = "regular"


DAMAGE_STEPS: tuple[str, ...] = (DamageStep.FIRST_STRIKE, DamageStep.REGULAR)

PHASES: tuple[str, ...] = (Phase.BEGINNING, Phase.PRECOMBAT_MAIN, Phase.COMBAT,
                           Phase.POSTCOMBAT_MAIN, Phase.ENDING)

PHASE_STEPS: dict[str, tuple[str, ...]] = {
    Phase.BEGINNING: (Step.UNTAP, Step.UPKEEP, Step.DRAW),
    Phase.PRECOMBAT_MAIN: (),
    Phase.COMBAT: (
        Step.BEGINNING_OF_COMBAT,
        Step.DECLARE_ATTACKERS,
        Step.DECLARE_BLOCKERS,
        Step.COMBAT_DAMAGE,
        Step.END_OF_COMBAT,
    ),
    Phase.POSTCOMBAT_MAIN: (),
    Phase.ENDING: (Step.END_OF_TURN, Step.CLEANUP),
}

STEP_PHASE: dict[str, str] = {
    step: phase for phase, steps in PHASE_STEPS.items() for step in steps
}

MAIN_PHASES = frozenset({Phase.PRECOMBAT_MAIN, Phase.POSTCOMBAT_MAIN})
Layout = tuple[tuple[str, tuple[str, ...]], ...]  # phases in order, each with its steps

PHASE_LABELS: dict[str, str] = {
    Phase.BEGINNING: "phase de début",
    Phase.PRECOMBAT_MAIN: "première phase principale",
    Phase.COMBAT: "phase de combat",
    Phase.POSTCOMBAT_MAIN: "seconde phase principale",
    Phase.ENDING: "phase de fin",
}

STEP_LABELS: dict[str, str] = {
    Step.UNTAP: "dégagement",
    Step.UPKEEP: "entretien",
    Step.DRAW: "pioche",
    Step.BEGINNING_OF_COMBAT: "début du combat",
    Step.DECLARE_ATTACKERS: "déclaration des attaquants",
    Step.DECLARE_BLOCKERS: "déclaration des bloqueurs",
    Step.COMBAT_DAMAGE: "blessures de combat",
    Step.END_OF_COMBAT: "fin du combat",
    Step.END_OF_TURN: "fin du tour",
    Step.CLEANUP: "nettoyage",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Moment:
    """A place in a turn: a phase and, outside the main phases, a step."""

    phase: str
    step: str | None = None
    damage_step: str | None = None  # "first_strike" / "regular" when there are two
    repeat: int = 0  # 1, 2… for an additional cleanup step (314.3)
    extra: bool = False  # created by an effect (300.7, 300.8)

    @property
    def label(self) -> str:
        if self.step is None:
            text = PHASE_LABELS[self.phase]
            return f"{text} (supplémentaire)" if self.extra else text
        text = STEP_LABELS[self.step]
        if self.damage_step == DamageStep.FIRST_STRIKE:
            text += " (initiative)"
        elif self.damage_step == DamageStep.REGULAR:
            text += " (normales)"
        if self.repeat:
            text += f" (nouvelle étape n° {self.repeat + 1})"
        if self.extra:
            text += " (supplémentaire)"
        return text

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"phase": self.phase, "step": self.step}
        if self.damage_step is not None:
            out["damage_step"] = self.damage_step
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class PlannedStep:
    """One entry of a turn plan; a skipped entry keeps why (`turn.skip`: an effect skips it;
    `combat.no_attackers`: nobody attacks), as the concept its edition's model cites."""

    moment: Moment
    skipped: bool = False
    skip_reason: str | None = None


def _phase_moments(layout: Layout, phase: str, *, extra: bool = False) -> list[Moment]:
    steps = dict(layout)[phase]
    if not steps:
        return [Moment(phase=phase, extra=extra)]
    return [Moment(phase=phase, step=step, extra=extra) for step in steps]


@cache
def plan_turn(
    layout: Layout,
    *,
    skip: frozenset[str] = frozenset(),
    no_attackers: bool = False,
    two_damage_steps: bool = False,
    cleanup_repeats: int = 0,
    extra_phases: tuple[ExtraPhase, ...] = (),
    extra_steps: tuple[ExtraStep, ...] = (),
    first_turn_skip: str | None = None,
) -> tuple[PlannedStep, ...]:
    """Every step of one turn in order (as `layout` gives them), skipped ones included and marked.

    `skip` holds step or phase slugs (300.9); `no_attackers` skips the declare blockers
    and combat damage steps (308.4); `two_damage_steps` splits combat damage (310.5);
    `cleanup_repeats` adds cleanup steps (314.3); `first_turn_skip`, the concept deciding it,
    skips the draw step of the starting player's first turn (2004 101.5, 2010 103.7a). Extra
    phases and steps are given in creation order: the most recently created one happens first
    (300.7, 300.8); an extra main phase after « combat » follows the extra combat phase when
    there is one (« an additional combat phase followed by an additional main phase »),
    whichever is listed first.
    Plans are cached: the same arguments give the same (immutable) tuple.
    """
    moments = _with_extra_steps(_with_extra_phases(layout, extra_phases), extra_steps)
    return tuple(_planned(part, skip=skip, no_attackers=no_attackers,
                          first_turn_skip=first_turn_skip)
                 for moment in moments
                 for part in _repeated(moment, two_damage_steps=two_damage_steps,
                                       cleanup_repeats=cleanup_repeats))


def _with_extra_phases(layout: Layout, extra_phases: tuple[ExtraPhase, ...]) -> list[Moment]:
    """The layout's places, extra phases inserted after the phase they follow (the most
    recently created first; an extra main phase after the extra combat phase, if any)."""
    blocks: list[list[Moment]] = [_phase_moments(layout, phase) for phase, _ in layout]
    added = {extra.phase for extra in extra_phases}
    chained = [e for e in extra_phases if e.phase != Phase.COMBAT and e.after == Phase.COMBAT
               and Phase.COMBAT in added]
    for extra in (*(e for e in extra_phases if e not in chained), *chained):
        at = next(i for i, block in enumerate(blocks) if block[0].phase == extra.after
                  and (block[0].extra or extra not in chained))
        blocks.insert(at + 1, _phase_moments(layout, extra.phase, extra=True))
    return [moment for block in blocks for moment in block]


def _with_extra_steps(moments: list[Moment], extra_steps: tuple[ExtraStep, ...]) -> list[Moment]:
    """Extra steps inserted before or after the step they are anchored to."""
    for extra_step in extra_steps:
        at = next(i for i, m in enumerate(moments) if m.step == extra_step.anchor)
        moment = Moment(phase=moments[at].phase, step=extra_step.step, extra=True)
        moments.insert(at if extra_step.before else at + 1, moment)
    return moments


def _repeated(moment: Moment, *, two_damage_steps: bool, cleanup_repeats: int
              ) -> list[Moment]:
    """A place as the plan holds it: combat damage in two steps, cleanup repeated."""
    if moment.step == Step.COMBAT_DAMAGE and two_damage_steps:
        return [Moment(phase=moment.phase, step=moment.step, damage_step=kind, extra=moment.extra)
                for kind in DAMAGE_STEPS]
    if moment.step == Step.CLEANUP:
        return [Moment(phase=moment.phase, step=Step.CLEANUP, repeat=n, extra=moment.extra)
                for n in range(cleanup_repeats + 1)]
    return [moment]


def _planned(moment: Moment, *, skip: frozenset[str], no_attackers: bool,
             first_turn_skip: str | None) -> PlannedStep:
    if moment.phase in skip or (moment.step is not None and moment.step in skip):
        return PlannedStep(moment=moment, skipped=True, skip_reason="turn.skip")
    if first_turn_skip and moment.step == Step.DRAW and not moment.extra:
        return PlannedStep(moment=moment, skipped=True, skip_reason=first_turn_skip)
    if no_attackers and moment.step in (Step.DECLARE_BLOCKERS, Step.COMBAT_DAMAGE):
        return PlannedStep(moment=moment, skipped=True, skip_reason="combat.no_attackers")
    return PlannedStep(moment=moment)


def locate(plan: tuple[PlannedStep, ...], moment: Moment, nth: int = 0) -> int:
    """Index of the `nth` (0: first) plan entry at the place of `moment` (ValueError if none):
    an extra phase or step repeats the place of another."""
    index = place_index(plan, moment.phase, moment.step, moment.damage_step, moment.repeat, nth)
    if index is None:
        raise ValueError(moment)
    return index


def place_index(plan: tuple[PlannedStep, ...], phase: str, step: str | None,
                damage_step: str | None = None, repeat: int = 0, nth: int = 0) -> int | None:
    """Index of the `nth` plan entry at a place given by its parts (None: there is none):
    the same phase, step, combat damage step and cleanup repeat (`locate` without a Moment)."""
    seen = 0
    for index, entry in enumerate(plan):
        at = entry.moment  # the step compared first: most entries differ there
        if (at.step == step and at.phase == phase and at.damage_step == damage_step
                and at.repeat == repeat):
            if seen == nth:
                return index
            seen += 1
    return None


def occurrence(plan: tuple[PlannedStep, ...], index: int) -> int:
    """How many earlier plan entries are at the place of entry `index` (`locate`'s `nth`)."""
    moment = plan[index].moment
    nth = 0
    while place_index(plan, moment.phase, moment.step, moment.damage_step, moment.repeat,
                      nth) != index:
        nth += 1
    return nth


def starts_phase(before: Moment, after: Moment) -> bool:
    """Whether `after`, following `before`, begins a phase: another phase, or the same one
    again (an extra phase: its first step after the last one, or a main phase after itself)."""
    if before.phase != after.phase:
        return True
    steps = PHASE_STEPS[after.phase]
    return not steps or (after.step == steps[0] and before.step == steps[-1])


def first_index(plan: tuple[PlannedStep, ...], step: str) -> int | None:
    """Index of the first entry of a step or phase slug in the plan."""
    for index, entry in enumerate(plan):
        if entry.moment.step == step or (entry.moment.step is None and entry.moment.phase == step):
            return index
    return None


def next_step(plan: tuple[PlannedStep, ...], index: int) -> int | None:
    """Index of the step that follows `index` (skipped ones passed over), None at turn end."""
    for later in range(index + 1, len(plan)):
        if not plan[later].skipped:
            return later
    return None


def rest_of_turn(plan: tuple[PlannedStep, ...], index: int) -> tuple[PlannedStep, ...]:
    """The steps still to come after `index`, skipped ones left out."""
    return tuple(entry for entry in plan[index + 1:] if not entry.skipped)


def turn_order(
    players: tuple[str, ...], active: str, extra_turns: tuple[str, ...], count: int,
    left: tuple[str, ...] = (),
) -> tuple[str, ...]:
    """Who takes the next `count` turns: extra turns first, most recent first (300.6); players
    who left the game take none (2010 800.4)."""
    order = [p for p in reversed(extra_turns) if p not in left]
    seat = players.index(active)
    if len(left) >= len(players):
        return ()
    while len(order) < count:
        seat = (seat + 1) % len(players)
        if players[seat] not in left:
            order.append(players[seat])
    return tuple(order[:count])
