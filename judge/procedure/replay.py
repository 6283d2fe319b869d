"""Event replay: from the start of the active player's turn to the described moment.

Owns the events — passing, casting, activating, adding mana, playing a land, declaring
attackers and blockers, combat events, effects on permanents —, each checked (priority,
legality asked of `judge.legality` in a `Context` of the state, or its `Board` for the
declarations, never of a question: `judge.checks` is above) and performed, with its
`IllegalEvent` errors; and `replay()`, which returns `Replayed`: the state reached and its
`trail`. Functions over the `Turn` of `state`, using those of `turnactions`, `flow` and
`priority`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from judge.errors import IllegalEvent
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
    Pass,
    PlayerChange,
    PlayLand,
    Shield,
)
from judge.game.gamemodel import GameModel
from judge.game.objects import StackItem
from judge.game.situationmodel import SORCERY_SPEED, Situation
from judge.game.turnplan import Step
from judge.legality.casting import KIND_LABELS, may_cast, may_play_land
from judge.legality.damage import DamageRecord, Hit
from judge.legality.words import plural
from judge.procedure import entering
from judge.procedure.blocks import Fired, keyword_triggers
from judge.procedure.effects import Change, change_note
from judge.procedure.entering import CombatEvent
from judge.procedure.flow import begin, priority_note
from judge.procedure.noncombat import deal_noncombat
from judge.procedure.priority import act, holding, need_priority, pass_priority
from judge.procedure.state import Turn, priority_concept_of
from judge.procedure.trail import TrailEntry

if TYPE_CHECKING:
    from judge.legality.context import RuleSource


@dataclass(frozen=True, slots=True, kw_only=True)
class Replayed:
    """Where the events lead: the computed situation and what the replay learnt."""

    situation: Situation
    ended: bool
    no_attackers: bool | None
    trail: tuple[TrailEntry, ...]
    reasons: tuple[str, ...]  # concepts: why the game is at this step, with this holder
    damage: DamageRecord | None = None
    discarded: int | None = None  # cards the cleanup's discard removed
    occurrence: int = 0  # which occurrence of its place the final step is (extra phases, steps)
    repeat: int = 0  # which cleanup step
    burned: tuple[str, ...] = ()  # players who lost life to mana burn
    noncombat: tuple[Hit, ...] = ()  # noncombat damage dealt by the events, in order


def _play(turn: Turn, index: int, event: Event) -> None:
    """One event, checked (legality, priority) and performed."""
    if turn.position.ended:
        raise IllegalEvent(index, "le tour est terminé : plus aucun événement n'est possible",
                           turn.rule("turn.ends"))
    lost = turn.seats.lost
    if lost and turn.game_over():
        verb = "l'ont" if len(lost) > 1 else "l'a"
        raise IllegalEvent(index, f"la partie est terminée : {', '.join(sorted(lost))} {verb} "
                           "perdue",
                           turn.rule("sba.zero_life"))
    combat = turn.combat
    if combat.attackers_due and not isinstance(event, DeclareAttackers):
        combat.attackers_due = False
        turn.position.no_attackers = not any(c.attacking for c in turn.field.creatures.values())
    if combat.blockers_due and not isinstance(event, DeclareBlockers):
        combat.blockers_due = False
    if turn.priority.after_declaration is not None and not isinstance(
            event, (DeclareAttackers, DeclareBlockers)):
        priority_note(turn)
    perform = next(handler for kinds, handler in _EVENTS if isinstance(event, kinds))
    perform(turn, index, event)
    if turn.priority.holder is not None:
        turn.state_based()


def _pass(turn: Turn, index: int, event: Pass) -> None:
    pass_priority(turn, index)


def _activate(turn: Turn, index: int, event: Activate) -> None:
    need_priority(turn, index, event.by)
    act(turn, event.by, StackItem(kind="ability", controller=event.by))
    turn.note(f"{event.by} active une capacité ; elle va sur la pile et {event.by} "
              "reçoit de nouveau la priorité.", priority_concept_of(turn.position.moment),
              "holder.acts", event=index)


def _add_mana(turn: Turn, index: int, event: AddMana) -> None:
    need_priority(turn, index, event.by)
    pools = turn.mana.pools
    pools[event.by] = pools.get(event.by, 0) + event.amount
    turn.priority.reasons = (*turn.priority.settled, "holder.acts", "holder.mana")
    turn.note(f"{event.by} ajoute {plural(event.amount, 'mana')} à sa réserve "
              f"({plural(pools[event.by], 'mana')} en tout) et garde la priorité.",
              priority_concept_of(turn.position.moment), "holder.acts", "holder.mana",
              event=index)


def _combat_event(turn: Turn, index: int, event: CombatEvent) -> None:
    """A permanent put onto the battlefield attacking or blocking, or a block by an effect."""
    holder = holding(turn, index)
    problem = entering.timing_problem(event, turn.position.moment.step)
    if problem is not None:
        raise IllegalEvent(index, problem, turn.rule("combat.end"))
    turn.field.changed = True
    done = entering.apply(event, turn.field.creatures, turn.board(), triggers=turn.start.triggers)
    concepts = done.concepts
    if done.attacking and turn.position.no_attackers:
        turn.position.no_attackers = False  # 508.6: put onto the battlefield attacking
        concepts = (*concepts, "combat.no_attackers")
    act(turn, holder, None)
    _stack_fired(turn, list(done.fired))
    turn.note(done.what, *concepts, event=index)


def _stack_fired(turn: Turn, fired: list[Fired]) -> None:
    """Triggered abilities go on the stack, the active player's first."""
    for f in sorted(fired, key=lambda f: turn.seat(f.trigger.controller)):
        for _ in range(f.times):
            turn.stack.items.append(StackItem(kind="trigger", controller=f.trigger.controller,
                                              effect=f.effect))


def _player_change(turn: Turn, index: int, event: PlayerChange | Shield) -> None:
    """A player draws, gets poison counters or leaves the game; a creature gets a
    regeneration shield — while a player holds priority (that player keeps it)."""
    holder = holding(turn, index)
    turn.field.changed = True
    concepts: tuple[str, ...] = ()
    if isinstance(event, Shield) and event.destroy:
        what, concepts = _destroy(turn, event.name)
    elif isinstance(event, Shield):
        creatures = turn.field.creatures
        creature = creatures[event.name]
        creatures[event.name] = replace(
            creature, regeneration_shields=creature.regeneration_shields + 1)
        what = (f"{event.name} reçoit un bouclier de régénération : la prochaine fois qu'elle "
                "serait détruite ce tour-ci, elle sera régénérée à la place.")
        concepts = ("sba.regenerated",)
    elif event.kind == "draw":
        what, concepts = _draw_cards(turn, event.player, event.count)
    elif event.kind == "poison":
        poison = turn.seats.poison
        poison[event.player] = poison.get(event.player, 0) + event.count
        what = (f"{event.player} reçoit {plural(event.count, 'marqueur')} poison "
                f"({poison[event.player]} en tout).")
        concepts = ("sba.poison",)
    else:
        what, concepts = _leave_game(turn, index, event.player)
    act(turn, holder if holder in turn.seats.in_game else turn.active, None)
    turn.note(what, *concepts, event=index)


def _destroy(turn: Turn, name: str) -> tuple[str, tuple[str, ...]]:
    """An effect destroys a creature: a regeneration shield replaces it (2004 419.6b, 2010
    701.11a); else it leaves play (and combat)."""
    creatures = turn.field.creatures
    creature = creatures[name]
    if creature.regeneration_shields > 0:
        creatures[name] = replace(
            creature, damage=0, tapped=True, attacking=False, blocking=(), regenerated=True,
            regeneration_shields=creature.regeneration_shields - 1)
        return (f"Un effet détruirait {name} : son bouclier de régénération la régénère à la "
                "place (blessures retirées, engagée, retirée du combat).",
                ("sba.regenerated", "combat.removed"))
    creatures[name] = replace(creature, in_play=False, attacking=False, blocking=())
    return f"Un effet détruit {name} : elle quitte le champ de bataille.", ("combat.removed",)


def _draw_cards(turn: Turn, player: str, count: int) -> tuple[str, tuple[str, ...]]:
    cards = turn.cards
    library = cards.library.get(player)
    drawn = count if library is None else min(count, library)
    if library is not None:
        cards.library[player] = library - drawn
    hand = cards.hands.get(player)
    if hand is not None:
        cards.hands[player] = hand + drawn
    what = f"{player} pioche {plural(drawn, 'carte')}"
    if library is not None and count > library:
        cards.drew_from_empty.append(player)
        return (what + f" : sa bibliothèque n'en avait que {library}, il a dû piocher "
                "dans une bibliothèque vide.", ("sba.empty_library",))
    return what + ".", ()


def _leave_game(turn: Turn, index: int, player: str) -> tuple[str, tuple[str, ...]]:
    seats = turn.seats
    if not turn.model.rules("multiplayer.left") or len(seats.in_game) <= 2:
        raise IllegalEvent(index, "seule une partie multijoueur continue après le départ "
                           "d'un joueur", turn.rule("multiplayer.left"))
    gone = turn.leave(player)
    return (f"{player} quitte la partie : ses permanents la quittent aussi"
            + (f" ({', '.join(gone)})" if gone else "") + " ; la partie continue.",
            ("multiplayer.left",))


def _enters(turn: Turn, index: int, event: EntersBattlefield) -> None:
    """A noncreature permanent comes onto the battlefield while a player holds priority (that
    player keeps it); the state-based actions look at it next (704.5j, the legend rule)."""
    holder = holding(turn, index)
    permanent = event.permanent
    kinds = turn.model.fact("spell_kinds").value
    if "planeswalker" in permanent.card_types and isinstance(kinds, tuple) and (
            "planeswalker" not in kinds):
        raise IllegalEvent(index, f"le type planeswalker n'existe pas dans l'édition "
                           f"{turn.edition}", turn.rule("walker.none"))
    turn.field.permanents[permanent.name] = permanent
    turn.field.changed = True
    act(turn, holder, None)
    turn.note(f"{permanent.name} ({permanent.controller}) arrive sur le champ de bataille.",
              event=index)


def _change(turn: Turn, index: int, event: Change) -> None:
    """Something happens to a permanent while a player holds priority (an effect)."""
    holder = holding(turn, index)
    what, concepts = change_note(event, turn.field.creatures, turn.field.permanents)
    turn.field.changed = True
    act(turn, holder, None)
    turn.note(what, *concepts, event=index)


def _from_hand(turn: Turn, player: str) -> None:
    """The card leaves a known hand (`may_cast` / `may_play_land` refused an empty one)."""
    hand = turn.cards.hands.get(player)
    if hand is not None:
        turn.cards.hands[player] = hand - 1


def _cast(turn: Turn, index: int, event: Cast) -> None:
    verdict = may_cast(turn.context(), event.by, event.kind, flash=event.flash)
    if verdict.value is not True:
        raise IllegalEvent(index, verdict.why, ", ".join(verdict.rules) or None)
    pools = turn.mana.pools
    pool = pools.get(event.by, 0)
    if event.cost > pool:
        raise IllegalEvent(index, f"{event.by} n'a que {plural(pool, 'mana')} en réserve pour "
                           f"un coût de {plural(event.cost, 'mana')} ; le paiement partiel "
                           "n'est pas permis", turn.rule("mana.spent"))
    verb = str(turn.model.fact("cast_verb").value)
    _from_hand(turn, event.by)
    act(turn, event.by, StackItem(kind=event.kind, controller=event.by))
    flash = event.flash and bool(turn.model.ability_rules("flash"))
    timing = ("cast.flash" if flash else "main.sorcery_speed" if event.kind in SORCERY_SPEED
              else priority_concept_of(turn.position.moment))
    paid: tuple[str, ...] = ()
    said = ""
    if event.cost:
        pools[event.by] = pool - event.cost
        paid = ("mana.spent",)
        said = (f" ; il paie {plural(event.cost, 'mana')} de sa réserve (reste "
                f"{plural(pools[event.by], 'mana')})")
    label = KIND_LABELS[event.kind] + (" avec le flash" if flash else "")
    turn.note(f"{event.by} {verb[:-1]} {label} depuis sa main{said} ; le sort va "
              f"sur la pile et {event.by} reçoit de nouveau la priorité.", "hand.cast",
              timing, *paid, "holder.acts", event=index)


def _play_land(turn: Turn, index: int, event: PlayLand) -> None:
    verdict = may_play_land(turn.context(), event.player)
    if verdict.value is not True:
        raise IllegalEvent(index, verdict.why, ", ".join(verdict.rules) or None)
    _from_hand(turn, event.player)
    cards = turn.cards
    cards.lands_played += 1
    act(turn, event.player, None)
    turn.note(f"{event.player} joue un terrain depuis sa main (sans utiliser la pile) ; "
              f"{plural(cards.lands_played, 'terrain')} "
              f"{'joué' if cards.lands_played == 1 else 'joués'} ce tour-ci ; il garde la "
              "priorité.", "land.play", "holder.acts", "holder.special", event=index)
    turn.priority.reasons = (*turn.priority.settled, "holder.acts", "holder.special")


def _declare_attackers(turn: Turn, index: int, event: DeclareAttackers) -> None:
    if turn.position.moment.step != Step.DECLARE_ATTACKERS or not turn.combat.attackers_due:
        raise IllegalEvent(index, "les attaquants se déclarent au début de l'étape de "
                           "déclaration des attaquants", turn.rule("attack.declare"))
    done = entering.declare_attackers(turn.board(), turn.field.creatures, event.attackers,
                                      pool=turn.mana.pools.get(turn.active, 0))
    if isinstance(done, entering.Refused):
        raise IllegalEvent(index, done.reason, turn.rule(done.concept))
    turn.combat.attackers_due = False
    turn.position.no_attackers = not event.attackers
    turn.note(done.what, *done.concepts, event=index)
    if event.attackers:
        _declared(turn, Step.DECLARE_ATTACKERS)
    priority_note(turn)


def _declare_blockers(turn: Turn, index: int, event: DeclareBlockers) -> None:
    if turn.position.moment.step != Step.DECLARE_BLOCKERS or not turn.combat.blockers_due:
        raise IllegalEvent(index, "les bloqueurs se déclarent au début de l'étape de "
                           "déclaration des bloqueurs", turn.rule("block.declare"))
    done = entering.declare_blockers(turn.board(), turn.field.creatures, event.blocks)
    if isinstance(done, entering.Refused):
        raise IllegalEvent(index, done.reason, turn.rule(done.concept))
    turn.combat.blockers_due = False
    turn.note(done.what, *done.concepts, event=index)
    _declared(turn, Step.DECLARE_BLOCKERS)
    priority_note(turn)


def _declared(turn: Turn, step: str) -> None:
    """The abilities the declaration (of `step`) triggered go on the stack (2004 308.1, 309.1;
    2010 508.2, 509.4)."""
    attackers = step == Step.DECLARE_ATTACKERS
    creatures = tuple(turn.field.creatures.values())
    fired = [*entering.declaration_triggers(attackers, turn.start.triggers, creatures),
             *keyword_triggers(turn.model, creatures, attackers=attackers)]
    if not fired:
        return
    _stack_fired(turn, fired)
    names = " ; ".join(f"{f.trigger.name} : {f.why}" for f in fired)
    turn.note(f"Capacités déclenchées par la déclaration mises sur la pile, celles du joueur "
              f"actif d'abord : {names}.", f"action.triggers.{step}",
              *dict.fromkeys(f.concept for f in fired))


# Each kind of event and what performs it (the first that matches; the rest are changes to a
# permanent, `judge.procedure.effects`).
_EVENTS: tuple[tuple[type | tuple[type, ...], Callable[[Turn, int, Any], None]], ...] = (
    (Pass, _pass),
    (Cast, _cast),
    ((PlayerChange, Shield), _player_change),
    (DealDamage, deal_noncombat),
    (EntersBattlefield, _enters),
    (Activate, _activate),
    (AddMana, _add_mana),
    (PlayLand, _play_land),
    (DeclareAttackers, _declare_attackers),
    (DeclareBlockers, _declare_blockers),
    ((EntersAttacking, EntersBlocking, BlockByEffect), _combat_event),
    (object, _change),
)


def replay(graph: RuleSource, edition: str, model: GameModel, situation: Situation) -> Replayed:
    """Replay `situation.events` from the start of the turn (IllegalEvent on a bad one)."""
    turn = Turn(graph, edition, model, situation)
    begin(turn)
    for index, event in enumerate(situation.events or ()):
        _play(turn, index, event)
    priority_note(turn)
    return Replayed(situation=turn.snapshot(), ended=turn.position.ended,
                    no_attackers=turn.no_attackers(), trail=tuple(turn.trail),
                    reasons=turn.priority.reasons, damage=turn.combat.damage,
                    occurrence=turn.position.occurrence, repeat=turn.position.moment.repeat,
                    discarded=turn.cards.discarded, burned=tuple(sorted(turn.mana.burned)),
                    noncombat=tuple(turn.noncombat))
