"""The question-first situation form of `judge serve` (issue 25, item 3): the event builder, mana
as symbols, errors on their field, every answer shown when another fails, the legal divisions of
combat damage listed, and the question box in the app's header. The expected values come from the
rules' texts (cited on each test), not from the tool's output."""

from __future__ import annotations

import html
import re

import html5lib
import pytest

# The module's `client`: its pages' tasks run in this process (app_support.tasks_in_process).
from app_support import client_in_process  # noqa: F401
from starlette.testclient import TestClient

from judge.web.forms import FormState, form_to_situation, situation_to_form


def _post(client: TestClient, data: dict[str, str]) -> tuple[int, str]:
    response = client.post("/situation", data=data)
    html5lib.HTMLParser(strict=True).parse(response.text)
    return response.status_code, response.text


def _visible(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<script.*?</script>|<[^>]+>", " ", page, flags=re.S)).split())


def _divisions(page: str) -> set[str]:
    block = page.split('id="damage-options"', 1)[1].split("</section>", 1)[0]
    return {_visible(item) for item in re.findall(r"<li>(.*?)</li>", block)}


def _blocked_by_two(edition: str) -> dict[str, str]:
    """A 3/3 attacker without trample blocked by two 1/1s (Elfe first, then Loup)."""
    return {
        "edition": edition, "moment": "combat_damage",
        "creature0_name": "Ours", "creature0_controller": "A", "creature0_power": "3",
        "creature0_toughness": "3", "creature0_attacking": "on", "creature0_blocked": "on",
        "creature0_since_turn_start": "on",
        "creature1_name": "Elfe", "creature1_controller": "B", "creature1_power": "1",
        "creature1_toughness": "1", "creature1_blocking": "Ours",
        "creature2_name": "Loup", "creature2_controller": "B", "creature2_power": "1",
        "creature2_toughness": "1", "creature2_blocking": "Ours",
        "question0_ask": "assign_damage", "question0_creature": "Ours", "question0_assignment": "Elfe=3",
    }


def test_legal_damage_divisions_are_listed_as_each_edition_says(client: TestClient) -> None:
    # 2004 (310.2c): the attacking player divides the damage as he or she chooses among the
    # blockers; 2010 (510.1c): in the damage assignment order, lethal damage to the first
    # before any to the next. No trample: nothing to the player either way.
    status, page = _post(client, _blocked_by_two("2004"))
    assert status == 200
    assert _divisions(page) == {"3 à Elfe", "2 à Elfe, 1 à Loup", "1 à Elfe, 2 à Loup", "3 à Loup"}
    status, page = _post(client, _blocked_by_two("2010"))
    assert status == 200
    assert _divisions(page) == {"3 à Elfe", "2 à Elfe, 1 à Loup", "1 à Elfe, 2 à Loup"}
    assert 'href="/2010/' in page.split('id="damage-options"', 1)[1].split("</section>", 1)[0]


def test_question_page_lists_the_divisions_of_a_trampler(client: TestClient) -> None:
    # 702.19b (2010): lethal damage to every blocker before the rest goes to the player.
    response = client.get("/question", params={"q": "Mon 3/3 avec le piétinement est bloqué par un 1/1 : "
                                                    "combien au joueur ?"})
    assert response.status_code == 200
    assert _divisions(response.text) == {"1 à 1/1 de B, 2 à B", "2 à 1/1 de B, 1 à B", "3 à 1/1 de B"}


def test_every_answer_is_shown_when_another_question_fails(client: TestClient) -> None:
    data = {
        "edition": "2004", "moment": "precombat_main", "mana_pools": "A=2",
        "creature0_name": "Ours", "creature0_controller": "A", "creature0_since_turn_start": "on",
        "question0_ask": "play_land", "question0_player": "A",
        "question1_ask": "attack", "question1_creature": "Inconnue",
        "question2_ask": "mana_burn", "question2_player": "A",
    }
    status, page = _post(client, data)
    assert status == 200
    answers = page.split('id="answers"', 1)[1].split("</ol>", 1)[0]
    assert answers.count('<li class="answer') == 3
    failed = answers.split('class="answer answer-failed"', 1)[1].split("</li>", 1)[0]
    assert 'href="#question1_creature"' in failed and "Question 2" in _visible(failed)
    assert "Inconnue" in _visible(failed)
    # 300.3 (2004): 2 unused mana at the end of the phase burn 2 life.
    assert "Réponse : 2" in _visible(answers.split('data-ask="mana_burn"', 1)[1])
    field = re.search(r'<select name="question1_creature" id="question1_creature"([^>]*)>', page)
    assert field is not None and 'aria-invalid="true"' in field.group(1) and "autofocus" in field.group(1)


def test_an_error_is_on_its_field_in_the_forms_words(client: TestClient) -> None:
    status, page = _post(client, {"moment": "declare_attackers", "creature0_name": "Ours",
                                  "creature0_controller": "A", "creature0_power": "beaucoup",
                                  "question0_ask": "attack", "question0_creature": "Ours"})
    assert status == 400
    field = re.search(r'<input id="creature0_power"([^>]*)>', page)
    assert field is not None and 'aria-invalid="true"' in field.group(1) and "autofocus" in field.group(1)
    assert 'id="creature0_power-error"' in page
    summary = _visible(page.split('id="situation-error"', 1)[1].split("</div>", 1)[0])
    assert "Créature 1 — force" in summary and "creatures[0]" not in _visible(page)


@pytest.mark.parametrize("mana", ["A=RRG", "A={2}{R}", "A=2R", "A=3"])
def test_mana_is_symbols_or_a_number(client: TestClient, mana: str) -> None:
    # 300.3 (2004): each unused mana in a pool at the end of a phase costs its player 1 life.
    status, page = _post(client, {"edition": "2004", "moment": "precombat_main", "mana_pools": mana,
                                  "question0_ask": "mana_burn", "question0_player": "A"})
    assert status == 200
    assert "Réponse : 3" in _visible(page.split('id="answers"', 1)[1].split("</ol>", 1)[0])
    if mana != "A=3":
        preview = page.split('id="mana_pools-preview"', 1)[1].split("</span>\n", 1)[0]
        assert 'class="mana mana-r"' in preview


def test_a_wrong_mana_symbol_is_refused_on_its_field(client: TestClient) -> None:
    status, page = _post(client, {"moment": "precombat_main", "mana_pools": "A=RXZ",
                                  "question0_ask": "mana_burn", "question0_player": "A"})
    assert status == 400
    assert re.search(r'<input id="mana_pools"[^>]*aria-invalid="true"', page)
    assert "symboles" in _visible(page.split('id="mana_pools-error"', 1)[1].split("</span>", 1)[0])


def test_event_builder_replays_the_turn(client: TestClient) -> None:
    # 305.2 (2010): a player can normally play one land during each of his or her turns.
    data = {"edition": "2010", "hands": "A=7",
            "event0_kind": "until", "event0_step": "precombat_main",
            "event1_kind": "play_land", "event1_player": "A",
            "question0_ask": "play_land", "question0_player": "A", "question1_ask": "where"}
    status, page = _post(client, data)
    assert status == 200, _visible(page)[:400]
    answers = _visible(page.split('id="answers"', 1)[1].split("</ol>", 1)[0])
    assert "Réponse : non" in answers and "principale" in answers


def test_event_builder_refuses_a_moment_already_past_on_its_row(client: TestClient) -> None:
    data = {"edition": "2010", "event0_kind": "until", "event0_step": "end_of_turn",
            "event1_kind": "until", "event1_step": "upkeep"}
    status, page = _post(client, data)
    assert status == 400
    assert re.search(r'<select id="event1_step"[^>]*aria-invalid="true"', page)
    assert "Événement 2" in _visible(page.split('id="situation-error"', 1)[1].split("</div>", 1)[0])


def test_event_builder_is_bounded(client: TestClient) -> None:
    status, page = _post(client, {"event0_kind": "all_pass", "event0_amount": "1000"})
    assert status == 400 and 'id="event0_amount-error"' in page
    status, page = _post(client, {"event0_kind": "fly_away"})
    assert status == 400 and 'id="event0_kind-error"' in page


def test_event_rows_round_trip_through_a_shared_situation() -> None:
    data = {"players": ["A", "B"], "events": ["pass", "pass", "pass", "pass", {"play_land": "A"},
                                              {"cast": "instant", "by": "B", "cost": 2}, "pass"]}
    form = situation_to_form(data)
    assert form is not None
    assert [row["kind"] for row in form.events if row["kind"]] == ["all_pass", "play_land", "cast", "pass"]
    assert form_to_situation(form)["events"] == data["events"]
    assert form_to_situation(FormState.empty()).get("events") is None


@pytest.mark.parametrize("url", ["/2004/300.html", "/recherche?q=mana", "/2010/"])
def test_every_app_page_has_the_question_box_in_its_header(client: TestClient, url: str) -> None:
    page = client.get(url, follow_redirects=True).text
    header = page.split('<header class="site-header">', 1)[1].split("</header>", 1)[0]
    assert re.search(r'<form class="header-ask" action="/question" method="get"', header)
    assert 'href="/situation"' in header


@pytest.mark.parametrize("url", ["/", "/situation", "/question"])
def test_pages_with_the_big_box_do_not_repeat_it_in_the_header(client: TestClient, url: str) -> None:
    page = client.get(url).text
    assert page.count('name="q" type="search" maxlength="2000"') == 1  # the question box: a story may come before the question
    assert 'href="/situation"' in page.split("</header>", 1)[0]


@pytest.mark.parametrize("field", ["creature0_power", "mana_pools", "lands_played", "event0_amount"])
def test_a_number_too_long_is_refused_as_the_cli_refuses_it(client: TestClient, field: str) -> None:
    long = "9" * 5000
    value = f"A={long}" if field == "mana_pools" else long
    data = {"creature0_name": "Ours", "question0_ask": "attack", "question0_creature": "Ours",
            "event0_kind": "add_mana" if field == "event0_amount" else "", "event0_player": "A", field: value}
    status, page = _post(client, data)
    assert status == 400
    assert "nombre trop long (plus de 30 chiffres)" in _visible(page.split('id="situation-error"', 1)[1])
    assert f'id="{field}-error"' in page
