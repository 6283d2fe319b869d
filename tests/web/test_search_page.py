"""The served search page: a rule number (or range, or « 300,3 ») opens the rule; a historical
rule is marked « historique, supprimée en 2010 »."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient


@pytest.mark.parametrize(("query", "edition", "target"), [
    ("300,3", "", "/2004/300.html#R3003"),
    ("règle 300.3", "", "/2004/300.html#R3003"),
    ("302-303", "2004", "/2004/302.html#R302"),
    ("505.1", "2010", "/2010/505.html#R5051"),
])
def test_a_rule_number_goes_straight_to_the_rule(client: TestClient, query: str, edition: str, target: str,
                                                 graph) -> None:
    from judge.corpus.selection import select

    # One edition has it (asked for, or the only one): the query opens the (first) rule.
    assert len({key[0] for key in select(graph.catalogue, query, edition or None).exact}) == 1
    response = client.get("/recherche", params={"q": query, "edition": edition}, follow_redirects=False)
    assert response.status_code == 307 and response.headers["location"] == target


def test_a_number_in_two_editions_lists_both(client: TestClient, graph) -> None:
    found = graph.lookup("100.1")
    assert {r.edition for r in found} == {"2004", "2010"}
    response = client.get("/recherche", params={"q": "100.1"}, follow_redirects=False)
    assert response.status_code == 200
    for rule in found:
        assert f'href="/{rule.edition}/{rule.language}/100.html#R1001"' in response.text


def test_a_historical_rule_is_marked_in_the_results(client: TestClient, graph) -> None:
    assert [e.id for e in graph.removed_in(graph.get("2004", "300.3"))] == ["2010"]
    page = client.get("/recherche", params={"q": "brûlure de mana"}).text
    hit = page.split('href="/2004/300.html#R3003"', 1)[1].split("</li>", 1)[0]
    assert "historique, supprimée en 2010" in hit and "<mark>" in hit


def test_the_glossary_entries_a_query_names_are_listed_and_open(client: TestClient, graph) -> None:
    # « initiative » is First Strike in the FR↔EN glossary; each edition's entry is listed,
    # linked to its place in the served glossary page, its definition shortened.
    from judge.corpus.glossary import find

    expected = find(graph, "initiative", limit=3)
    assert [m.entry.term for m in expected][:1] == ["First Strike"]
    page = client.get("/recherche", params={"q": "initiative"}).text
    section = page.split('class="glossary-hits"', 1)[1].split("</section>", 1)[0]
    for match in expected:
        href = f'/{match.edition}/glossaire.html#G-{"-".join(match.entry.term.lower().split())}'
        assert f'href="{href}"' in section
        served = client.get(href.split("#")[0])
        assert served.status_code == 200 and f'id="{href.split("#")[1]}"' in served.text
    assert section.count("<li>") == len(expected)
    # After the results: the rules keep a phone's first screen.
    assert page.index('class="search-results"') < page.index('class="glossary-hits"')
    # A rule number is not a glossary query.
    assert 'class="glossary-hits"' not in client.get("/recherche", params={"q": "initiative 502"}).text
