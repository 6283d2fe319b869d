"""The Comprehensive Rules glossary as part of the graph: entries by edition, found by term.

Each English text of a release ends with its glossary (`First Strike`, `Mana Burn`…), parsed
into `GlossaryEntry`s; their citations resolve inside the release like a rule's. A term is
found by its own words (case, accents and plurals aside: `first strikes`), through the FR↔EN
glossary of game terms (« initiative » → "First Strike", `judge.corpus.lexicon`), or, failing
both, by every word of the query appearing in the term.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from judge.corpus.documents import GlossaryEntry, Reference
from judge.corpus.graph import ResolvedReference, RuleGraph
from judge.corpus.lexicon import GlossaryTerm
from judge.corpus.lexicon import glossary as lexicon
from judge.corpus.names import match_terms, name_key, term_key

Via = Literal["term", "lexicon", "words"]


@dataclass(frozen=True, slots=True, kw_only=True)
class GlossaryMatch:
    """A glossary entry of one edition and language, and how the query found it."""

    edition: str
    language: str
    entry: GlossaryEntry
    via: Via


def entries(graph: RuleGraph, edition: str | None = None) -> tuple[tuple[str, str, GlossaryEntry], ...]:
    """(edition, language, entry) of every glossary of the graph, in manifest order."""
    out: list[tuple[str, str, GlossaryEntry]] = []
    for e in graph.editions:
        if edition is not None and e.id != edition:
            continue
        for language in e.languages:
            out.extend((e.id, language, entry) for entry in graph.glossary(e.id, language))
    return tuple(out)


def notion_keys(terms: tuple[GlossaryTerm, ...]) -> tuple[frozenset[frozenset[str]], ...]:
    """Each FR↔EN notion as the name keys of all its names."""
    return tuple(frozenset(name_key(n) for n in term.names()) for term in terms)


def find(graph: RuleGraph, query: str, edition: str | None = None, *, limit: int | None = None) -> tuple[GlossaryMatch, ...]:
    """The glossary entries a query names, best first (its own words, then a translation,
    then entries whose term holds every word of the query)."""
    return find_among(((e, lang, entry, term_key(entry.term)) for e, lang, entry in entries(graph, edition)),
                      query, limit=limit, notions=notion_keys(lexicon()))


def find_among(candidates: Iterable[tuple[str, str, GlossaryEntry, frozenset[str]]], query: str, *,
               limit: int | None, notions: Iterable[frozenset[frozenset[str]]]) -> tuple[GlossaryMatch, ...]:
    """`find` over given (edition, language, entry, its `term_key`) candidates and FR↔EN
    notions (`notion_keys`): `judge.corpus.names.match_terms` on entries."""
    found = match_terms((((e, lang, entry), entry.term, key) for e, lang, entry, key in candidates),
                        query, notions=notions)
    return tuple(GlossaryMatch(edition=e, language=lang, entry=entry, via=via)
                 for (e, lang, entry), via in (found[:limit] if limit is not None else found))


def references(graph: RuleGraph, edition: str, language: str, entry: GlossaryEntry) -> tuple[ResolvedReference, ...]:
    """The entry's citations, resolved inside its edition (its language first)."""
    return tuple(
        ResolvedReference(reference=s, target=graph.resolve_in(edition, language, s.number))
        for s in entry.segments if isinstance(s, Reference)
    )
