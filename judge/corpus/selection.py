"""Which rules a rule query names: one number (`300.3`, `300,3`), or a range (`302-303`).

Owns the syntax of a rule query, shared by `judge rule`, `/api/rule/…`, the per-rule URLs of
the web app and the search box (a query that is a rule number goes straight to the rule), and
the answer for a rule an edition removed (`300.3` in 2010: the 2004 rule and its removal).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from judge.corpus.graph import RuleGraph
from judge.corpus.model import RULE_NUMBER, Edition, Rule, sort_key
from judge.errors import JudgeError, NotFound

_ONE = RULE_NUMBER.replace(r"\.", "[.,]")  # the decimal comma too
NUMBER = re.compile(rf"^{_ONE}$")
RANGE = re.compile(rf"^({_ONE})\s*[-–]\s*({_ONE})$")


@dataclass(frozen=True, slots=True, kw_only=True)
class Removal:
    """A rule of an earlier edition that a later one removed."""

    rule: Rule
    removed_in: tuple[Edition, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Selection:
    """The rules a query names (`exact`) and what to show (with sub-rules for one number)."""

    query: str
    exact: tuple[Rule, ...]
    shown: tuple[Rule, ...]


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


def removals(graph: RuleGraph, number: str, edition: str) -> tuple[Removal, ...]:
    """Rules numbered `number` in earlier editions that `edition` (or one before it) removed."""
    order = graph.edition_ids
    later = order.index(edition)
    out: list[Removal] = []
    for earlier in order[:later]:
        rule = graph.get(earlier, number)
        if rule is None:
            continue
        removed = tuple(e for e in graph.removed_in(rule) if order.index(e.id) <= later)
        if removed:
            out.append(Removal(rule=rule, removed_in=removed))
    return tuple(out)


def _in_range(rule: Rule, low: str, high: str) -> bool:
    key, lo, hi = sort_key(rule.number), sort_key(low), sort_key(high)
    return lo[0] <= key[0] <= hi[0] and lo <= key[:3] and (key <= hi or rule.number.startswith(high))


def select(graph: RuleGraph, text: str, edition: str | None = None, language: str | None = None) -> Selection:
    """The rules `text` names in `edition` (every edition if None): in `language`, or else in
    each edition's first language that has the rule (French, then English).

    Raises `JudgeError` for a query that is not a rule number or range, `RemovedRule` when the
    edition removed that rule, `NotFound` when no edition has it.
    """
    query = normalize_query(text)
    editions = (graph.edition(edition).id,) if edition else graph.edition_ids
    span = RANGE.match(query)
    if span:
        low, high = span.group(1), span.group(2)
        exact = tuple(r for e in editions for r in graph.rules(e, language or graph.primary_language(e))
                      if _in_range(r, low, high))
        shown = exact
    elif NUMBER.match(query):
        exact = tuple(r for e in editions for r in graph.lookup(query, e, language))
        shown = tuple(x for r in exact for x in graph.prefix(r.edition, r.number, r.language))
    else:
        raise JudgeError(
            f"numéro de règle invalide : « {text.strip()[:40]} » (attendu par exemple 300, 300.3, 306.2a ou 302-303)"
        )
    if not exact:
        if edition and NUMBER.match(query):
            gone = removals(graph, query, editions[0])
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
        title = f" ({removal.rule.title})" if removal.rule.title else ""
        by = " ; ".join(
            f"{e.removed_by or f'l’édition {e.id}'}, absente de l'édition {e.id} ({e.label})"
            for e in removal.removed_in
        )
        parts.append(f"la règle {number} de l'édition {removal.rule.edition}{title} a été supprimée par {by}")
    return f"règle {number} supprimée : " + " ; ".join(parts)


__all__ = [
    "NUMBER", "RANGE", "Removal", "RemovedRule", "Selection",
    "is_rule_query", "normalize_query", "removal_message", "removals", "select",
]
