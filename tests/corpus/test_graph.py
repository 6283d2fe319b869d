"""The rule graph on the real corpus: every trap of corpus-notes.md is a test."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.corpus.graph import RuleGraph
from judge.corpus.loader import load_graph
from judge.errors import NotFound, UnknownEdition


def targets(graph: RuleGraph, edition: str, number: str) -> list[tuple[str, str | None]]:
    rule = graph.require(edition, number)
    return [(r.reference.number, r.target.number if r.target else None) for r in graph.references(rule)]


def test_graph_counts(graph: RuleGraph) -> None:
    assert graph.edition_ids == ("2004", "2010")
    assert len(graph.rules("2004")) == 82
    assert len(graph.rules("2010")) == 8
    assert sum(len(r.examples) for r in graph.all_rules()) == 2


@pytest.mark.parametrize(
    ("number", "target"),
    [("302.3", "303"), ("300.4", "314.2"), ("306.1", "308.4"), ("308.2g", "306.2"), ("309.2e", "306.2"),
     ("313.2", "314")],
)
def test_graph_resolves_inside_2004(graph: RuleGraph, number: str, target: str) -> None:
    assert (target, target) in targets(graph, "2004", number)


@pytest.mark.parametrize(
    ("number", "absent"),
    [("302.1", "217.8"), ("302.1", "502.15"), ("303.1", "410"), ("306.2", "419.6b"), ("308.2", "422"),
     ("308.2", "500"), ("305.4", "212.6"), ("308.2e", "411"), ("311.1", "404"), ("306.1", "502.25")],
)
def test_graph_keeps_references_outside_the_corpus_unresolved(graph: RuleGraph, number: str, absent: str) -> None:
    assert (absent, None) in targets(graph, "2004", number)


def test_graph_never_links_across_editions(graph: RuleGraph) -> None:
    rule = graph.require("2010", "505.5b")
    (ref,) = graph.references(rule)
    assert ref.reference.number == "305" and ref.reference.title == "Terrains"
    assert ref.target is None  # 2004's 305 "Phase principale" is another rule
    assert graph.get("2004", "305") is not None
    assert rule not in graph.backlinks(graph.require("2004", "305"))


def test_graph_unresolved_reference_keeps_its_title(graph: RuleGraph) -> None:
    refs = graph.references(graph.require("2004", "302.1"))
    assert [(r.reference.title, r.resolved) for r in refs] == [("Hors phase", False), ("Déphasage", False)]


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
    assert [r.edition for r in graph.lookup("505.1")] == ["2010"]
    assert graph.lookup("999") == ()
    with pytest.raises(NotFound):
        graph.require("2004", "999")
    with pytest.raises(UnknownEdition, match="édition inconnue"):
        graph.get("1999", "300")


def test_graph_newest_edition(graph: RuleGraph) -> None:
    assert graph.newest_edition == "2010"


def test_graph_english_translation_same_edition(tmp_path: Path, en2004: Path) -> None:
    config = tmp_path / "judge.toml"
    config.write_text(f'[[text]]\nedition = "2004"\nlanguage = "en"\npath = "{en2004}"\n', encoding="utf-8")
    graph = load_graph(str(config))
    french = graph.require("2004", "300.3")
    (english,) = graph.translations(french)
    assert english.language == "en" and "mana burn" in english.text
    # 302.1's 217.8 now resolves inside edition 2004, in its English text; 2010 is untouched.
    refs = graph.references(graph.require("2004", "302.1"))
    assert refs[0].target is not None and refs[0].target.language == "en"
    assert graph.references(graph.require("2010", "505.5b"))[0].target is None


def test_graph_ancestors(graph: RuleGraph) -> None:
    assert [r.number for r in graph.ancestors(graph.require("2004", "308.2a"))] == ["308.2", "308"]
    assert graph.ancestors(graph.require("2004", "308")) == ()
