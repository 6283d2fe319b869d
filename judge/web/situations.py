"""The situation checker of `judge serve`: the answers to a situation, as JSON or as the form's page.

Owns checking a posted situation, the form's answers and a shared ruling's page, and the
tasks that run them (and the search queries) in the worker processes of `judge.web.pool`:
each task is a plain function of plain, picklable arguments that answers bytes (`Answer`) or
plain data, reading the corpus, templates and index of its process with `context()`.
Routing is `judge.web.app`'s job.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.responses import JSONResponse, Response

from judge.checks.questions import KIND_LABELS, PARAM_LABELS, QUESTION_BY_ASK, QUESTIONS, param_text
from judge.checks.report import check, report_json, report_text, value_text
from judge.errors import IllegalEvent, JudgeError, NotFound, SituationError
from judge.game.share import decode_permalink, encode_permalink, to_json, to_toml
from judge.search.output import result_json
from judge.search.query import search_with
from judge.site.templating import rule_url
from judge.web import assignments
from judge.web.forms import (
    EVENT_AMOUNT_LABELS,
    EVENT_AMOUNT_PLACEHOLDERS,
    EVENT_KINDS,
    EVENT_PARAM_LABELS,
    EVENT_PARAMS,
    EVENT_TEXT_PLACEHOLDERS,
    MANA_SYMBOLS,
    MOMENT_GROUPS,
    MOMENTS,
    UNTIL,
    FieldError,
    FormState,
    field_error,
    form_events,
    form_to_situation,
    mana_symbols,
    situation_to_form,
)
from judge.web.pool import context
from judge.web.refusals import Problem, short_message
from judge.web.state import Pages, render
from judge.web.timeline import step_urls, timeline


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """A response made in a worker process, sent as is by the server."""

    status: int
    body: bytes
    media_type: str

    @classmethod
    def of(cls, response: Response) -> Answer:
        return cls(status=response.status_code, body=bytes(response.body),
                   media_type=response.media_type or "application/octet-stream")

    def response(self) -> Response:
        return Response(self.body, status_code=self.status, media_type=self.media_type)


# ---------------------------------------------------------------------- tasks (worker side)
def check_task(text: str, fmt: str) -> Answer:
    """`POST /api/check` in a worker process."""
    return check_answer(context(), text, fmt)


def check_answer(pages: Pages, text: str, fmt: str) -> Answer:
    """`POST /api/check`: the report as JSON, or a French error (404: an unknown edition)."""
    try:
        _, data, _ = _check(pages, text, fmt)
    except JudgeError as error:
        return Answer.of(JSONResponse({"error": short_message(str(error))},
                                      status_code=404 if isinstance(error, NotFound) else 400))
    return Answer.of(JSONResponse(data))


def form_task(values: dict[str, str]) -> Answer:
    """`POST /situation`: the form filled in again, with its answers or the error."""
    form = FormState.from_values(values)
    return Answer.of(_answer_form(context(), form, form.source))


def permalink_task(token: str) -> Answer:
    """`GET /situation?s=`: a shared ruling."""
    return Answer.of(_answer_permalink(context(), token))


def search_task(query: str, edition: str | None, limit: int, lang: str | None) -> dict[str, Any]:
    """One search query, as `judge search --json`."""
    data: dict[str, Any] = result_json(search_with(context().search_index, query, edition=edition, limit=limit,
                                                   lang=lang))
    return data


# ---------------------------------------------------------------------- answers
def rule_link(state: Pages, edition: str, number: str, language: str | None = None) -> str | None:
    """URL of a rule on the served rulebook (its language's pages; without `language`, in the
    edition's first text that has it), None if the edition has no such rule."""
    bare = number.split(":", 1)[-1]
    if ":" in number:
        edition = number.split(":", 1)[0]
    if edition not in state.graph.edition_ids:
        return None
    rule = state.graph.get(edition, bare, language)
    if rule is None and language is None:  # a rule only the edition's other text has (2010's 509.2 in English)
        rule = next((found for lang in state.graph.edition(edition).languages
                     if (found := state.graph.get(edition, bare, lang)) is not None), None)
    if rule is None:
        return None
    return rule_url(rule, "/", state.graph.primary_language(edition))


def _check(state: Pages, text: str, fmt: str | None) -> tuple[Any, dict[str, Any], Any]:
    """Load through the same validation as the CLI, then answer: (situation, report JSON, report)."""
    from judge.game.situation import load_situation

    situation = load_situation(text, source="requête", fmt=fmt)
    report = check(state.graph, situation)
    data: dict[str, Any] = report_json(report)
    return situation, data, report


def _form_context(state: Pages, form: FormState, **extra: Any) -> dict[str, Any]:
    return {
        "form": form,
        "editions": state.graph.editions,
        "newest": state.graph.newest_edition,
        "questions": QUESTIONS,
        "param_labels": PARAM_LABELS,
        "kind_labels": KIND_LABELS,
        "moment_groups": MOMENT_GROUPS,
        "creature_options": [(name, name) for name in form.creature_names],
        "player_options": [(name, name) for name in form.player_names],
        "event_kinds": EVENT_KINDS,
        "event_param_labels": EVENT_PARAM_LABELS,
        "event_params": EVENT_PARAMS,
        "event_placeholders": EVENT_TEXT_PLACEHOLDERS,
        "event_amount_labels": EVENT_AMOUNT_LABELS,
        "amount_placeholders": EVENT_AMOUNT_PLACEHOLDERS,
        "mana_names": MANA_SYMBOLS,
        "mana_symbols": mana_symbols,
        "field_errors": {},
        "first_error": None,
        **extra,
    }


def _situation_data(text: str, fmt: str | None = None) -> dict[str, Any]:
    """A pasted or shared situation (JSON or TOML) as data, through the one reader of every
    situation text (`parse_situation_text`: bounds checked before parsing, French errors)."""
    from judge.game.situation import parse_situation_text

    data = parse_situation_text(text, source="situation", fmt=fmt)
    if not isinstance(data, dict):
        raise SituationError("situation", "un objet (des clés et leurs valeurs) est attendu")
    return data


def _answer_view(state: Pages, edition: str, answer: dict[str, Any]) -> dict[str, Any]:
    """An answer in French words: the question's wording, its parameters by their French
    names (a spell kind by its French name), the value, the rules as links."""
    spec = QUESTION_BY_ASK.get(str(answer.get("ask")))
    params = [
        {"label": PARAM_LABELS.get(key, key),
         "value": param_text(key, answer[key])}
        for key in PARAM_LABELS
        if answer.get(key) is not None
    ]
    return {
        **answer,
        "question": spec.label if spec is not None else str(answer.get("ask")),
        "params": params,
        "links": [
            {"number": str(n), "url": rule_link(state, edition, str(n))} for n in answer.get("rules", [])
        ],
        "answer_text": value_text(answer.get("answer")),
    }


def damage_views(state: Pages, edition: str, data: dict[str, Any] | None,
                 answers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The legal divisions of combat damage for an answer about damage, with rule links."""
    return [
        {"creature": item.creature, "power": item.power, "options": item.options, "note": item.note,
         "links": [{"number": n, "url": rule_link(state, edition, n)} for n in item.rules]}
        for item in assignments.listed(state.graph, data, answers, edition)
    ]


def prefilled_form(state: Pages, model: str | None) -> Response:
    """The empty form, or (a rule page's « vérifiable » link) the form pre-filled, not checked."""
    if not model:
        return render(state, "situation.html", **_form_context(state, FormState.empty()))
    try:
        shared = _situation_data(decode_permalink(model), "json")
    except JudgeError as error:
        return render(state, "situation.html", 400, **_form_context(state, FormState.empty(), error=short_message(str(error))))
    filled = situation_to_form(shared)
    return render(state, "situation.html", **_form_context(state, filled or FormState.empty()))


def _answer_permalink(state: Pages, token: str) -> Response:
    """A shared ruling: the form filled in again (or the situation as pasted text) and its answers."""
    try:
        source = decode_permalink(token)
    except JudgeError as error:
        return render(state, "situation.html", 400, **_form_context(state, FormState.empty(), error=short_message(str(error))))
    try:
        shared = _situation_data(source, "json")
    except JudgeError as error:
        return render(state, "situation.html", 400, **_form_context(state, FormState.empty(), error=short_message(str(error))))
    form = situation_to_form(shared)
    if form is not None:
        return _answer_form(state, form, "")
    form = FormState.empty()
    form.source = source
    return _answer_form(state, form, source)


def _priority_model(state: Pages, form: FormState) -> Callable[[str, str | None], bool] | None:
    """Whether players receive priority in a step, by the game model of the form's edition."""
    from judge.game.gamemodel import load_game_model

    edition = form.state.get("edition") or state.graph.newest_edition
    if edition not in state.graph.edition_ids:
        return None  # the check names the unknown edition
    game = state.graph.edition(edition).game
    if game is None:
        return None
    model = load_game_model(game)
    return lambda phase, step: model.has(phase, step) and model.step(phase, step).priority


def _failure(form: FormState, error: JudgeError, event_rows: list[int] | None,
             question: int | None = None) -> FieldError:
    """A refusal of the situation reader or of the replay, on the field it is about
    (`question`: the index of a question checked alone, whose path says `questions[0]`)."""
    if isinstance(error, SituationError):
        path, reason = error.field, error.reason
        if question is not None and path.startswith("questions[0]"):
            path = f"questions[{question}]" + path.removeprefix("questions[0]")
    elif isinstance(error, IllegalEvent):
        path = f"events[{error.index}]"
        reason = str(error).removeprefix(f"{path} : ")
    else:
        path, reason = "", str(error)
    return field_error(form, path, short_message(reason), event_rows)


def _check_each(state: Pages, data_in: dict[str, Any]) -> tuple[Any, dict[str, Any], Any, dict[int, JudgeError]]:
    """The situation without its questions, then each question alone: every answer is shown
    even when another question fails. The state's own error is raised as is."""
    base = {key: value for key, value in data_in.items() if key != "questions"}
    situation, data, report = _check(state, json.dumps(base, ensure_ascii=False), "json")
    answers: list[dict[str, Any]] = []
    failed: dict[int, JudgeError] = {}
    for index, question in enumerate(data_in.get("questions") or ()):
        try:
            _, one, _ = _check(state, json.dumps({**base, "questions": [question]}, ensure_ascii=False), "json")
        except JudgeError as error:
            failed[index] = error
            answers.append({"ask": question.get("ask"), "failed": index})
            continue
        answers.extend(one.get("answers", []))
    return situation, {**data, "answers": answers}, report, failed


MAX_ROUNDS = 40  # rounds of passes all the « Tout le monde passe jusqu'à… » of a form try, together


def _reach(state: Pages, data: dict[str, Any], rows: list[int]) -> tuple[dict[str, Any], list[int]]:
    """The events with each « Tout le monde passe jusqu'à… » replaced by the rounds of passes
    (one per player) that bring the replay to that moment, asked of the checker round by round."""
    events = data.get("events") or []
    if not any(isinstance(e, dict) and UNTIL in e for e in events):
        return data, rows
    base = {key: value for key, value in data.items() if key not in ("events", "questions")}
    players = len(base.get("players") or ["A", "B"])
    done: list[Any] = []
    done_rows: list[int] = []
    rounds = 0
    for index, (event, row) in enumerate(zip(events, rows, strict=True)):
        if not (isinstance(event, dict) and UNTIL in event):
            done.append(event)
            done_rows.append(row)
            continue
        target = MOMENTS[event[UNTIL]]
        while True:
            try:
                _, report, _ = _check(state, json.dumps({**base, "events": done}, ensure_ascii=False), "json")
            except IllegalEvent as error:  # an earlier event refused: said on its own row of the form
                if not 0 <= error.index < len(done_rows):
                    raise
                reason = str(error).removeprefix(f"events[{error.index}] : ")
                raise SituationError(f"events[{rows.index(done_rows[error.index])}]", reason) from error
            where = report.get("where") or {}
            if where.get("turn_ended"):
                raise SituationError(f"events[{index}].step", f"« {target.label} » n'arrive plus ce tour-ci "
                                     "(déjà passé, ou sauté : le tour s'est terminé sans y arriver)")
            if where.get("phase") == target.phase and (where.get("step") or "") == target.step:
                break
            if rounds >= MAX_ROUNDS:
                raise SituationError(f"events[{index}].step", f"« {target.label} » n'est pas atteint après "
                                     f"{MAX_ROUNDS} tours de passes")
            rounds += 1
            done += ["pass"] * players
            done_rows += [row] * players
    return {**data, "events": done}, done_rows


def _answer_form(state: Pages, form: FormState, source: str) -> Response:
    data_in: dict[str, Any] | None = None
    event_rows: list[int] | None = None
    failed: dict[int, JudgeError] = {}
    try:
        if source.strip():
            data_in = _situation_data(source)
            text, fmt = source, None
        else:
            data_in = form_to_situation(form, _priority_model(state, form))
            event_rows = form_events(form)[1]
            data_in, event_rows = _reach(state, data_in, event_rows)
            text, fmt = json.dumps(data_in, ensure_ascii=False), "json"
        try:
            situation, data, report = _check(state, text, fmt)
        except JudgeError:
            if not data_in or len(data_in.get("questions") or ()) < 2:
                raise
            situation, data, report, failed = _check_each(state, data_in)
    except (JudgeError, Problem) as error:
        status = error.status if isinstance(error, Problem) else 400
        wrong = _failure(form, error, event_rows) if isinstance(error, JudgeError) else \
            field_error(form, "", short_message(str(error)))
        return render(state, "situation.html", status, **_form_context(
            state, form, error=f"{wrong.label} : {wrong.message}", field_errors={wrong.field: wrong},
            first_error=wrong.field))
    edition = str(data.get("edition") or situation.edition or state.graph.newest_edition)
    token = encode_permalink(data_in) if data_in is not None else None
    field_errors: dict[str, FieldError] = {}
    answers = []
    for answer in data.get("answers", []):
        if "failed" in answer:
            wrong = _failure(form, failed[answer["failed"]], event_rows, answer["failed"])
            field_errors.setdefault(wrong.field, wrong)
            spec = QUESTION_BY_ASK.get(str(answer.get("ask")))
            answers.append({"failed": wrong, "question": spec.label if spec else str(answer.get("ask")),
                            "ask": answer.get("ask")})
        else:
            answers.append(_answer_view(state, edition, answer))
    return render(
        state, "situation.html",
        **_form_context(
            state, form, report=data, edition=edition, report_text=report_text(report),
            edition_label=state.graph.edition(edition).label,
            answers=answers, field_errors=field_errors,
            first_error=next(iter(field_errors), None),
            damage_options=damage_views(state, edition, data_in, data.get("answers", [])),
            timeline=timeline(report.timeline, step_urls(state.graph, edition), situation.skip),
            toml_text=to_toml(data_in) if data_in is not None else source,
            json_text=to_json(data_in) if data_in is not None else source,
            permalink=f"/situation?s={token}" if token else None,
        ),
    )
