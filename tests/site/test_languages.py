"""One table of languages (`rules/languages.toml`): a user's Italian `[[text]]` is « italien » in
`judge rule`, the book's pages and the data its scripts read, and French comes first wherever a
rule is shown in several languages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_support import BROWSER_MARKS

from judge.cli import main
from judge.corpus.languages import display_rank, language_name, names_json
from judge.corpus.loader import load_graph

ITALIAN = ("300.3. Bruciatura di mana: quando una fase finisce, ogni giocatore perde vita.\n\n"
           "399.1. Una regola che solo il testo italiano contiene.\n")


@pytest.fixture(scope="module")
def italian_config(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("italiano")
    (folder / "regole-2004.txt").write_text(ITALIAN, encoding="utf-8")
    config = folder / "judge.toml"
    config.write_text(f'[[text]]\nedition = "2004"\nlanguage = "it"\npath = "{folder / "regole-2004.txt"}"\n',
                      encoding="utf-8")
    return str(config)


def test_the_table_names_and_orders_languages() -> None:
    assert (language_name("fr"), language_name("en"), language_name("it")) == ("français", "anglais", "italien")
    assert language_name("xx") == "xx"  # a code the table lacks is shown as written
    assert sorted(["it", "xx", "en", "fr"], key=display_rank) == ["fr", "en", "it", "xx"]
    assert names_json()["it"] == {"french": "italien", "english": "Italian", "direction": "ltr"}


def test_judge_rule_names_italian_and_shows_french_first(italian_config: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "399.1", "--edition", "2004", "--config", italian_config]) == 0
    assert "(texte italien seulement)" in capsys.readouterr().out
    assert main(["rule", "300.3", "--edition", "2004", "--config", italian_config]) == 0
    heads = [line for line in capsys.readouterr().out.splitlines() if line.startswith("[")]
    assert [h.split("]")[0] for h in heads] == ["[2004", "[2004 · en", "[2004 · it"]


@pytest.mark.parametrize("number", ["505", "505.1"])
def test_french_comes_before_english_for_a_rule_and_its_sub_rules(number: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # 505 (Main Phase) is a heading only the English 2010 text has; its sub-rules are in both.
    assert main(["rule", number, "--edition", "2010"]) == 0
    # Each number's blocks in order: its French block (« [2010] 505.1. ») before its English one.
    order: dict[str, list[str]] = {}
    for head in re.finditer(r"^\[2010(?: · (\w+))?\] (\S+)", capsys.readouterr().out, re.MULTILINE):
        order.setdefault(head[2], []).append(head[1] or "fr")
    both = [blocks for blocks in order.values() if len(blocks) == 2]
    assert len(both) >= 2 and all(blocks == ["fr", "en"] for blocks in both), order


def test_a_book_with_an_italian_text_labels_it_italien(italian_config: str) -> None:
    from judge.site.build import SiteRenderer

    graph = load_graph(italian_config)
    renderer = SiteRenderer(graph)
    _, numbers = renderer.rule_numbers
    data = json.loads(numbers.split("=", 1)[1].strip().rstrip(";"))
    assert data["editions"][0]["names"] == {"fr": "français", "en": "anglais", "it": "italien"}
    page = renderer.render_edition("2004", language="it")
    assert "(italien)" in page
    assert ">italien</a>" in renderer.render_edition("2004")  # « Autres langues : anglais, italien »
    section = renderer.render_section("2004", "399", language="it")
    assert "texte italien" in section and "anglais" not in section.split("<main", 1)[-1].split("</main>")[0]


@BROWSER_MARKS[0]
@BROWSER_MARKS[1]
def test_the_italian_book_s_scripts_say_italien(italian_config: str, tmp_path: Path, page: Any) -> None:
    # The book as `judge build` writes it, in Chromium: the static search labels a hit of the
    # Italian text « texte italien » (the manifest's names, templates/search.js), and a typed
    # number only the Italian text has opens its page with the note rule-jump.js writes.
    from judge.site.build import build_site

    build_site(load_graph(italian_config), tmp_path / "site")
    page.goto((tmp_path / "site" / "search.html").as_uri() + "?q=bruciatura")
    first = page.locator("#results li").first
    first.wait_for()
    assert first.locator(".hit-edition").inner_text() == "(édition 2004, texte italien)"
    page.goto((tmp_path / "site" / "2004" / "index.html").as_uri())
    page.fill("#q", "399.1")
    page.press("#q", "Enter")
    page.wait_for_url("**/2004/it/399.html#R3991")
    note = page.locator("#jump-note")
    note.wait_for()
    assert "(texte italien)" in note.inner_text()
    assert page.console_errors == []
