"""Full-text search over every rule of a graph: the Whoosh index, queries, hits and snippets.

Owns the cached index (built in a temporary folder, renamed into place, rebuilt by itself
when stale or corrupt), query handling (rule numbers first, FR↔EN glossary, BM25F, fuzzy
fallback, "did you mean") and the result shapes. Text analysis lives in `analysis.py`.
Queries longer than `MAX_QUERY` characters are truncated, with a notice in the result.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import shutil
import tempfile
import threading
import tomllib
import warnings
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import whoosh.index
from whoosh import query as wq
from whoosh import scoring
from whoosh.fields import ID, TEXT, Schema
from whoosh.filedb.filestore import FileStorage, RamStorage

from . import analysis
from .analysis import FrenchAnalyzer, analyze_terms, fold_terms, folded_tokens, stem
from .corpus import cache_dir, corpus_key
from .errors import JudgeError
from .graph import RuleGraph
from .model import Rule
from .normalize import fold
from .resources import rules_dir

SCHEMA_VERSION = 2
MAX_QUERY = 500
GLOSSARY_NAME = "glossary-fr-en.toml"
# Query-time weights of the ranked fields (BM25F sums them).
FIELD_BOOSTS = {"title": 3.0, "text": 1.0, "examples": 0.6, "context": 0.4}
DIRECT_SCORE = 100.0
CHILD_SCORE = 50.0
_SNIPPET_CHARS = 220
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]")
_NUMBER = re.compile(r"(?<![\w.])\d{3}(?:\.\d+[a-z]?)?(?![\w])")
_OPERATORS = re.compile(r"(?<!\w)(?:AND|OR|NOT)(?!\w)")
# Words that only introduce a rule number (`règle 308.2a`).
_NUMBER_WORDS = frozenset({"regle", "regles", "rule", "rules", "cr", "voir", "cf", "see", "numero", "no"})
_QUOTED = re.compile(r'"([^"]+)"|«([^»]+)»|“([^”]+)”')


class QueryError(JudgeError):
    """A search query that cannot be run (empty, only stop words, bad limit)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Hit:
    """One rule found: where it is, how well it matched and the matching passage."""

    edition: str
    language: str
    number: str
    title: str | None
    score: float
    snippet: str
    status: str
    context: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchResult:
    """Ranked hits for one query, with a "did you mean" suggestion and a notice if any."""

    query: str
    suggestion: str | None
    hits: tuple[Hit, ...]
    notice: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GlossaryTerm:
    """One notion of the FR↔EN glossary: its English and French names."""

    en: tuple[str, ...]
    fr: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class _Plan:
    """What a query asks for once cleaned: numbers, words, phrases, expansions."""

    text: str
    numbers: tuple[str, ...]
    words: tuple[str, ...]
    phrases: tuple[tuple[str, ...], ...]
    expansions: tuple[tuple[tuple[str, ...], ...], ...]  # per glossary notion, its French names
    notices: tuple[str, ...] = field(default=())


# ---------------------------------------------------------------------- glossary
_glossary_cache: tuple[tuple[GlossaryTerm, ...], re.Pattern[str] | None, dict[str, GlossaryTerm]] | None = None


def load_glossary(path: Path | None = None) -> tuple[GlossaryTerm, ...]:
    """The glossary entries of `rules/glossary-fr-en.toml` (or `path`)."""
    path = path or rules_dir() / GLOSSARY_NAME
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise JudgeError(f"{path} : glossaire illisible ({exc})") from None
    terms = []
    for i, raw in enumerate(data.get("term", [])):
        en, fr = raw.get("en", []), raw.get("fr", [])
        if not isinstance(en, list) or not isinstance(fr, list) or not fr:
            raise JudgeError(f"{path} (term[{i}]) : listes « en » et « fr » attendues")
        terms.append(GlossaryTerm(en=tuple(map(str, en)), fr=tuple(map(str, fr))))
    return tuple(terms)


def _glossary() -> tuple[re.Pattern[str] | None, dict[str, GlossaryTerm]]:
    global _glossary_cache
    if _glossary_cache is None:
        terms = load_glossary()
        names: dict[str, GlossaryTerm] = {}
        for term in terms:
            for name in (*term.en, *term.fr):
                names.setdefault(fold(name), term)
        ordered = sorted(names, key=len, reverse=True)
        pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, ordered)) + r")(?!\w)") if ordered else None
        _glossary_cache = (terms, pattern, names)
    return _glossary_cache[1], _glossary_cache[2]


# ---------------------------------------------------------------------- index
def schema() -> Schema:
    stemmed, exact = FrenchAnalyzer(stemmed=True), FrenchAnalyzer(stemmed=False)
    return Schema(
        id=ID(stored=True, unique=True),
        edition=ID(stored=True),
        language=ID(stored=True),
        number=ID(stored=True),
        status=ID(stored=True),
        title=TEXT(analyzer=stemmed, phrase=False),
        text=TEXT(analyzer=stemmed, phrase=False),
        examples=TEXT(analyzer=stemmed, phrase=False),
        context=TEXT(analyzer=stemmed, phrase=False),
        exact=TEXT(analyzer=exact, phrase=True),
        heading=TEXT(analyzer=exact, phrase=True),
    )


def _titled_ancestor(graph: RuleGraph, rule: Rule) -> Rule | None:
    parent = graph.parent(rule)
    while parent is not None and not parent.title:
        parent = graph.parent(parent)
    return parent


def context_of(graph: RuleGraph, rule: Rule) -> str | None:
    """`308.2 · 308 Etape de déclaration des attaquants` for 308.2a; None for a section."""
    parent = graph.parent(rule)
    if parent is None:
        return None
    titled = parent if parent.title else _titled_ancestor(graph, parent)
    named = f"{titled.number} {titled.title}" if titled is not None else None
    if titled is parent:
        return named
    return f"{parent.number} · {named}" if named else parent.number


def _documents(graph: RuleGraph) -> Iterable[dict[str, str]]:
    for rule in graph.all_rules():
        examples = " ".join(example.text for example in rule.examples)
        ancestors = []
        parent = graph.parent(rule)
        while parent is not None:
            if parent.title:
                ancestors.append(parent.title)
            parent = graph.parent(parent)
        yield {
            "id": f"{rule.edition}:{rule.language}:{rule.number}",
            "edition": rule.edition,
            "language": rule.language,
            "number": rule.number,
            "status": rule.status,
            "title": rule.title or "",
            "text": rule.text,
            "examples": examples,
            "context": " ".join(ancestors),
            "exact": " ".join(part for part in (rule.title or "", rule.text, examples) if part),
            "heading": rule.title or "",
        }


def _fill(ix: Any, graph: RuleGraph) -> None:
    writer = ix.writer(limitmb=128)
    for doc in _documents(graph):
        writer.add_document(**doc)
    writer.commit()


_keys: weakref.WeakKeyDictionary[RuleGraph, tuple[str, str]] = weakref.WeakKeyDictionary()


def index_name(graph: RuleGraph) -> tuple[str, str]:
    """(`index-<config>-<key>`, `index-<config>-`): the folder name and its stale-sibling prefix."""
    cached = _keys.get(graph)
    if cached is not None:
        return cached
    analysis_code = Path(analysis.__file__).read_bytes()
    key = hashlib.sha256(
        f"{corpus_key(graph.editions)} schema {SCHEMA_VERSION}\n".encode() + analysis_code
    ).hexdigest()[:24]
    config = hashlib.sha256(
        repr([(e.id, [(t.language, t.files) for t in e.texts]) for e in graph.editions]).encode()
    ).hexdigest()[:8]
    prefix = f"index-{config}-"
    _keys[graph] = (prefix + key, prefix)
    return _keys[graph]


def _valid(path: Path, expected: int) -> Any | None:
    """The opened index at `path` if it is complete and readable, else None."""
    try:
        if (path / "complete").read_text() != str(expected):
            return None
        ix = _load_in_memory(path)
        with ix.searcher() as searcher:
            if searcher.doc_count() != expected:
                return None
            if expected:
                searcher.stored_fields(0)
        return ix
    except Exception:  # any failure to read a cache means "rebuild it"
        return None


def _load_in_memory(path: Path) -> Any:
    """Open the index from a RAM copy of its files: no mmap (a cache file truncated under a
    running server would kill it with SIGBUS) and no seek per term lookup (speed)."""
    ram = RamStorage()
    for name in FileStorage(str(path)).list():
        ram.files[name] = (path / name).read_bytes()
    return ram.open_index()


def _discard(path: Path) -> None:
    """Move a folder aside atomically, then delete it (another process may race us)."""
    trash = path.with_name(f".trash-{path.name}-{os.getpid()}-{threading.get_ident()}")
    try:
        os.rename(path, trash)
    except OSError:
        return
    shutil.rmtree(trash, ignore_errors=True)


def build_index(graph: RuleGraph, dest: Path) -> None:
    """Build into a temporary folder beside `dest`, then rename; if `dest` appeared, drop ours."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".building-", dir=dest.parent))
    try:
        ix = whoosh.index.create_in(str(tmp), schema())
        _fill(ix, graph)
        ix.close()
        (tmp / "complete").write_text(str(len(graph.all_rules())))
        try:
            os.rename(tmp, dest)
        except OSError:
            if not dest.is_dir():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _ram_index(graph: RuleGraph) -> Any:
    ix = RamStorage().create_index(schema())
    _fill(ix, graph)
    return ix


def _open_or_build(graph: RuleGraph) -> tuple[Any, str | None]:
    name, prefix = index_name(graph)
    root = cache_dir()
    dest = root / name
    expected = len(graph.all_rules())
    notice = None
    if dest.exists():
        ix = _valid(dest, expected)
        if ix is not None:
            return ix, None
        notice = "index de recherche corrompu : reconstruction"
        _discard(dest)
    stale = [p for p in root.glob(prefix + "*") if p.name != name] if root.is_dir() else []
    if stale and notice is None:
        notice = "index de recherche périmé (règles ou version modifiées) : reconstruction"
    for old in stale:
        _discard(old)
    try:
        build_index(graph, dest)
    except OSError:
        # An unwritable cache only costs speed: search from memory.
        return _ram_index(graph), notice
    ix = _valid(dest, expected)
    if ix is None:
        return _ram_index(graph), notice
    return ix, notice


class RuleIndex:
    """An open index over a graph; share one across threads and requests (reads only)."""

    def __init__(self, graph: RuleGraph, ix: Any, notice: str | None = None) -> None:
        self.graph = graph
        self._ix = ix
        self._local = threading.local()
        self._lock = threading.Lock()
        self._notice = notice
        self._stems: dict[tuple[str, str, str], frozenset[str]] = {}
        self.notice = notice
        if notice:
            warnings.warn(notice, RuntimeWarning, stacklevel=3)

    def searcher(self) -> Any:
        """This thread's Whoosh searcher (Whoosh searchers are not shared across threads)."""
        searcher = getattr(self._local, "searcher", None)
        if searcher is None:
            searcher = self._ix.searcher(weighting=scoring.BM25F())
            self._local.searcher = searcher
        return searcher

    def stems(self, rule: Rule) -> frozenset[str]:
        """Every stem of a rule's title, text, examples and ancestors' titles (cached)."""
        k = (rule.edition, rule.language, rule.number)
        found = self._stems.get(k)
        if found is None:
            parts = [rule.title or "", rule.text, *(e.text for e in rule.examples)]
            ancestor = self.graph.parent(rule)
            while ancestor is not None:
                parts.append(ancestor.title or "")
                ancestor = self.graph.parent(ancestor)
            found = self._stems[k] = frozenset(analyze_terms(" ".join(parts)))
        return found

    def take_notice(self) -> str | None:
        """The rebuild notice, once: the first result after a rebuild says so."""
        with self._lock:
            notice, self._notice = self._notice, None
        return notice

    def search(self, query: str, *, edition: str | None = None, limit: int = 10) -> SearchResult:
        return search_with(self, query, edition=edition, limit=limit)


def open_index(graph: RuleGraph) -> RuleIndex:
    """The graph's index from the cache, built (or rebuilt, saying so once) when needed."""
    ix, notice = _open_or_build(graph)
    return RuleIndex(graph, ix, notice)


_open: weakref.WeakKeyDictionary[RuleGraph, RuleIndex] = weakref.WeakKeyDictionary()
_open_lock = threading.Lock()


def index_for(graph: RuleGraph) -> RuleIndex:
    """One open index per graph for the life of the process."""
    with _open_lock:
        index = _open.get(graph)
        if index is None:
            index = _open[graph] = open_index(graph)
        return index


# ---------------------------------------------------------------------- queries
def _clean(raw: str) -> tuple[str, list[str]]:
    notices = []
    text = _CONTROL.sub(" ", raw)
    if len(text) > MAX_QUERY:
        text = text[:MAX_QUERY]
        notices.append(f"requête tronquée à {MAX_QUERY} caractères")
    if _OPERATORS.search(text):
        text = _OPERATORS.sub(" ", text)
        notices.append("opérateurs AND, OR, NOT ignorés : tous les mots comptent")
    return " ".join(text.split()), notices


def plan_query(raw: str) -> _Plan:
    """Split a query into rule numbers, phrases, glossary expansions and plain words."""
    text, notices = _clean(raw)
    if not text:
        raise QueryError("requête vide : indiquez des mots ou un numéro de règle (ex. « 308.2a »)")
    folded = fold(text)
    numbers = tuple(dict.fromkeys(_NUMBER.findall(folded)))
    phrases = []
    for match in _QUOTED.finditer(folded):
        words = fold_terms(next(g for g in match.groups() if g))
        if len(words) > 1:
            phrases.append(tuple(words))
    rest = folded.replace('"', " ").replace("«", " ").replace("»", " ")
    expansions: list[tuple[tuple[str, ...], ...]] = []
    pattern, names = _glossary()
    if pattern is not None:
        for match in pattern.finditer(rest):
            term = names[match.group(0)]
            alternatives = tuple(w for w in (tuple(fold_terms(name)) for name in term.fr) if w)
            if alternatives and alternatives not in expansions:
                expansions.append(alternatives)
        # The matched words now count as one notion (any of its French names).
        rest = pattern.sub(" ", rest)
    plain = tuple(w for w in fold_terms(rest) if w not in numbers)
    if numbers:
        plain = tuple(w for w in plain if w not in _NUMBER_WORDS)
    if not numbers and not plain and not expansions and not phrases:
        raise QueryError(f"la requête « {text[:60]} » ne contient que des mots vides (de, la, le…)")
    return _Plan(
        text=text,
        numbers=numbers,
        words=plain,
        phrases=tuple(phrases),
        expansions=tuple(expansions),
        notices=tuple(notices),
    )


def _or(subqueries: list[wq.Query], boost: float = 1.0) -> wq.Query:
    """An Or with Whoosh's binary-tree union: far faster than the array one on small indexes."""
    query = wq.Or(subqueries, boost=boost)
    query.matcher_type = wq.Or.DEFAULT_MATCHER
    return query


def _term_clause(stemmed: str, boost: float = 1.0) -> wq.Query:
    return _or(
        [wq.Term(name, stemmed, boost=weight) for name, weight in FIELD_BOOSTS.items()],
        boost=boost,
    )


def _group_clause(words: tuple[str, ...], boost: float = 1.0) -> wq.Query:
    """A multi-word notion: all its stems (any field), better still as a phrase."""
    stems = [_term_clause(stem(w)) for w in words]
    if len(words) == 1:
        return _or(stems, boost=boost)
    together = wq.And(stems)
    phrase = wq.Phrase("exact", list(words), slop=2, boost=2.0)
    heading = wq.Phrase("heading", list(words), slop=1, boost=4.0)
    return _or([together, phrase, heading], boost=boost)


def _compose(words: tuple[str, ...], plan: _Plan, numbers: tuple[str, ...]) -> wq.Query | None:
    clauses: list[wq.Query] = [_term_clause(stem(w)) for w in dict.fromkeys(words)]
    clauses.extend(_term_clause(n, boost=0.5) for n in numbers)
    clauses.extend(_group_clause(p, boost=3.0) for p in plan.phrases)
    clauses.extend(_or([_group_clause(alt) for alt in e]) for e in plan.expansions)
    if len(words) > 1:
        # Proximity bonus: the typed words close together, better still in a title.
        clauses.append(wq.Phrase("exact", list(words), slop=3, boost=1.5))
        clauses.append(wq.Phrase("heading", list(words), slop=1, boost=4.0))
    if not clauses:
        return None
    return _or(clauses)


def _concepts(words: tuple[str, ...], plan: _Plan) -> list[tuple[frozenset[str], ...]]:
    """Each notion the query asks for, as alternative sets of stems (any one covers it)."""
    concepts: list[tuple[frozenset[str], ...]] = [(frozenset({stem(w)}),) for w in dict.fromkeys(words)]
    concepts.extend((frozenset(stem(w) for w in p),) for p in plan.phrases)
    concepts.extend(tuple(frozenset(stem(w) for w in alt) for alt in e) for e in plan.expansions)
    return concepts


def _coverage(stems: frozenset[str], concepts: list[tuple[frozenset[str], ...]]) -> float:
    if not concepts:
        return 1.0
    covered = sum(1 for alts in concepts if any(alt <= stems for alt in alts))
    return covered / len(concepts)


def _levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _known(reader: Any, word: str) -> bool:
    if (reader.doc_frequency("exact", word)) > 0:
        return True
    return any(reader.doc_frequency(name, stem(word)) > 0 for name in FIELD_BOOSTS)


def _correct(reader: Any, word: str) -> str | None:
    """The closest indexed word to an unknown one (most frequent on ties), or None."""
    if not 4 <= len(word) <= 30 or any(c.isdigit() for c in word) or _known(reader, word):
        return None
    maxdist = 1 if len(word) <= 5 else 2
    candidates = set(reader.terms_within("exact", word, maxdist, prefix=1))
    if not candidates:
        return None
    return str(min(candidates, key=lambda c: (_levenshtein(c, word), -reader.doc_frequency("exact", c), c)))


def _suggestion(text: str, corrections: dict[str, str]) -> str:
    """The cleaned query with each corrected word replaced, everything else as typed."""
    out: list[str] = []
    last = 0
    for term, start, end in folded_tokens(text):
        if term in corrections:
            out.extend((text[last:start], corrections[term]))
            last = end
    out.append(text[last:])
    return "".join(out)


# ---------------------------------------------------------------------- snippets
@lru_cache(maxsize=16384)
def _tokens(text: str) -> tuple[tuple[str, str, int, int], ...]:
    return tuple((term, stem(term), start, end) for term, start, end in folded_tokens(text))


def _marked(text: str, stems: set[str], words: set[str]) -> list[tuple[int, int]]:
    return [(start, end) for term, stemmed, start, end in _tokens(text) if term in words or stemmed in stems]


def make_snippet(text: str, spans: list[tuple[int, int]], width: int = _SNIPPET_CHARS) -> str:
    """The passage of `text` with the most matches, HTML-escaped, matches in `<mark>`."""
    if not text:
        return ""
    start, end = 0, len(text)
    if len(text) > width:
        best = 0
        if spans:
            counts = [sum(1 for s, _ in spans if a <= s < a + width - 40) for a, _ in spans]
            best = spans[counts.index(max(counts))][0]
        start = max(0, best - 40)
        if start:
            space = text.find(" ", start)
            start = space + 1 if 0 <= space < best else start
        end = min(len(text), start + width)
        if end < len(text):
            space = text.rfind(" ", start, end)
            end = space if space > start else end
    pieces = ["… "] if start > 0 else []
    cursor = start
    for s, e in spans:
        if s < start or e > end:
            continue
        pieces.extend(
            (html.escape(text[cursor:s], quote=False), "<mark>", html.escape(text[s:e], quote=False), "</mark>")
        )
        cursor = e
    pieces.append(html.escape(text[cursor:end], quote=False))
    if end < len(text):
        pieces.append(" …")
    return "".join(pieces)


def _snippet(rule: Rule, stems: set[str], words: set[str]) -> str:
    sources = [rule.text, *(example.text for example in rule.examples), rule.title or ""]
    for source in sources:
        spans = _marked(source, stems, words)
        if spans:
            return make_snippet(source, spans)
    return make_snippet(rule.text or rule.title or "", [])


# ---------------------------------------------------------------------- search
def _hit(graph: RuleGraph, rule: Rule, score: float, stems: set[str], words: set[str]) -> Hit:
    return Hit(
        edition=rule.edition,
        language=rule.language,
        number=rule.number,
        title=rule.title,
        score=round(float(score), 3),
        snippet=_snippet(rule, stems, words),
        status=rule.status,
        context=context_of(graph, rule),
    )


def _direct(graph: RuleGraph, numbers: tuple[str, ...], edition: str | None) -> list[tuple[Rule, float]]:
    found: list[tuple[Rule, float]] = []
    for number in numbers:
        for ed in graph.editions:
            if edition is not None and ed.id != edition:
                continue
            for language in ed.languages:
                rule = graph.get(ed.id, number, language)
                if rule is None:
                    # `505` when only 505.1 … exist: the rules under that number.
                    under = [r for r in graph.rules(ed.id, language) if r.number.startswith(number + ".")]
                    found.extend((r, CHILD_SCORE) for r in under)
                    continue
                found.append((rule, DIRECT_SCORE))
                found.extend((child, CHILD_SCORE) for child in graph.descendants(rule))
    return found


def search_with(index: RuleIndex, query: str, *, edition: str | None = None, limit: int = 10) -> SearchResult:
    """Run one query on an open index (see `open_index`); thread-safe."""
    if not isinstance(limit, int) or limit < 1:
        raise QueryError(f"nombre de résultats invalide : {limit} (un entier positif est attendu)")
    graph = index.graph
    if edition is not None:
        graph.edition(edition)
    plan = plan_query(query)
    notices = list(plan.notices)
    rebuilt = index.take_notice()
    if rebuilt:
        notices.insert(0, rebuilt)

    ranked: dict[tuple[str, str, str], tuple[Rule, float]] = {}
    for rule, score in _direct(graph, plan.numbers, edition):
        ranked.setdefault((rule.edition, rule.language, rule.number), (rule, score))
    missing = [n for n in plan.numbers if not any(r.number == n for r, _ in ranked.values())]
    if missing:
        notices.append("règle introuvable : " + ", ".join(missing))

    searcher = index.searcher()
    reader = searcher.reader()
    filter_ = wq.Term("edition", edition) if edition else None
    words = plan.words
    corrections: dict[str, str] = {}
    stems = {stem(w) for w in (*words, *(w for group in plan.phrases for w in group))}
    stems |= {stem(w) for e in plan.expansions for alt in e for w in alt}
    exact_words = set(plan.numbers) | {w for group in plan.phrases for w in group}

    def run(terms: tuple[str, ...]) -> list[tuple[Rule, float]]:
        q = _compose(terms, plan, plan.numbers)
        if q is None:
            return []
        concepts = _concepts(terms, plan)
        found = []
        for hit in searcher.search(q, limit=3 * limit + 20 + len(ranked), filter=filter_):
            rule = graph.get(hit["edition"], hit["number"], hit["language"])
            if rule is not None:
                # Coordination: a rule that answers every notion of the query beats one
                # that repeats a single word (BM25 alone does not see this).
                found.append((rule, hit.score * _coverage(index.stems(rule), concepts) ** 2))
        found.sort(key=lambda item: -item[1])
        return found[: limit + len(ranked)]

    for word in words:
        # An unknown word finds nothing by itself (few hits): fuzzy fallback on `exact`.
        fixed = _correct(reader, word)
        if fixed is not None:
            corrections[word] = fixed
    if corrections:
        words = tuple(corrections.get(w, w) for w in words)
        stems |= {stem(w) for w in corrections.values()}
        exact_words |= set(corrections.values())
    text_hits = run(words)
    for rule, score in text_hits:
        ranked.setdefault((rule.edition, rule.language, rule.number), (rule, score))

    hits = tuple(
        _hit(graph, rule, score, stems, exact_words) for rule, score in list(ranked.values())[:limit]
    )
    suggestion = _suggestion(plan.text, corrections) if corrections else None
    return SearchResult(
        query=query,
        suggestion=suggestion,
        hits=hits,
        notice=" ; ".join(notices) if notices else None,
    )


def search(
    query: str, *, edition: str | None = None, limit: int = 10, graph: RuleGraph | None = None
) -> SearchResult:
    """Search the rules of `graph` (default: the embedded corpus plus user configuration)."""
    if graph is None:
        from .corpus import load_graph

        graph = load_graph()
    return search_with(index_for(graph), query, edition=edition, limit=limit)


# ---------------------------------------------------------------------- output
def result_json(result: SearchResult) -> dict[str, Any]:
    """The stable `judge search --json` shape (see cli-contract.md), plus extra keys."""
    return {
        "query": result.query,
        "suggestion": result.suggestion,
        "notice": result.notice,
        "hits": [
            {
                "edition": hit.edition,
                "number": hit.number,
                "score": hit.score,
                "snippet": hit.snippet,
                "language": hit.language,
                "title": hit.title,
                "status": hit.status,
                "context": hit.context,
            }
            for hit in result.hits
        ],
    }


_MARK = re.compile(r"<mark>(.*?)</mark>")


def _plain(snippet: str) -> str:
    return html.unescape(_MARK.sub(r"[\1]", snippet))


def result_text(result: SearchResult) -> str:
    """French human output: one block per hit, matched words in [brackets]."""
    lines = []
    if result.notice:
        lines.append(f"Note : {result.notice}")
    count = len(result.hits)
    if not count:
        lines.append(f"Aucun résultat pour « {result.query.strip()[:80]} ».")
    else:
        lines.append(f"{count} résultat{'s' if count > 1 else ''} pour « {result.query.strip()[:80]} » :")
    if result.suggestion:
        lines.append(f"Vouliez-vous dire « {result.suggestion} » ?")
    for i, hit in enumerate(result.hits, 1):
        head = f"{i:2}. {hit.number}"
        if hit.title:
            head += f" {hit.title}"
        tags = [f"édition {hit.edition}", hit.language]
        if hit.status == "historical":
            tags.append("historique")
        head += f"  ({', '.join(tags)})"
        lines.append(head)
        if hit.context:
            lines.append(f"    dans {hit.context}")
        if hit.snippet:
            lines.append(f"    {_plain(hit.snippet)}")
    return "\n".join(lines)
