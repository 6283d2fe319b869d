"""`judge serve`: the history API and the changes page."""

from __future__ import annotations

from starlette.testclient import TestClient

from judge.corpus.history import histories, history_json
from judge.site.build import SiteRenderer
from judge.site.templating import make_environment


def test_api_history_is_the_cli_json(client: TestClient, graph) -> None:
    response = client.get("/api/history/305.4", params={"edition": "2004"})
    assert response.status_code == 200
    assert response.json() == [history_json(graph, h) for h in histories(graph, "305.4", "2004")]
    (item,) = response.json()
    assert item["steps"][1]["number"] == "505.5b" and item["steps"][1]["change"] == "edited"
    assert len(client.get("/api/history/305.4").json()) == 2


def test_api_history_errors(client: TestClient) -> None:
    bad = client.get("/api/history/abc")
    assert bad.status_code == 400 and "numéro de règle invalide" in bad.json()["error"]
    missing = client.get("/api/history/999.9")
    assert missing.status_code == 404 and "999.9" in missing.json()["error"]
    edition = client.get("/api/history/305.4", params={"edition": "1999"})
    assert edition.status_code == 400 and "édition inconnue" in edition.json()["error"]


def test_changes_page_is_the_static_page(client: TestClient, graph) -> None:
    served = client.get("/changes/2004-2010.html")
    assert served.status_code == 200 and "Changements 2004 → 2010" in served.text
    # Same template and view: the served environment only differs by the search route and
    # the footer (served, not offline).
    served_env = make_environment(root="/", search_action="/recherche", served=True)
    assert served.text == SiteRenderer(graph, env=served_env).render_changes("2004", "2010", "/")
    assert 'href="/changes/2004-2010/305.html"' in served.text
    # Each section's changes on its own page, as in the static book.
    section = client.get("/changes/2004-2010/305.html")
    assert section.text == SiteRenderer(graph, env=served_env).render_changes_section("2004", "2010", "305", "/")
    assert 'href="/2010/505.html#R5055b"' in section.text
    for url in ("/changes/2010-2004.html", "/changes/2004-1999.html", "/changes/2004-2010/999.html",
                "/changes/2004-1999/305.html"):
        response = client.get(url)
        assert response.status_code == 404 and "text/html" in response.headers["content-type"]


def test_rule_pages_carry_the_history_block(client: TestClient) -> None:
    page = client.get("/2004/305.html").text
    assert '<section class="history"' in page and 'href="/2010/505.html#R5055b"' in page
