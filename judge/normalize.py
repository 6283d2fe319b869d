"""Text folding for matching: case, accents, apostrophes, spaces. Display text is never folded.

Shared by lint (title comparison), search (analysis, typo distance) and the offline
JavaScript index, which must fold exactly the same way.
"""

from __future__ import annotations

import re
import unicodedata

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'", "\u00a0": " ", "\u202f": " "})
_PUNCT_EDGES = " \t.,;:!?\"«»“”()[]'"
_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """Lowercase, strip accents (é -> e, œ -> oe), unify apostrophes and spaces."""
    if text.isascii() and "`" not in text:  # nothing to decompose or unify (most words)
        return _SPACES.sub(" ", text.lower()).strip()
    text = text.translate(_APOSTROPHES).replace("œ", "oe").replace("Œ", "oe")
    text = text.replace("æ", "ae").replace("Æ", "ae")
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _SPACES.sub(" ", stripped.lower()).strip()


def fold_title(title: str) -> str:
    """Fold a quoted title for comparison: `« Terrains. »` and `terrains` are the same title."""
    return fold(title).strip(_PUNCT_EDGES)


def levenshtein(a: str, b: str) -> int:
    """Edit distance (insertions, deletions, substitutions) for typo correction."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]
