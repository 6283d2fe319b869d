"""The rulebook's history views: the « Historique » block of each rule and the changes pages.

Owns the view models of `templates/_history.html` (one block per rule: its counterpart in each
other edition, the change, a word diff) and `templates/changes.html` (every change between two
editions, by section), and the changes pages' paths. The concordance and the diffs come from
`judge.corpus.concordance` and `judge.corpus.history`; concordances are computed (or read from
the cache) once per renderer.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from judge.corpus.concordance import Concordance, ConcordanceError, Pair, concordance
from judge.corpus.documents import Rule
from judge.corpus.graph import RuleGraph
from judge.corpus.history import (
    DiffOp,
    change_label,
    changes,
    chronological,
    evidence,
    full_text,
    grouped,
    word_diff,
)
from judge.errors import NotFound


def changes_path(source: str, target: str) -> str:
    """Path of the changes page of two editions (its summary and section index), relative to the site root."""
    return f"changes/{source}-{target}.html"


def changes_section_path(source: str, target: str, key: str) -> str:
    """Path of one section's changes (`changes/2004-2010/300.html`; a section only the newer
    edition has, key `+510`: `changes/2004-2010/ajout-510.html`)."""
    name = f"ajout-{key[1:]}" if key.startswith("+") else key
    return f"changes/{source}-{target}/{name}.html"


def changes_section_key(name: str) -> str:
    """The group key of a changes section page's name (`300`, `ajout-510` -> `+510`)."""
    return "+" + name.removeprefix("ajout-") if name.startswith("ajout-") else name


PAGE_ROWS = 80  # pairs on one changes page at most
_CITED = re.compile(r"(?<![\w.])(\d{3}\.\d+[a-z]?)(?![\w])")


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
    reason_parts: tuple[tuple[str, RuleRef | None], ...] = ()  # the reason, its rule numbers linked
    evidence: str = ""  # why the main counterpart is paired (judge.corpus.history.evidence)


@dataclass(frozen=True, slots=True, kw_only=True)
class Mention:
    """A reviewed correction of another edition's rule whose reason names this rule
    (2004's 300.3, removed: « la règle 500.4 de 2010 ne fait que vider la réserve… »)."""

    edition_label: str
    rule: RuleRef
    change_label: str
    reason_parts: tuple[tuple[str, RuleRef | None], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HistoryView:
    """A rule number's page section: the rule in each edition, oldest first."""

    number: str
    entries: tuple[HistoryEntry, ...]
    mentions: tuple[Mention, ...] = ()


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

    key: str
    title: str
    href: str
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
        self._grouped: dict[tuple[str, str], list[tuple[str, list[Pair], list[str], list[str]]]] = {}

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
        mentions = self._mentions(rule, root)
        if not entries and not mentions:
            return None
        return HistoryView(number=rule.number, entries=tuple(entries), mentions=mentions)

    def _cites(self, edition: str, number: str) -> bool:
        return any(self.graph.get(edition, number, lang) is not None
                   for lang in self.graph.edition(edition).languages)

    def reason_parts(self, text: str, editions: tuple[str, ...], root: str) -> tuple[tuple[str, RuleRef | None], ...]:
        """A reviewed reason as text pieces, each rule number it cites linked to the first of
        `editions` that has it (the other edition first: a removal reason names the newer rule)."""
        parts: list[tuple[str, RuleRef | None]] = []
        last = 0
        for match in _CITED.finditer(text):
            where = next((e for e in editions if self._cites(e, match.group(1))), None)
            if where is None:
                continue
            parts.append((text[last:match.start()], None))
            parts.append((match.group(1), self.ref(where, match.group(1), root)))
            last = match.end()
        parts.append((text[last:], None))
        return tuple(p for p in parts if p[0])

    def _mentions(self, rule: Rule, root: str) -> tuple[Mention, ...]:
        """Reviewed corrections of a neighbouring edition whose reason cites this rule."""
        if rule.edition not in self.editions:
            return ()
        k = self.editions.index(rule.edition)
        out: list[Mention] = []
        for other in self.editions[max(k - 1, 0):k] + self.editions[k + 1:k + 2]:
            older, newer = sorted((rule.edition, other), key=self.editions.index)
            table = self.table(older, newer)
            if table is None:
                continue
            for edition, number, why in table.reasons:
                if edition != other or rule.number not in _CITED.findall(why):
                    continue
                forward = table.source == other
                change = table.change_of_source(number) if forward else table.change_of_target(number)
                out.append(Mention(edition_label=self.graph.edition(other).label,
                                   rule=self.ref(other, number, root), change_label=change_label(change),
                                   reason_parts=self.reason_parts(why, (rule.edition, other), root)))
        return tuple(out)

    def _entry(self, table: Concordance, rule: Rule, other: str, root: str) -> HistoryEntry:
        forward = table.source == rule.edition
        pairs = table.counterparts(rule.number) if forward else table.sources(rule.number)
        numbers = tuple(p.target if forward else p.source for p in pairs)
        change = table.change_of_source(rule.number) if forward else table.change_of_target(rule.number)
        diff: tuple[DiffOp, ...] = ()
        similarity = None
        why = ""
        if pairs:
            main = pairs[0]
            similarity = round(main.similarity * 100)
            diff = self._diff(table, main.source, main.target)
            why = evidence(main)
        reason = table.reason(rule.edition, rule.number) or (
            table.reason(other, numbers[0]) if numbers else "")
        return HistoryEntry(
            edition=other, edition_label=self.graph.edition(other).label,
            direction=f"{table.source} → {table.target}", change=change, change_label=change_label(change),
            counterparts=tuple(self.ref(other, n, root) for n in numbers), similarity=similarity,
            diff=diff, reason=reason, changes_href=root + changes_path(table.source, table.target),
            reason_parts=self.reason_parts(reason, (other, rule.edition), root) if reason else (),
            evidence=why,
        )

    # -------------------------------------------------------------- the changes pages
    def _table_or_404(self, older: str, newer: str) -> Concordance:
        table = self.table(older, newer)
        if table is None:
            raise NotFound(f"pas de concordance entre {older} et {newer}")
        return table

    def _groups(self, older: str, newer: str) -> list[tuple[str, list[Pair], list[str], list[str]]]:
        """The changes by section, a long section cut into parts of `PAGE_ROWS` pairs (keys
        `502`, `502-2`, …): each page stays small enough for a phone. Made once per pair of
        editions (every changes page of a build reads them)."""
        if (older, newer) not in self._grouped:
            out: list[tuple[str, list[Pair], list[str], list[str]]] = []
            for key, pairs, removed, added in grouped(changes(self.graph, older, newer)):
                out.append((key, pairs[:PAGE_ROWS], removed, added))
                for part, start in enumerate(range(PAGE_ROWS, len(pairs), PAGE_ROWS), start=2):
                    out.append((f"{key}-{part}", pairs[start:start + PAGE_ROWS], [], []))
            self._grouped[(older, newer)] = out
        return self._grouped[(older, newer)]

    def change_keys(self, older: str, newer: str) -> tuple[str, ...]:
        """The group keys of the changes pages of two editions (one page each)."""
        self._table_or_404(older, newer)
        return tuple(key for key, *_ in self._groups(older, newer))

    def _group(self, table: Concordance, older: str, newer: str, key: str, pairs: list[Pair],
               removed: list[str], added: list[str], root: str, *, rows: bool = True) -> ChangeGroup:
        """One changes page's group (`rows=False`: its title and link only)."""
        targets = sorted({p.target.split(".")[0] for p in pairs})
        section, _, part = key.partition("-")
        title = (f"Section {section} → {', '.join(targets)}" if not key.startswith("+")
                 else f"Section {section[1:]} de {newer} (sans équivalent en {older})")
        if part:
            title += f" (suite {part})"
        views = tuple(
            ChangeRow(source=self.ref(older, p.source, root), target=self.ref(newer, p.target, root),
                      main=p.main, change=p.change, change_label=change_label(p.change),
                      similarity=round(p.similarity * 100),
                      diff=self._diff(table, p.source, p.target))
            for p in pairs
        ) if rows else ()
        return ChangeGroup(key=key, title=title, href=root + changes_section_path(older, newer, key), rows=views,
                           removed=tuple(self.ref(older, n, root) for n in removed),
                           added=tuple(self.ref(newer, n, root) for n in added))

    def changes_context(self, older: str, newer: str, root: str) -> dict[str, object]:
        """Everything the summary page of `older` -> `newer` shows: counts, reviewed
        corrections and the index of its sections (each on its own page)."""
        table = self._table_or_404(older, newer)
        index = []
        for key, pairs, removed, added in self._groups(older, newer):
            group = self._group(table, older, newer, key, pairs, removed, added, root, rows=False)
            mains = [p for p in pairs if p.main]
            index.append({"group": group, "pairs": len(mains),
                          "changed": sum(1 for p in mains if p.change != "same"),
                          "removed": len(removed), "added": len(added)})
        counts: dict[str, int] = {}
        for pair in table.pairs:
            if pair.main:
                counts[pair.change] = counts.get(pair.change, 0) + 1
        return {
            "older": self.graph.edition(older), "newer": self.graph.edition(newer),
            "language": table.language, "index": index,
            "counts": [(change_label(c), n) for c, n in counts.items()],
            "removed_count": len(table.removed), "added_count": len(table.added),
            "reasons": [(self.ref(e, n, root), self.reason_parts(why, (newer, older) if e == older else (older, newer), root))
                        for e, n, why in table.reasons],
            "summary_href": root + changes_path(older, newer),
        }

    def changes_section_context(self, older: str, newer: str, key: str, root: str) -> dict[str, object]:
        """Everything one section's changes page shows (`key`: a group key of `change_keys`)."""
        table = self._table_or_404(older, newer)
        groups = self._groups(older, newer)
        keys = [k for k, *_ in groups]
        if key not in keys:
            raise NotFound(f"pas de changements pour la section {key.lstrip('+')} ({older} → {newer})")
        i = keys.index(key)
        group = self._group(table, older, newer, *groups[i], root=root)

        def neighbour(j: int) -> ChangeGroup | None:
            return self._group(table, older, newer, *groups[j], root=root, rows=False) if 0 <= j < len(keys) else None

        return {
            "older": self.graph.edition(older), "newer": self.graph.edition(newer),
            "language": table.language, "group": group,
            "previous": neighbour(i - 1), "next": neighbour(i + 1),
            "summary_href": root + changes_path(older, newer),
        }
