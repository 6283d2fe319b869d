"""Which rules a rule query names: one number (`300.3`, `300,3`), or a range (`302-303`).

Owns the syntax of a rule query, shared by `judge rule`, `/api/rule/…`, the per-rule URLs of
the web app and the search box (a query that is a rule number goes straight to the rule), and
the answer for a rule an edition removed (`300.3` in 2010: the 2004 rule and its removal).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from judge.corpus.catalogue import Catalogue, EditionFacts, RuleKey
from judge.corpus.numbers import RULE_NUMBER, sort_key
from judge.errors import JudgeError, NotFound

_ONE = RULE_NUMBER.replace(r"\.", "[.,]")  # the decimal comma too
NUMBER = re.compile(rf"^{_ONE}$")
RANGE = re.compile(rf"^({_ONE})\s*[-–]\s*({_ONE})$")


@dataclass(frozen=True, slots=True, kw_only=True)
class Removal:
    """A rule of an earlier edition (its primary language) that a later one removed."""

    edition: str
    number: str
    title: str | None
    removed_in: tuple[EditionFacts, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Selection:
    """The rules a query names (`exact`) and what to show (with sub-rules for one number),
    as keys (edition, language, number): `RuleGraph.at` gives the rules."""

    query: str
    exact: tuple[RuleKey, ...]
    shown: tuple[RuleKey, ...]


class RemovedRule(NotFound):
    """The rule is absent from the asked edition because that edition removed it."""

    def __init__(self, message: str, removals: tuple[Removal, ...]) -> None:
        super().__init__(message)
        self.removals = removals


def normalize_query(text: str) -> str:
    """`règle 300,3.` -> `300.3`: drop the word « règle », a final period, the decimal comma."""
    query = text.strip()
    for word in ("règle", "regle", "rule"):
        if query.lower().startswith(word):
            query = query[len(word):].strip()
    query = query.rstrip(".").strip()
    if NUMBER.match(query) or RANGE.match(query):
        query = query.replace(",", ".")
    return query


def is_rule_query(text: str) -> bool:
    """True if `text` names a rule number or a range of them (not a search)."""
    query = normalize_query(text)
    return bool(NUMBER.match(query) or RANGE.match(query))


def removals(catalogue: Catalogue, number: str, edition: str) -> tuple[Removal, ...]:
    """Rules numbered `number` in earlier editions that `edition` (or one before it) removed."""
    order = catalogue.edition_ids
    later = order.index(edition)
    out: list[Removal] = []
    for earlier in order[:later]:
        key = (earlier, catalogue.primary_language(earlier), number)
        if not catalogue.has(key):
            continue
        removed = tuple(e for e in catalogue.removed_in(earlier, number) if order.index(e.id) <= later)
        if removed:
            out.append(Removal(edition=earlier, number=number, title=catalogue.title(key), removed_in=removed))
    return tuple(out)


def _in_range(number: str, low: str, high: str) -> bool:
    key, lo, hi = sort_key(number), sort_key(low), sort_key(high)
    return lo[0] <= key[0] <= hi[0] and lo <= key[:3] and (key <= hi or number.startswith(high))


def select(catalogue: Catalogue, text: str, edition: str | None = None, language: str | None = None) -> Selection:
    """The rules `text` names in `edition` (every edition if None): in `language`, or else in
    each edition's first language that has the rule (French, then English).

    Raises `JudgeError` for a query that is not a rule number or range, `RemovedRule` when the
    edition removed that rule, `NotFound` when no edition has it.
    """
    query = normalize_query(text)
    editions = (catalogue.edition(edition).id,) if edition else catalogue.edition_ids
    span = RANGE.match(query)
    exact: tuple[RuleKey, ...]
    if span:
        low, high = span.group(1), span.group(2)
        exact = tuple(
            (e, lang, n) for e in editions for lang in (language or catalogue.primary_language(e),)
            for n in catalogue.ordered(e, lang) if _in_range(n, low, high)
        )
        shown = exact
    elif NUMBER.match(query):
        exact = tuple(k for e in editions if (k := catalogue.lookup(query, e, language)) is not None)
        shown = tuple(x for k in exact for x in catalogue.prefix(k))
    else:
        raise JudgeError(
            f"numéro de règle invalide : « {text.strip()[:40]} » (attendu par exemple 300, 300.3, 306.2a ou 302-303)"
        )
    if not exact:
        if edition and NUMBER.match(query):
            gone = removals(catalogue, query, editions[0])
            if gone:
                raise RemovedRule(removal_message(query, editions[0], gone), gone)
        where = f"dans l'édition {edition}" if edition else f"(éditions : {', '.join(editions)})"
        in_language = f" en « {language} »" if language else ""
        raise NotFound(f"règle {query} introuvable{in_language} {where}")
    return Selection(query=query, exact=exact, shown=shown)


def removal_message(number: str, edition: str, gone: tuple[Removal, ...]) -> str:
    """« règle 300.3 supprimée : … » in French, naming the earlier rule and what removed it."""
    parts = []
    for removal in gone:
        title = f" ({removal.title})" if removal.title else ""
        by = " ; ".join(
            f"{e.removed_by or f'l’édition {e.id}'}, absente de l'édition {e.id} ({e.label})"
            for e in removal.removed_in
        )
        parts.append(f"la règle {number} de l'édition {removal.edition}{title} a été supprimée par {by}")
    return f"règle {number} supprimée : " + " ; ".join(parts)


__all__ = [
    "NUMBER", "RANGE", "Removal", "RemovedRule", "Selection",
    "is_rule_query", "normalize_query", "removal_message", "removals", "select",
]
