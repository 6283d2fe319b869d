"""`judge serve` in a real browser: uvicorn on loopback, Debian's Chromium driven by Playwright."""

from __future__ import annotations

from typing import Any

from browser_support import BROWSER_MARKS, new_tab

pytestmark = BROWSER_MARKS


def test_situation_form_in_browser_answers_attack_with_308_2a(page: Any, served: str) -> None:
    page.goto(f"{served}/situation")
    # The question first: its fields (the creatures) appear once it is picked.
    assert page.locator("fieldset.creatures").is_hidden()
    page.select_option("select[name=question0_ask]", "attack")
    page.select_option("#edition", "2004")
    page.select_option("#moment", "declare_attackers")
    page.fill("input[name=creature0_name]", "Ours runeguerrier")
    page.fill("input[name=creature0_controller]", "A")
    page.uncheck("input[name=creature0_since_turn_start]")
    # The question shows only its parameter, and offers the creature just typed.
    assert page.locator("#question0_creature").is_visible()
    assert page.locator("#question0_player").is_hidden()
    page.select_option("#question0_creature", "Ours runeguerrier")
    page.click("#check-button")
    page.wait_for_selector("#answers")

    answer = page.locator("li.answer[data-ask=attack]")
    assert answer.locator(".answer-value").inner_text() == "non"
    assert "célérité" in answer.locator(".answer-why").inner_text()
    link = answer.locator("a", has_text="308.2a")
    assert link.get_attribute("href") == "/2004/308.html#R3082a"
    assert page.locator(".timeline-step.current").count() == 1

    link.click()
    page.wait_for_url("**/2004/308.html#R3082a")
    assert page.locator("#R3082a").is_visible()


def test_search_in_browser_from_rulebook_header(page: Any, served: str) -> None:
    page.goto(f"{served}/2004/index.html")
    page.fill("#q", "brûlure de mana")
    page.press("#q", "Enter")
    page.wait_for_selector("ol.search-results")
    assert "/recherche" in page.url
    assert page.locator("ol.search-results mark").count() >= 1
    assert page.locator('a[href="/2004/300.html#R3003"]').count() == 1


def test_error_page_in_browser_is_french(page: Any, served: str) -> None:
    response = page.goto(f"{served}/2004/999.html")
    assert response is not None and response.status == 404
    assert page.locator("h1").inner_text() == "Page introuvable"
    assert page.locator("html").get_attribute("lang") == "fr"


def test_situation_timeline_fits_a_phone_and_shows_the_current_step(browser: Any, served: str) -> None:
    with new_tab(browser, viewport={"width": 390, "height": 844}, is_mobile=True) as tab:
        tab.goto(f"{served}/situation")
        tab.select_option("#moment", "end_of_turn")
        tab.click("#check-button")
        tab.wait_for_selector("#answers")
        assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        box = tab.locator(".timeline-step.current").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390

        # A whole combat on one row of « Ce qui s'est passé ce tour » (issue 34: 40 taps with one
        # row per step); its answer and its rules on the first screen.
        tab.goto(f"{served}/situation")
        tab.select_option("#question0_ask", "damage_dealt")
        for i, (name, player, power, toughness) in enumerate((("Ours", "A", "2", "2"), ("Mur", "B", "0", "4"))):
            if i:
                tab.click("button[data-row=creature]")
            for field, value in (("name", name), ("controller", player), ("power", power), ("toughness", toughness)):
                tab.fill(f"#creature{i}_{field}", value)
                tab.dispatch_event(f"#creature{i}_{field}", "input")
        tab.select_option("#event0_kind", "combat")
        tab.click("#event0_creatures + .picker button:has-text('Ours')")
        picker = tab.locator("#event0_blocks + .picker")
        picker.locator("select").nth(0).select_option("Mur")
        picker.locator("select").nth(1).select_option("Ours")
        picker.locator("button").click()
        assert tab.input_value("#event0_blocks") == "Mur=Ours"
        tab.click("#check-button")
        answer = tab.locator("li.answer[data-ask=damage_dealt]")
        assert answer.locator(".answer-value").inner_text() == "Ours → Mur : 2"
        rules = answer.locator(".answer-rules").bounding_box()
        assert rules is not None and rules["y"] + rules["height"] <= 844
        assert "510.1" in answer.locator(".answer-rules").inner_text()


def test_situation_form_adds_a_creature_and_offers_it_to_questions(page: Any, served: str) -> None:
    page.goto(f"{served}/situation")
    page.select_option("#question0_ask", "block")
    page.select_option("#edition", "2004")
    page.select_option("#moment", "declare_blockers")
    page.fill("#creature0_name", "Ours runeguerrier")
    page.fill("#creature0_controller", "A")
    page.check("input[name=creature0_attacking]")
    page.click("button[data-row=creature]")
    page.fill("#creature1_name", "Mur de pierre")
    page.fill("#creature1_controller", "B")
    page.fill("#creature1_types", "Mur")
    assert page.locator("#question0_creature option").all_inner_texts() == ["—", "Ours runeguerrier", "Mur de pierre"]
    page.select_option("#question0_creature", "Mur de pierre")
    page.select_option("#question0_attacker", "Ours runeguerrier")
    page.click("#check-button")
    page.wait_for_selector("#answers")
    answer = page.locator("li.answer[data-ask=block]")
    assert "attaquant : Ours runeguerrier" in answer.inner_text()
    assert answer.locator(".answer-value").inner_text() in ("oui", "non")


def test_pages_break_no_rule_of_the_content_security_policy(page: Any, served: str) -> None:
    """Served under the strict CSP (no inline script or style), every page type loads with no
    violation, and its scripts run: the form's script hides a question's unused parameters."""
    page.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation',"
                         " (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
    for path in ("/", "/2004/index.html", "/2004/308.html", "/2010/glossaire.html", "/changes/2004-2010.html",
                 "/recherche?q=mana", "/situation"):
        response = page.goto(f"{served}{path}")
        assert response is not None and response.status == 200
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert page.evaluate("window.__csp") == [], path
    assert page.locator("#question0_player").is_hidden()  # situation.js ran
    page.select_option("select[name=question0_ask]", "attack")
    assert page.locator("#question0_creature").is_visible()
    assert not [error for error in page.console_errors if "Content Security Policy" in error]
