"""Rule numbers: their syntax, their numeric order and their parents (`306.2a` -> `306.2`).

Plain functions on strings, apart from the record types of `judge.corpus.documents`: a warm
`judge rule` selects rules by number without creating a single dataclass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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


# ---------------------------------------------------------------------------- typed numbers
# How judges and players type a rule number — the one grammar, read by every command (`judge
# rule`, `history`, `diff`), the search, the web app and, as data (`TYPED_GRAMMAR`, written into
# the static book's pages), the book's scripts (templates/rule-jump.js, search.js). Patterns in
# the common subset of Python's `re` and JavaScript's RegExp (with the `u` flag); `{w}` stands for
# a word character's class contents and `{d}` for a digit, filled in by each side
# (`typed_pattern` here, `pattern` in rule-jump.js).
_PLAIN = r"{d}{3}(?:\.{d}{1,%s}[a-z]?)?".replace("%s", str(MAX_RULE_DIGITS))
TYPED_GRAMMAR: dict[str, str] = {
    # A word that introduces a number, glued or not: R305.4, r. 309.2a, CR 704.5g, règle 502,
    # rules 302-303, § 308, n° 305 (dropped).
    "prefix": r"(?<![{w}§°])(?:r[eè]gles?|rules?|cr|r|n°|no|§)\s*\.?\s*(?={d}{3}(?!{d}))",
    # The French decimal comma: 303,1 is 303.1; « 302,303 » stays two sections.
    "comma": r"(?<![{w}.,])({d}{3}),({d}{1,2}[a-z]?)(?![{w},])",
    # The sub-rule's letter after a space: 310.2 c.
    "letter": r"(?<![{w}.])({d}{3}\.{d}+) ([a-z])(?![{w}'])",
    # A rule number once written plainly: 300, 300.3, 306.2a.
    "number": r"(?<![{w}.])" + _PLAIN + r"(?![{w}])",
    # A whole query that names one number or a range (302-303, 308.2a-308.2c) or a short range
    # of letters (308.2a-c), once written plainly.
    "query": rf"^({_PLAIN})(?:\s*[-–]\s*({_PLAIN}|[a-z]))?$",
}
# A rule query longer than this is words to search, never a number (bounds the reading).
MAX_TYPED = 80


def typed_grammar_json() -> str:
    """The grammar as the book's scripts read it (rule-jump.js's data-grammar): its patterns,
    `max` (MAX_TYPED)."""
    import json

    return json.dumps({**TYPED_GRAMMAR, "max": MAX_TYPED}, ensure_ascii=False, separators=(",", ":"))


def typed_pattern(name: str) -> re.Pattern[str]:
    """One pattern of `TYPED_GRAMMAR`, compiled for Python."""
    return _TYPED[name]


_TYPED = {name: re.compile(source.replace("{w}", r"\w").replace("{d}", r"\d"))
          for name, source in TYPED_GRAMMAR.items()}


def plain_numbers(text: str) -> str:
    """Every rule number typed in `text` written plainly (lower-case text expected): `règle
    303,1` -> ` 303.1`, `R310.2 c` -> ` 310.2c`; the other words unchanged."""
    text = _TYPED["prefix"].sub(" ", text)
    text = _TYPED["comma"].sub(r"\1.\2", text)
    return _TYPED["letter"].sub(r"\1\2", text)


@dataclass(frozen=True, slots=True)
class RuleQuery:
    """The rules a typed query names: one number (`high` None) or the range `low`–`high`."""

    low: str
    high: str | None = None


def read_rule_query(text: str) -> RuleQuery | None:
    """The rule number or range `text` names in any typed form (`R305.4`, `r. 309.2a`,
    `310.2 c`, `CR 704.5g`, `règle 502`, `303,1`, `§ 308`, `302-303`, `308.2a-c`), or None for
    words to search. A number with more than `MAX_RULE_DIGITS` digits is no rule number."""
    if len(text) > MAX_TYPED:
        return None
    query = plain_numbers(" ".join(text.lower().split())).strip().rstrip(". ")
    found = _TYPED["query"].match(query)
    if found is None:
        return None
    low, high = found.group(1), found.group(2)
    if high is not None and len(high) == 1:  # 308.2a-c: the letters of one rule
        if not low[-1].isalpha():
            return None
        high = low[:-1] + high
    return RuleQuery(low, high)


def read_rule_number(text: str, *, section: bool = False) -> str:
    """The one rule number `text` names in any typed form (a section's, `305`, with
    `section`); a `JudgeError` in French otherwise."""
    from judge.errors import JudgeError

    asked = read_rule_query(text)
    if asked is None or asked.high is not None or (section and "." in asked.low):
        shown = " ".join(text.split())
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        if section:
            raise JudgeError(f"numéro de section invalide : « {shown} » (attendu par exemple 305 ou § 305)")
        raise JudgeError(f"numéro de règle invalide : « {shown} » "
                         "(attendu par exemple 300, 300.3, 306.2a, R305.4, 303,1 ou 310.2 c)")
    return asked.low
