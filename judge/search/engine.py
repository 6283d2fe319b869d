"""The search engine: the Whoosh index of record, queried by `judge search`, `judge serve`'s
workers and the library (the `judge.search.protocol.Index` they all use).

Owns `RuleIndex`, the open Whoosh indexes of a corpus (one per language, and the glossary's):
terms read from Whoosh's postings and scored by its BM25F, query words stemmed with the
Snowball stemmers (words of the query vocabulary only, `judge.search.tokens`), and what a hit
shows read from Whoosh's stored fields, so no rule graph is needed at query time. Opening:
`index_for(graph)` (a process that holds the graph) or `open_configured(config)` (`judge
search`: the knowledge base's `search` part names the index folder while none of its inputs
changed).
"""

from __future__ import annotations

import json
import threading
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whoosh import scoring

from judge.cache import cache_path, read_part, stamps, unchanged, write_kb
from judge.corpus.config import knowledge_base
from judge.corpus.lexicon import glossary
from judge.corpus.names import match_terms, name_key
from judge.normalize import fold
from judge.search.analysis import QUERY_STOP, stemmer, stop_words
from judge.search.export import POSITIONAL
from judge.search.fields import AUXILIARY, FIELD_BOOSTS, GLOSSARY
from judge.search.index import Indexes, open_folder, open_or_build, record_of
from judge.search.match import Postings
from judge.search.output import Card, Counterpart, GlossaryHit, SearchResult
from judge.search.query import Doc, search_understood_with, search_with
from judge.search.tokens import TOKEN_PATTERN, in_vocabulary, never_stemmed, unelide, unknown_stem
from judge.search.words import WORDS_FILE, read_words, real_words

if TYPE_CHECKING:
    from judge.corpus.graph import RuleGraph
    from judge.search.match import TermPostings

POINTER = "search"  # the knowledge base part that names the index folder


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
    """The open indexes of a corpus; share one across threads and requests."""

    def __init__(self, indexes: Indexes, record: dict[str, Any], notice: str | None = None,
                 folder: Path | None = None) -> None:
        self.edition_languages = {e: tuple(languages) for e, languages in record["editions"]}
        self.newest_edition: str = record["newest"]
        self._indexes = indexes
        self.languages = tuple(language for language in indexes if language not in AUXILIARY)
        self.glossary_terms = glossary()
        self.query_stop = QUERY_STOP
        self.corrections: dict[str, tuple[str, bool] | None] = {}
        self._local = threading.local()
        self._lock = threading.Lock()
        self._docs: dict[tuple[str, int], Doc] = {}
        self._stored: dict[tuple[str, int], dict[str, Any]] = {}
        self._editions: dict[tuple[str, str], frozenset[int]] = {}
        self._known: dict[str, bool] = {}
        self._name_words: frozenset[str] | None = None
        self._initials: dict[str, frozenset[str]] | None = None
        self._folder = folder  # the index's cache folder (None: built in memory)
        self._real: frozenset[str] | None = None
        self._entries: tuple[tuple[Any, ...], ...] | None = None
        self._notion_keys: tuple[frozenset[frozenset[str]], ...] | None = None
        self._postings = {language: Postings(FIELD_BOOSTS, read_term) for language in self.languages}
        # Said once, with the first result (`take_notice`): never as a Python warning line.
        self.notice = notice
        self._notice = notice

    def searcher(self, language: str) -> Any:
        """This thread's Whoosh searcher of one index (searchers are not shared across threads)."""
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

    def _base_word(self, word: str) -> bool:
        """A word of the indexed texts (any language's `exact` field) or of the FR↔EN glossary."""
        found = self._known.get(word)
        if found is None:
            found = word in self._terminology() or any(
                ("exact", word.encode("utf-8")) in self.searcher(language).reader() for language in self.languages)
            if len(self._known) < 1 << 16:
                self._known[word] = found
        return found

    def stem(self, language: str, word: str) -> str:
        if never_stemmed(word):
            return word
        if not in_vocabulary(word, self._base_word):
            return unknown_stem(word)
        return str(stemmer(language)(word))

    def exact_frequency(self, language: str, word: str) -> int:
        return int(self.searcher(language).reader().doc_frequency("exact", word))

    def within(self, language: str, word: str, distance: int) -> set[str]:
        # Asked of each segment's reader (Whoosh's Levenshtein automaton): a reader of several
        # segments answers with its own edit distance, which counts a transposition as one
        # edit, and a first run's index may have two segments (`judge.search.index`).
        reader = self.searcher(language).reader()
        return {term for leaf, _ in reader.leaf_readers()
                for term in leaf.terms_within("exact", word, distance, prefix=1)}

    def _fields(self, language: str, docnum: int) -> dict[str, Any]:
        key = (language, docnum)
        found = self._stored.get(key)
        if found is None:
            found = self._stored[key] = self.searcher(language).stored_fields(docnum)
        return found

    def doc(self, language: str, docnum: int) -> Doc | None:
        found = self._docs.get((language, docnum))
        if found is None:
            if not 0 <= docnum < self.searcher(language).doc_count_all():
                return None
            fields = self._fields(language, docnum)
            found = self._docs[(language, docnum)] = Doc(language, docnum, fields["edition"], fields["number"])
        return found

    def lookup(self, edition: str, language: str, number: str) -> Doc | None:
        if language not in self.languages:
            return None
        docnum = self.searcher(language).document_number(id=f"{edition}:{language}:{number}")
        return None if docnum is None else self.doc(language, docnum)

    def descendants(self, doc: Doc) -> tuple[Doc, ...]:
        found = (self.lookup(doc.edition, doc.language, n) for n in self._fields(doc.language, doc.docnum)["descendants"])
        return tuple(d for d in found if d is not None)

    def under(self, edition: str, language: str, number: str) -> tuple[Doc, ...]:
        if language not in self.languages:
            return ()
        numbers = self.searcher(language).reader().expand_prefix("number", number + ".")
        found = (self.lookup(edition, language, n.decode() if isinstance(n, bytes) else n) for n in numbers)
        return tuple(sorted((d for d in found if d is not None), key=lambda d: d.docnum))

    def edition_docs(self, language: str, edition: str) -> frozenset[int]:
        key = (language, edition)
        found = self._editions.get(key)
        if found is None:
            reader = self.searcher(language).reader()
            found = frozenset(reader.postings("edition", edition).all_ids()) if ("edition", edition.encode()) in reader \
                else frozenset()
            self._editions[key] = found
        return found

    def name_stems(self, doc: Doc) -> frozenset[str]:
        """The stems of a rule's name (title, or short text such as `Haste`), as stored."""
        return frozenset(self._fields(doc.language, doc.docnum)["names"])

    def card(self, doc: Doc) -> Card:
        title, status, context, other, removed_in, texts, french = self._fields(doc.language, doc.docnum)["card"]
        return Card(
            edition=doc.edition, language=doc.language, number=doc.number, title=title, status=status,
            context=context, removed_in=tuple(removed_in), texts=tuple(texts), french_name=french,
            counterpart=None if other is None else Counterpart(
                language=other[0], number=other[1], title=other[2], text=other[3]),
        )

    def glossary_hits(self, text: str, edition: str | None, limit: int) -> tuple[GlossaryHit, ...]:
        if self._entries is None:
            self._entries = tuple((f["edition"], f["language"], f["term"], f["text"], frozenset(f["key"]))
                                  for f in self.searcher(GLOSSARY).all_stored_fields())
        candidates = (((e, language, term, body), term, key)
                      for e, language, term, body, key in self._entries if edition is None or e == edition)
        return tuple(
            GlossaryHit(edition=e, language=language, term=term, text=body, found_by=via)
            for (e, language, term, body), via in match_terms(candidates, text,
                                                              notions=self._notions())[:limit])

    def terminology_words(self, initial: str) -> frozenset[str]:
        """The folded words of the terminology's names that begin with `initial`."""
        if self._initials is None:
            initials: dict[str, set[str]] = {}
            for word in self._terminology():
                initials.setdefault(word[:1], set()).add(word)
            self._initials = {c: frozenset(words) for c, words in initials.items()}
        return self._initials.get(initial, frozenset())

    def is_real_word(self, word: str) -> bool:
        """A real French or English word (`judge.search.words`)?"""
        if self._real is None:
            found = read_words(str(self._folder / WORDS_FILE)) if self._folder is not None else None
            self._real = found if found is not None else frozenset(real_words())
        return word in self._real

    def _terminology(self) -> frozenset[str]:
        """Every folded word of the terminology's names (elided articles dropped)."""
        if self._name_words is None:
            self._name_words = frozenset(w for term in self.glossary_terms for name in term.names()
                                         for m in TOKEN_PATTERN.finditer(name) if (w := unelide(fold(m.group(0)))[0]))
        return self._name_words

    def _notions(self) -> tuple[frozenset[frozenset[str]], ...]:
        """Each FR↔EN notion as the name keys of its names (`judge.corpus.glossary.notion_keys`,
        whose module needs the graph), made once (every search asks for them)."""
        if self._notion_keys is None:
            self._notion_keys = tuple(frozenset(name_key(n) for n in term.names()) for term in self.glossary_terms)
        return self._notion_keys

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
    from judge.search.export import index_name

    indexes, notice = open_or_build(graph)
    folder: Path | None = Path(cache_path(index_name(graph.editions)[0]))
    record = record_of(folder) if folder is not None else None
    if record is None:  # an index in memory (unwritable cache): its record from the graph
        from judge.search.index import _record

        record, folder = _record(graph), None
    return RuleIndex(indexes, record, notice, folder)


_open: weakref.WeakKeyDictionary[RuleGraph, RuleIndex] = weakref.WeakKeyDictionary()
_open_lock = threading.Lock()


def index_for(graph: RuleGraph) -> RuleIndex:
    """One open index per graph for the life of the process."""
    with _open_lock:
        index = _open.get(graph)
        if index is None:
            index = _open[graph] = open_index(graph)
        return index


def _pointed(kb: str) -> RuleIndex | None:
    """The index the knowledge base's pointer names, when none of its inputs changed since it
    was written."""
    found = read_part(kb, POINTER)
    if found is None or not unchanged(found[1]):
        return None
    try:
        name = json.loads(found[2])
    except (ValueError, RecursionError):
        return None
    if not isinstance(name, str) or not name.startswith("index-") or "/" in name:
        return None
    folder = Path(cache_path(name))
    indexes = open_folder(folder)
    record = record_of(folder)
    return None if indexes is None or record is None else RuleIndex(indexes, record, folder=folder)


def open_configured(config: str | None = None) -> RuleIndex:
    """The index of the corpus (the manifest plus the user's configuration `config`) from the
    cache, found through a pointer (the `search` part of the configuration's knowledge base:
    the index's folder and the stamps of every input of its key) while no input changed: no
    graph loaded. Otherwise the key is computed again; the graph is loaded only to build a
    missing index."""
    kb = knowledge_base(config)
    found = _pointed(kb)
    if found is not None:
        return found
    from judge.cache import code_inputs
    from judge.corpus.loader import corpus_inputs, load_editions
    from judge.resources import rules_dir
    from judge.search.abbreviations import WORDS_FILE
    from judge.search.export import index_name

    editions = load_editions(config)
    # Before reading them; the message abbreviations are in the key too (`index_name`).
    recorded = stamps((*code_inputs("corpus", "search"), *corpus_inputs(editions, config), rules_dir() / WORDS_FILE))
    name = index_name(editions)[0]
    folder = Path(cache_path(name))
    indexes, record, notice = open_folder(folder), record_of(folder), None
    pointer = [(POINTER, "", name, recorded, json.dumps(name))]
    if indexes is None or record is None:
        from judge.corpus.loader import load_graph

        index = open_index(load_graph(config))
        if record_of(folder) is not None:
            write_kb(kb, pointer)
        return index
    write_kb(kb, pointer)
    return RuleIndex(indexes, record, notice, folder)


def search(
    query: str, *, edition: str | None = None, limit: int = 10, graph: RuleGraph | None = None,
    lang: str | None = None, config: str | None = None,
) -> SearchResult:
    """Search the rules of `graph`, or of the corpus of the configuration `config` (default:
    the embedded corpus plus the user's configuration file)."""
    index = index_for(graph) if graph is not None else open_configured(config)
    return search_with(index, query, edition=edition, limit=limit, lang=lang)


def search_understood(
    notions: tuple[str, ...], question: str, *, edition: str | None = None, limit: int = 10,
    graph: RuleGraph | None = None, lang: str | None = None, config: str | None = None,
) -> SearchResult:
    """The search `judge ask` offers when it declines: the rules ranked from the notions it
    recognised in `question` (names of the FR↔EN terminology or words of the rules) and the
    relation the question asks, not from its raw words
    (`judge.search.query.search_understood_with`); on the rules of `graph` or of the
    configuration `config`, as `search`."""
    index = index_for(graph) if graph is not None else open_configured(config)
    return search_understood_with(index, tuple(notions), question, edition=edition, limit=limit, lang=lang)
