"""The turn model: order of steps, priority, skipping, extra phases, steps and turns."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from judge.game.gamemodel import load_game_model
from judge.game.objects import ExtraPhase, ExtraStep
from judge.game.turnplan import (
    PHASE_STEPS,
    PHASES,
    Moment,
    locate,
    next_step,
    plan_turn,
    rest_of_turn,
    turn_order,
)

LAYOUT = load_game_model("2004").layout


def _places(plan: tuple) -> list[tuple[str, str | None]]:
    return [(e.moment.phase, e.moment.step) for e in plan if not e.skipped]


def test_plan_turn_has_five_phases_and_every_step_in_order() -> None:
    places = _places(plan_turn(LAYOUT))
    assert [p for p, _ in places if _ is None] == ["precombat_main", "postcombat_main"]
    assert places[:3] == [("beginning", "untap"), ("beginning", "upkeep"), ("beginning", "draw")]
    assert places[-2:] == [("ending", "end_of_turn"), ("ending", "cleanup")]
    assert len(places) == 12


@pytest.mark.parametrize("game", ["2004", "2010"])
def test_models_give_no_priority_only_in_untap_and_cleanup(game: str) -> None:
    model = load_game_model(game)
    assert [s.step for s in model.steps if not s.priority] == ["untap", "cleanup"]
    assert model.layout == tuple((phase, PHASE_STEPS[phase]) for phase in PHASES)


def test_plan_turn_skips_blockers_and_damage_without_attackers() -> None:
    plan = plan_turn(LAYOUT, no_attackers=True)
    skipped = [(e.moment.step, e.skip_reason) for e in plan if e.skipped]
    assert skipped == [("declare_blockers", "combat.no_attackers"),
                       ("combat_damage", "combat.no_attackers")]


def test_plan_turn_skips_a_whole_phase() -> None:
    plan = plan_turn(LAYOUT, skip=frozenset({"combat"}))
    assert {e.skip_reason for e in plan if e.skipped} == {"turn.skip"}
    assert all(e.skipped for e in plan if e.moment.phase == "combat")


def test_plan_turn_splits_combat_damage_in_two() -> None:
    plan = plan_turn(LAYOUT, two_damage_steps=True)
    damage = [e.moment.damage_step for e in plan if e.moment.step == "combat_damage"]
    assert damage == ["first_strike", "regular"]


def test_plan_turn_repeats_cleanup() -> None:
    plan = plan_turn(LAYOUT, cleanup_repeats=2)
    assert [e.moment.repeat for e in plan if e.moment.step == "cleanup"] == [0, 1, 2]
    assert next_step(plan, len(plan) - 2) == len(plan) - 1


def test_plan_turn_extra_phases_most_recent_first() -> None:
    plan = plan_turn(LAYOUT, extra_phases=(ExtraPhase(after="combat", phase="postcombat_main"),
                                   ExtraPhase(after="combat", phase="combat")))
    phases = [e.moment.phase for e in plan if e.moment.step in (None, "beginning_of_combat")]
    # the extra combat (created last) comes right after the first combat, then the extra main
    assert phases == ["precombat_main", "combat", "combat", "postcombat_main", "postcombat_main"]
    extras = [e.moment.extra for e in plan if e.moment.step in (None, "beginning_of_combat")]
    assert extras == [False, False, True, True, False]


def test_plan_turn_extra_steps_most_recent_first() -> None:
    plan = plan_turn(LAYOUT, extra_steps=(ExtraStep(anchor="draw", step="upkeep"),
                                  ExtraStep(anchor="draw", step="draw")))
    steps = [e.moment.step for e in plan if e.moment.phase == "beginning"]
    assert steps == ["untap", "upkeep", "draw", "draw", "upkeep"]
    before = plan_turn(LAYOUT, extra_steps=(ExtraStep(anchor="cleanup", step="end_of_turn", before=True),))
    assert [e.moment.step for e in before][-3:] == ["end_of_turn", "end_of_turn", "cleanup"]


def test_next_step_returns_none_after_cleanup() -> None:
    plan = plan_turn(LAYOUT)
    assert next_step(plan, len(plan) - 1) is None
    index = locate(plan, Moment(phase="combat", step="end_of_combat"))
    assert plan[next_step(plan, index) or 0].moment.phase == "postcombat_main"


def test_locate_rejects_a_place_absent_from_the_plan() -> None:
    with pytest.raises(ValueError):
        locate(plan_turn(LAYOUT), Moment(phase="combat", step="combat_damage", damage_step="regular"))


@pytest.mark.parametrize(
    ("extra", "count", "expected"),
    [
        ((), 4, ("B", "C", "A", "B")),
        (("C",), 2, ("C", "B")),
        (("B", "C"), 3, ("C", "B", "B")),  # most recently created first (300.6)
        (("A", "A"), 3, ("A", "A", "B")),
    ],
)
def test_turn_order_takes_extra_turns_most_recent_first(
    extra: tuple[str, ...], count: int, expected: tuple[str, ...]
) -> None:
    assert turn_order(("A", "B", "C"), "A", extra, count) == expected


@given(
    skip=st.frozensets(st.sampled_from(["upkeep", "draw", "combat", "declare_blockers",
                                        "precombat_main", "end_of_turn"])),
    no_attackers=st.booleans(),
    two=st.booleans(),
    repeats=st.integers(0, 3),
    start=st.integers(0, 20),
)
def test_rest_of_turn_always_ends_with_cleanup(
    skip: frozenset[str], no_attackers: bool, two: bool, repeats: int, start: int
) -> None:
    plan = plan_turn(LAYOUT, skip=skip, no_attackers=no_attackers, two_damage_steps=two,
                     cleanup_repeats=repeats)
    index = min(start, len(plan) - 2)
    rest = rest_of_turn(plan, index)
    assert rest[-1].moment.step == "cleanup"
    assert all(not e.skipped for e in rest)


# Slugs spelled only as steps or phases (others, such as « untap », « draw », « end_of_turn »
# or « combat_damage », are also an event, a duration or a stack object's kind).
_ONLY_STEP_SLUGS = frozenset({"upkeep", "beginning_of_combat", "declare_attackers",
                              "declare_blockers", "cleanup", "beginning", "precombat_main",
                              "postcombat_main", "ending"})
# judge/ask is being rewritten on its own branch (it is to read judge.game.turnplan's Step,
# Phase and STEP_PHASE instead of its copies); judge/web's forms name events after steps.
_NOT_YET = ("ask", "web")


def test_step_and_phase_slugs_are_written_only_in_the_game_model() -> None:
    """Outside judge/game/turnplan.py (and the game models' data), a step or phase is
    `Step.X` / `Phase.X`, never a string literal spelling its slug."""
    import io
    import tokenize
    from ast import literal_eval
    from pathlib import Path

    import judge

    root = Path(judge.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if relative.parts[0] in _NOT_YET or relative == Path("game/turnplan.py"):
            continue
        tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        found += [f"{relative}:{t.start[0]} {t.string}" for t in tokens
                  if t.type == tokenize.STRING and t.string[0] in "'\""
                  and literal_eval(t.string) in _ONLY_STEP_SLUGS]
    assert found == []


def test_the_phases_and_steps_are_the_models_vocabulary() -> None:
    """Both editions' game models have every phase and step, in the same order."""
    for game in ("2004", "2010"):
        layout = load_game_model(game).layout
        assert tuple(phase for phase, _ in layout) == PHASES
        assert dict(layout) == PHASE_STEPS
