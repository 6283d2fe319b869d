"""The exported search index: everything the static book's search needs, derived from the
Whoosh index of record.

Made once per index, when `judge.search.index` builds it, and kept in its cache folder as
`export.marshal` (`pack`, `Stored`); cut into chunks of JSON under `search/` for the static
book's `templates/search.js` (`judge.site.offline_index`). No Whoosh import here: the open indexes are given.

Shape (lists and dicts of strings and numbers; `F` = the fields of `FIELDS`):
- `format`, `key` (the index's cache name), `bm25` {`K1`, `B`}, `boosts` [[field, boost]] of
  the ranked fields (`judge.search.fields`), `query_stop` (the query's stop words), `glossary`
  [[English names], [French names]] (the FR↔EN glossary) and `notions` (the name keys of each
  of its notions), `entries` [[edition, language, term, text, term key]] (the Comprehensive
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

import marshal
import os
import weakref
from bisect import bisect_right

# Reading an export needs none of the graph, the glossary or the model: the builder's
# (`index_name`, `build_export`) imports are theirs, so that a warm `judge search` loads none.
from typing import TYPE_CHECKING

from judge.cache import discard, open_trusted, trusted, write_atomic
from judge.errors import CacheError
from judge.search.fields import AUXILIARY, FIELD_BOOSTS

if TYPE_CHECKING:
    from typing import IO, Any

    from judge.cache import StrPath
    from judge.corpus.documents import Edition
    from judge.corpus.graph import RuleGraph

EXPORT_FORMAT = 3
EXPORT_FILE = "export.marshal"
MAGIC = b"judge search export\n"
SCHEMA_VERSION = 4
FIELDS = (*FIELD_BOOSTS, "exact", "heading")
POSITIONAL = ("exact", "heading")  # the fields whose postings keep positions (phrases)
K1 = 1.2  # Whoosh's BM25F defaults, the weighting of the index of record
B = 0.75

_names: dict[tuple[Edition, ...], tuple[str, str]] = {}


def index_name(editions: tuple[Edition, ...]) -> tuple[str, str]:
    """(`index-<config>-<key>`, `index-<config>-`): the index's cache folder and its
    stale-sibling prefix. The key covers the corpus, the FR↔EN terminology (the export and
    the engine read it from the index) and every module of `judge.search`."""
    found = _names.get(editions)
    if found is None:
        from judge.cache import code_digest
        from judge.corpus.lexicon import GLOSSARY_NAME
        from judge.corpus.loader import corpus_key
        from judge.resources import rules_dir

        hashed = code_digest("search")
        hashed.update(f"{corpus_key(editions)} schema {SCHEMA_VERSION}\n".encode())
        hashed.update((rules_dir() / GLOSSARY_NAME).read_bytes())
        config = code_digest()
        config.update(repr([(e.id, [(t.language, t.files) for t in e.texts]) for e in editions]).encode())
        prefix = f"index-{config.hexdigest()[:8]}-"
        found = _names[editions] = (prefix + hashed.hexdigest()[:24], prefix)
    return found


class Stored:
    """An export as stored (`pack`): its head — the small data, decoded — and its body, the
    byte strings of the big parts, decoded only when read (`part`): a query reads a few
    terms and cards of several thousand. The body is in memory (`unpacked`) or read from
    the open file part by part (`read_export`: the file is closed with its `Stored`)."""

    __slots__ = ("__weakref__", "_base", "_body", "_file", "head")

    def __init__(self, head: dict[str, Any], body: memoryview | None = None, *,
                 file: IO[bytes] | None = None, base: int = 0) -> None:
        self.head = head
        self._body = body
        self._file = file
        self._base = base
        if file is not None:
            weakref.finalize(self, file.close)

    def part(self, ref: tuple[int, int]) -> bytes | memoryview:
        """The bytes at (offset, length) of the body."""
        start, size = ref
        if self._body is not None:
            return self._body[start:start + size]
        assert self._file is not None
        try:
            data = os.pread(self._file.fileno(), size, self._base + start)
        except OSError:
            data = b""
        if len(data) != size:  # the file was cut short while open (never by judge: it renames)
            raise self._corrupt()
        return data

    def load(self, ref: tuple[int, int]) -> Any:
        """The marshalled value at (offset, length) of the body."""
        try:
            return marshal.loads(self.part(ref))
        except (EOFError, ValueError, TypeError):
            raise self._corrupt() from None

    @property
    def from_file(self) -> bool:
        """Read from its file in the cache (not made in memory)."""
        return self._file is not None

    def _corrupt(self) -> CacheError:
        """A part that does not read back: the stored file is removed (rebuilt with its index)."""
        if self._file is None:
            return CacheError(EXPORT_FILE)
        discard(self._file.name)
        return CacheError(self._file.name)


def _offsets(blobs: list[bytes]) -> bytes:
    """Where each of `blobs`, laid end to end, begins, and where the last one ends: unsigned
    32-bit integers in the machine's order (read back with `memoryview.cast("I")`)."""
    from array import array  # the builder's: a reader casts a memoryview

    out, at = array("I", [0]), 0
    for blob in blobs:
        at += len(blob)
        out.append(at)
    return out.tobytes()


def pack(data: dict[str, Any]) -> bytes:
    """The export as stored in the cache (`Stored`): a head of small data (marshal), then a
    body of the big parts laid end to end, each named in the head by (offset, length).

    Per language, the head holds the documents (runs of one edition: [edition, first
    document]; their numbers, one per line), the stop words,
    the field averages, each field's terms (sorted, one per line: found by bisection) with
    the offsets of their entries in one body part, the cards' offsets and the lexicon's
    words (sorted, one per line); the body holds each field's entries, the cards, the
    lexicon's stems, names, descendants and field lengths, each marshalled apart, the
    glossaries' entries and the real words. Loading the head creates a few dozen objects
    instead of tens of thousands."""
    body = bytearray()

    def put(blob: bytes) -> tuple[int, int]:
        ref = (len(body), len(blob))
        body.extend(blob)
        return ref

    def table(values: list[Any]) -> tuple[bytes, tuple[int, int]]:
        blobs = [marshal.dumps(value) for value in values]
        return _offsets(blobs), put(b"".join(blobs))

    languages = {}
    for language, part in data["languages"].items():
        terms = {}
        for field, entries in part["terms"].items():
            words = sorted(entries)
            terms[field] = ("\n".join(words), *table([entries[w] for w in words]))
        stems = sorted(part["stems"].items())
        languages[language] = {
            "stop": part["stop"], "count": part["count"], "average": part["average"],
            "docs": (_runs([edition for edition, _ in part["docs"]]), "\n".join(n for _, n in part["docs"])),
            "cards": table(part["cards"]),
            "names": put(marshal.dumps(part["names"])),
            "descendants": put(marshal.dumps(part["descendants"])),
            "lengths": {f: put(marshal.dumps(lengths)) for f, lengths in part["lengths"].items()},
            "terms": terms,
            "stems": ("\n".join(w for w, _ in stems), put(marshal.dumps([stem for _, stem in stems]))),
        }
    head = {**data, "entries": put(marshal.dumps(data["entries"])),
            "real_words": put(marshal.dumps(data["real_words"])), "languages": languages, "body": len(body)}
    packed = marshal.dumps(head)
    return MAGIC + len(packed).to_bytes(8, "little") + packed + bytes(body)


def _head(data: bytes, size: int) -> dict[str, Any] | None:
    """The head of an export (its marshalled bytes, `size` the size of the whole file), or
    None when it is not one of this format."""
    try:
        head = marshal.loads(data)  # plain data: loading it calls no function
    except (EOFError, ValueError, TypeError):
        return None
    if not (isinstance(head, dict) and head.get("format") == EXPORT_FORMAT and isinstance(head.get("languages"), dict)
            and head.get("body") == size - len(MAGIC) - 8 - len(data)):
        return None
    return head


def unpacked(data: bytes) -> Stored | None:
    """The `Stored` export in `data` (`pack`), or None when it is not one of this format
    (another format, cut short, not marshal)."""
    if not data.startswith(MAGIC):
        return None
    base = len(MAGIC) + 8
    size = int.from_bytes(data[len(MAGIC):base], "little")
    head = _head(data[base:base + size], len(data))
    return None if head is None else Stored(head, memoryview(data)[base + size:])


def _runs(editions: list[str]) -> list[list[Any]]:
    """[edition, first document number] of each run of documents of one edition."""
    out: list[list[Any]] = []
    for docnum, edition in enumerate(editions):
        if not out or out[-1][0] != edition:
            out.append([edition, docnum])
    return out


def _documents(runs: list[list[Any]], numbers: str) -> list[list[str]]:
    """[edition, number] by document number, from the stored runs and numbers."""
    starts = [start for _, start in runs]
    return [[runs[bisect_right(starts, i) - 1][0], n] for i, n in enumerate(_words(numbers))]


def _words(lines: str) -> list[str]:
    return lines.split("\n") if lines else []


def unpack(stored: Stored) -> dict[str, Any]:
    """The export as `build_export` made it, from its stored form (`pack`)."""

    def table(offsets: bytes, ref: tuple[int, int]) -> list[Any]:
        at, blob = memoryview(offsets).cast("I"), stored.part(ref)
        return [marshal.loads(blob[at[i]:at[i + 1]]) for i in range(len(at) - 1)]

    languages = {}
    for language, part in stored.head["languages"].items():
        words = _words(part["stems"][0])
        languages[language] = {
            "stop": part["stop"], "count": part["count"],
            "docs": _documents(*part["docs"]),
            "cards": table(*part["cards"]),
            "names": stored.load(part["names"]),
            "descendants": stored.load(part["descendants"]),
            "lengths": {f: stored.load(ref) for f, ref in part["lengths"].items()},
            "average": part["average"],
            "terms": {f: dict(zip(_words(lines), table(offsets, ref), strict=True))
                      for f, (lines, offsets, ref) in part["terms"].items()},
            "stems": dict(zip(words, stored.load(part["stems"][1]), strict=True)),
        }
    head = {k: v for k, v in stored.head.items() if k != "body"}
    return {**head, "entries": stored.load(head["entries"]), "real_words": stored.load(head["real_words"]),
            "languages": languages}


def write_export(path: StrPath, data: dict[str, Any]) -> None:
    """Store an export (`pack`ed) at `path`, atomically."""
    write_atomic(path, pack(data))


def read_export(folder: StrPath) -> Stored | None:
    """The stored export (`pack`) in an index's cache folder, or None (absent, corrupt,
    untrusted, stale). Only its head is read here; its parts, when a query reads them."""
    if not trusted(folder):
        return None
    handle = open_trusted(os.path.join(folder, EXPORT_FILE))
    if handle is None:
        return None
    try:
        start = handle.read(len(MAGIC) + 8)
        size = int.from_bytes(start[len(MAGIC):], "little")
        head = _head(handle.read(size), os.fstat(handle.fileno()).st_size) if start.startswith(MAGIC) else None
    except OSError:
        head = None
    if head is None or head.get("key") != os.path.basename(os.fspath(folder)):
        handle.close()
        return None
    return Stored(head, file=handle, base=len(MAGIC) + 8 + size)


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
