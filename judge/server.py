"""`judge serve`: the rulebook, search and the situation checker as one local Starlette app.

Owns routing, request limits, error pages and the JSON API (same shapes as `--json`). The
corpus, the page cache and the search index are built once per app and shared by all
requests. Pages come from `site.py`, form conversion and the timeline from `server_forms.py`.
"""

from __future__ import annotations

import json
import logging
import re
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

import jinja2
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import JudgeError, NotFound
from .graph import RuleGraph
from .resources import templates_dir
from .server_forms import (
    ASK_LABELS,
    FormState,
    answer_text,
    form_to_situation,
    step_urls,
    timeline,
    turn_steps,
)
from .situation import STACK_KINDS
from .templating import make_environment, rule_anchor, section_of
from .turn import PHASE_LABELS, STEP_LABELS

LOG = logging.getLogger("judge.server")
MAX_BODY = 64 * 1024
MAX_QUERY = 500
MAX_URL = 4096
MAX_LIMIT = 100
SEARCH_CACHE_SIZE = 1024
ASSET_TYPES = {
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}
_ASSET_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*\.(?:css|js|svg)$")
_NUMBER = re.compile(r"^\d{3}(?:\.\d+[a-z]?)?$")
_SNIPPET_TAGS = re.compile(r"</?mark>")

STATUS_TITLES = {
    400: "Requête invalide",
    404: "Page introuvable",
    405: "Méthode non autorisée",
    413: "Requête trop volumineuse",
    414: "Adresse trop longue",
    500: "Erreur interne",
    503: "Service indisponible",
}
STATUS_MESSAGES = {
    404: "Cette page n'existe pas.",
    405: "Cette adresse n'accepte pas cette méthode HTTP.",
    413: f"Le corps de la requête dépasse {MAX_BODY // 1024} Kio.",
    414: f"L'adresse dépasse {MAX_URL} caractères.",
    500: "Une erreur inattendue s'est produite ; elle n'a pas été causée par votre requête.",
}


class Problem(Exception):
    """A request the app refuses, with its HTTP status and a French message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _optional_module(name: str) -> ModuleType | None:
    """A sibling module that may not exist yet (search, checker, site): None when absent."""
    try:
        return import_module(f"judge.{name}")
    except ImportError:
        return None


# ---------------------------------------------------------------------- shared state
@dataclass(slots=True, kw_only=True)
class AppState:
    """What every request shares: graph, templates, search, checker and rendered pages."""

    graph: RuleGraph
    env: jinja2.Environment
    search: ModuleType | None
    search_index: Any
    checker: ModuleType | None
    site: Any  # a `site.SiteRenderer`, None while that module is absent
    assets: dict[str, tuple[bytes, str]]
    pages: dict[str, str] = field(default_factory=dict)
    search_cache_size: int = SEARCH_CACHE_SIZE
    search_cache: OrderedDict[tuple[str, str | None, int], dict[str, Any]] = field(
        default_factory=OrderedDict
    )

    def checks_for(self, edition: str, number: str) -> tuple[str, ...]:
        if self.checker is None or not hasattr(self.checker, "checks_for"):
            return ()
        found: tuple[str, ...] = tuple(self.checker.checks_for(edition, number))
        return found

    def edition(self, value: str | None) -> str | None:
        """A validated edition id, or None; an unknown one is a 400."""
        if value is None or value == "":
            return None
        return self.graph.edition(value).id


def _load_assets() -> dict[str, tuple[bytes, str]]:
    """Every stylesheet, script and picture the pages link to, read once: no path is opened
    per request, so no URL can reach a file outside this list."""
    assets: dict[str, tuple[bytes, str]] = {}
    for folder in (Path(__file__).resolve().parent / "static", templates_dir()):
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            kind = ASSET_TYPES.get(path.suffix)
            if kind and path.is_file() and _ASSET_NAME.match(path.name) and path.name not in assets:
                assets[path.name] = (path.read_bytes(), kind)
    return assets


def _open_search(module: ModuleType | None, graph: RuleGraph) -> Any:
    if module is None:
        return None
    # `index_for` shares the process-wide index of this graph; `open_index` opens a new one.
    opener = getattr(module, "index_for", None) or getattr(module, "open_index", None)
    return opener(graph) if callable(opener) else None


def _site_renderer(graph: RuleGraph, env: jinja2.Environment, checker: ModuleType | None) -> Any:
    site = _optional_module("site")
    if site is None or not hasattr(site, "SiteRenderer"):
        return None
    checks_for = getattr(checker, "checks_for", None)
    return site.SiteRenderer(graph, checks_for=checks_for, env=env)


def build_state(graph: RuleGraph) -> AppState:
    env = make_environment(root="/", search_action="/recherche")
    search = _optional_module("search")
    checker = _optional_module("checker")
    return AppState(
        graph=graph,
        env=env,
        search=search,
        search_index=_open_search(search, graph),
        checker=checker,
        site=_site_renderer(graph, env, checker),
        assets=_load_assets(),
    )


def _state(request: Request) -> AppState:
    state: AppState = request.app.state.judge
    return state


# ---------------------------------------------------------------------- rendering helpers
def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def render(state: AppState, template: str, http_status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("query", "")
    html = state.env.get_template(template).render(**context)
    return HTMLResponse(html, status_code=http_status)


def error_response(request: Request, status: int, message: str) -> Response:
    """A French error: `{"error": …}` under /api/, an HTML page elsewhere."""
    headers = {"Allow": "GET, HEAD, POST"} if status == 405 else None
    if _is_api(request):
        return JSONResponse({"error": message}, status_code=status, headers=headers)
    title = STATUS_TITLES.get(status, "Erreur")
    state = getattr(request.app.state, "judge", None)
    if state is not None:
        try:
            response = render(state, "error.html", status, status=status, title=title, message=message)
        except Exception:
            response = None
        if response is not None:
            if headers:
                response.headers.update(headers)
            return response
    body = (
        f'<!DOCTYPE html><html lang="fr"><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<h1>{escape(title)}</h1><p>{escape(message)}</p><p><a href=\"/\">Accueil</a></p></html>"
    )
    return HTMLResponse(body, status_code=status, headers=headers)


async def _on_http_exception(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    return error_response(request, status, STATUS_MESSAGES.get(status, STATUS_TITLES.get(status, "Erreur")))


async def _on_problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Problem)
    return error_response(request, exc.status, exc.message)


async def _on_judge_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, JudgeError)
    status = 404 if isinstance(exc, NotFound) else 400
    return error_response(request, status, str(exc))


async def _on_crash(request: Request, exc: Exception) -> Response:
    # The traceback goes to the server log (uvicorn's), never to the client.
    LOG.error("erreur interne sur %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(request, 500, STATUS_MESSAGES[500])


def _unavailable(what: str) -> Problem:
    return Problem(503, f"{what} n'est pas encore disponible sur ce serveur.")


# ---------------------------------------------------------------------- request limits
class RequestLimits:
    """Refuses over-long URLs and bodies over `MAX_BODY` (declared or streamed) with a French 413."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY, max_url: int = MAX_URL) -> None:
        self.app = app
        self.max_body = max_body
        self.max_url = max_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self._refusal(scope)
        if refused is not None:
            await error_response(Request(scope), *refused)(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise Problem(413, STATUS_MESSAGES[413])
            return message

        await self.app(scope, limited, send)

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        """What is wrong with the request line and headers alone (the body is not read yet)."""
        if len(scope.get("raw_path", b"")) + len(scope.get("query_string", b"")) > self.max_url:
            return 414, STATUS_MESSAGES[414]
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    return 400, "en-tête Content-Length invalide"
                if declared > self.max_body:
                    return 413, STATUS_MESSAGES[413]
        return None


def _param(request: Request, name: str, *, cap: int = MAX_QUERY) -> str | None:
    value = request.query_params.get(name)
    if value is not None and len(value) > cap:
        raise Problem(400, f"paramètre « {name} » trop long : {len(value)} caractères ({cap} au plus)")
    return value


def _limit(value: str | None, default: int = 10) -> int:
    if value is None or value == "":
        return default
    try:
        limit = int(value)
    except ValueError:
        raise Problem(400, f"limit : un entier est attendu (reçu « {value} »)") from None
    if not 1 <= limit <= MAX_LIMIT:
        raise Problem(400, f"limit : doit être compris entre 1 et {MAX_LIMIT} (reçu {limit})")
    return limit


# ---------------------------------------------------------------------- search
def run_search(state: AppState, query: str, edition: str | None, limit: int) -> dict[str, Any]:
    """`judge search --json` for one query; results are cached (the index never changes)."""
    if state.search is None:
        raise _unavailable("La recherche")
    cache_key = (query, edition, limit)
    cached = state.search_cache.get(cache_key)
    if cached is not None:
        state.search_cache.move_to_end(cache_key)
        return cached
    if state.search_index is not None:
        result = state.search_index.search(query, edition=edition, limit=limit)
    else:
        result = state.search.search(query, edition=edition, limit=limit, graph=state.graph)
    data: dict[str, Any] = state.search.result_json(result)
    if state.search_cache_size > 0:
        state.search_cache[cache_key] = data
        if len(state.search_cache) > state.search_cache_size:
            state.search_cache.popitem(last=False)
    return data


def safe_snippet(snippet: str) -> Markup:
    """The search module escapes snippets and adds `<mark>`; trust that only if it holds."""
    if "<" in _SNIPPET_TAGS.sub("", snippet) or ">" in _SNIPPET_TAGS.sub("", snippet):
        return escape(snippet)
    return Markup(snippet)


def rule_link(state: AppState, edition: str, number: str) -> str | None:
    """URL of a rule on the served rulebook, None if the edition has no such rule."""
    bare = number.split(":", 1)[-1]
    if ":" in number:
        edition = number.split(":", 1)[0]
    if edition not in state.graph.edition_ids or state.graph.get(edition, bare) is None:
        return None
    return f"/{edition}/{section_of(bare)}.html#{rule_anchor(bare)}"


async def api_search(request: Request) -> Response:
    state = _state(request)
    query = (_param(request, "q") or "").strip()
    if not query:
        raise Problem(400, "q : une requête de recherche est attendue")
    edition = state.edition(_param(request, "edition"))
    data = run_search(state, query, edition, _limit(_param(request, "limit")))
    return JSONResponse(data)


async def search_page(request: Request) -> Response:
    state = _state(request)
    query = (_param(request, "q") or "").strip()
    edition = state.edition(_param(request, "edition"))
    data: dict[str, Any] | None = None
    if query:
        data = run_search(state, query, edition, _limit(_param(request, "limit"), 20))
    hits = [
        {**hit, "snippet_html": safe_snippet(str(hit.get("snippet") or "")),
         "url": rule_link(state, str(hit["edition"]), str(hit["number"]))}
        for hit in (data or {}).get("hits", [])
    ]
    return render(
        state, "search.html", query=query, edition=edition or "",
        editions=state.graph.editions, hits=hits,
        suggestion=(data or {}).get("suggestion"), notice=(data or {}).get("notice"),
        searched=data is not None,
    )


# ---------------------------------------------------------------------- rules
async def api_rule(request: Request) -> Response:
    state = _state(request)
    from .export import rule_json

    number = request.path_params["number"].strip().rstrip(".")
    edition = state.edition(_param(request, "edition"))
    if not _NUMBER.match(number):
        raise Problem(400, f"numéro de règle invalide : « {number[:40]} » (attendu par exemple 300, 300.3 ou 306.2a)")
    found = state.graph.lookup(number, edition)
    if not found:
        editions = edition or ", ".join(state.graph.edition_ids)
        raise NotFound(f"règle {number} introuvable (éditions : {editions})")
    return JSONResponse([rule_json(state.graph, rule, state.checks_for) for rule in found])


# ---------------------------------------------------------------------- rulebook pages
def _site_page(state: AppState, key: str, build: Callable[[], str]) -> HTMLResponse:
    html = state.pages.get(key)
    if html is None:
        html = build()
        state.pages[key] = html
    return HTMLResponse(html)


def _site(state: AppState) -> Any:
    if state.site is None:
        raise _unavailable("Le livre de règles")
    return state.site


async def index_page(request: Request) -> Response:
    state = _state(request)
    site = _site(state)
    return _site_page(state, "index", lambda: str(site.render_index("/")))


def _edition_language(state: AppState, edition: str, language: str | None) -> tuple[str, str | None]:
    if edition not in state.graph.edition_ids:
        raise Problem(404, f"édition inconnue : « {edition[:40]} »")
    languages = state.graph.edition(edition).languages
    if language is not None and (language not in languages or language == languages[0]):
        raise Problem(404, f"langue « {language[:20]} » absente de l'édition {edition}")
    return edition, language


async def edition_page(request: Request) -> Response:
    state = _state(request)
    site = _site(state)
    edition, language = _edition_language(
        state, request.path_params["edition"], request.path_params.get("language")
    )
    return _site_page(
        state, f"{edition}/{language}/index",
        lambda: str(site.render_edition(edition, "/", language)),
    )


async def section_page(request: Request) -> Response:
    state = _state(request)
    edition, language = _edition_language(
        state, request.path_params["edition"], request.path_params.get("language")
    )
    page = request.path_params["page"]
    if page == "index.html":
        return await edition_page(request)
    match = re.fullmatch(r"(\d{3})\.html", page)
    if match is None:
        raise Problem(404, STATUS_MESSAGES[404])
    section = match.group(1)
    lang = language or state.graph.primary_language(edition)
    if state.graph.get(edition, section, lang) is None:
        raise Problem(404, f"section {section} absente de l'édition {edition}")
    site = _site(state)
    return _site_page(
        state, f"{edition}/{language}/{section}",
        lambda: str(site.render_section(edition, section, "/", language)),
    )


async def asset(request: Request) -> Response:
    state = _state(request)
    name = request.path_params["name"]
    found = state.assets.get(name)
    if found is None and name == "search-index.js" and state.site is not None:
        # The offline index of the static search page, built on first use.
        from .offline_index import build_search_index, search_index_js

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
    if state.checker is None:
        raise _unavailable("Le vérificateur de situations")
    from .situation import load_situation

    situation = load_situation(text, source="requête", fmt=fmt)
    report = state.checker.check(state.graph, situation)
    data: dict[str, Any] = state.checker.report_json(report)
    return situation, data, report


async def api_check(request: Request) -> Response:
    state = _state(request)
    text = await _read_body(request)
    if not text.strip():
        raise Problem(400, "le corps de la requête est vide : une situation JSON est attendue")
    kind = request.headers.get("content-type", "")
    fmt = "toml" if "toml" in kind else "json"
    _, data, _ = _check(state, text, fmt)
    return JSONResponse(data)


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


async def situation_page(request: Request) -> Response:
    state = _state(request)
    if request.method == "GET":
        return render(state, "situation.html", **_form_context(state, FormState.empty()))
    try:
        raw: FormData = await request.form(max_files=0, max_fields=400, max_part_size=MAX_BODY)
    except HTTPException as error:
        raise Problem(400, "formulaire illisible") from error
    values = {key: str(value) for key, value in raw.multi_items() if isinstance(value, str)}
    form = FormState.from_values(values)
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
            "answer_text": answer_text(answer.get("answer")),
        }
        for answer in data.get("answers", [])
    ]
    text_report = state.checker.report_text(report) if state.checker is not None else ""
    return render(
        state, "situation.html",
        **_form_context(
            state, form, report=data, answers=answers, edition=edition, report_text=text_report,
            timeline=timeline(turn_steps(report, situation, data), step_urls(state.graph, edition)),
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
    regex = r"(?:index|\d{3})\.html"


class _LanguageSegment(_EditionSegment):
    regex = r"[a-z]{2,3}"


register_url_convertor("judge_edition", _EditionSegment())
register_url_convertor("judge_page", _PageSegment())
register_url_convertor("judge_language", _LanguageSegment())


def _routes() -> list[Route]:
    page = ["GET", "HEAD"]
    return [
        Route("/", index_page, methods=page),
        Route("/index.html", index_page, methods=page),
        Route("/recherche", search_page, methods=page),
        Route("/search.html", search_page, methods=page),
        Route("/situation", situation_page, methods=["GET", "HEAD", "POST"]),
        Route("/api/search", api_search, methods=page),
        Route("/api/rule/{number}", api_rule, methods=page),
        Route("/api/check", api_check, methods=["POST"]),
        Route("/{edition:judge_edition}/{page:judge_page}", section_page, methods=page),
        Route("/{edition:judge_edition}/{language:judge_language}/{page:judge_page}", section_page, methods=page),
        Route("/{name}", asset, methods=page),
    ]


def create_app(graph: RuleGraph) -> Starlette:
    """The web app over one loaded corpus; the search index is opened here, once."""
    handlers: Mapping[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        HTTPException: _on_http_exception,
        Problem: _on_problem,
        JudgeError: _on_judge_error,
        Exception: _on_crash,
    }
    app = Starlette(debug=False, routes=_routes(), exception_handlers=handlers)
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

    uvicorn.run(create_app(graph), host=host, port=port, log_level="info", server_header=False)


__all__ = ["AppState", "Problem", "background_server", "create_app", "serve"]
