"""The stable `--json` shapes (docs/cli.md) and the French human renderings of rules.

Shared by the CLI and the web server so that both print the same thing.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from judge.corpus.graph import RuleGraph
from judge.corpus.model import Document, Rule

if TYPE_CHECKING:  # lint is not needed to show a rule: keep `judge rule` start-up light
    from judge.corpus.lint import Finding

ChecksFor = Callable[[str, str], tuple[str, ...]]


def _no_checks(edition: str, number: str) -> tuple[str, ...]:
    return ()


def rule_json(graph: RuleGraph, rule: Rule, checks_for: ChecksFor = _no_checks) -> dict[str, Any]:
    parent = graph.parent(rule)
    removed_in = graph.removed_in(rule)
    return {
        "edition": rule.edition,
        "language": rule.language,
        "number": rule.number,
        "title": rule.title,
        "text": rule.text,
        "status": rule.status,
        "notes": list(rule.notes),
        "removed_in": [e.id for e in removed_in],
        "removed_by": [e.removed_by for e in removed_in],
        "parent": parent.number if parent else None,
        "children": [c.number for c in graph.children(rule)],
        "previous": (p.number if (p := graph.previous(rule)) else None),
        "next": (n.number if (n := graph.next(rule)) else None),
        "examples": [e.text for e in rule.examples],
        "references": [
            {
                "number": r.reference.number,
                "title": r.reference.title,
                "range_end": r.reference.range_end,
                "resolved": r.target is not None,
                "edition": r.target.edition if r.target else None,
                "language": r.target.language if r.target else None,
            }
            for r in graph.references(rule)
        ],
        "referenced_by": [
            {"edition": b.edition, "number": b.number, "language": b.language}
            for b in graph.backlinks(rule)
        ],
        "translations": [{"language": t.language, "text": t.text, "title": t.title}
                         for t in graph.translations(rule)],
        "checks": list(checks_for(rule.edition, rule.number)),
        "source": {
            "file": rule.span.file if rule.span else None,
            "line": rule.span.line if rule.span else None,
        },
    }


def _wrap(text: str, indent: str) -> str:
    return "\n".join(
        textwrap.fill(p, width=88, initial_indent=indent, subsequent_indent=indent) for p in text.split("\n")
    )


_LANGUAGE_FR = {"fr": "français", "en": "anglais"}


def _target_text(rule: Rule, target: Rule | None) -> str:
    """Where a reference leads, when that is not plain: absent, or in another language."""
    if target is None:
        return " — absente du corpus"
    if target.language == rule.language:
        return ""
    name = f" {target.heading}" if target.heading else ""
    return f" — {target.number}.{name} (texte {_LANGUAGE_FR.get(target.language, target.language)})"


def rule_text(graph: RuleGraph, rule: Rule, checks_for: ChecksFor = _no_checks, *, brief: bool = False) -> str:
    """A rule as a judge reads it in a terminal, in French."""
    head = f"{rule.number}. {rule.title}" if rule.title else f"{rule.number}."
    lines = [f"[{rule.edition}] {head}" + ("  (HISTORIQUE)" if rule.status == "historical" else "")]
    for note in rule.notes:
        lines.append(f"  Note : {note}")
    for edition in graph.removed_in(rule):
        by = f" par {edition.removed_by}" if edition.removed_by else ""
        lines.append(f"  Supprimée{by} : absente de l'édition {edition.id} ({edition.label}).")
    if rule.text:
        lines.append(_wrap(rule.text, "  "))
    for example in rule.examples:
        lines.append(_wrap(f"Exemple : {example.text}", "    "))
    if brief:
        return "\n".join(lines)
    refs = graph.references(rule)
    if refs:
        lines.append("  Renvois :")
        for r in refs:
            title = f" « {r.reference.title} »" if r.reference.title else ""
            lines.append(f"    → {r.reference.number}{title}{_target_text(rule, r.target)}")
    backlinks = graph.backlinks(rule)
    if backlinks:
        lines.append("  Citée par : " + ", ".join(b.number for b in backlinks))
    parent = graph.parent(rule)
    if parent is not None:
        lines.append(f"  Règle parente : {parent.number}")
    checks = checks_for(rule.edition, rule.number)
    if checks:
        lines.append("  Vérifications exécutables : " + ", ".join(checks))
    if rule.span:
        lines.append(f"  Source : {rule.span.file}:{rule.span.line}")
    return "\n".join(lines)


def parse_json(doc: Document) -> dict[str, Any]:
    return {
        "file": doc.file,
        "encoding": doc.encoding,
        "language": doc.language,
        "title": doc.title,
        "effective": doc.effective,
        "rules": len(doc.rules),
        "examples": doc.examples,
        "references": doc.reference_count,
        "glossary": len(doc.glossary),
        "historical": [r.number for r in doc.rules if r.status == "historical"],
        "unparsed": [{"line": u.line, "kind": u.kind, "text": u.text} for u in doc.unparsed],
    }


def parse_text_report(doc: Document) -> str:
    lines = [
        f"Fichier : {doc.file} (encodage {doc.encoding}, langue {doc.language})",
        f"  Règles et sections : {len(doc.rules)}",
        f"  Exemples : {doc.examples}",
        f"  Renvois : {doc.reference_count}",
        f"  Entrées du glossaire : {len(doc.glossary)}",
    ]
    historical = [r.number for r in doc.rules if r.status == "historical"]
    if historical:
        lines.append(f"  Règles historiques : {', '.join(historical)}")
    if doc.unparsed:
        lines.append(f"  Lignes non placées : {len(doc.unparsed)}")
        lines.extend(f"    ligne {u.line} : {u.text[:70]}" for u in doc.unparsed)
    else:
        lines.append("  Toutes les lignes ont été placées.")
    return "\n".join(lines)


def lint_json(findings: tuple[Finding, ...]) -> dict[str, Any]:
    return {
        "findings": [
            {
                "kind": f.kind,
                "severity": f.severity,
                "edition": f.edition,
                "number": f.number,
                "message": f.message,
                "related": list(f.related),
            }
            for f in findings
        ]
    }


_SEVERITY_FR = {"error": "erreur", "warning": "avertissement", "info": "info"}


def lint_text(findings: tuple[Finding, ...]) -> str:
    if not findings:
        return "Aucune incohérence trouvée."
    lines = [
        f"[{f.edition}] {_SEVERITY_FR.get(f.severity, f.severity)} ({f.kind}) {f.number} : {f.message}"
        for f in findings
    ]
    lines.append(f"{len(findings)} constat(s).")
    return "\n".join(lines)
