"""What happens to permanents during a replay: the untap step's phasing and untapping, and what
an effect does (leaves play, regenerates, changes power or controller, taps or untaps — and
whether that removes it from combat).

Mutates the replay's tables of creatures and permanents; returns the French sentence of the
trail and the concepts deciding it. The priority loop is `judge.checks.replay`'s.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from judge.game.events import GainControl, LeavesPlay, Regenerate, SetPower, Tap, Untap
from judge.game.situationmodel import Creature

if TYPE_CHECKING:
    from typing import Any

    from judge.game.objects import Permanent

Change = LeavesPlay | Regenerate | SetPower | GainControl | Tap | Untap


def _out_of_combat(creature: Creature, **changes: object) -> Creature:
    return replace(creature, attacking=False, blocking=(), **changes)  # type: ignore[arg-type]


def change_note(event: Change, creatures: dict[str, Creature],
                permanents: dict[str, Permanent]) -> tuple[str, tuple[str, ...]]:
    """Apply one change; the trail's sentence and concepts."""
    if isinstance(event, SetPower):
        creature = creatures[event.creature]
        creatures[event.creature] = replace(creature, power=event.power)
        return (f"La force de {creature.name} devient {event.power} (elle reste en combat si "
                "elle y était).", ("combat.removed",))
    if isinstance(event, (Tap, Untap)):
        tapped = isinstance(event, Tap)
        verb = "s'engage" if tapped else "se dégage"
        if event.name in permanents:
            permanents[event.name] = replace(permanents[event.name], tapped=tapped)
            return f"{event.name} {verb}.", ()
        creature = creatures[event.name]
        creatures[event.name] = replace(creature, tapped=tapped)
        if creature.in_combat:
            return (f"{event.name} {verb} ; cela ne la retire pas du combat et n'empêche pas ses "
                    "blessures de combat.", ("damage.tapped",))
        return f"{event.name} {verb}.", ()
    if isinstance(event, LeavesPlay):
        if event.name in permanents:
            del permanents[event.name]
            return f"{event.name} quitte le jeu.", ()
        creature = creatures[event.name]
        creatures[event.name] = _out_of_combat(creature, in_play=False)
        tail = " ; elle est retirée du combat" if creature.in_combat else ""
        return f"{event.name} quitte le jeu{tail}.", ("combat.removed",)
    if isinstance(event, Regenerate):
        creature = creatures[event.name]
        creatures[event.name] = _out_of_combat(creature, tapped=True, damage=0, regenerated=True)
        tail = " et est retirée du combat" if creature.in_combat else ""
        return (f"{event.name} se régénère : elle s'engage, ses blessures sont retirées{tail}.",
                ("combat.removed",))
    creature = creatures[event.creature]
    changed = creature.controller != event.by
    creatures[event.creature] = _out_of_combat(
        creature, controller=event.by, changed_control=changed,
        since_turn_start=creature.since_turn_start and not changed)
    tail = " ; elle est retirée du combat" if creature.in_combat else ""
    if not changed:
        return f"{event.by} contrôle déjà {creature.name}{tail}.", ("combat.removed",)
    return (f"{event.by} prend le contrôle de {creature.name}{tail} ; {event.by} ne la contrôle "
            "pas continuellement depuis le début du tour.", ("combat.removed", "control.changed"))


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
