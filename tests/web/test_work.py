"""`judge serve` computes on its event loop only a small situation check (`SMALL_CHECK`), and a
request over its time budget is a French 503."""

from __future__ import annotations

import json

import pytest
from app_support import client_of
from starlette.testclient import TestClient

from judge.web.app import SMALL_CHECK, create_app
from judge.web.state import TIME_BUDGET

UPKEEP = {"edition": "2004", "active": "A", "players": ["A", "B"], "phase": "beginning", "step": "upkeep"}


def test_every_route_runs_its_work_off_the_event_loop(app) -> None:
    routes = list(app.routes)
    assert routes
    for route in routes:
        assert getattr(route.endpoint, "offloaded", False), route.path


@pytest.fixture(scope="module")
def no_time(graph):
    app = create_app(graph, processes=1)
    app.state.judge.time_budget = 0.0  # any work is over budget
    with client_of(app) as client:
        yield client


@pytest.mark.parametrize("path", ["/api/search?q=pile", "/api/rule/300"])
def test_api_over_budget_is_a_french_json_503(no_time: TestClient, path: str) -> None:
    response = no_time.get(path)
    assert response.status_code == 503
    assert "temps de calcul" in response.json()["error"]


def test_check_over_budget_is_a_french_json_503(no_time: TestClient) -> None:
    body = json.dumps({**UPKEEP, "questions": [{"ask": "turn_order", "count": 3}] * 40})
    assert len(body) > SMALL_CHECK  # a worker process's task
    response = no_time.post("/api/check", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 503
    assert "temps de calcul" in response.json()["error"]


@pytest.mark.parametrize("path", ["/", "/2004/308.html", "/recherche?q=pile", "/situation"])
def test_page_over_budget_is_a_french_503_page(no_time: TestClient, path: str) -> None:
    response = no_time.get(path)
    assert response.status_code == 503
    assert response.headers["content-type"].startswith("text/html")
    assert "Service indisponible" in response.text and "temps de calcul" in response.text


def test_a_small_check_is_answered_at_once_without_budget(no_time: TestClient) -> None:
    body = json.dumps({**UPKEEP, "questions": [{"ask": "turn_order", "count": 3}]})
    assert len(body) <= SMALL_CHECK
    response = no_time.post("/api/check", content=body, headers={"content-type": "application/json"})
    assert response.json()["answers"][0]["answer"] == ["B", "A", "B"]


def test_the_default_budget_answers_the_same_requests(graph, client: TestClient) -> None:
    assert create_app(graph, processes=1).state.judge.time_budget == TIME_BUDGET > 0
    # The shared app's budget is larger (a loaded machine: `app_support.unhurried`): what is compared
    # with `no_time` above is that the same requests are answered once there is time for them.
    assert client.get("/api/search?q=pile").status_code == 200
    body = json.dumps({**UPKEEP, "questions": [{"ask": "turn_order", "count": 3}]})
    response = client.post("/api/check", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 200
    # two players, no extra turn: the turns alternate, the other player first
    assert response.json()["answers"][0]["answer"] == ["B", "A", "B"]
