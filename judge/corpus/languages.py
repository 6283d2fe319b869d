"""The languages of the rules' texts: one table (`rules/languages.toml`) of each code's French
and English names and writing direction, and the order of display (French first, then English,
then the others) wherever a rule is shown in several languages. Read by the terminal's text, the
history, the book, the web app and the search (its scripts get the names as data)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

FILE = "languages.toml"


@dataclass(frozen=True, slots=True)
class Language:
    """A language of the table: its code, its French and English names, its direction."""

    code: str
    french: str
    english: str
    direction: str = "ltr"


@lru_cache(maxsize=1)
def languages() -> tuple[Language, ...]:
    """The table, in its order of display."""
    import tomllib

    from judge.resources import rules_dir

    data = tomllib.loads((rules_dir() / FILE).read_text(encoding="utf-8"))
    return tuple(Language(code=row["code"], french=row["french"], english=row["english"],
                          direction=row.get("direction", "ltr")) for row in data["language"])


def language(code: str) -> Language:
    """The table's row of `code`; a code absent from it is named as written, left to right."""
    for row in languages():
        if row.code == code:
            return row
    return Language(code=code, french=code, english=code)


def language_name(code: str) -> str:
    """The French name of a language (« anglais », « italien »), or its code when unknown."""
    return language(code).french


def display_rank(code: str) -> int:
    """A language's place in the order of display (French 0, English 1, …; unknown last)."""
    codes = [row.code for row in languages()]
    return codes.index(code) if code in codes else len(codes)


def names_json() -> dict[str, dict[str, str]]:
    """The table as the book's scripts read it: {code: {french, english, direction}}."""
    return {row.code: {"french": row.french, "english": row.english, "direction": row.direction}
            for row in languages()}
