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
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from judge.checks.questions import KIND_LABELS, PARAM_LABELS, QUESTION_BY_ASK, QUESTIONS, param_text
from judge.checks.report import check, report_json, report_text, value_text
from judge.corpus.graph import RuleGraph
from judge.corpus.numbers import RULE_NUMBER
from judge.corpus.selection import RemovedRule, is_rule_query, removal_message, removals, select
from judge.errors import JudgeError
from judge.game.share import decode_permalink, encode_permalink, to_json, to_toml
from judge.search.output import result_json
from judge.site.build import SiteRenderer
from judge.site.templating import page_path, rule_url
from judge.web.errors import (
    MAX_BODY,
    MAX_URL,
    STATUS_MESSAGES,
    Problem,
    RequestLimits,
    exception_handlers,
    limit_param,
    query_param,
)
from judge.web.forms import (
    MOMENT_GROUPS,
    FormState,
    form_to_situation,
    situation_to_form,
)
from judge.web.state import ASSET_TYPES, AppState, app_state, build_state, render
from judge.web.timeline import step_urls, timeline
from judge.web.work import budgeted, offloaded, run_budgeted, tune_interpreter

_NUMBER = re.compile(rf"^{RULE_NUMBER}$")
OPENAPI_PATH = Path(__file__).with_name("openapi.json")
_SNIPPET_TAGS = re.compile(r"</?mark>")
_DECIMAL_COMMA = re.compile(r"(\d{3}),(\d)")


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


def _rule_target(state: AppState, query: str, edition: str | None) -> str | None:
    """Where a query that is a rule number (or a range) goes: the (first) rule, when one
    edition has it; None otherwise (the search then lists the rules of every edition)."""
    if not is_rule_query(query):
        return None
    try:
        found = select(state.graph.catalogue, query, edition).exact
    except JudgeError:
        return None
    if not found or len({key[0] for key in found}) > 1:
        return None
    return rule_url(state.graph.at(found[0]), "/", state.graph.primary_language(found[0][0]))


def _hit_view(state: AppState, hit: dict[str, Any]) -> dict[str, Any]:
    """A result with its link (in its own language) and, for a historical rule, its note."""
    rule = state.graph.get(str(hit["edition"]), str(hit["number"]), str(hit.get("language") or "") or None)
    note = ""
    if rule is not None and rule.status == "historical":
        removed = state.graph.removed_in(rule)
        note = "historique" + (f", supprimée en {', '.join(e.id for e in removed)}" if removed else "")
    return {
        **hit, "snippet_html": safe_snippet(str(hit.get("snippet") or "")), "note": note,
        "url": rule_url(rule, "/", state.graph.primary_language(rule.edition)) if rule is not None else None,
    }


def search_page(request: Request) -> Response:
    state = app_state(request)
    query = (query_param(request, "q") or "").strip()
    edition = state.edition(query_param(request, "edition"))
    target = _rule_target(state, query, edition) if query else None
    if target is not None:
        return RedirectResponse(target, status_code=307)
    data: dict[str, Any] | None = None
    if query:
        # « 300,3 » is rule 300.3 (the French decimal comma).
        data = run_search(state, _DECIMAL_COMMA.sub(r"\1.\2", query), edition,
                          limit_param(query_param(request, "limit"), 20))
    hits = [_hit_view(state, hit) for hit in (data or {}).get("hits", [])]
    return render(
        state, "search.html", query=query, edition=edition or "",
        editions=state.graph.editions, hits=hits,
        suggestion=(data or {}).get("suggestion"), notice=(data or {}).get("notice"),
        searched=data is not None,
    )


# ---------------------------------------------------------------------- rules
def api_rule(request: Request) -> Response:
    """`judge rule --json`: one number (`300.3`, `300,3`) or a range (`302-303`); a rule the
    edition removed is a 404 naming the rule it was, the edition that removed it, and its history."""
    state = app_state(request)
    from judge.corpus.export import rule_json
    from judge.corpus.history import histories, history_json

    edition = state.edition(query_param(request, "edition"))
    try:
        selection = select(state.graph.catalogue, request.path_params["number"], edition)
    except RemovedRule as gone:
        return JSONResponse({"error": str(gone), "removed": [
            {**rule_json(state.graph, state.graph.require(removal.edition, removal.number), state.checks_for),
             "url": rule_link(state, removal.edition, removal.number),
             "history": [history_json(state.graph, item)
                         for item in histories(state.graph, removal.number, removal.edition)]}
            for removal in gone.removals
        ]}, status_code=404)
    return JSONResponse([rule_json(state.graph, state.graph.at(key), state.checks_for) for key in selection.exact])


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
    site = _site(state)
    if section not in site.sections(edition, language):
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


def rule_page(request: Request) -> Response:
    """`/2004/300.3` (and the static book's `/2004/300.3.html`): redirect to the rule's anchor."""
    state = app_state(request)
    edition, language = _edition_language(
        state, request.path_params["edition"], request.path_params.get("language")
    )
    number = request.path_params["number"].removesuffix(".html").replace(",", ".")
    rule = state.graph.get(edition, number, language)
    if rule is None and number in _site(state).sections(edition, language):
        # A section page whose heading line the text lacks (2010's 505).
        return RedirectResponse("/" + page_path(edition, number, language), status_code=307)
    if rule is None:
        gone = removals(state.graph.catalogue, number, edition) if language is None else ()
        if gone:
            raise Problem(404, removal_message(number, edition, gone))
        raise Problem(404, f"règle {number} absente de l'édition {edition}")
    target = rule_url(rule, "/", state.graph.primary_language(edition))
    return RedirectResponse(target, status_code=307)


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


def asset_or_edition(request: Request) -> Response:
    """`/style.css` is an asset; `/2004` (no trailing slash) is the edition's contents."""
    state = app_state(request)
    name = request.path_params["name"]
    if name in state.graph.edition_ids:
        request.path_params["edition"] = name
        return edition_page(request)
    return asset(request)


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


def _answer_view(state: AppState, edition: str, answer: dict[str, Any]) -> dict[str, Any]:
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


@budgeted
async def situation_page(request: Request) -> Response:
    """The form (GET), a permalink's ruling (GET `?s=`), a rule page's pre-filled form
    (GET `?modele=`), or the answers to the posted form (POST)."""
    state = app_state(request)
    if request.method != "POST":
        model = query_param(request, "modele", cap=MAX_URL)
        token = query_param(request, "s", cap=MAX_URL)
        if token:
            return await run_budgeted(request, lambda: _answer_permalink(state, token), heavy=True)
        return await run_budgeted(request, lambda: _prefilled_form(state, model))
    try:
        raw: FormData = await request.form(max_files=0, max_fields=400, max_part_size=MAX_BODY)
    except HTTPException as error:
        raise Problem(400, "formulaire illisible") from error
    values = {key: str(value) for key, value in raw.multi_items() if isinstance(value, str)}
    form = FormState.from_values(values)
    return await run_budgeted(request, lambda: _answer_form(state, form, form.source), heavy=True)


def _prefilled_form(state: AppState, model: str | None) -> Response:
    """The empty form, or (a rule page's « vérifiable » link) the form pre-filled, not checked."""
    if not model:
        return render(state, "situation.html", **_form_context(state, FormState.empty()))
    try:
        shared = _situation_data(decode_permalink(model))
    except JudgeError as error:
        return render(state, "situation.html", 400, **_form_context(state, FormState.empty(), error=str(error)))
    filled = situation_to_form(shared) if shared is not None else None
    return render(state, "situation.html", **_form_context(state, filled or FormState.empty()))


def _answer_permalink(state: AppState, token: str) -> Response:
    """A shared ruling: the form filled in again (or the situation as pasted text) and its answers."""
    try:
        source = decode_permalink(token)
    except JudgeError as error:
        return render(state, "situation.html", 400, **_form_context(state, FormState.empty(), error=str(error)))
    shared = _situation_data(source)
    form = situation_to_form(shared) if shared is not None else None
    if form is not None:
        return _answer_form(state, form, "")
    form = FormState.empty()
    form.source = source
    return _answer_form(state, form, source)


def _priority_model(state: AppState, form: FormState) -> Callable[[str, str | None], bool] | None:
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


def _answer_form(state: AppState, form: FormState, source: str) -> Response:
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
        if status == 503:
            raise
        return render(state, "situation.html", status, **_form_context(state, form, error=str(error)))
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


class _RuleSegment(_EditionSegment):
    """A rule number below a section (`300.3`, `306.2a`, `300,3`), optionally `.html`."""

    regex = r"\d{3}[.,]\d+[a-z]?(?:\.html)?|\d{3}"


register_url_convertor("judge_edition", _EditionSegment())
register_url_convertor("judge_page", _PageSegment())
register_url_convertor("judge_language", _LanguageSegment())
register_url_convertor("judge_rule", _RuleSegment())


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
        Route("/{edition:judge_edition}/{number:judge_rule}", offloaded(rule_page), methods=page),
        Route("/{edition:judge_edition}/{language:judge_language}/{number:judge_rule}",
              offloaded(rule_page), methods=page),
        Route("/{edition:judge_edition}/{language:judge_language}/", offloaded(edition_page), methods=page),
        Route("/{edition:judge_edition}/", offloaded(edition_page), methods=page),
        Route("/{name}", offloaded(asset_or_edition), methods=page),
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
