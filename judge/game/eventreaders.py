"""Reader of a situation's `events` key (format 3) into the replay events of
`judge.game.events`; each failure is a `SituationError` naming its field.

`judge.game.situation` imports it only when the situation has events, so that a situation
without them does not build the event classes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from judge.errors import SituationError
from judge.game import readers
from judge.game.aliases import CHANGE_KEY_ALIASES, DAMAGE_KEY_ALIASES, KEY_ALIASES, UNTIL_ALIASES, fold_name
from judge.game.events import (
    Activate,
    AddMana,
    BlockByEffect,
    Cast,
    DealDamage,
    DeclareAttackers,
    DeclareBlockers,
    EntersAttacking,
    EntersBattlefield,
    EntersBlocking,
    Event,
    GainControl,
    LeavesPlay,
    Pass,
    PlayerChange,
    PlayLand,
    Regenerate,
    SetPower,
    Shield,
    Tap,
    Untap,
)
from judge.game.fieldreaders import (
    check_keys,
    english_keys,
    english_names,
    join_path,
    read_int,
    read_items,
    read_list,
    read_optional,
    read_player,
    read_slug,
    read_string,
    read_table,
)
from judge.game.situationmodel import MAX_COUNT, MAX_EVENTS, Creature
from judge.game.turnplan import Step

# Reads a creature's table: (value, path, players, active) -> Creature.
CreatureReader = Callable[[object, str, tuple[str, ...], str], Creature]


def read_events(value: object, players: tuple[str, ...], names: set[str], everything: set[str],
                owners: dict[str, str], active: str, *, creature: CreatureReader
                ) -> tuple[Event, ...]:
    """The events; a creature put onto the battlefield by one is known to the later ones (its
    name is added to `names` and `everything`, its controller to `owners`); `creature` reads
    the creature an event puts onto the battlefield."""
    readers.limit(value, "events", MAX_EVENTS, "événements")
    out: list[Event] = []
    for i, item in enumerate(read_list(value, "events")):
        if isinstance(item, str):  # « pass », the only event written as a word
            out.append(_word_event(item, i))
            continue
        event = _event(item, i, players, names, everything, active, creature)
        if isinstance(event, EntersBattlefield):
            name = event.permanent.name
            if name in everything:
                raise SituationError(f"events[{i}].name", f"« {name} » est déjà le nom d'un "
                                     "permanent")
            everything.add(name)
            owners[name] = event.permanent.controller
        if isinstance(event, (EntersAttacking, EntersBlocking)):
            name = event.creature.name
            if name in everything:
                raise SituationError(f"events[{i}].name", f"« {name} » est déjà le nom d'un "
                                     "permanent")
            names.add(name)
            everything.add(name)
            owners[name] = event.creature.controller
        out.append(event)
    return tuple(out)


_EVENT_KINDS = ("cast", "activate", "add_mana", "play_land", Step.DECLARE_ATTACKERS,
                Step.DECLARE_BLOCKERS, "enters_attacking", "enters_blocking", "block",
                "leaves_play", "regenerate", "set_power", "gain_control", "tap", "untap",
                "draw", "poison", "leaves_game", "shield", "destroy", "deal_damage",
                "enters_battlefield")
# The keys of an event's table that the French names leave as they are (`english_keys`).
_EVENT_ENGLISH = english_names((*_EVENT_KINDS, "by", "cost", "position", "count"), KEY_ALIASES)
_PASS = Pass()  # every « pass » (a value: no fields)


def _entering(kind: str, table: dict[str, object], path: str, players: tuple[str, ...],
              names: set[str], active: str, read_creature: CreatureReader) -> Event:
    """A permanent put onto the battlefield attacking or blocking, or a block by an effect."""
    sub = join_path(path, kind)
    check_keys(table, path, (kind,) if kind == "enters_attacking" else (kind, "position"))
    position = read_optional(table.get("position"), join_path(path, "position"),
                             lambda v, p: read_int(v, p, minimum=1))
    if kind == "block":
        inner = english_keys(read_table(table[kind], sub), sub, KEY_ALIASES)
        check_keys(inner, sub, ("creature", "attacker"))
        for key in ("creature", "attacker"):
            if key not in inner:
                raise SituationError(join_path(sub, key), "clé obligatoire manquante")
        return BlockByEffect(
            creature=readers.creature_name(inner["creature"], join_path(sub, "creature"), names),
            attacker=readers.creature_name(inner["attacker"], join_path(sub, "attacker"), names),
            position=position)
    creature = read_creature(table[kind], sub, players, active)
    for attacker in creature.blocking:
        readers.creature_name(attacker, join_path(sub, "blocking"), names)
    if kind == "enters_attacking":
        if creature.blocking:
            raise SituationError(join_path(sub, "blocking"), "une créature mise en jeu attaquante "
                                 "ne bloque pas")
        return EntersAttacking(creature=replace(creature, attacking=True))
    if len(creature.blocking) != 1:
        raise SituationError(join_path(sub, "blocking"), "la créature attaquante qu'elle bloque "
                             "est attendue")
    return EntersBlocking(creature=creature, position=position)


def _word_event(value: str, index: int) -> Event:
    if fold_name(value) in ("pass", "passe", "passer"):
        return _PASS
    raise SituationError(f"events[{index}]", f"événement inconnu « {value} » (« pass » ou une "
                         "table)")


def _event(value: object, index: int, players: tuple[str, ...], names: set[str],
           everything: set[str], active: str, read_creature: CreatureReader) -> Event:
    """An event written as a table."""
    path = f"events[{index}]"
    table = english_keys(read_table(value, path), path, KEY_ALIASES, _EVENT_ENGLISH)
    kinds = [key for key in _EVENT_KINDS if key in table]
    if len(kinds) != 1:
        raise SituationError(
            path, "un événement est attendu : pass, " + ", ".join(_EVENT_KINDS[:-1])
            + f" ou {_EVENT_KINDS[-1]}"
        )
    kind = kinds[0]
    if kind in _EVENT_KINDS[6:9]:
        return _entering(kind, table, path, players, names, active, read_creature)
    if kind in ("draw", "poison", "leaves_game", "shield", "destroy"):
        return _player_event(kind, table, path, players, names)
    if kind == "deal_damage":
        return _damage_event(table, path, players, everything)
    if kind == "enters_battlefield":
        check_keys(table, path, (kind,))
        return EntersBattlefield(permanent=readers.permanent(
            table[kind], join_path(path, kind), players, active))
    if kind in _EVENT_KINDS[9:]:
        return _permanent_event(kind, table, path, players, names, everything)
    if kind == "add_mana":
        check_keys(table, path, (kind, "by"))
        if "by" not in table:
            raise SituationError(join_path(path, "by"), "clé obligatoire manquante")
        amount = read_int(table[kind], join_path(path, kind), minimum=1)
        if amount > MAX_COUNT:
            raise SituationError(join_path(path, kind), f"au plus {MAX_COUNT} mana à la fois")
        return AddMana(amount=amount, by=read_player(table["by"], join_path(path, "by"), players))
    if kind in ("cast", "activate"):
        check_keys(table, path, (kind, "by", "cost") if kind == "cast" else (kind, "by"))
        if "by" not in table:
            raise SituationError(join_path(path, "by"), "clé obligatoire manquante")
        by = read_player(table["by"], join_path(path, "by"), players)
        if kind == "cast":
            spell, flash = readers.spell_kind(table["cast"], join_path(path, "cast"))
            cost = read_int(table.get("cost", 0), join_path(path, "cost"))
            if cost > MAX_COUNT:
                raise SituationError(join_path(path, "cost"), f"au plus {MAX_COUNT} mana")
            return Cast(kind=spell, by=by, flash=flash, cost=cost)
        ability = read_string(table["activate"], join_path(path, "activate"))
        if fold_name(ability) not in ("ability", "capacite"):
            raise SituationError(join_path(path, "activate"), "« ability » est attendu")
        return Activate(ability="ability", by=by)
    check_keys(table, path, (kind,))
    sub = join_path(path, kind)
    if kind == "play_land":
        return PlayLand(player=read_player(table[kind], sub, players))
    if kind == Step.DECLARE_ATTACKERS:
        return DeclareAttackers(attackers=read_items(table[kind], sub, lambda v, p: readers.creature_name(v, p, names)))
    return DeclareBlockers(blocks=readers.blocks(table[kind], sub, names))


def _player_event(kind: str, table: dict[str, object], path: str, players: tuple[str, ...],
                  names: set[str]) -> Event:
    """A player draws, gets poison counters, leaves the game; a creature gets a shield."""
    sub = join_path(path, kind)
    if kind in ("shield", "destroy"):
        check_keys(table, path, (kind,))
        return Shield(name=readers.creature_name(table[kind], sub, names), destroy=kind == "destroy")
    check_keys(table, path, (kind,) if kind == "leaves_game" else (kind, "count"))
    count = read_int(table["count"], join_path(path, "count"), minimum=1) if "count" in table else 1
    return PlayerChange(kind=kind, player=read_player(table[kind], sub, players), count=count)


def _permanent_event(kind: str, table: dict[str, object], path: str, players: tuple[str, ...],
                     names: set[str], everything: set[str]) -> Event:
    """The events of format 3: a permanent leaves play, regenerates, changes…"""
    sub = join_path(path, kind)
    if kind in ("leaves_play", "tap", "untap"):
        check_keys(table, path, (kind,))
        name = read_string(table[kind], sub)
        if name not in everything:
            raise SituationError(sub, f"aucun permanent ne s'appelle « {name} »")
        if kind == "tap":
            return Tap(name=name)
        return Untap(name=name) if kind == "untap" else LeavesPlay(name=name)
    if kind == "regenerate":
        check_keys(table, path, (kind,))
        return Regenerate(name=readers.creature_name(table[kind], sub, names))
    inner = english_keys(read_table(table[kind], sub), sub, CHANGE_KEY_ALIASES)
    check_keys(table, path, (kind,))
    second = "power" if kind == "set_power" else "by"
    check_keys(inner, sub, ("creature", second) if kind == "set_power" else ("creature", "by", "until"))
    for key in ("creature", second):
        if key not in inner:
            raise SituationError(join_path(sub, key), "clé obligatoire manquante")
    creature = readers.creature_name(inner["creature"], join_path(sub, "creature"), names)
    if kind == "set_power":
        return SetPower(creature=creature, power=read_int(inner["power"], join_path(sub, "power"),
                                                          minimum=None))
    until = inner.get("until")
    return GainControl(creature=creature, by=read_player(inner["by"], join_path(sub, "by"),
                                                         players),
                       until=None if until is None else read_slug(
                           until, join_path(sub, "until"), UNTIL_ALIASES, "durée"))


def _damage_event(table: dict[str, object], path: str, players: tuple[str, ...],
                  everything: set[str]) -> DealDamage:
    """Noncombat damage: `{deal_damage = {source, to, amount, controller, redirect_to}}`."""
    check_keys(table, path, ("deal_damage",))
    sub = join_path(path, "deal_damage")
    inner = english_keys(read_table(table["deal_damage"], sub), sub, DAMAGE_KEY_ALIASES)
    check_keys(inner, sub, ("source", "to", "amount", "controller", "redirect_to"))
    for key in ("source", "to", "amount"):
        if key not in inner:
            raise SituationError(join_path(sub, key), "clé obligatoire manquante")
    to = read_string(inner["to"], join_path(sub, "to"))
    if to not in players and to not in everything:
        raise SituationError(join_path(sub, "to"), f"« {to} » n'est ni un joueur ni un "
                             "permanent de la situation")
    amount = read_int(inner["amount"], join_path(sub, "amount"))
    if amount > MAX_COUNT:
        raise SituationError(join_path(sub, "amount"), f"au plus {MAX_COUNT} blessures à la fois")
    redirect = inner.get("redirect_to")
    if redirect is not None:
        redirect = read_string(redirect, join_path(sub, "redirect_to"))
        if redirect not in everything:
            raise SituationError(join_path(sub, "redirect_to"), f"aucun permanent ne s'appelle "
                                 f"« {redirect} »")
    controller = inner.get("controller")
    return DealDamage(source=read_string(inner["source"], join_path(sub, "source")), to=to,
                      amount=amount, redirect_to=redirect,
                      controller=None if controller is None else read_player(
                          controller, join_path(sub, "controller"), players))
