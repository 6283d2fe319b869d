"""The offline search index: precomputed term weights written as a JavaScript file.

The site loads `search-index.js` with a `<script>` tag (works from file://, no fetch).
Terms come from `judge.analysis.fold_terms` (the unstemmed pipeline of `judge search`);
`templates/search.js` reimplements it for the query, with the stop words and elisions
shipped inside the index so that both sides use the very same lists.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .graph import RuleGraph
from .model import plain_text
from .templating import rule_url

GLOBAL_NAME = "JUDGE_SEARCH_INDEX"
NUMBER_WEIGHT = 5  # a rule's own number counts as this many occurrences
TITLE_WEIGHT = 3
SNIPPET_LENGTH = 160
MIN_PREFIX = 4  # a query term this long also matches longer indexed terms


def analyzer() -> tuple[Callable[[str], list[str]], tuple[str, ...], tuple[str, ...]]:
    """The fold function, and the stop words and elisions the JS query side must apply."""
    from .analysis import ELISIONS, STOP_WORDS, fold_terms

    return fold_terms, tuple(sorted(STOP_WORDS)), tuple(sorted(ELISIONS))


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchIndex:
    """Documents (one per rule) and, for each term, (document, integer weight) postings."""

    docs: tuple[tuple[str, str, str, str, str, str], ...]  # id, edition, language, label, url, snippet
    postings: dict[str, tuple[tuple[int, int], ...]]
    stop_words: tuple[str, ...]
    elisions: tuple[str, ...]
    glossary: tuple[tuple[tuple[tuple[str, ...], ...], tuple[str, ...]], ...] = ()  # (names, expansion)

    def as_json(self) -> str:
        payload = {
            "docs": [list(d) for d in self.docs],
            "postings": {t: [list(p) for p in self.postings[t]] for t in sorted(self.postings)},
            "stop": list(self.stop_words),
            "elisions": list(self.elisions),
            "glossary": [[[list(n) for n in names], list(expansion)] for names, expansion in self.glossary],
        }
        return json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SNIPPET_LENGTH else text[: SNIPPET_LENGTH - 1].rstrip() + "…"


def build_search_index(graph: RuleGraph) -> SearchIndex:
    """One document per rule of every edition and language; weights are integers so that
    Python and JavaScript rank identically (no floating-point drift between engines)."""
    fold, stop, elisions = analyzer()
    docs: list[tuple[str, str, str, str, str, str]] = []
    counts: list[Counter[str]] = []
    for rule in graph.all_rules():
        body = " ".join([plain_text(rule.segments), *(ex.text for ex in rule.examples)])
        terms: Counter[str] = Counter(fold(body))
        for term in fold(rule.title or ""):
            terms[term] += TITLE_WEIGHT
        terms[rule.number] += NUMBER_WEIGHT
        primary = graph.primary_language(rule.edition)
        label = f"{rule.number} {rule.title}" if rule.title else rule.number
        docs.append((f"{rule.edition}:{rule.language}:{rule.number}", rule.edition, rule.language,
                     label, rule_url(rule, "", primary), _snippet(body or rule.title or "")))
        counts.append(terms)
    df: Counter[str] = Counter()
    for terms in counts:
        df.update(terms.keys())
    n = len(docs)
    postings: dict[str, list[tuple[int, int]]] = {}
    for i, terms in enumerate(counts):
        for term, tf in terms.items():
            idf = math.log(1 + n / df[term])
            postings.setdefault(term, []).append((i, round(1000 * (1 + math.log(tf)) * idf)))
    return SearchIndex(docs=tuple(docs), postings={t: tuple(p) for t, p in postings.items()},
                       stop_words=stop, elisions=elisions, glossary=glossary_expansions(fold))


def glossary_expansions(
    fold: Callable[[str], list[str]],
) -> tuple[tuple[tuple[tuple[str, ...], ...], tuple[str, ...]], ...]:
    """The FR↔EN glossary of `judge search`, folded: each notion's names and its French terms."""
    from .search import load_glossary

    out = []
    for term in load_glossary():
        names = tuple(dict.fromkeys(t for t in (tuple(fold(n)) for n in (*term.en, *term.fr)) if t))
        expansion = tuple(dict.fromkeys(w for name in term.fr for w in fold(name)))
        if names and expansion:
            out.append((names, expansion))
    return tuple(out)


def expand_query(index: SearchIndex, terms: list[str]) -> list[str]:
    """The query terms, then the French terms of every glossary notion named in the query."""
    out = list(dict.fromkeys(terms))
    for names, expansion in index.glossary:
        if any(_contains(terms, name) for name in names):
            out.extend(t for t in expansion if t not in out)
    return out


def _contains(terms: list[str], name: tuple[str, ...]) -> bool:
    n = len(name)
    return any(tuple(terms[i:i + n]) == name for i in range(len(terms) - n + 1))


def search_index_js(index: SearchIndex) -> str:
    return f"window.{GLOBAL_NAME} = {index.as_json()};\n"


def _postings(index: SearchIndex, term: str) -> tuple[tuple[int, int], ...]:
    exact = index.postings.get(term)
    if exact is not None:
        return exact
    if len(term) < MIN_PREFIX and not term.isdigit():
        return ()
    # No exact term: every indexed term that starts with it, at half weight (as search.js).
    return tuple(
        (doc, weight // 2)
        for other in index.postings
        if len(other) > len(term) and other.startswith(term)
        for doc, weight in index.postings[other]
    )


def search(index: SearchIndex, query: str, limit: int = 10,
           fold: Callable[[str], Iterable[str]] | None = None) -> list[str]:
    """Rank document ids exactly as `search.js` does: sum of weights, ties by document order."""
    fold = fold or analyzer()[0]
    scores: dict[int, int] = {}
    for term in expand_query(index, list(fold(query))):
        for doc, weight in _postings(index, term):
            scores[doc] = scores.get(doc, 0) + weight
    ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return [index.docs[doc][0] for doc, _ in ranked[:limit]]
