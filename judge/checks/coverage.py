"""How much of each edition's turn structure the checks implement: `judge checks`.

`coverage()` says, for each rule of the sections of an edition's turn structure (those of
its game model's phase, priority and turn-based action rules), which checks implement it, or
why none does (the model's `unchecked` reasons, section headings); `coverage_json()` and
`coverage_text()` render it. Every check is imported (`judge.checks.catalog.every_check`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from judge.checks.catalog import every_check
from judge.checks.rulemap import edition_models, load_checks_for
from judge.corpus.numbers import sort_key

if TYPE_CHECKING:
    from collections.abc import Callable

    from judge.corpus.graph import RuleGraph
    from judge.game.gamemodel import GameModel


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleCoverage:
    """One rule: the checks implementing it, or why it has none."""

    edition: str
    number: str
    title: str | None
    checks: tuple[str, ...]
    why_none: str | None

    @property
    def checkable(self) -> bool:
        return bool(self.checks) or self.why_none is None

    @property
    def covered(self) -> bool:
        return bool(self.checks)


@dataclass(frozen=True, slots=True, kw_only=True)
class BeyondRule:
    """A rule outside the turn structure that checks implement: a keyword ability's (its
    model's `ability.*` and `evasion.*` concepts) or a state-based action's (`sba.*`)."""

    edition: str
    group: str  # "keywords" or "state_based"
    number: str
    title: str | None
    checks: tuple[str, ...]


# The groups of rules beyond the turn structure, with the concept prefixes naming them.
BEYOND_GROUPS = {"keywords": ("ability.", "evasion.", "damage.deathtouch"),
                 "state_based": ("sba.",)}
_BEYOND_LABELS = {"keywords": "capacités mot-clé", "state_based": "actions basées sur un état"}


@dataclass(frozen=True, slots=True, kw_only=True)
class Coverage:
    """Every rule of the checked sections, per edition, and the coverage figure; and the
    keyword and state-based action rules now checkable (`beyond`)."""

    rules: tuple[RuleCoverage, ...]
    beyond: tuple[BeyondRule, ...] = ()

    def of(self, edition: str) -> tuple[RuleCoverage, ...]:
        return tuple(rule for rule in self.rules if rule.edition == edition)

    @staticmethod
    def _percent(rules: tuple[RuleCoverage, ...]) -> float:
        checkable = [rule for rule in rules if rule.checkable]
        if not checkable:
            return 100.0
        return round(100.0 * sum(rule.covered for rule in checkable) / len(checkable), 1)

    @property
    def percent(self) -> float:
        return self._percent(self.rules)

    @property
    def percent_of_all(self) -> float:
        """Covered rules among every rule that is not a section heading."""
        rules = [rule for rule in self.rules if rule.why_none != "titre de section"]
        return round(100.0 * sum(rule.covered for rule in rules) / max(len(rules), 1), 1)

    def edition_percent(self, edition: str) -> float:
        return self._percent(self.of(edition))


def measured_sections(model: GameModel) -> frozenset[int]:
    """The sections of the turn structure in a model: those of its phase, priority and
    turn-based action rules (2004: 300–314; 2010: 500–514)."""
    numbers = [model.turn_rule, *(r for _, r in model.phase_rules)]
    for step in model.steps:
        numbers += [step.priority_rule, *(a.rule for a in step.actions)]
    return frozenset(int(n.split(".")[0]) for n in numbers if n.split(".")[0].isdigit())


def coverage(graph: RuleGraph) -> Coverage:
    """For each rule of the turn structure of each edition with a game model: checks or reason."""
    editions = tuple(graph.edition(e) for e in graph.edition_ids)
    models = edition_models(editions)
    implemented = load_checks_for(editions)
    out: list[RuleCoverage] = []
    for edition in graph.edition_ids:
        if edition not in models:
            continue
        sections = measured_sections(models[edition])
        seen: set[str] = set()
        for language in graph.edition(edition).languages:
            for rule in graph.rules(edition, language):
                head = rule.number.split(".")[0]
                if rule.number in seen or not head.isdigit() or int(head) not in sections:
                    continue
                seen.add(rule.number)
                names = implemented(edition, rule.number)
                why = None
                if not names:
                    why = dict(models[edition].unchecked).get(rule.number)
                    if why is None and rule.kind == "section":
                        why = "titre de section"
                out.append(RuleCoverage(edition=edition, number=rule.number, title=rule.title,
                                        checks=names, why_none=why))
    out.sort(key=lambda r: (graph.edition_ids.index(r.edition), sort_key(r.number)))
    beyond: list[BeyondRule] = []
    for edition in graph.edition_ids:
        if edition in models:
            beyond += _beyond(graph, edition, models[edition], implemented)
    return Coverage(rules=tuple(out), beyond=tuple(beyond))


def _beyond(graph: RuleGraph, edition: str, model: GameModel,
            implemented: Callable[[str, str], tuple[str, ...]]) -> list[BeyondRule]:
    """The keyword and state-based action rules of an edition that some check implements."""
    titles = {rule.number: rule.title for language in graph.edition(edition).languages
              for rule in graph.rules(edition, language)}
    sections = measured_sections(model)
    out: list[BeyondRule] = []
    seen: set[str] = set()
    for group, prefixes in BEYOND_GROUPS.items():
        numbers = {n for concept, rules in model.concepts().items()
                   if concept.startswith(prefixes) for n in rules if ":" not in n}
        for number in sorted(numbers, key=sort_key):
            head = number.split(".")[0]
            if number in seen or number not in titles or (head.isdigit() and int(head) in sections):
                continue
            names = implemented(edition, number)
            if names:
                seen.add(number)
                out.append(BeyondRule(edition=edition, group=group, number=number,
                                      title=titles[number], checks=names))
    return out


def coverage_json(cov: Coverage) -> dict[str, object]:
    editions = sorted({rule.edition for rule in cov.rules})
    return {
        "percent": cov.percent,
        "percent_of_all_rules": cov.percent_of_all,
        "editions": [
            {
                "edition": edition,
                "percent": cov.edition_percent(edition),
                "checkable": sum(r.checkable for r in cov.of(edition)),
                "covered": sum(r.covered for r in cov.of(edition)),
                "rules": [
                    {"number": r.number, "title": r.title, "checks": list(r.checks),
                     "why_none": r.why_none}
                    for r in cov.of(edition)
                ],
            }
            for edition in editions
        ],
        "beyond_turn_structure": [
            {"edition": r.edition, "group": r.group, "number": r.number, "title": r.title,
             "checks": list(r.checks)}
            for r in cov.beyond
        ],
        "checks": sorted(spec.name for spec in every_check() if spec.ask is not None),
    }


def coverage_text(cov: Coverage) -> str:
    """The share of all (non-heading) rules covered first, then each rule's checks or reason."""
    lines = [f"Couverture : {cov.percent_of_all} % de toutes les règles de la structure du tour "
             f"(titres de section exclus) ; {cov.percent} % des règles vérifiables.", ""]
    for edition in sorted({rule.edition for rule in cov.rules}):
        rules = cov.of(edition)
        covered = sum(r.covered for r in rules)
        checkable = sum(r.checkable for r in rules)
        lines.append(f"Édition {edition} : {covered}/{checkable} règles vérifiables couvertes "
                     f"({cov.edition_percent(edition)} %)")
        for r in rules:
            if r.checks:
                detail = ", ".join(r.checks)
            else:
                detail = f"— {r.why_none}" if r.why_none else "— NON COUVERTE"
            lines.append(f"  {r.number:<8} {detail}")
        lines.append("")
        for group, label in _BEYOND_LABELS.items():
            extra = [r for r in cov.beyond if r.edition == edition and r.group == group]
            if extra:
                lines.append(f"Édition {edition}, hors structure du tour : {label} vérifiables "
                             f"({len(extra)} règles)")
                lines += [f"  {r.number:<8} {', '.join(r.checks)}" for r in extra]
                lines.append("")
    return "\n".join(lines)
