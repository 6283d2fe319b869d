"""The offline search, in Python: the reference that `templates/search.js` follows step for step.

The static site ranks in the browser; this module ranks the same way at build and test time
(the parity test runs both on the eval set and compares). Everything is integer arithmetic
so that both engines give the very same order.

A query, step by step:

1. Fold it into terms (`judge.search.analysis.fold_terms`, mirrored by `foldTerms` in JS).
2. Resolve each word against the index (`resolve`): a term with a digit is a rule number
   (exact, else every number it starts, at half weight); a vocabulary word gives its stem;
   else a simple inflection (`s`, `x`, `e`, `es` dropped or added) found in the vocabulary
   gives its stem; else, from `MIN_PREFIX` characters, every vocabulary word it starts
   gives its stem, at half weight; else the closest vocabulary word (edit distance <= 1 up
   to 5 characters, <= 2 beyond, same first letter preferred, then the most frequent)
   replaces it, and the page asks « Vouliez-vous dire … ? ».
3. Glossary: at each position the longest glossary name (EN or FR, as stems) starting
   there becomes one notion, covered by any of its French names or by the name as typed;
   its words are consumed. Every other word is a notion of its own.
4. Score: sum over the distinct keys of all notions of the posting weights (halved for
   prefix matches), then times (notions covered / notions)², rounded down, as `judge
   search` does for coordination: a rule that answers every notion beats one that repeats
   one word. Ties go to the higher sum, then to document order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from judge.normalize import levenshtein
from judge.search.analysis import STOP_WORDS
from judge.search.tokens import fold_terms, suggestion
from judge.site.offline_index import SearchIndex, has_digit

MIN_PREFIX = 4  # a query word this long also matches the longer vocabulary words it starts
MIN_CORRECT = 4  # shorter unknown words are never corrected
MAX_CORRECT = 30
INFLECTIONS = (("s", ""), ("x", ""), ("es", ""), ("e", ""), ("", "s"), ("", "e"), ("", "es"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Notion:
    """One thing the query asks for: any alternative (all of its keys) covers it."""

    alternatives: tuple[tuple[str, ...], ...]
    divisor: int = 1  # 2 for prefix matches: half weight


@dataclass(frozen=True, slots=True, kw_only=True)
class OfflineResult:
    """Ranked document ids, the corrected words and the corrected query (or None)."""

    ids: tuple[str, ...]
    corrections: dict[str, str]
    suggestion: str | None


def correct(index: SearchIndex, word: str) -> str | None:
    """The closest vocabulary word to an unknown one, or None."""
    if not MIN_CORRECT <= len(word) <= MAX_CORRECT or has_digit(word):
        return None
    limit = 1 if len(word) <= 5 else 2
    best: tuple[int, int, int, str] | None = None
    for other in index.words:
        if abs(len(other) - len(word)) > limit:
            continue
        distance = levenshtein(word, other)
        if distance > limit:
            continue
        key = (distance, int(other[0] != word[0]), -len(index.postings.get(index.words[other], ())), other)
        if best is None or key < best:
            best = key
    return best[3] if best else None


@dataclass(frozen=True, slots=True, kw_only=True)
class Word:
    """One query word resolved against the index."""

    keys: tuple[str, ...]  # its stem, its rule number, or what it starts (none: unknown)
    divisor: int = 1
    token: str | None = None  # what glossary names are matched against
    correction: str | None = None  # the vocabulary word that replaced it


def resolve(index: SearchIndex, word: str) -> Word:
    """One plain query word: rule number, vocabulary word, inflection, prefix or correction."""
    if has_digit(word):
        if word in index.postings:
            return Word(keys=(word,), token=word)
        keys = sorted(k for k in index.postings if len(k) > len(word) and k.startswith(word))
        return Word(keys=tuple(keys), divisor=2, token=word)
    if word in index.words:
        return Word(keys=(index.words[word],), token=index.words[word])
    for cut, add in INFLECTIONS:
        if word.endswith(cut) and len(word) > len(cut) + 2:
            variant = word[: len(word) - len(cut)] + add
            if variant in index.words:
                return Word(keys=(index.words[variant],), token=index.words[variant])
    if len(word) >= MIN_PREFIX:
        stems = sorted({s for w, s in index.words.items() if len(w) > len(word) and w.startswith(word)})
        if stems:
            return Word(keys=tuple(stems), divisor=2)
    fixed = correct(index, word)
    if fixed is None:
        return Word(keys=(), token=word)
    return Word(keys=(index.words[fixed],), token=index.words[fixed], correction=fixed)


def glossary_notions(index: SearchIndex, tokens: list[str | None]) -> tuple[list[Notion], list[int]]:
    """The glossary notions named in the query (the longest name first at each position),
    each also covered by the name as typed; and the positions no name consumed."""
    notions: list[Notion] = []
    rest: list[int] = []
    i = 0
    while i < len(tokens):
        best, size = -1, 0
        for k, (names, _) in enumerate(index.glossary):
            for name in names:
                if len(name) > size and tuple(tokens[i:i + len(name)]) == name:
                    best, size = k, len(name)
        if best < 0:
            rest.append(i)
            i += 1
            continue
        typed = tuple(t or "" for t in tokens[i:i + size])
        notion = Notion(alternatives=tuple(dict.fromkeys((*index.glossary[best][1], typed))))
        if notion not in notions:
            notions.append(notion)
        i += size
    return notions, rest


def plan(index: SearchIndex, query: str) -> tuple[list[Notion], dict[str, str]]:
    """The notions of a query, and the corrections made to its words."""
    terms = fold_terms(query, STOP_WORDS)
    resolved = {term: resolve(index, term) for term in terms}
    corrections = {t: w.correction for t, w in resolved.items() if w.correction is not None}
    notions, rest = glossary_notions(index, [resolved[t].token for t in terms])
    for term in dict.fromkeys(terms[i] for i in rest):
        word = resolved[term]
        notion = Notion(alternatives=tuple((k,) for k in word.keys), divisor=word.divisor)
        if word.keys and notion not in notions:
            notions.append(notion)
    return notions, corrections


def rank(index: SearchIndex, notions: list[Notion]) -> list[int]:
    """Documents, best first: summed weights scaled by the share of notions covered."""
    divisors: dict[str, int] = {}
    for notion in notions:
        for alternative in notion.alternatives:
            for key in alternative:
                divisors[key] = min(divisors.get(key, notion.divisor), notion.divisor)
    scores: dict[int, int] = {}
    for key, divisor in divisors.items():
        for doc, weight in index.postings.get(key, ()):
            scores[doc] = scores.get(doc, 0) + weight // divisor
    holders = {key: {doc for doc, _ in index.postings.get(key, ())} for key in divisors}
    covered = dict.fromkeys(scores, 0)
    for notion in notions:
        docs = set().union(*(set.intersection(*(holders[k] for k in alt)) for alt in notion.alternatives))
        for doc in docs:
            covered[doc] += 1
    n = len(notions)
    final = {doc: score * covered[doc] * covered[doc] // (n * n) for doc, score in scores.items()}
    # Never a result that scored nothing.
    return sorted((d for d in final if final[d] > 0), key=lambda d: (-final[d], -scores[d], d))


def search_full(index: SearchIndex, query: str, limit: int = 10) -> OfflineResult:
    """Rank document ids exactly as `search.js` does, with its corrections and suggestion."""
    query = re.sub(r"(\d{3}),(\d)", r"\1.\2", query)  # « 300,3 » is 300.3
    notions, corrections = plan(index, query)
    ids = tuple(index.docs[doc][0] for doc in rank(index, notions)[:limit])
    return OfflineResult(ids=ids, corrections=corrections, suggestion=suggestion(query, corrections, STOP_WORDS))


def search(index: SearchIndex, query: str, limit: int = 10) -> list[str]:
    """The ranked document ids of `search_full`."""
    return list(search_full(index, query, limit).ids)
