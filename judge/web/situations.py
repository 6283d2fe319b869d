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
from judge.errors import JudgeError, NotFound
from judge.game.share import decode_permalink, encode_permalink, to_json, to_toml
from judge.search.output import result_json
from judge.search.query import search_with
from judge.site.templating import rule_url
from judge.web.forms import MOMENT_GROUPS, FormState, form_to_situation, situation_to_form
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
    """URL of a rule on the served rulebook (its language's pages), None if the edition has no
    such rule."""
    bare = number.split(":", 1)[-1]
    if ":" in number:
        edition = number.split(":", 1)[0]
    if edition not in state.graph.edition_ids:
        return None
    rule = state.graph.get(edition, bare, language)
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
        **extra,
    }


def _situation_data(text: str) -> dict[str, Any] | None:
    """A pasted situation (JSON or TOML) as data, for sharing; None if it reads as neither."""
    import tomllib

    try:
        data = json.loads(text)
    except ValueError:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return None
    return data if isinstance(data, dict) else None


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


def prefilled_form(state: Pages, model: str | None) -> Response:
    """The empty form, or (a rule page's « vérifiable » link) the form pre-filled, not checked."""
    if not model:
        return render(state, "situation.html", **_form_context(state, FormState.empty()))
    try:
        shared = _situation_data(decode_permalink(model))
    except JudgeError as error:
        return render(state, "situation.html", 400, **_form_context(state, FormState.empty(), error=short_message(str(error))))
    filled = situation_to_form(shared) if shared is not None else None
    return render(state, "situation.html", **_form_context(state, filled or FormState.empty()))


def _answer_permalink(state: Pages, token: str) -> Response:
    """A shared ruling: the form filled in again (or the situation as pasted text) and its answers."""
    try:
        source = decode_permalink(token)
    except JudgeError as error:
        return render(state, "situation.html", 400, **_form_context(state, FormState.empty(), error=short_message(str(error))))
    shared = _situation_data(source)
    form = situation_to_form(shared) if shared is not None else None
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


def _answer_form(state: Pages, form: FormState, source: str) -> Response:
    data_in: dict[str, Any] | None
    try:
        if source.strip():
            data_in = _situation_data(source)
            situation, data, report = _check(state, source, None)
        else:
            data_in = form_to_situation(form, _priority_model(state, form))
            situation, data, report = _check(state, json.dumps(data_in, ensure_ascii=False), "json")
    except (JudgeError, Problem) as error:
        status = error.status if isinstance(error, Problem) else 400
        return render(state, "situation.html", status, **_form_context(state, form, error=short_message(str(error))))
    edition = str(data.get("edition") or situation.edition or state.graph.newest_edition)
    token = encode_permalink(data_in) if data_in is not None else None
    return render(
        state, "situation.html",
        **_form_context(
            state, form, report=data, edition=edition, report_text=report_text(report),
            edition_label=state.graph.edition(edition).label,
            answers=[_answer_view(state, edition, answer) for answer in data.get("answers", [])],
            timeline=timeline(report.timeline, step_urls(state.graph, edition), situation.skip),
            toml_text=to_toml(data_in) if data_in is not None else source,
            json_text=to_json(data_in) if data_in is not None else source,
            permalink=f"/situation?s={token}" if token else None,
        ),
    )
