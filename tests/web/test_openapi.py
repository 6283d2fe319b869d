"""The OpenAPI 3.1 document of `/api/*` tells the truth: every API route is documented (and
nothing else), and real answers, good and bad, are valid against it with a documented status."""

from __future__ import annotations

import json
from typing import Any

import jsonschema_rs
import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from judge.web.app import OPENAPI_PATH

DOC: dict[str, Any] = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
ATTACK_2004 = {
    "edition": "2004", "active": "A", "phase": "combat", "step": "declare_attackers", "priority": "A",
    "creatures": [{"name": "Ours runeguerrier", "controller": "A", "since_turn_start": False}],
    "questions": [{"ask": "attack", "creature": "Ours runeguerrier"}],
}


def test_document_is_openapi_3_1_and_served(client: TestClient) -> None:
    assert DOC["openapi"].startswith("3.1.")
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == DOC


def test_every_api_route_is_documented_and_nothing_else(app) -> None:
    served: set[tuple[str, str]] = set()
    for route in app.routes:
        assert isinstance(route, Route)
        if route.path.startswith("/api/"):
            served |= {(route.path, m.lower()) for m in route.methods or () if m != "HEAD"}
    documented = {(path, method) for path, item in DOC["paths"].items() for method in item}
    assert served == documented


def _schema(path: str, method: str, status: int) -> dict[str, Any]:
    responses = DOC["paths"][path][method]["responses"]
    assert str(status) in responses, f"{method.upper()} {path} : statut {status} non documenté"
    response = responses[str(status)]
    if "$ref" in response:
        response = DOC["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    schema = response["content"]["application/json"]["schema"]
    return {**schema, "components": DOC["components"]}


CASES: list[tuple[str, str, str, dict[str, Any]]] = [
    # (documented path, method, URL, request options)
    ("/api/search", "get", "/api/search?q=brûlure%20de%20mana", {}),
    ("/api/search", "get", "/api/search?q=308.2a&edition=2004&limit=3", {}),
    ("/api/search", "get", "/api/search?q=atacker", {}),
    ("/api/search", "get", "/api/search", {}),
    ("/api/search", "get", "/api/search?q=pile&limit=0", {}),
    ("/api/search", "get", "/api/search?q=pile&edition=1999", {}),
    ("/api/search", "get", "/api/search?q=" + "x" * 5000, {}),
    ("/api/rule/{number}", "get", "/api/rule/300.3", {}),
    ("/api/rule/{number}", "get", "/api/rule/308?edition=2010", {}),
    ("/api/rule/{number}", "get", "/api/rule/306.1", {}),  # a doubtful citation
    ("/api/rule/{number}", "get", "/api/rule/999.9", {}),
    ("/api/rule/{number}", "get", "/api/rule/302-303?edition=2004", {}),  # a range
    ("/api/rule/{number}", "get", "/api/rule/300,3", {}),  # the decimal comma
    ("/api/rule/{number}", "get", "/api/rule/300.3?edition=2010", {}),  # removed in 2010
    ("/api/rule/{number}", "get", "/api/rule/abc", {}),
    ("/api/history/{number}", "get", "/api/history/305.4", {}),
    ("/api/history/{number}", "get", "/api/history/300.3?edition=2004", {}),
    ("/api/history/{number}", "get", "/api/history/500.4?edition=2010", {}),
    ("/api/history/{number}", "get", "/api/history/999.9", {}),
    ("/api/history/{number}", "get", "/api/history/abc", {}),
    ("/api/history/{number}", "get", "/api/history/305?edition=1999", {}),
    ("/api/check", "post", "/api/check", {"content": json.dumps(ATTACK_2004)}),
    ("/api/check", "post", "/api/check", {"content": 'edition = "2004"\nphase = "combat"\n',
                                          "headers": {"content-type": "application/toml"}}),
    ("/api/check", "post", "/api/check", {"content": "{}"}),
    ("/api/check", "post", "/api/check", {"content": "[1, 2"}),
    ("/api/check", "post", "/api/check", {"content": "x" * 70_000}),
    ("/api/check", "post", "/api/check", {"content": "[" * 50_000 + "]" * 10_000}),  # 422: too deep
    ("/api/check", "post", "/api/check", {"content": json.dumps(ATTACK_2004),  # 403: another site's form
                                          "headers": {"origin": "http://evil.example"}}),
    ("/api/openapi.json", "get", "/api/openapi.json", {}),
]


@pytest.mark.parametrize(("path", "method", "url", "options"), CASES)
def test_real_answers_are_valid_against_the_document(
    client: TestClient, path: str, method: str, url: str, options: dict[str, Any]
) -> None:
    response = client.request(method.upper(), url, **options)
    assert response.headers["content-type"].startswith("application/json")
    schema = _schema(path, method, response.status_code)
    errors = [str(e) for e in jsonschema_rs.validator_for(schema).iter_errors(response.json())]
    assert not errors, errors[:3]


def test_every_documented_operation_is_exercised() -> None:
    assert {(p, m) for p, m, _, _ in CASES} == {(p, m) for p, item in DOC["paths"].items() for m in item}
