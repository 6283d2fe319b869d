"""French text analysis for search: the same pipeline at index and query time.

Owns tokenizing, elision, stop words and stemming, as pure functions (`analyze_terms`,
`fold_terms`) and as Whoosh analyzers (importable here because Whoosh pickles the schema
by reference). It does not know about rules, indexes or queries (see `judge.search.query`).

The pipeline, step by step (the offline JavaScript search reimplements steps 1–4 and takes
step 5 from the word → stem table that `judge.site.offline_index` ships with the index):

1. Tokens: the regex `TOKEN_PATTERN` over the original text: a rule number kept whole
   (`308.2a`, `300.3`, `505`), else a run of word characters with inner apostrophes
   (`'` or `’`), so `l'étape` and `tour-ci` give `l'étape`, `tour`, `ci`.
2. Fold each token with `judge.normalize.fold` (lowercase, no accents, `œ` -> `oe`,
   every apostrophe -> `'`).
3. Elision: while the token has an apostrophe and what precedes the first one is in
   `ELISIONS` (`l d qu jusqu lorsqu puisqu n s c j m t`), drop that prefix and the
   apostrophe (`qu'une` -> `une`, `jusqu'a` -> `a`).
4. Stop words: drop a token in `STOP_WORDS` (Snowball's French list, folded, plus
   `a les cet cette ci`).
5. Stemming (stemmed pipeline only): a token with a digit or in `PROTECTED` is kept as
   is; any other goes through the French Snowball stemmer (on the folded form: accents
   are folded BEFORE stemming, so `engagée` and `engagee` give the same stem). Then,
   because folding hides the `ée`/`é` endings from Snowball, a stem longer than 4
   characters loses one final `e`, and a final `eux` becomes `eur` (`engagée`, `engager`
   -> `engag`; `bloqueuse`, `bloqueurs` -> `bloqueur`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from whoosh.analysis import Analyzer, Token
from whoosh.lang.snowball.english import EnglishStemmer
from whoosh.lang.snowball.french import FrenchStemmer
from whoosh.lang.stopwords import stoplists

from judge.normalize import fold

TOKEN_PATTERN = re.compile(r"\d+(?:\.\d+[a-zA-Z]?)?(?![\w'’])|\w+(?:['’`]\w+)*")
ELISIONS = frozenset({"l", "d", "qu", "jusqu", "lorsqu", "puisqu", "n", "s", "c", "j", "m", "t"})
STOP_WORDS = frozenset({fold(w) for w in stoplists["fr"]} | {"a", "les", "cet", "cette", "ci"} | ELISIONS)
# Game words the stemmer would mangle or merge with unrelated words.
PROTECTED = frozenset(
    {
        "mana",
        "initiative",
        "regroupement",
        "dephasage",
        "celerite",
        "pile",
        "rituel",
        "rituels",
        "ephemere",
        "ephemeres",
        "planeswalker",
        "planeswalkers",
        "archenemy",
        "mur",
        "murs",
        "deck",
        "tour",
        "tours",
    }
)

_stemmer = FrenchStemmer()
_english = EnglishStemmer()
# The English texts (their own index, see `judge.search.index`): Snowball's English stop words
# and stemmer instead of steps 4 and 5; steps 1–3 are the same.
ENGLISH_STOP_WORDS = frozenset({fold(w) for w in stoplists["en"]} | ELISIONS)


@lru_cache(maxsize=20000)
def stem(term: str) -> str:
    """The stemmed form of one folded, non-stop term."""
    if term in PROTECTED or any(c.isdigit() for c in term):
        return term
    stemmed = str(_stemmer.stem(term))
    if len(stemmed) > 4:
        if stemmed.endswith("e"):
            stemmed = stemmed[:-1]
        elif stemmed.endswith("eux"):
            stemmed = stemmed[:-3] + "eur"
    return stemmed


@lru_cache(maxsize=20000)
def stem_en(term: str) -> str:
    """The English stemmed form of one folded, non-stop term."""
    if term in PROTECTED or any(c.isdigit() for c in term):
        return term
    return str(_english.stem(term))


def stemmer(language: str) -> Any:
    """The stem function of a language's texts: English for `en`, French otherwise."""
    return stem_en if language == "en" else stem


def stop_words(language: str) -> frozenset[str]:
    return ENGLISH_STOP_WORDS if language == "en" else STOP_WORDS


def _unelide(term: str) -> tuple[str, int]:
    """Drop elided articles (`qu'une` -> `une`); also return how many characters went."""
    dropped = 0
    while "'" in term:
        head, _, tail = term.partition("'")
        if head not in ELISIONS or not tail:
            break
        term = tail
        dropped += len(head) + 1
    return term, dropped


def folded_tokens(text: str, stop: frozenset[str] = STOP_WORDS) -> Iterator[tuple[str, int, int]]:
    """Steps 1–4: `(folded term, start, end)` with offsets into `text`, stop words dropped."""
    for match in TOKEN_PATTERN.finditer(text):
        term, dropped = _unelide(fold(match.group(0)))
        if not term or term in stop:
            continue
        yield term, match.start() + dropped, match.end()


def fold_terms(text: str) -> list[str]:
    """The unstemmed pipeline (steps 1–4): phrases, fuzzy matching, "did you mean"."""
    return [term for term, _, _ in folded_tokens(text)]


def analyze_terms(text: str, language: str = "fr") -> list[str]:
    """The stemmed pipeline (steps 1–5): what the ranked fields index and match."""
    stem_of = stemmer(language)
    return [stem_of(term) for term, _, _ in folded_tokens(text, stop_words(language))]


class FrenchAnalyzer(Analyzer):  # type: ignore[misc]
    """The pipeline as a Whoosh analyzer: `stemmed=True` for ranked fields, False for `exact`;
    `language="en"` for the English texts (English stop words and stemmer)."""

    def __init__(self, stemmed: bool = True, language: str = "fr") -> None:
        self.stemmed = stemmed
        self.language = language

    def __repr__(self) -> str:
        return f"FrenchAnalyzer(stemmed={self.stemmed}, language={self.language!r})"

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Token]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        if not tokenize:
            # Whoosh asks for the raw value when it analyses a single query term.
            terms: Iterator[tuple[str, int, int]] = iter([(fold(value), 0, len(value))])
        else:
            terms = folded_tokens(value, stop_words(self.language))
        stem_of = stemmer(self.language)
        for pos, (term, start, end) in enumerate(terms):
            token.text = stem_of(term) if self.stemmed else term
            token.boost = 1.0
            token.stopped = False
            if keeporiginal:
                token.original = value[start:end]
            if positions:
                token.pos = start_pos + pos
            if chars:
                token.startchar = start_char + start
                token.endchar = start_char + end
            yield token


def suggestion(query: str, corrections: dict[str, str]) -> str | None:
    """The query as typed with each corrected word replaced, or None without corrections."""
    if not corrections:
        return None
    out: list[str] = []
    last = 0
    for term, start, end in folded_tokens(query):
        if term in corrections:
            out.extend((query[last:start], corrections[term]))
            last = end
    out.append(query[last:])
    return " ".join("".join(out).split())
