"""Event replay: from the start of the active player's turn to the described moment.

Owns the events — passing, casting, activating, adding mana, playing a land, declaring
attackers and blockers, combat events, effects on permanents —, each checked (priority,
legality asked of `judge.legality` in a `Context` of the state, or its `Board` for the
declarations, never of a question: `judge.checks` is above) and performed, with its
`IllegalEvent` errors; and `replay()`, which returns `Replayed`: the state reached and its
`trail`. The state, the flow, the turn-based actions and priority are the rooms it extends
(`state` < `turnactions` < `flow` < `priority`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from judge.errors import IllegalEvent
from judge.game.events import (
    Activate,
    AddMana,
    BlockByEffect,
    Cast,
    DeclareAttackers,
    DeclareBlockers,
    EntersAttacking,
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
from judge.legality.casting import KIND_LABELS, may_cast, may_play_land
from judge.legality.damage import DamageRecord
from judge.legality.words import plural
from judge.procedure import entering
from judge.procedure.blocks import Fired, keyword_triggers
from judge.procedure.effects import Change, change_note
from judge.procedure.entering import CombatEvent
from judge.procedure.priority import Priority
from judge.procedure.state import priority_concept_of
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
    arrival: tuple[str, ...]  # concepts: why the game is at this step, with this holder
    damage: DamageRecord | None = None
    discarded: int | None = None  # cards the cleanup's discard removed
    nth: int = 0  # which occurrence of its place the final step is (extra phases and steps)
    repeat: int = 0  # which cleanup step
    burned: tuple[str, ...] = ()  # players who lost life to mana burn


class _Replay(Priority):
    """A turn replayed: the events, each checked (legality, priority) and performed."""

    def play(self, index: int, event: Event) -> None:
        if self.ended:
            raise IllegalEvent(index, "le tour est terminé : plus aucun événement n'est possible",
                               self._rule("turn.ends"))
        if len(self.players) - len(self.lost) <= 1:
            raise IllegalEvent(index, f"la partie est terminée : {', '.join(sorted(self.lost))} "
                               "l'a perdue", self._rule("sba.zero_life"))
        if self.pending_attackers and not isinstance(event, DeclareAttackers):
            self.pending_attackers = False
            self.no_attackers = not any(c.attacking for c in self.creatures.values())
        if self.pending_blockers and not isinstance(event, DeclareBlockers):
            self.pending_blockers = False
        if self.priority_pending is not None and not isinstance(event, (DeclareAttackers,
                                                                        DeclareBlockers)):
            self.priority_note()
        if isinstance(event, Pass):
            self._pass(index)
        elif isinstance(event, Cast):
            self._cast(index, event)
        elif isinstance(event, (PlayerChange, Shield)):
            self._player_change(index, event)
        elif isinstance(event, Activate):
            self._need_priority(index, event.by)
            self._act(event.by, StackItem(kind="ability", controller=event.by))
            self.note(f"{event.by} active une capacité ; elle va sur la pile et {event.by} "
                      "reçoit de nouveau la priorité.", priority_concept_of(self.moment),
                      "holder.acts", event=index)
        elif isinstance(event, AddMana):
            self._need_priority(index, event.by)
            self.pools[event.by] = self.pools.get(event.by, 0) + event.amount
            self.arrival = (*self.base, "holder.acts", "holder.mana")
            self.note(f"{event.by} ajoute {plural(event.amount, 'mana')} à sa réserve "
                      f"({plural(self.pools[event.by], 'mana')} en tout) et garde la priorité.",
                      priority_concept_of(self.moment), "holder.acts", "holder.mana", event=index)
        elif isinstance(event, PlayLand):
            self._play_land(index, event)
        elif isinstance(event, DeclareAttackers):
            self._declare_attackers(index, event)
        elif isinstance(event, DeclareBlockers):
            self._declare_blockers(index, event)
        elif isinstance(event, (EntersAttacking, EntersBlocking, BlockByEffect)):
            self._combat_event(index, event)
        else:
            self._change(index, event)
        if self.holder is not None:
            self._state_based()

    def _combat_event(self, index: int, event: CombatEvent) -> None:
        """A permanent put onto the battlefield attacking or blocking, or a block by an effect."""
        holder = self._holding(index)
        problem = entering.timing_problem(event, self.moment.step)
        if problem is not None:
            raise IllegalEvent(index, problem, self._rule("combat.end"))
        self.dirty = True
        done = entering.apply(event, self.creatures, self.board(), triggers=self.start.triggers)
        concepts = done.concepts
        if done.attacking and self.no_attackers:
            self.no_attackers = False  # 508.6: put onto the battlefield attacking
            concepts = (*concepts, "combat.no_attackers")
        self._act(holder, None)
        self._stack_fired(list(done.fired))
        self.note(done.what, *concepts, event=index)

    def _stack_fired(self, fired: list[Fired]) -> None:
        """Triggered abilities go on the stack, the active player's first."""
        for f in sorted(fired, key=lambda f: self._seat(f.trigger.controller)):
            for _ in range(f.times):
                self.stack.append(StackItem(kind="trigger", controller=f.trigger.controller,
                                            effect=f.effect))

    def _player_change(self, index: int, event: PlayerChange | Shield) -> None:
        """A player draws, gets poison counters or leaves the game; a creature gets a
        regeneration shield — while a player holds priority (that player keeps it)."""
        holder = self._holding(index)
        self.dirty = True
        concepts: tuple[str, ...] = ()
        if isinstance(event, Shield) and event.destroy:
            what, concepts = self._destroy(event.name)
        elif isinstance(event, Shield):
            creature = self.creatures[event.name]
            self.creatures[event.name] = replace(
                creature, regeneration_shields=creature.regeneration_shields + 1)
            what = (f"{event.name} reçoit un bouclier de régénération : la prochaine fois qu'elle "
                    "serait détruite ce tour-ci, elle sera régénérée à la place.")
            concepts = ("sba.regenerated",)
        elif event.kind == "draw":
            what, concepts = self._draw_cards(event.player, event.count)
        elif event.kind == "poison":
            self.poison[event.player] = self.poison.get(event.player, 0) + event.count
            what = (f"{event.player} reçoit {plural(event.count, 'marqueur')} poison "
                    f"({self.poison[event.player]} en tout).")
            concepts = ("sba.poison",)
        else:
            what, concepts = self._leave_game(index, event.player)
        self._act(holder if holder in self.players else self.active, None)
        self.note(what, *concepts, event=index)

    def _destroy(self, name: str) -> tuple[str, tuple[str, ...]]:
        """An effect destroys a creature: a regeneration shield replaces it (2004 419.6b, 2010
        701.11a); else it leaves play (and combat)."""
        creature = self.creatures[name]
        if creature.regeneration_shields > 0:
            self.creatures[name] = replace(
                creature, damage=0, tapped=True, attacking=False, blocking=(), regenerated=True,
                regeneration_shields=creature.regeneration_shields - 1)
            return (f"Un effet détruirait {name} : son bouclier de régénération la régénère à la "
                    "place (blessures retirées, engagée, retirée du combat).",
                    ("sba.regenerated", "combat.removed"))
        self.creatures[name] = replace(creature, in_play=False, attacking=False, blocking=())
        return f"Un effet détruit {name} : elle quitte le champ de bataille.", ("combat.removed",)

    def _draw_cards(self, player: str, count: int) -> tuple[str, tuple[str, ...]]:
        library = self.library.get(player)
        drawn = count if library is None else min(count, library)
        if library is not None:
            self.library[player] = library - drawn
        hand = self.hands.get(player)
        if hand is not None:
            self.hands[player] = hand + drawn
        what = f"{player} pioche {plural(drawn, 'carte')}"
        if library is not None and count > library:
            self.drew_empty.append(player)
            return (what + f" : sa bibliothèque n'en avait que {library}, il a dû piocher "
                    "dans une bibliothèque vide.", ("sba.empty_library",))
        return what + ".", ()

    def _leave_game(self, index: int, player: str) -> tuple[str, tuple[str, ...]]:
        if not self.model.rules("multiplayer.left") or len(self.players) <= 2:
            raise IllegalEvent(index, "seule une partie multijoueur continue après le départ "
                               "d'un joueur", self._rule("multiplayer.left"))
        self.left.append(player)
        self.players = tuple(p for p in self.players if p != player)
        gone = [n for n, c in self.creatures.items() if c.controller == player and c.in_play]
        for name in gone:
            self.creatures[name] = replace(self.creatures[name], in_play=False, attacking=False,
                                           blocking=())
        for name in [n for n, p in self.permanents.items() if p.controller == player]:
            del self.permanents[name]
        return (f"{player} quitte la partie : ses permanents la quittent aussi"
                + (f" ({', '.join(gone)})" if gone else "") + " ; la partie continue.",
                ("multiplayer.left",))

    def _change(self, index: int, event: Change) -> None:
        """Something happens to a permanent while a player holds priority (an effect)."""
        holder = self._holding(index)
        what, concepts = change_note(event, self.creatures, self.permanents)
        self.dirty = True
        self._act(holder, None)
        self.note(what, *concepts, event=index)

    def _from_hand(self, player: str) -> None:
        """The card leaves a known hand (`may_cast` / `may_play_land` refused an empty one)."""
        hand = self.hands.get(player)
        if hand is not None:
            self.hands[player] = hand - 1

    def _cast(self, index: int, event: Cast) -> None:
        verdict = may_cast(self.context(), event.by, event.kind, flash=event.flash)
        if verdict.value is not True:
            raise IllegalEvent(index, verdict.why, ", ".join(verdict.rules) or None)
        pool = self.pools.get(event.by, 0)
        if event.cost > pool:
            raise IllegalEvent(index, f"{event.by} n'a que {plural(pool, 'mana')} en réserve pour "
                               f"un coût de {plural(event.cost, 'mana')} ; le paiement partiel "
                               "n'est pas permis", self._rule("mana.spent"))
        verb = str(self.model.fact("cast_verb").value)
        self._from_hand(event.by)
        self._act(event.by, StackItem(kind=event.kind, controller=event.by))
        flash = event.flash and bool(self.model.ability_rules("flash"))
        timing = ("cast.flash" if flash else "main.sorcery_speed" if event.kind in SORCERY_SPEED
                  else priority_concept_of(self.moment))
        paid: tuple[str, ...] = ()
        said = ""
        if event.cost:
            self.pools[event.by] = pool - event.cost
            paid = ("mana.spent",)
            said = (f" ; il paie {plural(event.cost, 'mana')} de sa réserve (reste "
                    f"{plural(self.pools[event.by], 'mana')})")
        label = KIND_LABELS[event.kind] + (" avec le flash" if flash else "")
        self.note(f"{event.by} {verb[:-1]} {label} depuis sa main{said} ; le sort va "
                  f"sur la pile et {event.by} reçoit de nouveau la priorité.", "hand.cast",
                  timing, *paid, "holder.acts", event=index)

    def _play_land(self, index: int, event: PlayLand) -> None:
        verdict = may_play_land(self.context(), event.player)
        if verdict.value is not True:
            raise IllegalEvent(index, verdict.why, ", ".join(verdict.rules) or None)
        self._from_hand(event.player)
        self.lands_played += 1
        self._act(event.player, None)
        self.note(f"{event.player} joue un terrain depuis sa main (sans utiliser la pile) ; "
                  f"{plural(self.lands_played, 'terrain')} "
                  f"{'joué' if self.lands_played == 1 else 'joués'} ce tour-ci ; il garde la "
                  "priorité.", "land.play", "holder.acts", "holder.special", event=index)
        self.arrival = (*self.base, "holder.acts", "holder.special")

    def _declare_attackers(self, index: int, event: DeclareAttackers) -> None:
        if self.moment.step != "declare_attackers" or not self.pending_attackers:
            raise IllegalEvent(index, "les attaquants se déclarent au début de l'étape de "
                               "déclaration des attaquants", self._rule("attack.declare"))
        done = entering.declare_attackers(self.board(), self.creatures, event.attackers,
                                          pool=self.pools.get(self.active, 0))
        if isinstance(done, entering.Refused):
            raise IllegalEvent(index, done.reason, self._rule(done.concept))
        self.pending_attackers = False
        self.no_attackers = not event.attackers
        self.note(done.what, *done.concepts, event=index)
        if event.attackers:
            self._declared(attackers=True)
        self.priority_note()

    def _declare_blockers(self, index: int, event: DeclareBlockers) -> None:
        if self.moment.step != "declare_blockers" or not self.pending_blockers:
            raise IllegalEvent(index, "les bloqueurs se déclarent au début de l'étape de "
                               "déclaration des bloqueurs", self._rule("block.declare"))
        done = entering.declare_blockers(self.board(), self.creatures, event.blocks)
        if isinstance(done, entering.Refused):
            raise IllegalEvent(index, done.reason, self._rule(done.concept))
        self.pending_blockers = False
        self.note(done.what, *done.concepts, event=index)
        self._declared(attackers=False)
        self.priority_note()

    def _declared(self, *, attackers: bool) -> None:
        """The abilities the declaration triggered go on the stack (2004 308.1, 309.1; 2010
        508.2, 509.4)."""
        creatures = tuple(self.creatures.values())
        fired = [*entering.declaration_triggers(attackers, self.start.triggers, creatures),
                 *keyword_triggers(self.model, creatures, attackers=attackers)]
        if not fired:
            return
        self._stack_fired(fired)
        step = "declare_attackers" if attackers else "declare_blockers"
        names = " ; ".join(f"{f.trigger.name} : {f.why}" for f in fired)
        self.note(f"Capacités déclenchées par la déclaration mises sur la pile, celles du joueur "
                  f"actif d'abord : {names}.", f"action.triggers.{step}",
                  *dict.fromkeys(f.concept for f in fired))


def replay(graph: RuleSource, edition: str, model: GameModel, situation: Situation) -> Replayed:
    """Replay `situation.events` from the start of the turn (IllegalEvent on a bad one)."""
    state = _Replay(graph, edition, model, situation)
    state.begin()
    for index, event in enumerate(situation.events or ()):
        state.play(index, event)
    state.priority_note()
    no_attackers = state.no_attackers
    if no_attackers is None and state.pending_attackers:
        no_attackers = False
    return Replayed(situation=state.snapshot(), ended=state.ended, no_attackers=no_attackers,
                    trail=tuple(state.trail), arrival=state.arrival, damage=state.damage,
                    nth=state.nth, repeat=state.moment.repeat, discarded=state.discarded,
                    burned=tuple(sorted(state.burned)))


