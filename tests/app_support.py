"""What the tests of the web app share: an app whose time budget allows for a loaded machine.

The budget itself (a French 503 once a request's work is over it) is tested where it is the
subject, with budgets of 0 (tests/web/test_work.py, tests/web/test_pool.py). Everywhere else
a loaded machine must not turn an answer into a 503: the default budget (2 s) counts the wait
for a worker too."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

LOADED_MACHINE_BUDGET = 120.0  # seconds


def client_of(app: Any, **options: Any) -> Any:
    """A Starlette test client of `app` as every web test makes one: on `http://localhost` (a
    `Host` the app answers), a server error answered as the app answers it (a 500 page, not an
    exception in the test); `options` go to `TestClient`. Use it in a `with` to run the lifespan."""
    from starlette.testclient import TestClient

    return TestClient(app, **{"base_url": "http://localhost", "raise_server_exceptions": False, **options})


def unhurried(app: Any) -> Any:
    """`app` (from `judge.web.app.create_app`) with the budget of a loaded machine."""
    app.state.judge.time_budget = LOADED_MACHINE_BUDGET
    return app


@contextlib.contextmanager
def tasks_in_process(graph: Any) -> Iterator[Any]:
    """A test client of the app whose tasks run in this process instead of a worker's (the
    same task functions, the same pages; the process boundary itself is tested by
    tests/web/test_pool.py): the coverage of the pages' code is then measured."""
    import asyncio

    from judge.search.engine import index_for
    from judge.web import pool
    from judge.web.app import create_app
    from judge.web.state import page_environment

    saved = list(pool._CONTEXT)
    pool._CONTEXT[:] = [pool.WorkerContext(graph=graph, env=page_environment(), search_index=index_for(graph))]
    app = unhurried(create_app(graph, processes=1))

    async def here(budget: float, task: Any, *args: Any) -> Any:
        return await asyncio.wait_for(asyncio.to_thread(task, *args), budget)

    app.state.judge.pool.run = here
    try:
        with client_of(app) as client:
            yield client
    finally:
        pool._CONTEXT[:] = saved


@pytest.fixture(scope="module", name="client")
def client_in_process(graph: Any) -> Iterator[Any]:
    """The `client` of a module that imports it: a test client whose tasks run in this process
    (`tasks_in_process`), so that the coverage of the pages' code is measured."""
    with tasks_in_process(graph) as test_client:
        yield test_client
