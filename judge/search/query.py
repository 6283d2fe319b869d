"""Full-text search over every rule of a graph: queries, ranking and the open index.

Owns query handling (rule numbers first, FR↔EN glossary, BM25F, fuzzy fallback, "did you
mean") and the shared `RuleIndex`. Matching and scoring the query tree is `judge.search.match`,
the cached index `judge.search.index`, result shapes and outputs `judge.search.output`, text
analysis `judge.search.analysis`. Queries longer than `MAX_QUERY` characters are truncated, with a
notice in the result.
"""

from __future__ import annotations

import re
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

from whoosh import scoring

from judge.corpus.glossary import find as find_glossary
from judge.corpus.graph import RuleGraph
from judge.corpus.lexicon import GlossaryTerm, glossary
from judge.corpus.model import Rule
from judge.corpus.numbers import RULE_NUMBER
from judge.errors import JudgeError
from judge.normalize import fold, levenshtein
from judge.search.analysis import analyze_terms, fold_terms, stem, stemmer, stop_words, suggestion
from judge.search.fields import FIELD_BOOSTS, MAX_QUERY
from judge.search.index import Indexes, open_or_build
from judge.search.match import And, Clause, Node, Or, Phrase, Postings
from judge.search.output import (
    GlossaryHit,
    SearchResult,
    make_hit,
)

_MEMO_SIZE = 4096  # words whose spelling correction is remembered, per open index
# Query-time weights of the ranked fields (BM25F sums them).
DIRECT_SCORE = 100.0
CHILD_SCORE = 50.0
# A rule in another language than the one asked for (the edition's first language unless the
# query says otherwise) keeps this share of its score: French first, English still found.
OTHER_LANGUAGE = 0.4
GLOSSARY_HITS = 3  # glossary entries shown with the rules
# A rule whose name (heading) is exactly what the query asks for ("mana abilities" -> 406
# Mana Abilities, "haste" -> 502.5 Haste) is the definition: its score is multiplied.
NAME_MATCH = 2.0
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]")
# « 300,3 » is 300.3 (the French decimal comma); « 302,303 » stays two sections.
_DECIMAL_COMMA = re.compile(r"(?<![\w.,])(\d{3}),(\d{1,2}[a-z]?)(?![\w,])")
_NUMBER = re.compile(rf"(?<![\w.]){RULE_NUMBER}(?![\w])")
_OPERATORS = re.compile(r"(?<!\w)(?:AND|OR|NOT)(?!\w)")
# Words that only introduce a rule number (`règle 308.2a`).
_NUMBER_WORDS = frozenset({"regle", "regles", "rule", "rules", "cr", "voir", "cf", "see", "numero", "no"})
_QUOTED = re.compile(r'"([^"]+)"|«([^»]+)»|“([^”]+)”')


class QueryError(JudgeError):
    """A search query that cannot be run (empty, only stop words, bad limit)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class _Plan:
    """What a query asks for once cleaned: numbers, words, phrases, expansions."""

    text: str
    numbers: tuple[str, ...]
    words: tuple[str, ...]
    phrases: tuple[tuple[str, ...], ...]
    expansions: tuple[tuple[tuple[str, ...], ...], ...]  # per glossary notion, its French names
    notices: tuple[str, ...] = field(default=())
    english: tuple[tuple[tuple[str, ...], ...], ...] = ()  # per notion, its English then French names
    names: tuple[tuple[str, str], ...] = ()  # (glossary name typed, "fr" / "en" / "both")
    typed: tuple[str, ...] = ()  # every word as typed, glossary names included (proximity)

    def notions(self, language: str) -> tuple[tuple[tuple[str, ...], ...], ...]:
        """Each glossary notion's names to look for in a text of `language`."""
        return self.expansions if language == "fr" else self.english


# ---------------------------------------------------------------------- glossary
_glossary_cache: tuple[tuple[GlossaryTerm, ...], re.Pattern[str] | None, dict[str, GlossaryTerm]] | None = None


def _glossary() -> tuple[re.Pattern[str] | None, dict[str, GlossaryTerm]]:
    global _glossary_cache
    if _glossary_cache is None:
        terms = glossary()
        names: dict[str, GlossaryTerm] = {}
        for term in terms:
            for name in (*term.en, *term.fr):
                names.setdefault(fold(name), term)
        ordered = sorted(names, key=len, reverse=True)
        pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, ordered)) + r")(?!\w)") if ordered else None
        _glossary_cache = (terms, pattern, names)
    return _glossary_cache[1], _glossary_cache[2]


# ---------------------------------------------------------------------- open index
class RuleIndex:
    """The open indexes of a graph (one per language); share one across threads and requests."""

    def __init__(self, graph: RuleGraph, indexes: Indexes, notice: str | None = None) -> None:
        self.graph = graph
        self._indexes = indexes
        self.languages = tuple(indexes)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._notice = notice
        self._stems: dict[tuple[str, str, str], frozenset[str]] = {}
        self._names: dict[tuple[str, str, str], frozenset[str]] = {}
        self._rules: dict[tuple[str, int], Rule | None] = {}
        self._corrections: dict[str, str | None] = {}
        self._postings = {language: Postings(FIELD_BOOSTS, ("exact", "heading")) for language in indexes}
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

    def postings(self, language: str) -> Postings:
        """The term cache of one language's index."""
        return self._postings[language]

    def rule(self, language: str, searcher: Any, doc: int) -> Rule | None:
        """The rule of a document of one language's index (cached)."""
        try:
            return self._rules[(language, doc)]
        except KeyError:
            fields = searcher.stored_fields(doc)
            found = self._rules[(language, doc)] = self.graph.get(
                fields["edition"], fields["number"], fields["language"])
            return found

    def correction(self, word: str, languages: tuple[str, ...]) -> str | None:
        """The closest indexed word to an unknown one, looked for in `languages` in order;
        memoized (the fuzzy scan costs ~2 ms; the indexes never change)."""
        key = f"{','.join(languages)}:{word}"
        try:
            return self._corrections[key]
        except KeyError:
            if len(self._corrections) >= _MEMO_SIZE:
                self._corrections.clear()
            readers = [self.searcher(language).reader() for language in languages]
            found = None
            if not any(_known(reader, word, language) for reader, language in zip(readers, languages, strict=True)):
                found = next((c for reader in readers if (c := _correct(reader, word)) is not None), None)
            self._corrections[key] = found
            return found

    def stems(self, rule: Rule) -> frozenset[str]:
        """Every stem of a rule's title, text, examples and ancestors' titles (cached)."""
        k = (rule.edition, rule.language, rule.number)
        found = self._stems.get(k)
        if found is None:
            parts = [rule.title or "", rule.text, *(e.text for e in rule.examples)]
            parts.extend(a.heading or "" for a in self.graph.ancestors(rule))
            found = self._stems[k] = frozenset(analyze_terms(" ".join(parts), rule.language))
        return found

    def name_stems(self, rule: Rule) -> frozenset[str]:
        """The stems of a rule's name (title, or short text such as `Haste`); cached."""
        k = (rule.edition, rule.language, rule.number)
        found = self._names.get(k)
        if found is None:
            found = self._names[k] = frozenset(analyze_terms(rule.heading or "", rule.language))
        return found

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
    folded = _DECIMAL_COMMA.sub(r"\1.\2", fold(text))
    numbers = tuple(dict.fromkeys(_NUMBER.findall(folded)))
    phrases = []
    for match in _QUOTED.finditer(folded):
        words = fold_terms(next(g for g in match.groups() if g))
        if len(words) > 1:
            phrases.append(tuple(words))
    rest = folded.replace('"', " ").replace("«", " ").replace("»", " ")
    every = tuple(w for w in fold_terms(rest) if w not in numbers)
    expansions: list[tuple[tuple[str, ...], ...]] = []
    english: list[tuple[tuple[str, ...], ...]] = []
    typed: list[tuple[str, str]] = []
    pattern, names = _glossary()
    if pattern is not None:
        for match in pattern.finditer(rest):
            term = names[match.group(0)]
            in_fr = match.group(0) in {fold(n) for n in term.fr}
            in_en = match.group(0) in {fold(n) for n in term.en}
            typed.append((match.group(0), "both" if in_fr == in_en else "fr" if in_fr else "en"))
            alternatives = tuple(w for w in (tuple(fold_terms(name)) for name in term.fr) if w)
            if alternatives and alternatives not in expansions:
                expansions.append(alternatives)
                english.append(tuple(dict.fromkeys(
                    w for w in (tuple(fold_terms(name)) for name in (*term.en, *term.fr)) if w)))
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
        english=tuple(english),
        names=tuple(typed),
        typed=every,
    )


def _keep(words: tuple[str, ...], language: str) -> tuple[str, ...]:
    """The words that a language's index holds (its stop words dropped)."""
    stop = stop_words(language)
    return tuple(w for w in words if w not in stop)


def _group_clause(words: tuple[str, ...], boost: float = 1.0, language: str = "fr") -> Node:
    """A multi-word notion: all its stems (any field), better still as a phrase."""
    stem_of = stemmer(language)
    stems = tuple(Clause(stem_of(w)) for w in words)
    if len(words) == 1:
        return Or(stems, boost=boost)
    together = And(stems)
    phrase = Phrase("exact", words, slop=2, boost=2.0)
    heading = Phrase("heading", words, slop=1, boost=4.0)
    return Or((together, phrase, heading), boost=boost)


def _compose(words: tuple[str, ...], plan: _Plan, numbers: tuple[str, ...], language: str = "fr") -> Node | None:
    """The query tree for one language's index: each word, number, phrase and glossary notion
    (by its names in that language); scores add up."""
    stem_of = stemmer(language)
    words = _keep(words, language)
    clauses: list[Node] = [Clause(stem_of(w)) for w in dict.fromkeys(words)]
    clauses.extend(Clause(n, boost=0.5) for n in numbers)
    clauses.extend(_group_clause(k, boost=3.0, language=language)
                   for p in plan.phrases if (k := _keep(p, language)))
    clauses.extend(Or(tuple(_group_clause(k, language=language) for alt in e if (k := _keep(alt, language))))
                   for e in plan.notions(language) if any(_keep(alt, language) for alt in e))
    if len(words) > 1:
        # Proximity bonus: the typed words close together, better still in a title.
        clauses.append(Phrase("exact", words, slop=3, boost=1.5))
        clauses.append(Phrase("heading", words, slop=1, boost=4.0))
    typed = _keep(plan.typed, language)
    if len(typed) > len(words) and len(typed) > 1:
        # Some words were a glossary name ("until end of turn"): all of them, as typed.
        clauses.append(Phrase("exact", typed, slop=3, boost=1.5))
    if not clauses:
        return None
    return Or(tuple(clauses))


def _concepts(words: tuple[str, ...], plan: _Plan, language: str = "fr") -> list[tuple[frozenset[str], ...]]:
    """Each notion the query asks for, as alternative sets of stems (any one covers it)."""
    stem_of = stemmer(language)
    words = _keep(words, language)
    concepts: list[tuple[frozenset[str], ...]] = [(frozenset({stem_of(w)}),) for w in dict.fromkeys(words)]
    concepts.extend((frozenset(stem_of(w) for w in k),) for p in plan.phrases if (k := _keep(p, language)))
    concepts.extend(tuple(frozenset(stem_of(w) for w in k) for alt in e if (k := _keep(alt, language)))
                    for e in plan.notions(language) if any(_keep(alt, language) for alt in e))
    return concepts


def _coverage(stems: frozenset[str], concepts: list[tuple[frozenset[str], ...]]) -> float:
    if not concepts:
        return 1.0
    covered = sum(1 for alts in concepts if any(alt <= stems for alt in alts))
    return covered / len(concepts)


def _known(reader: Any, word: str, language: str = "fr") -> bool:
    if (reader.doc_frequency("exact", word)) > 0:
        return True
    stem_of = stemmer(language)
    return any(reader.doc_frequency(name, stem_of(word)) > 0 for name in FIELD_BOOSTS)


def _correct(reader: Any, word: str) -> str | None:
    """The closest indexed word to an unknown one (most frequent on ties), or None."""
    if not 4 <= len(word) <= 30 or any(c.isdigit() for c in word):
        return None
    maxdist = 1 if len(word) <= 5 else 2
    candidates = set(reader.terms_within("exact", word, maxdist, prefix=1))
    if not candidates:
        return None
    return str(min(candidates, key=lambda c: (levenshtein(c, word), -reader.doc_frequency("exact", c), c)))


# ---------------------------------------------------------------------- search

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


def _merge(per_language: dict[str, list[tuple[Rule, float]]], first: str) -> list[tuple[Rule, float]]:
    """One ranking from each language's own: BM25 scores of two indexes are not comparable
    (their statistics differ), so another language's best hit is scaled to `OTHER_LANGUAGE`
    times the best hit of the `first` language; `first`'s scores are kept as they are."""
    tops = {language: max((score for _, score in hits), default=0.0) for language, hits in per_language.items()}
    reference = tops.get(first, 0.0)
    merged: list[tuple[Rule, float]] = []
    for language, hits in per_language.items():
        scale = 1.0
        if language != first and reference > 0 and tops[language] > 0:
            scale = OTHER_LANGUAGE * reference / tops[language]
        merged.extend((rule, score * scale) for rule, score in hits)
    merged.sort(key=lambda item: -item[1])
    return merged


def query_language(index: RuleIndex, plan: _Plan) -> str | None:
    """`en` for a query written in English (its glossary names and words are English ones,
    "mana burn", "until end of turn"), else None: each edition's first language (French)."""
    if "en" not in index.languages or "fr" not in index.languages:
        return None
    readers = {language: index.searcher(language).reader() for language in ("fr", "en")}

    def known(word: str) -> set[str]:
        return {language for language, reader in readers.items() if reader.doc_frequency("exact", word) > 0}

    french = english = 0
    # A glossary name counts for its language when one of its words is unknown to the other
    # language's text ("mana burn": "burn"; not "combat", a French word too).
    for name, language in plan.names:
        words = fold_terms(name)
        if language == "en" and any("fr" not in known(w) for w in words):
            english += 1
        elif language == "fr" and any("en" not in known(w) for w in words):
            french += 1
    for word in plan.words:
        found = known(word)
        french += found == {"fr"}
        english += found == {"en"}
    return "en" if english > french else None


def search_with(index: RuleIndex, query: str, *, edition: str | None = None, limit: int = 10,
                lang: str | None = None) -> SearchResult:
    """Run one query on an open index (see `open_index`); thread-safe. `lang` searches one
    language only; without it, both, the query's language first (French unless it is English)."""
    if not isinstance(limit, int) or limit < 1:
        raise QueryError(f"nombre de résultats invalide : {limit} (un entier positif est attendu)")
    graph = index.graph
    if edition is not None:
        graph.edition(edition)
    if lang is not None and lang not in index.languages:
        raise QueryError(f"langue inconnue : « {lang} » (langues : {', '.join(index.languages)})")
    plan = plan_query(query)
    notices = list(plan.notices)
    rebuilt = index.take_notice()
    if rebuilt:
        notices.insert(0, rebuilt)
    preferred = lang or query_language(index, plan)
    languages = (lang,) if lang else tuple(sorted(index.languages, key=lambda code: code != preferred))

    def weight(rule: Rule, score: float) -> float:
        first = preferred or graph.primary_language(rule.edition)
        return score if rule.language == first else score * OTHER_LANGUAGE

    ranked: dict[tuple[str, str, str], tuple[Rule, float]] = {}
    direct = sorted(((r, weight(r, s)) for r, s in _direct(graph, plan.numbers, edition)
                     if r.language in languages), key=lambda item: -item[1])
    for rule, score in direct:
        ranked.setdefault((rule.edition, rule.language, rule.number), (rule, score))
    missing = [n for n in plan.numbers if not any(r.number == n for r, _ in ranked.values())]
    if missing:
        notices.append("règle introuvable : " + ", ".join(missing))

    words = plan.words
    corrections: dict[str, str] = {}
    stems = {stem(w) for w in (*words, *(w for group in plan.phrases for w in group))}
    stems |= {stem(w) for e in (*plan.expansions, *plan.english) for alt in e for w in alt}
    exact_words = set(plan.numbers) | {w for group in plan.phrases for w in group}

    def run(language: str, terms: tuple[str, ...]) -> list[tuple[Rule, float]]:
        q = _compose(terms, plan, plan.numbers, language)
        if q is None:
            return []
        searcher = index.searcher(language)
        postings = index.postings(language)
        allowed = postings.edition(searcher, edition) if edition else None
        concepts = _concepts(terms, plan, language)
        asked = frozenset().union(*(alt for alts in concepts for alt in alts)) if concepts else frozenset()
        found = []
        scores = postings.evaluate(searcher, q)
        for doc, score in postings.top(scores, 3 * limit + 20 + len(ranked), allowed):
            rule = index.rule(language, searcher, doc)
            if rule is not None:
                # Coordination: a rule that answers every notion of the query beats one
                # that repeats a single word (BM25 alone does not see this).
                score *= _coverage(index.stems(rule), concepts) ** 2
                name = index.name_stems(rule)
                if name and name <= asked and _coverage(name, concepts) == 1.0:
                    score *= NAME_MATCH
                found.append((rule, score))
        return found

    for word in words:
        # An unknown word finds nothing by itself (few hits): fuzzy fallback on `exact`.
        fixed = index.correction(word, languages)
        if fixed is not None:
            corrections[word] = fixed
    if corrections:
        words = tuple(corrections.get(w, w) for w in words)
        stems |= {stem(w) for w in corrections.values()}
        exact_words |= set(corrections.values())
    per_language = {language: run(language, words) for language in languages}
    text_hits = _merge(per_language, preferred or graph.primary_language(graph.newest_edition))
    for rule, score in text_hits[: limit + len(ranked)]:
        ranked.setdefault((rule.edition, rule.language, rule.number), (rule, score))

    hits = tuple(
        make_hit(graph, rule, score, stems, exact_words) for rule, score in list(ranked.values())[:limit]
    )
    return SearchResult(
        query=query,
        suggestion=suggestion(plan.text, corrections),
        hits=hits,
        notice=" ; ".join(notices) if notices else None,
        glossary=tuple(
            GlossaryHit(edition=m.edition, language=m.language, term=m.entry.term, text=m.entry.text,
                        found_by=m.via)
            for m in find_glossary(graph, plan.text, edition, limit=GLOSSARY_HITS)
            if lang is None or m.language == lang
        ) if not plan.numbers else (),
    )


def search(
    query: str, *, edition: str | None = None, limit: int = 10, graph: RuleGraph | None = None,
    lang: str | None = None,
) -> SearchResult:
    """Search the rules of `graph` (default: the embedded corpus plus user configuration)."""
    if graph is None:
        from judge.corpus.loader import load_graph

        graph = load_graph()
    return search_with(index_for(graph), query, edition=edition, limit=limit, lang=lang)
