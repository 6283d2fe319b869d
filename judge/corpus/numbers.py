"""Rule numbers: their syntax, their numeric order and their parents (`306.2a` -> `306.2`).

Plain functions on strings, apart from the record types of `judge.corpus.documents`: a warm
`judge rule` selects rules by number without creating a single dataclass.
"""

from __future__ import annotations

# Digits of a rule number after its section (`702.122a`: 3); longer is refused (a text's rule
# line, in French, by the parser; a user's query is no rule number), never read as an integer.
MAX_RULE_DIGITS = 9
# A rule number as written in the texts and typed by users: 300, 300.3, 306.2a.
RULE_NUMBER = rf"\d{{3}}(?:\.\d{{1,{MAX_RULE_DIGITS}}}[a-z]?)?(?!\d)"


def parent_number(number: str) -> str | None:
    """`306.2a` -> `306.2`, `306.2` -> `306`, `306` -> None."""
    if "." not in number:
        return None
    head, tail = number.split(".", 1)
    if tail and tail[-1].isalpha():
        return f"{head}.{tail.rstrip('abcdefghijklmnopqrstuvwxyz')}"
    return head


def sort_key(number: str) -> tuple[int, int, str]:
    """Numeric order for rule numbers: 306 < 306.2 < 306.2a < 306.10."""
    head, _, tail = number.partition(".")
    digits = tail.rstrip("abcdefghijklmnopqrstuvwxyz")
    letters = tail[len(digits):]
    return (int(head), int(digits) if digits else -1, letters)
