"""What every request of `judge serve` shares: the `AppState` built once per app, and `render`.

Owns loading the graph's companions (templates, search index, checker, rulebook renderer,
static assets) and page rendering. Routes are in `judge.web.app`, errors in `judge.web.refusals`.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse

from judge.checks.rulemap import load_checks_for
from judge.corpus.graph import RuleGraph
from judge.resources import templates_dir
from judge.search.index import export_of
from judge.site.build import SiteRenderer
from judge.site.templating import make_environment
from judge.web.caching import ASSET_CACHE, IMMUTABLE_CACHE, Stored

if TYPE_CHECKING:
    from judge.web.pool import WorkPool

SEARCH_CACHE_SIZE = 1024  # search results kept (by query, edition, limit and language)
SEARCH_CACHE_BYTES = 4 * 1024 * 1024  # and their size as JSON at most this many bytes (as Python
# objects they take about three times that)
MAX_EDITION_ID = 40  # characters of an edition id quoted in a message
TIME_BUDGET = 2.0  # seconds of work per request, then a French 503 (see judge.web.work)
RESPONSE_CACHE_SIZE = 4096  # GET answers kept by URL (each URL is at most 4 KiB)
RESPONSE_CACHE_BYTES = 16 * 1024 * 1024  # and their bodies (plain and compressed) at most this many bytes
ASSET_TYPES = {
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}
_ASSET_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*\.(?:css|js|svg)$")


# ---------------------------------------------------------------------- shared state
class Pages(Protocol):
    """What rendering a page needs: the server's `AppState`, or a worker process's context."""

    @property
    def graph(self) -> RuleGraph: ...

    @property
    def env(self) -> jinja2.Environment: ...


def page_environment() -> jinja2.Environment:
    """The templates as served (links from `/`, the search form to `/recherche`)."""
    return make_environment(root="/", search_action="/recherche", served=True)


@dataclass(slots=True, kw_only=True)
class AppState:
    """What every request shares: graph, templates, checker, rendered pages, the search
    results cache, and the worker processes of the costly work, searches included
    (`judge.web.pool`)."""

    graph: RuleGraph
    env: jinja2.Environment
    site: SiteRenderer
    assets: dict[str, Stored]
    pool: WorkPool
    pages: dict[str, str] = field(default_factory=dict)
    search_cache_size: int = SEARCH_CACHE_SIZE
    search_cache: OrderedDict[tuple[str, str | None, int, str | None], dict[str, Any]] = field(
        default_factory=OrderedDict
    )
    search_cache_bytes: int = SEARCH_CACHE_BYTES
    search_sizes: dict[tuple[str, str | None, int, str | None], int] = field(default_factory=dict)
    search_cache_used: int = 0  # bytes, the sum of `search_sizes`
    # Requests run in worker threads: the search cache's reorderings are made under this lock.
    search_lock: threading.Lock = field(default_factory=threading.Lock)
    time_budget: float = TIME_BUDGET
    # Touched only from the event loop (judge.web.work.offloaded); keyed by path and the
    # parameters the route reads (an unknown parameter is no new entry).
    responses: dict[str, Stored] = field(default_factory=dict)
    response_cache_size: int = RESPONSE_CACHE_SIZE
    response_cache_bytes: int = RESPONSE_CACHE_BYTES
    responses_size: int = 0

    # One lock per rulebook page being rendered (`page_lock`), and the lock of that table.
    page_locks: dict[str, threading.Lock] = field(default_factory=dict)
    page_locks_lock: threading.Lock = field(default_factory=threading.Lock)

    def page_lock(self, key: str) -> threading.Lock:
        """The lock under which the page `key` is rendered (once, however many ask at once)."""
        with self.page_locks_lock:
            return self.page_locks.setdefault(key, threading.Lock())

    def checks_for(self, edition: str, number: str) -> tuple[str, ...]:
        return self.site.checks_for(edition, number)

    def remember(self, key: str, stored: Stored) -> None:
        """Keep a GET answer by URL; the oldest go when the cache is full (in entries or bytes)."""
        if self.response_cache_size <= 0 or stored.size > self.response_cache_bytes // 4:
            return
        old = self.responses.pop(key, None)
        if old is not None:
            self.responses_size -= old.size
        while self.responses and (len(self.responses) >= self.response_cache_size
                                  or self.responses_size + stored.size > self.response_cache_bytes):
            self.responses_size -= self.responses.pop(next(iter(self.responses))).size
        self.responses[key] = stored
        self.responses_size += stored.size

    def edition(self, value: str | None) -> str | None:
        """A validated edition id, or None; an unknown one is a 400."""
        if value is None or value == "":
            return None
        if len(value) > MAX_EDITION_ID:  # no edition id is that long: not echoed whole
            from judge.errors import JudgeError

            raise JudgeError(f"édition inconnue : « {value[:MAX_EDITION_ID]}… » ({len(value)} caractères)")
        return self.graph.edition(value).id


def _load_assets() -> dict[str, Stored]:
    """Every stylesheet, script and picture the pages link to, read (and compressed) once: no
    path is opened per request, so no URL can reach a file outside this list. The pages link
    to the fingerprinted names (`judge.site.templating.asset_name`), kept as immutable; the
    plain names stay for an hour. (The static book's search index is the static book's: the
    served search page is the server's.)"""
    from judge.site.templating import FINGERPRINTED, asset_name

    assets: dict[str, Stored] = {}
    for folder in (Path(__file__).resolve().parent / "static", templates_dir()):
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            kind = ASSET_TYPES.get(path.suffix)
            if kind and path.is_file() and _ASSET_NAME.match(path.name) and path.name not in assets:
                body = path.read_bytes()
                assets[path.name] = Stored.of(body, kind, ASSET_CACHE)
                if folder == templates_dir() and path.name in FINGERPRINTED:
                    assets[asset_name(path.name)] = Stored.of(body, kind, IMMUTABLE_CACHE)
    return assets


def build_state(graph: RuleGraph, pool: WorkPool) -> AppState:
    env = page_environment()
    site = SiteRenderer(graph, checks_for=load_checks_for(graph.editions, graph.knowledge_base), env=env)
    site.history.warm()  # a cold concordance takes seconds: never inside a request's budget
    export_of(graph)  # the workers' search index: built here, once, if missing (not by each worker)
    # The changes pages take most of a second each to render: here, not within a request's budget.
    pages = {f"changes/{older}-{newer}": str(site.render_changes(older, newer, "/"))
             for older, newer in site.history.pairs_of_editions()
             if site.history.table(older, newer) is not None}
    return AppState(
        graph=graph,
        env=env,
        site=site,
        assets=_load_assets(),
        pool=pool,
        pages=pages,
    )


def app_state(request: Request) -> AppState:
    state: AppState = request.app.state.judge
    return state


def render(state: Pages, template: str, http_status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("query", "")
    html = state.env.get_template(template).render(**context)
    return HTMLResponse(html, status_code=http_status)
