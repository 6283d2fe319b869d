"""Public entry points of the situation checker, used by the CLI and the web server.

`check()` answers a situation's questions; `report_json()` / `report_text()` render the
answers (with the replay's trail). The checks themselves are registered by the topic modules
of `judge.checks.catalog`, imported as questions need them; the coverage of the rules by the
checks is `judge.checks.coverage`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from judge.checks.catalog import registered
from judge.checks.context import Answer, answer
from judge.checks.questions import PARAM_LABELS, QUESTION_BY_ASK, param_text
from judge.errors import SituationError
from judge.game.gamemodel import GameModel, load_game_model
from judge.game.situationmodel import Question, Situation
from judge.game.states import check_edition_terms, check_state
from judge.game.turnplan import PHASE_LABELS, STEP_LABELS, PlannedStep
from judge.legality.context import Context, build_context
from judge.procedure.statebased import described

if TYPE_CHECKING:
    from judge.legality.context import RuleSource
    from judge.procedure.trail import Trail, TrailEntry


@dataclass(frozen=True, slots=True, kw_only=True)
class TimelineEntry:
    """One step of the turn, with its state: past, current, future or skipped."""

    phase: str
    step: str | None
    damage_step: str | None
    label: str
    state: str
    skip_rule: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckReport:
    """The answers to one situation (and, after a replay, its trail).

    The timeline and the trail's citations are built when read (`timeline`, `trail`): a
    caller that only wants the answers pays for neither.
    """

    edition: str
    active: str
    where: dict[str, object]
    answers: tuple[Answer, ...]
    context: Context
    ended: bool = False
    entries: tuple[TrailEntry, ...] | None = None  # the replay's journal, its concepts uncited

    @property
    def timeline(self) -> tuple[TimelineEntry, ...]:
        """Every step of the turn with its state (past, current, future, skipped)."""
        return _timeline(self.context)

    @property
    def trail(self) -> tuple[Trail, ...] | None:
        """The replay's journal, each entry citing the edition's rules (None: no replay)."""
        if self.entries is None:
            return None
        from judge.procedure.trail import cited

        return cited(self.context, self.entries)


def _edition(graph: RuleSource, situation: Situation) -> str:
    edition = situation.edition or graph.newest_edition
    if edition not in graph.edition_ids:
        raise SituationError("edition", f"édition inconnue « {edition} » (éditions disponibles : "
                             f"{', '.join(graph.edition_ids)})")
    return edition


def game_model(graph: RuleSource, edition: str) -> GameModel:
    """The game model an edition follows; an edition without one cannot be checked."""
    game = graph.edition(edition).game
    if game is None:
        raise SituationError("edition", f"l'édition « {edition} » ne dit pas quel modèle de jeu "
                             "elle suit (clé game de l'édition : le nom d'un modèle de "
                             "rules/games ou un fichier .toml) : aucune réponse n'est possible sans modèle")
    return load_game_model(game)


def context(graph: RuleSource, situation: Situation
            ) -> tuple[Context, tuple[TrailEntry, ...] | None]:
    """The situation placed in its turn (events replayed first when there are any), with the
    replay's journal (None without events)."""
    edition = _edition(graph, situation)
    model = game_model(graph, edition)
    if situation.left_game or situation.permanents or situation.variant or any(
            c.abilities or "planeswalker" in c.card_types for c in situation.creatures):
        check_edition_terms(model, edition, situation)
    if situation.events is not None:
        from judge.procedure.replay import replay  # only a situation with events replays

        replayed = replay(graph, edition, model, situation)
        ctx = build_context(graph, edition, model, replayed.situation, ended=replayed.ended,
                            no_attackers=replayed.no_attackers, arrival=replayed.reasons,
                            damage=replayed.damage, replayed=True, nth=replayed.occurrence, repeat=replayed.repeat,
                            discarded=replayed.discarded, burned=replayed.burned,
                            noncombat=replayed.noncombat)
        return ctx, replayed.trail
    check_state(model, situation)
    situation, done = described(model, situation)
    return build_context(graph, edition, model, situation,
                         performed=tuple(a.concept for a in done),
                         sba_done=tuple((a.what, a.names) for a in done)), None


def _timeline(ctx: Context) -> tuple[TimelineEntry, ...]:
    return _timeline_of(ctx.plan, ctx.index, ctx.ended, ctx.model)


def _state(entry: PlannedStep, index: int, current: int, ended: bool) -> str:
    """A plan entry's state in the timeline: skipped, past, current or future."""
    if entry.skipped:
        return "skipped"
    if index < current or (index == current and ended):
        return "past"
    return "current" if index == current else "future"


@lru_cache(maxsize=1024)
def _timeline_of(plan: tuple[PlannedStep, ...], current: int, ended: bool, model: GameModel
                 ) -> tuple[TimelineEntry, ...]:
    entries = []
    for index, entry in enumerate(plan):
        state = _state(entry, index, current, ended)
        m = entry.moment
        skip_rule = model.rules(entry.skip_reason)[0] if entry.skip_reason else None
        entries.append(TimelineEntry(phase=m.phase, step=m.step, damage_step=m.damage_step,
                                     label=m.label, state=state, skip_rule=skip_rule))
    return tuple(entries)


# The question every report answers (a frozen value: one for all reports).
_WHERE = Question(ask="where")


def check(graph: RuleSource, situation: Situation) -> CheckReport:
    """Answer every question of a situation (`where` when it asks none)."""
    ctx, entries = context(graph, situation)
    questions = situation.questions or (_WHERE,)
    answers = tuple(answer(registered(question.ask), ctx, question) for question in questions)
    # `where` takes no parameter: when it was asked, its answer is the report's; else only
    # its value is wanted (no `Answer` built)
    asked = next((item for item in answers if item.ask == "where"), None)
    if asked is None:
        where_check = registered("where").function
        assert where_check is not None
        where = where_check(ctx, _WHERE).value
    else:
        where = asked.value
    assert isinstance(where, dict)
    return CheckReport(edition=ctx.edition, active=ctx.active, where=where, answers=answers,
                       context=ctx, ended=ctx.ended, entries=entries)


def answer_json(item: Answer) -> dict[str, object]:
    out: dict[str, object] = {"ask": item.ask}
    out.update(item.params)
    out["answer"] = item.value
    out["rules"] = list(item.rules)
    out["why"] = item.why
    out.update(item.extra)
    return out


def report_json(report: CheckReport) -> dict[str, object]:
    """The `judge check --json` document (docs/situation-format.md)."""
    ctx = report.context
    out: dict[str, object] = {
        "edition": report.edition,
        "where": report.where,
        "answers": [answer_json(item) for item in report.answers],
        "timeline": [  # the timeline's fields, straight from the plan
            {"phase": e.moment.phase, "step": e.moment.step, "damage_step": e.moment.damage_step,
             "state": _state(e, index, ctx.index, ctx.ended)}
            for index, e in enumerate(ctx.plan)
        ],
    }
    if report.entries is not None:  # the trail's fields, straight from the replay's entries
        cited = ctx.cited
        out["trail"] = [
            {"event": t.event, "what": t.what, "phase": t.phase, "step": t.step,
             "priority": t.priority, "rules": list(cited(t.concepts))}
            for t in report.entries
        ]
    return out


def value_text(value: object) -> str:
    """An answer value as French words (`oui`, `non`, step names…), as the CLI prints it."""
    if value is True:
        return "oui"
    if value is False:
        return "non"
    if value is None:
        return "personne"
    if isinstance(value, list):
        return ", ".join(value_text(v) for v in value) or "rien"
    if isinstance(value, dict):
        if "phase" in value:
            step = value.get("step")
            text = STEP_LABELS[str(step)] if step else PHASE_LABELS[str(value["phase"])]
            if value.get("new_turn"):
                text = f"tour de {value['player']} : {text}"
            return text
        if set(value) == {"source", "target", "amount"}:
            return f"{value['source']} → {value['target']} : {value['amount']}"
        return " ; ".join(f"{VALUE_KEYS.get(k, k)} : {value_text(v)}" for k, v in value.items())
    return str(value)


# The French words of the answers' keys in the text report.
VALUE_KEYS = {
    "phase_out": "se déphasent", "phase_in": "se rephasent", "untap": "se dégagent",
    "legal": "permis", "cost": "coût en mana", "discard": "cartes défaussées",
    "damage_removed": "blessures retirées", "effects_end": "effets qui cessent",
    "priority": "priorité",
}


def timeline_text(report: CheckReport) -> str:
    parts = []
    for entry in report.timeline:
        if entry.state == "skipped":
            parts.append(f"({entry.label} : sautée)")
        elif entry.state == "current":
            parts.append(f"[{entry.label.upper()}]")
        else:
            parts.append(entry.label)
    tail = " — tour terminé" if report.ended else ""
    return f"Tour de {report.active} : " + " › ".join(parts) + tail


def question_text(ask: str, params: tuple[tuple[str, object], ...]) -> str:
    """A question as a judge reads it: its French wording, then its parameters in French."""
    spec = QUESTION_BY_ASK.get(ask)
    label = spec.label if spec is not None else ask
    shown = [f"{_PARAM_WORDS.get(name, name)} : {param_text(name, value)}" for name, value in params]
    return label + (f" ({' ; '.join(shown)})" if shown else "")


# Parameter names without the form's hints in brackets (« blocages (bloqueur=attaquant) »).
_PARAM_WORDS = {name: label.split(" (", 1)[0] for name, label in PARAM_LABELS.items()}


def report_text(report: CheckReport) -> str:
    """French human output: the turn's timeline, then every answer with its rules."""
    lines = [f"Édition {report.edition}", timeline_text(report), ""]
    for number, item in enumerate(report.answers, 1):
        head = f"{number}. {question_text(item.ask, item.params)}"
        lines.append(head)
        lines.append(f"   Réponse : {value_text(item.value)}")
        lines.append(f"   {item.why}")
        cited = ", ".join(item.rules) if item.rules else "aucune règle du corpus"
        lines.append(f"   Règles : {cited}")
    trail = report.trail
    if trail:
        lines += ["", "Journal du tour :"]
        for number, entry in enumerate(trail, 1):
            who = f"événement {entry.event}" if entry.event is not None else "action du tour"
            word = "règles" if len(entry.rules) > 1 else "règle"
            cited = f" ({word} {', '.join(entry.rules)})" if entry.rules else ""
            lines.append(f"{number:>3}. [{who}] {entry.what}{cited}")
    return "\n".join(lines) + "\n"
