"""The turn's flow: the turn begins (past a skipped untap step), each step is entered — its
turn-based actions, state-based actions and triggered abilities, then priority or none — and the
game advances through the turn plan (skipped steps, the first turn's skipped draw, a second
combat damage step, extra phases and steps, cleanup steps repeated) until the turn ends.
"""

from __future__ import annotations

from judge.game.objects import StackItem
from judge.game.turnplan import Moment, locate, next_step, occurrence, starts_phase
from judge.legality.context import where_label
from judge.procedure.state import priority_concept_of
from judge.procedure.turnactions import TurnActions


class Flow(TurnActions):
    """The turn's progress: beginning it, entering a step (its actions, state-based actions,
    priority or none), advancing to the next step of the plan, the cleanup step repeated."""

    def begin(self) -> None:
        """The turn begins with its untap step, or past it when it is skipped (the first
        turn's draw too: the plan knows it)."""
        plan = self._plan()
        if plan[0].skipped:  # a skipped untap step doesn't happen: no phasing, no untapping
            later = next_step(plan, 0)
            assert later is not None
            self.note("L'étape de dégagement est sautée : on passe au-delà comme si elle "
                      "n'existait pas (ni déphasage, ni dégagement).", "turn.skip",
                      "phasing.skipped_untap")
            self._enter(plan[later].moment, ("turn.phases", "turn.skip"))
        else:
            self._enter(self.moment, ("turn.phases",))

    def _advance(self, why: tuple[str, ...]) -> None:
        if self.moment.step != "combat_damage":
            self.two = any(c.in_combat and c.strikes_first for c in self.creatures.values())
        plan = self._plan()
        here = locate(plan, self.moment, self.nth)
        later = next_step(plan, here)
        new_phase = later is None or starts_phase(self.moment, plan[later].moment)
        self._empty_mana(phase_ends=new_phase)
        if self.moment.phase == "combat" and new_phase:
            self._end_combat()
            why = (*why, "combat.end")
        if later is None:
            self.ended = True
            self.holder = None
            self.arrival = (*why, "turn.ends")
            self.note("Le tour se termine.", *why, "turn.ends")
            return
        skipped = tuple(dict.fromkeys(e.skip_reason for e in plan[here + 1:later] if e.skip_reason)
                        ) if later > here + 1 else ()
        second = ("damage.two_steps",) if plan[later].moment.damage_step == "regular" else ()
        self.nth = occurrence(plan, later)
        moment = plan[later].moment
        extra: tuple[str, ...] = ()
        if moment.extra:
            extra = (("turn.extra_steps",) if any(e.step == moment.step for e in
                                                  self.start.extra_steps) else ("turn.extra_phases",))
        if moment.repeat:
            extra = ("cleanup.repeat",)
        self._enter(moment, (*why, *skipped, *second, *extra))

    def _enter(self, moment: Moment, why: tuple[str, ...]) -> None:
        self.moment = moment
        self.passes = 0
        self.holder = None
        entry = self.model.step(moment.phase, moment.step)
        self.note(f"Début de {where_label(moment)}.", *why)
        self.dealt = False
        performed = False
        for action in entry.actions:
            if action.what == "triggers" and entry.priority:
                performed = self._state_based() or performed
            self._action(action.what)
        if entry.priority or moment.step == "cleanup":
            performed = self._state_based() or performed
        # combat damage dealt without the stack is why the step's priority comes after it
        dealt = ("damage.resolves",) if self.dealt else ()
        concept = priority_concept_of(moment)
        here = (*why, *dealt, concept)
        self.arrival = self.base = self.step_why = here
        if moment.step == "cleanup" and self._cleanup_triggers(moment, why, performed):
            return
        if not entry.priority:
            self.note("Personne ne reçoit la priorité pendant cette étape : elle se termine "
                      "une fois ses actions accomplies.", concept, "step.no_priority_ends")
            self._advance((concept, "step.no_priority_ends"))
            return
        self.holder = self.active
        if self.pending_attackers or self.pending_blockers:
            # the declaration is a turn-based action: the active player receives priority
            # after it (2004 308.1, 309.1; 2010 508.1, 509.1)
            self.priority_pending = concept
            return
        self.note(f"{self.active} reçoit la priorité.", concept)

    def priority_note(self) -> None:
        """The active player receives priority once the step's declaration is made."""
        if self.priority_pending is not None:
            self.note(f"{self.active} reçoit la priorité.", self.priority_pending)
            self.priority_pending = None

    def _cleanup_triggers(self, moment: Moment, why: tuple[str, ...], performed: bool) -> bool:
        """Abilities waiting in the cleanup step go on the stack and the active player gets
        priority, as when state-based actions were performed; another cleanup step will follow
        (2004 314.3, 420.3; 2010 514.3a, 704.3)."""
        waiting = [*self.pending, *(t for t in self.start.triggers
                                    if t.at == "cleanup" and (moment.repeat == 0 or not t.once))]
        if performed and not waiting:
            self.cleanups = moment.repeat + 1
            self.holder = self.active
            self.arrival = self.base = self.step_why = (*why, "cleanup.repeat")
            self.note(f"Des actions basées sur un état ont été accomplies pendant le nettoyage : "
                      f"{self.active} reçoit la priorité ; une fois la pile vide et tous les "
                      "joueurs ayant passé, une nouvelle étape de nettoyage commence.",
                      "sba.cleanup", "cleanup.repeat")
            return True
        if not waiting:
            return False
        self.pending = []
        waiting.sort(key=lambda t: self._seat(t.controller))
        for trigger in waiting:
            self.stack.append(StackItem(kind="trigger", controller=trigger.controller))
        self.cleanups = moment.repeat + 1
        self.holder = self.active
        self.arrival = self.base = self.step_why = (*why, "cleanup.repeat")
        self.note(f"Des capacités déclenchées attendent ({', '.join(t.name for t in waiting)}) : "
                  f"elles vont sur la pile et {self.active} reçoit la priorité ; une fois la pile "
                  "vide et tous les joueurs ayant passé, une nouvelle étape de nettoyage "
                  "commence.", "cleanup.repeat")
        return True
