"""Readers of the situation keys that describe permanents, effects, triggers and extra steps
(format 3), and of the names they refer to; each failure is a `SituationError` naming its field.

`judge.game.situation` reads the whole file with them; the meaning of each key is documented
in docs/situation-format.md. The classes of `judge.game.objects` are imported by the reader
of each, when a situation has one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from judge.errors import SituationError
from judge.game.aliases import (
    AT_ALIASES,
    CARD_TYPE_ALIASES,
    FLASH_CREATURE_ALIASES,
    KEY_ALIASES,
    KIND_ALIASES,
    PHASE_ALIASES,
    STEP_ALIASES,
    SUPERTYPE_ALIASES,
    TRIGGER_EVENT_ALIASES,
    UNTIL_ALIASES,
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
    read_player,
    read_slug,
    read_string,
    read_table,
)
from judge.game.situationmodel import MAX_CREATURES, PERMANENT_KEYS, SPELL_KINDS
from judge.game.turnplan import MAIN_PHASES, STEP_PHASE

if TYPE_CHECKING:
    from judge.game.objects import Effect, ExtraPhase, ExtraStep, Permanent, Trigger

# The keys of a permanent's and a trigger's table (a pending one's: the first two) that the
# French names leave as they are (`english_keys`, `check_keys`).
_PERMANENT_ENGLISH = english_names(PERMANENT_KEYS, KEY_ALIASES)
_TRIGGER_KEYS = ("name", "controller", "at", "entered_this_step", "on", "creature", "count",
                 "at_least", "once")
_TRIGGER_ENGLISH = english_names(_TRIGGER_KEYS, KEY_ALIASES)


def permanents(value: object, players: tuple[str, ...], active: str, names: set[str]
                ) -> tuple[Permanent, ...]:
    limit(value, "permanents", MAX_CREATURES, "permanents")
    found = read_items(value, "permanents", lambda v, p: permanent(v, p, players, active))
    seen = set(names)
    for i, item in enumerate(found):
        if item.name in seen:
            raise SituationError(f"permanents[{i}].name", f"« {item.name} » est déjà le nom "
                                 "d'une créature ou d'un autre permanent")
        seen.add(item.name)
    return found


def permanent(value: object, path: str, players: tuple[str, ...], active: str) -> Permanent:
    from judge.game.objects import Permanent  # each object class only when a situation has one

    if isinstance(value, str):  # a plain name: the active player's
        value = {"name": value}
    table = english_keys(read_table(value, path), path, KEY_ALIASES, _PERMANENT_ENGLISH)
    check_keys(table, path, PERMANENT_KEYS, _PERMANENT_ENGLISH)
    if "name" not in table:
        raise SituationError(join_path(path, "name"), "clé obligatoire manquante")
    flags = {key: read_bool(table[key], join_path(path, key))
             for key in ("tapped", "phasing", "phased_out", "doesnt_untap") if key in table}
    supertypes, card_name, stamp = uniqueness(table, path)
    return Permanent(
        name=read_string(table["name"], join_path(path, "name")),
        controller=(read_player(table["controller"], join_path(path, "controller"), players)
                    if "controller" in table else active),
        card_types=read_items(table.get("card_types", []), join_path(path, "card_types"),
                              card_type),
        **flags,
        supertypes=supertypes, card_name=card_name, timestamp=stamp,
        subtypes=read_items(table.get("subtypes", []), join_path(path, "subtypes"), _subtype),
        loyalty=(read_int(table["loyalty"], join_path(path, "loyalty"), minimum=None)
                 if table.get("loyalty") is not None else None),
    )


def _subtype(value: object, path: str) -> str:
    """A subtype: a basic land type folded to its English slug (Île → island), else as written
    (folded: planeswalker types such as Jace)."""
    from judge.game.aliases import LAND_TYPE_ALIASES

    folded = fold_name(read_string(value, path))
    return LAND_TYPE_ALIASES.get(folded, folded)


def uniqueness(table: Mapping[str, object], path: str
               ) -> tuple[tuple[str, ...], str | None, int | None]:
    """A permanent's `supertypes`, `card_name` and `timestamp` (the legend and world rules);
    a creature's are read by the same readers, key by key (`situation._CREATURE_READERS`)."""
    supertypes = read_items(table.get("supertypes", []), join_path(path, "supertypes"), supertype)
    card_name = table.get("card_name")
    stamp = table.get("timestamp")
    return (supertypes,
            None if card_name is None else read_string(card_name, join_path(path, "card_name")),
            None if stamp is None else read_int(stamp, join_path(path, "timestamp")))


def effect(value: object, path: str) -> Effect:
    from judge.game.objects import Effect

    table = english_keys(read_table(value, path), path, KEY_ALIASES)
    check_keys(table, path, ("name", "until", "controller"))
    for key in ("name", "until"):
        if key not in table:
            raise SituationError(join_path(path, key), "clé obligatoire manquante")
    until = read_string(table["until"], join_path(path, "until"))
    if fold_name(until) in AT_ALIASES and fold_name(until) not in UNTIL_ALIASES:
        raise SituationError(join_path(path, "until"), f"« {until} » est le moment d'une capacité "
                             "déclenchée (triggers[].at), pas une durée : une durée s'écrit "
                             "« jusqu'à la fin du tour » (2004 : règles 313.1, 314.2 ; 2010 : "
                             "règles 513.1, 514.2)")
    controller = table.get("controller")
    return Effect(name=read_string(table["name"], join_path(path, "name")),
                  until=read_slug(until, join_path(path, "until"), UNTIL_ALIASES, "durée"),
                  controller=None if controller is None else read_string(
                      controller, join_path(path, "controller")))


def moment_slug(value: object, path: str) -> str:
    """A step slug, or a main phase (triggers « au début de la phase principale »)."""
    text = read_string(value, path)
    folded = fold_name(text)
    for table in (AT_ALIASES, STEP_ALIASES):
        if folded in table:
            return table[folded]
    if folded in PHASE_ALIASES and PHASE_ALIASES[folded] in MAIN_PHASES:
        return PHASE_ALIASES[folded]
    known = ", ".join((*sorted(set(STEP_ALIASES.values())), *sorted(MAIN_PHASES)))
    raise SituationError(path, f"étape inconnue « {text} » (valeurs possibles : {known})")


def trigger(value: object, path: str, players: tuple[str, ...], active: str, *,
             pending: bool, owners: Mapping[str, str]) -> Trigger:
    """A triggered ability: « au début de » a step (`at`), or on a combat event of a creature
    (`on`, `creature`; its controller by default); `owners` maps creature names to controllers."""
    from judge.game.objects import Trigger

    if pending and isinstance(value, str):  # a plain name: the active player's
        value = {"name": value}
    table = english_keys(read_table(value, path), path, KEY_ALIASES, _TRIGGER_ENGLISH)
    check_keys(table, path, _TRIGGER_KEYS[:2] if pending else _TRIGGER_KEYS)
    if "name" not in table:
        raise SituationError(join_path(path, "name"), "clé obligatoire manquante")
    if not pending and "at" not in table and "on" not in table:
        raise SituationError(join_path(path, "at"), "clé obligatoire manquante (ou on, l'événement "
                             "d'une créature qui la déclenche)")
    if not pending and "at" in table and "on" in table:
        raise SituationError(join_path(path, "on"), "une capacité déclenchée a un moment (at : "
                             "« au début de » une étape) ou un événement (on), pas les deux")
    on = creature = None
    count: int | None = None
    if "on" in table:
        on = read_slug(table["on"], join_path(path, "on"), TRIGGER_EVENT_ALIASES, "événement")
        if "creature" not in table:
            raise SituationError(join_path(path, "creature"), "clé obligatoire manquante")
        creature = creature_name(table["creature"], join_path(path, "creature"), set(owners))
        if on.endswith("_count"):
            if "count" not in table:
                raise SituationError(join_path(path, "count"), "clé obligatoire manquante")
            count = read_int(table["count"], join_path(path, "count"), minimum=1)
    for key in ("creature", "count", "at_least"):
        if key in table and (on is None or (key != "creature" and not on.endswith("_count"))):
            raise SituationError(join_path(path, key), "clé sans objet pour ce déclenchement")
    default = owners[creature] if creature is not None else active
    return Trigger(
        name=read_string(table["name"], join_path(path, "name")),
        controller=(read_player(table["controller"], join_path(path, "controller"), players)
                    if "controller" in table else default),
        at=None if pending or on is not None else moment_slug(table["at"], join_path(path, "at")),
        entered_this_step=read_bool(table.get("entered_this_step", False),
                                    join_path(path, "entered_this_step")),
        on=on,
        creature=creature,
        count=count,
        at_least=read_bool(table.get("at_least", False), join_path(path, "at_least")),
        once=read_bool(table.get("once", True), join_path(path, "once")),
    )


def extra_phase(value: object, path: str) -> ExtraPhase:
    from judge.game.objects import ExtraPhase

    table = english_keys(read_table(value, path), path, KEY_ALIASES)
    check_keys(table, path, ("phase", "after"))
    for key in ("phase", "after"):
        if key not in table:
            raise SituationError(join_path(path, key), "clé obligatoire manquante")
    return ExtraPhase(after=read_slug(table["after"], join_path(path, "after"), PHASE_ALIASES,
                                      "phase"),
                      phase=read_slug(table["phase"], join_path(path, "phase"), PHASE_ALIASES,
                                      "phase"))


def extra_step(value: object, path: str) -> ExtraStep:
    from judge.game.objects import ExtraStep

    table = english_keys(read_table(value, path), path, KEY_ALIASES)
    check_keys(table, path, ("step", "after", "before"))
    if "step" not in table:
        raise SituationError(join_path(path, "step"), "clé obligatoire manquante")
    if ("after" in table) == ("before" in table):
        raise SituationError(path, "une étape supplémentaire vient après (after) ou avant "
                             "(before) une étape, l'un des deux")
    where = "before" if "before" in table else "after"
    step = read_slug(table["step"], join_path(path, "step"), STEP_ALIASES, "étape")
    anchor = read_slug(table[where], join_path(path, where), STEP_ALIASES, "étape")
    if STEP_PHASE[step] != STEP_PHASE[anchor]:
        raise SituationError(join_path(path, where), f"l'étape {step} n'appartient pas à la "
                             f"phase de l'étape {anchor}")
    return ExtraStep(anchor=anchor, step=step, before=where == "before")


def supertype(value: object, path: str) -> str:
    return read_slug(value, path, SUPERTYPE_ALIASES, "surtype")


def card_type(value: object, path: str) -> str:
    return read_slug(value, path, CARD_TYPE_ALIASES, "type de carte")


def creature_name(value: object, path: str, names: set[str]) -> str:
    name = read_string(value, path)
    if name not in names:
        raise SituationError(path, f"aucune créature ne s'appelle « {name} »")
    return name


def limit(value: object, path: str, maximum: int, what: str) -> object:
    if isinstance(value, list) and len(value) > maximum:
        raise SituationError(path, f"trop de {what} : {len(value)} (au plus {maximum:,})".replace(",", " "))
    return value


def blocks(value: object, path: str, names: set[str]) -> tuple[tuple[str, str], ...]:
    """`{blocker: attacker}` pairs; a blocker may name a list of attackers (a creature that can
    block several: `blocks_any_number`, `blocks_extra`), each attacker once."""
    out: list[tuple[str, str]] = []
    for blocker, attackers in read_table(value, path).items():
        sub = join_path(path, blocker)
        name = creature_name(blocker, sub, names)
        several = isinstance(attackers, list)
        listed = read_list(attackers, sub) if several else [attackers]  # type: ignore[list-item]
        seen: list[str] = []
        for j, attacker in enumerate(listed):
            where = f"{sub}[{j}]" if several else sub
            seen.append(creature_name(attacker, where, names))
            if seen[-1] in seen[:-1]:
                raise SituationError(where, f"« {seen[-1]} » figure deux fois")
        out += [(name, attacker) for attacker in seen]
    return tuple(out)


def assignment(value: object, path: str, names: set[str], players: tuple[str, ...]
                ) -> tuple[tuple[str, int], ...]:
    out = []
    for target, amount in read_table(value, path).items():
        sub = join_path(path, target)
        if target not in names and target not in players:
            raise SituationError(sub, f"« {target} » n'est ni un permanent ni un joueur")
        out.append((target, read_int(amount, sub)))
    return tuple(out)


def spell_kind(value: object, path: str) -> tuple[str, bool]:
    """A spell kind, and whether it is a creature spell with flash (« créature avec le flash »)."""
    if isinstance(value, str) and fold_name(value) in FLASH_CREATURE_ALIASES:
        return "creature", True
    kind = read_slug(value, path, KIND_ALIASES, "type de sort")
    if kind not in SPELL_KINDS:
        raise SituationError(path, f"« {kind} » n'est pas un type de sort ({', '.join(SPELL_KINDS)}"
                             ", ou « créature avec le flash »)")
    return kind, False
