"""The turn's flow: the turn begins (past a skipped untap step), each step is entered — its
turn-based actions, state-based actions and triggered abilities, then priority or none — and the
game advances through the turn plan (skipped steps, the first turn's skipped draw, a second
combat damage step, extra phases and steps, cleanup steps repeated) until the turn ends.
Functions over a `Turn`.
"""

from __future__ import annotations

from judge.game.objects import StackItem
from judge.game.turnplan import (
    DamageStep,
    Moment,
    Phase,
    Step,
    locate,
    next_step,
    occurrence,
    starts_phase,
)
from judge.legality.context import where_label
from judge.procedure.state import Reasons, Turn, priority_concept_of
from judge.procedure.turnactions import empty_mana, end_combat, perform_action


def begin(turn: Turn) -> None:
    """The turn begins with its untap step, or past it when it is skipped (the first
    turn's draw too: the plan knows it)."""
    plan = turn.plan()
    if plan[0].skipped:  # a skipped untap step doesn't happen: no phasing, no untapping
        later = next_step(plan, 0)
        assert later is not None
        turn.note("L'étape de dégagement est sautée : on passe au-delà comme si elle "
                  "n'existait pas (ni déphasage, ni dégagement).", "turn.skip",
                  "phasing.skipped_untap")
        enter(turn, plan[later].moment, ("turn.phases", "turn.skip"))
    else:
        enter(turn, turn.position.moment, ("turn.phases",))


def advance(turn: Turn, why: Reasons) -> None:
    """The step ends: to the next step of the plan (its reasons `why` and those of the
    steps passed over), or the turn ends."""
    position = turn.position
    if position.moment.step != Step.COMBAT_DAMAGE:
        position.two_damage_steps = any(c.in_combat and c.strikes_first
                                        for c in turn.field.creatures.values())
    plan = turn.plan()
    here = locate(plan, position.moment, position.occurrence)
    later = next_step(plan, here)
    new_phase = later is None or starts_phase(position.moment, plan[later].moment)
    empty_mana(turn, phase_ends=new_phase)
    if position.moment.phase == Phase.COMBAT and new_phase:
        end_combat(turn)
        why = (*why, "combat.end")
    if later is None:
        position.ended = True
        turn.priority.holder = None
        turn.priority.reasons = (*why, "turn.ends")
        turn.note("Le tour se termine.", *why, "turn.ends")
        return
    skipped = tuple(dict.fromkeys(e.skip_reason for e in plan[here + 1:later] if e.skip_reason)
                    ) if later > here + 1 else ()
    second = (("damage.two_steps",) if plan[later].moment.damage_step == DamageStep.REGULAR
              else ())
    position.occurrence = occurrence(plan, later)
    moment = plan[later].moment
    extra: Reasons = ()
    if moment.extra:
        extra = (("turn.extra_steps",) if any(e.step == moment.step for e in
                                              turn.start.extra_steps) else ("turn.extra_phases",))
    if moment.repeat:
        extra = ("cleanup.repeat",)
    enter(turn, moment, (*why, *skipped, *second, *extra))


def enter(turn: Turn, moment: Moment, why: Reasons) -> None:
    """A step begins: its turn-based actions, the state-based actions, then priority (or
    none, and the step ends)."""
    turn.position.moment = moment
    priority = turn.priority
    priority.passes = 0
    priority.holder = None
    entry = turn.model.step(moment.phase, moment.step)
    turn.note(f"Début de {where_label(moment)}.", *why)
    turn.combat.dealt_without_stack = False
    performed = False
    for action in entry.actions:
        if action.what == "triggers" and entry.priority:
            performed = turn.state_based() or performed
        perform_action(turn, action.what)
    if entry.priority or moment.step == Step.CLEANUP:
        performed = turn.state_based() or performed
    # combat damage dealt without the stack is why the step's priority comes after it
    dealt = ("damage.resolves",) if turn.combat.dealt_without_stack else ()
    concept = priority_concept_of(moment)
    here = (*why, *dealt, concept)
    priority.reasons = priority.settled = priority.at_entry = here
    if moment.step == Step.CLEANUP and _cleanup_triggers(turn, moment, why, performed):
        return
    if not entry.priority:
        turn.note("Personne ne reçoit la priorité pendant cette étape : elle se termine "
                  "une fois ses actions accomplies.", concept, "step.no_priority_ends")
        advance(turn, (concept, "step.no_priority_ends"))
        return
    priority.holder = turn.receiver()
    if turn.combat.attackers_due or turn.combat.blockers_due:
        # the declaration is a turn-based action: the active player receives priority
        # after it (2004 308.1, 309.1; 2010 508.1, 509.1)
        priority.after_declaration = concept
        return
    turn.note(f"{turn.receiver()} reçoit la priorité.", concept)


def priority_note(turn: Turn) -> None:
    """The active player receives priority once the step's declaration is made."""
    if turn.priority.after_declaration is not None:
        turn.note(f"{turn.receiver()} reçoit la priorité.", turn.priority.after_declaration)
        turn.priority.after_declaration = None


def _cleanup_triggers(turn: Turn, moment: Moment, why: Reasons, performed: bool) -> bool:
    """Abilities waiting in the cleanup step go on the stack and the active player gets
    priority, as when state-based actions were performed; another cleanup step will follow
    (2004 314.3, 420.3; 2010 514.3a, 704.3)."""
    waiting = [*turn.stack.waiting, *(t for t in turn.start.triggers
                                      if t.at == Step.CLEANUP and (moment.repeat == 0 or not t.once))]
    if not performed and not waiting:
        return False
    turn.position.added_cleanups = moment.repeat + 1
    priority = turn.priority
    priority.holder = turn.receiver()
    priority.reasons = priority.settled = priority.at_entry = (*why, "cleanup.repeat")
    if not waiting:
        turn.note(f"Des actions basées sur un état ont été accomplies pendant le nettoyage : "
                  f"{turn.receiver()} reçoit la priorité ; une fois la pile vide et tous les "
                  "joueurs ayant passé, une nouvelle étape de nettoyage commence.",
                  "sba.cleanup", "cleanup.repeat")
        return True
    turn.stack.waiting = []
    waiting.sort(key=lambda t: turn.seat(t.controller))
    for trigger in waiting:
        turn.stack.items.append(StackItem(kind="trigger", controller=trigger.controller))
    turn.note(f"Des capacités déclenchées attendent ({', '.join(t.name for t in waiting)}) : "
              f"elles vont sur la pile et {turn.receiver()} reçoit la priorité ; une fois la pile "
              "vide et tous les joueurs ayant passé, une nouvelle étape de nettoyage "
              "commence.", "cleanup.repeat")
    return True
