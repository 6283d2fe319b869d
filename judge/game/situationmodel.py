"""The described game situation as frozen dataclasses: `Situation`, creatures, questions.

Owns the vocabulary (spell kinds, asks and their parameters, accepted keys). Reading and
validating TOML/JSON into these objects is `judge.game.situation`'s job. The situation's other
objects (noncreature permanents, effects, triggers, the stack, extra phases and steps) are in
`judge.game.objects` and the replay events in `judge.game.events`, each imported only when a
situation has one (a cold start pays for every dataclass created).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from judge.game.turnplan import Phase, Step

if TYPE_CHECKING:
    from collections.abc import Iterable

    from judge.game.events import Event
    from judge.game.objects import Effect, ExtraPhase, ExtraStep, Permanent, StackItem, Trigger

SPELL_KINDS: tuple[str, ...] = (
    "instant",
    "sorcery",
    "creature",
    "artifact",
    "enchantment",
    "planeswalker",
)
STACK_KINDS: tuple[str, ...] = (*SPELL_KINDS, "ability", "trigger", "combat_damage")
SORCERY_SPEED: frozenset[str] = frozenset(SPELL_KINDS) - {"instant"}

# Bounds on one situation, so that every request's work is bounded.
MAX_COUNT = 1_000
MAX_CREATURES = 1_000
MAX_EVENTS = 10_000
# A judge asks a handful of questions about one situation; 100 keep the costliest request
# (100 × `turn_order` of 1,000 turns) to tens of milliseconds.
MAX_QUESTIONS = 100

ASKS: dict[str, tuple[str, ...]] = {
    "where": (),
    "priority": (),
    "next": (),
    "rest_of_turn": (),
    "play_land": ("player",),
    "cast": ("player", "kind"),
    "attack": ("creature",),
    "block": ("creature", "attacker"),
    "damage_steps": (),
    "deals_damage": ("creature",),
    "discard": ("player",),
    "mana_burn": ("player",),
    "turn_order": ("count",),
    Step.UNTAP: (),
    "triggers": (),
    Step.DECLARE_ATTACKERS: ("creatures",),
    Step.DECLARE_BLOCKERS: ("blocks",),
    "assign_damage": ("creature", "assignment", "others"),
    "damage_dealt": (),
    "in_combat": ("creature",),
    Step.CLEANUP: (),
    "combat_timing": ("when",),
    "defending_players": (),
    "defending_player": ("creature",),
    "state_based": (),
    "life": ("player",),
    "poison_counters": ("player",),
    "loyalty": ("permanent",),
    "redirect": ("source", "player", "planeswalker"),
    "controller": ("creature",),
    "effect_ends": ("effect",),
}
# The points of the combat phase a spell may be restricted to (`combat_timing`'s `when`).
COMBAT_POINTS: tuple[str, ...] = ("before_attackers", "after_attackers", "before_blockers",
                                  "after_blockers", "during_combat_after_blockers")
# Multiplayer variants and attack options.
VARIANTS: tuple[str, ...] = ("free_for_all", "two_headed_giant", "archenemy")
ATTACK_OPTIONS: tuple[str, ...] = ("multiple", "left", "right")
# How long an effect lasts (`effects[i].until`).
DURATIONS: tuple[str, ...] = ("end_of_turn", "end_of_combat", "this_turn", "your_next_turn")


@dataclass(frozen=True, slots=True, kw_only=True)
class Creature:
    """A creature on the battlefield as the judge describes it."""

    name: str
    controller: str
    tapped: bool = False
    since_turn_start: bool = True
    abilities: tuple[str, ...] = ()
    # The parameters of the abilities that take one: ("protection", "black"), ("landwalk",
    # "island"), ("bushido", "2")… (one pair per instance or quality).
    ability_params: tuple[tuple[str, str], ...] = ()
    types: tuple[str, ...] = ()  # creature types (Mur, Ours…)
    colors: tuple[str, ...] = ()  # white, blue, black, red, green
    card_types: tuple[str, ...] = ("creature",)  # artifact, creature, land…
    power: int | None = None
    toughness: int | None = None
    attacking: bool = False
    blocking: tuple[str, ...] = ()  # the attackers it blocks (one, or several with an ability)
    blocked: bool = False
    is_creature: bool = True
    # None: not said; inferred from first strike in the regular damage step.
    dealt_first_strike_damage: bool | None = None
    damage: int = 0  # damage marked on it
    attack_cost: int = 0  # mana to pay to attack with it
    block_cost: int = 0  # mana to pay to block with it
    # 2010: an attacker's blockers (509.2), or a blocker's attackers (509.3), in damage
    # assignment order.
    damage_order: tuple[str, ...] = ()
    phasing: bool = False
    phased_out: bool = False
    phased_in: bool = False  # it phased in this turn (2004 502.15m)
    doesnt_untap: bool = False
    # Restrictions and requirements on attacking and blocking.
    cant_attack_alone: bool = False
    must_attack: bool = False
    cant_block_alone: bool = False
    must_block: bool = False
    # The player or planeswalker it attacks (None: the defending player), 2010 508.1b, 508.4.
    attacks: str | None = None
    # The attacking band it is in (creatures with the same label), 2004 502.10, 2010 702.19.
    band: str | None = None
    # « can't be blocked except by N or more creatures » (a restriction on blocks), 0: none.
    min_blockers: int = 0
    # Set by a replay only: it left play, regenerated, changed controller; it was put onto the
    # battlefield attacking or blocking (never « declared »: 508.4, 509.7), or would have been
    # but is not in combat (`entered` names the concept deciding why).
    in_play: bool = True
    regenerated: bool = False
    changed_control: bool = False
    entered_attacking: bool = False
    entered_blocking: bool = False
    entered: str | None = None
    # Set by a replay only: the keyword abilities whose triggered effects changed it this turn
    # (bushido, rampage, flanking, exalted: +N/+N or -1/-1 until end of turn).
    changed_by: tuple[str, ...] = ()
    # Set by the state-based actions: the concept of the one that put it into the graveyard.
    destroyed: str | None = None
    # The legend and world rules (2004 420.5e, 420.5i; 2010 704.5k, 704.5m): its supertypes
    # (`legendary`, `world`), its card's name when it isn't `name` (names are unique in a
    # situation, card names needn't be), and when it came into play as such (lower: earlier;
    # equal: at the same time; None: not said).
    supertypes: tuple[str, ...] = ()
    card_name: str | None = None
    timestamp: int | None = None
    # Regeneration shields on it (2004 419.6b, 2010 701.11a): each replaces one destruction.
    regeneration_shields: int = 0
    # « All creatures able to block it do so » (a lure: a requirement on each of them, 2004
    # 500.2, 2010 509.1c); « can block any number of creatures »; « can block N additional
    # creatures ».
    must_be_blocked_by_all: bool = False
    blocks_any_number: bool = False
    blocks_extra: int = 0
    # Its owner when another player controls it, and how long that control lasts (a control
    # change « until end of turn » ends in the cleanup step: 2004 314.2, 2010 514.2).
    owner: str | None = None
    control_until: str | None = None
    # Two-Headed Giant: the defending player its combat damage is assigned to (2010 810.7f).
    damage_to: str | None = None
    # It was dealt damage by a source with deathtouch since state-based actions were last
    # checked (2010 704.5h).
    deathtouch_damage: bool = False

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    def params(self, ability: str) -> tuple[str, ...]:
        """The parameters of an ability it has (qualities, land types, numbers)."""
        return tuple(v for a, v in self.ability_params if a == ability)

    @property
    def is_wall(self) -> bool:
        return any(t.casefold() in ("mur", "wall") for t in self.types)

    @property
    def strikes_first(self) -> bool:
        return self.has("first_strike") or self.has("double_strike")

    @property
    def in_combat(self) -> bool:
        return (self.in_play and self.is_creature and not self.phased_out
                and (self.attacking or bool(self.blocking)))

    def blocks(self, attacker: str) -> bool:
        return attacker in self.blocking


# What a triggered ability of a creature waits for (`triggers[i].on`, with `creature`).
TRIGGER_EVENTS: tuple[str, ...] = ("attacks", "blocks", "blocks_creature", "becomes_blocked",
                                   "blocked_by_creature", "blocked_by_count", "blocks_count",
                                   "attacks_unblocked")


@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """One `ask` with its parameters (those the ask does not take stay None)."""

    ask: str
    player: str | None = None
    kind: str | None = None
    creature: str | None = None
    attacker: str | None = None
    count: int | None = None
    creatures: tuple[str, ...] | None = None
    blocks: tuple[tuple[str, str], ...] | None = None  # (blocker, attacker)
    assignment: tuple[tuple[str, int], ...] | None = None  # (recipient, amount)
    # `assign_damage`: what other creatures assign in the same combat damage step (their
    # damage counts towards lethal damage: 2010 510.1c, 702.17b; 2004 502.9b).
    others: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    when: str | None = None  # one of COMBAT_POINTS
    permanent: str | None = None  # `loyalty`: a planeswalker
    source: str | None = None  # `redirect`: the source of the noncombat damage
    planeswalker: str | None = None  # `redirect`: where the damage would go instead
    effect: str | None = None  # `effect_ends`: an effect's name
    flash: bool = False  # `cast`: a creature spell with flash

    def params(self) -> tuple[tuple[str, object], ...]:
        """The parameters as JSON values (lists and tables)."""
        out: list[tuple[str, object]] = [("flash", True)] if self.flash else []
        for name in ASKS[self.ask]:
            value = getattr(self, name)
            if name == "creatures" and value is not None:
                value = list(value)
            elif name == "blocks" and value is not None:
                grouped: dict[str, list[str]] = {}
                for blocker, attacker in value:
                    grouped.setdefault(blocker, []).append(attacker)
                value = {b: a[0] if len(a) == 1 else a for b, a in grouped.items()}
            elif name == "assignment" and value is not None:
                value = dict(value)
            elif name == "others":
                if not value:
                    continue
                value = {creature: dict(given) for creature, given in value}
            out.append((name, value))
        return tuple(out)


@dataclass(frozen=True, slots=True, kw_only=True)
class Situation:
    """A described game situation; `edition` None means the newest edition."""

    edition: str | None = None
    players: tuple[str, ...] = ("A", "B")
    active: str = "A"
    phase: str = Phase.BEGINNING
    step: str | None = Step.UNTAP
    damage_step: str | None = None
    priority: str | None = None
    stack: tuple[StackItem, ...] = ()
    lands_played: int = 0
    land_plays: int = 1
    hands: tuple[tuple[str, int], ...] = ()
    first_turn: bool = False  # the starting player's first turn of the game
    max_hand_size: int | None = 7
    mana_pools: tuple[tuple[str, int], ...] = ()
    life: tuple[tuple[str, int], ...] = ()  # life totals, when known
    creatures: tuple[Creature, ...] = ()
    permanents: tuple[Permanent, ...] = ()
    effects: tuple[Effect, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    pending_triggers: tuple[Trigger, ...] = ()
    mana_available: tuple[tuple[str, int], ...] = ()
    extra_phases: tuple[ExtraPhase, ...] = ()
    extra_steps: tuple[ExtraStep, ...] = ()
    extra_turns: tuple[str, ...] = ()
    skip: tuple[str, ...] = ()
    # Multiplayer: the variant (one of VARIANTS; None: two players, or free-for-all), its attack
    # option (one of ATTACK_OPTIONS), the teams, the defending player the attacking player
    # chose (507.1), the archenemy.
    variant: str | None = None
    attack_option: str | None = None
    teams: tuple[tuple[str, ...], ...] = ()
    defending: str | None = None
    archenemy: str | None = None
    # « no more than N creatures can attack each turn » (a restriction on attacks), None: none.
    max_attackers: int | None = None
    # Poison counters, cards in each library, players who had to draw from an empty library
    # since state-based actions were last checked, players who left a multiplayer game.
    poison: tuple[tuple[str, int], ...] = ()
    library: tuple[tuple[str, int], ...] = ()
    drew_from_empty: tuple[str, ...] = ()
    left_game: tuple[str, ...] = ()
    events: tuple[Event, ...] | None = None
    questions: tuple[Question, ...] = ()
    source: str = field(default="-", compare=False)

    def creature(self, name: str) -> Creature | None:
        return find_creature(self.creatures, name)

    def hand(self, player: str) -> int | None:
        return dict(self.hands).get(player)

    def mana(self, player: str) -> int:
        return dict(self.mana_pools).get(player, 0)

    def available(self, player: str, pool: int | None = None) -> int:
        """Mana the player can pay now: the pool (`pool`: as it is now, when it changed since
        this situation — a replay's) plus what he or she can still produce."""
        return (self.mana(player) if pool is None else pool) + dict(self.mana_available).get(
            player, 0)


TOP_KEYS: tuple[str, ...] = (
    "edition", "players", "active", "phase", "step", "damage_step", "priority", "stack",
    "lands_played", "land_plays", "hands", "first_turn", "max_hand_size", "mana_pools", "creatures",
    "extra_turns", "skip", "events", "questions", "permanents", "effects", "triggers",
    "pending_triggers", "mana_available", "extra_phases", "extra_steps", "variant",
    "attack_option", "teams", "defending", "archenemy", "life", "max_attackers",
    "poison", "library", "drew_from_empty", "left_game",
)
CREATURE_KEYS: tuple[str, ...] = (
    "name", "controller", "tapped", "since_turn_start", "abilities", "types", "colors",
    "card_types", "power",
    "toughness", "attacking", "blocking", "blocked", "is_creature", "dealt_first_strike_damage",
    "damage", "attack_cost", "block_cost", "damage_order", "phasing", "phased_out", "phased_in", "doesnt_untap",
    "cant_attack_alone", "must_attack", "cant_block_alone", "must_block", "attacks", "band",
    "min_blockers", "supertypes", "card_name", "timestamp", "regeneration_shields",
    "deathtouch_damage", "damage_to", "must_be_blocked_by_all", "blocks_any_number",
    "blocks_extra", "owner", "control_until",
)
PERMANENT_KEYS: tuple[str, ...] = ("name", "controller", "card_types", "tapped", "phasing",
                                   "phased_out", "doesnt_untap", "supertypes", "card_name",
                                   "timestamp", "subtypes", "loyalty")


def find_creature(creatures: Iterable[Creature], name: str | None) -> Creature | None:
    """The creature called `name` among `creatures`, or None."""
    for creature in creatures:
        if creature.name == name:
            return creature
    return None


def priority_receiver(players: tuple[str, ...], active: str, gone: tuple[str, ...]) -> str:
    """Who receives priority where the active player would: the active player, or, once he
    has left a multiplayer game, the next player in turn order still in it (2010 800.4g: his
    turn goes on without an active player)."""
    if active not in gone or active not in players:
        return active
    seat = players.index(active)
    return next((p for k in range(1, len(players))
                 if (p := players[(seat + k) % len(players)]) not in gone), active)


def attacking_players(s: Situation) -> tuple[str, ...]:
    """The attacking players: the active player, and with shared team turns each player of the
    active team (2010 805.4a, 810.7a: « each player on the active team is an attacking player »)."""
    return next((team for team in s.teams if s.active in team), (s.active,))
