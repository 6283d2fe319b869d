"""The message abbreviations of a query (« ki », « qd », « supp », « chgt »), spelled out before
it is read.

Data, one home: the `[abbreviations]` table of `rules/ask-words.toml` (the words of messages,
forums and game tables, with their source; `judge ask` reads the same table). Search takes its
forms that stand for words, except those the FR↔EN terminology names (« etb », « dmg », « pv »,
« crea »: a game notion's abbreviation is the terminology's, with its source,
`rules/glossary-fr-en.toml`, and found as that notion). A form that stands for nothing in a
question (« multi ») is left as typed: search has its own stop words. Exported for the static
book (`judge.search.export`), whose `templates/search.js` spells a query out the same way.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from judge.normalize import fold
from judge.resources import rules_dir

if TYPE_CHECKING:
    from collections.abc import Callable, Container

WORDS_FILE = "ask-words.toml"
_TABLE = "abbreviations"
_WORD = re.compile(r"\w+")


@lru_cache(maxsize=1)
def _written() -> tuple[tuple[str, str], ...]:
    """The table's (form, words) pairs as written, folded (the file's tables cached parsed:
    `judge.corpus.tomlcache`, a warm search parses no TOML); none when the file is unreadable
    (the reader of questions reports it)."""
    from judge.corpus.tomlcache import toml_data
    from judge.errors import ManifestError

    try:
        table = toml_data(str(rules_dir() / WORDS_FILE)).get(_TABLE, {})
    except ManifestError:
        return ()
    if not isinstance(table, dict):
        return ()
    return tuple((fold(str(form)), " ".join(fold(str(words)).replace("-", " ").split()))
                 for form, words in table.items() if form != "source" and isinstance(words, str))


def abbreviations(names: Container[tuple[str, ...]], key: Callable[[str], tuple[str, ...]]) -> dict[str, str]:
    """Each one-word form of the table and the words it stands for, but the forms that stand
    for nothing and those whose name key (`key`) is a name of the terminology (`names`: its
    name keys)."""
    return {form: words for form, words in _written() if words and _WORD.fullmatch(form) and key(form) not in names}


def spelled_out(folded: str, table: dict[str, str]) -> str:
    """Folded text with each word that is a form of `table` replaced by the words it stands for."""
    if not table:
        return folded
    return _WORD.sub(lambda m: table.get(m.group(0), m.group(0)), folded)
