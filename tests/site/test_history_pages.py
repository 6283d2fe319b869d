"""The « Historique » block of each rule and the changes pages of the static rulebook."""

from __future__ import annotations

import re
from pathlib import Path

import html5lib

from judge.corpus.concordance import concordance
from judge.site.build import SiteRenderer


def _article(html: str, anchor: str) -> str:
    start = html.index(f'id="{anchor}"')
    return html[start:html.index("</article>", start)]


def test_every_rule_of_a_compared_text_has_a_history_block(site: Path, graph) -> None:
    for edition in ("2004", "2010"):
        html = (site / edition / "en" / ("305.html" if edition == "2004" else "505.html")).read_text(encoding="utf-8")
        articles = html.count("<article ")
        assert articles == html.count('<section class="history"') > 0


def test_history_block_of_305_4(site: Path) -> None:
    block = _article((site / "2004" / "305.html").read_text(encoding="utf-8"), "R3054")
    history = block[block.index('<section class="history"'):]
    assert "modifiée" in history and 'href="../2010/505.html#R5055b"' in history
    assert "<del>212.6, </del><ins>305, </ins>" in history
    assert 'href="../changes/2004-2010.html"' in history


def test_history_block_of_505_5b_points_back(site: Path) -> None:
    block = _article((site / "2010" / "505.html").read_text(encoding="utf-8"), "R5055b")
    assert 'href="../2004/305.html#R3054"' in block and "(2004 → 2010)" in block


def test_removed_rule_says_why(site: Path) -> None:
    block = _article((site / "2004" / "300.html").read_text(encoding="utf-8"), "R3003")
    history = block[block.index('<section class="history"'):]
    assert "supprimée" in history and "aucune contrepartie" in history
    assert "La brûlure de mana a été supprimée par le changement de règles de Magic 2010" in history


def test_changes_pages_list_every_pair_each_small_and_valid(site: Path, graph) -> None:
    summary = (site / "changes" / "2004-2010.html").read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(summary)
    table = concordance(graph, "2004", "2010")
    pages = re.findall(r'<li><a href="\.\./changes/(2004-2010/[^"]+)"', summary)
    assert len(pages) == len(set(pages)) > 10
    assert {p.name for p in (site / "changes" / "2004-2010").iterdir()} == {p.split("/")[1] for p in pages}
    rows: list[str] = []
    for page in pages:
        path = site / "changes" / page
        assert path.stat().st_size <= 100_000, page  # a phone loads one section, not the whole table
        html = path.read_text(encoding="utf-8")
        html5lib.HTMLParser(strict=True).parse(html)
        rows += re.findall(r'<li class="change-card change-(\w+)', html)
        ids = re.findall(r'<li class="change-card[^"]*" id="([^"]+)"', html)
        assert len(ids) == len(set(ids))  # every card has its own anchor
        for href in re.findall(r'href="\.\./\.\./([^"#]+)', html):
            assert (site / href).is_file(), href
    assert len(rows) == len(table.pairs)
    assert sorted(rows) == sorted(p.change for p in table.pairs)
    assert "Section 305 → 505" in summary and "300.3" in summary
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="changes/2004-2010.html"' in index
    for href in re.findall(r'href="\.\./([^"#]+)', summary):
        assert (site / href).is_file(), href


def test_mana_burn_and_500_4_name_each_other(site: Path) -> None:
    """2004's 300.3 (removed) says why, with 2010's 500.4 linked; 500.4 says that 300.3 points to it.
    Both come from the concordance's reviewed reason, not from code."""
    old = _article((site / "2004" / "300.html").read_text(encoding="utf-8"), "R3003")
    assert '<a class="ref-edition" href="../2010/en/500.html#R5004"' in old
    new = _article((site / "2010" / "en" / "500.html").read_text(encoding="utf-8"), "R5004")
    mention = new[new.index('class="history-mention"'):]
    assert 'href="../../2004/300.html#R3003"' in mention and "brûlure de mana" in mention


def test_french_page_keeps_one_block_per_rule(graph) -> None:
    html = SiteRenderer(graph).render_section("2004", "305", "../")
    assert html.count('<section class="history"') == html.count("<article ")
