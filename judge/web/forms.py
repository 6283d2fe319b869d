"""The situation form of `judge serve`: posted fields <-> situation data, in French.

Owns the field names, the French names of the moments of the turn, and the conversion to and from the docs/situation-format.md keys. Validation stays in
`judge.game.situation` (the data goes through `load_situation` like a file would), so an error
names the same field path as the CLI. The questions are `judge.checks.questions`, the timeline
`judge.web.timeline`, sharing (TOML, JSON, permalink) `judge.game.share`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.checks.questions import QUESTION_BY_ASK
from judge.errors import SituationError
from judge.game.turnplan import PHASE_LABELS, PHASE_STEPS, PHASES, STEP_LABELS

CREATURE_ROWS = 1
QUESTION_ROWS = 1
MAX_ROWS = 20
CREATURE_FIELDS = (
    "name", "controller", "abilities", "types", "power", "toughness", "blocking", "damage",
    "attack_cost", "block_cost", "attacks",
)
CREATURE_FLAGS = ("tapped", "since_turn_start", "attacking", "blocked")
QUESTION_FIELDS = ("ask", "player", "kind", "creature", "attacker", "count", "creatures", "blocks",
                   "assignment", "when")
STATE_FIELDS = (
    "edition", "players", "active", "phase", "step", "damage_step", "priority", "stack",
    "lands_played", "land_plays", "hands", "max_hand_size", "mana_pools", "skip", "extra_turns",
    "mana_available", "defending", "attack_option",
)



@dataclass(frozen=True, slots=True, kw_only=True)
class Moment:
    """One choice of « Moment du tour »: a step (which sets its phase) or a main phase."""

    value: str
    label: str
    phase: str
    step: str


def _moments() -> tuple[tuple[str, tuple[Moment, ...]], ...]:
    groups = []
    for phase in PHASES:
        steps = PHASE_STEPS[phase]
        if steps:
            moments = tuple(Moment(value=s, label=STEP_LABELS[s], phase=phase, step=s) for s in steps)
        else:
            moments = (Moment(value=phase, label=PHASE_LABELS[phase], phase=phase, step=""),)
        groups.append((PHASE_LABELS[phase], moments))
    return tuple(groups)


# « Moment du tour », grouped by phase (one select: a step always comes with its phase).
MOMENT_GROUPS = _moments()
MOMENTS = {m.value: m for _, group in MOMENT_GROUPS for m in group}


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
        moment = MOMENTS.get(values.get("moment", "").strip())
        if moment is not None:
            form.state.update(phase=moment.phase, step=moment.step)
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

    @property
    def moment(self) -> str:
        """The « Moment du tour » value: the step, or the main phase."""
        return self.state.get("step") or self.state.get("phase") or ""

    @property
    def creature_names(self) -> tuple[str, ...]:
        return tuple(row["name"] for row in self.creatures if row.get("name"))

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(_names(self.state.get("players") or "A, B"))

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


def form_to_situation(form: FormState,
                      gives_priority: Callable[[str, str | None], bool] | None = None) -> dict[str, Any]:
    """The situation dict (docs/situation-format.md keys) the form describes; empty fields
    omitted. `gives_priority(phase, step)` says whether players receive priority there (the
    edition's game model): a blank priority is then the active player's."""
    state = form.state
    data: dict[str, Any] = {}
    for key in ("edition", "active", "phase", "step", "damage_step", "priority", "defending",
                "attack_option"):
        if state.get(key):
            data[key] = state[key]
    if state.get("players"):
        data["players"] = _names(state["players"])
    phase, step = data.get("phase"), data.get("step")
    if "priority" not in data and phase and gives_priority is not None and gives_priority(phase, step):
        # Left blank: as the rules give, the active player receives priority in each step (or
        # main phase) where the edition's game model gives players priority (not in untap…).
        players = data.get("players") or ["A", "B"]
        data["priority"] = data.get("active") or players[0]
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
    for key in ("blocking", "attacks"):
        if row.get(key):
            creature[key] = row[key]
    return creature


def _question(row: Mapping[str, str]) -> dict[str, Any]:
    """Only the parameters this question takes (a hidden field of another question is ignored)."""
    question: dict[str, Any] = {"ask": row["ask"]}
    spec = QUESTION_BY_ASK.get(row["ask"])
    params = spec.params if spec is not None else QUESTION_FIELDS[1:]
    for key in params:
        if not row.get(key):
            continue
        if key == "count":
            question[key] = _scalar(row[key])
        elif key == "creatures":
            question[key] = _names(row[key])
        elif key == "blocks":
            question[key] = _blocks(row[key], key)
        elif key == "assignment":
            question[key] = _counts(row[key], key)
        else:
            question[key] = row[key]
    return question


def _blocks(text: str, key: str) -> dict[str, str]:
    """`Elfe=Ours, Loup=Ours` (blocker=attacker) -> {"Elfe": "Ours", "Loup": "Ours"}."""
    out: dict[str, str] = {}
    for part in _names(text):
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise SituationError(key, f"« {part} » : BLOQUEUR=ATTAQUANT attendu (par exemple "
                                 "Elfe=Ours)")
        out[name.strip()] = value.strip()
    return out


# ---------------------------------------------------------------------- situation -> form
def _joined(values: Any) -> str:
    if isinstance(values, (list, tuple)):
        return ", ".join(str(v) for v in values)
    return str(values)


def _pairs(values: Any) -> str:
    if isinstance(values, Mapping):
        return ", ".join(f"{k}={v}" for k, v in values.items())
    return str(values)


def situation_to_form(data: Mapping[str, Any]) -> FormState | None:
    """The form showing a situation dict, or None when the form cannot hold it (events,
    keys it has no field for): the caller then shows the situation as pasted text."""
    known = {*STATE_FIELDS, "creatures", "questions"}
    if not set(data) <= known:
        return None
    form = FormState(state=dict.fromkeys(STATE_FIELDS, ""))
    for key in ("edition", "active", "phase", "step", "damage_step", "priority",
                "lands_played", "land_plays", "max_hand_size", "defending", "attack_option"):
        if data.get(key) is not None:
            form.state[key] = str(data[key])
    for key in ("players", "skip", "extra_turns"):
        if data.get(key):
            form.state[key] = _joined(data[key])
    for key in ("hands", "mana_pools", "mana_available"):
        if data.get(key):
            form.state[key] = _pairs(data[key])
    if data.get("stack"):
        lines = []
        for item in data["stack"]:
            if not isinstance(item, Mapping):
                return None
            lines.append(" ".join(str(item[k]) for k in ("kind", "controller") if item.get(k)))
        form.state["stack"] = "\n".join(lines)
    for creature in data.get("creatures") or ():
        if not isinstance(creature, Mapping) or not set(creature) <= {*CREATURE_FIELDS, *CREATURE_FLAGS}:
            return None
        row = dict.fromkeys((*CREATURE_FIELDS, *CREATURE_FLAGS), "")
        for key in CREATURE_FIELDS:
            if creature.get(key) is not None:
                row[key] = _joined(creature[key])
        for flag in CREATURE_FLAGS:
            default = flag == "since_turn_start"
            row[flag] = "on" if creature.get(flag, default) else ""
        form.creatures.append(row)
    for question in data.get("questions") or ():
        if not isinstance(question, Mapping) or not set(question) <= set(QUESTION_FIELDS):
            return None
        row = {key: str(question.get(key) or "") for key in QUESTION_FIELDS}
        row.update(creatures=_joined(question.get("creatures") or ""),
                   blocks=_pairs(question.get("blocks") or ""), assignment=_pairs(question.get("assignment") or ""))
        form.questions.append(row)
    form.pad()
    return form
