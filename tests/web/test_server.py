"""The web app of `judge serve`, in process: every route, every error, escaping and limits."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from app_support import client_of
from starlette.routing import Route
from starlette.testclient import TestClient

from judge.corpus.render import rule_json
from judge.site.templating import asset_name
from judge.web.app import MAX_BODY, create_app
from judge.web.forms import FormState, form_to_situation

ATTACK_2004: dict[str, Any] = {
    "edition": "2004",
    "active": "A",
    "phase": "combat",
    "step": "declare_attackers",
    "priority": "A",
    "creatures": [{"name": "Ours runeguerrier", "controller": "A", "since_turn_start": False}],
    "questions": [{"ask": "attack", "creature": "Ours runeguerrier"}],
}


def _error_message(html: str) -> str:
    found = re.search(r'class="error-message"[^>]*>(.*?)</p>', html, re.S)
    assert found, html[:500]
    return found.group(1)


# ---------------------------------------------------------------------- rulebook pages
def test_index_lists_every_edition(client: TestClient, graph) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    for edition in graph.edition_ids:
        assert f"/{edition}/index.html" in response.text
    assert client.get("/index.html").text == response.text


def test_rulebook_pages_are_the_static_templates_with_server_root(client: TestClient, graph) -> None:
    from judge.site.build import SiteRenderer
    from judge.site.templating import make_environment

    served = client.get("/2004/308.html")
    assert served.status_code == 200
    assert 'id="R3082a"' in served.text
    from judge.site.templating import asset_name

    assert f'href="/{asset_name("style.css")}"' in served.text
    static = SiteRenderer(graph).render_section("2004", "308", "/")
    # Same templates and view models: only the search box target (server route) and the
    # footer (served, not offline) differ.
    assert 'action="/recherche"' in served.text and 'action="/search.html"' in static
    assert "hors ligne" in static and "hors ligne" not in served.text
    served_env = make_environment(root="/", search_action="/recherche", served=True)
    assert served.text == SiteRenderer(graph, env=served_env).render_section("2004", "308", "/")


def test_edition_page_has_turn_diagram(client: TestClient) -> None:
    response = client.get("/2004/index.html")
    assert response.status_code == 200
    assert '<ol class="turn"' in response.text and 'href="/2004/314.html#R314"' in response.text


def test_rulebook_unknown_section_edition_language_are_404(client: TestClient) -> None:
    for url in ("/2004/999.html", "/1999/index.html", "/2004/xx/308.html", "/2004/308.txt", "/2004/fr/308.html"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "<h1" in response.text and "Traceback" not in response.text


def test_assets_are_served_with_their_type(client: TestClient) -> None:
    css = client.get("/style.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    script = client.get("/" + asset_name("search.js"))
    assert script.status_code == 200 and "judgeSearchRun" in script.text


@pytest.mark.parametrize(
    "url",
    [
        "/..%2f..%2fetc/passwd",
        "/2004/../../pyproject.toml",
        "/2004/..%2f..%2fpyproject.toml",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/base.html",
        "/situation.html",
        "/pyproject.toml",
        "/.%2e/judge/server.py",
        "/2004/%2e%2e%2f%2e%2e%2fjudge%2fserver.py",
        "/static/../../etc/passwd",
        "/grammar.lark",
        "/manifest.toml",
    ],
)
def test_path_traversal_never_reads_outside_the_site(client: TestClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert "root:" not in response.text and "[build-system]" not in response.text
    assert "{% extends" not in response.text and "import" not in response.text.split("<main", 1)[0]


# ---------------------------------------------------------------------- JSON rule API
def test_api_rule_matches_cli_json_shape(client: TestClient, graph) -> None:
    from judge.checks.rulemap import load_checks_for

    response = client.get("/api/rule/308.2a")
    assert response.status_code == 200
    data = response.json()
    expected = [rule_json(graph, rule, load_checks_for(graph.editions)) for rule in graph.lookup("308.2a")]
    assert data == json.loads(json.dumps(expected))
    assert data[0]["edition"] == "2004" and data[0]["number"] == "308.2a"


def test_api_rule_lists_every_edition_or_one(client: TestClient, graph) -> None:
    everywhere = client.get("/api/rule/505.1").json()
    assert [(r["edition"], r["language"]) for r in everywhere] == [("2004", "en"), ("2010", "fr")]
    assert everywhere[0]["only_language"] == "en"  # 2004 has 505.1 in English only (split cards)
    one = client.get("/api/rule/505.1", params={"edition": "2010"}).json()
    assert [r["number"] for r in one] == ["505.1"]
    assert [t["language"] for t in one[0]["translations"]] == ["en"]  # both languages
    absent = client.get("/api/rule/999.1", params={"edition": "2004"})
    assert absent.status_code == 404 and "2004" in absent.json()["error"]


def test_api_rule_historical_rule_is_marked(client: TestClient) -> None:
    data = client.get("/api/rule/300.3", params={"edition": "2004"}).json()
    assert data[0]["status"] == "historical"
    assert data[0]["removed_in"] == ["2010"]


def test_api_rule_unknown_is_404_json(client: TestClient) -> None:
    response = client.get("/api/rule/999.9")
    assert response.status_code == 404
    assert "introuvable" in response.json()["error"]


def test_api_rule_bad_number_and_edition_are_400(client: TestClient) -> None:
    bad = client.get("/api/rule/abc")
    assert bad.status_code == 400 and "numéro de règle invalide" in bad.json()["error"]
    edition = client.get("/api/rule/308", params={"edition": "1999"})
    assert edition.status_code == 400
    assert "édition inconnue" in edition.json()["error"] and "1999" in edition.json()["error"]


# ---------------------------------------------------------------------- search
def test_api_search_same_json_as_cli(client: TestClient, graph) -> None:
    from judge.search.engine import search
    from judge.search.output import result_json

    response = client.get("/api/search", params={"q": "blessures de combat", "edition": "2004", "limit": "5"})
    assert response.status_code == 200
    expected = result_json(search("blessures de combat", edition="2004", limit=5, graph=graph))
    assert response.json() == json.loads(json.dumps(expected))
    assert 1 <= len(response.json()["hits"]) <= 5
    assert all(hit["edition"] == "2004" for hit in response.json()["hits"])


def test_api_search_rule_number_goes_to_rule(client: TestClient) -> None:
    hits = client.get("/api/search", params={"q": "308.2a"}).json()["hits"]
    assert hits[0]["number"] == "308.2a"


def test_api_search_errors(client: TestClient) -> None:
    cases = [
        ({"q": ""}, 400, "q"),
        ({"q": "mana", "edition": "1999"}, 400, "1999"),
        ({"q": "mana", "limit": "beaucoup"}, 400, "limit"),
        ({"q": "mana", "limit": "0"}, 400, "limit"),
        ({"q": "x" * 501}, 400, "trop long"),
    ]
    for params, status, word in cases:
        response = client.get("/api/search", params=params)
        assert response.status_code == status, params
        assert word in response.json()["error"], params


def test_search_page_highlights_and_links(client: TestClient) -> None:
    response = client.get("/recherche", params={"q": "brûlure de mana"})
    assert response.status_code == 200
    assert "<mark>" in response.text
    assert 'href="/2004/300.html#R3003"' in response.text


def test_search_page_offers_the_correction_searched_too(client: TestClient) -> None:
    data = client.get("/api/search", params={"q": "atacker bloqeur"}).json()
    response = client.get("/recherche", params={"q": "atacker bloqeur"})
    if not data["suggestion"]:
        pytest.skip("pas de suggestion pour cette faute dans ce corpus")
    assert "Recherche aussi :" in response.text
    assert "/recherche?q=" in response.text


def test_search_page_escapes_the_query(client: TestClient) -> None:
    response = client.get("/recherche", params={"q": '<script>alert("x")</script>'})
    assert response.status_code == 200
    assert "<script>alert" not in response.text
    assert "&lt;script&gt;" in response.text


def test_search_page_without_query_shows_form(client: TestClient) -> None:
    response = client.get("/recherche")
    assert response.status_code == 200
    assert 'name="q"' in response.text and "résultat" not in response.text


def test_search_page_unknown_edition_is_400_html(client: TestClient) -> None:
    response = client.get("/recherche", params={"q": "mana", "edition": "<b>1999</b>"})
    assert response.status_code == 400
    assert "&lt;b&gt;1999&lt;/b&gt;" in _error_message(response.text)


def test_safe_snippet_escapes_anything_but_mark() -> None:
    from judge.web.app import safe_snippet

    assert str(safe_snippet("un <mark>mot</mark> &amp; fin")) == "un <mark>mot</mark> &amp; fin"
    assert "<img" not in str(safe_snippet('<mark>x</mark><img src=x onerror="a()">'))


# ---------------------------------------------------------------------- checks
def test_api_check_answers_like_cli(client: TestClient, graph) -> None:
    from judge.checks.report import check, report_json
    from judge.game.situation import load_situation

    text = json.dumps(ATTACK_2004)
    response = client.post("/api/check", content=text, headers={"content-type": "application/json"})
    assert response.status_code == 200
    data = response.json()
    assert data == json.loads(json.dumps(report_json(check(graph, load_situation(text, fmt="json")))))
    answer = data["answers"][0]
    assert answer["answer"] is False and "308.2a" in answer["rules"]


def test_api_check_accepts_toml(client: TestClient) -> None:
    toml = 'edition = "2004"\nphase = "precombat_main"\npriority = "A"\n'
    response = client.post("/api/check", content=toml, headers={"content-type": "application/toml"})
    assert response.status_code == 200
    assert response.json()["where"]["phase"] == "precombat_main"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"phase": "combat", ', "erreur de syntaxe JSON"),
        ('{"edition": "2004", "phase": "combat", "step": "declare_attackers", "creatures": [{"name": "x", "tapped": 3}]}',
         "creatures[0].tapped"),
        ('{"edition": "2004", "phase": "precombat_main", "couleur": "bleu"}', "couleur"),
        ('{"edition": "1999", "phase": "precombat_main"}', "1999"),
        ("", "vide"),
        ("[1, 2]", ""),
    ],
)
def test_api_check_bad_situation_is_400_naming_the_field(client: TestClient, body: str, field: str) -> None:
    response = client.post("/api/check", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    message = response.json()["error"]
    assert field in message
    assert "Traceback" not in message


def test_api_check_body_over_limit_is_413(client: TestClient) -> None:
    body = json.dumps({**ATTACK_2004, "padding": "x" * (MAX_BODY + 10)})
    response = client.post("/api/check", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert "Kio" in response.json()["error"]


def test_api_check_streamed_body_over_limit_is_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(80):
            yield b"x" * 1024

    response = client.post("/api/check", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_api_check_invalid_utf8_is_400(client: TestClient) -> None:
    response = client.post("/api/check", content=b'{"phase": "\xff"}')
    assert response.status_code == 400
    assert "UTF-8" in response.json()["error"]


def test_api_check_get_is_405_json(client: TestClient) -> None:
    response = client.get("/api/check")
    assert response.status_code == 405
    assert "méthode" in response.json()["error"]


# ---------------------------------------------------------------------- situation form
def _form(**extra: str) -> dict[str, str]:
    data = {
        "edition": "2004", "phase": "combat", "step": "declare_attackers", "priority": "A",
        "creature0_name": "Ours runeguerrier", "creature0_controller": "A",
        "question0_ask": "attack", "question0_creature": "Ours runeguerrier",
    }
    data.update(extra)
    return data


def test_situation_form_page_lists_editions_and_asks(client: TestClient) -> None:
    response = client.get("/situation")
    assert response.status_code == 200
    assert '<option value="2004"' in response.text and '<option value="declare_attackers"' in response.text
    assert 'value="attack"' in response.text


def test_situation_form_answers_with_linked_rules_and_timeline(client: TestClient) -> None:
    response = client.post("/situation", data=_form())
    assert response.status_code == 200
    answers = response.text.split('id="answers"', 1)[1].split("</ol>", 1)[0]
    assert '<span class="answer-value">non</span>' in answers
    assert '<a href="/2004/308.html#R3082a">308.2a</a>' in answers
    steps = response.text.split('class="timeline-phases"', 1)[1].split("</figure>", 1)[0]
    current = steps.split('timeline-step current', 1)[1].split("</li>", 1)[0]
    assert "déclaration des attaquants" in current
    assert steps.count('timeline-step past') == 5  # untap, upkeep, draw, main 1, beginning of combat


def test_situation_form_creature_since_turn_start_allows_attack(client: TestClient) -> None:
    response = client.post("/situation", data=_form(creature0_since_turn_start="on"))
    assert '<span class="answer-value">oui</span>' in response.text


def test_situation_form_error_names_field_and_keeps_input(client: TestClient) -> None:
    response = client.post("/situation", data=_form(creature0_power="grand"))
    assert response.status_code == 400
    # In the form's own words, on the field (issue 25): not the situation file's path.
    assert "Créature 1 — force" in response.text and 'id="creature0_power-error"' in response.text
    assert "creatures[0].power" not in response.text
    assert 'value="grand"' in response.text


def test_situation_form_escapes_user_strings(client: TestClient) -> None:
    name = '<img src=x onerror="alert(1)">'
    response = client.post("/situation", data=_form(creature0_name=name, question0_creature=name))
    assert response.status_code == 200
    assert "<img src=x" not in response.text
    assert "&lt;img src=x" in response.text


def test_situation_form_pasted_toml_wins(client: TestClient, graph) -> None:
    source = 'edition = "2010"\nphase = "precombat_main"\npriority = "A"\n[[questions]]\nask = "where"\n'
    response = client.post("/situation", data={"source": source, "edition": "2004"})
    assert response.status_code == 200
    assert f"Réponses — {graph.edition('2010').label}" in response.text


def test_situation_form_bad_counts_is_400(client: TestClient) -> None:
    response = client.post("/situation", data=_form(hands="A sept"))
    assert response.status_code == 400
    assert "hands" in response.text


def test_form_to_situation_converts_fields() -> None:
    form = FormState.from_values({
        "players": "A, B, C", "phase": "ending", "step": "cleanup", "hands": "A=9, B:3",
        "stack": "éphémère B\ncapacité déclenchée A", "lands_played": "1", "skip": "draw",
        "creature2_name": "Mur", "creature2_types": "Mur", "creature2_tapped": "on",
        "question0_ask": "discard", "question0_player": "A",
    })
    data = form_to_situation(form)
    assert data["players"] == ["A", "B", "C"]
    assert data["hands"] == {"A": 9, "B": 3}
    assert data["stack"] == [{"kind": "éphémère", "controller": "B"},
                             {"kind": "capacité déclenchée", "controller": "A"}]
    assert data["lands_played"] == 1 and data["skip"] == ["draw"]
    assert data["creatures"] == [{"name": "Mur", "tapped": True, "since_turn_start": False,
                                  "attacking": False, "blocked": False, "types": ["Mur"]}]
    assert data["questions"] == [{"ask": "discard", "player": "A"}]
    assert len(form.creatures) == 2  # the named row, then a blank row to fill


# ---------------------------------------------------------------------- errors and limits
def test_unknown_page_is_french_404(client: TestClient) -> None:
    response = client.get("/nulle-part/ici/et/la")
    assert response.status_code == 404
    assert "Page introuvable" in response.text and '<html lang="fr">' in response.text


def test_unknown_api_is_json_404(client: TestClient) -> None:
    response = client.get("/api/nothing")
    assert response.status_code == 404
    assert "n'existe pas" in response.json()["error"]


def test_wrong_method_is_french_405(client: TestClient) -> None:
    response = client.delete("/recherche")
    assert response.status_code == 405
    assert "Méthode non autorisée" in response.text


def test_overlong_url_is_414(client: TestClient) -> None:
    response = client.get("/recherche?q=" + "a" * 5000)
    assert response.status_code == 414
    assert "adresse" in response.text.lower()


def test_internal_error_is_french_500_without_traceback(graph) -> None:
    app = create_app(graph, processes=1)

    async def broken(request: Any) -> Any:
        raise RuntimeError("secret interne")

    app.router.routes.insert(0, Route("/casse", broken))
    app.router.routes.insert(0, Route("/api/casse", broken))
    with client_of(app) as test_client:
        page = test_client.get("/casse")
        api = test_client.get("/api/casse")
    assert page.status_code == 500 and "Erreur interne" in page.text
    assert "secret interne" not in page.text and "Traceback" not in page.text
    assert api.status_code == 500 and "secret" not in api.json()["error"]


def test_head_requests_work(client: TestClient) -> None:
    assert client.head("/2004/308.html").status_code == 200


def test_raw_traversal_paths_on_a_real_server_are_404(app) -> None:
    """Sent byte for byte (an HTTP client would remove the dot segments before sending)."""
    import socket

    from judge.web.app import background_server

    paths = ["/../../etc/passwd", "/2004/../../pyproject.toml", "/..%2f..%2fetc/passwd",
             "/2004/..%2F..%2Fjudge%2Fserver.py", "/%2e%2e/%2e%2e/etc/passwd"]
    with background_server(app, timeout=300) as url:  # a loaded machine starts it slowly
        host, port = url.removeprefix("http://").split(":")
        for path in paths:
            with socket.create_connection((host, int(port)), timeout=60) as conn:
                conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
                raw = b""
                while chunk := conn.recv(65536):
                    raw += chunk
            head, _, body = raw.partition(b"\r\n\r\n")
            assert head.split(b" ")[1] == b"404", path
            assert b"root:" not in body and b"[build-system]" not in body and b"def " not in body


def _next_form() -> dict[str, str]:
    data = _form(question0_ask="next")
    del data["question0_creature"]
    return data


def test_situation_form_shows_step_answers_in_french_words(client: TestClient) -> None:
    response = client.post("/situation", data=_next_form())
    assert response.status_code == 200
    answers = response.text.split('id="answers"', 1)[1].split("</ol>", 1)[0]
    assert '<span class="answer-value">fin du combat</span>' in answers
    assert "&#34;phase&#34;" not in answers and '"phase"' not in answers


def test_situation_form_separates_cited_rules(client: TestClient) -> None:
    response = client.post("/situation", data=_next_form())
    rules = response.text.split('class="answer-rules"', 1)[1].split("</p>", 1)[0]
    assert '306.1</a>, <a href="/2004/308.html#R3084">308.4</a>' in rules


def test_api_rule_carries_the_doubtful_citation(client: TestClient) -> None:
    (rule,) = client.get("/api/rule/306.1", params={"edition": "2004"}).json()
    doubts = {r["number"]: r["doubt"] for r in rule["references"] if r["doubt"]}
    assert list(doubts) == ["502.25"] and doubts["502.25"]["likely"] == "502.28"
    assert [t["language"] for t in rule["translations"]] == ["en"]


def test_api_search_lang_and_counterpart(client: TestClient) -> None:
    data = client.get("/api/search", params={"q": "mana burn", "edition": "2004"}).json()
    first = data["hits"][0]
    assert (first["language"], first["number"]) == ("en", "300.3")
    assert first["counterpart"]["language"] == "fr" and first["removed_in"] == ["2010"]
    only = client.get("/api/search", params={"q": "mana burn", "lang": "fr"}).json()
    assert {h["language"] for h in only["hits"]} == {"fr"}
    bad = client.get("/api/search", params={"q": "mana", "lang": "de"})
    assert bad.status_code == 400 and "lang" in bad.json()["error"]


def test_glossary_page_is_served(client: TestClient) -> None:
    response = client.get("/2010/glossaire.html")
    assert response.status_code == 200 and 'id="G-first-strike"' in response.text
    assert 'href="/2010/en/702.html#R7027"' in response.text
    assert client.get("/2010/en/glossaire.html").status_code == 404


def test_situation_form_offers_and_answers_the_turn_structure_questions(client: TestClient) -> None:
    page = client.get("/situation").text
    for ask in ("untap", "triggers", "declare_attackers", "declare_blockers", "assign_damage",
                "damage_dealt", "in_combat", "cleanup", "combat_timing"):
        assert f'<option value="{ask}"' in page, ask
    # 510.1c, first example: Craw Wurm may not skip its first blocker in the order (2010).
    response = client.post("/situation", data={
        "edition": "2010", "phase": "combat", "step": "combat_damage",
        "creature0_name": "Craw Wurm", "creature0_controller": "A", "creature0_power": "6",
        "creature0_attacking": "on", "creature0_blocked": "on",
        "creature1_name": "Wall of Wood", "creature1_controller": "B", "creature1_toughness": "3",
        "creature1_blocking": "Craw Wurm",
        "question0_ask": "assign_damage", "question0_creature": "Craw Wurm",
        "question0_assignment": "Wall of Wood=6",
        "question1_ask": "declare_blockers", "question1_blocks": "Wall of Wood=Craw Wurm",
    })
    assert response.status_code == 200
    answers = response.text.split('id="answers"', 1)[1].split("</ol>", 1)[0]
    assert '<span class="answer-value">oui</span>' in answers
    assert "510.1c" in answers
