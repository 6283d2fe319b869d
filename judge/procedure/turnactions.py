"""Turn-based actions that change permanents and pools: the untap step's phasing and untapping,
and mana pools emptying as a step or phase ends (with mana burn where the edition has it).

Mutate the replay's tables; return the trail's French sentences with the concept deciding each.
The replay (`judge.procedure.replay`) performs them when its edition's game model lists them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from judge.legality.words import plural

if TYPE_CHECKING:
    from typing import Any

    from judge.game.objects import Permanent
    from judge.game.situationmodel import Creature


Notes = list[tuple[str, str]]


def phase(active: str, creatures: dict[str, Creature], permanents: dict[str, Permanent]) -> Notes:
    """The active player's permanents with phasing phase out, those phased out phase in."""
    out, back = [], []
    tables: tuple[dict[str, Any], ...] = (creatures, permanents)
    for table in tables:
        for name, thing in list(table.items()):
            if thing.controller != active:
                continue
            if thing.phased_out:
                table[name] = replace(thing, phased_out=False)
                back.append(name)
            elif thing.phasing:
                table[name] = replace(thing, phased_out=True)
                out.append(name)
    said = ([f"{', '.join(out)} se déphase{'nt' if len(out) > 1 else ''}"] if out else []) + (
        [f"{', '.join(back)} se rephase{'nt' if len(back) > 1 else ''}"] if back else [])
    if not said:
        return []
    text = " ; ".join(said)
    return [(text[0].upper() + text[1:] + " (simultanément).", "action.phasing")]


def untap(active: str, creatures: dict[str, Creature], permanents: dict[str, Permanent]) -> Notes:
    """The active player's tapped permanents untap, except those an effect keeps tapped."""
    freed, kept = [], []
    tables: tuple[dict[str, Any], ...] = (creatures, permanents)
    for table in tables:
        for name, thing in list(table.items()):
            if thing.controller != active or not thing.tapped or thing.phased_out:
                continue
            if thing.doesnt_untap:
                kept.append(name)
                continue
            table[name] = replace(thing, tapped=False)
            freed.append(name)
    notes: Notes = []
    if freed:
        notes.append((f"{active} dégage ses permanents ({', '.join(freed)}).", "action.untap"))
    if kept:
        notes.append((f"{', '.join(kept)} ne se dégage{'nt' if len(kept) > 1 else ''} pas (un "
                      "effet l'en empêche).", "untap.doesnt_untap"))
    return notes


def empty_pools(pools: dict[str, int], *, burn: bool) -> list[tuple[str, str]]:
    """The replay's mana pools empty (in `pools`): what each player loses, and the concept."""
    notes = []
    for player, amount in list(pools.items()):
        if amount <= 0:
            continue
        pools[player] = 0
        unused = "inutilisé" if amount == 1 else "inutilisés"
        if burn:
            notes.append((f"{player} perd {plural(amount, 'mana')} {unused} et "
                          f"{plural(amount, 'point de vie')} (brûlure de mana).", "mana.burn"))
        else:
            notes.append((f"La réserve de {player} se vide de {plural(amount, 'mana')} "
                          f"{unused}, sans perte de points de vie.", "fact.mana_empties"))
    return notes
