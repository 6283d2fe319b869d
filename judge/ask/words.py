"""A question cut into words, each folded for the grammar and kept as the judge wrote it.

Owns the folding the grammar is written in (`judge.normalize.fold`, then elisions written out
and hyphens and punctuation as spaces) and the link from each folded word back to the word
as typed, so that what was not understood is shown as the judge wrote it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from judge.normalize import fold

MAX_QUESTION = 2000  # characters: a question (a story told before it too), not a document

# « d'entretien » -> « de entretien »: elided words written out, so the grammar has one form.
_ELISIONS = {"d": "de", "l": "le", "j": "je", "qu": "que", "n": "ne", "s": "se", "m": "me", "c": "c",
             "t": "te", "jusqu": "jusque", "lorsqu": "lorsque", "puisqu": "puisque"}
# A word as typed: a rule number cited (« la 502.9 », « 308.2a »: one word), letters, digits,
# « 3/3 », mana symbols « {R} ».
_TYPED = re.compile(r"\d{3}\.\d+[a-z]?|[\w{}/+]+(?:'|’)?", re.UNICODE)


@dataclass(frozen=True, slots=True, kw_only=True)
class Word:
    """One word for the grammar (`text`, folded) and the word of the question it comes from."""

    text: str
    typed: str


def words_of(question: str) -> tuple[Word, ...]:
    """The question's words, folded, elisions written out; punctuation dropped."""
    out: list[Word] = []
    for match in _TYPED.finditer(question.replace("-", " ")):
        typed = match.group(0)
        folded = fold(typed).replace("’", "'")
        head, apostrophe, tail = folded.partition("'")
        if apostrophe:
            out.append(Word(text=_ELISIONS.get(head, head), typed=typed))
            if tail:
                out.append(Word(text=tail, typed=typed))
            continue
        for part in folded.replace("_", " ").split():
            out.append(Word(text=part.strip("+"), typed=typed))
    return tuple(word for word in out if word.text)
