"""French names of the game terms of an English-only rule: the gloss « trample (piétinement) ».

97 % of the rules are English only; the FR↔EN terminology (`rules/glossary-fr-en.toml`,
`judge.corpus.lexicon`) knows the French names of their terms. This module finds, in a rule's
English text, each term the terminology knows and ties to a rule that defines it (its English
names, whole words, longest first, plurals too; the notions without a defining rule are the
everyday words kept for search — choose, first, two —, not terms of the rules) and gives its
first French name and the French rules that define it, on first use only (per rule, or per
page with a shared `seen` set). The rule's text is never changed: the glosses are separate
pieces (`Gloss`) set after the words they name, that each view shows in its own style (the
book: generated content, not copied nor found by the browser's search; the terminal: a line of
its own; `--json`: a list beside the text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from judge.corpus.documents import Reference, Rule, Segment
from judge.corpus.lexicon import GlossaryTerm, glossary

if TYPE_CHECKING:  # `without_glosses` serves a warm `judge rule --no-gloss`: no graph module
    from judge.corpus.graph import RuleGraph

_WORD = re.compile(r"[A-Za-z0-9][\w'’-]*")
MIN_LENGTH = 4  # shorter names (tap, pay, put…) are everyday words more often than terms
COGNATE = 0.75  # a name this close to its French one (creature, créature) needs no gloss


def _plain(text: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFD", text.lower()) if not unicodedata.combining(c))


def transparent(english: str, french: str) -> bool:
    """A French reader understands the English name as it is (creature / créature, effect / effet)."""
    from difflib import SequenceMatcher

    return SequenceMatcher(None, _plain(english), _plain(french)).ratio() >= COGNATE


@dataclass(frozen=True, slots=True, kw_only=True)
class Gloss:
    """The French name of a term, set after its first use in an English text."""

    english: str  # the words as the text writes them
    french: str  # the notion's first French name
    defined_by: tuple[str, ...]  # "edition:number" of the French rules that define it
    notion: int  # the notion's index in the terminology (first use: one gloss per notion)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Notion:
    french: str
    rules: tuple[str, ...]


class Glosser:
    """The English names of every notion that has a French name, compiled once."""

    def __init__(self, terms: tuple[GlossaryTerm, ...]) -> None:
        self._notions: list[_Notion] = []
        names: dict[str, int] = {}
        for term in terms:
            if not term.fr or not term.rules:  # no defining rule: words kept for search only
                continue
            index = len(self._notions)
            self._notions.append(_Notion(french=term.fr[0], rules=term.rules))
            for name in term.en:
                key = name.lower()
                if (len(key) >= MIN_LENGTH and not name.isupper() and not transparent(key, term.fr[0])
                        and key not in names):
                    names[key] = index
        self._index = names
        self._longest: dict[str, int] = {}  # first word of a name -> words in its longest name
        for name in names:
            first = name.split()
            self._longest[first[0]] = max(self._longest.get(first[0], 0), len(first))

    def find(self, text: str) -> Iterable[tuple[int, int, int]]:
        """(start, end, notion) of each term named in `text`, in order, never overlapping: at
        each word, the longest run of words (separated by spaces only) that is a name, its last
        word maybe a plural (`creatures`)."""
        words = [(m.start(), m.end(), m.group(0).lower()) for m in _WORD.finditer(text)]
        k = 0
        while k < len(words):
            found = None
            word = words[k][2]
            longest = max(self._longest.get(word, 0), self._longest.get(word[:-1], 0) if word.endswith("s") else 0,
                          self._longest.get(word[:-2], 0) if word.endswith("es") else 0)
            if not longest:
                k += 1
                continue
            run = 1
            while run < longest and k + run < len(words) and text[words[k + run - 1][1]:words[k + run][0]] == " ":
                run += 1
            for size in range(run, 0, -1):
                name = " ".join(w for _, _, w in words[k:k + size])
                for key in (name, name[:-1] if name.endswith("s") else None,
                            name[:-2] if name.endswith("es") else None):
                    if key is not None and key in self._index:
                        found = (size, self._index[key])
                        break
                if found:
                    break
            if found is None:
                k += 1
                continue
            size, index = found
            yield words[k][0], words[k + size - 1][1], index
            k += size

    def notion(self, index: int) -> _Notion:
        return self._notions[index]


@lru_cache(maxsize=1)
def glosser() -> Glosser:
    """The glosser of the embedded terminology, built once."""
    return Glosser(glossary())


def wants_gloss(graph: RuleGraph, rule: Rule) -> bool:
    """An English rule that its edition has in no French: the rules a French reader needs help with."""
    return rule.language == "en" and not any(t.language == "fr" for t in graph.translations(rule))


def _defined_by(graph: RuleGraph, rules: tuple[str, ...], edition: str) -> tuple[str, ...]:
    """The defining rules that have a French text, the rule's own edition first."""
    found = []
    for item in rules:
        where, _, number = item.partition(":")
        if where in graph.edition_ids and graph.get(where, number, "fr") is not None:
            found.append(item)
    return tuple(sorted(found, key=lambda item: not item.startswith(f"{edition}:")))


def glossed(graph: RuleGraph, rule: Rule, segments: tuple[Segment, ...] | None = None,
            seen: set[int | str] | None = None) -> tuple[Segment | Gloss, ...]:
    """The rule's segments (or `segments`, an example's), a `Gloss` after the first use of each
    term in a text segment (never inside a citation). `seen` (a page's): the notions already
    glossed and the French rules already given as definitions on the page, updated; a French
    rule is given once a page (the next terms it defines are glossed without it). A rule that
    does not want a gloss is returned as it is."""
    segments = rule.segments if segments is None else segments
    if not wants_gloss(graph, rule):
        return tuple(segments)
    page = seen is not None
    seen = set() if seen is None else seen
    tool = glosser()
    out: list[Segment | Gloss] = []
    for segment in segments:
        if isinstance(segment, Reference):
            out.append(segment)
            continue
        text, last = segment.text, 0
        for start, end, index in tool.find(text):
            if index in seen:
                continue
            seen.add(index)
            notion = tool.notion(index)
            defined_by = _defined_by(graph, notion.rules, rule.edition)
            if page and defined_by:
                defined_by = () if defined_by[0] in seen else defined_by
                seen.update(defined_by[:1])
            out.append(type(segment)(text=text[last:end]))
            out.append(Gloss(english=text[start:end], french=notion.french, notion=index,
                             defined_by=defined_by))
            last = end
        if last < len(text):
            out.append(type(segment)(text=text[last:]))
    return tuple(out)


def glosses(graph: RuleGraph, rule: Rule) -> tuple[Gloss, ...]:
    """The glosses of a rule's text, in order (first use of each term)."""
    return tuple(piece for piece in glossed(graph, rule) if isinstance(piece, Gloss))


GLOSS_PREFIX = "  Termes en français : "  # the terminal's line after an English-only rule's text


def gloss_line(found: tuple[Gloss, ...]) -> str:
    """The terminal's line of French names: « trample (piétinement), … » (after GLOSS_PREFIX)."""
    return ", ".join(f"{g.english} ({g.french})" for g in found)


def without_glosses(text: str) -> str:
    """A `judge rule` text block without its line of French names (`judge rule --no-gloss`)."""
    return "\n".join(line for line in text.split("\n") if not line.startswith(GLOSS_PREFIX))
