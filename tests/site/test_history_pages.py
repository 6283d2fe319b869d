"""The « Historique » block of each rule and the changes pages of the static rulebook."""

from __future__ import annotations

import re
from pathlib import Path

import html5lib
import pytest

from judge.corpus.concordance import concordance
from judge.site.build import SiteRenderer, build_site


@pytest.fixture(scope="module")
def site(graph, tmp_path_factory: pytest.TempPathFactory) -> Path:  # type: ignore[no-untyped-def]
    return build_site(graph, tmp_path_factory.mktemp("site") / "out").parent


def _article(html: str, anchor: str) -> str:
    start = html.index(f'id="{anchor}"')
    return html[start:html.index("</article>", start)]


def test_every_rule_of_a_compared_text_has_a_history_block(site: Path, graph) -> None:  # type: ignore[no-untyped-def]
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


def test_changes_page_lists_every_pair_and_is_valid_html(site: Path, graph) -> None:  # type: ignore[no-untyped-def]
    html = (site / "changes" / "2004-2010.html").read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(html)
    table = concordance(graph, "2004", "2010")
    rows = re.findall(r'<tr class="change-(\w+)', html)
    assert len(rows) == len(table.pairs)
    assert sorted(rows) == sorted(p.change for p in table.pairs)
    assert "Section 305 → 505" in html and "300.3" in html
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="changes/2004-2010.html"' in index
    for href in re.findall(r'href="\.\./([^"#]+)', html):
        assert (site / href).is_file(), href


def test_french_page_keeps_one_block_per_rule(graph) -> None:  # type: ignore[no-untyped-def]
    html = SiteRenderer(graph).render_section("2004", "305", "../")
    assert html.count('<section class="history"') == html.count("<article ")
