"""The French names of an English rule's terms in a real browser: shown after the term, not
copied nor found by the page's search, switched off and remembered (book.js)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_support import BROWSER_MARKS

pytestmark = BROWSER_MARKS


def test_gloss_is_shown_not_copied_and_switched_off(site: Path, page: Any, graph) -> None:
    page.goto((site / "2010" / "en" / "702.html").as_uri() + "#R70217")
    gloss = page.locator('#R70217 i[data-fr="piétinement"]')
    assert gloss.count() == 1 and gloss.is_visible()
    assert page.evaluate("getComputedStyle(document.querySelector('#R70217 i[data-fr]'), '::after').content") \
        == '" (piétinement)"'
    # what a reader copies, and what the page's search finds, is the English text only
    assert page.locator("#R70217b .rule-text [data-fr]").count() > 0  # 702.17b has glosses of its own
    # a linked gloss (in 702.17b's example, « block »: a French rule of 2004 defines it) holds
    # its name once, as the link's accessible name, which the style shows
    linked = page.locator("#R70217b a[aria-label]:empty").first
    assert linked.is_visible() and page.evaluate(
        "getComputedStyle(document.querySelector('#R70217b a[aria-label]:empty'), '::after').content"
    ) == f'" ({linked.get_attribute("aria-label")})"'
    assert page.locator("#R70217b .rule-text").inner_text() == graph.require("2010", "702.17b", "en").text
    assert page.evaluate("window.find('piétinement')") is False
    page.locator("#gloss-off").check()
    assert not gloss.is_visible() and not linked.is_visible()
    page.reload()  # remembered by the book
    assert page.locator("#gloss-off").is_checked() and not gloss.is_visible()
    page.locator("#gloss-off").uncheck()
    assert gloss.is_visible()
    assert page.console_errors == []
