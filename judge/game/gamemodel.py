"""An edition's game model, read from data (`rules/games/<id>.toml` or a user's file).

Owns the `GameModel`: phases and steps in order, the turn-based actions at the start of each
step (with their rules), who receives priority where, the facts that differ between releases
(mana burn, when mana empties, combat damage on the stack, Walls, spell kinds, first-turn draw),
the evasion rules, the known keyword abilities and the rules deciding each question
(`rules["land.play"]`). Errors are `ManifestError`s naming the file and the field, in French.
The file's TOML is parsed once per version of it (`judge.corpus.tomlcache`); it is validated
into the model on every load.
No edition is named in code: an edition says which model it follows (`game` in its manifest).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache

from judge.corpus.tomlcache import toml_data
from judge.errors import ManifestError, os_reason
from judge.game.aliases import ABILITY_ALIASES, CARD_TYPE_ALIASES, COLOR_ALIASES
from judge.game.turnplan import PHASE_STEPS, PHASES
from judge.resources import rules_folder

FORMAT = 1
# The facts a model states, with the type of their value.
FACT_TYPES: dict[str, type] = {
    "mana_burn": bool,
    "mana_empties": str,  # "phase" or "step"
    "combat_damage_on_stack": bool,
    "walls_cannot_attack": bool,
    "phased_in_haste": bool,  # a permanent that phased in this turn attacks as though it had haste
    "spell_kinds": list,
    "first_turn_draw": bool,
    "cast_verb": str,  # the French verb for casting a spell in this release's text
    "damage_assignment_order": bool,  # blocked attackers follow an order, lethal damage first
    # in multiplayer games other than Two-Headed Giant, the starting player draws on the first turn
    "first_turn_draw_multiplayer": bool,
    "band_same_target": bool,  # an attacking band attacks one player or planeswalker
    "combat_timing_points": bool,  # spells usable « only before/after » a point of combat
    "illegal_assignment_undone": bool,  # an illegal combat damage assignment is undone
    "state_based_name": str,
    # counting the requirements a declaration could obey, options of creatures that satisfy no
    # requirement of their own (a partner for one that can't attack or block alone) count too
    "requirements_count_partners": bool,  # the release's French name of a state-based action, with « un(e) »
}
# The state-based actions the engine performs, when a model lists them (`[[state_based_action]]`).
STATE_BASED_ACTIONS: tuple[str, ...] = ("zero_life", "empty_library", "poison", "zero_toughness",
                                        "lethal_damage", "deathtouch", "zero_loyalty",
                                        "planeswalker_uniqueness", "legend_rule", "world_rule")
# Those that keep at most one of a group of permanents (the legend rule: legendary permanents
# sharing a name; the world rule: world permanents), and which one they keep (`keeps`): the
# one there the longest, the one there the shortest time, or none. A tie keeps none.
UNIQUENESS_ACTIONS: dict[str, str] = {"legend_rule": "legendary", "world_rule": "world"}
KEEPS: tuple[str, ...] = ("oldest", "newest", "none")
# What a keyword ability may change (`[abilities.<name>].changes`), and the effects the engine
# applies (`effects`): an ability that only combines these is added as data.
ABILITY_CHANGES: tuple[str, ...] = ("attack", "block", "damage", "state_based_actions", "untap",
                                    "priority", "triggers")
ABILITY_EFFECTS: tuple[str, ...] = (
    "haste",  # attacks though not controlled continuously since the turn began
    "cant_attack",  # defender
    "attacks_untapped",  # vigilance: attacking doesn't tap it
    "flash",  # cast whenever an instant could be
    "evasion",  # blocked only by creatures matching its `[evasion.<name>]` table
    "landwalk",  # unblockable while the defending player controls a land of the type
    "protection",  # not blocked by, damage prevented from, sources with the quality
    "first_strike", "double_strike", "trample", "banding",
    "lethal_any_damage",  # any nonzero damage it assigns to a creature is lethal (deathtouch)
    "destroys_damaged",  # a creature it dealt damage to is destroyed (a state-based action)
    "lifelink",  # the damage it deals makes its controller gain that much life
    "damage_as_counters",  # its damage to a creature is -1/-1 counters (wither)
    "trigger",  # a triggered ability (its name goes on the stack: flanking, bushido…)
)
_TOP_KEYS = ("format", "description", "turn_rule", "phase", "facts", "evasion", "abilities", "rules",
             "unchecked", "state_based_action")
_PHASE_KEYS = ("id", "rule", "priority_rule", "actions", "step")
_STEP_KEYS = ("id", "priority", "priority_rule", "actions")


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """A turn-based action at the start of a step (`what` names it; `rule` states it)."""

    what: str
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class StateBasedAction:
    """A state-based action (`what` names it, one of `STATE_BASED_ACTIONS`; `rules` state it),
    performed whenever a player would receive priority."""

    what: str
    rules: tuple[str, ...]
    keeps: str | None = None  # a uniqueness action's survivor: one of `KEEPS`


# A triggered keyword ability: when it triggers (`on`) and what it does when it resolves (`does`).
KEYWORD_TRIGGER_ON: tuple[str, ...] = (
    "blocks_or_blocked",  # it blocks or becomes blocked (bushido)
    "becomes_blocked",  # it becomes blocked (rampage)
    "blocked_by_creature_without",  # it becomes blocked by a creature without it: once each (flanking)
    "ally_attacks_alone",  # a creature its controller controls attacks alone (exalted)
    "combat_damage_to_player",  # it deals combat damage to a player (poisonous)
)
KEYWORD_TRIGGER_DOES: tuple[str, ...] = (
    "pump_self",  # it gets +N/+N until end of turn
    "pump_self_per_extra_blocker",  # +N/+N for each creature blocking it beyond the first
    "shrink_blocker",  # the blocking creature gets -1/-1 until end of turn
    "pump_attacker",  # the creature attacking alone gets +1/+1 until end of turn
    "poison",  # the player gets N poison counters
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Keyword:
    """A keyword ability the edition defines: its rules, what it changes (`ABILITY_CHANGES`)
    and the effects the engine applies for it (`ABILITY_EFFECTS`)."""

    ability: str
    rules: tuple[str, ...]
    changes: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()
    trigger: tuple[str, str] | None = None  # (on, does) of a triggered keyword ability


@dataclass(frozen=True, slots=True, kw_only=True)
class StepModel:
    """A step (or a main phase, `step` None): priority and turn-based actions, in order."""

    phase: str
    step: str | None
    priority: bool
    priority_rule: str
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Fact:
    """A value of the game model (a number, a name…) with the rules that state it."""

    value: object
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Evasion:
    """An attacker with `ability` can be blocked only by a creature matching one of `blockers`
    (pairs `("ability" | "color" | "card_type", slug)`)."""

    ability: str
    rules: tuple[str, ...]
    blockers: tuple[tuple[str, str], ...]
    # A creature with it can block only creatures with it (shadow: 2004 502.8b, 2010 702.25b).
    exclusive: bool = False


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class GameModel:
    """How one edition's game runs, and which of its rules decide each question.

    Compared and hashed by identity (`eq=False`): a model is loaded once per file version
    and the per-model tables below are cached on it.
    """

    source: str
    description: str
    turn_rule: str
    phase_rules: tuple[tuple[str, str], ...]
    steps: tuple[StepModel, ...]
    facts: tuple[tuple[str, Fact], ...]
    evasions: tuple[Evasion, ...]
    abilities: tuple[tuple[str, tuple[str, ...]], ...]
    cites: tuple[tuple[str, tuple[str, ...]], ...]
    unchecked: tuple[tuple[str, str], ...] = ()  # rule number -> why no check implements it
    state_based_actions: tuple[StateBasedAction, ...] = ()
    keywords: tuple[Keyword, ...] = ()  # the abilities with what they change and do

    def defines(self, ability: str) -> bool:
        """Whether this edition defines the keyword ability (listed in `[abilities]`)."""
        return ability in _keywords(self)

    def grants(self, abilities: tuple[str, ...], effect: str) -> bool:
        """Whether one of these abilities has the effect (`ABILITY_EFFECTS`) in this edition."""
        table = _keywords(self)
        return any(effect in table[a].effects for a in abilities if a in table)

    def granting(self, abilities: tuple[str, ...], effect: str) -> tuple[str, ...]:
        """Those of these abilities that have the effect in this edition."""
        table = _keywords(self)
        return tuple(a for a in abilities if a in table and effect in table[a].effects)

    def keyword(self, ability: str) -> Keyword | None:
        """The keyword ability as this edition defines it (None: it doesn't)."""
        return _keywords(self).get(ability)

    def performs(self, what: str) -> bool:
        """Whether this model lists the state-based action `what`."""
        return what in _state_based(self)

    def state_based(self, what: str) -> StateBasedAction | None:
        """The state-based action `what` as this model lists it (None: it doesn't)."""
        return _state_based(self).get(what)

    @property
    def layout(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Phases in order with their steps in order (empty for a main phase)."""
        return _layout(self)

    def step(self, phase: str, step: str | None) -> StepModel:
        return _steps(self)[(phase, step)]

    def has(self, phase: str, step: str | None) -> bool:
        return (phase, step) in _steps(self)

    def phase_rule(self, phase: str) -> str:
        return dict(self.phase_rules)[phase]

    def fact(self, name: str) -> Fact:
        return _facts(self)[name]

    def rules(self, concept: str) -> tuple[str, ...]:
        """The rules a concept cites (`land.play`, `phase.combat`, `priority.upkeep`…)."""
        return _concepts(self).get(concept, ())

    def concepts(self) -> Mapping[str, tuple[str, ...]]:
        return _concepts(self)

    def ability_rules(self, ability: str) -> tuple[str, ...]:
        return dict(self.abilities).get(ability, ())

    def evasion(self, ability: str) -> Evasion | None:
        return next((e for e in self.evasions if e.ability == ability), None)


@cache
def _layout(model: GameModel) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((phase, tuple(s.step for s in model.steps if s.phase == phase and s.step))
                 for phase, _ in model.phase_rules)


@cache
def _state_based(model: GameModel) -> dict[str, StateBasedAction]:
    return {a.what: a for a in model.state_based_actions}


@cache
def _keywords(model: GameModel) -> dict[str, Keyword]:
    return {k.ability: k for k in model.keywords}


@cache
def _steps(model: GameModel) -> dict[tuple[str, str | None], StepModel]:
    return {(s.phase, s.step): s for s in model.steps}


@cache
def _facts(model: GameModel) -> dict[str, Fact]:
    return dict(model.facts)


@cache
def _concepts(model: GameModel) -> dict[str, tuple[str, ...]]:
    """Every concept → rules: the `[rules]` table plus those derived from the structure."""
    out: dict[str, tuple[str, ...]] = {"turn.phases": (model.turn_rule,)}
    for phase, rule in model.phase_rules:
        out[f"phase.{phase}"] = (rule,)
    for entry in model.steps:
        name = entry.step or "main"
        out[f"priority.{name}"] = (entry.priority_rule,)
        for action in entry.actions:
            key = f"action.{action.what}"
            out[key] = tuple(dict.fromkeys((*out.get(key, ()), action.rule)))
            # the same action in this step only (`action.triggers.upkeep`)
            key = f"action.{action.what}.{entry.step or entry.phase}"
            out[key] = tuple(dict.fromkeys((*out.get(key, ()), action.rule)))
    for name, fact in model.facts:
        out[f"fact.{name}"] = fact.rules
    for evasion in model.evasions:
        out[f"evasion.{evasion.ability}"] = evasion.rules
    for ability, rules in model.abilities:
        out[f"ability.{ability}"] = rules
    for sba in model.state_based_actions:
        out[f"sba.{sba.what}"] = sba.rules
    out.update(model.cites)
    return out


# -- loading ----------------------------------------------------------------------------


@lru_cache(maxsize=64)
def model_path(game: str) -> str:
    """A model id (`2004`) names `rules/games/<id>.toml`; anything else is a file path. The
    embedded rules folder is the package's for the whole process: a name's path is found once
    (keyed by the name; the file itself is still stat'ed on every load)."""
    if game.endswith(".toml"):
        return game
    return os.path.join(rules_folder(), "games", f"{game}.toml")


def load_game_model(game: str) -> GameModel:
    """The model an edition's `game` names (read again only when the file changes)."""
    path = model_path(game)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ManifestError(path, "", f"modèle de jeu introuvable (game = « {game} »)") from None
    except OSError as error:
        raise ManifestError(path, "", f"lecture impossible ({os_reason(error)})") from None
    return _load(path, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=64)
def _load(path: str, mtime_ns: int, size: int) -> GameModel:
    try:
        return _Reader(path).model(toml_data(path))
    except ManifestError:
        # The cached tables may be a stray or planted value: the file decides, parsed again
        # (its part written over), and only its own fault is reported.
        return _Reader(path).model(toml_data(path, cached=False))


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, field: str, reason: str) -> ManifestError:
        return ManifestError(self.source, field, reason)

    def table(self, value: object, field: str, keys: tuple[str, ...] | None = None
              ) -> dict[str, object]:
        if not isinstance(value, dict):
            raise self.fail(field, "une table est attendue")
        if keys is not None:
            for key in value:
                if key not in keys:
                    raise self.fail(f"{field}.{key}" if field else key,
                                    f"clé inconnue (clés possibles : {', '.join(keys)})")
        return value

    def rule(self, value: object, field: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(field, "un numéro de règle est attendu")
        return value.strip()

    def rules(self, value: object, field: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.fail(field, "une liste de numéros de règles est attendue")
        return tuple(self.rule(v, f"{field}[{i}]") for i, v in enumerate(value))

    def list_of_tables(self, value: object, field: str) -> list[object]:
        if not isinstance(value, list):
            raise self.fail(field, "une liste de tables est attendue")
        return value

    def model(self, raw: dict[str, object]) -> GameModel:
        self.table(raw, "", _TOP_KEYS)
        if raw.get("format") != FORMAT:
            raise self.fail("format", f"format de modèle {FORMAT} attendu")
        phases = self.list_of_tables(raw.get("phase"), "phase")
        order = [self.table(p, f"phase[{i}]", _PHASE_KEYS).get("id") for i, p in enumerate(phases)]
        expected = [p for p in PHASES if p in order]
        if order != expected or not order:
            raise self.fail("phase", f"phases attendues dans cet ordre : {', '.join(PHASES)}")
        phase_rules: list[tuple[str, str]] = []
        steps: list[StepModel] = []
        for i, phase in enumerate(phases):
            assert isinstance(phase, dict)
            field = f"phase[{i}]"
            pid = str(phase["id"])
            phase_rules.append((pid, self.rule(phase.get("rule"), f"{field}.rule")))
            raw_steps = phase.get("step")
            if raw_steps is None:
                steps.append(self.step(phase, field, pid, None))
                continue
            if "priority_rule" in phase or "actions" in phase:
                raise self.fail(field, "une phase avec des étapes décrit priorité et actions "
                                "dans ses étapes")
            ids = []
            for j, step in enumerate(self.list_of_tables(raw_steps, f"{field}.step")):
                sfield = f"{field}.step[{j}]"
                table = self.table(step, sfield, _STEP_KEYS)
                sid = table.get("id")
                if sid not in PHASE_STEPS[pid]:
                    raise self.fail(f"{sfield}.id", f"étape inconnue de la phase {pid} "
                                    f"(étapes : {', '.join(PHASE_STEPS[pid])})")
                ids.append(str(sid))
                steps.append(self.step(table, sfield, pid, str(sid)))
            if ids != [s for s in PHASE_STEPS[pid] if s in ids]:
                raise self.fail(f"{field}.step", f"étapes attendues dans cet ordre : "
                                f"{', '.join(PHASE_STEPS[pid])}")
        keywords = self.abilities(raw.get("abilities", {}))
        return GameModel(
            source=self.source,
            description=str(raw.get("description", "")),
            turn_rule=self.rule(raw.get("turn_rule"), "turn_rule"),
            phase_rules=tuple(phase_rules),
            steps=tuple(steps),
            facts=self.facts(raw.get("facts")),
            evasions=self.evasions(raw.get("evasion", {})),
            abilities=tuple((k.ability, k.rules) for k in keywords),
            keywords=keywords,
            cites=tuple((str(k), self.rules(v, f"rules.{k}"))
                        for k, v in self.table(raw.get("rules", {}), "rules").items()),
            unchecked=tuple((self.rule(k, "unchecked"), self.text(v, f"unchecked.{k}"))
                            for k, v in self.table(raw.get("unchecked", {}), "unchecked").items()),
            state_based_actions=self.state_based_actions(raw.get("state_based_action", [])),
        )

    def state_based_actions(self, value: object) -> tuple[StateBasedAction, ...]:
        out = []
        for i, item in enumerate(self.list_of_tables(value, "state_based_action")):
            field = f"state_based_action[{i}]"
            table = self.table(item, field, ("what", "rules", "keeps"))
            what = table.get("what")
            if what not in STATE_BASED_ACTIONS:
                raise self.fail(f"{field}.what", "action basée sur un état inconnue du moteur "
                                f"(connues : {', '.join(STATE_BASED_ACTIONS)})")
            keeps = table.get("keeps")
            if what in UNIQUENESS_ACTIONS and keeps not in KEEPS:
                raise self.fail(f"{field}.keeps", f"lequel reste est attendu : {', '.join(KEEPS)}")
            if what not in UNIQUENESS_ACTIONS and keeps is not None:
                raise self.fail(f"{field}.keeps", "seules la règle de la légende et la règle "
                                "du monde gardent un permanent")
            out.append(StateBasedAction(what=str(what),
                                        rules=self.rules(table.get("rules"), f"{field}.rules"),
                                        keeps=None if keeps is None else str(keeps)))
        return tuple(out)

    def text(self, value: object, field: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(field, "une chaîne non vide est attendue")
        return value

    def step(self, table: dict[str, object], field: str, phase: str, step: str | None
             ) -> StepModel:
        priority = table.get("priority", True)
        if not isinstance(priority, bool):
            raise self.fail(f"{field}.priority", "un booléen est attendu")
        actions = []
        for k, item in enumerate(self.list_of_tables(table.get("actions", []), f"{field}.actions")):
            afield = f"{field}.actions[{k}]"
            action = self.table(item, afield, ("what", "rule"))
            what = action.get("what")
            if not isinstance(what, str) or not what:
                raise self.fail(f"{afield}.what", "un nom d'action est attendu")
            actions.append(Action(what=what, rule=self.rule(action.get("rule"), f"{afield}.rule")))
        return StepModel(phase=phase, step=step, priority=priority,
                         priority_rule=self.rule(table.get("priority_rule"), f"{field}.priority_rule"),
                         actions=tuple(actions))

    def facts(self, value: object) -> tuple[tuple[str, Fact], ...]:
        table = self.table(value, "facts", tuple(FACT_TYPES))
        out = []
        for name, kind in FACT_TYPES.items():
            field = f"facts.{name}"
            if name not in table:
                raise self.fail(field, "fait obligatoire manquant")
            fact = self.table(table[name], field, ("value", "rules"))
            if not isinstance(fact.get("value"), kind):
                raise self.fail(f"{field}.value", f"valeur de type {kind.__name__} attendue")
            out.append((name, Fact(value=_frozen(fact["value"]),
                                   rules=self.rules(fact.get("rules"), f"{field}.rules"))))
        empties = dict(out)["mana_empties"].value
        if empties not in ("phase", "step"):
            raise self.fail("facts.mana_empties.value", "« phase » ou « step » est attendu")
        return tuple(out)

    def evasions(self, value: object) -> tuple[Evasion, ...]:
        out = []
        kinds = {"ability": ABILITY_ALIASES, "color": COLOR_ALIASES, "card_type": CARD_TYPE_ALIASES}
        for ability, raw in self.table(value, "evasion").items():
            field = f"evasion.{ability}"
            if ability not in ABILITY_ALIASES.values():
                raise self.fail(field, "capacité inconnue du moteur")
            table = self.table(raw, field, ("rules", "blockers", "exclusive"))
            blockers = []
            for i, item in enumerate(self.list_of_tables(table.get("blockers"), f"{field}.blockers")):
                entry = self.table(item, f"{field}.blockers[{i}]", (*kinds, "shares_color"))
                for kind, slug in entry.items():
                    if kind == "shares_color":  # a creature sharing a colour with the attacker
                        if slug is not True:
                            raise self.fail(f"{field}.blockers[{i}].{kind}", "true est attendu")
                        blockers.append((kind, "true"))
                        continue
                    if slug not in kinds[kind].values():
                        raise self.fail(f"{field}.blockers[{i}].{kind}", f"valeur inconnue « {slug} »")
                    blockers.append((kind, str(slug)))
            exclusive = table.get("exclusive", False)
            if not isinstance(exclusive, bool):
                raise self.fail(f"{field}.exclusive", "un booléen est attendu")
            out.append(Evasion(ability=ability, rules=self.rules(table.get("rules"), f"{field}.rules"),
                               blockers=tuple(blockers), exclusive=exclusive))
        return tuple(out)

    def abilities(self, value: object) -> tuple[Keyword, ...]:
        """`[abilities]`: each ability a table `{rules, changes, effects}` (or, as in a model
        of format 1 before issue 33, its list of rules: the effect of its own name)."""
        out = []
        for ability, raw in self.table(value, "abilities").items():
            field = f"abilities.{ability}"
            if ability not in ABILITY_ALIASES.values():
                raise self.fail(field, "capacité inconnue du moteur")
            if isinstance(raw, list):
                own: tuple[str, ...] = (ability,) if ability in ABILITY_EFFECTS else ()
                out.append(Keyword(ability=ability, rules=self.rules(raw, field), effects=own))
                continue
            table = self.table(raw, field, ("rules", "changes", "effects", "trigger"))
            changes = self.words(table.get("changes", []), f"{field}.changes", ABILITY_CHANGES)
            effects = self.words(table.get("effects", []), f"{field}.effects", ABILITY_EFFECTS)
            trigger = None
            if "trigger" in table:
                spec = self.table(table["trigger"], f"{field}.trigger", ("on", "does"))
                on = self.words([spec.get("on")], f"{field}.trigger.on", KEYWORD_TRIGGER_ON)[0]
                does = self.words([spec.get("does")], f"{field}.trigger.does", KEYWORD_TRIGGER_DOES)[0]
                trigger = (on, does)
            out.append(Keyword(ability=ability, rules=self.rules(table.get("rules"), f"{field}.rules"),
                               changes=changes, effects=effects, trigger=trigger))
        return tuple(out)

    def words(self, value: object, field: str, known: tuple[str, ...]) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.fail(field, "une liste est attendue")
        for i, word in enumerate(value):
            if word not in known:
                raise self.fail(f"{field}[{i}]", f"valeur inconnue du moteur (connues : {', '.join(known)})")
        return tuple(str(w) for w in value)


def _frozen(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value
