"""The rulebook's history views: the « Historique » block of each rule and the changes pages.

Owns the view models of `templates/_history.html` (one block per rule: its counterpart in each
other edition, the change, a word diff) and `templates/changes.html` (every change between two
editions, by section), and the changes pages' paths. The concordance and the diffs come from
`judge.corpus.concordance` and `judge.corpus.history`; concordances are computed (or read from
the cache) once per renderer.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from judge.corpus.concordance import Concordance, ConcordanceError, concordance
from judge.corpus.documents import Rule
from judge.corpus.graph import RuleGraph
from judge.corpus.history import DiffOp, change_label, changes, chronological, full_text, grouped, word_diff
from judge.errors import NotFound


def changes_path(source: str, target: str) -> str:
    """Path of the changes page of two editions, relative to the site root."""
    return f"changes/{source}-{target}.html"


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleRef:
    """A link to a rule of another edition."""

    number: str
    href: str
    label: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HistoryEntry:
    """The rule's counterpart in one other edition and what changed between the two."""

    edition: str
    edition_label: str
    direction: str  # "2004 → 2010"
    change: str
    change_label: str
    counterparts: tuple[RuleRef, ...]  # main one first; empty: removed or added
    similarity: int | None  # percent
    diff: tuple[DiffOp, ...]
    reason: str
    changes_href: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HistoryView:
    """A rule number's page section: the rule in each edition, oldest first."""

    number: str
    entries: tuple[HistoryEntry, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeRow:
    """One pair of the changes page."""

    source: RuleRef
    target: RuleRef
    main: bool
    change: str
    change_label: str
    similarity: int
    diff: tuple[DiffOp, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeGroup:
    """A section of the older edition: its pairs, removed rules, added rules landing there."""

    title: str
    rows: tuple[ChangeRow, ...]
    removed: tuple[RuleRef, ...]
    added: tuple[RuleRef, ...]


class HistoryViews:
    """History views over one graph; `url(rule, root)` links a rule of any edition."""

    def __init__(self, graph: RuleGraph, url: Callable[[Rule, str], str]) -> None:
        self.graph = graph
        self.url = url
        self.editions = chronological(graph)
        self._tables: dict[tuple[str, str], Concordance | None] = {}
        self._diffs: dict[tuple[str, str, str, str], tuple[DiffOp, ...]] = {}

    def table(self, older: str, newer: str) -> Concordance | None:
        """The concordance of two editions, None when they share no language."""
        if (older, newer) not in self._tables:
            try:
                self._tables[(older, newer)] = concordance(self.graph, older, newer)
            except ConcordanceError:
                self._tables[(older, newer)] = None
        return self._tables[(older, newer)]

    def warm(self) -> None:
        """Read (or compute) every concordance now, not during the first page that needs one."""
        for older, newer in self.pairs_of_editions():
            self.table(older, newer)

    def pairs_of_editions(self) -> tuple[tuple[str, str], ...]:
        return tuple(itertools.combinations(self.editions, 2))

    def ref(self, edition: str, number: str, root: str) -> RuleRef:
        """A link to `number` of `edition`: its page in the primary language when it has one."""
        rule = self.graph.get(edition, number)
        if rule is None:
            rule = next(r for lang in self.graph.edition(edition).languages
                        if (r := self.graph.get(edition, number, lang)) is not None)
        label = f"{number} « {rule.title} »" if rule.title else number
        return RuleRef(number=number, href=self.url(rule, root), label=label)

    def _diff(self, table: Concordance, source: str, target: str) -> tuple[DiffOp, ...]:
        """Word diff of two counterparts (empty when nothing changed), computed once per pair."""
        key = (table.source, table.target, source, target)
        if key not in self._diffs:
            old = self.graph.get(table.source, source, table.language)
            new = self.graph.get(table.target, target, table.language)
            ops = word_diff(full_text(old), full_text(new)) if old is not None and new is not None else ()
            self._diffs[key] = ops if any(op != "=" for op, _ in ops) else ()
        return self._diffs[key]

    # -------------------------------------------------------------- the block of one rule
    def for_rule(self, rule: Rule, root: str) -> HistoryView | None:
        """The rule's counterparts in the editions just before and after its own."""
        if rule.edition not in self.editions:
            return None
        k = self.editions.index(rule.edition)
        entries: list[HistoryEntry] = []
        for other in self.editions[max(k - 1, 0):k] + self.editions[k + 1:k + 2]:
            older, newer = sorted((rule.edition, other), key=self.editions.index)
            table = self.table(older, newer)
            if table is None or self.graph.get(rule.edition, rule.number, table.language) is None:
                continue
            entries.append(self._entry(table, rule, other, root))
        return HistoryView(number=rule.number, entries=tuple(entries)) if entries else None

    def _entry(self, table: Concordance, rule: Rule, other: str, root: str) -> HistoryEntry:
        forward = table.source == rule.edition
        pairs = table.counterparts(rule.number) if forward else table.sources(rule.number)
        numbers = tuple(p.target if forward else p.source for p in pairs)
        change = table.change_of_source(rule.number) if forward else table.change_of_target(rule.number)
        diff: tuple[DiffOp, ...] = ()
        similarity = None
        if pairs:
            main = pairs[0]
            similarity = round(main.similarity * 100)
            diff = self._diff(table, main.source, main.target)
        reason = table.reason(rule.edition, rule.number) or (
            table.reason(other, numbers[0]) if numbers else "")
        return HistoryEntry(
            edition=other, edition_label=self.graph.edition(other).label,
            direction=f"{table.source} → {table.target}", change=change, change_label=change_label(change),
            counterparts=tuple(self.ref(other, n, root) for n in numbers), similarity=similarity,
            diff=diff, reason=reason, changes_href=root + changes_path(table.source, table.target),
        )

    # -------------------------------------------------------------- the changes page
    def changes_context(self, older: str, newer: str, root: str) -> dict[str, object]:
        """Everything `changes.html` shows for `older` -> `newer`."""
        table = self.table(older, newer)
        if table is None:
            raise NotFound(f"pas de concordance entre {older} et {newer}")
        item = changes(self.graph, older, newer)
        groups = []
        for key, pairs, removed, added in grouped(item):
            targets = sorted({p.target.split(".")[0] for p in pairs})
            title = (f"Section {key} → {', '.join(targets)}" if not key.startswith("+")
                     else f"Section {key[1:]} de {newer} (sans équivalent en {older})")
            rows = tuple(
                ChangeRow(source=self.ref(older, p.source, root), target=self.ref(newer, p.target, root),
                          main=p.main, change=p.change, change_label=change_label(p.change),
                          similarity=round(p.similarity * 100),
                          diff=self._diff(table, p.source, p.target))
                for p in pairs
            )
            groups.append(ChangeGroup(title=title, rows=rows,
                                      removed=tuple(self.ref(older, n, root) for n in removed),
                                      added=tuple(self.ref(newer, n, root) for n in added)))
        counts: dict[str, int] = {}
        for pair in table.pairs:
            if pair.main:
                counts[pair.change] = counts.get(pair.change, 0) + 1
        return {
            "older": self.graph.edition(older), "newer": self.graph.edition(newer),
            "language": table.language, "groups": groups,
            "counts": [(change_label(c), n) for c, n in counts.items()],
            "removed_count": len(table.removed), "added_count": len(table.added),
            "reasons": [(self.ref(e, n, root), why) for e, n, why in table.reasons],
        }
