"""The offline search index: precomputed stem weights written as a JavaScript file.

The site loads `search-index.js` with a `<script>` tag (works from file://, no fetch).
Postings are keyed by stem (`judge.search.analysis.stem`, the stemmed pipeline of `judge search`)
or by rule number. The browser cannot stem, so the index also ships the corpus vocabulary
as a `folded word -> stem` map: a query word is looked up there (or corrected to the
closest vocabulary word, see `offline_search.py`). `templates/search.js` reimplements the
unstemmed fold for the query, with the stop words and elisions shipped inside the index so
that both sides use the very same lists; the glossary ships its French names as stems.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from judge.corpus.graph import RuleGraph
from judge.corpus.model import Rule, plain_text
from judge.search.fields import FIELD_BOOSTS
from judge.site.templating import rule_url

GLOBAL_NAME = "JUDGE_SEARCH_INDEX"
# Field boosts of `judge search`; BM25 parameters as Whoosh's BM25F.
K1 = 1.2
B = 0.75
NUMBER_SCORE = 20000  # a rule's own number: above any words
Glossary = tuple[tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]], ...]


def analyzer() -> tuple[Callable[[str], list[str]], tuple[str, ...], tuple[str, ...]]:
    """The fold function, and the stop words and elisions the JS query side must apply."""
    from judge.search.analysis import STOP_WORDS
    from judge.search.tokens import ELISIONS, fold_terms

    return (lambda text: fold_terms(text, STOP_WORDS)), tuple(sorted(STOP_WORDS)), tuple(sorted(ELISIONS))


def has_digit(term: str) -> bool:
    """A rule number (`308.2a`) or any term with a digit: never stemmed, never corrected."""
    return any("0" <= c <= "9" for c in term)


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchIndex:
    """Documents (one per rule), (document, integer weight) postings for each stem or rule
    number, the vocabulary (folded word -> stem) and the glossary: for each notion, its EN
    and FR names and its French names (the alternatives to search), all as stems."""

    # id, edition, language, label, url, text (for extracts), note (« historique, supprimée en 2010 »)
    docs: tuple[tuple[str, str, str, str, str, str, str], ...]
    postings: dict[str, tuple[tuple[int, int], ...]]
    words: dict[str, str]
    stop_words: tuple[str, ...]
    elisions: tuple[str, ...]
    glossary: Glossary = ()

    def as_json(self) -> str:
        payload = {
            "docs": [list(d) for d in self.docs],
            "postings": {t: [list(p) for p in self.postings[t]] for t in sorted(self.postings)},
            "words": _words_json(self.words),
            "stop": list(self.stop_words),
            "elisions": list(self.elisions),
            "glossary": [[[list(n) for n in names], [list(a) for a in alternatives]]
                         for names, alternatives in self.glossary],
        }
        return json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _note(graph: RuleGraph, rule: Rule) -> str:
    """What a result says of a historical rule: « historique, supprimée en 2010 »."""
    if rule.status != "historical":
        return ""
    removed = graph.removed_in(rule)
    return "historique" + (f", supprimée en {', '.join(e.id for e in removed)}" if removed else "")


def _words_json(words: dict[str, str]) -> dict[str, str | int]:
    """The vocabulary, compact: a stem that starts the word is written as its length."""
    return {w: len(s) if w.startswith(s) else s for w, s in sorted(words.items())}


def _fields(graph: RuleGraph, rule: Rule) -> dict[str, str]:
    """A rule's ranked fields, as `judge search` indexes them (`search_index._documents`)."""
    ancestors = [a.heading for a in graph.ancestors(rule) if a.heading]
    return {"title": rule.heading or "", "text": plain_text(rule.segments),
            "examples": " ".join(ex.text for ex in rule.examples), "context": " ".join(ancestors)}


def _mean(values: list[int]) -> float:
    return max(1.0, sum(values) / len(values)) if values else 1.0


def build_search_index(graph: RuleGraph) -> SearchIndex:
    """One document per rule of every edition (in its first language), weighted by BM25F with the field
    boosts of `judge search`; weights are rounded to integers so that Python and JavaScript
    rank identically (no floating-point drift between engines)."""
    from judge.search.analysis import stem

    fold, stop, elisions = analyzer()
    words: dict[str, str] = {}

    def stems(text: str) -> list[str]:
        return [t if has_digit(t) else words.setdefault(t, stem(t)) for t in fold(text)]

    # Each edition's first language only (French): the offline page searches the rulebook a
    # judge reads; both languages are `judge search`'s (and `judge serve`'s) job.
    rules = [r for e in graph.editions for r in graph.rules(e.id, e.languages[0])]
    docs: list[tuple[str, str, str, str, str, str, str]] = []
    fields: list[dict[str, Counter[str]]] = []
    for rule in rules:
        parts = _fields(graph, rule)
        fields.append({name: Counter(stems(text)) for name, text in parts.items()})
        body = " ".join(p for p in (parts["text"], parts["examples"]) if p)
        primary = graph.primary_language(rule.edition)
        label = f"{rule.number} {rule.title}" if rule.title else rule.number
        docs.append((f"{rule.edition}:{rule.language}:{rule.number}", rule.edition, rule.language,
                     label, rule_url(rule, "", primary), " ".join((body or rule.title or "").split()),
                     _note(graph, rule)))
    glossary = glossary_expansions(stems)
    # BM25 statistics per language, as `judge search` keeps one index per language.
    stats: dict[str, tuple[int, dict[str, float], Counter[str]]] = {}
    for language in dict.fromkeys(rule.language for rule in rules):
        mine = [doc for doc, rule in zip(fields, rules, strict=True) if rule.language == language]
        # Each field's average length over the rules that have it (most rules have no title).
        average = {f: _mean([sum(d[f].values()) for d in mine if d[f]]) for f in FIELD_BOOSTS}
        df: Counter[str] = Counter()
        for doc in mine:
            df.update(set().union(*(doc[f].keys() for f in FIELD_BOOSTS)))
        stats[language] = (len(mine), average, df)
    postings: dict[str, list[tuple[int, int]]] = {}
    for i, (doc, rule) in enumerate(zip(fields, rules, strict=True)):
        n, average, df = stats[rule.language]
        lengths = {f: sum(doc[f].values()) for f in FIELD_BOOSTS}
        weights: dict[str, float] = {}
        for f, boost in FIELD_BOOSTS.items():
            norm = K1 * (1 - B + B * lengths[f] / average[f])
            for term, tf in doc[f].items():
                weights[term] = weights.get(term, 0.0) + boost * tf * (K1 + 1) / (tf + norm)
        for term, w in weights.items():
            idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
            postings.setdefault(term, []).append((i, round(1000 * w * idf)))
        postings.setdefault(rule.number, [])
        postings[rule.number] = [p for p in postings[rule.number] if p[0] != i] +  [(i, NUMBER_SCORE)]
    return SearchIndex(docs=tuple(docs), postings={t: tuple(p) for t, p in postings.items()},
                       words=dict(sorted(words.items())), stop_words=stop, elisions=elisions,
                       glossary=glossary)


def glossary_expansions(stems: Callable[[str], list[str]]) -> Glossary:
    """The FR↔EN glossary of `judge search` as stems: each notion's names (what a query may
    contain) and its French names (what the notion searches for). `stems` adds the names'
    words to the vocabulary, so that a query word of a name is known (and correctable)."""
    from judge.corpus.lexicon import glossary

    out = []
    for term in glossary():
        names = tuple(dict.fromkeys(t for t in (tuple(stems(n)) for n in (*term.en, *term.fr)) if t))
        alternatives = tuple(dict.fromkeys(a for a in (tuple(stems(n)) for n in term.fr) if a))
        if names and alternatives:
            out.append((names, alternatives))
    return tuple(out)


def search_index_js(index: SearchIndex) -> str:
    return f"window.{GLOBAL_NAME} = {index.as_json()};\n"
