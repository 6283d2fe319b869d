"""The static book's search index, in chunks loaded on demand, and its rule numbers
(`rule-numbers.<digest>.js`, read before the index to open a typed rule number).

The index is the export of the Whoosh index of record (`judge.search.export`: the very data
`judge search` ranks with), cut into small script files under `search/` so that a query
fetches only what it reads (as Pagefind does, but as scripts: the book works from file://
and from any static host):

- the manifest, `search/index.<hash>.js`, assigns `window.JUDGE_SEARCH_INDEX`: the small data
  (BM25 parameters, boosts, stop words, the FR↔EN glossary's variant terms, editions, elisions…), each
  language's document count, field averages and `irregular` words (whose stem does not
  begin them: every other word's stem is one of its prefixes), and `chunks`: for each series of chunks
  its first keys (words as `_prefixed`, document numbers as the differences from the one before), and `version`, the digest of every chunk; the same
  file adds the chunks every query reads (`len.<l>`, `docs.<l>`) to `window.JUDGE_SEARCH_CHUNKS`:
  they come with it, in no request of their own;
- every chunk, `search/<id>.<version>.js`, adds itself to `window.JUDGE_SEARCH_CHUNKS[id]`.

Chunk series (`<l>` a language): `t.<l>.<n>` the terms and query words of a range of keys
(sorted), each with its stem (`s`: a stem, or the length of the word's prefix that is its
stem) and its postings per field (`f`: [idf, docs, term frequencies, (positions)], as
exported); (in the manifest's file) `len.<l>` the field lengths, by field (Whoosh stores at most 256 values: a table of
the values and one character per document); `docs.<l>` the documents ([edition, first
document] runs, their numbers (each as the length of the prefix it shares with the one before
and the rest), how many documents follow each one that are its descendants (comma-separated,
0 as nothing) and their names (`|`-separated); `i.<l>.<c>` the exact words beginning with `c` and their
document frequencies (typo correction); `c.<l>.<n>` the cards of a range of documents
([title, status, URL, null, removed in, texts, French name]); `r.<n>` the real words (a
range); `g.<n>` the Comprehensive Rules glossary entries by the words of their names
(word: [[entry, edition, language, term, name key]]) and `e.<n>` a range of entries'
[definition, URL]; `w.<c>` the terminology words beginning with `c` (typo correction). The
FR↔EN glossary is read a word at a time with the terms of one language (`glossary_host`,
English: every query word is looked up there anyway): a word's entry in `t.en.<n>` holds, as
`n`, the names that begin with it and the notions it names (`_glossary`), and the chunk, under
the key " " (no word), the terms they name. A series of terms is cut only between stem groups
(`_stem_cuts`): a word's stem is in its own chunk. File names carry a digest of their content: a name never changes its
content, so the files are cached as immutable. `templates/search-data.js` loads them; `search-match.js` and
`search.js` search them as `judge search` does.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from judge.corpus.documents import Rule
from judge.corpus.graph import RuleGraph
from judge.corpus.languages import language_name, names_json
from judge.corpus.names import name_key as notion_key
from judge.search.index import export_data
from judge.search.query import derived_keys, name_key
from judge.search.tokens import fold_terms
from judge.site.templating import glossary_url, rule_url

GLOBAL_NAME = "JUDGE_SEARCH_INDEX"
CHUNKS_NAME = "JUDGE_SEARCH_CHUNKS"
NUMBERS_NAME = "JUDGE_RULE_NUMBERS"
FOLDER = "search"
# Target sizes of a chunk, in bytes of JSON: a term's postings, a few cards, glossary entries.
TERM_CHUNK = 2500
CARD_CHUNK = 1600
REAL_CHUNK = 8000
GLOSSARY_CHUNK = 3000
ENTRY_CHUNK = 3000
# The characters that stand for a field length's rank in its table (no quote, no backslash).
LENGTH_CHARS = "".join(chr(c) for c in range(35, 127) if chr(c) != "\\")


@dataclass(frozen=True, slots=True)
class SearchFiles:
    """The static search index: the manifest's path (relative to the site root) and every
    file (path, content), manifest included."""

    manifest: str
    files: tuple[tuple[str, str], ...]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _number(value: float) -> float | int:
    """A whole term frequency as an integer (the same number in JavaScript, fewer bytes)."""
    return int(value) if float(value).is_integer() else value


def _ranges(items: list[tuple[Any, Any]], target: int, cuts: list[bool] | None = None) -> list[list[tuple[Any, Any]]]:
    """`items` (key, value), in order, cut into runs of about `target` bytes of JSON (only
    before an item `i` whose `cuts[i]` is true, when given)."""
    out: list[list[tuple[Any, Any]]] = []
    size = target
    for i, (key, value) in enumerate(items):
        cost = len(_json(key)) + len(_json(value)) + 2
        if size + cost > target and (not out or out[-1]) and (cuts is None or cuts[i]):
            out.append([])
            size = 0
        out[-1].append((key, value))
        size += cost
    return out


def _stem_cuts(keys: list[str], stems: list[str]) -> list[bool]:
    """Where a series of words (sorted) may be cut so that every word's stem (one of its
    prefixes) is in the word's own chunk: before a word that no later word's stem precedes."""
    cuts = [True] * len(keys)
    lowest = None
    for i in range(len(keys) - 1, -1, -1):
        lowest = stems[i] if lowest is None else min(lowest, stems[i])
        cuts[i] = lowest >= keys[i]
    return cuts


def _chunk_script(chunk_id: str, value: Any) -> str:
    """The statement that adds a chunk to `window.JUDGE_SEARCH_CHUNKS`."""
    return f'(self.{CHUNKS_NAME}||(self.{CHUNKS_NAME}={{}}))["{chunk_id}"]={_json(value)};\n'


def _glossary(terms: list[list[Any]]) -> tuple[list[Any], list[tuple[str, list[Any]]], list[list[Any]],
                                               dict[str, list[str]]]:
    """The FR↔EN glossary ([[English names], [French names], [rules], variant], its terms
    numbered in order) as the static search reads it, a word at a time
    (`judge.search.query._glossary` and `RuleIndex.terminology_words`, made here once):

    - the variant terms, for the manifest: [[number, English names, French names, rules]];
    - by word (sorted), [names, notions, terminology word]: `names` the query name keys
      (`judge.search.query.name_key`) that begin with the word, longest first, each as [its
      words, the number of its term], and their `derived_keys`; `notions` the name keys of `judge.corpus.names` (sorted
      words, NUL-joined) whose first word it is, each with the numbers of the terms that
      have a name with that key; `terminology word` 1 when a name holds the word (folded, as
      `judge search` corrects words), else 0;
    - each term, by its number: [English names, French names, rules, variant];
    - the terminology words by first character."""
    names: dict[tuple[str, ...], int] = {}
    notions: dict[str, list[int]] = {}
    words: set[str] = set()
    for number, (en, fr, _rules, _variant) in enumerate(terms):
        for name in (*en, *fr):
            if key := name_key(name):
                names.setdefault(key, number)
            notion = "\0".join(sorted(notion_key(name)))
            if notion and number not in notions.setdefault(notion, []):
                notions[notion].append(number)
            words.update(fold_terms(name, frozenset()))
    for number, (en, fr, _rules, _variant) in enumerate(terms):  # then their other keys (`derived_keys`)
        for name in (*en, *fr):
            for other in derived_keys(name_key(name)):
                names.setdefault(other, number)
    by_word: dict[str, list[Any]] = {}

    def entry(word: str) -> list[Any]:
        return by_word.setdefault(word, [[], {}, 0])

    for key in sorted(names, key=len, reverse=True):  # as judge.search.query._glossary: longest first
        entry(key[0])[0].append([list(key), names[key]])
    for notion, numbers in notions.items():
        entry(notion.split("\0", 1)[0])[1][notion] = numbers
    for word in words:
        entry(word)[2] = 1
    initials: dict[str, list[str]] = {}
    for word in sorted(words):
        initials.setdefault(word[:1], []).append(word)
    variants = [[n, en, fr, rules] for n, (en, fr, rules, variant) in enumerate(terms) if variant]
    values = [[en, fr, rules, bool(variant)] for en, fr, rules, variant in terms]
    return variants, sorted(by_word.items()), values, initials


def _named(entry: list[Any]) -> set[int]:
    """The terms a word's glossary entry names."""
    return {number for _, number in entry[0]} | {n for numbers in entry[1].values() for n in numbers}


class _Writer:
    """The chunks, then their files: each named by its id and the digest of every chunk's
    content (`version`), so that a name always holds the same content."""

    def __init__(self) -> None:
        self.chunks: list[tuple[str, str]] = []

    def add(self, chunk_id: str, value: Any) -> None:
        self.chunks.append((chunk_id, _chunk_script(chunk_id, value)))

    def series(self, prefix: str, items: list[tuple[Any, Any]], target: int, *, keyed: bool = True,
               cuts: list[bool] | None = None, extra: Callable[[list[tuple[Any, Any]]], Any] | None = None) -> list[Any]:
        """Chunks `prefix.0`, `prefix.1`… of `items` (sorted by key), each a {key: value}
        (`keyed`, with `extra(run)` under the key " " when given) or the list of its values:
        their first keys."""
        firsts = []
        for n, run in enumerate(_ranges(items, target, cuts)):
            value: Any = dict(run) if keyed else [v for _, v in run]
            if extra is not None and (more := extra(run)):
                value[" "] = more
            self.add(f"{prefix}.{n}", value)
            firsts.append(run[0][0])
        return firsts

    @property
    def version(self) -> str:
        digest = hashlib.sha256()
        for chunk_id, content in self.chunks:
            digest.update(f"{chunk_id}\0{content}\0".encode())
        return digest.hexdigest()[:10]

    def files(self) -> list[tuple[str, str]]:
        version = self.version
        return [(chunk_path(chunk_id, version), content) for chunk_id, content in self.chunks]


def chunk_path(chunk_id: str, version: str) -> str:
    """A chunk's file, from the site root (as `templates/search-data.js` makes it)."""
    return f"{FOLDER}/{chunk_id}.{version}.js"


def _lengths(values: list[int | None]) -> list[Any]:
    """[table of the distinct lengths, one character per document: its length's rank]."""
    table = [*sorted({v for v in values if v is not None}), None]
    if len(table) > len(LENGTH_CHARS):
        raise ValueError(f"{len(table)} field lengths: more than {len(LENGTH_CHARS)}")
    rank = {v: LENGTH_CHARS[i] for i, v in enumerate(table)}
    return [table, "".join(rank[v] for v in values)]


def _descendant_counts(descendants: list[list[int]]) -> list[int]:
    """How many documents after each one are its descendants (they follow it, in rule order)."""
    counts = []
    for docnum, found in enumerate(descendants):
        if found != list(range(docnum + 1, docnum + 1 + len(found))):
            raise ValueError(f"document {docnum}: descendants not right after it")
        counts.append(len(found))
    return counts


def _prefixed(numbers: list[str]) -> str:
    """The numbers, space-separated, each as how many characters it shares with the one before
    (a digit) and the rest (`100 100.1 100.2` -> `0100 3.1 42`)."""
    out, previous = [], ""
    for number in numbers:
        common = 0
        while common < min(len(number), len(previous), 9) and number[common] == previous[common]:
            common += 1
        out.append(f"{common}{number[common:]}")
        previous = number
    return " ".join(out)


def _firsts(firsts: list[Any]) -> str | list[int]:
    """A series' first keys as the manifest holds them (decoded by search-data.js): words as
    `_prefixed` (space-separated), document numbers as the differences from the one before."""
    if all(isinstance(f, int) for f in firsts):
        return [f - before for f, before in zip(firsts, [0, *firsts], strict=False)]
    if any(not isinstance(f, str) or " " in f for f in firsts):
        raise ValueError("a first key that is not a word")
    return _prefixed(firsts)


def _names(names: list[str]) -> str:
    """The documents' name stems, `|`-separated (most are empty)."""
    if any("|" in name for name in names):
        raise ValueError("a name holds |")
    return "|".join(names)


def _runs(docs: list[list[str]]) -> list[list[Any]]:
    out: list[list[Any]] = []
    for docnum, (edition, _) in enumerate(docs):
        if not out or out[-1][0] != edition:
            out.append([edition, docnum])
    return out


def search_files(graph: RuleGraph, url: Callable[[Rule], str] | None = None) -> SearchFiles:
    """The static search index of the graph's index (built if needed), in chunks; `url`: a
    rule's URL from the site root (default `rule_url`'s, whole sections)."""
    data = export_data(graph)
    out = _Writer()
    variants, glossary_words, glossary_terms, term_initials = _glossary(data["glossary"])
    # The glossary's words are read with the terms of one language (the query's words are
    # looked up there anyway): English when the index has it.
    host = "en" if "en" in data["languages"] else next(iter(data["languages"]))
    chunks: dict[str, Any] = {}
    base: dict[str, Any] = {}  # the chunks every query reads: in the manifest's file
    languages = {}
    for language, part in data["languages"].items():
        keys: dict[str, dict[str, Any]] = {}
        for word, stem in part["stems"].items():
            keys.setdefault(word, {})["s"] = stem
        for field, terms in part["terms"].items():
            for term, entry in terms.items():
                idf, docs, tfs, *positions = entry
                value = [idf, docs, [_number(tf) for tf in tfs], *([list(p) for p in ps] for ps in positions)]
                keys.setdefault(term, {}).setdefault("f", {})[field] = value
        if language == host:  # the FR↔EN glossary's words, with this language's terms (`_glossary`)
            for word, entry in glossary_words:
                keys.setdefault(word, {})["n"] = entry
        items = sorted(keys.items())
        stems = [(k[: v["s"]] if isinstance(v.get("s"), int) else k) for k, v in items]
        chunks[f"t.{language}"] = out.series(
            f"t.{language}", items, TERM_CHUNK, cuts=_stem_cuts([k for k, _ in items], stems),
            extra=(lambda run: {str(i): glossary_terms[i] for i in sorted(set().union(
                *(_named(v["n"]) for _, v in run if "n" in v)))}) if language == host else None)
        base[f"len.{language}"] = {field: _lengths(lengths) for field, lengths in part["lengths"].items()}
        docs = part["docs"]
        base[f"docs.{language}"] = {
            "runs": _runs(docs), "numbers": _prefixed([n for _, n in docs]),
            "descendants": ",".join(str(c or "") for c in _descendant_counts(part["descendants"])),
            "names": _names([" ".join(name) for name in part["names"]]),
        }
        initials: dict[str, list[list[Any]]] = {}
        for term, entry in sorted(part["terms"]["exact"].items()):
            initials.setdefault(term[:1], []).append([term, len(entry[1])])
        for initial, words in initials.items():
            out.add(f"i.{language}.{_initial_id(initial)}", words)
        cards = []
        for docnum, ((edition, number), card) in enumerate(zip(docs, part["cards"], strict=True)):
            rule = graph.require(edition, number, language)
            link = url(rule) if url is not None else rule_url(rule, "", graph.primary_language(edition))
            title, status, _context, _counterpart, removed, texts, french = card
            cards.append((docnum, [title, status, link, None, removed, texts, french]))
        chunks[f"c.{language}"] = out.series(f"c.{language}", cards, CARD_CHUNK, keyed=False)
        languages[language] = {"stop": part["stop"], "count": part["count"], "average": part["average"],
                               "fields": sorted(part["lengths"]), "initials": sorted(initials),
                               "irregular": sorted(w for w, stem in part["stems"].items() if isinstance(stem, str))}
    chunks["r"] = out.series("r", [(w, w) for w in sorted(data["real_words"])], REAL_CHUNK, keyed=False)
    by_word: dict[str, list[list[Any]]] = {}
    entries = []
    for n, (edition, language, term, text, key) in enumerate(data["entries"]):
        for word in key or [""]:
            by_word.setdefault(word, []).append([n, edition, language, term, key])
        entries.append((n, [text, glossary_url(edition, term, "")]))
    chunks["g"] = out.series("g", sorted(by_word.items()), GLOSSARY_CHUNK)
    chunks["e"] = out.series("e", entries, ENTRY_CHUNK, keyed=False)
    for initial, terminology in term_initials.items():
        out.add(f"w.{_initial_id(initial)}", terminology)
    small = ("format", "key", "bm25", "boosts", "query_stop", "small_words", "editions",
             "newest", "elisions", "protected", "relations", "abbreviations")
    manifest = {**{k: data[k] for k in small}, "glossary": variants, "glossary_host": host, "term_initials": sorted(term_initials),
                "languages": languages, "language_names": names_json(),
                "chunks": {series: _firsts(firsts) for series, firsts in chunks.items()}, "version": out.version}
    content = f"window.{GLOBAL_NAME}={_json(manifest)};\n" + "".join(_chunk_script(i, v) for i, v in base.items())
    path = f"{FOLDER}/index.{hashlib.sha256(content.encode('utf-8')).hexdigest()[:10]}.js"
    return SearchFiles(manifest=path, files=((path, content), *out.files()))


def _initial_id(initial: str) -> str:
    """A first character as it appears in a chunk's id (and file name): its code point."""
    return format(ord(initial), "x")


def rule_numbers_file(graph: RuleGraph, split: Callable[[str, str], list[str]] | None = None) -> tuple[str, str]:
    """`rule-numbers.<digest>.js` (its name carries a digest of its content, as the assets'),
    path and content: every rule number of each edition and language, so that a typed
    number opens its rule without the search index (templates/rule-jump.js). Per edition: its
    id, label and languages (first one first) with their French names (judge.corpus.languages),
    and for each language its numbers, space-separated
    (the URL of a rule is made from its number as `judge.site.templating.rule_url` makes it),
    and the sections cut into one page per rule (`split(edition, language)`, judge.site.parts)."""
    editions = [
        {"id": e.id, "label": e.label, "languages": list(e.languages),
         "names": {lang: language_name(lang) for lang in e.languages},
         "numbers": {lang: " ".join(r.number for r in graph.rules(e.id, lang)) for lang in e.languages},
         "split": {lang: " ".join(split(e.id, lang)) for lang in e.languages} if split else {}}
        for e in graph.editions
    ]
    payload = json.dumps({"editions": editions}, ensure_ascii=False, separators=(",", ":"))
    content = f"window.{NUMBERS_NAME} = {payload};\n"
    return f"rule-numbers.{hashlib.sha256(content.encode('utf-8')).hexdigest()[:10]}.js", content
