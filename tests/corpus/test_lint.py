"""Lint findings over the real corpus (corpus-notes.md traps) and over small graphs."""

from __future__ import annotations

import pytest

from judge.corpus.graph import RuleGraph
from judge.corpus.lint import Finding, cited_term, lint
from judge.corpus.model import Edition, Text
from judge.corpus.parser import parse_text


def by_kind(findings: tuple[Finding, ...], kind: str, edition: str = "2004") -> dict[str, Finding]:
    return {f.number: f for f in findings if f.kind == kind and f.edition == edition}


def test_lint_unresolved_grouped_by_target(graph: RuleGraph) -> None:
    unresolved = by_kind(lint(graph), "unresolved")
    assert set(unresolved) == {
        "212.6", "217.8", "404", "406", "410", "411", "419.6b", "419.6e", "419.6f", "422", "500",
        "502.2", "502.10", "502.15", "502.25", "502.28",
    }
    assert unresolved["410"].related == ("303.1", "305.3", "307.1", "308.1", "309.1", "310.1")
    assert set(by_kind(lint(graph), "unresolved", "2010")) == {"305", "500.2", "506", "603", "701.21", "904"}


def test_lint_title_conflict_for_410_only(graph: RuleGraph) -> None:
    conflicts = by_kind(lint(graph), "title_conflict")
    assert list(conflicts) == ["410"]  # 303 "Étape d'entretien" vs "Etape d'entretien" is a match
    assert "Gérer les capacité déclenchées" in conflicts["410"].message


def test_lint_double_strike_cited_with_two_numbers(graph: RuleGraph) -> None:
    terms = [f for f in lint(graph) if f.kind == "term_numbers"]
    assert len(terms) == 1
    assert terms[0].related == ("502.25", "502.28")
    assert "double initiative" in terms[0].message


def test_lint_no_gap_or_duplicate_in_corpus(graph: RuleGraph) -> None:
    kinds = {f.kind for f in lint(graph)}
    assert "duplicate" not in kinds and "gap" not in kinds


def _graph(text: str) -> RuleGraph:
    doc = parse_text(text, edition="x")
    edition = Edition(id="x", label="x", released=None, description="", texts=(Text(language="fr", files=()),))
    return RuleGraph((edition,), (doc,))


def test_lint_gap_and_duplicate() -> None:
    findings = lint(_graph("100. A\n\n100.1. a\n\n100.3. c\n\n100.3a. x\n\n100.3c. z\n\n100.1. bis\n"))
    assert {(f.kind, f.number) for f in findings} == {("gap", "100.3"), ("gap", "100.3c"), ("duplicate", "100.1")}


@pytest.mark.parametrize(
    ("before", "term"),
    [("a l'initiative (", "initiative"), ("ou la double initiative (", "double initiative"),
     ("déclarée comme attaquante (", "attaquante")],
)
def test_cited_term(before: str, term: str) -> None:
    assert cited_term(before) == term
