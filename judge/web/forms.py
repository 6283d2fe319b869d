"""The situation form of `judge serve`: posted fields -> situation data, and the turn timeline.

Owns the field names and their conversion to the docs/situation-format.md keys; validation
stays in `judge.game.situation` (the data goes through `load_situation` like a file would), so an
error names the same field path as the CLI. Also the answer views and the SVG turn timeline.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.checks.report import TimelineEntry
from judge.corpus.graph import RuleGraph
from judge.errors import SituationError
from judge.game.turn import PHASE_LABELS, STEP_LABELS
from judge.site.templating import rule_url

CREATURE_ROWS = 3
QUESTION_ROWS = 3
MAX_ROWS = 20
CREATURE_FIELDS = (
    "name", "controller", "abilities", "types", "power", "toughness", "blocking", "damage",
    "attack_cost", "block_cost",
)
CREATURE_FLAGS = ("tapped", "since_turn_start", "attacking", "blocked")
QUESTION_FIELDS = ("ask", "player", "kind", "creature", "attacker", "count", "creatures", "blocks",
                   "assignment")
STATE_FIELDS = (
    "edition", "players", "active", "phase", "step", "damage_step", "priority", "stack",
    "lands_played", "land_plays", "hands", "max_hand_size", "mana_pools", "skip", "extra_turns",
    "mana_available",
)

ASK_LABELS: dict[str, str] = {
    "where": "où en est le tour ?",
    "priority": "qui reçoit la priorité ?",
    "next": "quelle étape suit ?",
    "rest_of_turn": "le reste du tour",
    "play_land": "ce joueur peut-il jouer un terrain ?",
    "cast": "ce joueur peut-il lancer un sort de ce type ?",
    "attack": "cette créature peut-elle attaquer ?",
    "block": "cette créature peut-elle bloquer cet attaquant ?",
    "damage_steps": "combien d'étapes de blessures ?",
    "deals_damage": "cette créature inflige-t-elle ses blessures maintenant ?",
    "discard": "combien de cartes défausser au nettoyage ?",
    "mana_burn": "brûlure de mana ?",
    "turn_order": "ordre des prochains tours",
    "untap": "que se passe-t-il au dégagement (déphasage, dégagement) ?",
    "triggers": "quelles capacités vont sur la pile au début de l'étape, dans quel ordre ?",
    "declare_attackers": "ces créatures peuvent-elles attaquer ensemble, pour quel coût ?",
    "declare_blockers": "ces blocages sont-ils permis, pour quel coût ?",
    "assign_damage": "cette répartition des blessures de combat est-elle permise ?",
    "damage_dealt": "quelles blessures de combat ont été infligées ?",
    "in_combat": "cette créature est-elle encore en combat ?",
    "cleanup": "que se passe-t-il au nettoyage ?",
}


def _blank_creature() -> dict[str, str]:
    row = dict.fromkeys((*CREATURE_FIELDS, *CREATURE_FLAGS), "")
    row["since_turn_start"] = "on"
    return row


def _blank_question() -> dict[str, str]:
    return dict.fromkeys(QUESTION_FIELDS, "")


@dataclass(slots=True, kw_only=True)
class FormState:
    """The form as posted (raw strings), kept to show it again with the answers or an error."""

    state: dict[str, str] = field(default_factory=dict)
    creatures: list[dict[str, str]] = field(default_factory=list)
    questions: list[dict[str, str]] = field(default_factory=list)
    source: str = ""

    @classmethod
    def empty(cls) -> FormState:
        form = cls(state=dict.fromkeys(STATE_FIELDS, ""))
        form.state.update(players="A, B", phase="precombat_main", lands_played="0")
        form.pad()
        return form

    @classmethod
    def from_values(cls, values: Mapping[str, str]) -> FormState:
        """Rows without a name (creature) or an ask (question) are dropped, then blanks added."""
        form = cls(
            state={name: values.get(name, "").strip() for name in STATE_FIELDS},
            source=values.get("source", ""),
        )
        for i in range(MAX_ROWS):
            row = {name: values.get(f"creature{i}_{name}", "").strip() for name in CREATURE_FIELDS}
            for flag in CREATURE_FLAGS:
                row[flag] = "on" if values.get(f"creature{i}_{flag}") else ""
            if row["name"]:
                form.creatures.append(row)
            question = {name: values.get(f"question{i}_{name}", "").strip() for name in QUESTION_FIELDS}
            if question["ask"]:
                form.questions.append(question)
        form.pad()
        return form

    def pad(self) -> None:
        self.creatures.extend(_blank_creature() for _ in range(max(0, CREATURE_ROWS - len(self.creatures))))
        if len(self.creatures) < MAX_ROWS and self.creatures[-1]["name"]:
            self.creatures.append(_blank_creature())
        self.questions.extend(_blank_question() for _ in range(max(0, QUESTION_ROWS - len(self.questions))))
        if len(self.questions) < MAX_ROWS and self.questions[-1]["ask"]:
            self.questions.append(_blank_question())


# ---------------------------------------------------------------------- conversion
_INT = re.compile(r"^-?\d+$")


def _scalar(text: str) -> int | str:
    """A number field: an int when it reads as one, else the text (load_situation names it)."""
    return int(text) if _INT.match(text) else text


def _names(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"[,;\n]", text) if part.strip()]


def _counts(text: str, key: str) -> dict[str, int | str]:
    """`A=7, B=5` (or `A: 7`) -> {"A": 7, "B": 5}."""
    out: dict[str, int | str] = {}
    for part in _names(text):
        name, sep, value = part.partition("=") if "=" in part else part.partition(":")
        if not sep or not name.strip():
            raise SituationError(key, f"« {part} » : NOM=NOMBRE attendu (par exemple A=7, B=5)")
        out[name.strip()] = _scalar(value.strip())
    return out


def _stack(text: str) -> list[dict[str, str]]:
    """One object per line, bottom first: `instant B`, `capacité déclenchée A`."""
    items: list[dict[str, str]] = []
    for line in text.splitlines():
        words = line.replace(",", " ").split()
        if not words:
            continue
        if len(words) == 1:
            items.append({"kind": words[0]})
        else:
            items.append({"kind": " ".join(words[:-1]), "controller": words[-1]})
    return items


def form_to_situation(form: FormState) -> dict[str, Any]:
    """The situation dict (docs/situation-format.md keys) the form describes; empty fields omitted."""
    state = form.state
    data: dict[str, Any] = {}
    for key in ("edition", "active", "phase", "step", "damage_step", "priority"):
        if state.get(key):
            data[key] = state[key]
    if state.get("players"):
        data["players"] = _names(state["players"])
    for key in ("lands_played", "land_plays", "max_hand_size"):
        if state.get(key):
            data[key] = _scalar(state[key])
    for key in ("hands", "mana_pools", "mana_available"):
        if state.get(key):
            data[key] = _counts(state[key], key)
    for key in ("skip", "extra_turns"):
        if state.get(key):
            data[key] = _names(state[key])
    if state.get("stack"):
        data["stack"] = _stack(state["stack"])
    creatures = [_creature(row) for row in form.creatures if row.get("name")]
    if creatures:
        data["creatures"] = creatures
    questions = [_question(row) for row in form.questions if row.get("ask")]
    if questions:
        data["questions"] = questions
    return data


def _creature(row: Mapping[str, str]) -> dict[str, Any]:
    creature: dict[str, Any] = {"name": row["name"]}
    if row.get("controller"):
        creature["controller"] = row["controller"]
    for flag in CREATURE_FLAGS:
        creature[flag] = bool(row.get(flag))
    for key in ("abilities", "types"):
        if row.get(key):
            creature[key] = _names(row[key])
    for key in ("power", "toughness", "damage", "attack_cost", "block_cost"):
        if row.get(key):
            creature[key] = _scalar(row[key])
    if row.get("blocking"):
        creature["blocking"] = row["blocking"]
    return creature


def _question(row: Mapping[str, str]) -> dict[str, Any]:
    question: dict[str, Any] = {"ask": row["ask"]}
    for key in ("player", "kind", "creature", "attacker"):
        if row.get(key):
            question[key] = row[key]
    if row.get("count"):
        question["count"] = _scalar(row["count"])
    if row.get("creatures"):
        question["creatures"] = _names(row["creatures"])
    if row.get("blocks"):
        question["blocks"] = _pairs(row["blocks"], "blocks")
    if row.get("assignment"):
        question["assignment"] = _counts(row["assignment"], "assignment")
    return question


def _pairs(text: str, key: str) -> dict[str, str]:
    """`Elfe=Ours, Loup=Ours` (blocker=attacker) -> {"Elfe": "Ours", "Loup": "Ours"}."""
    out: dict[str, str] = {}
    for part in _names(text):
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise SituationError(key, f"« {part} » : BLOQUEUR=ATTAQUANT attendu (par exemple "
                                 "Elfe=Ours)")
        out[name.strip()] = value.strip()
    return out


# ---------------------------------------------------------------------- timeline
BOX_WIDTH = 104
BOX_HEIGHT = 58
GAP = 6
BAND = 26
MARGIN = 8


@dataclass(frozen=True, slots=True, kw_only=True)
class TimelineBox:
    """One step (or main phase) of the turn drawn as a box, linked to its rule when known."""

    x: int
    label_lines: tuple[str, ...]
    state: str
    title: str
    href: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class TimelineBand:
    """A phase drawn as a band over its steps."""

    x: int
    width: int
    label: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Timeline:
    width: int
    height: int
    box_y: int
    box_width: int
    box_height: int
    band_height: int
    boxes: tuple[TimelineBox, ...]
    bands: tuple[TimelineBand, ...]
    caption: str


# Band labels short enough for one box (a main phase is a single box).
BAND_LABELS = {
    "beginning": "début", "precombat_main": "principale 1", "combat": "combat",
    "postcombat_main": "principale 2", "ending": "fin",
}
STATE_LABELS = {"past": "passée", "current": "en cours", "future": "à venir", "skipped": "sautée"}


def _wrap(text: str, width: int = 14) -> tuple[str, ...]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return tuple(lines[:3])


def timeline(steps: tuple[TimelineEntry, ...], urls: Mapping[str, str]) -> Timeline:
    """Boxes in turn order under one band per phase; `urls` maps a step (or `main`) to its rule."""
    boxes: list[TimelineBox] = []
    bands: list[TimelineBand] = []
    x = MARGIN
    previous_phase: str | None = None
    for entry in steps:
        label = entry.label or (STEP_LABELS.get(entry.step or "") or PHASE_LABELS[entry.phase])
        title = f"{label} : {STATE_LABELS.get(entry.state, entry.state)}"
        if entry.skip_rule:
            title += f" (règle {entry.skip_rule})"
        slot = entry.step or ("main" if entry.phase.endswith("_main") else entry.phase)
        boxes.append(TimelineBox(x=x, label_lines=_wrap(label), state=entry.state, title=title,
                                 href=urls.get(slot)))
        if bands and previous_phase == entry.phase:
            last = bands[-1]
            bands[-1] = TimelineBand(x=last.x, width=x + BOX_WIDTH - last.x, label=last.label)
        else:
            bands.append(TimelineBand(x=x, width=BOX_WIDTH, label=BAND_LABELS.get(entry.phase, entry.phase)))
        previous_phase = entry.phase
        x += BOX_WIDTH + GAP
    current = next((e for e in steps if e.state == "current"), None)
    caption = "Déroulement du tour"
    if current is not None:
        caption += f" — étape en cours : {current.label}"
    return Timeline(
        width=x - GAP + MARGIN,
        height=MARGIN * 2 + BAND + GAP + BOX_HEIGHT,
        box_y=MARGIN + BAND + GAP,
        box_width=BOX_WIDTH,
        box_height=BOX_HEIGHT,
        band_height=BAND,
        boxes=tuple(boxes),
        bands=tuple(bands),
        caption=caption,
    )


# ---------------------------------------------------------------------- answers
def step_urls(graph: RuleGraph, edition: str) -> dict[str, str]:
    """Each step slug (and `main`) -> URL of the rule describing it in this edition."""
    from judge.site.diagram import step_rules

    primary = graph.primary_language(edition)
    return {
        slot: rule_url(rule, "/", primary)
        for slot, rule in step_rules(graph, edition).items()
        if rule is not None
    }
