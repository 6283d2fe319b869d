"""Doubtful citations on the real corpus and on small graphs."""

from __future__ import annotations

import source_text

from judge.corpus.citations import citation_words, doubts, name_key, rule_doubts
from judge.corpus.documents import Edition, Reference, Text
from judge.corpus.graph import RuleGraph
from judge.corpus.lexicon import glossary
from judge.corpus.lint import lint
from judge.corpus.parser import parse_text


def test_306_1_double_strike_cited_as_fear_is_doubtful_with_502_28_likely(graph: RuleGraph) -> None:
    rule = graph.require("2004", "306.1")
    (doubt,) = rule_doubts(graph, rule)
    assert doubt.reference.number == "502.25" and doubt.words == "double initiative"
    # What the English 2004 text says those numbers are.
    assert source_text.line_of(source_text.EN_2004, "502.25") == "502.25. Fear"
    assert source_text.line_of(source_text.EN_2004, "502.28") == "502.28. Double Strike"
    assert doubt.cited_names == ("Fear",)
    assert (doubt.likely.edition, doubt.likely.language, doubt.likely.number) == ("2004", "en", "502.28")
    # Found through the FR↔EN glossary: « double initiative » is "double strike".
    assert any("double initiative" in t.fr and "double strike" in t.en for t in glossary())
    assert "502.28" in doubt.note and "Fear" in doubt.note


def test_agreeing_citations_are_not_doubtful(graph: RuleGraph) -> None:
    # « Terrains » names 212.6 "Land" (2004) and 305 "Lands" (2010) through the glossary.
    assert rule_doubts(graph, graph.require("2004", "305.4")) == ()
    assert rule_doubts(graph, graph.require("2010", "505.5b")) == ()
    # 310.5 cites 502.28 for double strike: right.
    assert all(d.citing.number != "310.5" for d in doubts(graph, "2004"))


def test_lint_reports_the_doubtful_citation(graph: RuleGraph) -> None:
    found = [f for f in lint(graph) if f.kind == "doubtful_citation" and f.edition == "2004"]
    assert [(f.number, f.related, f.language) for f in found] == [("502.25", ("306.1", "502.28"), "fr")]


def test_citation_words_quoted_title_or_two_word_term() -> None:
    segments = parse_text("100.1. la double initiative (voir règle 502.25) et le sort (voir règle 111).\n").rules[0].segments
    refs = [i for i, s in enumerate(segments) if isinstance(s, Reference)]
    assert [citation_words(segments, i) for i in refs] == ["double initiative", None]
    titled = parse_text('100.1. Voir règle 212.6, « Terrains ».\n').rules[0].segments
    assert citation_words(titled, 1) == "Terrains"


def test_name_key_ignores_case_accents_plurals_hyphens() -> None:
    assert name_key("Phased-Out") == name_key("phased out")
    assert name_key("« Terrains. »") == name_key("terrain")
    assert name_key("Étape d'entretien") == name_key("etape d entretien")


def _graph(fr: str, en: str) -> RuleGraph:
    docs = (parse_text(fr, edition="x", language="fr"), parse_text(en, edition="x", language="en"))
    edition = Edition(id="x", label="x", released=None, description="",
                      texts=(Text(language="fr", files=()), Text(language="en", files=())))
    return RuleGraph((edition,), docs)


def test_doubt_needs_a_likely_rule() -> None:
    """Words that name no rule of the release are not evidence of a mistake."""
    graph = _graph("100.1. Voir règle 200.1, « Initiative ».\n\n100.2. Voir règle 200.1, « Charabia ».\n",
                   "200. Keywords\n\n200.1. Fear\n\n200.2. First Strike\n")
    found = {d.citing.number: d.likely.number for d in doubts(graph, "x")}
    assert found == {"100.1": "200.2"}  # « initiative » is "first strike" in the glossary


def test_lint_unresolved_is_per_language() -> None:
    graph = _graph("100.1. Voir règle 300.1.\n", "100.1. See rule 300.2.\n\n300.1. Here.\n")
    unresolved = [(f.language, f.number) for f in lint(graph) if f.kind == "unresolved"]
    assert unresolved == [("en", "300.2")]


def test_glossary_found_by_term_translation_and_words(graph: RuleGraph) -> None:
    from judge.corpus.glossary import find, references

    by_term = find(graph, "first strikes", "2004")
    assert [(m.entry.term, m.via) for m in by_term][:1] == [("First Strike", "term")]
    # « initiative » is the French name of first strike (FR↔EN glossary).
    assert [(m.edition, m.entry.term, m.via) for m in find(graph, "initiative")] == [
        ("2004", "First Strike", "lexicon"), ("2010", "First Strike", "lexicon")]
    # 2010's entry is "Mana Burn (Obsolete)": found by its term.
    (burn,) = find(graph, "mana burn", "2010")
    assert burn.via == "term" and "no longer exists" in burn.entry.text
    assert find(graph, "xylophone") == ()
    # Its citations resolve inside its edition.
    (strike_2004,) = [m for m in find(graph, "first strike", "2004") if m.via == "term"]
    targets = [(r.reference.number, r.target.language if r.target else None)
               for r in references(graph, "2004", "en", strike_2004.entry)]
    assert targets == [("502.28", "en"), ("502.2", "en")]
    lines = (source_text.RULES / source_text.EN_2004).read_text(encoding="utf-8").split("\n")
    assert strike_2004.entry.span is not None and lines[strike_2004.entry.span.line - 1] == "First Strike"


def test_cached_doubt_table_equals_finding_them_again(graph: RuleGraph) -> None:
    """`judge rule` reads the doubts from the disk cache: the same as computing them."""
    from judge.corpus import citations

    citations._tables.pop(graph, None)
    first = {(r.edition, r.language, r.number): [(d.reference.number, d.likely.number) for d in rule_doubts(graph, r)]
             for r in graph.all_rules()}
    citations._tables.pop(graph, None)  # now read back from the disk cache
    again = {(r.edition, r.language, r.number): [(d.reference.number, d.likely.number) for d in rule_doubts(graph, r)]
             for r in graph.all_rules()}
    fresh = {(r.edition, r.language, r.number): [(d.reference.number, d.likely.number) for d in citations._find_doubts(graph, r)]
             for r in graph.all_rules()}
    assert first == again == fresh
    assert sum(map(len, fresh.values())) >= 2  # 306.1 in 2004, 107.8 in 2010
