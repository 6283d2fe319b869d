"""The light search: `judge search` on the exported index, without Whoosh or the rule graph.

A `judge.search.protocol.Index` over the export of the Whoosh index of record
(`judge.search.export`), read from the index's cache folder: BM25F computed from the exported
term frequencies and field lengths, query words turned into stems by the exported lexicon,
typos corrected from the exported words, hits shown from the exported cards. Same results as
`judge.search.engine` (tests/search/test_parity.py).

A warm start finds the export through a *pointer* (`search-<configuration>.pointer`: the
index's name and the stamps of every input of its key), as `judge rule` finds its store: when
no input changed, a few `stat` calls and one read, and no model, manifest or graph is loaded.
Otherwise the key is computed again (the manifest, the code, the texts' bytes); only when the
export is missing does it load the graph and build the index (which writes the export).
"""

from __future__ import annotations

import marshal
from bisect import bisect_left
from typing import TYPE_CHECKING

from judge.cache import cache_path, read_marshal, stamps, unchanged, write_atomic
from judge.corpus.config import configured_cache
from judge.corpus.lexicon import GlossaryTerm
from judge.corpus.names import match_terms
from judge.normalize import levenshtein
from judge.search.export import K1, B, read_export
from judge.search.match import Postings
from judge.search.output import Card, Counterpart, GlossaryHit, SearchResult
from judge.search.query import Doc, search_with
from judge.search.tokens import never_stemmed, unknown_stem

if TYPE_CHECKING:
    from typing import Any

    from judge.cache import Stamp
    from judge.search.export import Stored
    from judge.search.match import TermPostings

POINTER_FORMAT = 1


class _Part:
    """One language of a stored export (`judge.search.export.Stored`), each piece decoded
    the first time it is read: a query reads a few terms of each field and a few cards."""

    def __init__(self, stored: Stored, part: dict[str, Any]) -> None:
        self._stored = stored
        self._part = part
        self.average: dict[str, float] = part["average"]
        self.stop = frozenset(part["stop"])
        self._fields: dict[str, tuple[list[str], memoryview, int]] = {}
        self._lengths: dict[str, list[int]] = {}
        self._decoded: dict[str, Any] = {}
        offsets, (start, _) = part["cards"]
        self._cards = (memoryview(offsets).cast("I"), start)

    def _field(self, field: str) -> tuple[list[str], memoryview, int]:
        found = self._fields.get(field)
        if found is None:
            lines, offsets, (start, _) = self._part["terms"][field]
            found = self._fields[field] = (lines.split("\n") if lines else [], memoryview(offsets).cast("I"), start)
        return found

    def _item(self, at: memoryview, start: int, i: int) -> Any:
        """Item `i` of a table of the body (offsets `at` from `start`), decoded."""
        return self._stored.load((start + at[i], at[i + 1] - at[i]))

    def terms(self, field: str) -> list[str]:
        """The field's terms, sorted."""
        return self._field(field)[0]

    def entry(self, field: str, term: str) -> Any:
        """[idf, [documents], [term frequencies], ([positions per document])] of a term of a
        field, or None."""
        words, at, start = self._field(field)
        i = bisect_left(words, term)
        if i == len(words) or words[i] != term:
            return None
        return self._item(at, start, i)

    def lengths(self, field: str) -> list[int]:
        found = self._lengths.get(field)
        if found is None:
            found = self._lengths[field] = self._stored.load(self._part["lengths"][field])
        return found

    def _load(self, name: str) -> Any:
        if name not in self._decoded:
            if name == "numbers":
                lines = self._part["docs"][1]
                self._decoded[name] = lines.split("\n") if lines else []
            elif name == "stems":
                lines, ref = self._part["stems"]
                self._decoded[name] = (lines.split("\n") if lines else [], self._stored.load(ref))
            else:
                self._decoded[name] = self._stored.load(self._part[name])
        return self._decoded[name]

    def numbers(self) -> list[str]:
        """The rule number of each document, by document number."""
        numbers: list[str] = self._load("numbers")
        return numbers

    def editions(self) -> list[tuple[str, int, int]]:
        """(edition, first document, end) of each run of documents of one edition."""
        found: list[tuple[str, int, int]] | None = self._decoded.get("editions")
        if found is None:
            runs = self._part["docs"][0]
            ends = [start for _, start in runs[1:]] + [len(self.numbers())]
            found = self._decoded["editions"] = [(e, start, end) for (e, start), end in zip(runs, ends, strict=True)]
        return found

    def stem(self, word: str) -> str | int | None:
        """The lexicon's stem of a word (or the length of its prefix that is its stem), or None."""
        words, stems = self._load("stems")
        i = bisect_left(words, word)
        return stems[i] if i < len(words) and words[i] == word else None

    def names(self, docnum: int) -> list[str]:
        names: list[str] = self._load("names")[docnum]
        return names

    def descendants(self, docnum: int) -> list[int]:
        children: list[int] = self._load("descendants")[docnum]
        return children

    def card(self, docnum: int) -> Any:
        return self._item(*self._cards, docnum)


def read_term(source: _Part, field: str, text: str) -> TermPostings | None:
    """One term of one field of a language's export: BM25F score (and positions) per document."""
    entry = source.entry(field, text)
    if entry is None:
        return None
    idf, docs, tfs, *positions = entry
    lengths, average = source.lengths(field), source.average[field]
    # Whoosh's `bm25` with its BM25F defaults, written out (a function call per document costs
    # more than the formula): the same operations in the same order, so the same floats as
    # Whoosh's (tests/search/test_parity.py) and as `search-match.js`.
    k1_1, b_1 = K1 + 1, 1 - B
    scores = {doc: idf * ((tf * k1_1) / (tf + K1 * (b_1 + B * lengths[doc] / average)))
              for doc, tf in zip(docs, tfs, strict=True)}
    # Positions are stored as tuples (marshal keeps them): no copy per document.
    return scores, (dict(zip(docs, positions[0], strict=True)) if positions else {})


class LightIndex:
    """The exported index of one corpus (one per process; read-only, so thread-safe enough:
    its caches hold values that any thread computes alike)."""

    def __init__(self, stored: Stored, notice: str | None = None) -> None:
        data = stored.head
        self.edition_languages: dict[str, tuple[str, ...]] = {e: tuple(languages) for e, languages in data["editions"]}
        self.newest_edition: str = data["newest"]
        self._languages = {language: _Part(stored, part) for language, part in data["languages"].items()}
        self.languages = tuple(self._languages)
        self.glossary_terms = tuple(GlossaryTerm(en=tuple(en), fr=tuple(fr)) for en, fr in data["glossary"])
        self.query_stop = frozenset(data["query_stop"])
        self.corrections: dict[str, str | None] = {}
        self._stored = stored
        self._entries: list[list[Any]] | None = None
        self._notions = tuple(frozenset(frozenset(key) for key in notion) for notion in data["notions"])
        boosts = dict(data["boosts"])
        self._postings = {language: Postings(boosts, read_term) for language in self._languages}
        self._docs: dict[tuple[str, int], Doc] = {}
        self._numbers: dict[str, dict[tuple[str, str], int]] = {}
        self._initials: dict[str, dict[str, list[str]]] = {}
        self._notice = notice

    def source(self, language: str) -> _Part:
        return self._languages[language]

    def postings(self, language: str) -> Postings:
        return self._postings[language]

    def stop(self, language: str) -> frozenset[str]:
        return self._languages[language].stop

    def stem(self, language: str, word: str) -> str:
        if never_stemmed(word):
            return word
        found = self._languages[language].stem(word)
        if found is None:
            return unknown_stem(word)
        return word[:found] if isinstance(found, int) else str(found)

    def exact_frequency(self, language: str, word: str) -> int:
        entry = self._languages[language].entry("exact", word)
        return 0 if entry is None else len(entry[1])

    def within(self, language: str, word: str, distance: int) -> set[str]:
        """The `exact` words with the same first letter at most `distance` edits away."""
        initials = self._initials.get(language)
        if initials is None:
            initials = self._initials[language] = {}
            for term in self._languages[language].terms("exact"):
                initials.setdefault(term[:1], []).append(term)
        return {t for t in initials.get(word[:1], ()) if abs(len(t) - len(word)) <= distance
                and levenshtein(t, word) <= distance}

    def doc(self, language: str, docnum: int) -> Doc | None:
        found = self._docs.get((language, docnum))
        if found is None:
            part = self._languages[language]
            numbers = part.numbers()
            if not 0 <= docnum < len(numbers):
                return None
            edition = next(e for e, start, end in part.editions() if start <= docnum < end)
            found = self._docs[(language, docnum)] = Doc(language, docnum, edition, numbers[docnum])
        return found

    def _in(self, language: str, edition: str) -> tuple[list[int], list[str]]:
        """The document numbers of an edition's rules in a language, and every rule number."""
        part = self._languages[language]
        return [i for e, start, end in part.editions() if e == edition for i in range(start, end)], part.numbers()

    def lookup(self, edition: str, language: str, number: str) -> Doc | None:
        if language not in self._languages:
            return None
        numbers = self._numbers.get(language)
        if numbers is None:
            all_numbers = self._languages[language].numbers()
            numbers = self._numbers[language] = {
                (e, all_numbers[i]): i for e, start, end in self._languages[language].editions() for i in range(start, end)}
        found = numbers.get((edition, number))
        return None if found is None else self.doc(language, found)

    def descendants(self, doc: Doc) -> tuple[Doc, ...]:
        children = self._languages[doc.language].descendants(doc.docnum)
        return tuple(d for n in children if (d := self.doc(doc.language, n)) is not None)

    def under(self, edition: str, language: str, number: str) -> tuple[Doc, ...]:
        if language not in self._languages:
            return ()
        docnums, numbers = self._in(language, edition)
        return tuple(d for i in docnums if numbers[i].startswith(number + ".") and (d := self.doc(language, i)) is not None)

    def edition_docs(self, language: str, edition: str) -> frozenset[int]:
        return frozenset(self._in(language, edition)[0])

    def name_stems(self, doc: Doc) -> frozenset[str]:
        return frozenset(self._languages[doc.language].names(doc.docnum))

    def card(self, doc: Doc) -> Card:
        title, status, context, other, removed_in, texts = self._languages[doc.language].card(doc.docnum)
        return Card(
            edition=doc.edition, language=doc.language, number=doc.number, title=title, status=status,
            context=context, removed_in=tuple(removed_in), texts=tuple(texts),
            counterpart=None if other is None else Counterpart(
                language=other[0], number=other[1], title=other[2], text=other[3]),
        )

    def glossary_hits(self, text: str, edition: str | None, limit: int) -> tuple[GlossaryHit, ...]:
        if self._entries is None:
            self._entries = self._stored.load(self._stored.head["entries"])
        candidates = (((e, language, term, body), term, frozenset(key))
                      for e, language, term, body, key in self._entries if edition is None or e == edition)
        return tuple(
            GlossaryHit(edition=e, language=language, term=term, text=body, found_by=via)
            for (e, language, term, body), via in match_terms(candidates, text, notions=self._notions)[:limit])

    def take_notice(self) -> str | None:
        notice, self._notice = self._notice, None
        return notice


def _pointed(pointer: str) -> Stored | None:
    """The export the pointer names, when none of its inputs changed since it was written."""
    found = read_marshal(pointer)
    if not (isinstance(found, tuple) and len(found) == 3 and found[0] == POINTER_FORMAT
            and isinstance(found[1], str) and isinstance(found[2], tuple)):
        return None
    recorded: tuple[Stamp, ...] = found[2]
    try:
        if not unchanged(recorded):
            return None
    except (TypeError, ValueError):  # a stamp of another shape
        return None
    return read_export(cache_path(found[1]))


def open_light(config: str | None = None) -> LightIndex:
    """The exported index of the corpus (the manifest plus the user's configuration `config`),
    from the cache; built with the Whoosh index when missing (its notice said once)."""
    pointer = configured_cache("search", ".pointer", config)
    data = _pointed(pointer)
    if data is not None:
        return LightIndex(data)
    from judge.cache import code_inputs
    from judge.corpus.loader import corpus_inputs, load_editions
    from judge.search.export import index_name

    editions = load_editions(config)
    recorded = stamps((*code_inputs("corpus", "search"), *corpus_inputs(editions, config)))  # before reading them
    name = index_name(editions)[0]
    data = read_export(cache_path(name))
    notice = None
    if data is None:
        from judge.corpus.loader import load_graph
        from judge.search.index import export_of

        data, notice = export_of(load_graph(config))
    if data.from_file:  # the export is stored in the cache: point at it
        write_atomic(pointer, marshal.dumps((POINTER_FORMAT, name, recorded)))
    return LightIndex(data, notice)


def search(query: str, *, edition: str | None = None, limit: int = 10, lang: str | None = None,
           config: str | None = None) -> SearchResult:
    """`judge search`: one query on the exported index of the corpus."""
    return search_with(open_light(config), query, edition=edition, limit=limit, lang=lang)
