"""Priority: a player who acts receives priority again; when all players pass in succession the
top of the stack resolves (combat damage on the stack included) and the active player receives
priority, or, the stack empty, the step ends (2004 408, 2010 116).
"""

from __future__ import annotations

from judge.errors import IllegalEvent
from judge.game.objects import StackItem
from judge.legality.casting import KIND_LABELS
from judge.legality.context import where_label
from judge.procedure.flow import Flow
from judge.procedure.state import priority_concept_of


class Priority(Flow):
    """Priority: a player who acts receives it again, passes in succession resolve the top of
    the stack or end the step."""

    def _act(self, player: str, item: StackItem | None) -> None:
        if item is not None:
            self.stack.append(item)
        self.holder = player  # a player who acts receives priority again
        self.passes = 0
        self.arrival = (*self.base, "holder.acts")

    def _pass(self, index: int) -> None:
        assert self.holder is not None
        player = self.holder
        self.passes += 1
        seat = self.players.index(self.holder)
        self.holder = self.players[(seat + 1) % len(self.players)]
        if self.passes < len(self.players):
            self.arrival = (*self.base, "holder.passes")
            self.note(f"{player} passe ; {self.holder} reçoit la priorité.",
                      priority_concept_of(self.moment), "holder.passes", event=index)
            return
        if self.stack:
            top = self.stack.pop()
            self.holder = self.active
            self.passes = 0
            if top.kind == "combat_damage":
                self._resolve_damage()
                self.arrival = self.base = ("damage.resolves",)
                self.note(f"{player} passe : tous les joueurs ont passé ; les blessures de combat "
                          f"se résolvent et sont infligées, puis {self.active} reçoit la priorité.",
                          "damage.resolves", event=index)
            else:
                what = KIND_LABELS.get(top.kind, "une capacité")
                self.arrival = self.base = (*self.step_why, "stack.resolves")
                done = self._resolve_effect(top.effect) if top.effect is not None else None
                self.note(f"{player} passe : tous les joueurs ont passé ; l'objet du dessus de "
                          f"la pile ({what}) se résout" + (f" : {done[0]}" if done else "")
                          + f", puis {self.active} reçoit la priorité.", "stack.resolves",
                          *(done[1:] if done else ()), event=index)
            if self._state_based():  # performed before the active player receives priority
                self.note(f"{self.active} reçoit la priorité.", "stack.resolves", "sba.check")
            return
        ends = ("turn.step_ends", *(("main.ends",) if self.moment.step is None else ()))
        self.holder = None
        self.note(f"{player} passe : tous les joueurs ont passé successivement avec la pile "
                  f"vide, {where_label(self.moment)} se termine.", *ends, event=index)
        self._advance(ends)

    def _holding(self, index: int) -> str:
        if self.holder is None:
            raise IllegalEvent(index, "personne n'a la priorité : rien ne peut arriver à un "
                               "permanent pendant cette étape",
                               self._rule(priority_concept_of(self.moment)))
        return self.holder

    def _need_priority(self, index: int, player: str) -> None:
        if self.holder != player:
            raise IllegalEvent(index, f"{player} n'a pas la priorité "
                               f"({self.holder or 'personne'} l'a)",
                               self._rule(priority_concept_of(self.moment)))
