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

from judge.checks.questions import PARAM_LABELS as PARAM_LABELS_FR
from judge.checks.questions import PARTS, QUESTION_BY_ASK
from judge.errors import SituationError
from judge.game.aliases import CARD_TYPE_ALIASES, SUPERTYPE_ALIASES, fold_name
from judge.game.turnplan import PHASE_LABELS, PHASE_STEPS, PHASES, STEP_LABELS, Phase, Step

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
EVENT_FIELDS = ("kind", "step", "player", "what", "creature", "creatures", "blocks", "source",
                "target", "name", "types", "amount")
# The event fields the builder shows, in its order (the template's loop).
EVENT_PARAMS = EVENT_FIELDS[1:]
MAX_EVENT_ROWS = 40
MAX_REPEAT = 20  # « Tous les joueurs passent » × N
UNTIL = "until"  # « Tout le monde passe jusqu'à… »: replaced by passes (judge.web.situations)
STATE_FIELDS = (
    "edition", "players", "active", "phase", "step", "damage_step", "priority", "stack",
    "lands_played", "land_plays", "hands", "max_hand_size", "mana_pools", "skip", "extra_turns",
    "mana_available", "defending", "attack_option", "life", "poison", "library", "left_game",
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


@dataclass(frozen=True, slots=True, kw_only=True)
class EventKind:
    """One choice of the event builder: its French label and the fields it takes."""

    value: str
    label: str
    params: tuple[str, ...] = ()


# The event builder's menu, in the order a turn meets them (docs/situation-format.md,
# « Événements »). « Tous les joueurs passent » is one `pass` per player (`amount` times).
EVENT_KINDS: tuple[EventKind, ...] = (
    EventKind(value="until", label="Tout le monde passe jusqu'à…", params=("step",)),
    EventKind(value="all_pass", label="Tous les joueurs passent (l'étape avance)", params=("amount",)),
    EventKind(value="pass", label="Le joueur qui a la priorité passe"),
    EventKind(value="play_land", label="Jouer un terrain", params=("player",)),
    EventKind(value="cast", label="Lancer un sort", params=("player", "what", "amount")),
    EventKind(value="activate", label="Activer une capacité", params=("player",)),
    EventKind(value="add_mana", label="Ajouter du mana", params=("player", "amount")),
    EventKind(value="combat", label="Combat jusqu'aux blessures (attaquants, bloqueurs)", params=("creatures", "blocks")),
    EventKind(value="declare_attackers", label="Attaquer avec…", params=("creatures",)),
    EventKind(value="declare_blockers", label="Bloquer…", params=("blocks",)),
    EventKind(value="leaves_play", label="Quitte le jeu", params=("creature",)),
    EventKind(value="regenerate", label="Est régénérée", params=("creature",)),
    EventKind(value="set_power", label="Sa force devient…", params=("creature", "amount")),
    EventKind(value="gain_control", label="Prend le contrôle de…", params=("player", "creature")),
    EventKind(value="tap", label="Est engagée", params=("creature",)),
    EventKind(value="untap", label="Est dégagée", params=("creature",)),
    EventKind(value="deal_damage", label="Inflige des blessures (hors combat)",
              params=("source", "target", "amount", "player")),
    EventKind(value="destroy", label="Est détruite", params=("creature",)),
    EventKind(value="shield", label="Reçoit un bouclier de régénération", params=("creature",)),
    EventKind(value="enters_battlefield", label="Un permanent arrive sur le champ de bataille",
              params=("name", "player", "types", "amount")),
    EventKind(value="draw", label="Pioche", params=("player", "amount")),
    EventKind(value="poison", label="Reçoit des marqueurs poison", params=("player", "amount")),
    EventKind(value="leaves_game", label="Quitte la partie", params=("player",)),
)
EVENT_BY_KIND = {kind.value: kind for kind in EVENT_KINDS}
# The label of an event field, by kind where it differs.
EVENT_PARAM_LABELS = {
    "step": "moment du tour", "player": "joueur", "what": "type de sort", "creature": "créature", "creatures": "créatures attaquantes",
    "blocks": "blocages (bloqueur=attaquant)", "source": "source (sort ou permanent)",
    "target": "à (joueur, créature ou planeswalker)", "name": "nom du permanent",
    "types": "types (planeswalker Jace, enchantement légendaire…)", "amount": "nombre",
}
EVENT_TEXT_PLACEHOLDERS = {"creatures": "Ours, Elfe", "blocks": "Elfe=Ours", "source": "Choc",
                           "target": "B ou Ours", "name": "Jace", "types": "planeswalker Jace"}
EVENT_AMOUNT_PLACEHOLDERS = {"all_pass": "1", "cast": "0, 2 ou RR", "add_mana": "RR ou 2", "set_power": "4",
                             "deal_damage": "3", "enters_battlefield": "3", "draw": "1", "poison": "1"}
EVENT_AMOUNT_LABELS = {"all_pass": "combien de fois", "cast": "coût payé (mana)", "add_mana": "mana ajouté",
                       "set_power": "nouvelle force", "deal_damage": "blessures",
                       "enters_battlefield": "loyauté (planeswalker)", "draw": "cartes piochées",
                       "poison": "marqueurs poison"}

# The form's labels of the situation's keys: an error names the field as the form does.
FIELD_LABELS = {
    "edition": "Édition", "players": "Joueurs", "active": "Joueur actif", "moment": "Moment du tour",
    "damage_step": "Étape de blessures", "priority": "Qui a la priorité", "stack": "Pile",
    "lands_played": "Terrains joués ce tour", "land_plays": "Terrains autorisés ce tour",
    "hands": "Cartes en main", "max_hand_size": "Taille maximale de main", "mana_pools": "Mana inutilisé",
    "mana_available": "Mana encore productible", "skip": "Étapes ou phases sautées",
    "extra_turns": "Tours supplémentaires", "attack_option": "Option d'attaque",
    "defending": "Joueur défenseur choisi", "source": "Situation complète",
    "life": "Points de vie", "poison": "Marqueurs poison", "library": "Cartes en bibliothèque",
    "left_game": "Ont quitté la partie",
}
CREATURE_LABELS = {
    "name": "nom", "controller": "contrôleur", "abilities": "capacités", "types": "types", "power": "force",
    "toughness": "endurance", "blocking": "bloque", "damage": "blessures marquées",
    "attack_cost": "coût pour attaquer", "block_cost": "coût pour bloquer", "attacks": "attaque",
    "tapped": "engagée", "since_turn_start": "contrôlée depuis le début du tour", "attacking": "attaquante",
    "blocked": "bloquée",
}

# « Moment du tour », grouped by phase (one select: a step always comes with its phase).
MOMENT_GROUPS = _moments()
MOMENTS = {m.value: m for _, group in MOMENT_GROUPS for m in group}


def _blank_creature() -> dict[str, str]:
    row = dict.fromkeys((*CREATURE_FIELDS, *CREATURE_FLAGS), "")
    row["since_turn_start"] = "on"
    return row


def _blank_question() -> dict[str, str]:
    return dict.fromkeys(QUESTION_FIELDS, "")


def _blank_event() -> dict[str, str]:
    return dict.fromkeys(EVENT_FIELDS, "")


@dataclass(slots=True, kw_only=True)
class FormState:
    """The form as posted (raw strings), kept to show it again with the answers or an error."""

    state: dict[str, str] = field(default_factory=dict)
    creatures: list[dict[str, str]] = field(default_factory=list)
    questions: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, str]] = field(default_factory=list)
    source: str = ""

    @classmethod
    def empty(cls) -> FormState:
        form = cls(state=dict.fromkeys(STATE_FIELDS, ""))
        form.state.update(players="A, B", phase=Phase.PRECOMBAT_MAIN, lands_played="0")
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
        for i in range(MAX_EVENT_ROWS):
            event = {name: values.get(f"event{i}_{name}", "").strip() for name in EVENT_FIELDS}
            if event["kind"]:
                form.events.append(event)
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
        if len(self.events) < MAX_EVENT_ROWS and (not self.events or self.events[-1]["kind"]):
            self.events.append(_blank_event())

    @property
    def groups(self) -> tuple[str, ...]:
        """The parts of the form the chosen questions need (all of them when none is chosen
        yet would be a wall of fields: only the turn's, which « Où en est le tour ? » needs)."""
        asks = [row["ask"] for row in self.questions if row.get("ask")] or ["where"]
        reads = {part for ask in asks for part in (QUESTION_BY_ASK[ask].reads if ask in QUESTION_BY_ASK else PARTS)}
        return tuple(part for part in PARTS if part in reads)


# ---------------------------------------------------------------------- conversion
_INT = re.compile(r"^-?\d+$")


def _scalar(text: str, path: str = "") -> int | str:
    """A number field: an int when it reads as one, else the text (load_situation names it).
    A number longer than a situation file may hold is refused as `judge check` refuses it."""
    from judge.inputs import MAX_NUMBER_DIGITS

    if not _INT.match(text):
        return text
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise SituationError(path, f"nombre trop long (plus de {MAX_NUMBER_DIGITS} chiffres)")
    return int(text)


def _names(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"[,;\n]", text) if part.strip()]


def _counts(text: str, key: str, value_of: Callable[[str, str], int | str] | None = None
            ) -> dict[str, int | str]:
    """`A=7, B=5` (or `A: 7`) -> {"A": 7, "B": 5}; `value_of(text, key)` reads each value."""
    out: dict[str, int | str] = {}
    for part in _names(text):
        name, sep, value = part.partition("=") if "=" in part else part.partition(":")
        if not sep or not name.strip():
            example = "A=RRG, B=2" if value_of is not None else "A=7, B=5"
            raise SituationError(key, f"« {part} » : NOM=NOMBRE attendu (par exemple {example})")
        out[name.strip()] = (value_of or _scalar)(value.strip(), key)
    return out


# Mana symbols: white, blue, black, red, green, colourless (`{2}` or `2`: generic).
MANA_SYMBOLS = {"W": "blanc", "U": "bleu", "B": "noir", "R": "rouge", "G": "vert", "C": "incolore"}
_MANA = re.compile(r"\{?(\d{1,3}|[WUBRGC])\}?", re.IGNORECASE)


def mana_amount(text: str, key: str) -> int | str:
    """A quantity of mana as a number (`3`) or as symbols (`RRG`, `{2}{R}`, `2R`): the
    amount (the situation format counts mana; its colours decide none of the answers)."""
    compact = text.replace(" ", "")
    if _INT.match(compact):
        return _scalar(compact, key)
    total, at = 0, 0
    for found in _MANA.finditer(compact):
        if found.start() != at:
            break
        symbol = found.group(1)
        total += int(symbol) if symbol.isdigit() else 1
        at = found.end()
    if at != len(compact) or not compact:
        raise SituationError(key, f"« {text[:20]} » : mana attendu en nombre (3) ou en symboles "
                             "(W U B R G C, par exemple RRG ou {2}{R})")
    return total


def mana_symbols(text: str) -> list[tuple[str, str]]:
    """The symbols of a mana text, each (symbol, French name), for showing it; [] if it is a
    plain number or does not read as symbols."""
    compact = text.replace(" ", "")
    out: list[tuple[str, str]] = []
    at = 0
    for found in _MANA.finditer(compact):
        if found.start() != at:
            return []
        symbol = found.group(1).upper()
        out.append((symbol, MANA_SYMBOLS.get(symbol, "générique")))
        at = found.end()
    return out if at == len(compact) and not _INT.match(compact) else []


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
            data[key] = _scalar(state[key], key)
    for key in ("hands", "life", "poison", "library"):
        if state.get(key):
            data[key] = _counts(state[key], key)
    for key in ("mana_pools", "mana_available"):
        if state.get(key):
            data[key] = _counts(state[key], key, mana_amount)
    for key in ("skip", "extra_turns", "left_game"):
        if state.get(key):
            data[key] = _names(state[key])
    if state.get("stack"):
        data["stack"] = _stack(state["stack"])
    creatures = [_creature(row, i) for i, row in enumerate(r for r in form.creatures if r.get("name"))]
    if creatures:
        data["creatures"] = creatures
    questions = [_question(row, i) for i, row in enumerate(r for r in form.questions if r.get("ask"))]
    if questions:
        data["questions"] = questions
    events, _ = form_events(form)
    if events:
        data["events"] = events
        # Replayed from the start of the turn: where it is, who has priority, the stack and
        # the lands played come from the events (docs/situation-format.md).
        for key in ("phase", "step", "priority", "stack", "lands_played", "damage_step"):
            data.pop(key, None)
    return data


def form_events(form: FormState) -> tuple[list[Any], list[int]]:
    """The builder's rows as the situation's `events`, and for each event the row it came
    from (an error on `events[i]` is shown on that row)."""
    players = form.player_names
    events: list[Any] = []
    rows: list[int] = []
    for index, row in enumerate(form.events):
        if not row.get("kind"):
            continue
        for event in _events(row, index, players):
            events.append(event)
            rows.append(index)
    return events, rows


def _event_amount(row: Mapping[str, str], path: str, mana: bool = False) -> int | str:
    text = row.get("amount", "")
    if not text:
        return 0
    return mana_amount(text, path) if mana else _scalar(text, path)


def _events(row: Mapping[str, str], index: int, players: tuple[str, ...]) -> list[Any]:
    kind = row["kind"]
    path = f"events[{index}]"
    if kind not in EVENT_BY_KIND:
        raise SituationError(path, f"événement inconnu « {kind[:30]} »")
    optional = {"combat": ("amount", "what", "blocks"), "deal_damage": ("player",),
                "enters_battlefield": ("player", "types", "amount")}.get(kind, ("amount", "what"))
    needed = [p for p in EVENT_BY_KIND[kind].params if p not in optional and not row.get(p)]
    if needed:
        raise SituationError(f"{path}.{needed[0]}", f"à remplir ({EVENT_PARAM_LABELS[needed[0]]})")
    player, creature = row.get("player", ""), row.get("creature", "")
    if kind == "until":
        if row.get("step") not in MOMENTS:
            raise SituationError(f"{path}.step", "choisissez un moment du tour")
        return [{UNTIL: row["step"]}]
    if kind == "all_pass":
        times = _event_amount(row, path) or 1
        if not isinstance(times, int) or not 1 <= times <= MAX_REPEAT:
            raise SituationError(f"{path}.amount", f"un nombre de 1 à {MAX_REPEAT} est attendu")
        return ["pass"] * (len(players) * times)
    if kind == "pass":
        return ["pass"]
    if kind == "play_land":
        return [{"play_land": player}]
    if kind == "cast":
        event: dict[str, Any] = {"cast": row.get("what") or "instant", "by": player}
        cost = _event_amount(row, f"{path}.amount", mana=True)
        if cost:
            event["cost"] = cost
        return [event]
    if kind == "activate":
        return [{"activate": "ability", "by": player}]
    if kind == "add_mana":
        return [{"add_mana": _event_amount(row, f"{path}.amount", mana=True) or 1, "by": player}]
    if kind == "combat":  # one row for a whole combat: to its attackers, its blockers, its damage
        blocks = _blocks(row["blocks"], f"{path}.blocks") if row.get("blocks") else {}
        return [{UNTIL: Step.DECLARE_ATTACKERS}, {"declare_attackers": _names(row["creatures"])},
                {UNTIL: Step.DECLARE_BLOCKERS}, {"declare_blockers": blocks}, {UNTIL: Step.COMBAT_DAMAGE}]
    if kind == "declare_attackers":
        return [{"declare_attackers": _names(row["creatures"])}]
    if kind == "declare_blockers":
        return [{"declare_blockers": _blocks(row["blocks"], f"{path}.blocks")}]
    if kind == "set_power":
        return [{"set_power": {"creature": creature, "power": _event_amount(row, f"{path}.amount")}}]
    if kind == "gain_control":
        return [{"gain_control": {"creature": creature, "by": player}}]
    if kind == "deal_damage":
        damage: dict[str, Any] = {"source": row["source"], "to": row["target"],
                                  "amount": _event_amount(row, f"{path}.amount")}
        if player:
            damage["controller"] = player
        return [{"deal_damage": damage}]
    if kind == "enters_battlefield":
        return [{"enters_battlefield": _entering_permanent(row, path)}]
    if kind in ("draw", "poison"):
        count = _event_amount(row, f"{path}.amount") or 1
        return [{kind: player, **({"count": count} if count != 1 else {})}]
    if kind == "leaves_game":
        return [{"leaves_game": player}]
    return [{kind: creature}]  # leaves_play, regenerate, tap, untap, destroy, shield


def _entering_permanent(row: Mapping[str, str], path: str) -> dict[str, Any]:
    """The permanent of « Un permanent arrive… »: its name, controller, and its types as
    words — card types (planeswalker, enchantement…), supertypes (légendaire, monde), the
    rest subtypes (Jace, Forêt) — with its loyalty (`amount`)."""
    permanent: dict[str, Any] = {"name": row["name"]}
    if row.get("player"):
        permanent["controller"] = row["player"]
    for word in row.get("types", "").replace(",", " ").split():
        folded = fold_name(word)
        key = ("card_types" if folded in CARD_TYPE_ALIASES else
               "supertypes" if folded in SUPERTYPE_ALIASES else "subtypes")
        permanent.setdefault(key, []).append(word)
    loyalty = _event_amount(row, f"{path}.amount")
    if row.get("amount"):
        permanent["loyalty"] = loyalty
    return permanent


def _creature(row: Mapping[str, str], index: int) -> dict[str, Any]:
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
            creature[key] = _scalar(row[key], f"creatures[{index}].{key}")
    for key in ("blocking", "attacks"):
        if row.get(key):
            creature[key] = row[key]
    return creature


def _question(row: Mapping[str, str], index: int) -> dict[str, Any]:
    """Only the parameters this question takes (a hidden field of another question is ignored)."""
    question: dict[str, Any] = {"ask": row["ask"]}
    spec = QUESTION_BY_ASK.get(row["ask"])
    params = spec.params if spec is not None else QUESTION_FIELDS[1:]
    for key in params:
        if not row.get(key):
            continue
        if key == "count":
            question[key] = _scalar(row[key], f"questions[{index}].count")
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
def _event_rows(events: Any, players: int) -> list[dict[str, str]] | None:
    """The builder's rows for a situation's events (a run of one `pass` per player is one
    « Tous les joueurs passent » row), or None when an event has no row (the situation is
    then shown as text)."""
    if not isinstance(events, list):
        return None
    rows: list[dict[str, str]] = []
    i = 0
    while i < len(events):
        event = events[i]
        row = _blank_event()
        if event == "pass":
            run = 0
            while i + run < len(events) and events[i + run] == "pass":
                run += 1
            rounds, rest = divmod(run, max(players, 1))
            if rounds:
                rows.append({**row, "kind": "all_pass", "amount": str(rounds) if rounds > 1 else ""})
            rows.extend({**_blank_event(), "kind": "pass"} for _ in range(rest))
            i += run
            continue
        if not isinstance(event, Mapping) or not event:
            return None
        filled = _event_row(event)
        if filled is None:
            return None
        rows.append({**row, **filled})
        i += 1
    return rows


def _event_row(event: Mapping[str, Any]) -> dict[str, str] | None:
    simple = {"leaves_play", "regenerate", "tap", "untap", "play_land"}
    key = next(iter(event))
    value = event[key]
    if key in simple and isinstance(value, str) and len(event) == 1:
        return {"kind": key, ("player" if key == "play_land" else "creature"): value}
    if key == "cast" and set(event) <= {"cast", "by", "cost"}:
        return {"kind": "cast", "what": str(value), "player": str(event.get("by", "")),
                "amount": str(event.get("cost") or "")}
    if key == "activate" and set(event) <= {"activate", "by"}:
        return {"kind": "activate", "player": str(event.get("by", ""))}
    if key == "add_mana" and set(event) <= {"add_mana", "by"}:
        return {"kind": "add_mana", "amount": str(value), "player": str(event.get("by", ""))}
    if key == "declare_attackers" and isinstance(value, list) and len(event) == 1:
        return {"kind": key, "creatures": _joined(value)}
    if key == "declare_blockers" and isinstance(value, Mapping) and len(event) == 1:
        return {"kind": key, "blocks": _pairs(value)}
    if key == "set_power" and isinstance(value, Mapping) and len(event) == 1:
        return {"kind": key, "creature": str(value.get("creature", "")), "amount": str(value.get("power", ""))}
    if key == "gain_control" and isinstance(value, Mapping) and len(event) == 1:
        return {"kind": key, "creature": str(value.get("creature", "")), "player": str(value.get("by", ""))}
    if key in ("destroy", "shield") and isinstance(value, str) and len(event) == 1:
        return {"kind": key, "creature": value}
    if key in ("draw", "poison", "leaves_game") and isinstance(value, str) and set(event) <= {key, "count"}:
        count = event.get("count", 1)
        return {"kind": key, "player": value, "amount": str(count) if count != 1 else ""}
    if (key == "deal_damage" and isinstance(value, Mapping) and len(event) == 1
            and set(value) <= {"source", "to", "amount", "controller"}):
        return {"kind": key, "source": str(value.get("source", "")), "target": str(value.get("to", "")),
                "amount": str(value.get("amount", "")), "player": str(value.get("controller") or "")}
    if key == "enters_battlefield" and isinstance(value, Mapping) and len(event) == 1 and set(value) <= {
            "name", "controller", "card_types", "supertypes", "subtypes", "loyalty"}:
        types = [*value.get("supertypes", ()), *value.get("card_types", ()), *value.get("subtypes", ())]
        return {"kind": key, "name": str(value.get("name", "")), "player": str(value.get("controller") or ""),
                "types": " ".join(str(t) for t in types),
                "amount": "" if value.get("loyalty") is None else str(value["loyalty"])}
    return None


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
    known = {*STATE_FIELDS, "creatures", "questions", "events"}
    if not set(data) <= known:
        return None
    form = FormState(state=dict.fromkeys(STATE_FIELDS, ""))
    if data.get("events"):
        rows = _event_rows(data["events"], len(_names(_joined(data.get("players") or "A, B"))))
        if rows is None:
            return None
        form.events = rows
    for key in ("edition", "active", "phase", "step", "damage_step", "priority",
                "lands_played", "land_plays", "max_hand_size", "defending", "attack_option"):
        if data.get(key) is not None:
            form.state[key] = str(data[key])
    for key in ("players", "skip", "extra_turns", "left_game"):
        if data.get(key):
            form.state[key] = _joined(data[key])
    for key in ("hands", "mana_pools", "mana_available", "life", "poison", "library"):
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


# ---------------------------------------------------------------------- errors on fields
@dataclass(frozen=True, slots=True, kw_only=True)
class FieldError:
    """An error shown on its field: the field's id, its label as the form words it, the reason."""

    field: str
    label: str
    message: str


_PATH = re.compile(r"^(?P<top>[a-z_]+)(?:\[(?P<index>\d+)\])?(?:\.(?P<key>[A-Za-z_]+))?")

# The situation format's key names a reason may quote (`damage_dealt`, `events`, `combat_damage`),
# as the form words them: a judge who filled the form never typed a key. Only names no French
# sentence uses (English words, or joined by « _ »): « combat », « phase », « source » stay.
_PARTS_WORDS = {"events": "Ce qui s'est passé ce tour", "questions": "Votre question", "creatures": "Créatures",
                "ask": "Votre question", "damage_order": "ordre des blessures", "damage_to": "blessures à",
                "card_types": "types de carte", "first_turn": "premier tour de la partie",
                "left_game": "joueurs qui ont quitté la partie", "turn_ended": "fin du tour"}


def _form_words() -> dict[str, str]:
    # Later tables win: `declare_attackers` is a question, an event and a step: a reason that
    # quotes it speaks of the step.
    words = {**{ask: spec.label for ask, spec in QUESTION_BY_ASK.items() if "_" in ask},
             **{kind.value: kind.label.rstrip("…").rstrip() for kind in EVENT_KINDS if "_" in kind.value},
             **{key: label for key, label in FIELD_LABELS.items() if "_" in key},
             **{key: label for key, label in CREATURE_LABELS.items() if "_" in key},
             **{key: label for key, label in PARAM_LABELS_FR.items() if key in ("creatures", "blocks")},
             **{phase: label for phase, label in PHASE_LABELS.items() if "_" in phase},
             **{m.value: m.label for m in MOMENTS.values() if "_" in m.value},
             **_PARTS_WORDS}
    return words


FORM_WORDS = _form_words()
_KEY_WORD = re.compile(r"(« )?(?<!\w)(" + "|".join(sorted(map(re.escape, FORM_WORDS), key=len, reverse=True))
                       + r")(?!\w)( »)?")


def in_form_words(reason: str) -> str:
    """A reason of the situation reader or the checks with the format's key names it quotes
    replaced by the form's own words, in « »: « la question damage_dealt suit le tour joué :
    décrivez-le avec events » -> « la question « Quelles blessures… » … avec « Ce qui s'est
    passé ce tour » »."""
    def word(m: re.Match[str]) -> str:
        before, after = m.group(1) or "", m.group(3) or ""
        if before and after:  # already quoted
            before = after = ""
        return f"{before}« {FORM_WORDS[m.group(2)]} »{after}"

    return _KEY_WORD.sub(word, reason)


def field_error(form: FormState, path: str, reason: str, event_rows: list[int] | None = None) -> FieldError:
    """Where the form shows an error the situation reader names by its path (`mana_pools.A`,
    `creatures[1].power`, `questions[0].creature`, `events[3]`): the field and its label."""
    found = _PATH.match(path or "")
    if not form.source.strip():  # a pasted situation is in the format's words: left as they are
        reason = in_form_words(reason)
    if form.source.strip() or found is None:
        return FieldError(field="source" if form.source.strip() else "check-button",
                          label=FIELD_LABELS["source"] if form.source.strip() else "Situation", message=reason)
    top, index, key = found.group("top"), found.group("index"), found.group("key")
    if top in ("phase", "step"):
        top = "moment"
    if top in FIELD_LABELS:
        return FieldError(field=top, label=FIELD_LABELS[top], message=reason)
    if top == "creatures" and index is not None:
        i = int(index)
        name = key if key in (*CREATURE_FIELDS, *CREATURE_FLAGS) else "name"
        return FieldError(field=f"creature{i}_{name}",
                          label=f"Créature {i + 1} — {CREATURE_LABELS[name]}", message=reason)
    if top == "questions":
        i = int(index or 0)
        name = key if key in QUESTION_FIELDS else "ask"
        label = f"Question {i + 1}" + (f" — {PARAM_LABELS_FR.get(name, name)}" if name != "ask" else "")
        return FieldError(field=f"question{i}_{name}", label=label, message=reason)
    if top == "events" and index is not None:
        i = int(index)
        row = event_rows[i] if event_rows is not None and i < len(event_rows) else i
        name = key if key in EVENT_FIELDS else "kind"
        label = f"Événement {row + 1}" + (f" — {EVENT_PARAM_LABELS[name]}" if name in EVENT_PARAM_LABELS else "")
        return FieldError(field=f"event{row}_{name}", label=label, message=reason)
    if top == "creatures":
        return FieldError(field="creature0_name", label="Créatures", message=reason)
    return FieldError(field="check-button", label="Situation", message=reason)
