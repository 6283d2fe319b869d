"""Consistency findings over a rule graph (`judge lint`): collected first, then reported.

Unresolved references (grouped by target), disagreeing titles for one cited rule, one
term cited with different numbers, numbering gaps and duplicates. Findings, not exceptions.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from dataclasses import dataclass

from judge.corpus.graph import RuleGraph
from judge.corpus.model import Plain, Reference, Rule, parent_number, sort_key
from judge.normalize import fold, fold_title

_LEADING_STOP = {
    "a", "la", "le", "les", "l", "ou", "et", "de", "du", "des", "d", "une", "un", "has", "or", "and",
    "the", "with", "comme",
}
_WORD = re.compile(r"[\w'’-]+")


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    kind: str
    severity: str
    edition: str
    number: str
    message: str
    related: tuple[str, ...] = ()


def lint(graph: RuleGraph) -> tuple[Finding, ...]:
    findings: list[Finding] = []
    for edition in graph.edition_ids:
        findings.extend(_unresolved(graph, edition))
        findings.extend(_title_conflicts(graph, edition))
        findings.extend(_term_numbers(graph, edition))
        findings.extend(_numbering(graph, edition))
    for rule in graph.duplicates():
        findings.append(
            Finding(
                kind="duplicate",
                severity="error",
                edition=rule.edition,
                number=rule.number,
                message=f"numéro {rule.number} en double ({rule.span})",
            )
        )
    return tuple(findings)


def _citations(graph: RuleGraph, edition: str) -> list[tuple[Rule, Reference, Rule | None]]:
    out = []
    for rule in graph.rules(edition=edition, language=None):
        for resolved in graph.references(rule):
            out.append((rule, resolved.reference, resolved.target))
    return out


def _unresolved(graph: RuleGraph, edition: str) -> list[Finding]:
    by_target: dict[str, list[tuple[Rule, Reference]]] = defaultdict(list)
    for rule, ref, target in _citations(graph, edition):
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
                message=f"règle {number}{shown} citée par {sources}, absente du corpus de l'édition {edition}",
                related=tuple(dict.fromkeys(rule.number for rule, _ in cites)),
            )
        )
    return findings


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


def cited_term(before: str) -> str | None:
    """The term a parenthesised citation explains: `la double initiative (voir` -> `double initiative`."""
    head = before.rstrip()
    if not head.endswith("("):
        return None
    words = _WORD.findall(fold(head[:-1]))[-4:]
    words = [w.split("'")[-1] for w in words]
    while words and words[0] in _LEADING_STOP:
        words.pop(0)
    kept = [w for w in words if w not in _LEADING_STOP]
    # Keep the noun phrase right before the parenthesis: at most two content words.
    tail: list[str] = []
    for word in reversed(words):
        if word in _LEADING_STOP:
            break
        tail.insert(0, word)
    term = " ".join(tail[-2:] if tail else kept[-2:])
    return term or None


def _term_numbers(graph: RuleGraph, edition: str) -> list[Finding]:
    terms: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for rule in graph.rules(edition=edition):
        segments = rule.segments
        for i, seg in enumerate(segments):
            if not isinstance(seg, Reference):
                continue
            if seg.title:
                terms[fold_title(seg.title)][seg.number].append(rule.number)
                continue
            if i >= 1 and isinstance(segments[i - 1], Plain):
                before = segments[i - 1].text
                cut = before.rfind("(")
                if cut >= 0 and re.fullmatch(r"\(\s*(?:voir|cf\.?|see)\s+(?:la\s+)?(?:règles?|rules?)?\s*",
                                             before[cut:], re.IGNORECASE):
                    term = cited_term(before[: cut + 1])
                    if term:
                        terms[term][seg.number].append(rule.number)
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
