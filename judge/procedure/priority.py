"""Priority: a player who acts receives priority again; when all players pass in succession the
top of the stack resolves (combat damage on the stack included) and the active player receives
priority, or, the stack empty, the step ends (2004 408, 2010 116). Functions over a `Turn`.
"""

from __future__ import annotations

from judge.errors import IllegalEvent
from judge.game.objects import StackItem
from judge.legality.casting import KIND_LABELS
from judge.legality.context import where_label
from judge.procedure.flow import advance
from judge.procedure.state import Turn, priority_concept_of
from judge.procedure.turnactions import resolve_damage, resolve_effect


def act(turn: Turn, player: str, item: StackItem | None) -> None:
    """`player` acts (putting `item` on the stack, if any) and receives priority again."""
    if item is not None:
        turn.stack.items.append(item)
    priority = turn.priority
    priority.holder = player  # a player who acts receives priority again
    priority.passes = 0
    priority.reasons = (*priority.settled, "holder.acts")


def pass_priority(turn: Turn, index: int) -> None:
    """The holder passes: to the next player, or, all having passed in succession, the top
    of the stack resolves or the step ends."""
    priority, players = turn.priority, turn.seats.in_game
    assert priority.holder is not None
    player = priority.holder
    priority.passes += 1
    priority.holder = players[(players.index(player) + 1) % len(players)]
    if priority.passes < len(players):
        priority.reasons = (*priority.settled, "holder.passes")
        turn.note(f"{player} passe ; {priority.holder} reçoit la priorité.",
                  priority_concept_of(turn.position.moment), "holder.passes", event=index)
        return
    if turn.stack.items:
        _resolve_top(turn, player, index)
        return
    ends = ("turn.step_ends", *(("main.ends",) if turn.position.moment.step is None else ()))
    priority.holder = None
    turn.note(f"{player} passe : tous les joueurs ont passé successivement avec la pile "
              f"vide, {where_label(turn.position.moment)} se termine.", *ends, event=index)
    advance(turn, ends)


def _resolve_top(turn: Turn, player: str, index: int) -> None:
    """All players passed in succession (`player` last): the top of the stack resolves and
    the active player receives priority."""
    priority = turn.priority
    top = turn.stack.items.pop()
    active = turn.receiver()
    priority.holder = active
    priority.passes = 0
    if top.kind == "combat_damage":
        resolve_damage(turn)
        priority.reasons = priority.settled = ("damage.resolves",)
        turn.note(f"{player} passe : tous les joueurs ont passé ; les blessures de combat "
                  f"se résolvent et sont infligées, puis {active} reçoit la priorité.",
                  "damage.resolves", event=index)
    else:
        what = KIND_LABELS.get(top.kind, "une capacité")
        priority.reasons = priority.settled = (*priority.at_entry, "stack.resolves")
        done = resolve_effect(turn, top.effect) if top.effect is not None else None
        turn.note(f"{player} passe : tous les joueurs ont passé ; l'objet du dessus de "
                  f"la pile ({what}) se résout" + (f" : {done[0]}" if done else "")
                  + f", puis {active} reçoit la priorité.", "stack.resolves",
                  *(done[1:] if done else ()), event=index)
    if turn.state_based():  # performed before the active player receives priority
        turn.note(f"{turn.receiver()} reçoit la priorité.", "stack.resolves", "sba.check")


def holding(turn: Turn, index: int) -> str:
    """Who holds priority (IllegalEvent: nobody, nothing can happen in this step)."""
    if turn.priority.holder is None:
        raise IllegalEvent(index, "personne n'a la priorité : rien ne peut arriver à un "
                           "permanent pendant cette étape",
                           turn.rule(priority_concept_of(turn.position.moment)))
    return turn.priority.holder


def need_priority(turn: Turn, index: int, player: str) -> None:
    """IllegalEvent unless `player` holds priority."""
    if turn.priority.holder != player:
        raise IllegalEvent(index, f"{player} n'a pas la priorité "
                           f"({turn.priority.holder or 'personne'} l'a)",
                           turn.rule(priority_concept_of(turn.position.moment)))
