"""The rule graph on the real corpus: every trap of corpus-notes.md is a test."""

from __future__ import annotations

from pathlib import Path

import pytest
from source_text import EN_2004, EN_2010, FR_2004, FR_2010, examples, line_of, numbers

from judge.corpus.graph import RuleGraph
from judge.corpus.loader import load_graph
from judge.errors import NotFound, UnknownEdition


def targets(graph: RuleGraph, edition: str, number: str) -> list[tuple[str, str | None]]:
    rule = graph.require(edition, number)
    return [(r.reference.number, r.target.number if r.target else None) for r in graph.references(rule)]


def test_graph_counts(graph: RuleGraph) -> None:
    """One rule per distinct numbered line of each text (2004's English repeats 502.35b)."""
    assert graph.edition_ids == ("2004", "2010")
    assert graph.edition("2004").languages == ("fr", "en") == graph.edition("2010").languages
    french_2004 = set().union(*(numbers(name) for name in FR_2004))
    assert {r.number for r in graph.rules("2004")} == french_2004
    assert {r.number for r in graph.rules("2010")} == numbers(FR_2010[0])
    assert {r.number for r in graph.rules("2004", "en")} == numbers(EN_2004)
    assert {r.number for r in graph.rules("2010", "en")} == numbers(EN_2010)
    assert len(graph.rules("2004", "en")) == len(numbers(EN_2004))
    expected = sum(examples(name) for name in (*FR_2004, *FR_2010, EN_2004, EN_2010))
    assert sum(len(r.examples) for r in graph.all_rules()) == expected


@pytest.mark.parametrize(
    ("number", "target"),
    [("302.3", "303"), ("300.4", "314.2"), ("306.1", "308.4"), ("308.2g", "306.2"), ("309.2e", "306.2"),
     ("313.2", "314")],
)
def test_graph_resolves_inside_2004(graph: RuleGraph, number: str, target: str) -> None:
    assert (target, target) in targets(graph, "2004", number)


@pytest.mark.parametrize(
    ("number", "cited"),
    [("302.1", "217.8"), ("302.1", "502.15"), ("303.1", "410"), ("306.2", "419.6b"), ("308.2", "422"),
     ("308.2", "500"), ("305.4", "212.6"), ("308.2e", "411"), ("311.1", "404"), ("306.1", "502.25")],
)
def test_graph_resolves_to_the_english_text_of_the_same_release(graph: RuleGraph, number: str, cited: str) -> None:
    """No French rule has that number: the English 2004 text of the same release has it."""
    assert graph.get("2004", cited, "fr") is None
    assert cited in numbers(EN_2004)
    (target,) = {r.target for r in graph.references(graph.require("2004", number)) if r.reference.number == cited}
    assert target is not None and (target.edition, target.language, target.number) == ("2004", "en", cited)


def test_graph_305_4_lands_is_the_2004_english_212_6(graph: RuleGraph) -> None:
    (ref,) = graph.references(graph.require("2004", "305.4"))
    assert (ref.reference.number, ref.reference.title) == ("212.6", "Terrains")
    assert ref.target is not None and ref.target.language == "en" and ref.target.edition == "2004"
    assert line_of(EN_2004, "212.6") == f"212.6. {ref.target.text}"  # "212.6. Land"


def test_graph_never_links_across_editions(graph: RuleGraph) -> None:
    rule = graph.require("2010", "505.5b")
    (ref,) = graph.references(rule)
    assert ref.reference.number == "305" and ref.reference.title == "Terrains"
    # 2010's own English 305 "Lands", never 2004's 305 "Phase principale".
    assert ref.target is not None and (ref.target.edition, ref.target.language) == ("2010", "en")
    assert line_of(EN_2010, "305") == f"305. {ref.target.title}"
    assert graph.get("2004", "305") is not None
    assert rule not in graph.backlinks(graph.require("2004", "305"))
    assert rule in graph.backlinks(ref.target)


def test_graph_every_french_reference_resolves_inside_its_edition(graph: RuleGraph) -> None:
    for edition in graph.edition_ids:
        for rule in graph.rules(edition, "fr"):
            for ref in graph.references(rule):
                assert ref.target is not None, (edition, rule.number, ref.reference.number)
                assert ref.target.edition == edition
                # French first: the English text only where the French one lacks the number.
                expected = "fr" if graph.get(edition, ref.reference.number, "fr") else "en"
                assert ref.target.language == expected


def test_graph_reference_keeps_its_quoted_title(graph: RuleGraph) -> None:
    refs = graph.references(graph.require("2004", "302.1"))
    assert [(r.reference.title, r.target.language if r.target else None) for r in refs] == [
        ("Hors phase", "en"), ("Déphasage", "en")]


def test_graph_backlinks(graph: RuleGraph) -> None:
    assert [r.number for r in graph.backlinks(graph.require("2004", "306.2"))] == ["308.2g", "309.2e"]
    assert [r.number for r in graph.backlinks(graph.require("2004", "303"))] == ["302.3"]


def test_graph_hierarchy(graph: RuleGraph) -> None:
    rule = graph.require("2004", "308.2a")
    assert graph.parent(rule) == graph.get("2004", "308.2")
    assert [c.number for c in graph.children(graph.require("2004", "306.2"))] == ["306.2a", "306.2b"]
    assert graph.previous(rule) == graph.get("2004", "308.2")
    assert graph.next(rule) == graph.get("2004", "308.2b")
    assert graph.parent(graph.require("2010", "505.1")) is None  # no 505 heading in the 2010 text
    assert [r.number for r in graph.prefix("2004", "308.2")][:3] == ["308.2", "308.2a", "308.2b"]


def test_graph_mana_burn_is_historical_and_removed_in_2010(graph: RuleGraph) -> None:
    rule = graph.require("2004", "300.3")
    assert rule.status == "historical"
    assert rule.notes == ("La règles suivante a disparue dans un changement de règles :",)
    assert [e.id for e in graph.removed_in(rule)] == ["2010"]
    others = [r for r in graph.rules("2004") if r.status == "historical"]
    assert [r.number for r in others] == ["300.3"]


def test_graph_lookup_every_edition(graph: RuleGraph) -> None:
    # French first, else the English text of the release (2004's English 505.1 is split cards).
    assert "505.1" in numbers(EN_2004) and "505.1" not in set().union(*(numbers(n) for n in FR_2004))
    assert [(r.edition, r.language) for r in graph.lookup("505.1")] == [("2004", "en"), ("2010", "fr")]
    assert [r.edition for r in graph.lookup("505.1", language="fr")] == ["2010"]
    assert graph.lookup("999") == ()
    with pytest.raises(NotFound):
        graph.require("2004", "999")
    with pytest.raises(UnknownEdition, match="édition inconnue"):
        graph.get("1999", "300")


def test_graph_newest_edition(graph: RuleGraph) -> None:
    assert graph.newest_edition == "2010"


def test_graph_english_translation_same_edition(graph: RuleGraph) -> None:
    french = graph.require("2004", "300.3")
    (english,) = graph.translations(french)
    assert english.language == "en" and "mana burn" in english.text


def test_graph_user_text_in_a_new_language(tmp_path: Path) -> None:
    """A user's `[[text]]` adds a third language to an edition; French still comes first."""
    text = tmp_path / "regole.txt"
    text.write_text("300.3. Bruciatura di mana.\n", encoding="utf-8")
    config = tmp_path / "judge.toml"
    config.write_text(f'[[text]]\nedition = "2004"\nlanguage = "it"\npath = "{text}"\n', encoding="utf-8")
    graph = load_graph(str(config))
    assert graph.edition("2004").languages == ("fr", "en", "it")
    assert [t.language for t in graph.translations(graph.require("2004", "300.3"))] == ["en", "it"]


def test_graph_ancestors(graph: RuleGraph) -> None:
    assert [r.number for r in graph.ancestors(graph.require("2004", "308.2a"))] == ["308.2", "308"]
    assert graph.ancestors(graph.require("2004", "308")) == ()
