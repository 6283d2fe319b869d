"""The stable `--json` shapes (docs/cli.md) and the French human renderings of rules.

Shared by the CLI and the web server so that both print the same thing.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from judge.corpus.citations import Doubt, rule_doubts
from judge.corpus.documents import Document, Rule
from judge.corpus.gloss import GLOSS_PREFIX, gloss_line, glosses
from judge.corpus.glossary import GlossaryMatch
from judge.corpus.glossary import references as glossary_references
from judge.corpus.graph import RuleGraph
from judge.corpus.languages import display_rank, language_name

if TYPE_CHECKING:  # lint is not needed to show a rule: keep `judge rule` start-up light
    from judge.corpus.lint import Finding

ChecksFor = Callable[[str, str], tuple[str, ...]]


def _no_checks(edition: str, number: str) -> tuple[str, ...]:
    return ()


def _doubt_json(doubt: Doubt | None) -> dict[str, Any] | None:
    if doubt is None:
        return None
    return {
        "words": doubt.words,
        "cited_names": list(doubt.cited_names),
        "likely": doubt.likely.number,
        "likely_title": doubt.likely.heading,
        "likely_language": doubt.likely.language,
        "message": doubt.note,
    }


def _doubts(graph: RuleGraph, rule: Rule) -> dict[int, Doubt]:
    """The rule's doubtful citations, by the identity of their `Reference`."""
    return {id(d.reference): d for d in rule_doubts(graph, rule)}


def only_language(graph: RuleGraph, rule: Rule) -> str | None:
    """`en` for a rule that its edition, which has several languages, has only in English."""
    if len(graph.edition(rule.edition).languages) > 1 and not graph.translations(rule):
        return rule.language
    return None


def rule_json(graph: RuleGraph, rule: Rule, checks_for: ChecksFor = _no_checks, *,
              with_translations: bool = True) -> dict[str, Any]:
    """A rule in the `judge rule --json` shape (docs/cli.md); `translations` holds the same
    number in the other languages of the release, each in this very shape."""
    parent = graph.parent(rule)
    removed_in = graph.removed_in(rule)
    doubts = _doubts(graph, rule)
    return {
        "edition": rule.edition,
        "language": rule.language,
        "number": rule.number,
        "title": rule.title,
        "text": rule.text,
        "status": rule.status,
        "only_language": only_language(graph, rule),
        "notes": list(rule.notes),
        "removed_in": [e.id for e in removed_in],
        "removed_by": [e.removed_by for e in removed_in],
        "parent": parent.number if parent else None,
        "children": [c.number for c in graph.children(rule)],
        "previous": (p.number if (p := graph.previous(rule)) else None),
        "next": (n.number if (n := graph.next(rule)) else None),
        "examples": [e.text for e in rule.examples],
        # the French names of the text's terms (English-only rule), beside the text, never in it
        "glosses": [{"term": g.english, "fr": g.french, "defined_by": list(g.defined_by)}
                    for g in glosses(graph, rule)],
        "references": [
            {
                "number": r.reference.number,
                "title": r.reference.title,
                "range_end": r.reference.range_end,
                "resolved": r.target is not None,
                "edition": r.target.edition if r.target else None,
                "language": r.target.language if r.target else None,
                "doubt": _doubt_json(doubts.get(id(r.reference))),
            }
            for r in graph.references(rule)
        ],
        "referenced_by": [
            {"edition": b.edition, "number": b.number, "language": b.language}
            for b in graph.backlinks(rule)
        ],
        "translations": [rule_json(graph, t, checks_for, with_translations=False)
                         for t in graph.translations(rule)] if with_translations else [],
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


def _target_text(rule: Rule, target: Rule | None) -> str:
    """Where a reference leads, when that is not plain: absent, or in another language."""
    if target is None:
        return " — absente du corpus"
    if target.language == rule.language:
        return ""
    name = f" {target.heading}" if target.heading else ""
    return f" — {target.number}.{name} (texte {language_name(target.language)})"


def rule_text(graph: RuleGraph, rule: Rule, checks_for: ChecksFor = _no_checks, *, brief: bool = False,
              with_translations: bool = True) -> str:
    """A rule as a judge reads it in a terminal, in French; then the same number in the other
    languages of the release (English: « la version anglophone fait foi »). `brief`: its
    heading, notes, text and examples only."""
    lines = _said(graph, rule) if brief else [*_said(graph, rule), *_details(graph, rule, checks_for)]
    blocks = [(rule.language, "\n".join(lines))]
    if with_translations:
        blocks.extend((t.language, rule_text(graph, t, checks_for, brief=brief, with_translations=False))
                      for t in graph.translations(rule))
    return "\n\n".join(block for _, block in sorted(blocks, key=lambda b: display_rank(b[0])))


def _said(graph: RuleGraph, rule: Rule) -> list[str]:
    """What the rule says: its heading line (edition, language, marks), notes, removals, text
    (with the French names of its English terms) and examples."""
    head = f"{rule.number}. {rule.title}" if rule.title else f"{rule.number}."
    tag = rule.edition if rule.language == graph.primary_language(rule.edition) else f"{rule.edition} · {rule.language}"
    marks = ("  (HISTORIQUE)" if rule.status == "historical" else "")
    only = only_language(graph, rule)
    if only is not None:
        marks += f"  (texte {language_name(only)} seulement)"
    lines = [f"[{tag}] {head}{marks}"]
    lines.extend(f"  Note : {note}" for note in rule.notes)
    for edition in graph.removed_in(rule):
        by = f" par {edition.removed_by}" if edition.removed_by else ""
        lines.append(f"  Supprimée{by} : absente de l'édition {edition.id} ({edition.label}).")
    if rule.text:
        lines.append(_wrap(rule.text, "  "))
        found = glosses(graph, rule)
        if found:
            lines.append(GLOSS_PREFIX + gloss_line(found))
    lines.extend(_wrap(f"Exemple : {example.text}", "    ") for example in rule.examples)
    return lines


def _details(graph: RuleGraph, rule: Rule, checks_for: ChecksFor) -> list[str]:
    """Where the rule leads and what leads to it: references (with their doubts), the rules
    citing it, its parent, its executable checks, its source line."""
    lines: list[str] = []
    refs = graph.references(rule)
    doubts = _doubts(graph, rule)
    if refs:
        lines.append("  Renvois :")
        for r in refs:
            title = f" « {r.reference.title} »" if r.reference.title else ""
            lines.append(f"    → {r.reference.number}{title}{_target_text(rule, r.target)}")
            doubt = doubts.get(id(r.reference))
            if doubt is not None:
                lines.append(f"      ⚠ {doubt.note}")
    backlinks = graph.backlinks(rule)
    if backlinks:
        lines.append("  Citée par : " + ", ".join(b.number for b in backlinks))
    parent = graph.parent(rule)
    if parent is not None:
        lines.append(f"  Règle parente : {parent.number}")
    checks = checks_for(rule.edition, rule.number) if rule.language == graph.primary_language(rule.edition) else ()
    if checks:
        lines.append("  Vérifications exécutables (judge check) :")
        lines.extend(f"    – {check}" for check in checks)
    if rule.span:
        lines.append(f"  Source : {rule.span.file}:{rule.span.line}")
    return lines


def glossary_json(graph: RuleGraph, matches: tuple[GlossaryMatch, ...]) -> list[dict[str, Any]]:
    """The `judge glossary --json` shape (docs/cli.md)."""
    return [
        {
            "edition": m.edition,
            "language": m.language,
            "term": m.entry.term,
            "text": m.entry.text,
            "found_by": m.via,
            "references": [
                {"number": r.reference.number, "title": r.reference.title, "resolved": r.target is not None,
                 "language": r.target.language if r.target else None}
                for r in glossary_references(graph, m.edition, m.language, m.entry)
            ],
            "source": {"file": m.entry.span.file if m.entry.span else None,
                       "line": m.entry.span.line if m.entry.span else None},
        }
        for m in matches
    ]


def glossary_text(graph: RuleGraph, matches: tuple[GlossaryMatch, ...]) -> str:
    """Glossary entries as a judge reads them in a terminal."""
    blocks = []
    for m in matches:
        lines = [f"[{m.edition} · {m.language}] {m.entry.term}  (glossaire)"]
        lines.append(_wrap(m.entry.text, "  "))
        refs = glossary_references(graph, m.edition, m.language, m.entry)
        if refs:
            lines.append("  Renvois : " + ", ".join(
                r.reference.number + ("" if r.target else " (absente)") for r in refs))
        if m.entry.span:
            lines.append(f"  Source : {m.entry.span.file}:{m.entry.span.line}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


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
                "language": f.language or None,
                "source": f.source,
            }
            for f in findings
        ]
    }


_SEVERITY_FR = {"error": "erreur", "warning": "avertissement", "info": "info"}


def lint_text(findings: tuple[Finding, ...]) -> str:
    if not findings:
        return "Aucune incohérence trouvée."
    lines = [
        f"[{f.edition}{' ' + f.language if f.language else ''}] "
        f"{'note sur la source' if f.source else _SEVERITY_FR.get(f.severity, f.severity)} ({f.kind}) "
        f"{f.number} : {f.message}"
        for f in findings
    ]
    if not any(f.kind == "unresolved" for f in findings):
        lines.append("Renvois non résolus : aucun (chaque renvoi mène à une règle de son édition).")
    lines.append(f"{len(findings)} constat(s).")
    return "\n".join(lines)
