"""Lint findings over the real corpus (corpus-notes.md traps) and over small graphs."""

from __future__ import annotations

import pytest
from source_text import EN_2004, EN_2010, FR_2004, FR_2010, numbered

from judge.corpus.citations import cited_term
from judge.corpus.documents import Edition, Text
from judge.corpus.graph import RuleGraph
from judge.corpus.lint import Finding, lint
from judge.corpus.parser import parse_text


def by_kind(findings: tuple[Finding, ...], kind: str, edition: str = "2004") -> dict[str, Finding]:
    return {f.number: f for f in findings if f.kind == kind and f.edition == edition}


def test_lint_no_unresolved_reference_with_both_languages(graph: RuleGraph) -> None:
    """Every number the French texts cite is a numbered line of that release's French or
    English text, so nothing is left unresolved."""
    for edition, french, english in (("2004", FR_2004, EN_2004), ("2010", FR_2010, EN_2010)):
        known = {n for name in (*french, english) for _, n in numbered(name)}
        cited = {ref.number for rule in graph.rules(edition, "fr") for ref in rule.references}
        assert cited and cited <= known
        assert by_kind(lint(graph), "unresolved", edition) == {}


def test_lint_unresolved_grouped_by_target() -> None:
    graph = _graph("100.1. Voir règle 410, « Gérer ».\n\n100.2. Voir règle 410 et règle 999.\n")
    unresolved = by_kind(lint(graph), "unresolved", "x")
    assert set(unresolved) == {"410", "999"}
    assert unresolved["410"].related == ("100.1", "100.2")
    assert "« Gérer »" in unresolved["410"].message


def test_lint_title_conflict_for_410_only(graph: RuleGraph) -> None:
    conflicts = by_kind(lint(graph), "title_conflict")
    assert list(conflicts) == ["410"]  # 303 "Étape d'entretien" vs "Etape d'entretien" is a match
    assert "Gérer les capacité déclenchées" in conflicts["410"].message


def test_lint_double_strike_cited_with_two_numbers(graph: RuleGraph) -> None:
    terms = [f for f in lint(graph) if f.kind == "term_numbers"]
    assert len(terms) == 1
    assert terms[0].related == ("502.25", "502.28")
    assert "double initiative" in terms[0].message


def test_lint_no_gap_and_only_the_sources_duplicates(graph: RuleGraph) -> None:
    """The English 2004 text numbers two rules 502.35b (modular's and scry's): lint says so."""
    findings = lint(graph)
    assert "gap" not in {f.kind for f in findings}
    repeated = set()
    for edition, names in (("2004", (*FR_2004, EN_2004)), ("2010", (*FR_2010, EN_2010))):
        for name in names:
            seen: set[str] = set()
            for _, number in numbered(name):
                if number in seen:
                    repeated.add((edition, number))
                seen.add(number)
    assert repeated == {("2004", "502.35b")}
    assert {(f.edition, f.number) for f in findings if f.kind == "duplicate"} == repeated
    # the publisher's own text: a note about the source (no error, `--strict` passes over it)
    assert {(f.severity, f.source) for f in findings if f.kind == "duplicate"} == {("info", True)}


def _graph(text: str) -> RuleGraph:
    doc = parse_text(text, edition="x")
    edition = Edition(id="x", label="x", released=None, description="", texts=(Text(language="fr", files=()),))
    return RuleGraph((edition,), (doc,))


def test_lint_gap_and_duplicate() -> None:
    findings = lint(_graph("100. A\n\n100.1. a\n\n100.3. c\n\n100.3a. x\n\n100.3c. z\n\n100.1. bis\n"))
    assert {(f.kind, f.number) for f in findings} == {("gap", "100.3"), ("gap", "100.3c"), ("duplicate", "100.1")}
    # a text of the user's: their error, not a note about a published source
    assert [(f.severity, f.source) for f in findings if f.kind == "duplicate"] == [("error", False)]


@pytest.mark.parametrize(
    ("before", "term"),
    [("a l'initiative (", "initiative"), ("ou la double initiative (", "double initiative"),
     ("déclarée comme attaquante (", "attaquante")],
)
def test_cited_term(before: str, term: str) -> None:
    assert cited_term(before) == term
