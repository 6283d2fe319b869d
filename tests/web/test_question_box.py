"""`judge serve`: « Posez votre question » (`/question`), on the home and situation pages."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import html5lib
import pytest
from starlette.testclient import TestClient


def _page(client: TestClient, url: str) -> tuple[int, str]:
    response = client.get(url)
    html5lib.HTMLParser(strict=True).parse(response.text)  # well-formed
    return response.status_code, response.text


@pytest.mark.parametrize("url", ["/", "/situation"])
def test_box_on_home_and_situation_pages(client: TestClient, url: str) -> None:
    status, text = _page(client, url)
    assert status == 200
    assert 'action="/question"' in text and "Posez votre question" in text
    assert "<script>" not in text.split("<footer")[0].split('class="ask-box"')[1]


def test_understood_question_shows_what_then_answers_with_rule_links(client: TestClient) -> None:
    status, text = _page(client, "/question?q=Mon+adversaire+peut-il+lancer+un+%C3%A9ph%C3%A9m%C3%A8re+pendant"
                                 "+mon+%C3%A9tape+d%27entretien+%3F")
    assert status == 200
    understood = text.index("J&#39;ai compris : règles de 2010")
    # issue 40: the answer in one sentence and its rules with their text first, then what was understood
    answer = text.index('id="ask-answer"')
    assert answer < text.index('id="ask-rules"') < understood < text.index('id="ask-q"')
    assert understood < text.index("Réponse : <span class=\"answer-value\">oui</span>")
    assert 'href="/2010/' in text  # the deciding rules are links to the served rulebook
    # An English-only deciding rule (116.1a) is named by the table of languages, its text marked English.
    assert '<span class="lang">(texte anglais)</span> — <span lang="en">A player may cast an instant' in text
    modify = text.split('id="ask-modify" href="')[1].split('"')[0]
    assert urlsplit(modify).path == "/situation" and "modele" in parse_qs(urlsplit(modify).query)
    status, form = _page(client, modify.replace("&amp;", "&"))
    assert status == 200 and ('value="B"' in form or ">B<" in form)


def test_not_understood_lists_words_and_offers_search(client: TestClient) -> None:
    status, text = _page(client, "/question?q=Puis-je+cibler+la+cr%C3%A9ature+avec+un+%C3%89clair+%3F")
    assert status == 200
    assert "<mark>cibler</mark>" in text
    assert 'id="ask-hits"' in text
    assert "Réponse :" not in text


def test_bad_question_is_a_400_in_french(client: TestClient) -> None:
    status, text = _page(client, "/question?q=" + "attaque+" * 260)  # 2,080 characters (at most 2,000)
    assert status == 400 and "question trop longue" in text
    status, _ = _page(client, "/question?q=x&edition=1999")
    assert status in (400, 404)


def test_the_question_asked_is_quoted_above_its_answer(client: TestClient) -> None:
    # issue 34: on a phone the typed question was only in the box at the bottom of the answer
    status, text = _page(client, "/question?q=Je+peux+jouer+un+terrain+pendant+le+tour+de+mon+adversaire+%3F+%3Cb%3E")
    assert status == 200
    asked = text.index('id="ask-asked"')
    assert asked < text.index('id="ask-answer"')
    assert "« Je peux jouer un terrain pendant le tour de mon adversaire ? &lt;b&gt; »" in text
    story = "En 2004, " + "on a bien rigolé, " * 40 + "je peux jouer un terrain pendant ton tour ?"
    status, text = _page(client, "/question?q=" + story.replace(" ", "+"))
    quoted = text.split('id="ask-asked">', 1)[1].split("</p>", 1)[0]
    assert quoted.endswith(" … »") and len(quoted) < 180  # a long story is cut, the answer stays near the top
