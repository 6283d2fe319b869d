"""The turn-structure diagram: an inline SVG of phases and steps, each linking to its rule.

Phases, steps and their French labels come from `judge.game.turn`. Which rule describes each
step is read from the graph: section titles are matched (accents and case folded, French or
English) to find where the turn sections start; an edition without any titled turn section
(2010 in the corpus has only 505) falls back to the numbering of its era (300s before the
Magic 2010 rules change, 500s after). Only rules present in the graph are linked.
"""

from __future__ import annotations


from markupsafe import Markup, escape

from judge.game import turn
from judge.normalize import fold
from judge.corpus.graph import RuleGraph
from judge.corpus.model import Rule
from judge.site.templating import rule_url

# Turn sections in rule-number order (both main phases share one section).
SECTION_ORDER: tuple[str, ...] = (
    "beginning", "untap", "upkeep", "draw", "main", "combat", "beginning_of_combat",
    "declare_attackers", "declare_blockers", "combat_damage", "end_of_combat", "ending",
    "end_of_turn", "cleanup",
)
# Folded section titles that identify a slot (French 2004 text, English CR).
TITLE_KEYS: dict[str, tuple[str, ...]] = {
    "beginning": ("phase de debut", "beginning phase"),
    "untap": ("degagement", "untap step"),
    "upkeep": ("entretien", "upkeep step"),
    "draw": ("etape de pioche", "draw step"),
    "main": ("phase principale", "main phase"),
    "combat": ("phase de combat", "combat phase"),
    "beginning_of_combat": ("debut de combat", "beginning of combat"),
    "declare_attackers": ("declaration des attaquants", "declare attackers"),
    "declare_blockers": ("declaration des bloqueurs", "declare blockers"),
    "combat_damage": ("blessures de combat", "combat damage step"),
    "end_of_combat": ("fin de combat", "end of combat"),
    "ending": ("phase de fin", "end phase", "ending phase"),
    "end_of_turn": ("fin du tour", "end step", "end of turn step"),
    "cleanup": ("nettoyage", "cleanup step"),
}
M10_CHANGE = "2009-07-11"  # Magic 2010 rules: the turn structure moved from 300–314 to 500–514.

PHASE_WIDTH, GAP, BOX_HEIGHT, ROW = 168, 12, 34, 44


def turn_base(graph: RuleGraph, edition: str) -> int:
    """The number just before the first turn section (300 in 2004, 500 from 2010 on)."""
    language = graph.primary_language(edition)
    votes: dict[int, int] = {}
    for rule in graph.rules(edition, language):
        if rule.kind != "section" or not rule.title:
            continue
        title = fold(rule.title)
        for offset, slot in enumerate(SECTION_ORDER, start=1):
            if any(key in title for key in TITLE_KEYS[slot]):
                base = int(rule.number) - offset
                votes[base] = votes.get(base, 0) + 1
                break
    if votes:
        return max(sorted(votes), key=lambda b: votes[b])
    released = graph.edition(edition).released or ""
    return 300 if released and released < M10_CHANGE else 500


def step_rules(graph: RuleGraph, edition: str) -> dict[str, Rule | None]:
    """Each section slot -> the rule to link (the section line, else its first rule), or None."""
    base = turn_base(graph, edition)
    rules = graph.rules(edition, graph.primary_language(edition))
    out: dict[str, Rule | None] = {}
    for offset, slot in enumerate(SECTION_ORDER, start=1):
        section = str(base + offset)
        out[slot] = next((r for r in rules if r.number == section or r.number.startswith(section + ".")), None)
    return out


def _box(x: int, y: int, width: int, label: str, rule: Rule | None, root: str, primary: str,
         css: str) -> str:
    text_x = x + width // 2
    inner = (
        f'<rect x="{x}" y="{y}" width="{width}" height="{BOX_HEIGHT}" rx="6" class="{css}"/>'
        f'<text x="{text_x}" y="{y + 22}" text-anchor="middle">{escape(label)}</text>'
    )
    if rule is None:
        return f'<g class="absent"><title>{escape(label)} : règle absente du corpus</title>{inner}</g>'
    href = escape(rule_url(rule, root, primary))
    return (f'<a href="{href}" aria-label="{escape(label)}, règle {escape(rule.number)}">'
            f'<title>{escape(label)} — règle {escape(rule.number)}</title>{inner}</a>')


def turn_diagram_svg(graph: RuleGraph, edition: str, root: str = "../") -> Markup:
    """The SVG of a turn: one column per phase, its steps below, in order."""
    links = step_rules(graph, edition)
    primary = graph.primary_language(edition)
    parts: list[str] = []
    tallest = max(len(steps) for steps in turn.PHASE_STEPS.values())
    height = ROW * (tallest + 1) + 8
    width = len(turn.PHASES) * (PHASE_WIDTH + GAP) - GAP + 8
    for i, phase in enumerate(turn.PHASES):
        x = 4 + i * (PHASE_WIDTH + GAP)
        slot = "main" if phase in turn.MAIN_PHASES else phase
        label = turn.PHASE_LABELS[phase]
        parts.append(_box(x, 4, PHASE_WIDTH, label[0].upper() + label[1:], links[slot], root, primary, "phase"))
        for j, step in enumerate(turn.PHASE_STEPS[phase], start=1):
            step_label = turn.STEP_LABELS[step]
            parts.append(_box(x + 8, 4 + j * ROW, PHASE_WIDTH - 16, step_label[0].upper() + step_label[1:],
                              links[step], root, primary, "step"))
    style = (
        "<style>.phase{fill:#1a4f8b}.step{fill:#eef3fa;stroke:#1a4f8b}"
        "text{font:13px system-ui,sans-serif;fill:#1d1d1f}.phase+text{fill:#fff;font-weight:700}"
        ".absent rect{fill:#f2f2f2;stroke:#bbb;stroke-dasharray:4 3}.absent text{fill:#777}"
        "a:focus rect,a:hover rect{stroke:#f0a000;stroke-width:3}</style>"
    )
    title = f"Structure du tour (édition {edition})"
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-labelledby="turn-title-{escape(edition)}">'
        f'<title id="turn-title-{escape(edition)}">{escape(title)}</title>{style}{"".join(parts)}</svg>'
    )
    return Markup(svg)
