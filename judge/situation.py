"""Described game situations (format 1): TOML or JSON text -> frozen `Situation`.

Owns the keys, their defaults, the French aliases of slugs and the validation: every
unknown key or wrong type is a `SituationError` naming its field path (0-based indexes,
`creatures[1].tapped`). It does not answer questions (see `checker.py`).
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from .errors import SituationError
from .turn import MAIN_PHASES, PHASE_STEPS, PHASES, STEP_PHASE

T = TypeVar("T")

SPELL_KINDS: tuple[str, ...] = (
    "instant",
    "sorcery",
    "creature",
    "artifact",
    "enchantment",
    "planeswalker",
)
STACK_KINDS: tuple[str, ...] = (*SPELL_KINDS, "ability", "trigger", "combat_damage")
SORCERY_SPEED: frozenset[str] = frozenset(SPELL_KINDS) - {"instant"}

ASKS: dict[str, tuple[str, ...]] = {
    "where": (),
    "priority": (),
    "next": (),
    "rest_of_turn": (),
    "play_land": ("player",),
    "cast": ("player", "kind"),
    "attack": ("creature",),
    "block": ("creature", "attacker"),
    "damage_steps": (),
    "deals_damage": ("creature",),
    "discard": ("player",),
    "mana_burn": ("player",),
    "turn_order": ("count",),
}


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """Lower case, no accents, `_ - ' ’` as spaces: the form aliases are compared in."""
    decomposed = unicodedata.normalize("NFD", text.strip().lower())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.sub(r"[_\-'’]", " ", plain).split())


def _aliases(table: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for slug, names in table.items():
        for name in (slug, *names):
            out[fold(name)] = slug
    return out


PHASE_ALIASES = _aliases({
    "beginning": ("début", "phase de début", "debut du tour"),
    "precombat_main": (
        "main", "main1", "main 1", "phase principale", "première phase principale",
        "phase principale 1", "phase principale d'avant combat", "principale 1",
        "phase principale précombat",
    ),
    "combat": ("phase de combat",),
    "postcombat_main": (
        "main2", "main 2", "seconde phase principale", "deuxième phase principale",
        "phase principale 2", "phase principale d'après combat", "principale 2",
        "phase principale postcombat",
    ),
    "ending": ("end", "fin", "phase de fin"),
})
STEP_ALIASES = _aliases({
    "untap": ("dégagement", "étape de dégagement"),
    "upkeep": ("entretien", "étape d'entretien"),
    "draw": ("pioche", "étape de pioche"),
    "beginning_of_combat": ("début du combat", "début de combat", "étape de début du combat"),
    "declare_attackers": ("déclaration des attaquants", "étape de déclaration des attaquants"),
    "declare_blockers": ("déclaration des bloqueurs", "étape de déclaration des bloqueurs"),
    "combat_damage": ("blessures de combat", "étape des blessures de combat", "dégâts de combat"),
    "end_of_combat": ("fin du combat", "fin de combat", "étape de fin de combat"),
    "end_of_turn": ("end step", "fin du tour", "fin de tour", "étape de fin du tour"),
    "cleanup": ("nettoyage", "étape de nettoyage"),
})
DAMAGE_STEP_ALIASES = _aliases({
    "first_strike": ("initiative", "première", "premiere etape"),
    "regular": ("normale", "normales", "seconde", "seconde etape"),
})
KIND_ALIASES = _aliases({
    "instant": ("éphémère",),
    "sorcery": ("rituel",),
    "creature": ("créature",),
    "artifact": ("artefact",),
    "enchantment": ("enchantement",),
    "planeswalker": (),
    "ability": ("capacité", "capacité activée"),
    "trigger": ("capacité déclenchée", "déclenchée", "triggered"),
    "combat_damage": ("blessures de combat",),
})
ABILITY_ALIASES = _aliases({
    "haste": ("célérité",),
    "first_strike": ("initiative",),
    "double_strike": ("double initiative",),
    "defender": ("défenseur",),
    "vigilance": (),
    "trample": ("piétinement",),
    "flash": (),
    "flying": ("vol",),
    "reach": ("portée",),
})
NO_MAXIMUM = frozenset({"none", "aucune", "aucun", "illimitee", "sans maximum", "null"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Creature:
    """A creature on the battlefield as the judge describes it."""

    name: str
    controller: str
    tapped: bool = False
    since_turn_start: bool = True
    abilities: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    attacking: bool = False
    blocking: str | None = None
    blocked: bool = False
    is_creature: bool = True
    # None: not said; inferred from first strike in the regular damage step.
    dealt_first_strike_damage: bool | None = None

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    @property
    def strikes_first(self) -> bool:
        return self.has("first_strike") or self.has("double_strike")

    @property
    def in_combat(self) -> bool:
        return self.is_creature and (self.attacking or self.blocking is not None)


@dataclass(frozen=True, slots=True, kw_only=True)
class StackItem:
    """An object on the stack."""

    kind: str
    controller: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    """The player holding priority passes."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Cast:
    kind: str
    by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Activate:
    ability: str
    by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayLand:
    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareAttackers:
    attackers: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareBlockers:
    blocks: tuple[tuple[str, str], ...]  # (blocker, attacker)


Event = Pass | Cast | Activate | PlayLand | DeclareAttackers | DeclareBlockers


@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """One `ask` with its parameters (those the ask does not take stay None)."""

    ask: str
    player: str | None = None
    kind: str | None = None
    creature: str | None = None
    attacker: str | None = None
    count: int | None = None

    def params(self) -> tuple[tuple[str, object], ...]:
        return tuple((name, getattr(self, name)) for name in ASKS[self.ask])


@dataclass(frozen=True, slots=True, kw_only=True)
class Situation:
    """A described game situation; `edition` None means the newest edition."""

    edition: str | None = None
    players: tuple[str, ...] = ("A", "B")
    active: str = "A"
    phase: str = "beginning"
    step: str | None = "untap"
    damage_step: str | None = None
    priority: str | None = None
    stack: tuple[StackItem, ...] = ()
    lands_played: int = 0
    land_plays: int = 1
    hands: tuple[tuple[str, int], ...] = ()
    max_hand_size: int | None = 7
    mana_pools: tuple[tuple[str, int], ...] = ()
    creatures: tuple[Creature, ...] = ()
    extra_turns: tuple[str, ...] = ()
    skip: tuple[str, ...] = ()
    events: tuple[Event, ...] | None = None
    questions: tuple[Question, ...] = ()
    source: str = field(default="-", compare=False)

    def creature(self, name: str) -> Creature | None:
        for creature in self.creatures:
            if creature.name == name:
                return creature
        return None

    def hand(self, player: str) -> int | None:
        return dict(self.hands).get(player)

    def mana(self, player: str) -> int:
        return dict(self.mana_pools).get(player, 0)


TOP_KEYS: tuple[str, ...] = (
    "edition", "players", "active", "phase", "step", "damage_step", "priority", "stack",
    "lands_played", "land_plays", "hands", "max_hand_size", "mana_pools", "creatures",
    "extra_turns", "skip", "events", "questions",
)
CREATURE_KEYS: tuple[str, ...] = (
    "name", "controller", "tapped", "since_turn_start", "abilities", "types", "power",
    "toughness", "attacking", "blocking", "blocked", "is_creature", "dealt_first_strike_damage",
)


# -- loading -------------------------------------------------------------------------


def load_situation_file(path: str, stdin_text: str | None = None) -> Situation:
    """Read a situation file; `-` means `stdin_text` (or standard input when None)."""
    if path == "-":
        text = stdin_text if stdin_text is not None else sys.stdin.read()
        return load_situation(text, source="-")
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise SituationError(path, "fichier introuvable") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SituationError(path, f"lecture impossible ({error})") from None
    return load_situation(text, source=path)


def load_situation(text: str, *, source: str = "-", fmt: str | None = None) -> Situation:
    """Parse TOML or JSON text (`fmt` "toml", "json" or None to guess) into a Situation."""
    fmt = fmt or _guess_format(text, source)
    if fmt == "json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise SituationError(
                f"{source}:{error.lineno}:{error.colno}",
                f"erreur de syntaxe JSON : {_json_reason(error.msg)}",
            ) from None
    elif fmt == "toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            line, column, reason = _toml_position(str(error), text)
            raise SituationError(
                f"{source}:{line}:{column}", f"erreur de syntaxe TOML : {reason}"
            ) from None
    else:
        raise SituationError("", f"format inconnu « {fmt} » (toml ou json)")
    return situation_from_data(data, source=source)


def _guess_format(text: str, source: str) -> str:
    if source.lower().endswith(".json"):
        return "json"
    if source.lower().endswith(".toml"):
        return "toml"
    return "json" if text.lstrip().startswith(("{", "[")) else "toml"


_JSON_REASONS = {
    "Expecting value": "valeur attendue",
    "Expecting ',' delimiter": "virgule attendue",
    "Expecting ':' delimiter": "deux-points attendus",
    "Expecting property name enclosed in double quotes": "nom de clé entre guillemets attendu",
    "Extra data": "texte en trop après la fin du document",
    "Unterminated string starting at": "chaîne non terminée",
    "Invalid control character at": "caractère de contrôle interdit",
}
_TOML_REASONS = {
    "Invalid value": "valeur invalide",
    "Invalid statement": "instruction invalide",
    "Expected '=' after a key in a key/value pair": "« = » attendu après la clé",
    "Cannot overwrite a value": "clé définie deux fois",
    "Cannot declare": "table déclarée deux fois",
    "Unterminated string": "chaîne non terminée",
    "Illegal character": "caractère interdit",
    "Invalid initial character for a key part": "caractère initial de clé invalide",
    "Expected newline or end of document after a statement": (
        "fin de ligne attendue après une instruction"
    ),
    "Unclosed array": "liste non fermée",
    "Unclosed inline table": "table en ligne non fermée",
}


def _json_reason(message: str) -> str:
    for english, french in _JSON_REASONS.items():
        if message.startswith(english):
            return french
    return f"syntaxe invalide ({message})"


def _toml_position(message: str, text: str) -> tuple[int, int, str]:
    match = re.search(r"\(at line (\d+), column (\d+)\)", message)
    head = re.sub(r"\s*\(at .*\)$", "", message)
    reason = next(
        (french for english, french in _TOML_REASONS.items() if head.startswith(english)),
        f"syntaxe invalide ({head})",
    )
    if match:
        return int(match.group(1)), int(match.group(2)), reason
    lines = text.splitlines() or [""]
    return len(lines), len(lines[-1]) + 1, reason  # "at end of document"


# -- field readers ---------------------------------------------------------------------


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _table(value: object, path: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise SituationError(path, "une table est attendue")
    return value


def _keys(table: Mapping[str, object], path: str, allowed: tuple[str, ...]) -> None:
    for key in table:
        if key not in allowed:
            raise SituationError(
                _join(path, key), f"clé inconnue (clés possibles : {', '.join(allowed)})"
            )


def _string(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise SituationError(path, "une chaîne est attendue")
    if not value.strip():
        raise SituationError(path, "une chaîne non vide est attendue")
    return value.strip()


def _bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise SituationError(path, "un booléen est attendu")
    return value


def _int(value: object, path: str, *, minimum: int | None = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SituationError(path, "un entier est attendu")
    if minimum is not None and value < minimum:
        raise SituationError(path, f"un entier supérieur ou égal à {minimum} est attendu")
    return value


def _list(value: object, path: str) -> list[object]:
    if not isinstance(value, list):
        raise SituationError(path, "une liste est attendue")
    return value


def _items(value: object, path: str, read: Callable[[object, str], T]) -> tuple[T, ...]:
    return tuple(read(item, f"{path}[{i}]") for i, item in enumerate(_list(value, path)))


def _slug(value: object, path: str, aliases: Mapping[str, str], what: str) -> str:
    text = _string(value, path)
    slug = aliases.get(fold(text))
    if slug is None:
        known = ", ".join(sorted(set(aliases.values())))
        raise SituationError(path, f"{what} inconnu(e) « {text} » (valeurs possibles : {known})")
    return slug


def _player(value: object, path: str, players: tuple[str, ...]) -> str:
    name = _string(value, path)
    if name not in players:
        raise SituationError(path, f"joueur inconnu « {name} » (joueurs : {', '.join(players)})")
    return name


# -- the situation -------------------------------------------------------------------


def situation_from_data(data: object, *, source: str = "-") -> Situation:
    """Validate parsed TOML/JSON data and build the Situation."""
    top = _table(data, "")
    _keys(top, "", TOP_KEYS)
    edition = _edition(top.get("edition"))
    players = _players(top.get("players"))
    active = _player(top["active"], "active", players) if "active" in top else players[0]
    has_events = top.get("events") is not None
    phase, step = _place(top, required=not has_events)
    creatures = _creatures(top.get("creatures", []), players, active)
    names = {creature.name for creature in creatures}
    situation = Situation(
        edition=edition,
        players=players,
        active=active,
        phase=phase,
        step=step,
        damage_step=_damage_step(top.get("damage_step"), step),
        priority=_optional(top.get("priority"), "priority", lambda v, p: _player(v, p, players)),
        stack=_items(top.get("stack", []), "stack", lambda v, p: _stack_item(v, p, players, active)),
        lands_played=_int(top.get("lands_played", 0), "lands_played"),
        land_plays=_int(top.get("land_plays", 1), "land_plays"),
        hands=_counts(top.get("hands", {}), "hands", players),
        max_hand_size=_max_hand(top.get("max_hand_size", 7)),
        mana_pools=_counts(top.get("mana_pools", {}), "mana_pools", players),
        creatures=creatures,
        extra_turns=_items(top.get("extra_turns", []), "extra_turns",
                           lambda v, p: _player(v, p, players)),
        skip=_skips(top.get("skip", []), phase, step, has_events),
        events=_events(top["events"], players, names) if has_events else None,
        questions=_items(top.get("questions", []), "questions",
                         lambda v, p: _question(v, p, players, names, active)),
        source=source,
    )
    return situation


def _optional(value: object, path: str, read: Callable[[object, str], T]) -> T | None:
    return None if value is None else read(value, path)


def _edition(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return _string(value, "edition")


def _players(value: object) -> tuple[str, ...]:
    if value is None:
        return ("A", "B")
    players = _items(value, "players", _string)
    if len(players) < 2:
        raise SituationError("players", "au moins deux joueurs sont attendus")
    for i, name in enumerate(players):
        if name in players[:i]:
            raise SituationError(f"players[{i}]", f"joueur « {name} » en double")
    return players


def _place(top: Mapping[str, object], *, required: bool) -> tuple[str, str | None]:
    raw_phase, raw_step = top.get("phase"), top.get("step")
    if not required:
        return "beginning", "untap"  # replaced by the replay of the events
    step: str | None = None
    phase: str | None = None
    if raw_step is not None:
        text = _string(raw_step, "step")
        if fold(text) in STEP_ALIASES:
            step = STEP_ALIASES[fold(text)]
        elif fold(text) in PHASE_ALIASES and PHASE_ALIASES[fold(text)] in MAIN_PHASES:
            phase = PHASE_ALIASES[fold(text)]  # "phase principale" written as a step
        else:
            known = ", ".join(sorted(set(STEP_ALIASES.values())))
            raise SituationError("step", f"étape inconnue « {text} » (valeurs possibles : {known})")
    if raw_phase is not None:
        given = _slug(raw_phase, "phase", PHASE_ALIASES, "phase")
        if phase is not None and given != phase:
            raise SituationError("step", f"« {raw_step} » n'est pas une étape de la phase {given}")
        phase = given
    if phase is None:
        if step is None:
            raise SituationError("phase", "clé obligatoire manquante (ou donnez events)")
        phase = STEP_PHASE[step]
    if step is not None and STEP_PHASE[step] != phase:
        raise SituationError(
            "step", f"l'étape {step} n'appartient pas à la phase {phase} (phases : {', '.join(PHASES)})"
        )
    if step is None and PHASE_STEPS[phase]:
        raise SituationError(
            "step", f"une étape de la phase {phase} est attendue ({', '.join(PHASE_STEPS[phase])})"
        )
    return phase, step


def _damage_step(value: object, step: str | None) -> str | None:
    if value is None:
        return None
    slug = _slug(value, "damage_step", DAMAGE_STEP_ALIASES, "étape de blessures")
    if step != "combat_damage":
        raise SituationError("damage_step", "n'a de sens que pendant l'étape combat_damage")
    return slug


def _stack_item(value: object, path: str, players: tuple[str, ...], active: str) -> StackItem:
    table = _table(value, path)
    _keys(table, path, ("kind", "controller"))
    if "kind" not in table:
        raise SituationError(_join(path, "kind"), "clé obligatoire manquante")
    kind = _slug(table["kind"], _join(path, "kind"), KIND_ALIASES, "type d'objet")
    controller = (
        _player(table["controller"], _join(path, "controller"), players)
        if "controller" in table
        else active
    )
    return StackItem(kind=kind, controller=controller)


def _counts(value: object, path: str, players: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    table = _table(value, path)
    out: list[tuple[str, int]] = []
    for name, count in table.items():
        key_path = _join(path, name)
        if name not in players:
            raise SituationError(key_path, f"joueur inconnu « {name} » (joueurs : {', '.join(players)})")
        out.append((name, _int(count, key_path)))
    return tuple(out)


def _max_hand(value: object) -> int | None:
    if value is None or (isinstance(value, str) and fold(value) in NO_MAXIMUM):
        return None
    if isinstance(value, str):
        raise SituationError("max_hand_size", "un entier ou « aucune » est attendu")
    return _int(value, "max_hand_size")


def _skips(value: object, phase: str, step: str | None, has_events: bool) -> tuple[str, ...]:
    out: list[str] = []
    for i, item in enumerate(_list(value, "skip")):
        path = f"skip[{i}]"
        text = _string(item, path)
        slug = STEP_ALIASES.get(fold(text)) or PHASE_ALIASES.get(fold(text))
        if slug is None:
            raise SituationError(path, f"étape ou phase inconnue « {text} »")
        if not has_events and slug in (phase, step):
            raise SituationError(path, "l'étape ou la phase en cours ne peut pas être sautée")
        out.append(slug)
    return tuple(out)


def _creatures(value: object, players: tuple[str, ...], active: str) -> tuple[Creature, ...]:
    creatures = _items(value, "creatures", lambda v, p: _creature(v, p, players, active))
    names = [creature.name for creature in creatures]
    for i, creature in enumerate(creatures):
        if creature.name in names[:i]:
            raise SituationError(f"creatures[{i}].name", f"créature « {creature.name} » en double")
        if creature.blocking is not None and creature.blocking not in names:
            raise SituationError(
                f"creatures[{i}].blocking", f"aucune créature ne s'appelle « {creature.blocking} »"
            )
    return creatures


def _ability(value: object, path: str) -> str:
    text = _string(value, path)
    return ABILITY_ALIASES.get(fold(text), fold(text).replace(" ", "_"))


def _creature(value: object, path: str, players: tuple[str, ...], active: str) -> Creature:
    table = _table(value, path)
    _keys(table, path, CREATURE_KEYS)

    def sub(key: str) -> str:
        return _join(path, key)

    if "name" not in table:
        raise SituationError(sub("name"), "clé obligatoire manquante")
    flags = {
        key: _bool(table[key], sub(key))
        for key in ("tapped", "since_turn_start", "attacking", "blocked", "is_creature",
                    "dealt_first_strike_damage")
        if key in table
    }
    return Creature(
        name=_string(table["name"], sub("name")),
        controller=(_player(table["controller"], sub("controller"), players)
                    if "controller" in table else active),
        abilities=_items(table.get("abilities", []), sub("abilities"), _ability),
        types=_items(table.get("types", []), sub("types"), _string),
        power=_optional(table.get("power"), sub("power"), lambda v, p: _int(v, p, minimum=None)),
        toughness=_optional(table.get("toughness"), sub("toughness"),
                            lambda v, p: _int(v, p, minimum=None)),
        blocking=_optional(table.get("blocking"), sub("blocking"), _string),
        **flags,
    )


def _names(value: object, path: str, names: set[str]) -> str:
    name = _string(value, path)
    if name not in names:
        raise SituationError(path, f"aucune créature ne s'appelle « {name} »")
    return name


def _events(value: object, players: tuple[str, ...], names: set[str]) -> tuple[Event, ...]:
    return _items(value, "events", lambda v, p: _event(v, p, players, names))


def _event(value: object, path: str, players: tuple[str, ...], names: set[str]) -> Event:
    if isinstance(value, str):
        if fold(value) in ("pass", "passe", "passer"):
            return Pass()
        raise SituationError(path, f"événement inconnu « {value} » (« pass » ou une table)")
    table = _table(value, path)
    kinds = [key for key in ("cast", "activate", "play_land", "declare_attackers",
                             "declare_blockers") if key in table]
    if len(kinds) != 1:
        raise SituationError(
            path, "un événement est attendu : pass, cast, activate, play_land, "
            "declare_attackers ou declare_blockers"
        )
    kind = kinds[0]
    if kind in ("cast", "activate"):
        _keys(table, path, (kind, "by"))
        if "by" not in table:
            raise SituationError(_join(path, "by"), "clé obligatoire manquante")
        by = _player(table["by"], _join(path, "by"), players)
        if kind == "cast":
            spell = _slug(table["cast"], _join(path, "cast"), KIND_ALIASES, "type de sort")
            if spell not in SPELL_KINDS:
                raise SituationError(_join(path, "cast"), f"« {spell} » n'est pas un type de sort")
            return Cast(kind=spell, by=by)
        ability = _string(table["activate"], _join(path, "activate"))
        if fold(ability) not in ("ability", "capacite"):
            raise SituationError(_join(path, "activate"), "« ability » est attendu")
        return Activate(ability="ability", by=by)
    _keys(table, path, (kind,))
    sub = _join(path, kind)
    if kind == "play_land":
        return PlayLand(player=_player(table[kind], sub, players))
    if kind == "declare_attackers":
        return DeclareAttackers(attackers=_items(table[kind], sub, lambda v, p: _names(v, p, names)))
    blocks = _table(table[kind], sub)
    return DeclareBlockers(blocks=tuple(
        (_names(blocker, _join(sub, blocker), names),
         _names(attacker, _join(sub, blocker), names))
        for blocker, attacker in blocks.items()
    ))


def _question(
    value: object, path: str, players: tuple[str, ...], names: set[str], active: str
) -> Question:
    table = _table(value, path)
    if "ask" not in table:
        raise SituationError(_join(path, "ask"), "clé obligatoire manquante")
    ask = _string(table["ask"], _join(path, "ask"))
    if ask not in ASKS:
        raise SituationError(
            _join(path, "ask"), f"question inconnue « {ask} » (questions : {', '.join(ASKS)})"
        )
    params = ASKS[ask]
    _keys(table, path, ("ask", *params))
    read: dict[str, Callable[[object, str], object]] = {
        "player": lambda v, p: _player(v, p, players),
        "kind": _spell_kind,
        "creature": lambda v, p: _names(v, p, names),
        "attacker": lambda v, p: _names(v, p, names),
        "count": lambda v, p: _int(v, p, minimum=1),
    }
    values: dict[str, object] = {}
    for param in params:
        if param in table:
            values[param] = read[param](table[param], _join(path, param))
        elif param == "player":
            values[param] = active
        elif param == "count":
            values[param] = len(players)
        else:
            raise SituationError(_join(path, param), "clé obligatoire manquante")
    return Question(ask=ask, **values)  # type: ignore[arg-type]


def _spell_kind(value: object, path: str) -> str:
    kind = _slug(value, path, KIND_ALIASES, "type de sort")
    if kind not in SPELL_KINDS:
        raise SituationError(path, f"« {kind} » n'est pas un type de sort ({', '.join(SPELL_KINDS)})")
    return kind
