"""Described game situations (format 3): TOML or JSON text -> frozen `Situation`.

Owns the keys, their defaults and the validation: every unknown key or wrong type is a
`SituationError` naming its field path (0-based indexes, `creatures[1].tapped`). The model is in
`judge.game.situationmodel`, the aliases in `judge.game.aliases`, the readers of permanents, effects,
triggers and extra steps in `judge.game.readers`; it does not answer questions.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from judge.errors import SituationError
from judge.game import readers
from judge.game.aliases import (
    ABILITY_ALIASES,
    ABILITY_NAMES,
    ABILITY_PARAMS,
    ASK_ALIASES,
    ATTACK_OPTION_ALIASES,
    CARD_TYPE_ALIASES,
    COLOR_ALIASES,
    DAMAGE_STEP_ALIASES,
    KEY_ALIASES,
    KIND_ALIASES,
    LAND_TYPE_ALIASES,
    LANDWALK_ALIASES,
    NO_MAXIMUM,
    PHASE_ALIASES,
    PROTECTION_ALIASES,
    STEP_ALIASES,
    UNTIL_ALIASES,
    VARIANT_ALIASES,
    WHEN_ALIASES,
    fold_name,
)
from judge.game.fieldreaders import (
    check_keys,
    english_keys,
    english_names,
    join_path,
    read_bool,
    read_int,
    read_items,
    read_list,
    read_optional,
    read_player,
    read_slug,
    read_string,
    read_table,
)
from judge.game.situationmodel import (
    ASKS,
    CREATURE_KEYS,
    MAX_COUNT,
    MAX_CREATURES,
    MAX_QUESTIONS,
    TOP_KEYS,
    Creature,
    Question,
    Situation,
)
from judge.game.turnplan import (
    MAIN_PHASES,
    PHASE_STEPS,
    PHASES,
    STEP_PHASE,
    Phase,
    Step,
)
from judge.inputs import (
    MAX_EXTRA_PHASES,
    MAX_EXTRA_STEPS,
    MAX_LIST_ITEMS,
    MAX_SITUATION_BYTES,
    MAX_SITUATION_WORK,
    MAX_TRIGGERS,
    has_surrogate,
    structure_problem,
)

if TYPE_CHECKING:
    from judge.game.objects import Permanent, StackItem

# -- loading -------------------------------------------------------------------------


def load_situation_file(path: str, stdin_text: str | None = None) -> Situation:
    """Read a situation file (a regular file of at most `MAX_SITUATION_BYTES`, in UTF-8);
    `-` means `stdin_text` (or standard input when None)."""
    from judge.inputs import InputError, decode_utf8, read_bounded_stream, read_regular

    try:
        if path == "-":
            if stdin_text is None:
                stdin_text = decode_utf8(read_bounded_stream(sys.stdin.buffer, MAX_SITUATION_BYTES), "-")
            elif len(stdin_text) > MAX_SITUATION_BYTES:
                raise InputError("-", "entrée standard trop grande")
            return load_situation(stdin_text, source="-")
        text = decode_utf8(read_regular(path, MAX_SITUATION_BYTES), path)
    except InputError as error:
        raise SituationError(error.path, error.reason) from None
    return load_situation(text, source=path)


def load_situation(text: str, *, source: str = "-", fmt: str | None = None) -> Situation:
    """Parse TOML or JSON text (`fmt` "toml", "json" or None to guess) into a Situation.
    Bounded: size, nesting, dotted keys and numbers are checked before parsing
    (`judge.inputs`), list lengths and size × questions after."""
    data = parse_situation_text(text, source=source, fmt=fmt)
    situation = situation_from_data(data, source=source)
    if len(text.encode("utf-8", "replace")) * max(len(situation.questions), 1) > MAX_SITUATION_WORK:
        raise SituationError(
            "questions", f"trop de travail : taille de la situation × nombre de questions au plus "
            f"{MAX_SITUATION_WORK // (1024 * 1024)} Mio (posez moins de questions, ou en plusieurs fois)")
    return situation


def parse_situation_text(text: str, *, source: str = "-", fmt: str | None = None) -> Any:
    """The data of a situation's TOML or JSON text, not yet read as a situation: the one path
    every situation text takes (a file, standard input, the API, the web form, a shared link).
    Size, nesting, dotted keys and numbers are checked before parsing (`judge.inputs`); every
    refusal is a `SituationError` in French."""
    if len(text) > MAX_SITUATION_BYTES:
        raise SituationError(source, f"situation trop grande (au plus {MAX_SITUATION_BYTES // 1024} Kio)")
    fmt = fmt or _guess_format(text, source)
    if fmt in ("json", "toml"):
        problem = structure_problem(text, fmt)
        if problem:
            raise SituationError(source, problem)
    data: Any
    if fmt == "json":
        import json  # only for a JSON situation

        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise SituationError(
                f"{source}:{error.lineno}:{error.colno}",
                f"erreur de syntaxe JSON : {_json_reason(error.msg)}",
            ) from None
        except (ValueError, RecursionError):
            raise SituationError(source, "JSON refusé (nombre trop long ou imbrication trop profonde)") from None
    elif fmt == "toml":
        import tomllib  # only for a TOML situation

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            from judge.inputs import toml_position  # only for a syntax error

            line, column, reason = toml_position(str(error), text)
            raise SituationError(
                f"{source}:{line}:{column}", f"erreur de syntaxe TOML : {reason}"
            ) from None
        except (ValueError, RecursionError):
            raise SituationError(source, "TOML refusé (nombre trop long ou imbrication trop profonde)") from None
    else:
        raise SituationError("", f"format inconnu « {fmt} » (toml ou json)")
    if has_surrogate(data, text):
        raise SituationError(source, "caractère invalide (demi-paire de substitution, comme \\ud800)")
    return data


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
    "Invalid \\uXXXX escape": "séquence \\uXXXX invalide",
    "Invalid \\escape": "séquence d'échappement invalide",
    "Expecting property name": "nom de clé attendu",
}
def _json_reason(message: str) -> str:
    for english, french in _JSON_REASONS.items():
        if message.startswith(english):
            return french
    return "syntaxe invalide"


# -- the situation -------------------------------------------------------------------

# The keys of each kind of table that the French names leave as they are (`english_keys`), and
# so are known to `check_keys` (`english_names` keeps those of the keys it is given).
_TOP_ENGLISH = english_names(TOP_KEYS, KEY_ALIASES)
_CREATURE_ENGLISH = english_names(CREATURE_KEYS, KEY_ALIASES)
_QUESTION_KEYS = {ask: ("ask", *params) for ask, params in ASKS.items()}
_QUESTION_ENGLISH = {ask: english_names(keys, KEY_ALIASES) for ask, keys in _QUESTION_KEYS.items()}
_ANY_QUESTION_ENGLISH = frozenset().union(*_QUESTION_ENGLISH.values())
# Each key as the model's own string: passed as a keyword argument, it is found by identity
# among a dataclass's parameters, where a parsed key (equal, but another string) is compared
# with each parameter's name in turn.
_KEYWORDS = {key: key for key in (*TOP_KEYS, *CREATURE_KEYS)}


# The caps of `judge.inputs` on some lists of a situation; any other's is MAX_LIST_ITEMS.
_LIST_CAPS = {"extra_steps": MAX_EXTRA_STEPS, "extra_phases": MAX_EXTRA_PHASES,
              "triggers": MAX_TRIGGERS, "pending_triggers": MAX_TRIGGERS}
_SMALLEST_CAP = min(*_LIST_CAPS.values(), MAX_LIST_ITEMS)


def _check_lengths(top: Mapping[str, object]) -> None:
    """The caps of `judge.inputs` on the lists a check replays (before anything is built)."""
    own = ("events", "questions", "creatures", "permanents")  # their caps: judge.game.model
    for key, value in top.items():
        if not isinstance(value, list) or len(value) <= _SMALLEST_CAP:
            continue
        cap = _LIST_CAPS.get(key, MAX_LIST_ITEMS)
        if len(value) > cap and key not in own:
            raise SituationError(key, f"trop d'éléments : {len(value)} (au plus {cap:,})".replace(",", " "))


def situation_from_data(data: object, *, source: str = "-") -> Situation:
    """Validate parsed TOML/JSON data and build the Situation."""
    top = english_keys(read_table(data, ""), "", KEY_ALIASES, _TOP_ENGLISH)
    _check_lengths(top)
    check_keys(top, "", TOP_KEYS, _TOP_ENGLISH)
    edition = _edition(top.get("edition"))
    players = _players(top.get("players"))
    active = read_player(top["active"], "active", players) if "active" in top else players[0]
    has_events = top.get("events") is not None
    phase, step = _place(top, required=not has_events)
    # A key left out reads as its empty list, without calling its reader.
    try:
        creatures = _creatures(top["creatures"], players, active) if "creatures" in top else ()
    except UnknownAbility as error:
        raise error.in_edition(edition) from None
    names = {creature.name for creature in creatures}
    owners = {creature.name: creature.controller for creature in creatures}
    permanents = (readers.permanents(top["permanents"], players, active, names)
                  if "permanents" in top else ())
    everything = names | {permanent.name for permanent in permanents}
    # Events first: the creatures they put onto the battlefield are known to the triggers
    # and the questions.
    events = None
    if has_events:
        from judge.game.eventreaders import read_events

        try:
            events = read_events(top["events"], players, names, everything, owners, active,
                                 creature=_creature)
        except UnknownAbility as error:
            raise error.in_edition(edition) from None
    _check_attacks(creatures, players, permanents)
    variant, teams = _variant(top, players, active)
    given: dict[str, object] = {}  # a key left out keeps the `Situation` default
    if not _TOP_READERS.keys().isdisjoint(top):
        known = _Known(players=players, active=active, owners=owners)
        given = {_KEYWORDS[key]: _TOP_READERS[key](value, known) for key, value in top.items()
                 if key in _TOP_READERS}
    situation = Situation(
        edition=edition,
        players=players,
        active=active,
        phase=phase,
        step=step,
        creatures=creatures,
        permanents=permanents,
        skip=_skips(top["skip"], phase, step, has_events) if "skip" in top else (),
        variant=variant,
        teams=teams,
        defending=_defending(top.get("defending"), players, active, teams),
        archenemy=(read_player(top["archenemy"], "archenemy", players) if "archenemy" in top
                   else None),
        events=events,
        questions=read_items(
            readers.limit(top["questions"], "questions", MAX_QUESTIONS, "questions"), "questions",
            lambda v, p: _question(v, p, players, names, active, everything))
        if "questions" in top else (),
        source=source,
        **given,  # type: ignore[arg-type]
    )
    return situation


@dataclass(frozen=True, slots=True, kw_only=True)
class _Known:
    """What reading the other keys of a situation needs: its players, the active player, and
    the controller of each creature (the triggers' default)."""

    players: tuple[str, ...]
    active: str
    owners: dict[str, str]


# How each key that depends on no other key but `_Known` is read (`situation_from_data`).
_TOP_READERS: dict[str, Callable[[object, _Known], object]] = {
    "damage_step": lambda v, k: _damage_step(v),
    "priority": lambda v, k: read_optional(v, "priority", lambda w, p: read_player(w, p, k.players)),
    "stack": lambda v, k: read_items(v, "stack", lambda w, p: _stack_item(w, p, k.players, k.active)),
    "lands_played": lambda v, k: read_int(v, "lands_played"),
    "land_plays": lambda v, k: read_int(v, "land_plays"),
    "hands": lambda v, k: _counts(v, "hands", k.players),
    "first_turn": lambda v, k: read_bool(v, "first_turn"),
    "max_hand_size": lambda v, k: _max_hand(v),
    "mana_pools": lambda v, k: _counts(v, "mana_pools", k.players),
    "life": lambda v, k: _counts(v, "life", k.players, minimum=None),
    "effects": lambda v, k: read_items(v, "effects", readers.effect),
    "triggers": lambda v, k: read_items(v, "triggers", lambda w, p: readers.trigger(
        w, p, k.players, k.active, pending=False, owners=k.owners)),
    "pending_triggers": lambda v, k: read_items(v, "pending_triggers", lambda w, p: readers.trigger(
        w, p, k.players, k.active, pending=True, owners=k.owners)),
    "mana_available": lambda v, k: _counts(v, "mana_available", k.players),
    "extra_phases": lambda v, k: read_items(v, "extra_phases", readers.extra_phase),
    "extra_steps": lambda v, k: read_items(v, "extra_steps", readers.extra_step),
    "extra_turns": lambda v, k: read_items(v, "extra_turns",
                                           lambda w, p: read_player(w, p, k.players)),
    "attack_option": lambda v, k: read_optional(v, "attack_option", lambda w, p: read_slug(
        w, p, ATTACK_OPTION_ALIASES, "option d'attaque")),
    "max_attackers": lambda v, k: read_optional(v, "max_attackers", lambda w, p: read_int(w, p)),
    "poison": lambda v, k: _counts(v, "poison", k.players),
    "library": lambda v, k: _counts(v, "library", k.players),
    "drew_from_empty": lambda v, k: read_items(v, "drew_from_empty",
                                               lambda w, p: read_player(w, p, k.players)),
    "left_game": lambda v, k: read_items(v, "left_game", lambda w, p: read_player(w, p, k.players)),
}


def _variant(top: Mapping[str, object], players: tuple[str, ...], active: str
             ) -> tuple[str | None, tuple[tuple[str, ...], ...]]:
    """The multiplayer variant and its teams (Two-Headed Giant: two teams; Archenemy: the
    archenemy against the others, 904.1)."""
    raw = top.get("variant")
    variant = None if raw is None else read_slug(raw, "variant", VARIANT_ALIASES, "variante")
    teams: tuple[tuple[str, ...], ...] = ()
    if "teams" in top:
        teams = read_items(top["teams"], "teams",
                           lambda v, p: read_items(v, p, lambda w, q: read_player(w, q, players)))
        seen = [p for team in teams for p in team]
        for i, name in enumerate(seen):
            if name in seen[:i]:
                raise SituationError("teams", f"« {name} » est dans deux équipes")
    if variant == "two_headed_giant" and len(teams) != 2:
        raise SituationError("teams", "le Troll à deux têtes se joue à deux équipes (810.1)")
    if variant == "archenemy":
        if "archenemy" not in top:
            raise SituationError("archenemy", "clé obligatoire manquante (variante archenemy)")
        boss = read_player(top["archenemy"], "archenemy", players)
        teams = ((boss,), tuple(p for p in players if p != boss))
    elif "archenemy" in top:
        raise SituationError("archenemy", "n'a de sens que dans la variante archenemy")
    if len(players) > 2 and variant is None:
        variant = "free_for_all"
    return variant, teams


def _defending(value: object, players: tuple[str, ...], active: str,
               teams: tuple[tuple[str, ...], ...]) -> str | None:
    if value is None:
        return None
    name = read_player(value, "defending", players)
    mine = next((team for team in teams if active in team), (active,))
    if name in mine:
        raise SituationError("defending", f"{name} n'est pas un adversaire du joueur actif "
                             f"({active})")
    return name


def _edition(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return read_string(value, "edition")


def _players(value: object) -> tuple[str, ...]:
    if value is None:
        return ("A", "B")
    players = read_items(value, "players", read_string)
    if len(players) < 2:
        raise SituationError("players", "au moins deux joueurs sont attendus")
    for i, name in enumerate(players):
        if name in players[:i]:
            raise SituationError(f"players[{i}]", f"joueur « {name} » en double")
    return players


def _place(top: Mapping[str, object], *, required: bool) -> tuple[str, str | None]:
    raw_phase, raw_step = top.get("phase"), top.get("step")
    if not required:
        return Phase.BEGINNING, Step.UNTAP  # replaced by the replay of the events
    step: str | None = None
    phase: str | None = None
    if raw_step is not None:
        text = read_string(raw_step, "step")
        folded = fold_name(text)
        if folded in STEP_ALIASES:
            step = STEP_ALIASES[folded]
        elif folded in PHASE_ALIASES and PHASE_ALIASES[folded] in MAIN_PHASES:
            phase = PHASE_ALIASES[folded]  # "phase principale" written as a step
        else:
            known = ", ".join(sorted(set(STEP_ALIASES.values())))
            raise SituationError("step", f"étape inconnue « {text} » (valeurs possibles : {known})")
    if raw_phase is not None:
        given = read_slug(raw_phase, "phase", PHASE_ALIASES, "phase")
        if phase is not None and given != phase:
            raise SituationError("step", f"« {raw_step} » n'est pas une étape de la phase {given}")
        phase = given
    if phase is None:
        if step is None:
            return Phase.BEGINNING, Step.UNTAP  # neither said: the start of the turn
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


def _damage_step(value: object) -> str | None:
    if value is None:
        return None
    return read_slug(value, "damage_step", DAMAGE_STEP_ALIASES, "étape de blessures")


def _stack_item(value: object, path: str, players: tuple[str, ...], active: str) -> StackItem:
    from judge.game.objects import StackItem  # only for a situation with a stack

    table = read_table(value, path)
    check_keys(table, path, ("kind", "controller"))
    if "kind" not in table:
        raise SituationError(join_path(path, "kind"), "clé obligatoire manquante")
    kind = read_slug(table["kind"], join_path(path, "kind"), KIND_ALIASES, "type d'objet")
    controller = (
        read_player(table["controller"], join_path(path, "controller"), players)
        if "controller" in table
        else active
    )
    return StackItem(kind=kind, controller=controller)


def _counts(value: object, path: str, players: tuple[str, ...], *, minimum: int | None = 0
            ) -> tuple[tuple[str, int], ...]:
    table = read_table(value, path)
    out: list[tuple[str, int]] = []
    for name, count in table.items():
        key_path = join_path(path, name)
        if name not in players:
            raise SituationError(key_path, f"joueur inconnu « {name} » (joueurs : {', '.join(players)})")
        out.append((name, read_int(count, key_path, minimum=minimum)))
    return tuple(out)


def _max_hand(value: object) -> int | None:
    if value is None or (isinstance(value, str) and fold_name(value) in NO_MAXIMUM):
        return None
    if isinstance(value, str):
        raise SituationError("max_hand_size", "un entier ou « aucune » est attendu")
    return read_int(value, "max_hand_size")


def _skips(value: object, phase: str, step: str | None, has_events: bool) -> tuple[str, ...]:
    out: list[str] = []
    for i, item in enumerate(read_list(value, "skip")):
        path = f"skip[{i}]"
        text = read_string(item, path)
        slug = STEP_ALIASES.get(fold_name(text)) or PHASE_ALIASES.get(fold_name(text))
        if slug is None:
            raise SituationError(path, f"étape ou phase inconnue « {text} »")
        if not has_events and slug in (phase, step):
            raise SituationError(path, "l'étape ou la phase en cours ne peut pas être sautée")
        out.append(slug)
    return tuple(out)


def _creatures(value: object, players: tuple[str, ...], active: str) -> tuple[Creature, ...]:
    readers.limit(value, "creatures", MAX_CREATURES, "créatures")
    creatures = read_items(value, "creatures", lambda v, p: _creature(v, p, players, active))
    names = [creature.name for creature in creatures]
    for i, creature in enumerate(creatures):
        if creature.name in names[:i]:
            raise SituationError(f"creatures[{i}].name", f"créature « {creature.name} » en double")
        for j, attacker in enumerate(creature.blocking):
            if attacker not in names:
                where = f"creatures[{i}].blocking" + (f"[{j}]" if len(creature.blocking) > 1 else "")
                raise SituationError(where, f"aucune créature ne s'appelle « {attacker} »")
        for j, blocker in enumerate(creature.damage_order):
            if blocker not in names:
                raise SituationError(f"creatures[{i}].damage_order[{j}]",
                                     f"aucune créature ne s'appelle « {blocker} »")
            if blocker in creature.damage_order[:j]:
                raise SituationError(f"creatures[{i}].damage_order[{j}]",
                                     f"« {blocker} » figure deux fois dans l'ordre")
    # A creature that some creature blocks has become blocked (2004 309.2; 2010 509.1h): the
    # judge need not say `blocked = true` as well. It stays blocked once its blockers are gone.
    creatures = _band_blocks(creatures)
    blocked = {attacker for creature in creatures for attacker in creature.blocking}
    if not blocked:
        return creatures
    return tuple(replace(c, blocked=True) if c.name in blocked and not c.blocked else c for c in creatures)


def _band_blocks(creatures: tuple[Creature, ...]) -> tuple[Creature, ...]:
    """A creature blocking a member of an attacking band blocks every member of that band (2004
    502.10e, 2010 702.19h), in the band's order after the one it was declared to block."""
    bands: dict[str, list[str]] = {}
    for creature in creatures:
        if creature.band is not None and creature.attacking:
            bands.setdefault(creature.band, []).append(creature.name)
    if not bands:
        return creatures
    band_of = {name: band for band, names in bands.items() for name in names}
    out = []
    for creature in creatures:
        blocking = list(creature.blocking)
        for attacker in creature.blocking:
            if attacker in band_of:
                blocking += [n for n in bands[band_of[attacker]] if n not in blocking]
        out.append(replace(creature, blocking=tuple(blocking)) if len(blocking) > len(
            creature.blocking) else creature)
    return tuple(out)


def _check_attacks(creatures: tuple[Creature, ...], players: tuple[str, ...],
                   permanents: tuple[Permanent, ...]) -> None:
    """What an attacker attacks is an opponent or a planeswalker (506.3): a permanent of the
    situation (one that is no longer a planeswalker has left combat, 506.4)."""
    attackers = [(i, creature) for i, creature in enumerate(creatures)
                 if creature.attacks is not None or creature.damage_to is not None]
    if not attackers:
        return
    known = {p.name for p in permanents} | {c.name for c in creatures}
    for i, creature in attackers:
        if creature.attacks is not None and creature.attacks not in players and (
                creature.attacks not in known):
            raise SituationError(f"creatures[{i}].attacks", f"« {creature.attacks} » n'est ni "
                                 "un joueur ni un planeswalker")
        if creature.damage_to is not None and creature.damage_to not in players:
            raise SituationError(f"creatures[{i}].damage_to", f"« {creature.damage_to} » n'est "
                                 "pas un joueur")
        if creature.attacks == creature.controller:
            raise SituationError(f"creatures[{i}].attacks", "une créature n'attaque pas son "
                                 "propre contrôleur")


def _blocking(value: object, path: str) -> tuple[str, ...]:
    """The attacker a creature blocks, or a list of them (an ability lets it block several)."""
    if value is None:
        return ()
    if isinstance(value, list):
        names = read_items(value, path, read_string)
        for j, name in enumerate(names):
            if name in names[:j]:
                raise SituationError(f"{path}[{j}]", f"« {name} » figure deux fois")
        return names
    return (read_string(value, path),)


_ABILITY_KEYS = ("ability", "from", "land", "n")


def _abilities(value: object, path: str) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """A creature's keyword abilities: names (English or French), or tables for those with a
    parameter (`{ability = "protection", from = ["black"]}`, `{ability = "bushido", n = 2}`,
    `{ability = "landwalk", land = "Island"}`; « islandwalk » as one name). Returns the slugs
    and the (ability, parameter) pairs."""
    slugs: list[str] = []
    params: list[tuple[str, str]] = []
    for j, item in enumerate(read_list(value, path)):
        at = f"{path}[{j}]"
        if isinstance(item, dict):
            table = english_keys(item, at, KEY_ALIASES)
            check_keys(table, at, _ABILITY_KEYS)
            if "ability" not in table:
                raise SituationError(join_path(at, "ability"), "clé obligatoire manquante")
            slug = _ability(table["ability"], join_path(at, "ability"))
            key = ABILITY_PARAMS.get(slug)
            for other in table:
                if other != "ability" and other != key:
                    raise SituationError(join_path(at, other), f"la capacité {slug} ne prend pas "
                                         f"ce paramètre" + (f" (paramètre : {key})" if key else ""))
            slugs.append(slug)
            params += _ability_params(slug, key, table, at)
            continue
        text = read_string(item, at) if isinstance(item, str) else _ability(item, at)
        land = LANDWALK_ALIASES.get(fold_name(text))
        if land is not None:
            slugs.append("landwalk")
            params.append(("landwalk", land))
            continue
        slug = _ability(text, at)
        if slug == "landwalk" or slug == "protection":
            raise SituationError(at, f"la capacité {slug} s'écrit comme une table avec son "
                                 f"paramètre ({{ability = \"{slug}\", {ABILITY_PARAMS[slug]} = …}})")
        slugs.append(slug)
        if slug in ABILITY_PARAMS:
            params.append((slug, "1"))
    return tuple(dict.fromkeys(slugs)), tuple(params)


def _ability_params(slug: str, key: str | None, table: Mapping[str, object], at: str
                    ) -> list[tuple[str, str]]:
    if key is None:
        return []
    if key not in table:
        if key == "n":
            return [(slug, "1")]
        raise SituationError(join_path(at, key), "clé obligatoire manquante")
    where = join_path(at, key)
    if key == "n":
        return [(slug, str(read_int(table[key], where, minimum=1)))]
    if key == "land":
        text = read_string(table[key], where)
        return [(slug, LAND_TYPE_ALIASES.get(fold_name(text), fold_name(text)))]
    raw = table[key]
    items = read_list(raw, where) if isinstance(raw, list) else [raw]
    out = []
    for k, item in enumerate(items):
        text = read_string(item, f"{where}[{k}]" if isinstance(raw, list) else where)
        folded = fold_name(text)
        quality = (COLOR_ALIASES.get(folded) or CARD_TYPE_ALIASES.get(folded)
                   or PROTECTION_ALIASES.get(folded)
                   or COLOR_ALIASES.get(folded.removeprefix("le ").removeprefix("la "))
                   or CARD_TYPE_ALIASES.get(folded.removeprefix("les ").rstrip("s")))
        if quality is None:
            raise SituationError(f"{where}[{k}]" if isinstance(raw, list) else where,
                                 f"qualité inconnue « {text} » (une couleur, un type de carte "
                                 "ou everything)")
        out.append((slug, quality))
    return out


def _ability(value: object, path: str) -> str:
    text = read_string(value, path)
    slug = ABILITY_ALIASES.get(fold_name(text))
    if slug is None:
        slug = _glossary_ability(text)
    if slug is None:
        known = ", ".join(f"{names[0]} ({name})" if names else name
                          for name, names in sorted(ABILITY_NAMES.items(),
                                                    key=lambda item: fold_name((item[1] or (item[0],))[0])))
        raise UnknownAbility(path, f"capacité inconnue « {text} » (capacités connues : {known})")
    return slug


class UnknownAbility(SituationError):
    """A keyword ability no edition of the engine knows (« infect »): said with the keyword
    section of the situation's edition once it is known (`in_edition`)."""

    def in_edition(self, edition: str | None) -> SituationError:
        """The same error citing the keyword section of the bundled edition's game model
        (2010: 702.1); as it was for an edition of another manifest or none."""
        from judge.corpus.manifest import load_manifest
        from judge.game.gamemodel import load_game_model

        game = next((e.game for e in load_manifest() if e.id == edition), None)
        section = load_game_model(game).rules("ability.section") if game else ()
        if not section:
            return self
        return SituationError(self.field, f"{self.reason} ; les capacités mot-clé de l'édition "
                              f"{edition} ({section[0].split('.')[0]}) ne la définissent pas "
                              f"(règle {section[0]})")


def _glossary_ability(text: str) -> str | None:
    """The engine's ability a name of the terminology (`rules/glossary-fr-en.toml`) names: any
    of its English or French names, when one of them is an ability's slug or name."""
    from judge.corpus.lexicon import glossary  # only for a name the alias table lacks

    folded = fold_name(text)
    for term in glossary():
        names = [fold_name(n) for n in term.names()]
        if folded in names:
            for name in names:
                if name in ABILITY_ALIASES:
                    return ABILITY_ALIASES[name]
    return None


def _color(value: object, path: str) -> str:
    return read_slug(value, path, COLOR_ALIASES, "couleur")


def _int_any(value: object, path: str) -> int:
    return read_int(value, path, minimum=None)


def _strings(value: object, path: str) -> tuple[str, ...]:
    return read_items(value, path, read_string)


def _supertypes(value: object, path: str) -> tuple[str, ...]:
    return read_items(value, path, readers.supertype)


# The keys a creature may give as null (JSON): their default.
_MAY_BE_NULL = frozenset({"power", "toughness", "attacks", "band", "card_name", "timestamp",
                          "blocking", "damage_to", "owner", "control_until"})
# How each key of a creature is read (`controller` needs the players: read apart); a key left
# out keeps the `Creature` default.
_CREATURE_READERS: dict[str, Callable[[object, str], object]] = {
    **dict.fromkeys(("tapped", "since_turn_start", "attacking", "blocked", "is_creature",
                     "dealt_first_strike_damage", "phasing", "phased_out", "phased_in", "doesnt_untap",
                     "cant_attack_alone", "must_attack", "cant_block_alone", "must_block",
                     "deathtouch_damage", "must_be_blocked_by_all", "blocks_any_number"),
                    read_bool),
    **dict.fromkeys(("damage", "attack_cost", "block_cost", "min_blockers", "timestamp",
                     "regeneration_shields", "blocks_extra"), read_int),
    **dict.fromkeys(("power", "toughness"), _int_any),
    **dict.fromkeys(("name", "attacks", "band", "card_name", "damage_to", "owner"), read_string),
    "control_until": lambda v, p: read_slug(v, p, UNTIL_ALIASES, "durée"),
    **dict.fromkeys(("types", "damage_order"), _strings),
    "colors": lambda v, p: read_items(v, p, _color),
    "card_types": lambda v, p: read_items(v, p, readers.card_type),
    "blocking": _blocking,
    "supertypes": _supertypes,
}


def _creature(value: object, path: str, players: tuple[str, ...], active: str) -> Creature:
    table = english_keys(read_table(value, path), path, KEY_ALIASES, _CREATURE_ENGLISH)
    check_keys(table, path, CREATURE_KEYS, _CREATURE_ENGLISH)
    if "name" not in table:
        raise SituationError(join_path(path, "name"), "clé obligatoire manquante")
    at = f"{path}." if path else ""
    fields = {_KEYWORDS[key]: _CREATURE_READERS[key](item, at + key)
              for key, item in table.items()
              if key not in ("controller", "abilities") and (item is not None or key not in _MAY_BE_NULL)}
    if "abilities" in table:
        fields["abilities"], params = _abilities(table["abilities"], at + "abilities")
        if params:
            fields["ability_params"] = params
    controller = (read_player(table["controller"], join_path(path, "controller"), players)
                  if "controller" in table else active)
    return Creature(controller=controller, **fields)  # type: ignore[arg-type]


# How each parameter of a question but `kind` is read: (value, path, the situation's players,
# creature names, names of everything on the battlefield).
_Reader = Callable[[object, str, tuple[str, ...], set[str], set[str]], object]
_PARAM_READERS: dict[str, _Reader] = {
    "player": lambda v, p, players, names, everything: read_player(v, p, players),
    "creature": lambda v, p, players, names, everything: readers.creature_name(v, p, names),
    "attacker": lambda v, p, players, names, everything: readers.creature_name(v, p, names),
    "count": lambda v, p, players, names, everything: _count(v, p),
    "creatures": lambda v, p, players, names, everything: read_items(
        v, p, lambda w, q: readers.creature_name(w, q, names)),
    "blocks": lambda v, p, players, names, everything: readers.blocks(v, p, names),
    "assignment": lambda v, p, players, names, everything: readers.assignment(
        v, p, everything, players),
    "when": lambda v, p, players, names, everything: read_slug(v, p, WHEN_ALIASES,
                                                               "moment du combat"),
    **dict.fromkeys(("permanent", "source", "planeswalker"),
                    lambda v, p, players, names, everything: _permanent_name(v, p, everything)),
    "effect": lambda v, p, players, names, everything: read_string(v, p),
    "others": lambda v, p, players, names, everything: tuple(
        (readers.creature_name(k, join_path(p, k), names),
         readers.assignment(w, join_path(p, k), everything, players))
        for k, w in read_table(v, p).items()),
}


def _question(
    value: object, path: str, players: tuple[str, ...], names: set[str], active: str,
    everything: set[str],
) -> Question:
    table = english_keys(read_table(value, path), path, KEY_ALIASES, _ANY_QUESTION_ENGLISH)
    if "ask" not in table:
        raise SituationError(join_path(path, "ask"), "clé obligatoire manquante")
    ask = read_string(table["ask"], join_path(path, "ask"))
    ask = ASK_ALIASES.get(fold_name(ask), ask)
    if ask not in ASKS:
        raise SituationError(
            join_path(path, "ask"), f"question inconnue « {ask} » (questions : {', '.join(ASKS)})"
        )
    params = ASKS[ask]
    check_keys(table, path, _QUESTION_KEYS[ask], _QUESTION_ENGLISH[ask])
    values: dict[str, object] = {}
    flash = False  # `kind`: a creature spell with flash
    for param in params:
        if param == "kind" and param in table:
            values[param], flash = readers.spell_kind(table[param], join_path(path, param))
        elif param in table:
            values[param] = _PARAM_READERS[param](table[param], join_path(path, param), players,
                                                  names, everything)
        elif param == "player":
            values[param] = active
        elif param == "count":
            values[param] = len(players)
        elif param == "others":
            continue  # optional: nothing else assigned at the same time
        else:
            raise SituationError(join_path(path, param), "clé obligatoire manquante")
    return Question(ask=ask, flash=flash, **values)  # type: ignore[arg-type]


def _permanent_name(value: object, path: str, everything: set[str]) -> str:
    name = read_string(value, path)
    if name not in everything:
        raise SituationError(path, f"aucun permanent ne s'appelle « {name} »")
    return name


def _count(value: object, path: str) -> int:
    count = read_int(value, path, minimum=1)
    if count > MAX_COUNT:
        raise SituationError(path, f"au plus {MAX_COUNT} tours (limite du vérificateur)")
    return count
