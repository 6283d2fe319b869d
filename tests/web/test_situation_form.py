"""The situation form speaks French, takes one « moment du tour », fills priority as the rules
give, shows « sautée » only once the rules decided it, and shares a ruling (TOML, JSON, link)."""

from __future__ import annotations

import html
import json
import re
import tomllib

from markupsafe import escape
from starlette.testclient import TestClient

from judge.checks.questions import QUESTIONS
from judge.checks.report import TimelineEntry
from judge.game.share import decode_permalink, encode_permalink, to_toml
from judge.game.situation import load_situation
from judge.game.turnplan import PHASE_STEPS, STEP_LABELS
from judge.web.forms import MOMENTS, FormState, form_to_situation, situation_to_form
from judge.web.timeline import timeline

ATTACK = {
    "edition": "2004", "moment": "declare_attackers",
    "creature0_name": "Ours runeguerrier", "creature0_controller": "A",
    "question0_ask": "attack", "question0_creature": "Ours runeguerrier",
}
CODE_NAMES = re.compile(r"\b(declare_attackers|precombat_main|since_turn_start|attack|creature)\s*[=:]")


# The module's `client`: its pages' tasks run in this process (app_support.tasks_in_process).
from app_support import client_in_process  # noqa: E402, F401


def _visible_text(page: str) -> str:
    """The text a reader sees: no tags, no attribute values, no script."""
    body = re.sub(r"<script.*?</script>|<[^>]+>", " ", page, flags=re.S)
    return html.unescape(body)


def test_every_step_sets_its_phase() -> None:
    for phase, steps in PHASE_STEPS.items():
        for step in steps:
            form = FormState.from_values({"moment": step})
            assert (form.state["phase"], form.state["step"]) == (phase, step)
            assert MOMENTS[step].label == STEP_LABELS[step]
        if not steps:
            form = FormState.from_values({"moment": phase})
            assert (form.state["phase"], form.state["step"]) == (phase, "")


def test_declare_attackers_alone_answers_in_french(client: TestClient) -> None:
    response = client.post("/situation", data=ATTACK)
    assert response.status_code == 200
    text = _visible_text(response.text.split('id="answers"', 1)[1].split("</ol>", 1)[0])
    assert "Cette créature peut-elle attaquer ?" in text and "créature : Ours runeguerrier" in text
    assert CODE_NAMES.search(text) is None


def test_form_offers_every_question_of_the_table_in_french(client: TestClient) -> None:
    page = client.get("/situation").text
    for spec in QUESTIONS:
        assert re.search(f'<option value="{spec.ask}" data-params="{" ".join(spec.params)}"[^>]*>'
                         f'{re.escape(str(escape(spec.label)))}</option>', page), spec.ask
    assert CODE_NAMES.search(_visible_text(page)) is None


def test_questions_pick_creatures_among_those_entered(client: TestClient) -> None:
    response = client.post("/situation", data={**ATTACK, "creature1_name": "Mur de pierre"})
    select = response.text.split('name="question0_creature"', 1)[1].split("</select>", 1)[0]
    assert re.findall(r'<option value="([^"]*)"', select) == ["", "Ours runeguerrier", "Mur de pierre"]
    assert '<option value="Ours runeguerrier" selected>' in select


def test_blank_priority_is_as_the_rules_give(graph) -> None:
    from judge.game.gamemodel import load_game_model

    model = load_game_model(graph.edition("2004").game)

    def gives(phase: str, step: str | None) -> bool:
        return model.step(phase, step).priority

    # The active player receives priority in each step where the game model gives it …
    data = form_to_situation(FormState.from_values({"moment": "upkeep", "players": "A, B", "active": "B"}), gives)
    assert data["priority"] == "B" and gives("beginning", "upkeep")
    # … and nobody where it gives none (untap, cleanup).
    for phase, step in (("beginning", "untap"), ("ending", "cleanup")):
        assert not gives(phase, step)
        assert "priority" not in form_to_situation(FormState.from_values({"moment": step}), gives)
    # A stated priority is kept.
    assert form_to_situation(FormState.from_values({"moment": "upkeep", "priority": "B"}), gives)["priority"] == "B"


def test_blockers_are_not_skipped_before_attackers_are_declared(client: TestClient) -> None:
    during = client.post("/situation", data=ATTACK).text
    steps = during.split('class="timeline-phases"', 1)[1].split("</figure>", 1)[0]
    assert "timeline-step skipped" not in steps
    blockers = steps.split("déclaration des bloqueurs :", 1)[1].split("</li>", 1)[0]
    assert "sautée si aucun attaquant" in blockers


def test_skips_are_shown_once_the_declare_attackers_step_is_over() -> None:
    def entry(step: str, state: str) -> TimelineEntry:
        return TimelineEntry(phase="combat", step=step, damage_step=None, label=STEP_LABELS[step],
                             state=state, skip_rule="308.4" if state == "skipped" else None)

    plan = (entry("declare_attackers", "past"), entry("declare_blockers", "skipped"),
            entry("combat_damage", "skipped"), entry("end_of_combat", "current"))
    shown = timeline(plan, {}).phases[0].steps
    assert [s.state for s in shown] == ["past", "skipped", "skipped", "current"]
    during = (entry("declare_attackers", "current"), *plan[1:3], entry("end_of_combat", "future"))
    assert [s.state for s in timeline(during, {}).phases[0].steps] == ["current", "future", "future", "future"]


def test_a_skip_the_situation_states_is_shown_at_once(client: TestClient) -> None:
    page = client.post("/situation", data={"edition": "2004", "moment": "upkeep", "skip": "pioche"}).text
    steps = page.split('class="timeline-phases"', 1)[1].split("</figure>", 1)[0]
    skipped = steps.split("timeline-step skipped", 1)[1].split("</li>", 1)[0]
    assert "pioche" in skipped


def test_toml_and_json_copies_read_back_to_the_same_situation(client: TestClient) -> None:
    page = client.post("/situation", data={**ATTACK, "hands": "A=7, B=5", "stack": "éphémère B"}).text
    toml_text = html.unescape(page.split('id="share-toml">', 1)[1].split("</pre>", 1)[0])
    json_text = html.unescape(page.split('id="share-json">', 1)[1].split("</pre>", 1)[0])
    assert tomllib.loads(toml_text) == json.loads(json_text)
    assert load_situation(toml_text, source="t", fmt="toml") == load_situation(json_text, source="j", fmt="json")


def test_permalink_reopens_the_same_ruling(client: TestClient) -> None:
    first = client.post("/situation", data=ATTACK).text
    link = html.unescape(re.search(r'id="permalink" href="([^"]+)"', first).group(1))
    again = client.get(link)
    assert again.status_code == 200
    answers = lambda page: page.split('id="answers"', 1)[1].split("</ol>", 1)[0]  # noqa: E731
    assert answers(again.text) == answers(first)
    # The form is filled in again, not pasted as text.
    assert 'name="creature0_name" value="Ours runeguerrier"' in again.text


def test_bad_permalink_is_a_french_400(client: TestClient) -> None:
    response = client.get("/situation", params={"s": "%%%pas-du-base64"})
    assert response.status_code == 400 and "lien de situation illisible" in response.text


def test_situation_round_trips_through_the_form_and_the_link() -> None:
    data = form_to_situation(FormState.from_values({**ATTACK, "hands": "A=7", "skip": "pioche"}))
    form = situation_to_form(data)
    assert form is not None and form_to_situation(form) == data
    token = encode_permalink(data)
    assert token is not None and json.loads(decode_permalink(token)) == data
    assert tomllib.loads(to_toml(data)) == data


def test_every_registered_check_that_answers_a_question_is_in_the_table() -> None:
    from judge.checks.catalog import every_check

    asks = {spec.ask for spec in every_check() if spec.ask is not None}
    assert asks == {spec.ask for spec in QUESTIONS}


def test_rule_page_questions_open_the_form_prefilled(client: TestClient) -> None:
    from judge.checks.questions import QUESTION_BY_ASK

    page = client.get("/2004/300.html").text
    rule = page.split('id="R3003"', 1)[1].split("</article>", 1)[0]
    label = QUESTION_BY_ASK["mana_burn"].label
    link = re.search(r'<a href="(/situation\?modele=[^"]+)">' + re.escape(label) + "</a>", rule)
    assert link is not None
    form = client.get(html.unescape(link.group(1)))
    assert form.status_code == 200 and 'id="answers"' not in form.text
    assert '<option value="mana_burn" data-params="player" data-groups="mana" selected>' in form.text
    assert '<option value="2004" selected>' in form.text


def test_multiplayer_form_answers_who_defends_in_french(client: TestClient) -> None:
    """506.2a, 507.1: three players, A chose C as the defending player; 508.5: the player a
    creature attacks is its « joueur défenseur » (the form's attacks field)."""
    response = client.post("/situation", data={
        "edition": "2010", "moment": "declare_attackers", "players": "A, B, C", "defending": "C",
        "creature0_name": "Ours", "creature0_controller": "A", "creature0_attacks": "C",
        "question0_ask": "defending_players",
        "question1_ask": "defending_player", "question1_creature": "Ours",
    })
    assert response.status_code == 200
    text = _visible_text(response.text.split('id="answers"', 1)[1].split("</ol>", 1)[0])
    assert "Qui sont les joueurs défenseurs de ce combat ?" in text
    assert "A a choisi C parmi ses adversaires" in text
    assert "le joueur qu'elle attaque (C)" in text
    assert "506.2a" in text and "508.5" in text


BEAR_AND_WALL = {
    "creature0_name": "Ours", "creature0_controller": "A", "creature0_power": "2", "creature0_toughness": "2",
    "creature0_since_turn_start": "on",
    "creature1_name": "Mur", "creature1_controller": "B", "creature1_power": "0", "creature1_toughness": "4",
    "creature1_since_turn_start": "on",
}


def test_a_whole_combat_is_one_row_of_the_event_builder(client: TestClient) -> None:
    """Issue 34: one combat took five rows (passes to the attackers, the attack, passes to the
    blockers, the blocks, passes to the damage); « Combat jusqu'aux blessures » is one."""
    values = {"edition": "2010", "question0_ask": "damage_dealt", **BEAR_AND_WALL,
              "event0_kind": "combat", "event0_creatures": "Ours", "event0_blocks": "Mur=Ours"}
    assert form_to_situation(FormState.from_values(values))["events"] == [
        {"until": "declare_attackers"}, {"declare_attackers": ["Ours"]}, {"until": "declare_blockers"},
        {"declare_blockers": {"Mur": "Ours"}}, {"until": "combat_damage"}]
    response = client.post("/situation", data=values)
    assert response.status_code == 200
    text = _visible_text(response.text.split('id="answers"', 1)[1].split("</ol>", 1)[0])
    assert "Ours → Mur : 2" in text and "Ours inflige 2 blessures à Mur" in text
    # Unblocked (no blocks given): the bear deals its damage to the player it attacks.
    del values["event0_blocks"]
    text = _visible_text(client.post("/situation", data=values).text.split('id="answers"', 1)[1])
    assert "Ours → B : 2" in text


def test_a_refusal_says_the_row_and_the_form_words_not_the_format_keys(client: TestClient) -> None:
    # Blocks declared before their step was reached: said on that row (the third), not on the
    # tenth event the passes of « Tout le monde passe jusqu'à… » made.
    rows = {"edition": "2004", "question0_ask": "damage_dealt", **BEAR_AND_WALL,
            "event0_kind": "until", "event0_step": "declare_attackers",
            "event1_kind": "declare_attackers", "event1_creatures": "Ours",
            "event2_kind": "declare_blockers", "event2_blocks": "Mur=Ours",
            "event3_kind": "until", "event3_step": "combat_damage"}
    page = client.post("/situation", data=rows).text
    error = _visible_text(page.split('id="situation-error">', 1)[1].split("</span>", 1)[0])
    assert page.count('class="field-error" id="event2_kind-error"') == 1
    assert "bloqueurs" in error and "309.1" in error
    # The damage question without the turn played: the form's own words.
    page = client.post("/situation", data={"edition": "2010", "question0_ask": "damage_dealt",
                                           "moment": "combat_damage", **BEAR_AND_WALL}).text
    error = _visible_text(page.split('id="situation-error">', 1)[1].split("</span>", 1)[0])
    assert "« Quelles blessures de combat ont été infligées ? »" in error
    assert "« Ce qui s'est passé ce tour »" in error
    assert re.findall(r"\b[a-z]+_[a-z_]+\b|\bevents\b", error) == []


def test_the_event_builder_describes_the_events_of_issue_33(client: TestClient) -> None:
    """Noncombat damage, a permanent arriving, draws, poison, a player leaving, a shield and a
    destruction: each a row of the builder, read back from a situation into the same rows."""
    events = [
        {"deal_damage": {"source": "Choc", "to": "B", "amount": 3, "controller": "A"}},
        {"enters_battlefield": {"name": "Jace", "controller": "B", "card_types": ["planeswalker"],
                                "subtypes": ["Jace"], "loyalty": 3}},
        {"draw": "A", "count": 2}, {"poison": "B"}, {"shield": "Ours"}, {"destroy": "Ours"},
        {"leaves_game": "C"},
    ]
    data = {"edition": "2010", "players": ["A", "B", "C"], "active": "A", "events": events,
            "life": {"A": 20, "B": 20, "C": 20}, "poison": {"B": 3}, "library": {"A": 10},
            "creatures": [{"name": "Ours", "controller": "A"}]}
    form = situation_to_form(data)
    assert form is not None
    assert [row["kind"] for row in form.events if row["kind"]] == [
        "deal_damage", "enters_battlefield", "draw", "poison", "shield", "destroy", "leaves_game"]
    back = form_to_situation(form)
    assert (back["events"], back["life"], back["poison"], back["library"]) == (
        events, data["life"], data["poison"], data["library"])
    # Posted as a judge fills it: Choc deals 3 damage to B during A's upkeep.
    values = {"edition": "2010", "life": "A=20, B=20", "question0_ask": "life",
              "question0_player": "B", "event0_kind": "until", "event0_step": "upkeep",
              "event1_kind": "deal_damage", "event1_source": "Choc", "event1_target": "B",
              "event1_amount": "3"}
    response = client.post("/situation", data=values)
    assert response.status_code == 200
    text = _visible_text(response.text.split('id="answers"', 1)[1].split("</ol>", 1)[0])
    assert "17" in text and "119.3a" in text
    # A row missing its recipient is refused on its own field, in the form's words.
    del values["event1_target"]
    page = client.post("/situation", data=values).text
    assert 'id="event1_target-error"' in page and "à remplir" in page
