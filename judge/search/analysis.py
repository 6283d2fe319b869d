"""French (and English) text analysis for the index: the stop lists and the stemmers.

The tokens, elision and stop-word steps are `judge.search.tokens` (no Whoosh, shared with the
query side and spelled out in `templates/search.js`); this module adds step 5 and wraps the
pipeline as Whoosh analyzers (importable here because Whoosh stores the schema by reference).
It does not know about rules, indexes or queries (see `judge.search.query`).

5. Stemming (stemmed pipeline only): a token with a digit or in `PROTECTED` is kept as
   is (its plural gets the same stem); any other goes through the French Snowball stemmer (on the folded form: accents
   are folded BEFORE stemming, so `engagée` and `engagee` give the same stem). Then,
   because folding hides the `ée`/`é` endings from Snowball, a stem longer than 4
   characters loses one final `e`, and a final `eux` becomes `eur` (`engagée`, `engager`
   -> `engag`; `bloqueuse`, `bloqueurs` -> `bloqueur`). The English texts use Snowball's
   English stop words and stemmer instead.

The engine stems a query word with the same stemmers, for the words of the query vocabulary
(`judge.search.tokens`); the static book reads those stems from the export.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from whoosh.analysis import Analyzer, Token
from whoosh.lang.snowball.english import EnglishStemmer
from whoosh.lang.snowball.french import FrenchStemmer
from whoosh.lang.stopwords import stoplists

from judge.normalize import fold
from judge.search.tokens import ELISIONS, folded_tokens, never_stemmed, protected_stem

STOP_WORDS = frozenset({fold(w) for w in stoplists["fr"]} | {"a", "les", "cet", "cette", "ci"} | ELISIONS)

# The words of a judge's whole question that say nothing of its topic (« est-ce que je peux… »,
# « combien… », « que se passe-t-il si… », "how does…"): dropped from queries, not from the texts.
QUESTION_WORDS = frozenset({
    "peut", "peux", "peuvent", "puis", "pouvez", "pourrait", "comment", "quand", "combien", "pourquoi",
    "quel", "quelle", "quels", "quelles", "lequel", "laquelle", "lesquels", "quoi", "faut", "dois", "doit",
    "est", "ce", "que", "qu", "si", "oui", "alors", "what", "how", "when", "why", "does", "do", "can",
    # The fillers of a spoken question (« peut-il quand même être sacrifié ? », « ça marche comment ? »).
    "etre", "avoir", "faire", "vraiment", "encore", "toujours", "deja", "aussi", "bien", "donc", "chose",
    "quelque", "exactement", "normalement", "ca", "cela", "dont",
})
QUERY_STOP = STOP_WORDS | QUESTION_WORDS

_stemmer = FrenchStemmer()
_english = EnglishStemmer()
# The English texts (their own index, see `judge.search.index`): Snowball's English stop words
# and stemmer instead of steps 4 and 5; steps 1–3 are the same.
ENGLISH_STOP_WORDS = frozenset({fold(w) for w in stoplists["en"]} | ELISIONS)


@lru_cache(maxsize=20000)
def stem(term: str) -> str:
    """The stemmed form of one folded, non-stop term."""
    if never_stemmed(term):
        return term
    if (base := protected_stem(term)) is not None:
        return base
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
    if never_stemmed(term):
        return term
    if (base := protected_stem(term)) is not None:
        return base
    return str(_english.stem(term))


def stemmer(language: str) -> Any:
    """The stem function of a language's texts: English for `en`, French otherwise."""
    return stem_en if language == "en" else stem


def stop_words(language: str) -> frozenset[str]:
    return ENGLISH_STOP_WORDS if language == "en" else STOP_WORDS


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
