"""The text pipeline of search without a stemmer: tokens, elision, stop words, query words.

Pure functions, no Whoosh: the index side (`judge.search.analysis`, which adds the Snowball
stemmers and the stop lists) and the query side (`judge.search.query`) share them, and
`templates/search.js` spells out the same steps.

1. Tokens: the regex `TOKEN_PATTERN` over the original text: a rule number kept whole
   (`308.2a`, `300.3`, `505`), else a run of word characters with inner apostrophes
   (`'` or `’`), so `l'étape` and `tour-ci` give `l'étape`, `tour`, `ci`.
2. Fold each token with `judge.normalize.fold` (lowercase, no accents, `œ` -> `oe`,
   every apostrophe -> `'`).
3. Elision: while the token has an apostrophe and what precedes the first one is in
   `ELISIONS`, drop that prefix and the apostrophe (`qu'une` -> `une`, `jusqu'a` -> `a`).
4. Stop words: drop a token in the language's stop list.

The query side never stems: a query word becomes a stem of the index through the exported
lexicon, made at index time for the words of `query_vocabulary` (every word of the indexed
texts and of the FR↔EN glossary, with their regular inflections). A word outside that
vocabulary matches nothing (`unknown_stem`) unless the typo tolerance corrects it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from judge.normalize import fold

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

TOKEN_PATTERN = re.compile(r"\d+(?:\.\d+[a-zA-Z]?)?(?![\w'’])|\w+(?:['’`]\w+)*")
ELISIONS = frozenset({"l", "d", "qu", "jusqu", "lorsqu", "puisqu", "n", "s", "c", "j", "m", "t"})
# Game words the stemmer would mangle or merge with unrelated words: never stemmed; their
# plurals (with a final s or x) have the same stem (`protected_stem`: « planeswalkers » is
# « planeswalker », « tours » is « tour »).
PROTECTED = frozenset(
    {
        "mana",
        "initiative",
        "regroupement",
        "dephasage",
        "celerite",
        "pile",
        "rituel",
        "ephemere",
        "planeswalker",
        "archenemy",
        "mur",
        "deck",
        "tour",
    }
)
# What a word outside the query vocabulary stands for: a term no analyzer can produce
# (`∅` is not a word character), so it matches and covers nothing.
UNKNOWN = "∅"
# Regular inflections a query may use that the texts lack (plural, feminine, singular).
_ENDINGS = ("s", "x", "e", "es")


def unelide(term: str) -> tuple[str, int]:
    """Drop elided articles (`qu'une` -> `une`); also return how many characters went."""
    dropped = 0
    while "'" in term:
        head, _, tail = term.partition("'")
        if head not in ELISIONS or not tail:
            break
        term = tail
        dropped += len(head) + 1
    return term, dropped


# A text's words recur (« la », « créature », rule after rule): each is folded once per process.
_fold_word = lru_cache(maxsize=1 << 16)(fold)


def folded_tokens(text: str, stop: frozenset[str]) -> Iterator[tuple[str, int, int]]:
    """Steps 1–4: `(folded term, start, end)` with offsets into `text`, stop words dropped."""
    for match in TOKEN_PATTERN.finditer(text):
        term, dropped = unelide(_fold_word(match.group(0)))
        if not term or term in stop:
            continue
        yield term, match.start() + dropped, match.end()


def fold_terms(text: str, stop: frozenset[str]) -> list[str]:
    """The unstemmed pipeline (steps 1–4): query words, phrases, typo correction."""
    return [term for term, _, _ in folded_tokens(text, stop)]


def never_stemmed(term: str) -> bool:
    """A rule number (any term with a digit) or a protected game word is its own stem."""
    return term in PROTECTED or any(c.isdigit() for c in term)


def protected_stem(term: str) -> str | None:
    """The protected word whose plural `term` is (« planeswalkers » -> « planeswalker »), else None."""
    if len(term) > 3 and term[-1] in "sx" and term[:-1] in PROTECTED:
        return term[:-1]
    return None


def unknown_stem(word: str) -> str:
    """The stem of a word outside the query vocabulary: matches nothing, differs per word."""
    return UNKNOWN + word


def inflections(word: str) -> tuple[str, ...]:
    """The word and its regular inflections: with a final s, x, e or es, and without one."""
    out = [word, *(word + ending for ending in _ENDINGS)]
    out.extend(word[: -len(ending)] for ending in _ENDINGS if word.endswith(ending) and len(word) > len(ending) + 2)
    return tuple(out)


def in_vocabulary(word: str, base: Callable[[str], bool]) -> bool:
    """Is `word` in the `query_vocabulary` of the words that `base` tells? (The inverse of
    `inflections`, asked of a few words instead of building the whole vocabulary.)"""
    if not word or any(c.isdigit() for c in word):
        return False
    if base(word):
        return True
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) > len(ending) and base(word[: -len(ending)]):
            return True
        if len(word) > 2 and base(word + ending):
            return True
    return False


def query_vocabulary(words: Iterable[str], names: Iterable[str]) -> frozenset[str]:
    """The words a query is resolved with: `words` (the folded words of the indexed texts)
    and the words of the glossary `names`, each with its inflections; no rule number."""
    found: set[str] = set()
    base = set(words)
    for name in names:
        base.update(unelide(fold(m.group(0)))[0] for m in TOKEN_PATTERN.finditer(name))
    for word in base:
        if word and not any(c.isdigit() for c in word):
            found.update(inflections(word))
    return frozenset(found)


def suggestion(query: str, corrections: dict[str, str], stop: frozenset[str]) -> str | None:
    """The query as typed with each corrected word replaced, or None without corrections."""
    if not corrections:
        return None
    out: list[str] = []
    last = 0
    for term, start, end in folded_tokens(query, stop):
        if term in corrections:
            out.extend((query[last:start], corrections[term]))
            last = end
    out.append(query[last:])
    return " ".join("".join(out).split())
