"""Which rules a rule query names: one number (`300.3`, `R300,3`), or a range (`302-303`).

Owns the selection of the rules a query names — for `judge rule`, `/api/rule/…`, the per-rule
URLs of the web app and the search box (a query that is a rule number goes straight to the
rule) — and the answer for a rule an edition removed (`300.3` in 2010: the 2004 rule and its
removal). How a number is typed is `judge.corpus.numbers.read_rule_query`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.corpus.catalogue import Catalogue, EditionFacts, RuleKey
from judge.corpus.numbers import read_rule_query, sort_key
from judge.errors import JudgeError, NotFound


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


def is_rule_query(text: str) -> bool:
    """True if `text` names a rule number or a range of them (not a search)."""
    return read_rule_query(text) is not None


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
    asked = read_rule_query(text)
    if asked is None:
        raise JudgeError(
            f"numéro de règle invalide : « {text.strip()[:40]} » "
            "(attendu par exemple 300, 300.3, 306.2a, R305.4, 303,1, 302-303 ou 308.2a-c)"
        )
    editions = (catalogue.edition(edition).id,) if edition else catalogue.edition_ids
    exact: tuple[RuleKey, ...]
    if asked.high is not None:
        low, high = asked.low, asked.high
        exact = tuple(
            (e, lang, n) for e in editions for lang in (language or catalogue.primary_language(e),)
            for n in catalogue.ordered(e, lang) if _in_range(n, low, high)
        )
        shown = exact
    else:
        exact = tuple(k for e in editions if (k := catalogue.lookup(asked.low, e, language)) is not None)
        shown = tuple(x for k in exact for x in catalogue.prefix(k))
    query = asked.low if asked.high is None else f"{asked.low}-{asked.high}"
    if not exact:
        if edition and asked.high is None:
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
    "Removal", "RemovedRule", "Selection",
    "is_rule_query", "removal_message", "removals", "select",
]
