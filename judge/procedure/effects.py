"""What an effect does to a permanent during a replay: leaves play, regenerates, changes power
or controller, taps or untaps — and whether that removes it from combat. (The untap step's
phasing and untapping are `judge.procedure.turnactions`'.)

Mutates the replay's tables of creatures and permanents; returns the French sentence of the
trail and the concepts deciding it. The priority loop is `judge.procedure.replay`'s.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from judge.game.events import GainControl, LeavesPlay, Regenerate, SetPower, Tap, Untap
from judge.game.situationmodel import Creature

if TYPE_CHECKING:

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
        since_turn_start=creature.since_turn_start and not changed,
        owner=creature.owner or creature.controller,
        control_until=event.until if changed else creature.control_until)
    tail = " ; elle est retirée du combat" if creature.in_combat else ""
    if not changed:
        return f"{event.by} contrôle déjà {creature.name}{tail}.", ("combat.removed",)
    return (f"{event.by} prend le contrôle de {creature.name}{tail} ; {event.by} ne la contrôle "
            "pas continuellement depuis le début du tour.", ("combat.removed", "control.changed"))


