"""The journal of a replay: what happened, event by event, and the rules deciding each entry.

`TrailEntry` is what the replay (`judge.checks.replay`) records, with the concepts deciding
it; `Trail` is the same entry in the report (`judge.checks.report`), its concepts cited as
the rule numbers of the edition. Imported only for a situation with events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from judge.checks.context import Context


@dataclass(frozen=True, slots=True, kw_only=True)
class TrailEntry:
    """One event (`event` its index) or turn-based action (`event` None) of a replay."""

    event: int | None
    what: str
    phase: str
    step: str | None
    priority: str | None
    concepts: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Trail:
    """One entry of a replay's journal, its rules cited in the edition."""

    event: int | None
    what: str
    phase: str
    step: str | None
    priority: str | None
    rules: tuple[str, ...]


def cited(ctx: Context, entries: tuple[TrailEntry, ...]) -> tuple[Trail, ...]:
    """The journal as reported: each entry's concepts as the edition's rule numbers."""
    return tuple(Trail(event=entry.event, what=entry.what, phase=entry.phase, step=entry.step,
                       priority=entry.priority, rules=ctx.cited(entry.concepts))
                 for entry in entries)
