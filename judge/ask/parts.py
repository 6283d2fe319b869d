"""What each part of a read question says: the parse tree turned into plain facts.

Owns the meaning of the grammar's named rules (`grammar.lark`): a `Part` per thing the judge
said (an edition, a moment, whose turn, a creature, what is said of it, a question…), in the
question's order. Linking the parts and turning them into a situation is `judge.ask.build`'s
job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lark import Token, Transformer, Tree

# Players as the judge names them: the speaker, the opponent, or a role of the turn.
ME, OPPONENT, HE, SOMEONE, ACTIVE, NONACTIVE = "me", "opponent", "he", "someone", "active", "nonactive"
PLAYER_WORDS = (ME, OPPONENT, HE, SOMEONE, ACTIVE, NONACTIVE)


@dataclass(frozen=True, slots=True, kw_only=True)
class CreatureWords:
    """A creature as described: its name, owner word, power/toughness, abilities, state."""

    name: str | None = None
    owner: str | None = None
    power: int | None = None
    toughness: int | None = None
    abilities: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    card_types: tuple[str, ...] = ()
    role: str | None = None  # "attacker" / "blocker" when the words say so
    unblocked: bool = False
    indefinite: bool = False  # « un », « une »: a creature not named before


@dataclass(frozen=True, slots=True, kw_only=True)
class Part:
    """One thing the judge said: `kind` and its values."""

    kind: str
    values: dict[str, Any] = field(default_factory=dict)


_STEPS = {"untap": "beginning", "upkeep": "beginning", "draw": "beginning",
          "beginning_of_combat": "combat", "declare_attackers": "combat", "declare_blockers": "combat",
          "combat_damage": "combat", "end_of_combat": "combat", "end_of_turn": "ending", "cleanup": "ending"}
_PHASES = {"beginning", "precombat_main", "combat", "postcombat_main", "ending"}
_ABILITIES = {"haste", "first_strike", "double_strike", "defender", "vigilance", "trample", "flash", "flying",
              "reach", "fear", "banding"}
_COLORS = {"white", "blue", "black", "red", "green"}
_KINDS = {"combat_damage_kind": "combat_damage", "instant": "instant", "sorcery": "sorcery", "creature_spell": "creature", "artifact": "artifact",
          "enchantment": "enchantment", "planeswalker": "planeswalker", "ability_kind": "ability",
          "trigger_kind": "trigger"}
_DAMAGE_STEPS = {"first_strike_step": "first_strike", "regular_step": "regular", "only_step": None}
_COMBAT_POINTS = ("before_attackers", "after_attackers", "before_blockers", "after_blockers",
                  "during_combat_after_blockers")


def _is_player(value: Any) -> bool:
    return isinstance(value, str) and not isinstance(value, Token) and value in PLAYER_WORDS


def _player(children: list[Any]) -> str | None:
    """The player a part names: the first named one, « il » only when none is."""
    players = [c for c in children if _is_player(c)]
    named = [str(p) for p in players if p != HE]
    if named:
        return named[0]
    return str(players[0]) if players else None


def _creatures(children: list[Any]) -> list[CreatureWords]:
    return [c for c in children if isinstance(c, CreatureWords)]


def _question(ask: str, **values: Any) -> Part:
    return Part(kind="question", values={"ask": ask, **values})


class _Parts(Transformer[Token, Any]):
    """Bottom-up: leaves become strings, numbers, players; parts become `Part`s."""

    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        name = str(data)
        if name in _STEPS:
            return ("place", (_STEPS[name], name))
        if name in _PHASES:
            return ("place", (name, None))
        if name in _ABILITIES:
            return ("ability", name)
        if name in _COLORS:
            return ("color", name)
        if name in _KINDS:
            return ("kind", _KINDS[name])
        if name in _DAMAGE_STEPS:
            return ("damage_step", _DAMAGE_STEPS[name])
        if name in _COMBAT_POINTS:
            return ("when", name)
        return Tree(data, children, meta)

    # ---- players
    def me(self, _: list[Any]) -> str:
        return ME

    def opponent(self, _: list[Any]) -> str:
        return OPPONENT

    def he(self, _: list[Any]) -> str:
        return HE

    def someone(self, _: list[Any]) -> str:
        return SOMEONE

    def active(self, _: list[Any]) -> str:
        return ACTIVE

    def nonactive(self, _: list[Any]) -> str:
        return NONACTIVE

    def speaker(self, children: list[Any]) -> Part:
        return Part(kind="speaker", values={"player": children[0]})

    # ---- editions
    def edition_year(self, children: list[Any]) -> Part:
        return Part(kind="edition", values={"year": _ints(children)[0]})

    def edition_old(self, _: list[Any]) -> Part:
        return Part(kind="edition", values={"old": True})

    def edition_new(self, _: list[Any]) -> Part:
        return Part(kind="edition", values={"new": True})

    def edition_before(self, children: list[Any]) -> Part:
        return Part(kind="edition", values={"before": _ints(children)[0]})

    def edition_m10(self, _: list[Any]) -> Part:
        return Part(kind="edition", values={"year": 2010})

    def edition_before_m10(self, _: list[Any]) -> Part:
        return Part(kind="edition", values={"before": 2010})

    def edition_burn(self, _: list[Any]) -> Part:
        return Part(kind="edition", values={"mana_burn": True})

    def edition_no_burn(self, _: list[Any]) -> Part:
        return Part(kind="edition", values={"mana_burn": False})

    # ---- moments
    def poss_me(self, _: list[Any]) -> tuple[str, str]:
        return ("owner", ME)

    def poss_them(self, _: list[Any]) -> tuple[str, str]:
        return ("owner", OPPONENT)

    def _moment(self, children: list[Any], **extra: Any) -> Part:
        owner = next((c[1] for c in children if isinstance(c, tuple) and c[0] == "owner"), None)
        owner = owner or _player(children)
        place = next((c[1] for c in children if isinstance(c, tuple) and c[0] == "place"), None)
        damage_step = next((c for c in children if isinstance(c, tuple) and c[0] == "damage_step"), None)
        values: dict[str, Any] = {"phase": None, "step": None, "owner": owner, **extra}
        if place is not None:
            values["phase"], values["step"] = place
        if damage_step is not None:
            values["phase"], values["step"] = "combat", "combat_damage"
            values["damage_step"] = damage_step[1]
        return Part(kind="moment", values=values)

    def at_step(self, children: list[Any]) -> Part:
        return self._moment(children)

    at_phase = at_step
    at_damage_step = at_step

    def at_end_of_step(self, children: list[Any]) -> Part:
        return self._moment(children, end=True)

    def at_start_of_step(self, children: list[Any]) -> Part:
        return self._moment(children, start=True)

    def at_combat_damage(self, children: list[Any]) -> Part:
        part = self._moment(children)
        return Part(kind="moment", values={**part.values, "phase": "combat", "step": "combat_damage"})

    def at_end_step(self, children: list[Any]) -> Part:
        part = self._moment(children)
        return Part(kind="moment", values={**part.values, "phase": "ending", "step": "end_of_turn"})

    def at_turn_start(self, children: list[Any]) -> Part:
        part = self._moment(children)
        return Part(kind="moment", values={**part.values, "phase": "beginning", "step": "untap", "turn_start": True})

    def at_turn_end(self, children: list[Any]) -> Part:
        part = self._moment(children)
        return Part(kind="moment", values={**part.values, "phase": "ending", "step": "cleanup", "turn_end": True})

    def at_blockers_step(self, children: list[Any]) -> Part:
        part = self._moment(children)
        return Part(kind="moment", values={**part.values, "phase": "combat", "step": "declare_blockers"})

    def at_beginning_of_combat(self, children: list[Any]) -> Part:
        part = self._moment(children, start=True)
        return Part(kind="moment", values={**part.values, "phase": "combat", "step": "beginning_of_combat"})

    def end_of_phase(self, _: list[Any]) -> Part:
        return Part(kind="phase_end")

    def at_combat(self, children: list[Any]) -> Part:
        part = self._moment(children)
        return Part(kind="moment", values={**part.values, "phase": "combat", "step": None})

    # ---- turn
    def my_turn(self, _: list[Any]) -> Part:
        return Part(kind="turn", values={"owner": ME})

    def their_turn(self, _: list[Any]) -> Part:
        return Part(kind="turn", values={"owner": OPPONENT})

    def turn_of(self, children: list[Any]) -> Part:
        return Part(kind="turn", values={"owner": _player(children)})

    def turn_of_named(self, children: list[Any]) -> Part:
        names = tuple(c[1] for c in children if isinstance(c, tuple) and c[0] == "pname")
        return Part(kind="turn", values={"owner": None, "named": names})

    def first_turn(self, _: list[Any]) -> Part:
        return Part(kind="first_turn")

    # ---- creatures
    def mine(self, _: list[Any]) -> tuple[str, str]:
        return ("owner", ME)

    def theirs(self, _: list[Any]) -> tuple[str, str]:
        return ("owner", OPPONENT)

    def _head(self, children: list[Any], **extra: Any) -> tuple[str, Any]:
        pts = [str(c) for c in children if isinstance(c, Token) and c.type == "PT"]
        names = [str(c) for c in children if isinstance(c, Token) and c.type == "NAME"]
        return ("head", {"pt": pts[0] if pts else None, "name": " ".join(names) or None, **extra})

    def head_pt(self, children: list[Any]) -> tuple[str, Any]:
        return self._head(children)

    head_creature = head_pt
    head_name = head_pt

    def head_wall(self, children: list[Any]) -> tuple[str, Any]:
        head = self._head(children, types=("Mur",))
        return ("head", {**head[1], "name": head[1]["name"] or "Mur"})

    def head_attacker(self, children: list[Any]) -> tuple[str, Any]:
        return self._head(children, role="attacker")

    def head_blocker(self, children: list[Any]) -> tuple[str, Any]:
        return self._head(children, role="blocker")

    def mod_pt(self, children: list[Any]) -> tuple[str, Any]:
        return ("pt", str(children[0]))

    def mod_abilities(self, children: list[Any]) -> tuple[str, Any]:
        return ("abilities", tuple(c[1] for c in children if isinstance(c, tuple)))

    def mod_flying(self, _: list[Any]) -> tuple[str, Any]:
        return ("abilities", ("flying",))

    def mod_theirs(self, _: list[Any]) -> tuple[str, Any]:
        return ("owner", OPPONENT)

    def mod_owner(self, children: list[Any]) -> tuple[str, Any]:
        return ("owner", _player(children))

    def mod_color(self, children: list[Any]) -> tuple[str, Any]:
        return ("colors", (children[0][1],))

    def mod_artifact(self, _: list[Any]) -> tuple[str, Any]:
        return ("card_types", ("artifact", "creature"))

    def mod_nothing(self, _: list[Any]) -> tuple[str, Any]:
        return ("nothing", None)

    def mod_wall(self, _: list[Any]) -> tuple[str, Any]:
        return ("types", ("Mur",))

    def mod_attacking(self, _: list[Any]) -> tuple[str, Any]:
        return ("role", "attacker")

    def mod_blocking(self, _: list[Any]) -> tuple[str, Any]:
        return ("role", "blocker")

    def mod_unblocked(self, _: list[Any]) -> tuple[str, Any]:
        return ("unblocked", True)

    def creature_mod(self, children: list[Any]) -> Any:
        return children[0]

    def creature(self, children: list[Any]) -> CreatureWords:
        values: dict[str, Any] = {}
        lists: dict[str, list[str]] = {"abilities": [], "colors": [], "types": [], "card_types": []}
        for child in children:
            if isinstance(child, Tree) and child.data == "indef":
                values["indefinite"] = True
            if not isinstance(child, tuple):
                continue
            key, value = child
            if key == "head":
                values.update({k: v for k, v in value.items() if v})
            elif key in lists:
                lists[key].extend(value)
            elif key != "nothing" and value is not None:
                values[key] = value
        pt = values.pop("pt", None)
        if "types" in values:
            lists["types"].extend(values.pop("types"))
        if pt:
            power, toughness = pt.split("/")
            values["power"], values["toughness"] = int(power), int(toughness)
        return CreatureWords(**values, abilities=tuple(dict.fromkeys(lists["abilities"])),
                             colors=tuple(dict.fromkeys(lists["colors"])), types=tuple(dict.fromkeys(lists["types"])),
                             card_types=tuple(dict.fromkeys(lists["card_types"])))

    def mention(self, children: list[Any]) -> Part:
        return Part(kind="creature", values={"creature": children[0]})

    # ---- what is said of a creature (the last one named)
    def _state(self, **values: Any) -> Part:
        return Part(kind="state", values=values)

    def st_tapped(self, _: list[Any]) -> Part:
        return self._state(tapped=True)

    def st_untapped(self, _: list[Any]) -> Part:
        return self._state(tapped=False)

    def st_new(self, children: list[Any]) -> Part:
        return self._state(since_turn_start=False)

    def st_put_this_turn(self, children: list[Any]) -> Part:
        """« j'ai posé mon gobelin (ce tour-ci) »: it arrived this turn."""
        return self._state(since_turn_start=False, creature=_creatures(children)[0])

    def st_taken(self, children: list[Any]) -> Part:
        return self._state(since_turn_start=False, taken_by=_player(children) or ME)

    def st_old(self, _: list[Any]) -> Part:
        return self._state(since_turn_start=True)

    def st_without(self, children: list[Any]) -> Part:
        return self._state(without=tuple(c[1] for c in children if isinstance(c, tuple)))

    def st_plain(self, _: list[Any]) -> Part:
        return self._state(without=())

    def st_with(self, children: list[Any]) -> Part:
        return self._state(abilities=tuple(c[1] for c in children if isinstance(c, tuple)))

    def st_phased_out(self, _: list[Any]) -> Part:
        return self._state(phased_out=True)

    def st_phased_in(self, _: list[Any]) -> Part:
        return self._state(phased_out=False)

    def st_doesnt_untap(self, _: list[Any]) -> Part:
        return self._state(doesnt_untap=True)

    def st_phasing(self, _: list[Any]) -> Part:
        return self._state(phasing=True)

    def st_damage(self, children: list[Any]) -> Part:
        return self._state(damage=_number(children))

    def st_not_creature(self, _: list[Any]) -> Part:
        return self._state(is_creature=False)

    def st_regenerates(self, _: list[Any]) -> Part:
        return self._state(regenerates=True)

    def st_control(self, children: list[Any]) -> Part:
        creatures = _creatures(children)
        return self._state(control_taken=True, by=_player(children), **({"creature": creatures[0]} if creatures else {}))

    def st_triggered(self, _: list[Any]) -> Part:
        return self._state(triggered=True)

    def st_pending(self, _: list[Any]) -> Part:
        return self._state(pending=True)

    def st_entered(self, _: list[Any]) -> Part:
        return self._state(since_turn_start=False, entered=True)

    def st_leaves(self, children: list[Any]) -> Part:
        creatures = _creatures(children)
        return self._state(leaves=True, **({"creature": creatures[0]} if creatures else {}))

    def st_cant_attack_alone(self, _: list[Any]) -> Part:
        return self._state(cant_attack_alone=True)

    def attack_cost(self, children: list[Any]) -> Part:
        return Part(kind="attack_cost", values={"cost": _number(children)})

    def declare_attackers_q(self, children: list[Any]) -> Part:
        creatures = _creatures(children)
        return _question("declare_attackers", creature=creatures[0] if creatures else None)

    def st_arrived_in_turn(self, children: list[Any]) -> Part:
        return self._state(arrived_in_turn_of=_player(children))

    def st_same(self, _: list[Any]) -> Part:
        return self._state(same=True)

    def st_nothing(self, _: list[Any]) -> Part:
        return self._state()

    # ---- combat
    def blocked_by(self, children: list[Any]) -> Part:
        creatures = _creatures(children)
        return Part(kind="blocked", values={"attacker": creatures[0], "blockers": tuple(creatures[1:])})

    def blocked_by_said(self, children: list[Any]) -> Part:
        return Part(kind="blocked", values={"attacker": None, "blockers": tuple(_creatures(children))})

    def attacks_with(self, children: list[Any]) -> Part:
        return Part(kind="attack", values={"creatures": tuple(_creatures(children))})

    attacks = attacks_with

    def attacks_planeswalker(self, children: list[Any]) -> Part:
        walker = next(str(c) for c in children if isinstance(c, Token) and c.type == "NAME")
        owner = next((c[1] for c in children if isinstance(c, tuple) and c[0] == "pname"), None)
        return Part(kind="attack", values={"creatures": tuple(_creatures(children)), "planeswalker": walker,
                                           "planeswalker_controller": owner or _player(children)})

    def attacks_said(self, _: list[Any]) -> Part:
        return Part(kind="attack", values={"creatures": ()})

    def blocks_with(self, children: list[Any]) -> Part:
        creatures = _creatures(children)
        if len(creatures) >= 2:
            return Part(kind="blocked", values={"attacker": creatures[0], "blockers": tuple(creatures[1:])})
        return Part(kind="blocked", values={"attacker": None, "blockers": tuple(creatures)})

    def blocks(self, children: list[Any]) -> Part:
        creatures = _creatures(children)
        return Part(kind="blocked", values={"attacker": creatures[1], "blockers": (creatures[0],)})

    def blocks_said(self, children: list[Any]) -> Part:
        return Part(kind="blocked", values={"attacker": None, "blockers": tuple(_creatures(children))})

    def damage_order(self, children: list[Any]) -> Part:
        return Part(kind="order", values={"creatures": tuple(_creatures(children))})

    def unblocked_said(self, _: list[Any]) -> Part:
        return self._state(unblocked=True)

    # ---- stack, mana, hand, lands
    def stack_item(self, children: list[Any]) -> dict[str, Any]:
        kind = next(c[1] for c in children if isinstance(c, tuple) and c[0] == "kind")
        owner = _player(children)
        if any(isinstance(c, Tree) and c.data == "owner_word" for c in children):
            owner = OPPONENT
        cost = next((c[1] for c in children if isinstance(c, tuple) and c[0] == "cost"), None)
        return {"kind": kind, "owner": owner, **({"cost": cost} if cost is not None else {})}

    def cost(self, children: list[Any]) -> tuple[str, int]:
        return ("cost", _number(children))

    def stack_response(self, children: list[Any]) -> Part:
        return Part(kind="stack", values={"item": children[-1], "response": True})

    def stack_response_to_said(self, _: list[Any]) -> Part:
        return Part(kind="response")

    def stack_on(self, children: list[Any]) -> Part:
        return Part(kind="stack", values={"item": next(c for c in children if isinstance(c, dict))})

    def stack_cast(self, children: list[Any]) -> Part:
        item = next(c for c in children if isinstance(c, dict))
        return Part(kind="stack", values={"item": {**item, "owner": item["owner"] or _player(children) or HE}})

    def stack_still(self, _: list[Any]) -> Part:
        return Part(kind="nothing")

    def max_hand(self, children: list[Any]) -> Part:
        return Part(kind="max_hand", values={"size": _number(children)})

    def no_max_hand(self, _: list[Any]) -> Part:
        return Part(kind="max_hand", values={"size": None})

    def at_end_of_combat_phase(self, children: list[Any]) -> Part:
        part = self._moment(children, end=True)
        return Part(kind="moment", values={**part.values, "phase": "combat", "step": "end_of_combat"})

    def stack_empty(self, _: list[Any]) -> Part:
        return Part(kind="stack_empty")

    def stack_nonempty(self, _: list[Any]) -> Part:
        return Part(kind="stack", values={"item": None})

    def mana_count(self, children: list[Any]) -> Part:
        return Part(kind="mana", values={"amount": _number(children)})

    def mana_symbols(self, children: list[Any]) -> Part:
        symbols = str(children[0]).replace("{", " ").replace("}", " ")
        amount = sum(int(s) if s.isdigit() else len(s) for s in symbols.split())
        return Part(kind="mana", values={"amount": amount, "symbols": str(children[0]).upper()})

    def mana_none(self, _: list[Any]) -> Part:
        return Part(kind="mana", values={"amount": 0})

    def mana_left(self, children: list[Any]) -> Part:
        return next(c for c in children if isinstance(c, Part))

    def hand_count(self, children: list[Any]) -> Part:
        return Part(kind="hand", values={"count": _number(children)})

    def land_played(self, children: list[Any]) -> Part:
        place = next((c[1] for c in children if isinstance(c, tuple) and c[0] == "place"), None)
        return Part(kind="land_played", values={"played": 1, "place": place})

    def extra_land(self, _: list[Any]) -> Part:
        return Part(kind="land_plays", values={"count": 2})

    def land_plays_count(self, children: list[Any]) -> Part:
        return Part(kind="land_plays", values={"count": _number(children)})

    def declared(self, _: list[Any]) -> Part:
        return Part(kind="declared")

    def no_land_played(self, _: list[Any]) -> Part:
        return Part(kind="land_played", values={"played": 0})

    def n_int(self, children: list[Any]) -> int:
        return int(children[0])

    # ---- what happened
    def after(self, children: list[Any]) -> Part:
        return Part(kind="events", values={"events": tuple(children)})

    def ev_step(self, children: list[Any]) -> tuple[str, Any]:
        place = next(c[1] for c in children if isinstance(c, tuple) and c[0] == "place")
        return ("step", place[1] or place[0])

    def ev_land(self, _: list[Any]) -> tuple[str, Any]:
        return ("land", None)

    def pass_all(self, _: list[Any]) -> Part:
        return Part(kind="pass", values={"who": "all"})

    def pass_one(self, children: list[Any]) -> Part:
        return Part(kind="pass", values={"who": _player(children)})

    def pass_also(self, _: list[Any]) -> Part:
        return Part(kind="pass", values={"who": "also"})

    def resolves(self, _: list[Any]) -> Part:
        return Part(kind="pass", values={"who": "resolve"})

    def holds_priority(self, children: list[Any]) -> Part:
        return Part(kind="priority", values={"player": _player(children)})

    def nothing(self, _: list[Any]) -> Part:
        return Part(kind="nothing")

    def no_attackers(self, _: list[Any]) -> Part:
        return Part(kind="no_attackers")

    def skip_step(self, children: list[Any]) -> Part:
        place = next(c[1] for c in children if isinstance(c, tuple) and c[0] == "place")
        return Part(kind="skip", values={"place": place[1] or place[0]})

    def target(self, children: list[Any]) -> Any:
        creatures = _creatures(children)
        if creatures:
            return ("creature", creatures[0])
        player = _player(children)
        return ("player", player) if player else ("player", None)

    def share(self, children: list[Any]) -> tuple[int, Any]:
        return (_number(children), next(c for c in children if isinstance(c, tuple)))

    def assign(self, children: list[Any]) -> Part:
        return Part(kind="assignment", values={"shares": tuple(c for c in children if isinstance(c, tuple))})

    # ---- players named, multiplayer games, extra turns, effects, combat timing
    def pname(self, children: list[Any]) -> tuple[str, str]:
        return ("pname", str(children[0]))

    def pnames(self, children: list[Any]) -> tuple[str, tuple[str, ...]]:
        return ("pnames", tuple(c[1] for c in children if isinstance(c, tuple) and c[0] == "pname"))

    def _game(self, **values: Any) -> Part:
        return Part(kind="game", values=values)

    def game_size(self, children: list[Any]) -> Part:
        return self._game(size=_number(children))

    def n_two(self, _: list[Any]) -> int:
        return 2

    def n_three(self, _: list[Any]) -> int:
        return 3

    def n_four(self, _: list[Any]) -> int:
        return 4

    def n_five(self, _: list[Any]) -> int:
        return 5

    def n_six(self, _: list[Any]) -> int:
        return 6

    def roster(self, children: list[Any]) -> Part:
        names: list[str] = []
        for child in children:
            if isinstance(child, tuple) and child[0] == "pnames":
                names.extend(child[1])
            elif isinstance(child, tuple) and child[0] == "pname":
                names.append(child[1])
        return self._game(players=tuple(names))

    def teams(self, children: list[Any]) -> Part:
        teams = tuple(c[1] for c in children if isinstance(c, tuple) and c[0] == "pnames")
        return self._game(teams=teams, players=tuple(n for team in teams for n in team))

    def archenemy_is(self, children: list[Any]) -> Part:
        one = next(c[1] for c in children if isinstance(c, tuple) and c[0] == "pname")
        others = next(c[1] for c in children if isinstance(c, tuple) and c[0] == "pnames")
        return self._game(variant="archenemy", archenemy=one, players=(one, *others))

    def free_for_all(self, _: list[Any]) -> Part:
        return self._game(variant="free_for_all")

    def two_headed_giant(self, _: list[Any]) -> Part:
        return self._game(variant="two_headed_giant")

    def archenemy_game(self, _: list[Any]) -> Part:
        return self._game(variant="archenemy")

    def attack_multiple(self, _: list[Any]) -> Part:
        return self._game(attack_option="multiple")

    def attack_left(self, _: list[Any]) -> Part:
        return self._game(attack_option="left")

    def attack_right(self, _: list[Any]) -> Part:
        return self._game(attack_option="right")

    def extra_turn(self, children: list[Any]) -> Part:
        named = next((c[1] for c in children if isinstance(c, tuple) and c[0] == "pname"), None)
        numbers = [c for c in children if isinstance(c, int) and not isinstance(c, bool)]
        return Part(kind="extra_turn", values={"who": named or _player(children), "named": named is not None,
                                               "count": numbers[0] if numbers else 1})

    def until_end_of_turn(self, _: list[Any]) -> tuple[str, str]:
        return ("until", "end_of_turn")

    def until_end_of_combat(self, _: list[Any]) -> tuple[str, str]:
        return ("until", "end_of_combat")

    def until_this_turn(self, _: list[Any]) -> tuple[str, str]:
        return ("until", "this_turn")

    def effect(self, children: list[Any]) -> Part:
        name = next(str(c) for c in children if isinstance(c, Token) and c.type == "NAME")
        until = next(c[1] for c in children if isinstance(c, tuple) and c[0] == "until")
        return Part(kind="effect", values={"name": name, "until": until})

    def timing_said(self, children: list[Any]) -> Part:
        return Part(kind="timing", values={"when": next(c[1] for c in children if isinstance(c, tuple))})

    # ---- questions
    def question(self, children: list[Any]) -> Part:
        return children[0]  # type: ignore[no-any-return]

    def cast(self, children: list[Any]) -> Part:
        item = next(c for c in children if isinstance(c, dict))
        return _question("cast", player=_player(children), kind=item["kind"])

    def play_land(self, children: list[Any]) -> Part:
        another = any(isinstance(c, Tree) and c.data == "another" for c in children)
        return _question("play_land", player=_player(children), another=another)

    def attack(self, children: list[Any]) -> Part:
        creatures = _creatures(children)
        return _question("attack", creature=creatures[0] if creatures else None)

    def block(self, children: list[Any]) -> Part:
        creatures = _creatures(children)
        return _question("block", creature=None, attacker=creatures[0] if creatures else None)

    def block_with(self, children: list[Any]) -> Part:
        creatures = _creatures(children)
        return _question("block", creature=creatures[1], attacker=creatures[0])

    def blocked_by_q(self, children: list[Any]) -> Part:
        creatures = _creatures(children)
        return _question("block", creature=creatures[0], attacker=None, passive=True)

    def priority(self, children: list[Any]) -> Part:
        return _question("priority")

    def defending(self, children: list[Any]) -> Part:
        creatures = _creatures(children)
        return _question("defending_player" if creatures else "defending_players",
                         creature=creatures[0] if creatures else None)

    def in_combat(self, children: list[Any]) -> Part:
        return _question("in_combat")

    def happens(self, children: list[Any]) -> Part:
        return _question("happens")

    def untap_question(self, children: list[Any]) -> Part:
        return _question("untap")

    def where(self, children: list[Any]) -> Part:
        return _question("where")

    def next(self, children: list[Any]) -> Part:
        return _question("next")

    def where_weak(self, children: list[Any]) -> Part:
        return _question("where", weak=True)  # « c'est quoi ? »: where, unless another question is asked

    def next_weak(self, children: list[Any]) -> Part:
        return _question("next", weak=True)  # « et après, on est où ? »: a sequence, not the question

    def rest_of_turn(self, children: list[Any]) -> Part:
        return _question("rest_of_turn")

    def discard(self, children: list[Any]) -> Part:
        return _question("discard", player=_player(children))

    def mana_burn(self, children: list[Any]) -> Part:
        return _question("mana_burn", player=_player(children))

    def damage_to_player(self, children: list[Any]) -> Part:
        return _question("damage_dealt", player=_player(children), to_player=True)

    def damage_dealt(self, children: list[Any]) -> Part:
        return _question("damage_dealt", player=None)

    def damage_steps(self, children: list[Any]) -> Part:
        return _question("damage_steps")

    def deals_damage(self, children: list[Any]) -> Part:
        return _question("deals_damage")

    def triggers(self, children: list[Any]) -> Part:
        return _question("triggers")

    def turn_order(self, children: list[Any]) -> Part:
        numbers = [c for c in children if isinstance(c, int) and not isinstance(c, bool)]
        return _question("turn_order", count=numbers[0] if numbers else None)

    def timing_question(self, children: list[Any]) -> Part:
        point = next((c[1] for c in children if isinstance(c, tuple) and c[0] == "when"), None)
        return _question("combat_timing", player=_player(children), when=point)

    def assign_damage(self, children: list[Any]) -> Part:
        assignment = next(c for c in children if isinstance(c, Part))
        return _question("assign_damage", shares=assignment.values["shares"])


_NUMBERS = {f"n_{n}": n for n in range(1, 13)}
for _name, _value in _NUMBERS.items():
    setattr(_Parts, _name, lambda self, _c, _v=_value: _v)


def _ints(children: list[Any]) -> list[int]:
    return [int(c) for c in children if isinstance(c, Token) and c.type in ("INT", "YEAR")]


def _number(children: list[Any]) -> int:
    return next(c for c in children if isinstance(c, int) and not isinstance(c, bool))


def parts_of(tree: Tree[Token]) -> tuple[Part, ...]:
    """The parts of a question, in order (unknown words left out: the reader lists them)."""
    done = _Parts().transform(tree)
    return tuple(child for child in done.children if isinstance(child, Part))
