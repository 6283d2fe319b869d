"""The turn-structure diagram: phases and their steps as nested HTML lists, each box linking
to its rule. HTML rather than SVG so that labels are set in the page's own font and wrap inside
their boxes; the stylesheet lays the phases side by side, and one under another below 600 px.

Phases, steps and their French labels come from `judge.game.turn`. Which rule describes each
step is read from the graph: section titles are matched (accents and case folded, French or
English) to find where the turn sections start; an edition without any titled turn section
(2010 in the corpus has only 505) falls back to the numbering of its era (300s before the
Magic 2010 rules change, 500s after). Only rules present in the graph are linked.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from judge.corpus.export import language_name
from judge.corpus.graph import RuleGraph
from judge.corpus.model import Rule
from judge.game import turn
from judge.normalize import fold
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
    """Each section slot -> the rule to link (the section line, else its first rule), or None:
    in the edition's first language, else in the first of its other languages that has it
    (2010: 505 in French, the other steps in the English text)."""
    base = turn_base(graph, edition)
    by_language = [graph.rules(edition, language) for language in graph.edition(edition).languages]
    out: dict[str, Rule | None] = {}
    for offset, slot in enumerate(SECTION_ORDER, start=1):
        section = str(base + offset)
        out[slot] = next((r for rules in by_language for r in rules
                          if r.number == section or r.number.startswith(section + ".")), None)
    return out


def example_situation(graph: RuleGraph, rule: Rule, ask: str) -> dict[str, object]:
    """A situation to start from when checking `rule`: its edition, the step (or main phase)
    its section describes (else the first main phase), and the question `ask`."""
    section = rule.number.split(".", 1)[0]
    slot = next((s for s, r in step_rules(graph, rule.edition).items()
                 if r is not None and r.number.split(".", 1)[0] == section), None)
    data: dict[str, object] = {"edition": rule.edition, "phase": "precombat_main"}
    if slot in turn.STEP_PHASE:
        data.update(phase=turn.STEP_PHASE[slot], step=slot)
    elif slot in turn.PHASE_STEPS and turn.PHASE_STEPS[slot]:
        data.update(phase=slot, step=turn.PHASE_STEPS[slot][0])
    data["questions"] = [{"ask": ask}]
    return data


def _box(label: str, rule: Rule | None, root: str, primary: str, css: str) -> str:
    if rule is None:
        return (f'<span class="turn-box {css} absent">{escape(label)} '
                f'<small>(pas de règle dans ce corpus)</small></span>')
    href = escape(rule_url(rule, root, primary))
    other = (f' · <span class="lang-note">texte {escape(language_name(rule.language))}</span>'
             if rule.language != primary else "")
    return (f'<a class="turn-box {css}" href="{href}">{escape(label)} '
            f'<small>règle {escape(rule.number)}{other}</small></a>')


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def turn_diagram(graph: RuleGraph, edition: str, root: str = "../") -> Markup:
    """The turn of an edition: one list item per phase, its steps below, in order."""
    links = step_rules(graph, edition)
    primary = graph.primary_language(edition)
    phases: list[str] = []
    for phase in turn.PHASES:
        slot = "main" if phase in turn.MAIN_PHASES else phase
        head = _box(_capital(turn.PHASE_LABELS[phase]), links[slot], root, primary, "phase")
        steps = "".join(
            f"<li>{_box(_capital(turn.STEP_LABELS[step]), links[step], root, primary, 'step')}</li>"
            for step in turn.PHASE_STEPS[phase]
        )
        phases.append(f'<li class="turn-phase">{head}' + (f'<ol class="turn-steps">{steps}</ol>' if steps else "")
                      + "</li>")
    title = f"Structure du tour (édition {edition})"
    return Markup(f'<ol class="turn" aria-label="{escape(title)}">{"".join(phases)}</ol>')
