"""The words `judge ask` reads beyond its grammar's own, all from data.

Owns `rules/ask-words.toml` (abbreviations, spoken forms, inflections, numbers in words,
lower-case creature nouns, the words of out-of-scope topics and the settings among them,
auxiliaries that say no game fact, each table with its source; the question cues are
`judge.ask.kinds`'), the
English names of the FR↔EN glossary (`rules/glossary-fr-en.toml`: an English keyword in a
French question reads as its French name), which words carry game meaning (the French rule
texts' words that are not stop words, the glossary's French names, the grammar's own words
outside its fillers, and the words of questions and negation) and one-edit typo corrections.
The grammar and its reading are `judge.ask.reader`'s.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache

from judge.ask.words import words_of
from judge.normalize import fold
from judge.resources import rules_dir

WORDS_FILE = "ask-words.toml"
_TABLES = ("abbreviations", "spoken", "english", "inflections", "numbers", "land_nouns")
# Words of questions, negation and quantity: they always carry meaning, whatever the texts say.
_MEANING = frozenset({"combien", "quand", "qui", "quoi", "quel", "quelle", "quels", "quelles", "ou",
                      "pourquoi", "comment", "pas", "plus", "jamais", "aucun", "aucune", "rien", "ni",
                      "sans", "sauf", "seulement", "personne", "non"})
_WORD = re.compile(r"[a-z0-9]+")
MIN_TYPO = 5  # letters: a shorter word is corrected by no one


@dataclass(frozen=True, slots=True, kw_only=True)
class Vocabulary:
    """What the reader knows of words besides its grammar."""

    forms: dict[str, tuple[str, ...]]  # a folded form (one to four words) -> the words read instead
    creature_nouns: frozenset[str]
    lower_only: frozenset[str]  # forms read only in lower case (« ma Forêt » is a name, « une forêt » a land)
    out_of_scope: frozenset[str]
    auxiliaries: frozenset[str]  # verbs and pronouns that say no game fact of their own: never stop an answer
    settings: frozenset[str]  # out-of-scope words that, told in a story, are its setting, not what is asked
    frames: frozenset[str]  # questions that ask nothing of the game (« que dois-je répondre ? »), folded words
    text_words: frozenset[str]  # words of the French rule texts and glossary names, stop words out
    text_stems: frozenset[str]  # their stems (Snowball, as search): « engagés » is « engagé »'s

    def carries_meaning(self, word: str, grammar_words: frozenset[str]) -> bool:
        """Whether a folded word not understood where it stands must stop the answer: itself, or
        its stem, is a word of the texts, the glossary or the grammar."""
        from judge.search.analysis import STOP_WORDS, stem

        if word in self.auxiliaries:
            return False
        if (word in _MEANING or word in self.text_words or word in grammar_words
                or word in self.creature_nouns or word.isdigit()):
            return True
        return word not in STOP_WORDS and len(word) > 2 and (stem(word) in self.text_stems
                                                            or stem(word) in _grammar_stems(grammar_words))


def raw_table(name: str) -> dict[str, object]:
    """A table of `rules/ask-words.toml` as written, without its `source`."""
    return _table(_load_file(), name)


def _folded_value(value: object) -> tuple[str, ...]:
    return tuple(fold(str(value)).replace("-", " ").split())


def _load_file() -> dict[str, object]:
    with (rules_dir() / WORDS_FILE).open("rb") as handle:
        return tomllib.load(handle)


def _french_texts() -> list[str]:
    """The French rule texts of the embedded manifest (a few tens of kilobytes)."""
    with (rules_dir() / "manifest.toml").open("rb") as handle:
        manifest = tomllib.load(handle)
    texts = []
    for edition in manifest.get("edition", []):
        for text in edition.get("text", []):
            if text.get("language") == "fr":
                for name in text.get("files", []):
                    texts.append((rules_dir() / name).read_text(encoding="utf-8", errors="replace"))
    return texts


def _table(data: dict[str, object], name: str) -> dict[str, object]:
    table = data.get(name, {})
    return {k: v for k, v in table.items() if k != "source"} if isinstance(table, dict) else {}


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _listed(data: dict[str, object], name: str) -> frozenset[str]:
    words = _table(data, name).get("words", [])
    return frozenset(fold(str(w)) for w in (words if isinstance(words, list) else []))


def _text_words(data: dict[str, object]) -> frozenset[str]:
    """The French rule texts' words and the glossary's French names, with the file's
    `game_words`; stop words, single letters and numbers out."""
    from judge.corpus.lexicon import glossary
    from judge.search.analysis import STOP_WORDS

    words: set[str] = set()
    for text in _french_texts():
        words.update(_WORD.findall(fold(text)))
    for term in glossary():
        for name in term.fr:
            words.update(_WORD.findall(fold(name)))
    words |= _listed(data, "game_words")
    return frozenset(w for w in words - STOP_WORDS if len(w) > 1 and not w.isdigit())


def _forms(data: dict[str, object], text_words: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """The file's forms, then the glossary's English names (read as the first French name; a
    single English word only when it is no French word of the texts: « main » stays French)."""
    from judge.corpus.lexicon import glossary

    forms = {fold(key.replace("_", " ")): _folded_value(value)
             for table in _TABLES for key, value in _table(data, table).items()}
    for term in glossary():
        french = _folded_value(term.fr[0])
        for name in term.en:
            key = fold(name).replace("-", " ")
            if key not in forms and len(key) > 3 and not (" " not in key and key in text_words):
                forms[key] = french
    return forms


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """Read once per process."""
    from judge.search.analysis import stem

    data = _load_file()
    text_words = _text_words(data)
    return Vocabulary(forms=_forms(data, text_words), creature_nouns=_listed(data, "creature_nouns"),
                      lower_only=frozenset(fold(k) for k in _table(data, "land_nouns")),
                      out_of_scope=_listed(data, "out_of_scope"), auxiliaries=_listed(data, "auxiliaries"),
                      settings=frozenset(fold(str(w)) for w in _list(_table(data, "out_of_scope").get("settings"))),
                      frames=frozenset(" ".join(w.text for w in words_of(str(f))) for f in _list(data.get("frames"))),
                      text_words=text_words,
                      text_stems=frozenset(stem(w) for w in text_words))


@lru_cache(maxsize=1)
def _grammar_stems(grammar_words: frozenset[str]) -> frozenset[str]:
    from judge.search.analysis import STOP_WORDS, stem

    return frozenset(stem(w) for w in grammar_words if w not in STOP_WORDS and len(w) > 2)


def one_edit(a: str, b: str) -> bool:
    """Whether `a` becomes `b` by one insertion, deletion, substitution or swap of neighbours."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1:]


def corrected(word: str, known: frozenset[str]) -> str | None:
    """The one known word at one edit from `word` (5 letters or more), else None."""
    if len(word) < MIN_TYPO or not word.isalpha():
        return None
    found = {k for k in known if abs(len(k) - len(word)) <= 1 and k[:1] == word[:1] and one_edit(word, k)}
    if len(found) == 1:
        return found.pop()
    return None
