"""Every internal link of the served rulebook resolves (page and anchor), every served rulebook
page is a page of the static book, and trailing slashes and per-rule URLs work."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from links_support import page_links
from starlette.testclient import TestClient

from judge.site.templating import asset_name

# Pages only the server can give (they answer requests); everything else is a book page.
SERVER_ONLY = ("/recherche", "/situation", "/question", "/api/")


def test_every_internal_link_of_the_app_resolves(client: TestClient, graph, site: Path) -> None:
    seen: set[str] = set()
    ids: dict[str, frozenset[str]] = {}
    anchors: list[tuple[str, str, str]] = []
    broken: list[str] = []
    queue = deque(["/", "/situation", "/recherche?q=brûlure de mana"])
    while queue:
        url = queue.popleft()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        if response.status_code != 200:
            broken.append(f"{url} : {response.status_code}")
            continue
        if not response.headers["content-type"].startswith("text/html"):
            continue
        links = page_links(response.text)
        ids[urlsplit(url).path] = links.ids
        # A served page is not the offline book, and each has the favicon.
        assert "hors ligne" not in response.text, url
        assert "/" + asset_name("favicon.svg") in links.links, url
        for link in links.links:
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc, f"{url} : lien externe {link}"
            assert parts.path.startswith("/") or not parts.path, f"{url} : lien relatif {link}"
            if parts.fragment:
                anchors.append((url, parts.path or urlsplit(url).path, parts.fragment))
            if parts.path:
                queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    for source, target, fragment in anchors:
        if fragment not in ids.get(target, frozenset()):
            broken.append(f"{source} → {target}#{fragment}")
    assert broken == []
    # Every 2010 section exists (the French 2010 text has no heading line for 505).
    for rule in graph.rules("2010"):
        assert f"/2010/{rule.number.split('.')[0]}.html" in seen
    # The reverse of the static test: each served book page is a file of the static book (the
    # session's book, built as `judge build` does).
    for url in seen:
        path = urlsplit(url).path
        if path.startswith(SERVER_ONLY):
            continue
        relative = path.lstrip("/") or "index.html"
        assert (site / relative).is_file(), url


@pytest.mark.parametrize("url", ["/2004", "/2004/", "/2010/", "/2004/en/", "/2004/index.html"])
def test_edition_contents_with_or_without_trailing_slash(client: TestClient, url: str, graph) -> None:
    response = client.get(url, follow_redirects=False)
    assert response.status_code == 200
    edition = graph.edition(url.split("/")[1])
    assert edition.label in response.text


@pytest.mark.parametrize(("url", "target"), [
    ("/2004/300.3", "/2004/300.html#R3003"),
    ("/2004/300,3", "/2004/300.html#R3003"),
    ("/2004/300.3.html", "/2004/300.html#R3003"),
    ("/2004/306.2a", "/2004/306.html#R3062a"),
    ("/2010/505", "/2010/505.html"),
    ("/2004/en/300.3", "/2004/en/300.html#R3003"),
])
def test_per_rule_url_redirects_to_the_rule(client: TestClient, url: str, target: str, graph) -> None:
    response = client.get(url, follow_redirects=False)
    assert response.status_code == 307 and response.headers["location"] == target
    page = client.get(target.split("#")[0])
    assert f'id="{target.split("#")[1]}"' in page.text if "#" in target else page.status_code == 200


def test_per_rule_url_of_a_removed_rule_says_so(client: TestClient) -> None:
    response = client.get("/2010/300.3")
    assert response.status_code == 404
    assert "supprimée" in response.text and "2004" in response.text


def test_api_rule_takes_a_range_like_the_cli(client: TestClient, graph) -> None:
    data = client.get("/api/rule/302-303", params={"edition": "2004"}).json()
    numbers = [r["number"] for r in data]
    assert numbers[0] == "302" and "302.3" in numbers and numbers[-1].startswith("303")
    expected = [r.number for r in graph.rules("2004") if r.number.split(".")[0] in ("302", "303")]
    assert numbers == expected


def test_api_rule_reads_the_french_decimal_comma(client: TestClient) -> None:
    data = client.get("/api/rule/300,3", params={"edition": "2004"}).json()
    assert [r["number"] for r in data] == ["300.3"]


def test_api_rule_removed_in_2010_is_404_naming_the_removal(client: TestClient, graph) -> None:
    response = client.get("/api/rule/300.3", params={"edition": "2010"})
    assert response.status_code == 404
    body = response.json()
    assert "supprimée" in body["error"] and graph.edition("2010").label in body["error"]
    assert [(r["edition"], r["number"]) for r in body["removed"]] == [("2004", "300.3")]
    assert body["removed"][0]["url"] == "/2004/300.html#R3003"
    # With its history: the 2004 rule, and what became of it in 2010.
    from judge.corpus.history import histories, history_json

    assert body["removed"][0]["history"] == [history_json(graph, h) for h in histories(graph, "300.3", "2004")]
    assert [step["edition"] for step in body["removed"][0]["history"][0]["steps"]][:2] == ["2004", "2010"]
