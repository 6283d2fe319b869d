"""Which kinds of question a sentence's words ask: the check that a question is answered as
asked, never as another.

Owns the `[question_cues]` of `rules/ask-words.toml` (the words that ask each `ask` of the
situation format) and the one test on them: a question read as one kind whose asking sentence
has none of that kind's words, but some of another kind's, was misread (`misread`). Reading
the question and building the situation are `judge.ask.reader`'s and `judge.ask.build`'s.
"""

from __future__ import annotations

from functools import lru_cache

from judge.normalize import fold

CUES_TABLE = "question_cues"


@lru_cache(maxsize=1)
def cues() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Each kind: its cues, each a tuple of stems (one word or several in a row)."""
    from judge.ask.vocabulary import raw_table
    from judge.search.analysis import stem

    table = raw_table(CUES_TABLE)
    out: dict[str, tuple[tuple[str, ...], ...]] = {}
    for kind, words in table.items():
        if isinstance(words, list):
            out[kind] = tuple(tuple(stem(w) for w in fold(str(cue)).replace("-", " ").split()) for cue in words)
    return out


def asked_kinds(words: tuple[str, ...]) -> frozenset[str]:
    """The kinds some cue of which the folded words say (a cue of several words in a row)."""
    from judge.search.analysis import stem

    stems = tuple(stem(w) for w in words)
    found = set()
    for kind, kind_cues in cues().items():
        for cue in kind_cues:
            size = len(cue)
            if any(stems[i:i + size] == cue for i in range(len(stems) - size + 1)):
                found.add(kind)
                break
    return frozenset(found)


def misread(asks: set[str], words: tuple[str, ...]) -> str | None:
    """The kind the words ask instead of `asks` (French, for the explanation), or None when the
    words ask one of `asks` or say no kind at all (a terse question: « 2e terrain ? »)."""
    said = asked_kinds(words)
    known = set(cues())
    if not said or not asks <= known or asks & said:
        return None
    return ", ".join(sorted(said))
