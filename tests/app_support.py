"""What the tests of the web app share: an app whose time budget allows for a loaded machine.

The budget itself (a French 503 once a request's work is over it) is tested where it is the
subject, with budgets of 0 (tests/web/test_work.py, tests/web/test_pool.py). Everywhere else
a loaded machine must not turn an answer into a 503: the default budget (2 s) counts the wait
for a worker too."""

from __future__ import annotations

from typing import Any

LOADED_MACHINE_BUDGET = 120.0  # seconds


def unhurried(app: Any) -> Any:
    """`app` (from `judge.web.app.create_app`) with the budget of a loaded machine."""
    app.state.judge.time_budget = LOADED_MACHINE_BUDGET
    return app
