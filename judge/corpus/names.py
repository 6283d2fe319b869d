"""Names compared by their words, and glossary terms found by a query's words.

A name's *key* is its words, folded, small words and plural `s`/`x` dropped (`Phased-Out` and
"phased out" are one name). Citations compare a citation's words with rule headings by key
(`judge.corpus.citations`); the glossary finds its entries by key (`judge.corpus.glossary`,
and the search engine, `judge.search.engine`). Plain strings and sets
only: no record type, so a warm `judge search` imports no model.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from judge.normalize import fold

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Literal, TypeVar

    T = TypeVar("T")
    Via = Literal["term", "lexicon", "words"]

Key = frozenset[str]

SMALL_WORDS = frozenset({
    "a", "la", "le", "les", "l", "ou", "et", "de", "du", "des", "d", "une", "un", "has", "or", "and",
    "the", "with", "comme", "of", "an", "to", "en", "au", "aux",
})
_NAME_WORD = re.compile(r"[\w']+")
_NOTE = re.compile(r"\s*\([^)]*\)\s*$")  # `Mana Burn (Obsolete)`: the term is `Mana Burn`
_ORDER = {"term": 0, "lexicon": 1, "words": 2}


def name_key(text: str) -> Key:
    """Words of a name for comparison: folded, small words dropped, plural `s`/`x` dropped
    (`Phased-Out` and "phased out" are one name)."""
    words = (w.split("'")[-1] for w in _NAME_WORD.findall(fold(text)))
    return frozenset(w[:-1] if len(w) > 3 and w[-1] in "sx" else w for w in words if w and w not in SMALL_WORDS)


def term_key(term: str) -> Key:
    """The words that name a glossary entry (a trailing parenthesised note aside)."""
    return name_key(_NOTE.sub("", term))


def _translations(key: Key, notions: Iterable[frozenset[Key]]) -> set[Key]:
    """The name keys of every name of the FR↔EN notions that `key` names."""
    out: set[Key] = set()
    for names in notions:
        if key in names:
            out |= names
    return out


def match_terms(candidates: Iterable[tuple[T, str, Key]], query: str, *,
                notions: Iterable[frozenset[Key]]) -> list[tuple[T, Via]]:
    """The candidates (anything, its term, the term's `term_key`) that a query names, best
    first, each with how: its own words (`term`), a name of the same FR↔EN notion
    (`lexicon`: `notions` holds each notion's name keys), or every word of the query in
    the term (`words`); shorter terms first within each."""
    key = name_key(query)
    if not key:
        return []
    translated = _translations(key, notions) - {key}
    found: list[tuple[T, str, Via]] = []
    for item, term, term_words in candidates:
        if term_words == key:
            found.append((item, term, "term"))
        elif term_words in translated:
            found.append((item, term, "lexicon"))
        elif key <= term_words:
            found.append((item, term, "words"))
    found.sort(key=lambda m: (_ORDER[m[2]], len(m[1])))
    return [(item, via) for item, _, via in found]
