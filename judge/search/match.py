"""Matching and BM25F scoring of a composed query over postings read once from the index.

Owns the query tree (`Clause`, `Or`, `And`, `Phrase`) and `Postings`, the per-term cache of
an open index: each (field, term) is read once (BM25F score per document, and positions for
phrase fields) from Whoosh, then every query runs on plain dicts.
Building the tree from a query is `judge.search.query`'s job.

Semantics, as Whoosh's: a term scores its BM25F weight in a field; `Or` sums the scores of
the children that match a document, `And` requires them all and sums them; a boost
multiplies the node's score; `Phrase` (Whoosh's `Phrase`: an ordered `SpanNear2`, each word
at most `slop` positions after the previous one) scores the sum of its words' weights.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    Scores = Mapping[int, float]
    TermPostings = tuple[dict[int, float], dict[int, tuple[int, ...]]]
    # How an index gives one term of one field: (BM25F score, positions) per document, or
    # None when the field has no such term. `source` is what the reader needs (a Whoosh
    # searcher).
    ReadTerm = Callable[[Any, str, str], TermPostings | None]

_EMPTY: dict[int, float] = {}
_NONE: tuple[dict[int, float], dict[int, tuple[int, ...]]] = ({}, {})


@dataclass(frozen=True, slots=True)
class Clause:
    """One term (a stem, a number) in every ranked field, each with its field boost."""

    text: str
    boost: float = 1.0


@dataclass(frozen=True, slots=True)
class Or:
    """Any of `children`: a document scores the sum of those it matches."""

    children: tuple[Node, ...]
    boost: float = 1.0


@dataclass(frozen=True, slots=True)
class And:
    """All of `children`: a document matches only if it matches each."""

    children: tuple[Node, ...]
    boost: float = 1.0


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words of one positional field, in order, each within `slop` positions of the previous."""

    field: str
    words: tuple[str, ...]
    slop: int = 1
    boost: float = 1.0


Node = Clause | Or | And | Phrase


def _boosted(scores: Scores, boost: float) -> Scores:
    return scores if boost == 1.0 else {doc: score * boost for doc, score in scores.items()}


def _phrase_at(positions: list[tuple[int, ...]], slop: int) -> bool:
    """Whoosh's `SpanNear2._get_spans` (ordered, mindist 1) for one document: any match?"""
    spans = {(p, p) for p in positions[0]}
    for following in positions[1:]:
        joined: set[tuple[int, int]] = set()
        for start, end in spans:
            for pos in following[bisect_left(following, start):]:
                if pos > end + slop:
                    break
                if 1 <= (0 if pos <= end else pos - end) <= slop:
                    joined.add((start, max(end, pos)))
        if not joined:
            return False
        spans = joined
    return True



class Postings:
    """What the queries need from an open index, read lazily once per term (thread-safe:
    a term read twice by two threads gives the same entry), by `read` (`judge.search.engine`)."""

    def __init__(self, fields: Mapping[str, float], read: ReadTerm) -> None:
        self.fields = dict(fields)  # ranked field -> query-time boost
        self._read = read
        self._terms: dict[tuple[str, str], TermPostings] = {}
        self._clauses: dict[str, dict[int, float]] = {}

    def term(self, source: Any, field: str, text: str) -> TermPostings:
        """(BM25F score, positions) per document of one term of one field.

        Only terms of the index are remembered: the cache is bounded by its vocabulary."""
        key = (field, text)
        found = self._terms.get(key)
        if found is None:
            read = self._read(source, field, text)
            if read is None:
                return _NONE
            found = self._terms[key] = read
        return found

    def clause(self, searcher: Any, text: str) -> dict[int, float]:
        """A term over every ranked field: the boosted sum of its field scores."""
        found = self._clauses.get(text)
        if found is None:
            found = {}
            for field, boost in self.fields.items():
                for doc, score in self.term(searcher, field, text)[0].items():
                    found[doc] = found.get(doc, 0.0) + score * boost
            if found:  # an unknown term is not remembered (see `term`)
                self._clauses[text] = found
        return found

    def evaluate(self, searcher: Any, node: Node) -> Scores:
        """The score of every document the node matches."""
        if isinstance(node, Clause):
            return _boosted(self.clause(searcher, node.text), node.boost)
        if isinstance(node, Phrase):
            return self._phrase(searcher, node)
        parts = [self.evaluate(searcher, child) for child in node.children]
        if len(parts) == 1:
            return parts[0]  # Whoosh drops the boost of a one-child Or/And; so do we
        if isinstance(node, Or):
            merged = dict(parts[0])
            for part in parts[1:]:
                for doc, score in part.items():
                    merged[doc] = merged.get(doc, 0.0) + score
            return _boosted(merged, node.boost)
        smallest = min(parts, key=len)
        both = {}
        for doc in smallest:
            if all(doc in part for part in parts):
                both[doc] = sum(part[doc] for part in parts)
        return _boosted(both, node.boost)

    def _phrase(self, searcher: Any, node: Phrase) -> Scores:
        terms = [self.term(searcher, node.field, word) for word in node.words]
        if not terms or not all(scores for scores, _ in terms):
            return _EMPTY
        smallest = min((scores for scores, _ in terms), key=len)
        found = {}
        for doc in smallest:
            if all(doc in scores for scores, _ in terms) and _phrase_at(
                [positions[doc] for _, positions in terms], node.slop
            ):
                found[doc] = sum(scores[doc] for scores, _ in terms) * node.boost
        return found

    def top(self, scores: Scores, limit: int, allowed: frozenset[int] | None = None) -> list[tuple[int, float]]:
        """The `limit` best (document, score), best first, lower document (rule order) first on ties."""
        items = scores.items() if allowed is None else ((d, s) for d, s in scores.items() if d in allowed)
        return [(doc, score) for doc, score in heapq.nsmallest(limit, items, key=lambda i: (-i[1], i[0]))]
