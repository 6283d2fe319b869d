"""The turn-structure diagram: phases and their steps as nested HTML lists, each box linking
to its rule. HTML rather than SVG so that labels are set in the page's own font and wrap inside
their boxes; the stylesheet lays the phases side by side, and one under another below 600 px.

The phases, their steps and the rule of each come from the edition's game model
(`rules/games/*.toml`: a phase's `rule`, a step's `priority_rule`); each box links to that
rule's section (the section line, else its first rule) when the corpus has it. French labels
come from `judge.game.turnplan`.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from judge.corpus.documents import Rule
from judge.corpus.graph import RuleGraph
from judge.corpus.languages import language_name
from judge.game import turnplan as turn
from judge.game.gamemodel import GameModel, load_game_model
from judge.site.templating import rule_url


def _model(graph: RuleGraph, edition: str) -> GameModel | None:
    game = graph.edition(edition).game
    return None if game is None else load_game_model(game)


def _slot(phase: str) -> str:
    """Both main phases are one slot, `main` (they share their rules)."""
    return "main" if phase in turn.MAIN_PHASES else phase


def step_rules(graph: RuleGraph, edition: str) -> dict[str, Rule | None]:
    """Each phase (`main` for both main phases) and step -> the rule to link (the section
    line, else its first rule): in the edition's first language, else in the first of its other
    languages that has it (2010: 505 in French, the other steps in the English text); None when
    no text has it; empty for an edition without a game model."""
    model = _model(graph, edition)
    if model is None:
        return {}
    sections: dict[str, str] = {}
    for phase, steps in model.layout:
        sections.setdefault(_slot(phase), model.phase_rule(phase).split(".", 1)[0])
        for step in steps:
            sections[step] = model.step(phase, step).priority_rule.split(".", 1)[0]
    by_language = [graph.rules(edition, language) for language in graph.edition(edition).languages]
    return {slot: next((r for rules in by_language for r in rules
                        if r.number == section or r.number.startswith(section + ".")), None)
            for slot, section in sections.items()}


def example_situation(graph: RuleGraph, rule: Rule, ask: str) -> dict[str, object]:
    """A situation to start from when checking `rule`: its edition, the step (or main phase)
    its section describes (else the first main phase), and the question `ask`."""
    section = rule.number.split(".", 1)[0]
    slot = next((s for s, r in step_rules(graph, rule.edition).items()
                 if r is not None and r.number.split(".", 1)[0] == section), None)
    data: dict[str, object] = {"edition": rule.edition, "phase": turn.Phase.PRECOMBAT_MAIN}
    if slot in turn.STEP_PHASE:
        data.update(phase=turn.STEP_PHASE[slot], step=slot)
    elif slot is not None and turn.PHASE_STEPS.get(slot):
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
    """The turn of an edition, as its game model lays it out: one list item per phase, its
    steps below, in order (empty for an edition without a game model)."""
    model = _model(graph, edition)
    if model is None:
        return Markup("")
    links = step_rules(graph, edition)
    primary = graph.primary_language(edition)
    phases: list[str] = []
    for phase, phase_steps in model.layout:
        head = _box(_capital(turn.PHASE_LABELS[phase]), links[_slot(phase)], root, primary, "phase")
        steps = "".join(
            f"<li>{_box(_capital(turn.STEP_LABELS[step]), links[step], root, primary, 'step')}</li>"
            for step in phase_steps
        )
        phases.append(f'<li class="turn-phase">{head}' + (f'<ol class="turn-steps">{steps}</ol>' if steps else "")
                      + "</li>")
    title = f"Structure du tour (édition {edition})"
    return Markup(f'<ol class="turn" aria-label="{escape(title)}">{"".join(phases)}</ol>')
