"""`judge ask`: a judge's question read, answered by the checker, and what was understood.

Owns the whole round: reading (by meaning first, `judge.ask.slots`; else the grammar of
`judge.ask.reader`), the situation built (`judge.ask.build`), an open moment tried at every step,
the edition (`--edition`, the question, else the newest), the answers from the same entry point
as `judge check` (`judge.checks.report.check` on a situation validated by
`judge.game.situation.situation_from_data`, as a file's data would be: no JSON text between),
the answer in one sentence with its deciding rules' text; and, for a question not answered,
why (out of scope, something missing, words not understood) with the search results instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from judge.ask.build import Builder, Gap, Plan, Run
from judge.ask.explain import out_of_scope_said, understood_as
from judge.ask.parts import Part, parts_of
from judge.ask.reader import Reading, read
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
    rule_texts: tuple[dict[str, str], ...] = ()  # the deciding rules: edition, number, language, text

    @property
    def answer_sentence(self) -> str:
        """The answer in one sentence per question asked (the checks' `why`), or why none."""
        if not self.understood:
            return ""
        return " ".join(str(a.get("why") or "") for a in self.answers).strip()

    @property
    def skipped_said(self) -> str:
        if not self.skipped:
            return ""
        return "Mots sans effet sur la réponse, ignorés : " + ", ".join(f"« {w} »" for w in self.skipped) + "."

    def text(self) -> str:
        """The French text of `judge ask`: the answer in one sentence first, then the deciding
        rules with their text, then what was understood and the details of the check; or, for a
        question not answered, why, and the search results offered instead."""
        if self.understood:
            lines = [self.answer_sentence, ""]
            if self.rule_texts:
                lines.append("Règles décisives :")
                for rule in self.rule_texts:
                    marked = " (texte anglais)" if rule["language"] == "en" else ""
                    lines.append(f"  {rule['number']}{marked} — {rule['text']}")
                lines.append("")
            lines.append(self.understood_as)
            if self.skipped:
                lines.append(self.skipped_said)
            lines += ["", "Détail de la vérification :", self.report_text]
            return "\n".join(lines)
        lines = [self.understood_as, ""]
        if self.skipped and self.declined != "out_of_scope":
            lines[1:1] = [self.skipped_said]
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
            "answer": self.answer_sentence,
            "rules": list(self.rule_texts),
            "declined": self.declined,
            "skipped": list(self.skipped),
        }


def check_question(question: str) -> str:
    """The question, stripped; a French error (exit 2) when empty or too long."""
    text = question.strip()
    if not text:
        raise JudgeError("question vide : posez une question (ex. « Puis-je lancer un rituel pendant mon entretien ? »)")
    if len(text) > MAX_QUESTION:
        raise JudgeError(f"question trop longue : {len(text)} caractères (au plus {MAX_QUESTION})")
    return text


# (question, edition, notions understood) -> search hits, ranked from the notions (`judge.search`).
Searcher = Callable[[str, str | None, tuple[str, ...]], tuple[dict[str, Any], ...]]
# (edition, number) -> (language, text) of a rule, or None when the corpus does not have it.
RuleText = Callable[[str, str], tuple[str, str] | None]
MAX_RULE_TEXT = 400  # characters of a deciding rule's text shown with the answer


def ask(question: str, *, edition: str | None = None, config: str | None = None, with_search: bool = True,
        rules: Any = None, searcher: Searcher | None = None, rule_text: RuleText | None = None) -> AskResult:
    """Read, build, answer: the result of `judge ask`. `rules` (the rule source the checks read,
    by default the rule store of `config`), `searcher` (by default `judge search`'s) and
    `rule_text` (a deciding rule's text, by default from the rule store) let the web server
    answer with what its workers hold."""
    text = check_question(question)
    if rules is None:
        from judge.checks.store import load_store

        store = load_store(config)
        rules = store.catalogue
        if rule_text is None:
            rule_text = _store_text(store)
    catalogue = rules

    def search_for(query: str) -> tuple[dict[str, Any], ...]:
        if not with_search:
            return ()
        notions = _notions(reading)
        if searcher is not None:
            return searcher(query, edition, notions)
        return _search(query, edition, config, notions)
    if edition is not None:
        catalogue.edition(edition)  # an unknown edition: French error listing the editions

    from judge.checks.report import check, report_json, report_text
    from judge.game.situation import situation_from_data

    def checked(data: dict[str, Any]) -> Any:
        # The situation as built (a few dozen words' worth: bounded by the reader's caps), validated
        # as a file's data would be, without a JSON text in between.
        return check(catalogue, situation_from_data(data, source="question"))

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
        return AskResult(question=text, understood=False, not_understood=reading.out_of_scope,
                         understood_as=said, situation=None, answers=(), report=None, search=search_for(text),
                         reason=said, declined="out_of_scope", skipped=reading.skipped)
    # The slot reader first (meaning, by lemmas); the grammar's reading when the slot reader
    # leaves a word of game meaning or its situation misses something the grammar's has.
    readings: list[tuple[Part, ...]] = []
    slotted, slot_left = _slot_read(reading)
    if slotted is not None:
        readings.append(slotted)
    elif reading.refused:
        raise JudgeError(reading.refused)
    if not unknown:
        readings.append(parts)
    for candidate in readings:
        try:
            chosen = _edition(candidate, edition, catalogue.edition_ids, run)
            plan = _as_asked(Builder(candidate, chosen, run).build(), reading)
        except Gap as gap:
            reason = reason or str(gap)
            plan = _every_moment(candidate, edition, catalogue.edition_ids, run, reading)
            if plan is None:
                continue
        parts, unknown, reason = candidate, (), None
        break
    if plan is None and slotted is not None:
        parts, unknown = slotted, ()
    elif plan is None and slot_left and unknown:
        unknown = slot_left  # the first reader's words of game meaning it could not place
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
    deciding = _rule_texts(report, rule_text)
    return AskResult(question=text, understood=True, not_understood=(), rule_texts=deciding,
                     understood_as=understood_as(plan, parts, (), None), situation=situation,
                     answers=tuple(_answers(report, plan.names)), report=report, search=(),
                     report_text=report_text(checked_report), skipped=reading.skipped)


# Questions whose answer may be the same at every moment of a turn (« puis-je jouer un terrain
# pendant le tour de mon adversaire ? »): tried at each one when no moment is said.
_ANY_MOMENT_ASKS = frozenset({"play_land", "cast", "priority", "discard"})


def _every_moment(parts: tuple[Part, ...], given: str | None, editions: tuple[str, ...], run: Run,
                  reading: Reading) -> Plan | None:
    """When no moment is said and the answer is the same at every step and main phase of the
    turn: the plan at the first main phase, saying so; else None (the gap stands)."""
    from judge.game.turnplan import PHASE_STEPS, PHASES

    questions = [p for p in parts if p.kind == "question"]
    if (len(questions) != 1 or questions[0].values.get("ask") not in _ANY_MOMENT_ASKS
            or any(p.kind in ("moment", "events", "pass") for p in parts)):
        return None
    moments = [(phase, step) for phase in PHASES for step in (PHASE_STEPS[phase] or (None,))]
    plans: list[Plan] = []
    answers: set[str] = set()
    at = parts.index(questions[0])
    try:
        chosen = _edition(parts, given, editions, run)
    except Gap:
        return None
    for phase, step in moments:
        said = Part(kind="moment", values={"phase": phase, "step": step, "owner": None})
        try:
            plan = _as_asked(Builder((*parts[:at], said, *parts[at:]), chosen, run).build(), reading)
            report = run(plan.situation())
        except Gap:
            return None
        answers.add(repr([a.get("answer") for a in report.get("answers", ())]))
        plans.append(plan)
        if len(answers) > 1:
            return None
    # the main phase, where most is allowed, explains it best
    plan = plans[moments.index((PHASES[1], None))]
    plan.notes.append("à n'importe quel moment de ce tour : la réponse est la même à chaque étape et phase "
                      "(expliquée ici pour la première phase principale)")
    return plan


def _slot_read(reading: Reading) -> tuple[tuple[Part, ...] | None, tuple[str, ...]]:
    """The parts of the slot reader (`judge.ask.slots`), read first, when every word of game
    meaning fills a slot; else None (then only the grammar's reading, if it has no unknown
    word), with the words it could not place."""
    from judge.ask.slots import slot_reading

    return slot_reading(reading.words, reading.asked)


def _as_asked(plan: Plan, reading: Reading) -> Plan:
    """The plan, when the question it answers is the one the asking sentence's words ask
    (`judge.ask.kinds.misread`); else a `Gap` that says both: never answer another question."""
    from judge.ask.kinds import misread
    from judge.checks.questions import QUESTION_BY_ASK

    asks = {str(q["ask"]) for q in plan.questions}
    other = misread(asks, reading.asked, tuple(w.text for w in reading.words))
    if other is None:
        return plan

    def label(ask: str) -> str:
        spec = QUESTION_BY_ASK.get(ask)
        return f"« {spec.label} »" if spec is not None else ask

    read_as = " ; ".join(label(a) for a in sorted(asks))
    said = " ; ".join(label(a) for a in other.split(", "))
    raise Gap(f"j'ai lu la question {read_as}, mais ses mots demandent plutôt {said} : "
              "je ne réponds pas à une autre question que celle posée")


def _store_text(store: Any) -> RuleText:
    def text(edition: str, number: str) -> tuple[str, str] | None:
        key = store.catalogue.lookup(number, edition)
        if key is None:
            return None
        data = store.json(key, with_translations=False)
        return str(data.get("language") or ""), str(data.get("text") or "")
    return text


def _rule_texts(report: dict[str, Any], rule_text: RuleText | None) -> tuple[dict[str, str], ...]:
    """The deciding rules of the answers, each once, with their text (shortened)."""
    if rule_text is None:
        return ()
    edition = str(report.get("edition", ""))
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    for answer in report.get("answers", ()):
        for cited in answer.get("rules", ()):
            number = str(cited)
            used, _, bare = number.rpartition(":") if ":" in number else ("", "", number)
            if number in seen:
                continue
            seen.add(number)
            found = rule_text(used or edition, bare)
            if found is None:
                continue
            language, body = found
            body = " ".join(body.split())
            if len(body) > MAX_RULE_TEXT:
                body = body[:MAX_RULE_TEXT].rsplit(" ", 1)[0] + " …"
            out.append({"edition": used or edition, "number": number, "language": language, "text": body})
    return tuple(sorted(out, key=lambda rule: rule["language"] != "fr"))  # French first (stable)


def _answers(report: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    """The checks' answers, the players called by the first names the question gave them
    (« Alice », not « A »)."""
    answers: list[dict[str, Any]] = report["answers"]
    if not names:
        return answers
    return [{**item, "answer": _renamed(item.get("answer"), names)} for item in answers]


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {k: (_renamed(v, names) if k in _PLAYER_KEYS else v) for k, v in value.items()}
    return value


# The keys of an answer whose values are players (`where`'s holder of priority, `effect_ends`'s
# turn, `state_based`'s losers).
_PLAYER_KEYS = frozenset({"priority", "player", "lose", "target"})


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


def _notions(reading: Reading) -> tuple[str, ...]:
    """What the reader understood, for the search it offers: the question's words as read
    (forms and typos mended), without those skipped or not understood."""
    left = set(reading.skipped) | set(reading.unknown)
    return tuple(dict.fromkeys(w.text for w in reading.words if w.text not in left and w.typed not in left))


def _search(text: str, edition: str | None, config: str | None, notions: tuple[str, ...]
            ) -> tuple[dict[str, Any], ...]:
    from judge.search.engine import search_understood
    from judge.search.output import result_json

    try:
        result = search_understood(notions, text, edition=edition, limit=MAX_SEARCH_HITS, config=config)
    except JudgeError:
        return ()
    return tuple(result_json(result)["hits"])
