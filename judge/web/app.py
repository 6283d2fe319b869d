"""`judge serve`: the rulebook, search and the situation checker as one local Starlette app.

Owns routing, the JSON API (same shapes as `--json`) and the app's lifespan. No route
computes on the event loop: the cheap work (a rule, a page) runs in a worker thread within a
time budget (`judge.web.work`: a route wrapped in `offloaded`, or a `budgeted` endpoint that
reads its body first); the costly work (checking a situation, a search query) runs in the
worker processes of `judge.web.pool`, which start and stop with the app. Shared state is
`judge.web.state`, limits and error pages `judge.web.refusals`, the situation checker's
answers `judge.web.situations`, the form `judge.web.forms`; pages come from `judge.site.build`.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio.to_thread
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from judge.corpus.graph import RuleGraph
from judge.corpus.numbers import read_rule_number
from judge.corpus.selection import RemovedRule, is_rule_query, removal_message, removals, select
from judge.errors import JudgeError
from judge.site.build import SiteRenderer
from judge.site.history_view import changes_section_key
from judge.site.templating import glossary_view, page_path, rule_url
from judge.web import asking, situations
from judge.web.caching import GZIP_LEVEL, GZIP_MINIMUM, Compression
from judge.web.guard import LOCAL_HOSTS, Guard, allowed_hosts
from judge.web.pool import PROCESSES, WorkPool
from judge.web.refusals import (
    MAX_BODY,
    MAX_HEADERS,
    MAX_URL,
    STATUS_MESSAGES,
    Problem,
    RequestLimits,
    exception_handlers,
    limit_param,
    query_param,
)
from judge.web.situations import (
    check_answer,
    check_task,
    form_task,
    permalink_task,
    prefilled_form,
    rule_link,
    search_task,
)
from judge.web.state import AppState, app_state, build_state, render
from judge.web.work import budgeted, offloaded, run_budgeted, tune_interpreter

OPENAPI_PATH = Path(__file__).with_name("openapi.json")
_SNIPPET_TAGS = re.compile(r"</?mark>")
# A situation of at most this many characters is checked on the event loop: measured, the
# costliest (13 `turn_order` questions of 1,000 turns) takes 1.5 ms of CPU, the usual one
# 0.1 ms, less than handing it to a thread or a process (each a wake-up to schedule on a busy
# machine). Larger ones, up to 40 times as costly, go to the worker processes.
SMALL_CHECK = 512
# Fields of a posted situation form: its rows (20 creatures, 20 questions, 40 events) fit, the
# body stays within MAX_BODY.
MAX_FORM_FIELDS = 1200


# ---------------------------------------------------------------------- search
def run_search(state: AppState, query: str, edition: str | None, limit: int,
               lang: str | None = None) -> dict[str, Any]:
    """`judge search --json` for one query; results are cached (the index never changes),
    bounded in entries and in bytes."""
    cache_key = (query, edition, limit, lang)
    with state.search_lock:
        cached = state.search_cache.get(cache_key)
        if cached is not None:
            state.search_cache.move_to_end(cache_key)
            return cached
    # The query runs in a worker process: a costly one does not slow the other requests.
    data = state.pool.call(state.time_budget, search_task, query, edition, limit, lang)
    size = len(json.dumps(data, ensure_ascii=False)) + len(query)
    if state.search_cache_size > 0 and size <= state.search_cache_bytes // 8:
        with state.search_lock:
            if cache_key not in state.search_cache:
                state.search_cache[cache_key] = data
                state.search_sizes[cache_key] = size
                state.search_cache_used += size
            while state.search_cache and (len(state.search_cache) > state.search_cache_size
                                          or state.search_cache_used > state.search_cache_bytes):
                oldest, _ = state.search_cache.popitem(last=False)
                state.search_cache_used -= state.search_sizes.pop(oldest)
    return data


def safe_snippet(snippet: str) -> Markup:
    """The search module escapes snippets and adds `<mark>`; trust that only if it holds."""
    if "<" in _SNIPPET_TAGS.sub("", snippet) or ">" in _SNIPPET_TAGS.sub("", snippet):
        return escape(snippet)
    return Markup(snippet)


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
        data = run_search(state, query, edition,
                          limit_param(query_param(request, "limit"), 20))
    hits = [_hit_view(state, hit) for hit in (data or {}).get("hits", [])]
    glossary = [glossary_view(entry, "/") for entry in (data or {}).get("glossary", [])]
    return render(
        state, "search.html", query=query, edition=edition or "",
        editions=state.graph.editions, hits=hits, glossary=glossary,
        suggestion=(data or {}).get("suggestion"), notice=(data or {}).get("notice"),
        searched=data is not None,
    )


# ---------------------------------------------------------------------- rules
def api_rule(request: Request) -> Response:
    """`judge rule --json`: one number (`300.3`, `300,3`) or a range (`302-303`); a rule the
    edition removed is a 404 naming the rule it was, the edition that removed it, and its history."""
    state = app_state(request)
    from judge.corpus.history import histories, history_json
    from judge.corpus.render import rule_json

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

    try:
        number = read_rule_number(request.path_params["number"])
    except JudgeError as error:
        raise Problem(400, str(error)) from None
    edition = state.edition(query_param(request, "edition"))
    return JSONResponse([history_json(state.graph, item) for item in histories(state.graph, number, edition)])


# ---------------------------------------------------------------------- rulebook pages
def _site_page(state: AppState, key: str, build: Callable[[], str]) -> HTMLResponse:
    """A rulebook page, rendered once: concurrent first requests for it wait for one rendering."""
    html = state.pages.get(key)
    if html is None:
        with state.page_lock(key):
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


def changes_section_page(request: Request) -> Response:
    """One section's changes between two editions, as in the static rulebook."""
    state = app_state(request)
    older, newer, name = request.path_params["older"], request.path_params["newer"], request.path_params["name"]
    site = _site(state)
    if (older, newer) not in site.history.pairs_of_editions() or site.history.table(older, newer) is None:
        raise Problem(404, f"pas de page de changements {older[:40]} → {newer[:40]}")
    key = changes_section_key(name)
    if key not in site.history.change_keys(older, newer):
        raise Problem(404, f"pas de changements pour « {name[:40]} » ({older} → {newer})")
    return _site_page(state, f"changes/{older}-{newer}/{key}",
                      lambda: str(site.render_changes_section(older, newer, key, "/")))


def rule_page(request: Request) -> Response:
    """`/2004/300.3` (and the static book's `/2004/300.3.html`): redirect to the rule's anchor."""
    state = app_state(request)
    edition, language = _edition_language(
        state, request.path_params["edition"], request.path_params.get("language")
    )
    try:  # 300.3, 300,3 (the URL convertor lets no other form through)
        number = read_rule_number(request.path_params["number"].removesuffix(".html"))
    except JudgeError as error:  # a number of more digits than any rule's
        raise Problem(404, str(error)) from None
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
    """A stylesheet, script or picture of the pages (the offline search index among them),
    all read and compressed when the app was made."""
    found = app_state(request).assets.get(request.path_params["name"])
    if found is None:
        raise Problem(404, STATUS_MESSAGES[404])
    return found.response(request)


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


@budgeted
async def api_check(request: Request) -> Response:
    state = app_state(request)
    text = await _read_body(request)
    if not text.strip():
        raise Problem(400, "le corps de la requête est vide : une situation JSON est attendue")
    kind = request.headers.get("content-type", "")
    fmt = "toml" if "toml" in kind else "json"
    if len(text) <= SMALL_CHECK:  # at most a millisecond or two: less than a hop to a thread
        return check_answer(state, text, fmt).response()
    return (await state.pool.run(state.time_budget, check_task, text, fmt)).response()


@budgeted
async def situation_page(request: Request) -> Response:
    """The form (GET), a permalink's ruling (GET `?s=`), a rule page's pre-filled form
    (GET `?modele=`), or the answers to the posted form (POST)."""
    state = app_state(request)
    if request.method != "POST":
        model = query_param(request, "modele", cap=MAX_URL)
        token = query_param(request, "s", cap=MAX_URL)
        if token:
            return (await state.pool.run(state.time_budget, permalink_task, token)).response()
        return await run_budgeted(request, lambda: prefilled_form(state, model))
    try:
        raw: FormData = await request.form(max_files=0, max_fields=MAX_FORM_FIELDS, max_part_size=MAX_BODY)
    except HTTPException as error:
        raise Problem(400, "formulaire illisible") from error
    values = {key: str(value) for key, value in raw.multi_items() if isinstance(value, str)}
    return (await state.pool.run(state.time_budget, form_task, values)).response()


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


class _ChangesSegment(Convertor[str]):
    """A changes page of one section: `300`, `502-2`, `ajout-510`."""

    regex = r"(?:ajout-)?\d{3}(?:-\d+)?"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("judge_edition", _EditionSegment())
register_url_convertor("judge_changes", _ChangesSegment())
register_url_convertor("judge_page", _PageSegment())
register_url_convertor("judge_language", _LanguageSegment())
register_url_convertor("judge_rule", _RuleSegment())


def _routes() -> list[Route]:
    page = ["GET", "HEAD"]
    searched = ("q", "edition", "limit", "lang")
    return [
        Route("/", offloaded(index_page), methods=page),
        Route("/index.html", offloaded(index_page), methods=page),
        Route("/recherche", offloaded(search_page, searched), methods=page),
        Route("/search.html", offloaded(search_page, searched), methods=page),
        Route("/situation", situation_page, methods=["GET", "HEAD", "POST"]),
        Route("/question", budgeted(asking.question_page), methods=page),
        Route("/api/search", offloaded(api_search, searched), methods=page),
        Route("/api/rule/{number}", offloaded(api_rule, ("edition",)), methods=page),
        Route("/api/history/{number}", offloaded(api_history, ("edition",)), methods=page),
        Route("/changes/{older:judge_edition}-{newer:judge_edition}.html", offloaded(changes_page), methods=page),
        Route("/changes/{older:judge_edition}-{newer:judge_edition}/{name:judge_changes}.html",
              offloaded(changes_section_page), methods=page),
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


def create_app(graph: RuleGraph, *, processes: int = PROCESSES, hosts: Iterable[str] = LOCAL_HOSTS) -> Starlette:
    """The web app over one loaded corpus; the search index is built here, once, if missing. Its
    `processes` worker processes start with its lifespan (or at the first costly request of
    an app used without it) and stop when the lifespan ends. It answers the `Host` names
    `hosts` only (`judge.web.guard`)."""
    pool = WorkPool(graph, tasks=(situations,), processes=processes)

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        await anyio.to_thread.run_sync(pool.start)
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(pool.shutdown)

    app = Starlette(debug=False, routes=_routes(), exception_handlers=exception_handlers(), lifespan=lifespan)
    app.add_middleware(RequestLimits)
    app.add_middleware(Compression, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL)
    app.add_middleware(Guard, hosts=hosts)
    app.state.judge = build_state(graph, pool)
    return app


def server_config(app: Starlette, **options: Any) -> Any:
    """uvicorn's configuration for `app` as `judge serve` runs it: the bounded HTTP protocol of
    `judge.web.protocol` (connection caps, header size and read timeouts, French refusals),
    keep-alive bounded. `connections`: the caps (`judge.web.protocol.Connections`)."""
    import uvicorn

    from judge.web.protocol import KEEP_ALIVE, BoundedProtocol, Connections

    options.setdefault("log_level", "warning")
    connections = options.pop("connections", None) or Connections()
    config = uvicorn.Config(app, http=BoundedProtocol, lifespan="on", server_header=False,
                            timeout_keep_alive=KEEP_ALIVE, h11_max_incomplete_event_size=MAX_HEADERS,
                            **options)
    config.judge_connections = connections  # type: ignore[attr-defined]  # read by BoundedProtocol
    return config


@contextmanager
def background_server(app: Starlette, host: str = "127.0.0.1", *, timeout: float = 10.0,
                      **options: Any) -> Iterator[str]:
    """Run `app` with uvicorn (as `judge serve` does) in a thread on a free port of `host`;
    yields the base URL.

    For tests and the load benchmark: the socket is bound before the thread starts, so the
    URL is valid as soon as the server reports it has started.
    """
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(server_config(app, access_log=False, **options))
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


def serve(graph: RuleGraph, host: str = "127.0.0.1", port: int = 8000, *, processes: int | None = None,
          allow_hosts: Iterable[str] = ()) -> None:
    """Run the app with uvicorn until interrupted (uvicorn logs the address); its worker
    processes (`processes`, by default `PROCESSES`) are stopped and joined before this returns.
    It answers the local names, `host`, and `allow_hosts` (`judge.web.guard`)."""
    import uvicorn

    tune_interpreter()
    app = create_app(graph, processes=processes or PROCESSES, hosts=allowed_hosts(host, allow_hosts))
    uvicorn.Server(server_config(app, host=host, port=port, log_level="info")).run()


__all__ = ["AppState", "Problem", "background_server", "create_app", "serve", "server_config"]
