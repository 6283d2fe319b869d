"""The built rulebook in a real browser (Debian's Chromium through Playwright), from file://."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_support import BROWSER_MARKS, new_tab

pytestmark = BROWSER_MARKS


def test_browser_follows_cross_reference_302_3_to_303(site: Path, page: Any) -> None:
    page.goto((site / "2004" / "302.html").as_uri())
    link = page.locator('#R3023 [lang="fr"] a.ref')
    assert link.count() == 1
    assert page.locator('#R3023 [lang="en"] a.ref').get_attribute("href") == "../2004/en/303.html#R303"
    link.click()
    page.wait_for_url("**/2004/303.html#R303")
    assert page.locator("#R303").is_visible()
    assert "Etape d'entretien" in page.locator("#R303").inner_text()
    assert page.evaluate("document.querySelector(':target').id") == "R303"
    assert page.console_errors == []


def test_browser_reference_is_reachable_with_the_keyboard(site: Path, page: Any) -> None:
    page.goto((site / "2004" / "302.html").as_uri())
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.className") == "ref":
            break
    # The first reference of the page in document order (302.1's 217.8, in the English text).
    first = page.evaluate("document.querySelector('a.ref').getAttribute('href')")
    assert first == "../2004/en/217.8.html#R2178"
    assert page.evaluate("document.activeElement.getAttribute('href')") == first
    page.keyboard.press("Enter")
    page.wait_for_url("**/2004/en/217.8.html#R2178")


def test_browser_turn_diagram_step_opens_its_rule(site: Path, page: Any) -> None:
    page.goto((site / "2004" / "index.html").as_uri())
    page.locator("ol.turn a[href$='#R314']").click()
    page.wait_for_url("**/2004/314.html#R314")
    assert page.console_errors == []


def test_browser_phone_screenshot_has_no_horizontal_scroll(site: Path, browser: Any, tmp_path: Path) -> None:
    with new_tab(browser, viewport={"width": 375, "height": 740}, device_scale_factor=2, is_mobile=True) as page:
        page.goto((site / "2004" / "308.html").as_uri())
        shot = tmp_path / "308-phone.png"
        page.screenshot(path=str(shot), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        errors = list(page.console_errors)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    assert overflow <= 0
    assert errors == []


def test_browser_rule_url_opens_the_rule_from_file(site: Path, page: Any) -> None:
    page.goto((site / "2004" / "306.2a.html").as_uri())
    page.wait_for_url("**/2004/306.html#R3062a")
    assert page.evaluate("document.querySelector(':target').id") == "R3062a"
    assert page.console_errors == []
