"""The turn timeline of the situation form: one box per step, grouped by phase, in HTML.

Owns what each box says (passée, en cours, à venir, sautée) and links to; the engine's
timeline (`judge.checks.report.TimelineEntry`) says which steps the plan skips. A skip the
rules have not decided yet is shown as « à venir »: the declare blockers and combat damage
steps are skipped only once no attacker has been declared (so not while the declare
attackers step is current and nobody attacks yet), unless the situation itself skips them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from judge.checks.report import TimelineEntry
from judge.corpus.graph import RuleGraph
from judge.game.turnplan import PHASE_LABELS, STEP_LABELS, STEP_PHASE, Phase, Step
from judge.site.templating import rule_url

STATE_LABELS = {"past": "passée", "current": "en cours", "future": "à venir", "skipped": "sautée"}
# Short phase names for the band over the steps.
BAND_LABELS = {
    Phase.BEGINNING: "début", Phase.PRECOMBAT_MAIN: "principale 1", Phase.COMBAT: "combat",
    Phase.POSTCOMBAT_MAIN: "principale 2", Phase.ENDING: "fin",
}
# The step whose turn-based action decides whether later steps of its phase happen.
DECIDING_STEP = Step.DECLARE_ATTACKERS


@dataclass(frozen=True, slots=True, kw_only=True)
class TimelineStep:
    """One step (or main phase) of the turn."""

    label: str
    state: str
    state_label: str
    title: str
    href: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class TimelinePhase:
    """A phase with its steps (a main phase is one step)."""

    label: str
    steps: tuple[TimelineStep, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Timeline:
    """The turn band of a situation page: its phases and a French `caption`."""

    phases: tuple[TimelinePhase, ...]
    caption: str


def _decided(entries: tuple[TimelineEntry, ...], index: int, stated: Collection[str]) -> bool:
    """Whether the skip of `entries[index]` is already decided by the rules or the situation."""
    entry = entries[index]
    if entry.phase in stated or (entry.step or "") in stated:
        return True
    current = next((i for i, e in enumerate(entries) if e.state == "current"), None)
    if current is None or index < current:
        return True
    deciding = next((i for i, e in enumerate(entries) if e.step == DECIDING_STEP
                     and STEP_PHASE[DECIDING_STEP] == entry.phase), None)
    return deciding is None or deciding < current


def timeline(entries: tuple[TimelineEntry, ...], urls: Mapping[str, str],
             stated_skips: Collection[str] = ()) -> Timeline:
    """Boxes in turn order, grouped by phase; `urls` maps a step (or `main`) to its rule,
    `stated_skips` are the steps and phases the situation says are skipped."""
    phases: list[tuple[str, list[TimelineStep]]] = []
    for index, entry in enumerate(entries):
        label = entry.label or (STEP_LABELS.get(entry.step or "") or PHASE_LABELS[entry.phase])
        state = entry.state
        if state == "skipped" and not _decided(entries, index, stated_skips):
            state = "future"
            title = f"{label} : à venir (sautée si aucun attaquant n'est déclaré"
            title += f", règle {entry.skip_rule})" if entry.skip_rule else ")"
        else:
            title = f"{label} : {STATE_LABELS.get(state, state)}"
            if state == "skipped" and entry.skip_rule:
                title += f" (règle {entry.skip_rule})"
        slot = entry.step or ("main" if entry.phase.endswith("_main") else entry.phase)
        shown = STATE_LABELS.get(state, state)
        if title.endswith(")") and state == "future" and entry.state == "skipped":
            shown = "à venir (sautée sans attaquant)"
        box = TimelineStep(label=label, state=state, state_label=shown, title=title, href=urls.get(slot))
        band = BAND_LABELS.get(entry.phase, entry.phase)
        if phases and phases[-1][0] == band:
            phases[-1][1].append(box)
        else:
            phases.append((band, [box]))
    current = next((e for e in entries if e.state == "current"), None)
    caption = "Déroulement du tour"
    if current is not None:
        caption += f" — étape en cours : {current.label}"
    return Timeline(
        phases=tuple(TimelinePhase(label=band, steps=tuple(steps)) for band, steps in phases),
        caption=caption,
    )


def step_urls(graph: RuleGraph, edition: str) -> dict[str, str]:
    """Each step slug (and `main`) -> URL of the rule describing it in this edition."""
    from judge.site.diagram import step_rules

    primary = graph.primary_language(edition)
    return {
        slot: rule_url(rule, "/", primary)
        for slot, rule in step_rules(graph, edition).items()
        if rule is not None
    }
