"""Keeping `judge serve` responsive: the cheap work of a request runs in a worker thread, within a time budget.

Every route's work is Python: run on the event loop it would freeze every other client for
its whole duration. `offloaded` turns a plain handler into an endpoint that runs it in a
worker thread; `run_budgeted` runs any function that way. A request whose work exceeds its
budget gets a French 503 at once (its thread is abandoned; the engine's own limits bound how
long it can still run). The costly work whose cost the client chooses (a situation check, a
search query) is not run in these threads but in the worker processes of `judge.web.pool`.
Answers that depend on the URL alone are kept and sent again from the loop: no thread, no
lock held by the work, for a page already served. What each route does is `judge.web.app`'s job.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar
from urllib.parse import urlencode

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

from judge.web.caching import Stored, StoredResponse
from judge.web.pool import over_budget
from judge.web.state import app_state

T = TypeVar("T")
# How long a worker thread may hold the interpreter lock while the event loop waits for it
# (Python's default: 5 ms). Shorter, a request waits less behind another's rendering.
SWITCH_INTERVAL = 0.001


def tune_interpreter() -> None:
    """Set `SWITCH_INTERVAL` for this process (`judge serve` does, before serving)."""
    sys.setswitchinterval(SWITCH_INTERVAL)


async def run_budgeted(request: Request, work: Callable[[], T]) -> T:
    """`work()` in a worker thread; a French 503 if it (and its wait for a thread) takes longer
    than the app's `time_budget`."""
    budget = app_state(request).time_budget
    try:
        with anyio.fail_after(budget):
            return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
    except TimeoutError:
        raise over_budget(budget) from None


def cache_key(request: Request, params: Sequence[str]) -> str:
    """The path and the values of the parameters the route reads, in a fixed order: another
    parameter, or another order, is the same answer (and no new cache entry)."""
    values = request.query_params
    return request.url.path + "?" + urlencode([(name, values[name]) for name in params if name in values])


def offloaded(handler: Callable[[Request], Response], params: Sequence[str] = ()
              ) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint that runs the plain `handler` in a worker thread, within the time budget.

    For GET and HEAD routes, whose answer depends on the path and the query parameters
    `params` alone (the corpus never changes while serving): a 200 is kept (compressed once,
    with its `ETag`: `judge.web.caching`), and sent again from the event loop without a thread.
    """

    def work(request: Request) -> tuple[Response, Stored | None]:
        response = handler(request)
        if isinstance(response, StoredResponse):  # an asset, already kept
            return response, response.stored
        if response.status_code != 200 or not hasattr(response, "body"):
            return response, None
        return response, Stored.of_response(response)

    @functools.wraps(handler)
    async def endpoint(request: Request) -> Response:
        state = app_state(request)
        key = cache_key(request, params)
        known = state.responses.get(key)
        if known is not None:
            return known.response(request)
        response, stored = await run_budgeted(request, lambda: work(request))
        if stored is None:
            return response
        state.remember(key, stored)
        return stored.response(request)

    endpoint.offloaded = True  # type: ignore[attr-defined]
    return endpoint


def budgeted(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """Marks an async endpoint that reads its body on the loop, then does its work with
    `run_budgeted` (checked by the tests: no route computes on the event loop)."""
    handler.offloaded = True  # type: ignore[attr-defined]
    return handler
