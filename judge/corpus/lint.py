"""Consistency findings over a rule graph (`judge lint`): collected first, then reported.

Unresolved references (grouped by target, per edition and language), doubtful citations
(`judge.corpus.citations`), disagreeing titles for one cited rule, one term cited with
different numbers, numbering gaps and duplicates. Findings, not exceptions.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from judge.corpus.citations import citation_words, doubts
from judge.corpus.documents import Reference, Rule
from judge.corpus.graph import RuleGraph
from judge.corpus.numbers import parent_number, sort_key
from judge.normalize import fold_title
from judge.resources import display_path, embedded


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One inconsistency of the corpus: its `kind`, `severity` ("error", "warning", "info"),
    where it is (`edition`, rule `number`), a French `message` and the `related` rule numbers."""

    kind: str
    severity: str
    edition: str
    number: str
    message: str
    related: tuple[str, ...] = ()
    language: str = ""  # the language of the citing text, where it matters
    # A defect of an embedded text itself (as its publisher wrote it, byte for byte): a note
    # about the source, which no user can fix, not an error of theirs.
    source: bool = False


def lint(graph: RuleGraph) -> tuple[Finding, ...]:
    findings: list[Finding] = []
    for edition in graph.edition_ids:
        for language in graph.edition(edition).languages:
            findings.extend(_unresolved(graph, edition, language))
        findings.extend(_doubtful(graph, edition))
        findings.extend(_title_conflicts(graph, edition))
        findings.extend(_term_numbers(graph, edition))
        findings.extend(_numbering(graph, edition))
    published = {display_path(Path(file)) for edition in graph.editions for text in edition.texts
                 for file in text.files if embedded(Path(file))}
    for rule in graph.duplicates():
        if rule.span is not None and rule.span.file in published:
            findings.append(Finding(
                kind="duplicate", severity="info", edition=rule.edition, number=rule.number, source=True,
                message=f"le texte publié lui-même numérote deux règles {rule.number} ({rule.span}) : "
                        "un défaut de la source telle que publiée, pas une erreur de votre part",
            ))
        else:
            findings.append(Finding(
                kind="duplicate", severity="error", edition=rule.edition, number=rule.number,
                message=f"numéro {rule.number} en double ({rule.span})",
            ))
    return tuple(findings)


def _citations(graph: RuleGraph, edition: str, language: str | None = None) -> list[tuple[Rule, Reference, Rule | None]]:
    out = []
    for rule in graph.rules(edition=edition, language=language):
        for resolved in graph.references(rule):
            out.append((rule, resolved.reference, resolved.target))
    return out


def _unresolved(graph: RuleGraph, edition: str, language: str) -> list[Finding]:
    by_target: dict[str, list[tuple[Rule, Reference]]] = defaultdict(list)
    for rule, ref, target in _citations(graph, edition, language):
        if target is None:
            by_target[ref.number].append((rule, ref))
    findings = []
    for number in sorted(by_target, key=sort_key):
        cites = by_target[number]
        titles = sorted({ref.title for _, ref in cites if ref.title})
        shown = f" « {titles[0]} »" if titles else ""
        sources = ", ".join(dict.fromkeys(rule.number for rule, _ in cites))
        findings.append(
            Finding(
                kind="unresolved",
                severity="warning",
                edition=edition,
                number=number,
                message=(f"règle {number}{shown} citée par {sources} (texte {language}), absente des "
                         f"textes de l'édition {edition}"),
                related=tuple(dict.fromkeys(rule.number for rule, _ in cites)),
                language=language,
            )
        )
    return findings


def _doubtful(graph: RuleGraph, edition: str) -> list[Finding]:
    return [
        Finding(
            kind="doubtful_citation",
            severity="warning",
            edition=edition,
            number=d.reference.number,
            message=d.message,
            related=(d.citing.number, d.likely.number),
            language=d.citing.language,
        )
        for d in doubts(graph, edition)
    ]


def _title_conflicts(graph: RuleGraph, edition: str) -> list[Finding]:
    titles: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for rule, ref, target in _citations(graph, edition):
        if ref.title:
            titles[ref.number][fold_title(ref.title)].append(f"{rule.number} : « {ref.title} »")
            # A title in another language is not a disagreement (see the glossary for that).
            if target is not None and target.title and target.language == rule.language:
                titles[ref.number][fold_title(target.title)].append(
                    f"titre de {target.number} : « {target.title} »"
                )
    findings = []
    for number in sorted(titles, key=sort_key):
        variants = titles[number]
        if len(variants) > 1:
            shown = " ; ".join(dict.fromkeys(v[0] for v in variants.values()))
            findings.append(
                Finding(
                    kind="title_conflict",
                    severity="warning",
                    edition=edition,
                    number=number,
                    message=f"la règle {number} est citée sous des titres différents : {shown}",
                    related=tuple(v for vs in variants.values() for v in vs),
                )
            )
    return findings


def _term_numbers(graph: RuleGraph, edition: str) -> list[Finding]:
    terms: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for rule in graph.rules(edition=edition):
        segments = rule.segments
        for i, seg in enumerate(segments):
            if isinstance(seg, Reference):
                words = citation_words(segments, i)
                if words:
                    terms[fold_title(words) if seg.title else words][seg.number].append(rule.number)
    findings = []
    for term in sorted(terms):
        numbers = terms[term]
        if len(numbers) > 1:
            shown = " ; ".join(f"{n} (dans {', '.join(rs)})" for n, rs in sorted(numbers.items()))
            first = sorted(numbers, key=sort_key)[0]
            findings.append(
                Finding(
                    kind="term_numbers",
                    severity="warning",
                    edition=edition,
                    number=first,
                    message=f"« {term} » est cité avec des numéros différents : {shown}",
                    related=tuple(sorted(numbers, key=sort_key)),
                )
            )
    return findings


def _numbering(graph: RuleGraph, edition: str) -> list[Finding]:
    findings = []
    siblings: dict[str | None, list[str]] = defaultdict(list)
    for rule in graph.rules(edition=edition):
        siblings[parent_number(rule.number)].append(rule.number)
    for parent, numbers in siblings.items():
        numbers.sort(key=sort_key)
        for a, b in itertools.pairwise(numbers):
            gap = _gap(a, b, top=parent is None)
            if gap:
                findings.append(
                    Finding(
                        kind="gap",
                        severity="info",
                        edition=edition,
                        number=b,
                        message=f"numérotation : {gap} entre {a} et {b}",
                    )
                )
    return findings


def _gap(a: str, b: str, *, top: bool) -> str | None:
    ka, kb = sort_key(a), sort_key(b)
    if top:
        return f"sections absentes ({kb[0] - ka[0] - 1})" if kb[0] - ka[0] > 1 else None
    if ka[2] and kb[2]:
        missing = [c for c in map(chr, range(ord(ka[2][-1]) + 1, ord(kb[2][-1]))) if c not in "lo"]
        return f"sous-règles absentes ({', '.join(missing)})" if missing else None
    if not ka[2] and not kb[2] and kb[1] - ka[1] > 1:
        return f"règles absentes ({kb[1] - ka[1] - 1})"
    return None
