"""Search on the Whoosh index of record: the `judge.search.protocol.Index` that `judge serve` uses.

Owns `RuleIndex`, the open Whoosh indexes of a graph (one per language) with the graph itself
for what a hit shows, shared by every thread of the server, and `search()` on the embedded
corpus. Terms are read from Whoosh's postings and scored by its BM25F; query words become stems
with the Snowball stemmers, for the words of the query vocabulary only (as the exported index
does: `judge.search.tokens`). `judge search` uses the export instead (`judge.search.light`);
the two give the same results (tests/search/test_parity.py).
"""

from __future__ import annotations

import threading
import weakref
from typing import TYPE_CHECKING, Any

from whoosh import scoring

from judge.corpus.documents import Rule
from judge.corpus.glossary import find as find_glossary
from judge.corpus.graph import RuleGraph
from judge.corpus.lexicon import glossary
from judge.search.analysis import STOP_WORDS, analyze_terms, stemmer, stop_words
from judge.search.export import POSITIONAL
from judge.search.fields import FIELD_BOOSTS
from judge.search.index import Indexes, open_or_build
from judge.search.match import Postings
from judge.search.output import Card, GlossaryHit, SearchResult, card_of
from judge.search.query import Doc, search_with
from judge.search.tokens import never_stemmed, query_vocabulary, unknown_stem

if TYPE_CHECKING:
    from judge.search.match import TermPostings


def read_term(searcher: Any, field: str, text: str) -> TermPostings | None:
    """One term of one field from Whoosh: BM25F score (and positions) per document."""
    btext = text.encode("utf-8")
    reader = searcher.reader()
    if (field, btext) not in reader:
        return None
    scores: dict[int, float] = {}
    positions: dict[int, tuple[int, ...]] = {}
    matcher = searcher.postings(field, btext, weighting=searcher.weighting)
    with_positions = field in POSITIONAL
    deleted = reader.has_deletions()
    while matcher.is_active():
        doc = matcher.id()
        if not (deleted and reader.is_deleted(doc)):
            scores[doc] = matcher.score()
            if with_positions:
                positions[doc] = tuple(matcher.value_as("positions"))
        matcher.next()
    return scores, positions


class RuleIndex:
    """The open indexes of a graph (one per language); share one across threads and requests."""

    def __init__(self, graph: RuleGraph, indexes: Indexes, notice: str | None = None) -> None:
        self.graph = graph
        self.edition_languages = {e.id: e.languages for e in graph.editions}
        self.newest_edition = graph.newest_edition
        self._indexes = indexes
        self.languages = tuple(indexes)
        self.glossary_terms = glossary()
        self.query_stop = STOP_WORDS
        self.corrections: dict[str, str | None] = {}
        self._local = threading.local()
        self._lock = threading.Lock()
        self._notice = notice
        self._names: dict[tuple[str, int], frozenset[str]] = {}
        self._docs: dict[str, tuple[Doc, ...]] = {}
        self._by_key: dict[tuple[str, str, str], Doc] = {}
        self._vocabulary: frozenset[str] | None = None
        self._postings = {language: Postings(FIELD_BOOSTS, read_term) for language in indexes}
        # Said once, with the first result (`take_notice`): never as a Python warning line.
        self.notice = notice

    def searcher(self, language: str) -> Any:
        """This thread's Whoosh searcher of one language (searchers are not shared across threads)."""
        searchers: dict[str, Any] | None = getattr(self._local, "searchers", None)
        if searchers is None:
            searchers = self._local.searchers = {}
        searcher = searchers.get(language)
        if searcher is None:
            searcher = searchers[language] = self._indexes[language].searcher(weighting=scoring.BM25F())
        return searcher

    source = searcher

    def postings(self, language: str) -> Postings:
        """The term cache of one language's index."""
        return self._postings[language]

    def stop(self, language: str) -> frozenset[str]:
        return stop_words(language)

    def vocabulary(self) -> frozenset[str]:
        """The query vocabulary: every word of the indexed texts (the `exact` field of each
        language) and of the FR↔EN glossary, with their inflections."""
        if self._vocabulary is None:
            words = [term for language in self.languages
                     for term in self.searcher(language).reader().field_terms("exact")]
            names = [name for term in self.glossary_terms for name in term.names()]
            self._vocabulary = query_vocabulary(words, names)
        return self._vocabulary

    def stem(self, language: str, word: str) -> str:
        if never_stemmed(word):
            return word
        if word not in self.vocabulary():
            return unknown_stem(word)
        return str(stemmer(language)(word))

    def exact_frequency(self, language: str, word: str) -> int:
        return int(self.searcher(language).reader().doc_frequency("exact", word))

    def within(self, language: str, word: str, distance: int) -> set[str]:
        return set(self.searcher(language).reader().terms_within("exact", word, distance, prefix=1))

    def _documents(self, language: str) -> tuple[Doc, ...]:
        """Every document of one language's index, by document number (read once)."""
        with self._lock:
            found = self._docs.get(language)
            if found is None:
                found = self._docs[language] = tuple(
                    Doc(language, n, fields["edition"], fields["number"])
                    for n, fields in enumerate(self.searcher(language).all_stored_fields()))
                self._by_key.update(((d.edition, d.language, d.number), d) for d in found)
            return found

    def doc(self, language: str, docnum: int) -> Doc | None:
        docs = self._documents(language)
        return docs[docnum] if 0 <= docnum < len(docs) else None

    def _doc_of(self, rule: Rule) -> Doc:
        self._documents(rule.language)
        return self._by_key[(rule.edition, rule.language, rule.number)]

    def _rule(self, doc: Doc) -> Rule:
        return self.graph.require(doc.edition, doc.number, doc.language)

    def lookup(self, edition: str, language: str, number: str) -> Doc | None:
        rule = self.graph.get(edition, number, language)
        return None if rule is None else self._doc_of(rule)

    def descendants(self, doc: Doc) -> tuple[Doc, ...]:
        return tuple(self._doc_of(rule) for rule in self.graph.descendants(self._rule(doc)))

    def under(self, edition: str, language: str, number: str) -> tuple[Doc, ...]:
        return tuple(self._doc_of(r) for r in self.graph.rules(edition, language) if r.number.startswith(number + "."))

    def edition_docs(self, language: str, edition: str) -> frozenset[int]:
        return frozenset(d.docnum for d in self._documents(language) if d.edition == edition)

    def name_stems(self, doc: Doc) -> frozenset[str]:
        """The stems of a rule's name (title, or short text such as `Haste`); cached."""
        key = (doc.language, doc.docnum)
        found = self._names.get(key)
        if found is None:
            found = self._names[key] = frozenset(analyze_terms(self._rule(doc).heading or "", doc.language))
        return found

    def card(self, doc: Doc) -> Card:
        return card_of(self.graph, self._rule(doc))

    def glossary_hits(self, text: str, edition: str | None, limit: int) -> tuple[GlossaryHit, ...]:
        return tuple(
            GlossaryHit(edition=m.edition, language=m.language, term=m.entry.term, text=m.entry.text, found_by=m.via)
            for m in find_glossary(self.graph, text, edition, limit=limit))

    def take_notice(self) -> str | None:
        """The rebuild notice, once: the first result after a rebuild says so."""
        with self._lock:
            notice, self._notice = self._notice, None
        return notice

    def search(self, query: str, *, edition: str | None = None, limit: int = 10,
               lang: str | None = None) -> SearchResult:
        return search_with(self, query, edition=edition, limit=limit, lang=lang)


def open_index(graph: RuleGraph) -> RuleIndex:
    """The graph's index from the cache, built (or rebuilt, saying so once) when needed."""
    indexes, notice = open_or_build(graph)
    return RuleIndex(graph, indexes, notice)


_open: weakref.WeakKeyDictionary[RuleGraph, RuleIndex] = weakref.WeakKeyDictionary()
_open_lock = threading.Lock()


def index_for(graph: RuleGraph) -> RuleIndex:
    """One open index per graph for the life of the process."""
    with _open_lock:
        index = _open.get(graph)
        if index is None:
            index = _open[graph] = open_index(graph)
        return index


def search(
    query: str, *, edition: str | None = None, limit: int = 10, graph: RuleGraph | None = None,
    lang: str | None = None,
) -> SearchResult:
    """Search the rules of `graph` (default: the embedded corpus plus user configuration)."""
    if graph is None:
        from judge.corpus.loader import load_graph

        graph = load_graph()
    return search_with(index_for(graph), query, edition=edition, limit=limit, lang=lang)
