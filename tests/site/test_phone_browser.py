"""The book on a phone, in Debian's Chromium (390 px, touch): tap targets of every page type
(static and served), the FR | EN | côte à côte switch, the glossary's A–Z index, printing one
rule, the timeline's whole words, and no code name in the interface. Behaviours, not timings
(bench/bench_phone.py measures those)."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_support import BROWSER_MARKS

pytestmark = BROWSER_MARKS

ATTACK = {"edition": "2004", "phase": "combat", "step": "declare_attackers", "priority": "A",
          "creatures": [{"name": "Ours runeguerrier", "controller": "A", "since_turn_start": False}],
          "questions": [{"ask": "attack", "creature": "Ours runeguerrier"}]}
PERMALINK = base64.urlsafe_b64encode(json.dumps(ATTACK).encode()).decode().rstrip("=")

STATIC_PAGES = [
    "index.html", "2004/index.html", "2010/index.html", "2004/300.html", "2010/505.html", "2004/en/302.html",
    "2010/en/500.html", "search.html?q=brûlure de mana", "changes/2004-2010.html", "changes/2004-2010/300.html",
    "2010/glossaire.html", "2004/en/410.html",  # the longest rule page: « Citée par » in two languages
]
SERVED_PAGES = [
    "/", "/2004/", "/2004/300.html", "/2004/en/302.html", "/recherche?q=brûlure de mana",
    "/changes/2004-2010/300.html", "/2010/glossaire.html", "/situation", f"/situation?s={PERMALINK}",
]
# Links inside a sentence keep the text's size (WCAG 2.5.5's exception for inline targets).
SMALL_TARGETS = """() => {
  const INLINE = ".rule-text, .example, dl.glossary dd, .history-reason, .diff, .hit-snippet, .source-note, .help";
  const out = [];
  for (const el of document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary")) {
    if (el.closest(INLINE)) continue;
    const target = el.matches("input[type=checkbox], input[type=radio]") && el.closest("label") ? el.closest("label") : el;
    if (!target.getClientRects().length) continue;  // not drawn (hidden, closed <details>)
    const r = target.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) {
      out.push(`${target.tagName.toLowerCase()}.${target.className} « ${(target.textContent || target.name || "").trim().slice(0, 30)} » ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
  }
  return out;
}"""


def _static(site: Path, path: str) -> str:
    page, _, query = path.partition("?")
    return (site / page).as_uri() + (f"?{query}" if query else "")


def _settle(page: Any, path: str) -> None:
    page.wait_for_load_state("load")
    if "q=" in path:
        page.locator("#results li, .search-results li").first.wait_for()


# The layout shifts of the page so far (issue 34: the search page moved while its results came in).
SHIFTS = """window.judgeShifts = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.judgeShifts.push(e.value); })
  .observe({ type: "layout-shift", buffered: true });"""


@pytest.mark.parametrize("path", STATIC_PAGES)
def test_static_page_tap_targets_are_44_px_and_axe_finds_nothing_serious(site: Path, phone: Any, path: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    phone.add_init_script(SHIFTS)
    phone.goto(_static(site, path))
    _settle(phone, path)
    if "q=" in path:  # every result drawn (the first ones come first, the others after): nothing read moved
        phone.wait_for_function("""() => {
          const total = /^(\\d+) résultat/.exec(document.getElementById('search-status').textContent);
          return total !== null && document.querySelectorAll('#results li').length >= Math.min(+total[1], 20);
        }""")
        assert phone.evaluate("window.judgeShifts.reduce((a, b) => a + b, 0)") <= 0.1
    assert phone.evaluate(SMALL_TARGETS) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    violations = [f"{v['id']} : {[n['target'] for n in v['nodes']][:3]}" for v in Axe().run(phone).response["violations"]
                  if v["impact"] in ("serious", "critical")]
    assert violations == []
    assert phone.errors == []


@pytest.mark.parametrize("path", SERVED_PAGES)
def test_served_page_tap_targets_are_44_px(served: str, phone: Any, path: str) -> None:
    phone.goto(served + path)
    _settle(phone, path)
    assert phone.evaluate(SMALL_TARGETS) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.errors == []


def _shown(page: Any, anchor: str) -> list[str]:
    return page.evaluate(
        f"[...document.querySelectorAll('#{anchor} .bilingual > div')].filter(d => d.offsetParent !== null).map(d => d.lang)")


def test_language_switch_is_remembered_across_pages(site: Path, phone: Any) -> None:
    phone.goto((site / "2004" / "302.html").as_uri())
    # A phone opens on the French text alone; the switch says so.
    assert _shown(phone, "R3023") == ["fr"]
    assert phone.locator(".view-switch button[aria-pressed=true]").inner_text() == "FR"
    phone.get_by_role("button", name="côte à côte").click()
    assert _shown(phone, "R3023") == ["fr", "en"]
    phone.get_by_role("button", name="EN").click()
    assert _shown(phone, "R3023") == ["en"]
    # Another page of the book opens in the remembered view.
    phone.goto((site / "2004" / "303.html").as_uri())
    assert _shown(phone, "R3031") == ["en"]
    assert phone.locator(".view-switch button[aria-pressed=true]").inner_text() == "EN"
    assert phone.errors == []


def test_english_page_links_to_the_french_rule_and_switches_back(site: Path, phone: Any) -> None:
    phone.goto((site / "2004" / "en" / "302.html").as_uri())
    link = phone.locator("#R3023 .in-primary a")
    assert "302.3" in link.inner_text()
    link.click()
    phone.wait_for_url("**/2004/302.html#R3023")
    phone.goto((site / "2004" / "en" / "302.html").as_uri())
    phone.locator(".view-switch a", has_text="côte à côte").click()
    phone.wait_for_url(re.compile(r".*/2004/302\.html#R302$"))  # the rule at the top of the screen, kept
    assert _shown(phone, "R3023") == ["fr", "en"]
    # A section only the English text has says that there is no French page, and has no switch.
    phone.goto((site / "2004" / "en" / "217.html").as_uri())
    assert phone.locator(".view-switch").count() == 0
    assert "Pas de texte FR" in phone.locator("main").inner_text()


def test_glossary_letter_index_opens_its_letter(site: Path, phone: Any) -> None:
    phone.goto((site / "2010" / "glossaire.html").as_uri())
    letters = phone.locator("nav.letters").first.locator("a")
    assert letters.count() >= 20
    letters.filter(has_text="M").first.click()
    assert phone.evaluate("location.hash") == "#lettre-m"
    first = phone.locator("#lettre-m ~ dl dt").first.inner_text()
    assert first.startswith("M")
    top = phone.evaluate("document.getElementById('lettre-m').getBoundingClientRect().top")
    header = phone.evaluate("document.querySelector('.site-header').getBoundingClientRect().bottom")
    assert header <= top < header + 100  # just under the sticky header


def test_printing_a_rule_prints_that_rule(site: Path, phone: Any) -> None:
    phone.goto((site / "2004" / "300.html").as_uri() + "#R3003")
    phone.emulate_media(media="print")
    shown = phone.evaluate("[...document.querySelectorAll('article.rule')].filter(a => a.offsetParent !== null).map(a => a.id)")
    assert shown == ["R3003"]
    assert phone.locator("h1").is_hidden()
    # Without a rule in the URL the whole section prints.
    phone.goto((site / "2004" / "300.html").as_uri())
    phone.emulate_media(media="print")
    assert phone.evaluate("[...document.querySelectorAll('article.rule')].filter(a => a.offsetParent !== null).length") > 5


def test_2010_contents_show_english_steps_as_english_text(site: Path, phone: Any) -> None:
    phone.goto((site / "2010" / "index.html").as_uri())
    untap = phone.locator("ol.turn a", has_text="Dégagement")
    assert "texte anglais" in untap.inner_text()
    untap.click()
    phone.wait_for_url("**/2010/en/502.html#R502")
    phone.goto((site / "2010" / "index.html").as_uri())
    titles = phone.locator("ol.toc a").all_inner_texts()
    assert "505. Main Phase" in titles and not [t for t in titles if "anglais" in t]


def test_timeline_words_are_never_broken(served: str, phone: Any) -> None:
    phone.goto(f"{served}/situation?s={PERMALINK}")
    broken = phone.evaluate("""() => {
      const out = [];
      for (const label of document.querySelectorAll('.timeline-step a, .timeline-step span')) {
        const text = label.firstChild;
        if (!text || text.nodeType !== 3) continue;
        const re = /\\S+/g; let m;
        while ((m = re.exec(text.data))) {
          const range = document.createRange();
          range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
          if (range.getClientRects().length > 1) out.push(m[0]);
        }
      }
      return out;
    }""")
    assert broken == []
    assert phone.locator(".timeline-step").count() > 5


def test_no_code_name_in_the_interface(site: Path, served: str, phone: Any) -> None:
    code = ("judge build", "judge serve", "judge check", "TOML", "JSON", "before_attackers", "after_blockers")
    for url in (_static(site, "2004/302.html"), _static(site, "index.html"), f"{served}/2004/302.html",
                f"{served}/situation", f"{served}/situation?s={PERMALINK}"):
        phone.goto(url)
        # The static book's footer says how to start the server (issue 25): its one command line.
        text = phone.evaluate("[...document.querySelectorAll('.app-how')].forEach(e => e.remove()),"
                              "document.body.innerText + [...document.querySelectorAll('option, [placeholder]')]"
                              ".map(o => o.textContent + ' ' + (o.getAttribute('placeholder') || '')).join(' ')")
        assert [c for c in code if c in text] == [], url
    # A refusal of the form speaks its words, not the situation format's keys (issue 34: « la
    # question damage_dealt suit le tour joué : décrivez-le avec events »).
    phone.goto(f"{served}/situation")
    phone.select_option("#question0_ask", "damage_dealt")
    phone.fill("#creature0_name", "Ours runeguerrier")
    phone.click("#check-button")
    message = phone.locator(".form-error").inner_text()
    assert "Quelles blessures de combat ont été infligées ?" in message
    assert re.findall(r"\b[a-z]+_[a-z_]+\b|\bevents\b|\bquestions\b", message) == []
