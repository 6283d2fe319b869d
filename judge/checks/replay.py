"""Event replay: from the start of the active player's turn to the described moment.

Owns the priority loop (passes in succession, resolution, step ends), the turn-based
actions the events trigger (declarations, combat damage, cleanup discard) and the
`IllegalEvent` errors. Legality of spells, lands and declarations is asked of `judge.checks.catalog`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from judge.checks.combat import attack_reasons, block_reasons
from judge.checks.context import Context, RuleSource, build_context, priority_rules
from judge.checks.turn import check_cast, check_play_land
from judge.errors import IllegalEvent
from judge.game.model import (
    Activate,
    Cast,
    Creature,
    DeclareAttackers,
    DeclareBlockers,
    Event,
    Pass,
    PlayLand,
    Question,
    Situation,
    StackItem,
)
from judge.game.turn import Moment, PlannedStep, locate, next_step, plan_turn


@dataclass(frozen=True, slots=True, kw_only=True)
class Replayed:
    """Where the events lead: the computed situation and what the replay learnt."""

    situation: Situation
    ended: bool
    no_attackers: bool | None


class _Replay:
    def __init__(self, graph: RuleSource, edition: str, situation: Situation) -> None:
        self.graph = graph
        self.edition = edition
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
        self.pending_attackers = False
        self.pending_blockers = False
        self.ended = False
        self._enter(self.moment)

    # -- the turn's progress ----------------------------------------------------------

    def _plan(self) -> tuple[PlannedStep, ...]:
        return plan_turn(skip=self.skip, no_attackers=bool(self.no_attackers),
                         two_damage_steps=self.two)

    def _advance(self) -> None:
        if self.moment.step != "combat_damage":
            self.two = any(c.in_combat and c.strikes_first for c in self.creatures.values())
        plan = self._plan()
        later = next_step(plan, locate(plan, self.moment))
        if self.moment.phase == "combat" and (
            later is None or plan[later].moment.phase != "combat"
        ):
            self._end_combat()
        if later is None:
            self.ended = True
            self.holder = None
            return
        self._enter(plan[later].moment)

    def _end_combat(self) -> None:
        """311.2: when the end of combat step ends, every creature leaves combat."""
        for name, creature in self.creatures.items():
            self.creatures[name] = replace(creature, attacking=False, blocking=None,
                                           blocked=False)

    def _enter(self, moment: Moment) -> None:
        self.moment = moment
        self.passes = 0
        self.holder = self.active
        step = moment.step
        if step == "untap":
            self.holder = None  # 302.3: nobody receives priority; no event can happen
            self._advance()
        elif step == "declare_attackers":
            self.pending_attackers = True
        elif step == "declare_blockers":
            self.pending_blockers = True
        elif step == "combat_damage":
            self._combat_damage(moment.damage_step)
        elif step == "cleanup":
            self._cleanup()

    def _combat_damage(self, damage_step: str | None) -> None:
        dealers = []
        for creature in self.creatures.values():
            if not creature.in_combat:
                continue
            if damage_step == "first_strike" and not creature.strikes_first:
                continue
            if damage_step == "regular" and not creature.has("double_strike") and (
                creature.dealt_first_strike_damage
            ):
                continue
            dealers.append(creature)
        if damage_step == "first_strike":
            for creature in dealers:
                self.creatures[creature.name] = replace(creature, dealt_first_strike_damage=True)
        if damage_step == "regular":
            for name, creature in self.creatures.items():
                if creature.dealt_first_strike_damage is None:
                    self.creatures[name] = replace(creature, dealt_first_strike_damage=False)
        if dealers and self.edition == "2004":
            # 310.1: all assignments go on the stack as one object.
            self.stack.append(StackItem(kind="combat_damage", controller=self.active))

    def _cleanup(self) -> None:
        size = self.start.max_hand_size
        hand = self.hands.get(self.active)
        if size is not None and hand is not None and hand > size:
            self.hands[self.active] = size  # 314.1
        # 314.3: no trigger can happen in a replay, so nobody receives priority.
        self.holder = None
        self._advance()

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
            hands=tuple(self.hands.items()),
            events=None,
        )

    def context(self) -> Context:
        no_attackers = self.no_attackers
        if no_attackers is None and self.pending_attackers:
            no_attackers = False
        return build_context(self.graph, self.edition, self.snapshot(), ended=self.ended,
                             no_attackers=no_attackers)

    # -- events ---------------------------------------------------------------------------

    def _rule(self, number: str) -> str | None:
        return number if self.edition == "2004" else None

    def play(self, index: int, event: Event) -> None:
        if self.ended:
            raise IllegalEvent(index, "le tour est terminé : plus aucun événement n'est possible",
                               self._rule("314.3"))
        if not isinstance(event, DeclareAttackers) and self.pending_attackers:
            self.pending_attackers = False
            self.no_attackers = not any(c.attacking for c in self.creatures.values())
        if not isinstance(event, DeclareBlockers):
            self.pending_blockers = False
        if isinstance(event, Pass):
            self._pass()
        elif isinstance(event, Cast):
            verdict = check_cast(self.context(), Question(ask="cast", player=event.by,
                                                          kind=event.kind))
            if verdict.value is not True:
                raise IllegalEvent(index, verdict.why, verdict.rules[0] if verdict.rules else None)
            self._act(event.by, StackItem(kind=event.kind, controller=event.by))
        elif isinstance(event, Activate):
            if self.holder != event.by:
                rules = self.context().cite(*priority_rules(self.context()).get(self.edition, ()))
                raise IllegalEvent(index, f"{event.by} n'a pas la priorité "
                                   f"({self.holder or 'personne'} l'a)",
                                   rules[0] if rules else None)
            self._act(event.by, StackItem(kind="ability", controller=event.by))
        elif isinstance(event, PlayLand):
            verdict = check_play_land(self.context(), Question(ask="play_land",
                                                               player=event.player))
            if verdict.value is not True:
                raise IllegalEvent(index, verdict.why, verdict.rules[0] if verdict.rules else None)
            self.lands_played += 1
            self._act(event.player, None)
        elif isinstance(event, DeclareAttackers):
            self._declare_attackers(index, event)
        else:
            self._declare_blockers(index, event)

    def _act(self, player: str, item: StackItem | None) -> None:
        if item is not None:
            self.stack.append(item)
        self.holder = player  # a player who acts receives priority again
        self.passes = 0

    def _pass(self) -> None:
        assert self.holder is not None
        self.passes += 1
        seat = self.players.index(self.holder)
        self.holder = self.players[(seat + 1) % len(self.players)]
        if self.passes < len(self.players):
            return
        if self.stack:
            self.stack.pop()  # the top object resolves (310.4 for combat damage)
            self.holder = self.active
            self.passes = 0
        else:
            self._advance()  # 300.2: all passed in succession with an empty stack

    def _declare_attackers(self, index: int, event: DeclareAttackers) -> None:
        if self.moment.step != "declare_attackers" or not self.pending_attackers:
            raise IllegalEvent(index, "les attaquants se déclarent au début de l'étape de "
                               "déclaration des attaquants", self._rule("308.1"))
        ctx = self.context()
        for name in event.attackers:
            if event.attackers.count(name) > 1:
                raise IllegalEvent(index, f"{name} est déclarée deux fois", self._rule("308.2a"))
            reasons, rules = attack_reasons(ctx, self.creatures[name])
            if reasons:
                raise IllegalEvent(index, f"{name} ne peut pas attaquer : " + " ; ".join(reasons),
                                   self._rule(rules[0]))
        for name in event.attackers:
            creature = self.creatures[name]
            self.creatures[name] = replace(creature, attacking=True,
                                           tapped=not creature.has("vigilance"))
        self.pending_attackers = False
        self.no_attackers = not event.attackers

    def _declare_blockers(self, index: int, event: DeclareBlockers) -> None:
        if self.moment.step != "declare_blockers" or not self.pending_blockers:
            raise IllegalEvent(index, "les bloqueurs se déclarent au début de l'étape de "
                               "déclaration des bloqueurs", self._rule("309.1"))
        ctx = self.context()
        for blocker, attacker in event.blocks:
            reasons, rules = block_reasons(ctx, self.creatures[blocker], self.creatures[attacker])
            if reasons:
                raise IllegalEvent(index, f"{blocker} ne peut pas bloquer {attacker} : "
                                   + " ; ".join(reasons), self._rule(rules[0]))
        for blocker, attacker in event.blocks:
            self.creatures[blocker] = replace(self.creatures[blocker], blocking=attacker)
            self.creatures[attacker] = replace(self.creatures[attacker], blocked=True)
        self.pending_blockers = False


def replay(graph: RuleSource, edition: str, situation: Situation) -> Replayed:
    """Replay `situation.events` from the start of the turn (IllegalEvent on a bad one)."""
    state = _Replay(graph, edition, situation)
    for index, event in enumerate(situation.events or ()):
        state.play(index, event)
    no_attackers = state.no_attackers
    if no_attackers is None and state.pending_attackers:
        no_attackers = False
    return Replayed(situation=state.snapshot(), ended=state.ended, no_attackers=no_attackers)


def replay_context(graph: RuleSource, edition: str, situation: Situation) -> Context:
    """The context the checks answer in, after replaying the events."""
    done = replay(graph, edition, situation)
    return build_context(graph, edition, done.situation, ended=done.ended,
                         no_attackers=done.no_attackers)
