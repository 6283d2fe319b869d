"""A rule's history across editions, the changes between two editions, and word-level diffs.

Built on `judge.corpus.concordance` (consecutive editions in release order, the main
counterpart followed from one to the next). Owns the stable `--json` shapes of
`judge history` and `judge diff` (docs/cli.md) and their French text renderings, shared by
the CLI, the site and the web app.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from judge.corpus.concordance import Change, Concordance, Pair, concordance
from judge.corpus.documents import Rule
from judge.corpus.graph import RuleGraph
from judge.corpus.languages import language_name
from judge.corpus.numbers import sort_key
from judge.errors import JudgeError, NotFound

CHANGE_LABELS: dict[str, str] = {
    "same": "identique",
    "renumbered": "renumérotée",
    "edited": "modifiée",
    "split": "scindée",
    "merged": "fusionnée",
    "removed": "supprimée",
    "added": "ajoutée",
}
DiffOp = tuple[Literal["=", "-", "+"], str]
_TOKEN = re.compile(r"\S+\s*")


def change_label(change: str) -> str:
    return CHANGE_LABELS.get(change, change)


def evidence(pair: Pair) -> str:
    """Why two rules are paired, in French: the method that found the pair and its similarity
    (the share of words in common), or a reviewed correction. One wording for `judge history`,
    `judge diff --json`, the SQLite export (its `method` column) and the book."""
    score = f"{round(pair.similarity * 100)} % de mots communs"
    return {
        "exact": "texte identique",
        "title": "même titre",
        "similar": f"texte semblable ({score})",
        "family": f"sous-règle de la règle correspondante (même titre), texte semblable ({score})",
        "context": f"à sa place entre deux règles appariées, texte semblable ({score})",
        "passage": f"passage repris, texte semblable ({score})",
        "restated": f"même énoncé qu'une règle déjà appariée ({score})",
        "leftover": f"seules règles restées sans contrepartie à cette place ({score})",
        "structure": "titre dont les règles sont passées sous celui-ci",
        "override": "correction revue (motif ci-dessous)",
    }.get(pair.method, f"{pair.method} ({score})")


def word_diff(old: str, new: str) -> tuple[DiffOp, ...]:
    """Word-level diff: runs of kept ("="), deleted ("-") and inserted ("+") text."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    matcher = difflib.SequenceMatcher(None, [t.rstrip() for t in a], [t.rstrip() for t in b], autojunk=False)
    out: list[DiffOp] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.append(("=", "".join(b[j1:j2])))
            continue
        if i2 > i1:  # after the new text's last word, the old one goes on: keep a space
            joint = " " if out and not out[-1][1][-1:].isspace() else ""
            out.append(("-", joint + "".join(a[i1:i2])))
        if j2 > j1:
            out.append(("+", "".join(b[j1:j2])))
    return tuple(out)


def diff_markup(ops: Iterable[DiffOp]) -> str:
    """`[-deleted-]{+inserted+}` in plain text, as `git diff --word-diff=plain` writes it."""
    parts = []
    for op, text in ops:
        core, tail = text.rstrip(), text[len(text.rstrip()):]
        parts.append(text if op == "=" else (f"[-{core}-]{tail}" if op == "-" else f"{{+{core}+}}{tail}"))
    return "".join(parts).strip()


def full_text(rule: Rule) -> str:
    """Title and text of a rule as one string (a section line is its title)."""
    if rule.title and rule.text and rule.text != rule.title:
        return f"{rule.title}. {rule.text}"
    return rule.text or rule.title or ""


# ---------------------------------------------------------------------- a rule's history
@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """A rule in one edition; change, similarity and diff relative to the previous step."""

    edition: str
    rule: Rule | None  # None: no counterpart in this edition
    also: tuple[str, ...] = ()  # the other counterparts (split, merge)
    change: Change | None = None
    similarity: float | None = None
    diff: tuple[DiffOp, ...] = ()
    reason: str = ""
    method: str = ""  # how the pair was found (judge.corpus.align, or "override")
    evidence: str = ""  # the same in French (`evidence`)


@dataclass(frozen=True, slots=True, kw_only=True)
class History:
    """A rule of one edition followed through every edition, oldest first."""

    edition: str
    number: str
    language: str
    steps: tuple[Step, ...]


def chronological(graph: RuleGraph) -> tuple[str, ...]:
    ids = graph.edition_ids
    return tuple(sorted(ids, key=lambda e: (graph.edition(e).released or "", ids.index(e))))


def history(graph: RuleGraph, edition: str, number: str) -> History:
    """The rule `number` of `edition`, its predecessors and its successors (main counterparts)."""
    editions = chronological(graph)
    start = editions.index(graph.edition(edition).id)
    language = _language(graph, editions)
    root = graph.get(edition, number, language)
    if root is None:
        raise NotFound(f"règle {number} absente de l'édition {edition} (texte comparé : {language})")
    chain: dict[str, Rule | None] = {edition: root}
    also: dict[str, tuple[str, ...]] = {}
    current: Rule = root
    for older in reversed(editions[:start]):
        sources = concordance(graph, older, current.edition).sources(current.number)
        also[older] = tuple(p.source for p in sources[1:])
        if not sources:
            chain[older] = None
            break
        current = chain[older] = graph.require(older, sources[0].source, language)
    current = root
    for newer in editions[start + 1:]:
        targets = concordance(graph, current.edition, newer).counterparts(current.number)
        also[newer] = tuple(p.target for p in targets[1:])
        if not targets:
            chain[newer] = None
            break
        current = chain[newer] = graph.require(newer, targets[0].target, language)
    order = [e for e in editions if e in chain]
    steps = [Step(edition=order[0], rule=chain[order[0]], also=also.get(order[0], ()))]
    for before, after in itertools.pairwise(order):
        steps.append(_step(graph, before, chain[before], after, chain[after], also.get(after, ())))
    return History(edition=edition, number=number, language=language, steps=tuple(steps))


def _step(graph: RuleGraph, before: str, old: Rule | None, after: str, new: Rule | None,
          also: tuple[str, ...]) -> Step:
    """The rule of edition `after` seen from the rule of edition `before`."""
    table = concordance(graph, before, after)
    if old is None:
        assert new is not None
        return Step(edition=after, rule=new, also=also, change="added",
                    reason=table.reason(after, new.number))
    if new is None:
        return Step(edition=after, rule=None, change="removed", reason=table.reason(before, old.number))
    pair = next(p for p in table.counterparts(old.number) if p.target == new.number)
    return Step(edition=after, rule=new, also=also, change=pair.change, similarity=pair.similarity,
                diff=word_diff(full_text(old), full_text(new)),
                reason=table.reason(before, old.number) or table.reason(after, new.number),
                method=pair.method, evidence=evidence(pair))


def _language(graph: RuleGraph, editions: tuple[str, ...]) -> str:
    shared = set(graph.edition(editions[0]).languages)
    for edition in editions[1:]:
        shared &= set(graph.edition(edition).languages)
    if not shared:
        raise JudgeError("les éditions n'ont aucune langue en commun : pas d'historique")
    return "en" if "en" in shared else sorted(shared)[0]


def histories(graph: RuleGraph, number: str, edition: str | None = None) -> tuple[History, ...]:
    """`judge history`: one history per edition that has this number (or the given edition)."""
    editions = (graph.edition(edition).id,) if edition else chronological(graph)
    language = _language(graph, chronological(graph))
    found = tuple(history(graph, e, number) for e in editions if graph.get(e, number, language))
    if not found:
        where = f"de l'édition {edition}" if edition else f"des éditions {', '.join(editions)}"
        raise NotFound(f"règle {number} absente {where} (texte comparé : {language})")
    return found


# ---------------------------------------------------------------------- output: judge history
def _rule_texts(graph: RuleGraph, rule: Rule) -> dict[str, str]:
    """The rule's text in each language of its edition, primary language first."""
    out = {}
    for language in graph.edition(rule.edition).languages:
        other = graph.get(rule.edition, rule.number, language)
        if other is not None:
            out[language] = full_text(other)
    return out


def history_json(graph: RuleGraph, item: History) -> dict[str, Any]:
    return {
        "edition": item.edition,
        "number": item.number,
        "language": item.language,
        "steps": [
            {
                "edition": step.edition,
                "number": step.rule.number if step.rule else None,
                "title": step.rule.title if step.rule else None,
                "texts": _rule_texts(graph, step.rule) if step.rule else {},
                "change": step.change,
                "similarity": step.similarity,
                "also": list(step.also),
                "diff": [{"op": op, "text": text} for op, text in step.diff],
                "reason": step.reason or None,
                "method": step.method or None,
                "evidence": step.evidence or None,
            }
            for step in item.steps
        ],
    }


def _percent(similarity: float | None) -> str:
    return "" if similarity is None else f" (similarité {round(similarity * 100)} %)"


def history_text(graph: RuleGraph, item: History) -> str:
    lines = [f"Historique de la règle {item.number} (édition {item.edition}) — concordance sur le texte "
             f"{language_name(item.language)}"]
    for step in item.steps:
        label = graph.edition(step.edition).label
        if step.rule is None:
            what = "supprimée" if step.change == "removed" else "absente"
            lines.append(f"\n{step.edition} — {what} ({label})")
        else:
            change = f" : {change_label(step.change)}{_percent(step.similarity)}" if step.change else ""
            title = f" « {step.rule.title} »" if step.rule.title else ""
            lines.append(f"\n{step.edition} — {step.rule.number}{title}{change} ({label})")
            if step.evidence:
                lines.append(f"  appariement : {step.evidence}")
            if step.also:
                lines.append(f"  aussi : {', '.join(step.also)}")
            shown = diff_markup(step.diff) if step.diff else full_text(step.rule)
            lines.extend(_wrap(shown))
            primary = graph.primary_language(step.edition)
            if primary != item.language and (translated := graph.get(step.edition, step.rule.number, primary)):
                lines.extend(_wrap(f"[{primary}] {full_text(translated)}"))
        if step.reason:
            lines.extend(_wrap(f"Motif (revu) : {step.reason}"))
    return "\n".join(lines)


def _wrap(text: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width=96, initial_indent="  ", subsequent_indent="  ",
                         break_long_words=False, break_on_hyphens=False) or ["  "]


# ---------------------------------------------------------------------- output: judge diff
@dataclass(frozen=True, slots=True, kw_only=True)
class Changes:
    """What `judge diff` shows: the pairs, removed and added rules, optionally for one section."""

    table: Concordance
    section: str | None
    pairs: tuple[Pair, ...]
    removed: tuple[str, ...]
    added: tuple[str, ...]


def section_of(number: str) -> str:
    return number.split(".", 1)[0]


def changes(graph: RuleGraph, first: str, second: str, section: str | None = None) -> Changes:
    """`first` -> `second`; with `section`, that section of `first` and what it became."""
    table = concordance(graph, first, second)
    if section is None:
        return Changes(table=table, section=None, pairs=table.pairs, removed=table.removed,
                       added=table.added)
    if not any(section_of(r.number) == section for r in graph.rules(table.source, table.language)):
        raise NotFound(f"section {section} absente de l'édition {table.source} (texte comparé : {table.language})")
    pairs = tuple(p for p in table.pairs if section_of(p.source) == section)
    landed = {section_of(p.target) for p in pairs}
    return Changes(
        table=table, section=section, pairs=pairs,
        removed=tuple(n for n in table.removed if section_of(n) == section),
        added=tuple(n for n in table.added if section_of(n) in landed),
    )


def changes_json(item: Changes) -> dict[str, Any]:
    table = item.table
    return {
        "from": table.source,
        "to": table.target,
        "language": table.language,
        "section": item.section,
        "pairs": [{"from": p.source, "to": p.target, "change": p.change, "similarity": p.similarity,
                   "main": p.main, "method": p.method, "evidence": evidence(p)} for p in item.pairs],
        "removed": list(item.removed),
        "added": list(item.added),
        "reasons": [{"edition": e, "number": n, "reason": why} for e, n, why in table.reasons],
    }


def grouped(item: Changes) -> list[tuple[str, list[Pair], list[str], list[str]]]:
    """(section of the older edition, its pairs, its removed rules, added rules landing there)."""
    groups: dict[str, tuple[list[Pair], list[str], list[str]]] = {}
    home: dict[str, str] = {}
    for pair in item.pairs:
        groups.setdefault(section_of(pair.source), ([], [], []))[0].append(pair)
        home.setdefault(section_of(pair.target), section_of(pair.source))
    for number in item.removed:
        groups.setdefault(section_of(number), ([], [], []))[1].append(number)
    for number in item.added:
        key = home.get(section_of(number), f"+{section_of(number)}")
        groups.setdefault(key, ([], [], []))[2].append(number)

    def order(key: str) -> tuple[bool, int]:
        return (key.startswith("+"), sort_key(key.lstrip("+"))[0])

    return [(key, *groups[key]) for key in sorted(groups, key=order)]


def changes_text(graph: RuleGraph, item: Changes) -> str:
    table = item.table
    counts: dict[str, int] = {}
    for pair in item.pairs:
        if pair.main:
            counts[pair.change] = counts.get(pair.change, 0) + 1
    summary = ", ".join(f"{n} {change_label(c)}{'s' if n > 1 else ''}" for c, n in counts.items())
    where = f", section {item.section}" if item.section else ""
    lines = [f"Changements {table.source} → {table.target}{where} (concordance sur le texte "
             f"{language_name(table.language)}) : {summary}, "
             f"{len(item.removed)} supprimée{'s' if len(item.removed) > 1 else ''}, "
             f"{len(item.added)} ajoutée{'s' if len(item.added) > 1 else ''}"]
    for key, pairs, removed, added in grouped(item):
        targets = sorted({section_of(p.target) for p in pairs}, key=sort_key)
        title = (f"Section {key} → {', '.join(targets)}" if not key.startswith("+")
                 else f"Section {key[1:]} ({table.target}, sans équivalent)")
        lines.append(f"\n{title}")
        for pair in pairs:
            arrow = "→" if pair.main else "  +"
            sim = f"{round(pair.similarity * 100)} %"
            lines.append(f"  {pair.source:<8} {arrow} {pair.target:<8} {change_label(pair.change):<12} {sim:>5}")
        if removed:
            lines.extend(_wrap(f"supprimées : {', '.join(removed)}"))
        if added:
            lines.extend(_wrap(f"ajoutées : {', '.join(added)}"))
    for edition, number, why in table.reasons:
        if item.section is None or section_of(number) == item.section:
            lines.extend(_wrap(f"Motif (revu) {edition} {number} : {why}"))
    return "\n".join(lines)
