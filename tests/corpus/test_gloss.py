"""French names of the terms of English-only rules: the gloss beside the text, never in it
(`judge.corpus.gloss`, `judge rule`, its `--json`, the book)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from judge.cli import main
from judge.corpus.documents import Reference
from judge.corpus.gloss import Gloss, glossed, glosses
from judge.corpus.lexicon import glossary


def french_of(english: str) -> str:
    """The first French name the terminology gives an English name (read from the file)."""
    return next(t.fr[0] for t in glossary() if english in t.en)


def test_an_english_only_rule_gets_the_french_names_of_its_terms(graph) -> None:
    rule = graph.require("2010", "702.17b", "en")  # Trample: English only in 2010
    found = {g.english.lower(): g.french for g in glosses(graph, rule)}
    for term in ("trample", "lethal damage", "combat damage step"):
        assert found[term] == french_of(term)
    assert found["trample"] == "piétinement"
    pieces = glossed(graph, rule)
    # the text is untouched: the pieces without the glosses are the rule's text
    assert "".join(p.text if not isinstance(p, Reference) else p.text or p.number
                   for p in pieces if not isinstance(p, Gloss)) == "".join(
        s.text if not isinstance(s, Reference) else s.text or s.number for s in rule.segments)
    # each gloss right after the words it names, on first use only
    trample = next(k for k, p in enumerate(pieces) if isinstance(p, Gloss) and p.english == "trample")
    assert pieces[trample - 1].text.endswith("trample")
    assert len([p for p in pieces if isinstance(p, Gloss) and p.english.lower() == "lethal damage"]) == 1


def test_rules_with_a_french_text_get_no_gloss(graph) -> None:
    assert glosses(graph, graph.require("2004", "302.1", "fr")) == ()
    assert glosses(graph, graph.require("2004", "302.1", "en")) == ()  # its French is beside it
    assert glosses(graph, graph.require("2004", "502.9a", "en"))  # 2004's Trample: English only


def test_a_term_defined_by_a_french_rule_links_to_it(graph) -> None:
    rule = graph.require("2010", "501.1", "en")  # names the untap and upkeep steps
    linked = {g.english.lower(): g.defined_by for g in glosses(graph, rule)}
    assert any(graph.get(*d[0].split(":"), "fr") is not None for d in linked.values() if d)


def test_judge_rule_shows_the_names_on_a_line_of_their_own(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "702.17b", "--edition", "2010"]) == 0
    shown = capsys.readouterr().out
    (line,) = [line for line in shown.splitlines() if line.startswith("  Termes en français : ")]
    assert "trample (piétinement)" in line
    assert main(["rule", "702.17b", "--edition", "2010", "--no-gloss"]) == 0
    bare = capsys.readouterr().out
    assert "piétinement" not in bare and bare.splitlines() == [s for s in shown.splitlines() if s != line]


def test_json_keeps_the_quoted_text_and_lists_the_names_beside_it(graph, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "702.17b", "--edition", "2010", "--json"]) == 0
    (found,) = json.loads(capsys.readouterr().out)
    assert found["text"] == graph.require("2010", "702.17b", "en").text
    assert "piétinement" not in found["text"]
    assert {"term": "trample", "fr": "piétinement", "defined_by": []} in found["glosses"]


def test_the_book_glosses_english_rules_lightly(site: Path, graph) -> None:
    # 702 is a long section: each of its rules has its page (issue 34), 702.17 Trample's is its own
    page = (site / "2010" / "en" / "702.17.html").read_text(encoding="utf-8")
    # on its first use in the page (702.17, Trample), once
    assert page.count('<i data-fr="piétinement"></i>') == 1
    start = page.index('id="R70217"')
    assert 'Trample<i data-fr="piétinement"></i>' in page[start:page.index("</article>", start)]
    assert 'id="gloss-off"' in page  # the switch
    french = (site / "2004" / "302.html").read_text(encoding="utf-8")
    assert "data-fr=" not in french and 'id="gloss-off"' not in french
    # the markup of the glosses and the switch: a plain gloss, a linked one (a French rule
    # defines the term: the name once, as the link's accessible name), the switch
    gloss = re.compile(r'<i data-fr="[^"]*"></i>|<a href="[^"]*" aria-label="[^"]*"></a>|<p class="gloss-switch">.*?</p>')
    linked = (site / "2010" / "en" / "509.3.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="[^"]*#R3063" aria-label="joueur défenseur"></a>', linked)
    assert not re.search(r'<a [^>]*data-fr=', linked)
    pages = [p for p in site.glob("20*/**/*.html") if p.stat().st_size > 3000]
    assert len(pages) > 100
    # every page on its own, the small pages of a section cut per rule (issue 34) included:
    # 509.3 was at 14 % in round 11
    for path in pages:
        html = path.read_text(encoding="utf-8")
        spent = sum(len(m.group(0).encode()) for m in gloss.finditer(html))
        assert spent <= 0.10 * len(html.encode()), path
        # a French rule is given once a page, with the first term it defines
        targets = re.findall(r'<a href="([^"]*)" aria-label="[^"]*"></a>', html)
        assert len(targets) == len(set(targets)), path
    # 509.3 names the combat damage step and assigning combat damage, both defined by 2004's
    # 310 (French): linked once, then glossed without the link
    assert linked.count('href="../../2004/310.html#R310" aria-label=') == 1
    assert '<i data-fr="assigner les blessures de combat"></i>' in linked


def test_words_without_a_defining_rule_get_no_gloss(graph) -> None:
    # « choice » is in the terminology for search (choisir) but no rule defines it: not glossed
    choose = next(t for t in glossary() if "choice" in t.en)
    assert choose.fr and not choose.rules
    rule = graph.require("2010", "509.3", "en")
    assert "choice" in rule.text
    found = {g.english.lower() for g in glosses(graph, rule)}
    assert "choice" not in found and "defending player" in found


def test_the_app_serves_the_same_glosses(client) -> None:
    page = client.get("/2010/en/702.html")
    assert page.status_code == 200
    assert page.text.count('<i data-fr="piétinement"></i>') == 1 and 'id="gloss-off"' in page.text
    rule = client.get("/api/rule/702.17b?edition=2010").json()
    assert {"term": "trample", "fr": "piétinement", "defined_by": []} in rule[0]["glosses"]
