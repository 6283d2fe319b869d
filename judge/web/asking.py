"""« Posez votre question »: `judge ask` in the app (`/question?q=`).

Owns the question page: the answer in one sentence and its deciding rules with their text
first (on a phone's first screen), then what was understood, « Modifier » opening the situation
form pre-filled, the details of each answer and the question box; or why the question is not
answered (out of scope, something missing, words not understood) and the search results (`judge ask --json` is the machine interface). The work runs in the worker
processes of `judge.web.pool`, as the situation checker's does; routing is `judge.web.app`'s.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from judge.ask.answer import AskResult, ask
from judge.ask.words import MAX_QUESTION
from judge.checks.questions import QUESTION_BY_ASK
from judge.checks.report import value_text
from judge.errors import JudgeError, NotFound
from judge.game.share import encode_permalink
from judge.search.output import result_json
from judge.search.query import search_understood_with
from judge.web.pool import WorkerContext, context
from judge.web.refusals import query_param
from judge.web.situations import Answer, damage_views, rule_link
from judge.web.state import app_state, render

MAX_HITS = 5


def _asked(state: WorkerContext, question: str, edition: str | None) -> AskResult:
    def searcher(query: str, in_edition: str | None, notions: tuple[str, ...]) -> tuple[dict[str, Any], ...]:
        found = result_json(search_understood_with(state.search_index, notions, query, edition=in_edition,
                                                   limit=MAX_HITS))
        return tuple(found["hits"])

    def rule_text(in_edition: str, number: str) -> tuple[str, str] | None:
        found = state.graph.lookup(number, in_edition)
        return (found[0].language, found[0].text) if found else None

    return ask(question, edition=edition or None, rules=state.graph, searcher=searcher, rule_text=rule_text)


def question_task(question: str, edition: str | None) -> Answer:
    """`GET /question?q=` in a worker process: the page."""
    return Answer.of(question_answer(context(), question, edition))


def _modify_link(situation: dict[str, Any]) -> str | None:
    """« Modifier »: the situation form filled in with it (a replayed turn: shown as text)."""
    token = encode_permalink(situation)
    if token is None:
        return None
    return f"/situation?{'s' if 'events' in situation else 'modele'}={token}"


def question_answer(state: WorkerContext, question: str, edition: str | None) -> Response:
    """The question page: the box, then what was understood and the answers (or why not)."""
    if not question.strip():
        return render(state, "question.html", ask_question="", editions=state.graph.editions)
    try:
        result = _asked(state, question, edition)
    except JudgeError as error:
        return render(state, "question.html", 404 if isinstance(error, NotFound) else 400,
                      ask_question=question[:MAX_QUESTION], ask_error=str(error), editions=state.graph.editions)
    answers = []
    used = result.situation.get("edition", "") if result.situation else ""
    for item in result.answers:
        spec = QUESTION_BY_ASK.get(str(item.get("ask")))
        answers.append({
            "question": spec.label if spec else item.get("ask"),
            "answer_text": value_text(item.get("answer")),
            "why": item.get("why"),
            "links": [{"number": n, "url": rule_link(state, used, n) or rule_link(state, used, n, "en")}
                      for n in item.get("rules", ())],
        })
    deciding = [{"number": r["number"], "text": r["text"], "language": r["language"],
                 "url": rule_link(state, r["edition"], r["number"].rpartition(":")[2])
                 or rule_link(state, r["edition"], r["number"].rpartition(":")[2], "en")}
                for r in result.rule_texts]
    hits = [{"label": f"{h['edition']} {h['number']}" + (f" — {h['title']}" if h.get("title") else ""),
             "url": rule_link(state, h["edition"], h["number"], h.get("language"))} for h in result.search]
    damage = damage_views(state, used, result.situation, list(result.answers)) if result.understood and used else []
    return render(state, "question.html", ask_question=result.question, damage_options=damage,
                  result=result, answers=answers, hits=hits, editions=state.graph.editions, deciding=deciding,
                  modify=_modify_link(result.situation) if result.situation and result.understood else None)


async def question_page(request: Request) -> Response:
    state = app_state(request)
    question = query_param(request, "q", cap=MAX_QUESTION * 4) or ""
    edition = query_param(request, "edition") or None
    return (await state.pool.run(state.time_budget, question_task, question, edition)).response()
