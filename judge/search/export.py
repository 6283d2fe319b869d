"""The exported search index: everything the static book's search needs, derived from the
Whoosh index of record.

Made from an index when first asked for (`judge.search.index.export_of`: `judge build` and
`judge serve`, never `judge search`) and kept as JSON in the `export` part of the knowledge
base (`judge.cache.write_kb`, `Stored`); written in `search-index.js` for the static book's
`templates/search.js`. No Whoosh import here: the open indexes are given.

Shape (lists and dicts of strings and numbers; `F` = the fields of `FIELDS`):
- `format`, `key` (the index's cache name), `bm25` {`K1`, `B`}, `boosts` [[field, boost]] of
  the ranked fields (`judge.search.fields`), `query_stop` (the query's stop words), `glossary`
  [[English names], [French names]] (the FR↔EN glossary) and `notions` (the name keys of each
  of its notions), `abbreviations` {form: words} (the message abbreviations a query spells
  out, `judge.search.abbreviations`), `relations` [[[question words…]…], [rules], [words]] (the relations a
  question asks, `judge.search.query.relations_of`), `entries` [[edition, language, term, text, term key]] (the Comprehensive
  Rules glossaries, `judge.corpus.glossary`), `small_words` (the words a name key leaves out,
  `judge.corpus.names`), `editions` [[id, [languages]]] and `newest`
  (the latest edition's id), `elisions` and `protected` (`judge.search.tokens`);
- `languages` {language: {`stop`, `count`, `docs` [[edition, number]] by document number
  (rule order), `cards` [[title, status, context, counterpart [language, number, title,
  text] or null, removed_in, texts]], `names` [stems of the rule's name], `descendants`
  [document numbers], `lengths` {F: [field length per document, as Whoosh stores it]},
  `average` {F: average field length}, `terms` {F: {term: [idf, [documents], [term
  frequencies], ([positions per document] for `exact` and `heading`)]}}, `stems` {word:
  stem, or the length of the word's prefix that is its stem}}}: `stems` holds every word of
  the query vocabulary (`judge.search.tokens.query_vocabulary`) whose stem the language's
  index holds.

A term scores BM25F as Whoosh does: idf × tf (K1 + 1) / (tf + K1 ((1 − B) + B fl / avgfl)).
"""

from __future__ import annotations

from dataclasses import dataclass

# Reading an export needs none of the graph, the glossary or the model: the builder's
# (`index_name`, `build_export`) imports are theirs, so that a warm `judge search` loads none.
from typing import TYPE_CHECKING

from judge.search.fields import AUXILIARY, FIELD_BOOSTS

if TYPE_CHECKING:
    from typing import Any

    from judge.corpus.documents import Edition
    from judge.corpus.graph import RuleGraph

EXPORT_FORMAT = 2
EXPORT_PART = "export"  # its part of the knowledge base, named by the index
SCHEMA_VERSION = 4
FIELDS = (*FIELD_BOOSTS, "exact", "heading")
POSITIONAL = ("exact", "heading")  # the fields whose postings keep positions (phrases)
K1 = 1.2  # Whoosh's BM25F defaults, the weighting of the index of record
B = 0.75

_names: dict[tuple[Edition, ...], tuple[str, str]] = {}


def index_name(editions: tuple[Edition, ...]) -> tuple[str, str]:
    """(`index-<config>-<key>`, `index-<config>-`): the index's cache folder and its
    stale-sibling prefix. The key covers the corpus, the FR↔EN terminology and the message
    abbreviations (`rules/ask-words.toml`: the export and the engine read them) and every module of `judge.search`."""
    found = _names.get(editions)
    if found is None:
        from judge.cache import code_digest
        from judge.corpus.lexicon import GLOSSARY_NAME
        from judge.corpus.loader import corpus_key
        from judge.resources import rules_dir
        from judge.search.abbreviations import WORDS_FILE

        hashed = code_digest("search")
        hashed.update(f"{corpus_key(editions)} schema {SCHEMA_VERSION}\n".encode())
        hashed.update((rules_dir() / GLOSSARY_NAME).read_bytes())
        hashed.update((rules_dir() / WORDS_FILE).read_bytes())
        config = code_digest()
        config.update(repr([(e.id, [(t.language, t.files) for t in e.texts]) for e in editions]).encode())
        prefix = f"index-{config.hexdigest()[:8]}-"
        found = _names[editions] = (prefix + hashed.hexdigest()[:24], prefix)
    return found


@dataclass(frozen=True, slots=True)
class Stored:
    """An export as stored: its JSON text, decoded when read (`unpack`)."""

    text: str


def unpack(stored: Stored) -> dict[str, Any]:
    """The export as `build_export` made it (arrays as lists), from its stored form (a
    CacheError when it is not one: `judge.search.index.export_data` makes it again)."""
    import json

    try:
        data = json.loads(stored.text)
    except (ValueError, RecursionError):  # not what `build_export` wrote
        data = None
    if not (isinstance(data, dict) and data.get("format") == EXPORT_FORMAT):
        from judge.errors import CacheError

        raise CacheError(EXPORT_PART)
    return data


def _stem_entry(word: str, stem: str) -> str | int:
    """A stem that starts its word is written as its length (a third of the size)."""
    return len(stem) if word.startswith(stem) else stem


def build_export(graph: RuleGraph, indexes: dict[str, Any], name: str) -> dict[str, Any]:
    """The export of a graph's open Whoosh indexes (`judge.search.index`), named `name`."""
    from judge.corpus.glossary import entries, notion_keys
    from judge.corpus.lexicon import glossary
    from judge.corpus.names import SMALL_WORDS, term_key
    from judge.search.analysis import QUERY_STOP, analyze_terms, stemmer, stop_words
    from judge.search.output import card_of
    from judge.search.query import relations_of, spelling
    from judge.search.tokens import ELISIONS, PROTECTED, never_stemmed, query_vocabulary
    from judge.search.words import real_words

    terms = glossary()
    searchers = {language: ix.searcher() for language, ix in indexes.items() if language not in AUXILIARY}
    try:
        words = [t for s in searchers.values() for t in s.reader().field_terms("exact")]
        vocabulary = sorted(query_vocabulary(words, [n for term in terms for n in term.names()]))
        languages = {}
        for language, searcher in searchers.items():
            reader = searcher.reader()
            count = searcher.doc_count_all()
            stored = list(searcher.all_stored_fields())
            rules = [graph.require(f["edition"], f["number"], f["language"]) for f in stored]
            docnum = {(r.edition, r.number): n for n, r in enumerate(rules)}
            ranked: set[str] = set()
            postings: dict[str, dict[str, list[Any]]] = {}
            for field in FIELDS:
                postings[field] = {}
                for term in reader.field_terms(field):
                    matcher = reader.postings(field, term)
                    docs, tfs, positions = [], [], []
                    while matcher.is_active():
                        docs.append(matcher.id())
                        tfs.append(matcher.weight())
                        if field in POSITIONAL:
                            positions.append(tuple(matcher.value_as("positions")))  # as read
                        matcher.next()
                    entry = [searcher.idf(field, term), docs, tfs]
                    if field in POSITIONAL:
                        entry.append(positions)
                    postings[field][term] = entry
                    if field in FIELD_BOOSTS:
                        ranked.add(term)
            stem_of = stemmer(language)
            stems = {w: _stem_entry(w, s) for w in vocabulary
                     if not never_stemmed(w) and (s := str(stem_of(w))) in ranked}
            cards = []
            for rule in rules:
                card = card_of(graph, rule)
                other = card.counterpart
                cards.append([card.title, card.status, card.context,
                              None if other is None else [other.language, other.number, other.title, other.text],
                              list(card.removed_in), list(card.texts), card.french_name])
            languages[language] = {
                "stop": sorted(stop_words(language)),
                "count": count,
                "docs": [[r.edition, r.number] for r in rules],
                "cards": cards,
                "names": [sorted(set(analyze_terms(r.heading or "", language))) for r in rules],
                "descendants": [[docnum[(d.edition, d.number)] for d in graph.descendants(r)] for r in rules],
                "lengths": {f: [searcher.doc_field_length(n, f, 1) for n in range(count)] for f in FIELDS},
                "average": {f: searcher.avg_field_length(f) or 1 for f in FIELDS},
                "terms": postings,
                "stems": stems,
            }
    finally:
        for searcher in searchers.values():
            searcher.close()
    return {
        "format": EXPORT_FORMAT,
        "key": name,
        "bm25": {"K1": K1, "B": B},
        "boosts": [[field, boost] for field, boost in FIELD_BOOSTS.items()],
        "query_stop": sorted(QUERY_STOP),
        "glossary": [[list(term.en), list(term.fr), list(term.rules), term.variant] for term in terms],
        "abbreviations": spelling(terms),
        "relations": [[[list(words) for words in asks], list(rules), list(says)]
                      for asks, rules, says in relations_of(terms)],
        "real_words": real_words(),
        "entries": [[e, lang, entry.term, entry.text, sorted(term_key(entry.term))] for e, lang, entry in entries(graph)],
        "notions": [sorted(sorted(key) for key in notion) for notion in notion_keys(terms)],
        "small_words": sorted(SMALL_WORDS),
        "editions": [[e.id, list(e.languages)] for e in graph.editions],
        "newest": graph.newest_edition,
        "elisions": sorted(ELISIONS),
        "protected": sorted(PROTECTED),
        "languages": languages,
    }
