"""`judge serve`: the rulebook, search and the situation checker as one local Starlette app.

Owns routing and the JSON API (same shapes as `--json`). Every route's work runs in a worker
thread within a time budget (`judge.web.work`): a route is wrapped in `offloaded`, or is a
`budgeted` endpoint that reads its body and hands its work to `run_budgeted`. Shared state (corpus, page cache,
search index) is `judge.web.state`, limits and error pages `judge.web.errors`, form
conversion and the timeline `judge.web.forms`; pages come from `judge.site.build`.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from judge.checks.report import check, report_json, report_text, value_text
from judge.corpus.graph import RuleGraph
from judge.corpus.model import RULE_NUMBER
from judge.errors import JudgeError, NotFound
from judge.game.model import STACK_KINDS
from judge.game.turn import PHASE_LABELS, STEP_LABELS
from judge.search.output import result_json
from judge.site.build import SiteRenderer
from judge.site.templating import rule_url
from judge.web.errors import (
    MAX_BODY,
    STATUS_MESSAGES,
    Problem,
    RequestLimits,
    exception_handlers,
    limit_param,
    query_param,
)
from judge.web.forms import (
    ASK_LABELS,
    FormState,
    form_to_situation,
    step_urls,
    timeline,
)
from judge.web.state import ASSET_TYPES, AppState, app_state, build_state, render
from judge.web.work import budgeted, offloaded, run_budgeted, tune_interpreter

_NUMBER = re.compile(rf"^{RULE_NUMBER}$")
OPENAPI_PATH = Path(__file__).with_name("openapi.json")
_SNIPPET_TAGS = re.compile(r"</?mark>")


# ---------------------------------------------------------------------- search
def run_search(state: AppState, query: str, edition: str | None, limit: int,
               lang: str | None = None) -> dict[str, Any]:
    """`judge search --json` for one query; results are cached (the index never changes)."""
    cache_key = (query, edition, limit, lang)
    with state.search_lock:
        cached = state.search_cache.get(cache_key)
        if cached is not None:
            state.search_cache.move_to_end(cache_key)
            return cached
    result = state.search_index.search(query, edition=edition, limit=limit, lang=lang)
    data: dict[str, Any] = result_json(result)
    if state.search_cache_size > 0:
        with state.search_lock:
            state.search_cache[cache_key] = data
            while len(state.search_cache) > state.search_cache_size:
                state.search_cache.popitem(last=False)
    return data


def safe_snippet(snippet: str) -> Markup:
    """The search module escapes snippets and adds `<mark>`; trust that only if it holds."""
    if "<" in _SNIPPET_TAGS.sub("", snippet) or ">" in _SNIPPET_TAGS.sub("", snippet):
        return escape(snippet)
    return Markup(snippet)


def rule_link(state: AppState, edition: str, number: str, language: str | None = None) -> str | None:
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


def lang_param(value: str | None) -> str | None:
    """`fr`, `en` or nothing (both languages)."""
    if value in (None, ""):
        return None
    if value not in ("fr", "en"):
        raise Problem(400, f"lang : « {value[:20]} » inconnue (fr ou en)")
    return value


def api_search(request: Request) -> Response:
    state = app_state(request)
    query = (query_param(request, "q") or "").strip()
    if not query:
        raise Problem(400, "q : une requête de recherche est attendue")
    edition = state.edition(query_param(request, "edition"))
    data = run_search(state, query, edition, limit_param(query_param(request, "limit")),
                      lang_param(query_param(request, "lang")))
    return JSONResponse(data)


def search_page(request: Request) -> Response:
    state = app_state(request)
    query = (query_param(request, "q") or "").strip()
    edition = state.edition(query_param(request, "edition"))
    data: dict[str, Any] | None = None
    if query:
        data = run_search(state, query, edition, limit_param(query_param(request, "limit"), 20))
    hits = [
        {**hit, "snippet_html": safe_snippet(str(hit.get("snippet") or "")),
         "url": rule_link(state, str(hit["edition"]), str(hit["number"]), str(hit["language"]))}
        for hit in (data or {}).get("hits", [])
    ]
    return render(
        state, "search.html", query=query, edition=edition or "",
        editions=state.graph.editions, hits=hits,
        suggestion=(data or {}).get("suggestion"), notice=(data or {}).get("notice"),
        searched=data is not None,
    )


# ---------------------------------------------------------------------- rules
def api_rule(request: Request) -> Response:
    state = app_state(request)
    from judge.corpus.export import rule_json

    number = request.path_params["number"].strip().rstrip(".")
    edition = state.edition(query_param(request, "edition"))
    if not _NUMBER.match(number):
        raise Problem(400, f"numéro de règle invalide : « {number[:40]} » (attendu par exemple 300, 300.3 ou 306.2a)")
    found = state.graph.lookup(number, edition)
    if not found:
        editions = edition or ", ".join(state.graph.edition_ids)
        raise NotFound(f"règle {number} introuvable (éditions : {editions})")
    return JSONResponse([rule_json(state.graph, rule, state.checks_for) for rule in found])


def api_openapi(request: Request) -> Response:
    """The OpenAPI 3.1 document of `/api/*` (data next to the app, kept true by the tests)."""
    return Response(OPENAPI_PATH.read_bytes(), media_type="application/json")


def api_history(request: Request) -> Response:
    """`judge history NUMBER [--edition E] --json` over HTTP."""
    state = app_state(request)
    from judge.corpus.history import histories, history_json

    number = request.path_params["number"].strip().rstrip(".")
    edition = state.edition(query_param(request, "edition"))
    if not _NUMBER.match(number):
        raise Problem(400, f"numéro de règle invalide : « {number[:40]} » (attendu par exemple 300, 300.3 ou 306.2a)")
    return JSONResponse([history_json(state.graph, item) for item in histories(state.graph, number, edition)])


# ---------------------------------------------------------------------- rulebook pages
def _site_page(state: AppState, key: str, build: Callable[[], str]) -> HTMLResponse:
    html = state.pages.get(key)
    if html is None:
        html = build()
        state.pages[key] = html
    return HTMLResponse(html)


def _site(state: AppState) -> SiteRenderer:
    return state.site


def index_page(request: Request) -> Response:
    state = app_state(request)
    site = _site(state)
    return _site_page(state, "index", lambda: str(site.render_index("/")))


def _edition_language(state: AppState, edition: str, language: str | None) -> tuple[str, str | None]:
    if edition not in state.graph.edition_ids:
        raise Problem(404, f"édition inconnue : « {edition[:40]} »")
    languages = state.graph.edition(edition).languages
    if language is not None and (language not in languages or language == languages[0]):
        raise Problem(404, f"langue « {language[:20]} » absente de l'édition {edition}")
    return edition, language


def edition_page(request: Request) -> Response:
    state = app_state(request)
    site = _site(state)
    edition, language = _edition_language(
        state, request.path_params["edition"], request.path_params.get("language")
    )
    return _site_page(
        state, f"{edition}/{language}/index",
        lambda: str(site.render_edition(edition, "/", language)),
    )


def section_page(request: Request) -> Response:
    state = app_state(request)
    edition, language = _edition_language(
        state, request.path_params["edition"], request.path_params.get("language")
    )
    page = request.path_params["page"]
    if page == "index.html":
        return edition_page(request)
    site = _site(state)
    if page == "glossaire.html" and language is None and site.has_glossary(edition):
        return _site_page(state, f"{edition}/glossaire", lambda: str(site.render_glossary(edition, "/")))
    match = re.fullmatch(r"(\d{3})\.html", page)
    if match is None:
        raise Problem(404, STATUS_MESSAGES[404])
    section = match.group(1)
    lang = language or state.graph.primary_language(edition)
    if state.graph.get(edition, section, lang) is None:
        raise Problem(404, f"section {section} absente de l'édition {edition}")
    return _site_page(
        state, f"{edition}/{language}/{section}",
        lambda: str(site.render_section(edition, section, "/", language)),
    )


def changes_page(request: Request) -> Response:
    """Every change between two editions (older first), as in the static rulebook."""
    state = app_state(request)
    older, newer = request.path_params["older"], request.path_params["newer"]
    for edition in (older, newer):
        if edition not in state.graph.edition_ids:
            raise Problem(404, f"édition inconnue : « {edition[:40]} »")
    if (older, newer) not in _site(state).history.pairs_of_editions() or _site(state).history.table(older, newer) is None:
        raise Problem(404, f"pas de page de changements {older[:40]} → {newer[:40]}")
    site = _site(state)
    return _site_page(state, f"changes/{older}-{newer}", lambda: str(site.render_changes(older, newer, "/")))


def asset(request: Request) -> Response:
    state = app_state(request)
    name = request.path_params["name"]
    found = state.assets.get(name)
    if found is None and name == "search-index.js":
        # The offline index of the static search page, built on first use.
        from judge.site.offline_index import build_search_index, search_index_js

        found = (search_index_js(build_search_index(state.graph)).encode(), ASSET_TYPES[".js"])
        state.assets[name] = found
    if found is None:
        raise Problem(404, STATUS_MESSAGES[404])
    body, kind = found
    return Response(body, media_type=kind, headers={"Cache-Control": "public, max-age=3600"})


# ---------------------------------------------------------------------- situations
async def _read_body(request: Request) -> str:
    body = await request.body()
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Problem(400, "le corps de la requête n'est pas de l'UTF-8 valide") from None


def _check(state: AppState, text: str, fmt: str | None) -> tuple[Any, dict[str, Any], Any]:
    """Load through the same validation as the CLI, then answer: (situation, report JSON, report)."""
    from judge.game.situation import load_situation

    situation = load_situation(text, source="requête", fmt=fmt)
    report = check(state.graph, situation)
    data: dict[str, Any] = report_json(report)
    return situation, data, report


@budgeted
async def api_check(request: Request) -> Response:
    state = app_state(request)
    text = await _read_body(request)
    if not text.strip():
        raise Problem(400, "le corps de la requête est vide : une situation JSON est attendue")
    kind = request.headers.get("content-type", "")
    fmt = "toml" if "toml" in kind else "json"

    def work() -> Response:
        _, data, _ = _check(state, text, fmt)
        return JSONResponse(data)

    return await run_budgeted(request, work, heavy=True)


def _form_context(state: AppState, form: FormState, **extra: Any) -> dict[str, Any]:
    return {
        "form": form,
        "editions": state.graph.editions,
        "newest": state.graph.newest_edition,
        "ask_labels": ASK_LABELS,
        "phase_labels": PHASE_LABELS,
        "step_labels": STEP_LABELS,
        "stack_kinds": STACK_KINDS,
        **extra,
    }


@budgeted
async def situation_page(request: Request) -> Response:
    state = app_state(request)
    if request.method == "GET":
        return await run_budgeted(
            request, lambda: render(state, "situation.html", **_form_context(state, FormState.empty()))
        )
    try:
        raw: FormData = await request.form(max_files=0, max_fields=400, max_part_size=MAX_BODY)
    except HTTPException as error:
        raise Problem(400, "formulaire illisible") from error
    values = {key: str(value) for key, value in raw.multi_items() if isinstance(value, str)}
    form = FormState.from_values(values)
    return await run_budgeted(request, lambda: _answer_form(state, form), heavy=True)


def _answer_form(state: AppState, form: FormState) -> Response:
    try:
        if form.source.strip():
            situation, data, report = _check(state, form.source, None)
        else:
            text = json.dumps(form_to_situation(form), ensure_ascii=False)
            situation, data, report = _check(state, text, "json")
    except (JudgeError, Problem) as error:
        status = error.status if isinstance(error, Problem) else 400
        if status == 503:
            raise
        return render(state, "situation.html", status, **_form_context(state, form, error=str(error)))
    edition = str(data.get("edition") or situation.edition or state.graph.newest_edition)
    answers = [
        {
            **answer,
            "links": [
                {"number": str(n), "url": rule_link(state, edition, str(n))} for n in answer.get("rules", [])
            ],
            "answer_text": value_text(answer.get("answer")),
        }
        for answer in data.get("answers", [])
    ]
    text_report = report_text(report)
    return render(
        state, "situation.html",
        **_form_context(
            state, form, report=data, answers=answers, edition=edition, report_text=text_report,
            timeline=timeline(report.timeline, step_urls(state.graph, edition)),
        ),
    )


# ---------------------------------------------------------------------- app
class _EditionSegment(Convertor[str]):
    """An edition id in a rulebook URL; never `api`, so `/api/…` errors stay JSON and 405s."""

    regex = r"(?!api(?:/|$))[A-Za-z0-9][A-Za-z0-9_.-]*"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


class _PageSegment(_EditionSegment):
    regex = r"(?:index|glossaire|\d{3})\.html"


class _LanguageSegment(_EditionSegment):
    regex = r"[a-z]{2,3}"


register_url_convertor("judge_edition", _EditionSegment())
register_url_convertor("judge_page", _PageSegment())
register_url_convertor("judge_language", _LanguageSegment())


def _routes() -> list[Route]:
    page = ["GET", "HEAD"]
    return [
        Route("/", offloaded(index_page), methods=page),
        Route("/index.html", offloaded(index_page), methods=page),
        Route("/recherche", offloaded(search_page), methods=page),
        Route("/search.html", offloaded(search_page), methods=page),
        Route("/situation", situation_page, methods=["GET", "HEAD", "POST"]),
        Route("/api/search", offloaded(api_search), methods=page),
        Route("/api/rule/{number}", offloaded(api_rule), methods=page),
        Route("/api/history/{number}", offloaded(api_history), methods=page),
        Route("/changes/{older:judge_edition}-{newer:judge_edition}.html", offloaded(changes_page), methods=page),
        Route("/api/check", api_check, methods=["POST"]),
        Route("/api/openapi.json", offloaded(api_openapi), methods=page),
        Route("/{edition:judge_edition}/{page:judge_page}", offloaded(section_page), methods=page),
        Route("/{edition:judge_edition}/{language:judge_language}/{page:judge_page}",
              offloaded(section_page), methods=page),
        Route("/{name}", offloaded(asset), methods=page),
    ]


def create_app(graph: RuleGraph) -> Starlette:
    """The web app over one loaded corpus; the search index is opened here, once."""
    app = Starlette(debug=False, routes=_routes(), exception_handlers=exception_handlers())
    app.add_middleware(RequestLimits)
    app.state.judge = build_state(graph)
    return app


@contextmanager
def background_server(app: Starlette, host: str = "127.0.0.1", *, timeout: float = 10.0) -> Iterator[str]:
    """Run `app` with uvicorn in a thread on a free port of `host`; yields the base URL.

    For tests and the load benchmark: the socket is bound before the thread starts, so the
    URL is valid as soon as the server reports it has started.
    """
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise RuntimeError("le serveur de test n'a pas démarré")
        time.sleep(0.01)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()


def serve(graph: RuleGraph, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the app with uvicorn until interrupted (uvicorn logs the address)."""
    import uvicorn

    tune_interpreter()
    uvicorn.run(create_app(graph), host=host, port=port, log_level="info", server_header=False)


__all__ = ["AppState", "Problem", "background_server", "create_app", "serve"]
