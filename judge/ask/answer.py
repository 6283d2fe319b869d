"""`judge ask`: a judge's question read, shown as understood, then answered by the checker.

Owns the whole round: reading (`judge.ask.reader`), the situation built
(`judge.ask.build`), the edition (`--edition`, the question, else the newest), the answers
from the same entry point as `judge check` (`judge.checks.report.check` on a situation read by
`judge.game.situation.load_situation`, as a JSON file would be), and, for a question not fully
understood, the words it did not understand and the search results for the question instead
of an answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from judge.ask.build import Builder, Gap, Run
from judge.ask.explain import out_of_scope_said, understood_as
from judge.ask.parts import Part, parts_of
from judge.ask.reader import read
from judge.ask.words import MAX_QUESTION
from judge.errors import JudgeError

MAX_SEARCH_HITS = 5


@dataclass(frozen=True, slots=True, kw_only=True)
class AskResult:
    """What `judge ask` says: understood or not, how, the situation, the answers, the search."""

    question: str
    understood: bool
    not_understood: tuple[str, ...]
    understood_as: str
    situation: dict[str, Any] | None
    answers: tuple[dict[str, Any], ...]
    report: dict[str, Any] | None
    search: tuple[dict[str, Any], ...]
    reason: str | None = None
    report_text: str = ""
    declined: str | None = None  # "out_of_scope", "missing", "not_understood"; None when answered
    skipped: tuple[str, ...] = ()

    def text(self) -> str:
        """The French text of `judge ask`: what was understood first, then the answers (or the
        search results offered instead)."""
        lines = [self.understood_as, ""]
        if self.understood:
            lines.append(self.report_text)
            return "\n".join(lines)
        if self.search:
            lines.append("Règles qui en parlent peut-être (recherche) :")
            for hit in self.search:
                lines.append(f"  {hit['edition']} {hit['number']} — {hit.get('title') or ''}".rstrip(" —"))
        else:
            lines.append("Aucune règle trouvée par la recherche.")
        return "\n".join(lines)

    def json(self) -> dict[str, Any]:
        """The stable `judge ask --json` shape (docs/cli.md)."""
        return {
            "understood": self.understood,
            "not_understood": list(self.not_understood),
            "understood_as": self.understood_as,
            "situation": self.situation,
            "answers": list(self.answers),
            "search": list(self.search),
        }


def check_question(question: str) -> str:
    """The question, stripped; a French error (exit 2) when empty or too long."""
    text = question.strip()
    if not text:
        raise JudgeError("question vide : posez une question (ex. « Puis-je lancer un rituel pendant mon entretien ? »)")
    if len(text) > MAX_QUESTION:
        raise JudgeError(f"question trop longue : {len(text)} caractères (au plus {MAX_QUESTION})")
    return text


Searcher = Callable[[str, str | None], tuple[dict[str, Any], ...]]


def ask(question: str, *, edition: str | None = None, config: str | None = None, with_search: bool = True,
        rules: Any = None, searcher: Searcher | None = None) -> AskResult:
    """Read, build, answer: the result of `judge ask`. `rules` (the rule source the checks read,
    by default the rule store of `config`) and `searcher` (by default `judge search`'s) let
    the web server answer with what its workers hold."""
    text = check_question(question)
    if rules is None:
        from judge.checks.store import load_store

        rules = load_store(config).catalogue
    catalogue = rules

    def search_for(query: str) -> tuple[dict[str, Any], ...]:
        if not with_search:
            return ()
        if searcher is not None:
            return searcher(query, edition)
        return _search(query, edition, config)
    if edition is not None:
        catalogue.edition(edition)  # an unknown edition: French error listing the editions

    from judge.checks.report import check, report_json, report_text
    from judge.game.situation import load_situation

    def checked(data: dict[str, Any]) -> Any:
        return check(catalogue, load_situation(json.dumps(data, ensure_ascii=False), source="question", fmt="json"))

    def run(data: dict[str, Any]) -> dict[str, Any]:
        try:
            report: dict[str, Any] = report_json(checked(data))
        except JudgeError as error:  # what was understood cannot be: said, not answered
            raise Gap(f"la situation comprise est impossible ({error})") from None
        return report

    reading = read(text)
    parts = parts_of(reading.tree) if reading.tree is not None else ()
    unknown = reading.unknown
    reason: str | None = None
    plan = None
    if reading.out_of_scope:
        said = out_of_scope_said(reading.out_of_scope)
        return AskResult(question=text, understood=False, not_understood=(), understood_as=said,
                         situation=None, answers=(), report=None, search=search_for(text), reason=said,
                         declined="out_of_scope", skipped=reading.skipped)
    try:
        chosen = _edition(parts, edition, catalogue.edition_ids, run)
        if not unknown:
            builder = Builder(parts, chosen, run)
            plan = builder.build()
    except Gap as gap:
        reason = str(gap)
    if unknown or plan is None:
        hits = search_for(text)
        said = understood_as(None, parts, unknown, reason)
        return AskResult(question=text, understood=False, not_understood=unknown, understood_as=said,
                         situation=None, answers=(), report=None, search=hits, reason=reason,
                         declined="not_understood" if unknown else "missing", skipped=reading.skipped)
    situation = plan.situation()
    try:
        checked_report = checked(situation)
    except JudgeError as error:
        said = understood_as(None, parts, (), f"la situation comprise est impossible ({error})")
        hits = search_for(text)
        return AskResult(question=text, understood=False, not_understood=(), understood_as=said,
                         situation=situation, answers=(), report=None, search=hits, reason=str(error),
                         declined="missing", skipped=reading.skipped)
    report = report_json(checked_report)
    return AskResult(question=text, understood=True, not_understood=(),
                     understood_as=understood_as(plan, parts, (), None), situation=situation,
                     answers=tuple(_answers(report)), report=report, search=(),
                     report_text=report_text(checked_report), skipped=reading.skipped)


def _answers(report: dict[str, Any]) -> list[dict[str, Any]]:
    answers: list[dict[str, Any]] = report["answers"]
    return answers


def _edition(parts: tuple[Part, ...], given: str | None, editions: tuple[str, ...], run: Run) -> str:
    """`--edition`, else the question's (« en 2004 », « avant Magic 2010 », « avec la brûlure de
    mana »), else the newest. Editions are named by their year; mana burn is asked of the
    checker (which editions make a player lose life for unused mana)."""
    said = [p.values for p in parts if p.kind == "edition"]
    chosen: set[str] = set()
    for values in said:
        chosen.add(_one_edition(values, editions, run))
    if given is not None:
        if chosen and chosen != {given}:
            raise Gap(f"la question parle des règles de {', '.join(sorted(chosen))}, "
                      f"mais l'édition demandée est {given}")
        return given
    if len(chosen) > 1:
        raise Gap(f"deux éditions à la fois : {', '.join(sorted(chosen))}")
    if chosen:
        return chosen.pop()
    return editions[-1] if editions else ""


def _years(editions: tuple[str, ...]) -> list[tuple[int, str]]:
    return sorted((int(e), e) for e in editions if e.isdigit())


def _one_edition(values: dict[str, Any], editions: tuple[str, ...], run: Run) -> str:
    years = _years(editions)
    if "year" in values:
        fitting = [e for year, e in years if year <= values["year"]]
        if not fitting:
            raise Gap(f"aucune édition des règles n'est aussi ancienne que {values['year']}")
        return fitting[-1]
    if "before" in values:
        fitting = [e for year, e in years if year < values["before"]]
        if not fitting:
            raise Gap(f"aucune édition des règles avant {values['before']}")
        return fitting[-1]
    if values.get("new"):
        if not years:
            raise Gap("aucune édition datée")
        return years[-1][1]
    if values.get("old"):
        if not years:
            raise Gap("aucune édition datée")
        return years[0][1]
    burn = values["mana_burn"]
    fitting = [e for _, e in years if _has_mana_burn(e, run) == burn]
    if not fitting:
        raise Gap("aucune édition " + ("avec" if burn else "sans") + " brûlure de mana")
    return fitting[-1]


def _has_mana_burn(edition: str, run: Run) -> bool:
    """Ask the checker: does a player with 1 unused mana lose life when the phase ends?"""
    report = run({"edition": edition, "phase": "precombat_main", "mana_pools": {"A": 1},
                  "questions": [{"ask": "mana_burn", "player": "A"}]})
    return bool(report["answers"][0]["answer"])


def _search(text: str, edition: str | None, config: str | None) -> tuple[dict[str, Any], ...]:
    from judge.search.engine import search
    from judge.search.output import result_json

    try:
        result = search(text, edition=edition, limit=MAX_SEARCH_HITS, config=config)
    except JudgeError:
        return ()
    return tuple(result_json(result)["hits"])
