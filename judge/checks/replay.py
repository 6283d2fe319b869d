"""Event replay: from the start of the active player's turn to the described moment.

Owns the priority loop (passes in succession, resolution, step ends), the turn-based actions
the edition's game model lists at the start of each step (untap, draw, declarations, combat
damage on the stack or not, cleanup discard), the state they change (hands, lands played,
tapped, attacking and blocking creatures, mana pools), the `trail` of what happened with the
rules deciding it, and the `IllegalEvent` errors. Legality of spells, lands and declarations
is asked of `judge.checks.catalog`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from judge.checks import entering
from judge.checks.blocks import Fired
from judge.checks.changes import Change, change_note, phase, untap
from judge.checks.cleanup import empty_pools
from judge.checks.context import Context, build_context, where_label
from judge.checks.damage import (
    DamageRecord,
    Hit,
    assignment_concepts,
    damage_dealers,
    deal,
    default_hits,
    split_resolved,
)
from judge.checks.defenders import defending_player
from judge.checks.entering import CombatEvent
from judge.checks.statebased import perform
from judge.checks.trail import TrailEntry
from judge.checks.turnflow import KIND_LABELS, check_cast, check_play_land
from judge.checks.words import plural
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
    PlayLand,
)
from judge.game.gamemodel import GameModel
from judge.game.objects import Permanent, StackItem
from judge.game.situationmodel import SORCERY_SPEED, Creature, Question, Situation
from judge.game.states import first_turn_skip
from judge.game.turnplan import (
    Moment,
    PlannedStep,
    locate,
    next_step,
    occurrence,
    plan_turn,
    starts_phase,
)

if TYPE_CHECKING:
    from judge.checks.context import RuleSource


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


class _Replay:
    def __init__(self, graph: RuleSource, edition: str, model: GameModel,
                 situation: Situation) -> None:
        self.graph = graph
        self.edition = edition
        self.model = model
        self.start = situation
        self.players = situation.players
        self.active = situation.active
        self.skip = frozenset(situation.skip)
        self.no_attackers: bool | None = None
        self.two = False
        self.moment = Moment(phase="beginning", step="untap")
        self.holder: str | None = None
        self.passes = 0
        self.stack: list[StackItem] = []
        self.lands_played = 0
        self.creatures: dict[str, Creature] = {c.name: c for c in situation.creatures}
        self.hands = dict(situation.hands)
        self.pools = dict(situation.mana_pools)
        self.pending_attackers = False
        self.pending_blockers = False
        self.ended = False
        self.trail: list[TrailEntry] = []
        self.arrival: tuple[str, ...] = ()
        self.dealt = False
        self.permanents: dict[str, Permanent] = {p.name: p for p in situation.permanents}
        self.effects = list(situation.effects)
        self.pending = list(situation.pending_triggers)
        self.assigned: tuple[Hit, ...] = ()  # combat damage on the stack, as assigned
        self.powers: dict[str, int | None] = {}  # the sources' power when it was assigned
        self.damage: DamageRecord | None = None
        self.nth = 0  # which occurrence of the current place (extra phases and steps)
        self.cleanups = 0  # cleanup steps added by triggered abilities (514.3a)
        self.why: tuple[str, ...] = ()  # how the last combat damage was assigned (concepts)
        self.discarded: int | None = None
        self.life = dict(situation.life)
        self.lost: set[str] = set()
        self.dirty = True  # what the state-based actions look at may have changed
        self.base: tuple[str, ...] = ()  # why the game is at this step (`arrival` without who acted)
        self.step_why: tuple[str, ...] = ()  # why the game is at this step, as it began
        self.priority_pending: str | None = None  # priority to note once the declaration is made
        self.first_turn = first_turn_skip(model, situation)
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

    # -- the trail ----------------------------------------------------------------------

    def note(self, what: str, *concepts: str, event: int | None = None) -> None:
        self.trail.append(TrailEntry(event=event, what=what, phase=self.moment.phase,
                                     step=self.moment.step, priority=self.holder,
                                     concepts=concepts))

    # -- the turn's progress ----------------------------------------------------------

    def _plan(self) -> tuple[PlannedStep, ...]:
        return plan_turn(self.model.layout, skip=self.skip,
                         no_attackers=bool(self.no_attackers), two_damage_steps=self.two,
                         cleanup_repeats=self.cleanups, extra_phases=self.start.extra_phases,
                         extra_steps=self.start.extra_steps, first_turn_skip=self.first_turn)

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
        skipped = tuple(dict.fromkeys(e.skip_reason for e in plan[here + 1:later] if e.skip_reason))
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

    def _empty_mana(self, *, phase_ends: bool) -> None:
        """Unused mana empties when a step ends, or only when a phase ends (with mana burn)."""
        if self.model.fact("mana_empties").value == "step" or phase_ends:
            burn = bool(self.model.fact("mana_burn").value)
            if burn:
                for player, amount in self.pools.items():
                    if player in self.life and amount > 0:
                        self.life[player] -= amount
                        self.dirty = True
            for what, concept in empty_pools(self.pools, burn=burn):
                self.note(what, concept)

    def _end_combat(self) -> None:
        """When the end of combat step ends, every creature leaves combat."""
        if any(c.in_combat for c in self.creatures.values()):
            self.note("Fin de la phase de combat : toutes les créatures sont retirées du combat.",
                      "combat.end")
        for name, creature in self.creatures.items():
            self.creatures[name] = replace(creature, attacking=False, blocking=(),
                                           blocked=False)
        self.no_attackers = None  # an extra combat phase has its own declarations
        self.pending_attackers = False
        ending = [e.name for e in self.effects if e.until == "end_of_combat"]
        if ending:
            self.effects = [e for e in self.effects if e.until != "end_of_combat"]
            verb = "cessent" if len(ending) > 1 else "cesse"
            self.note(f"Fin de la phase de combat : {', '.join(ending)} {verb} (« jusqu'à la fin "
                      "du combat »).", "effects.until")

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
        here = (*why, *dealt, priority_concept_of(moment))
        self.arrival = self.base = self.step_why = here
        if moment.step == "cleanup" and self._cleanup_triggers(moment, why, performed):
            return
        if not entry.priority:
            self.note("Personne ne reçoit la priorité pendant cette étape : elle se termine "
                      "une fois ses actions accomplies.", priority_concept_of(moment),
                      "step.no_priority_ends")
            self._advance((priority_concept_of(moment), "step.no_priority_ends"))
            return
        self.holder = self.active
        if self.pending_attackers or self.pending_blockers:
            # the declaration is a turn-based action: the active player receives priority
            # after it (2004 308.1, 309.1; 2010 508.1, 509.1)
            self.priority_pending = priority_concept_of(moment)
            return
        self.note(f"{self.active} reçoit la priorité.", priority_concept_of(moment))

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
                                    if t.at == "cleanup" and moment.repeat == 0)]
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

    def _phasing(self) -> None:
        for what, concept in phase(self.active, self.creatures, self.permanents):
            self.note(what, concept)

    def _untap(self) -> None:
        for what, concept in untap(self.active, self.creatures, self.permanents):
            self.note(what, concept)

    def _triggers(self) -> None:
        key = self.moment.step or self.moment.phase
        fresh = [t for t in self.start.triggers if t.at == key and not t.entered_this_step]
        if self.moment.step == "untap":
            return
        waiting = [*self.pending, *fresh]
        self.pending = []
        if not waiting:
            return
        waiting.sort(key=lambda t: self._seat(t.controller))
        for trigger in waiting:
            self.stack.append(StackItem(kind="trigger", controller=trigger.controller))
        names = ", ".join(t.name for t in waiting)
        self.note(f"Capacités déclenchées mises sur la pile, celles du joueur actif d'abord : "
                  f"{names}.", f"action.triggers.{key}", "triggers.beginning")

    def _wear_off(self) -> None:
        healed = [n for n, c in self.creatures.items() if c.damage and c.in_play]
        for name in healed:
            self.creatures[name] = replace(self.creatures[name], damage=0)
        ending = [e.name for e in self.effects if e.until in ("end_of_turn", "this_turn")]
        self.effects = [e for e in self.effects if e.until not in ("end_of_turn", "this_turn")]
        text = "Les blessures sont retirées des permanents"
        if healed:
            text += f" ({', '.join(healed)})"
        text += " et les effets « jusqu'à la fin du tour » et « ce tour-ci » cessent"
        text += f" ({', '.join(ending)})." if ending else "."
        self.note(text, "action.damage_wears_off", *(("cleanup.effects",) if ending else ()))

    def _action(self, what: str) -> None:
        if what == "phasing":
            self._phasing()
        elif what == "untap":
            self._untap()
        elif what == "triggers":
            self._triggers()
        elif what == "draw":
            self._draw()
        elif what == "declare_attackers":
            self.pending_attackers = True
        elif what == "declare_blockers":
            self.pending_blockers = True
        elif what == "combat_damage":
            self._combat_damage(self.moment.damage_step)
        elif what == "discard":
            self._discard()
        elif what == "archenemy" and self.start.variant == "archenemy" and (
                self.start.archenemy == self.active):
            self.note(f"{self.active}, l'archenemy, met la première carte de son deck de "
                      "machinations à exécution (action du tour, sans la pile).",
                      "action.archenemy")
        elif what == "damage_wears_off":
            self._wear_off()

    def _draw(self) -> None:
        hand = self.hands.get(self.active)
        if hand is not None:
            self.hands[self.active] = hand + 1
        said = (f"{self.active} pioche une carte"
                + (f" ({plural(hand + 1, 'carte')} en main)" if hand is not None else ""))
        if self.start.first_turn:  # a multiplayer game where nobody skips it
            self.note(said + " : dans une partie multijoueur autre que le Troll à deux têtes, "
                      "le joueur qui commence ne passe pas la pioche de son premier tour.",
                      "action.draw", "fact.first_turn_draw_multiplayer")
            return
        self.note(said + ".", "action.draw")

    def _combat_damage(self, damage_step: str | None) -> None:
        dealers = damage_dealers(self.creatures, damage_step)
        if not dealers:
            return
        names = ", ".join(c.name for c in dealers)
        snapshot = self.snapshot()
        hits = default_hits(snapshot, dealers)
        self.why = assignment_concepts(snapshot, dealers, damage_step=damage_step, ordered=bool(
            self.model.fact("damage_assignment_order").value))
        if self.model.fact("combat_damage_on_stack").value:
            self.assigned = hits
            self.powers = {c.name: c.power for c in dealers}
            self.stack.append(StackItem(kind="combat_damage", controller=self.active))
            self.note(f"Les blessures de combat ({names}) sont assignées et mises sur la pile "
                      "comme un seul objet.", "action.combat_damage", "fact.combat_damage_on_stack")
        else:
            self.dealt = True
            self.damage = deal(self.creatures, hits, hits, (), self.powers, on_stack=False,
                               why=self.why)
            self._lose_life(hits)
            self.note(f"Les blessures de combat ({names}) sont assignées puis infligées "
                      "simultanément, sans utiliser la pile.", "action.combat_damage",
                      "action.deal_combat_damage")

    def _discard(self) -> None:
        size = self.start.max_hand_size
        hand = self.hands.get(self.active)
        if size is not None and hand is not None and hand > size:
            self.hands[self.active] = size
            self.discarded = hand - size
            self.note(f"{self.active} a {plural(hand, 'carte')} en main et se défausse de "
                      f"{plural(hand - size, 'carte')} (taille maximale : {size}).",
                      "action.discard")

    def _resolve_damage(self) -> None:
        """Combat damage on the stack resolves: dealt as assigned, except to recipients gone."""
        dealt, dropped = split_resolved(self.assigned, self.creatures)
        self.damage = deal(self.creatures, self.assigned, dealt, dropped, self.powers,
                           on_stack=True, why=self.why)
        self._lose_life(dealt)
        self.assigned = ()

    def _lose_life(self, hits: tuple[Hit, ...]) -> None:
        """Combat damage dealt to a player whose life total is known (and to creatures)."""
        self.dirty = True
        for hit in hits:
            if hit.target in self.life:
                self.life[hit.target] -= hit.amount

    def _state_based(self) -> bool:
        """State-based actions, as a player would receive priority; whether any was performed.
        Only damage, life, and what an event does to a permanent change what they look at:
        checked again only after one of those (`self.dirty`)."""
        if not self.dirty:
            return False
        self.dirty = False
        done = perform(self.model, self.creatures, self.life, self.lost)
        for action in done:
            name = str(self.model.fact("state_based_name").value).split(" ", 1)[1]
            self.note(f"{name[0].upper()}{name[1:]} : {action.sentence()}.", "sba.check",
                      action.concept, *(() if action.what == "zero_life" else
                                        ("sba.removed_from_combat",)))
        return bool(done)

    # -- snapshots ----------------------------------------------------------------------

    def snapshot(self) -> Situation:
        return replace(
            self.start,
            phase=self.moment.phase,
            step=self.moment.step,
            damage_step=self.moment.damage_step,
            priority=self.holder,
            stack=tuple(self.stack),
            lands_played=self.lands_played,
            creatures=tuple(self.creatures.values()),
            permanents=tuple(self.permanents.values()),
            effects=tuple(self.effects),
            pending_triggers=tuple(self.pending),
            hands=tuple(self.hands.items()),
            mana_pools=tuple(self.pools.items()),
            life=tuple(self.life.items()),
            events=None,
        )

    def context(self) -> Context:
        no_attackers = self.no_attackers
        if no_attackers is None and self.pending_attackers:
            no_attackers = False
        return build_context(self.graph, self.edition, self.model, self.snapshot(),
                             ended=self.ended, no_attackers=no_attackers, nth=self.nth,
                             repeat=self.moment.repeat)

    # -- events ---------------------------------------------------------------------------

    def _rule(self, *concepts: str) -> str | None:
        cited = self.context().cite(*self.model.rules(concepts[0])) if concepts else ()
        return cited[0] if cited else None

    def play(self, index: int, event: Event) -> None:
        if self.ended:
            raise IllegalEvent(index, "le tour est terminé : plus aucun événement n'est possible",
                               self._rule("turn.ends"))
        if len(self.players) - len(self.lost) <= 1:
            raise IllegalEvent(index, f"la partie est terminée : {', '.join(sorted(self.lost))} "
                               "l'a perdue", self._rule("sba.zero_life"))
        if not isinstance(event, DeclareAttackers) and self.pending_attackers:
            self.pending_attackers = False
            self.no_attackers = not any(c.attacking for c in self.creatures.values())
        if not isinstance(event, DeclareBlockers):
            self.pending_blockers = False
        if not isinstance(event, (DeclareAttackers, DeclareBlockers)):
            self.priority_note()
        if isinstance(event, Pass):
            self._pass(index)
        elif isinstance(event, Cast):
            self._cast(index, event)
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
        controllers = {p.name: p.controller for p in self.permanents.values()}
        controllers.update((c.name, c.controller) for c in self.creatures.values())
        done = entering.apply(event, self.creatures, active=self.active,
                              defending=defending_player(self.snapshot()),
                              controllers=controllers, triggers=self.start.triggers)
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
                self.stack.append(StackItem(kind="trigger", controller=f.trigger.controller))

    def _seat(self, player: str) -> int:
        """A player's place in turn order from the active player (APNAP order)."""
        return (self.players.index(player) - self.players.index(self.active)) % len(self.players)

    def _holding(self, index: int) -> str:
        if self.holder is None:
            raise IllegalEvent(index, "personne n'a la priorité : rien ne peut arriver à un "
                               "permanent pendant cette étape",
                               self._rule(priority_concept_of(self.moment)))
        return self.holder

    def _change(self, index: int, event: Change) -> None:
        """Something happens to a permanent while a player holds priority (an effect)."""
        holder = self._holding(index)
        what, concepts = change_note(event, self.creatures, self.permanents)
        self.dirty = True
        self._act(holder, None)
        self.note(what, *concepts, event=index)

    def _need_priority(self, index: int, player: str) -> None:
        if self.holder != player:
            raise IllegalEvent(index, f"{player} n'a pas la priorité "
                               f"({self.holder or 'personne'} l'a)",
                               self._rule(priority_concept_of(self.moment)))

    def _from_hand(self, player: str) -> None:
        """The card leaves a known hand (`check_cast` / `check_play_land` refused an empty one)."""
        hand = self.hands.get(player)
        if hand is not None:
            self.hands[player] = hand - 1

    def _cast(self, index: int, event: Cast) -> None:
        verdict = check_cast(self.context(), Question(ask="cast", player=event.by, kind=event.kind,
                                                      flash=event.flash))
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
        verdict = check_play_land(self.context(), Question(ask="play_land", player=event.player))
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
                self.note(f"{player} passe : tous les joueurs ont passé ; l'objet du dessus de "
                          f"la pile ({what}) se résout, puis {self.active} reçoit la "
                          "priorité.", "stack.resolves", event=index)
            if self._state_based():  # performed before the active player receives priority
                self.note(f"{self.active} reçoit la priorité.", "stack.resolves", "sba.check")
            return
        ends = ("turn.step_ends", *(("main.ends",) if self.moment.step is None else ()))
        self.holder = None
        self.note(f"{player} passe : tous les joueurs ont passé successivement avec la pile "
                  f"vide, {where_label(self.moment)} se termine.", *ends, event=index)
        self._advance(ends)

    def _declare_attackers(self, index: int, event: DeclareAttackers) -> None:
        if self.moment.step != "declare_attackers" or not self.pending_attackers:
            raise IllegalEvent(index, "les attaquants se déclarent au début de l'étape de "
                               "déclaration des attaquants", self._rule("attack.declare"))
        done = entering.declare_attackers(self.context(), self.creatures, event.attackers)
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
        done = entering.declare_blockers(self.context(), self.creatures, event.blocks)
        if isinstance(done, entering.Refused):
            raise IllegalEvent(index, done.reason, self._rule(done.concept))
        self.pending_blockers = False
        self.note(done.what, *done.concepts, event=index)
        self._declared(attackers=False)
        self.priority_note()

    def _declared(self, *, attackers: bool) -> None:
        """The abilities the declaration triggered go on the stack (2004 308.1, 309.1; 2010
        508.2, 509.4)."""
        fired = entering.declaration_triggers(attackers, self.start.triggers,
                                              tuple(self.creatures.values()))
        if not fired:
            return
        self._stack_fired(fired)
        step = "declare_attackers" if attackers else "declare_blockers"
        names = " ; ".join(f"{f.trigger.name} : {f.why}" for f in fired)
        self.note(f"Capacités déclenchées par la déclaration mises sur la pile, celles du joueur "
                  f"actif d'abord : {names}.", f"action.triggers.{step}",
                  *dict.fromkeys(f.concept for f in fired))


def priority_concept_of(moment: Moment) -> str:
    return f"priority.{moment.step or 'main'}"


def replay(graph: RuleSource, edition: str, model: GameModel, situation: Situation) -> Replayed:
    """Replay `situation.events` from the start of the turn (IllegalEvent on a bad one)."""
    state = _Replay(graph, edition, model, situation)
    for index, event in enumerate(situation.events or ()):
        state.play(index, event)
    state.priority_note()
    no_attackers = state.no_attackers
    if no_attackers is None and state.pending_attackers:
        no_attackers = False
    return Replayed(situation=state.snapshot(), ended=state.ended, no_attackers=no_attackers,
                    trail=tuple(state.trail), arrival=state.arrival, damage=state.damage,
                    nth=state.nth, repeat=state.moment.repeat, discarded=state.discarded)


def replay_context(graph: RuleSource, edition: str, model: GameModel,
                   situation: Situation) -> tuple[Context, tuple[TrailEntry, ...]]:
    """The context the checks answer in after replaying the events, and the replay's trail."""
    done = replay(graph, edition, model, situation)
    ctx = build_context(graph, edition, model, done.situation, ended=done.ended,
                        no_attackers=done.no_attackers, arrival=done.arrival,
                        damage=done.damage, replayed=True, nth=done.nth, repeat=done.repeat,
                        discarded=done.discarded)
    return ctx, done.trail
