"""What each part of a read question says: the parse tree turned into plain facts.

Owns the meaning of the grammar's named rules (`grammar.lark`): a `Part` per thing the judge
said (an edition, a moment, whose turn, a creature, a question…), in the question's order.
Turning those facts into a situation is `judge.ask.build`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lark import Token, Transformer, Tree

# Players as the judge names them: the speaker, the opponent, or a role of the turn.
ME, OPPONENT, HE, SOMEONE, ACTIVE, NONACTIVE = "me", "opponent", "he", "someone", "active", "nonactive"


@dataclass(frozen=True, slots=True, kw_only=True)
class CreatureWords:
    """A creature as described: owner word, power/toughness, abilities, state."""

    owner: str | None = None
    power: int | None = None
    toughness: int | None = None
    abilities: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    tapped: bool | None = None
    new: bool | None = None
    attacking: bool = False
    role: str | None = None  # "attacker" / "blocker" when the head word says so


@dataclass(frozen=True, slots=True, kw_only=True)
class Part:
    """One thing the judge said: `kind` and its values."""

    kind: str
    values: dict[str, Any] = field(default_factory=dict)


def _plain(children: list[Any]) -> list[Any]:
    return [c for c in children if not (isinstance(c, Token) and c.type not in ("INT", "YEAR", "PT")
                                        and c.type != "MANA_SYMBOLS")]


class _Parts(Transformer[Token, Any]):
    """Bottom-up: leaves become strings, numbers, players; parts become `Part`s."""

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

    def named(self, children: list[Any]) -> str:
        return "name:" + str(children[-1]).upper() if children else SOMEONE

    def speaker(self, children: list[Any]) -> Part:
        return Part(kind="speaker", values={"player": children[0]})

    # ---- editions
    def edition_year(self, children: list[Any]) -> Part:
        return Part(kind="edition", values={"year": int(_ints(children)[0])})

    def edition_old(self, _: list[Any]) -> Part:
        return Part(kind="edition", values={"old": True})

    def edition_before(self, children: list[Any]) -> Part:
        return Part(kind="edition", values={"before": int(_ints(children)[0])})

    def edition_since(self, children: list[Any]) -> Part:
        return Part(kind="edition", values={"year": int(_ints(children)[0])})

    def edition_new(self, _: list[Any]) -> Part:
        return Part(kind="edition", values={"new": True})

    def edition_m10(self, _: list[Any]) -> Part:
        return Part(kind="edition", values={"year": 2010})

    def edition_before_m10(self, _: list[Any]) -> Part:
        return Part(kind="edition", values={"before": 2010})

    def edition_burn(self, _: list[Any]) -> Part:
        return Part(kind="edition", values={"mana_burn": True})

    def edition_no_burn(self, _: list[Any]) -> Part:
        return Part(kind="edition", values={"mana_burn": False})

    # ---- moments
    def poss_me(self, _: list[Any]) -> str:
        return ME

    def poss_them(self, _: list[Any]) -> str:
        return OPPONENT

    def poss_none(self, _: list[Any]) -> None:
        return None

    def at_step(self, children: list[Any]) -> Part:
        owner = next((c for c in children if c in (ME, OPPONENT)), None)
        step = next(c for c in children if isinstance(c, tuple))
        return Part(kind="moment", values={"phase": step[0], "step": step[1], "owner": owner})

    at_phase = at_step

    def at_end_of_step(self, children: list[Any]) -> Part:
        part = self.at_step(children)
        return Part(kind="moment", values={**part.values, "end": True})

    def at_end_of_turn(self, _: list[Any]) -> Part:
        return Part(kind="moment", values={"phase": "ending", "step": "end_of_turn", "owner": None})

    def at_combat(self, _: list[Any]) -> Part:
        return Part(kind="moment", values={"phase": "combat", "step": None, "owner": None})

    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        name = str(data)
        if name in _STEPS:
            return (_STEPS[name], name)
        if name in _PHASES:
            return (name, None)
        if name in _ABILITIES:
            return ("ability", name)
        if name in _KINDS:
            return ("kind", _KINDS[name])
        return Tree(data, children, meta)

    # ---- turn
    def my_turn(self, _: list[Any]) -> Part:
        return Part(kind="turn", values={"owner": ME})

    def their_turn(self, _: list[Any]) -> Part:
        return Part(kind="turn", values={"owner": OPPONENT})

    def turn_of(self, children: list[Any]) -> Part:
        return Part(kind="turn", values={"owner": children[-1]})

    def first_turn(self, _: list[Any]) -> Part:
        return Part(kind="first_turn")

    # ---- creatures
    def mine(self, _: list[Any]) -> tuple[str, str]:
        return ("owner", ME)

    def theirs(self, _: list[Any]) -> tuple[str, str]:
        return ("owner", OPPONENT)

    def head_pt(self, children: list[Any]) -> tuple[str, Any]:
        return ("head", {"pt": str(children[0])})

    def head_creature(self, children: list[Any]) -> tuple[str, Any]:
        pts = [str(c) for c in children if isinstance(c, Token) and c.type == "PT"]
        return ("head", {"pt": pts[0] if pts else None})

    def head_wall(self, children: list[Any]) -> tuple[str, Any]:
        head = self.head_creature(children)[1]
        return ("head", {**head, "types": ("Mur",)})

    def head_attacker(self, children: list[Any]) -> tuple[str, Any]:
        return ("head", {**self.head_creature(children)[1], "role": "attacker"})

    def head_blocker(self, children: list[Any]) -> tuple[str, Any]:
        return ("head", {**self.head_creature(children)[1], "role": "blocker"})

    def mod_pt(self, children: list[Any]) -> tuple[str, Any]:
        return ("pt", str(children[0]))

    def mod_abilities(self, children: list[Any]) -> tuple[str, Any]:
        return ("abilities", tuple(c[1] for c in children if isinstance(c, tuple)))

    def mod_flying(self, _: list[Any]) -> tuple[str, Any]:
        return ("abilities", ("flying",))

    def mod_theirs(self, _: list[Any]) -> tuple[str, Any]:
        return ("owner", OPPONENT)

    def mod_owner(self, children: list[Any]) -> tuple[str, Any]:
        return ("owner", children[-1])

    def mod_tapped(self, _: list[Any]) -> tuple[str, Any]:
        return ("tapped", True)

    def mod_untapped(self, _: list[Any]) -> tuple[str, Any]:
        return ("tapped", False)

    def mod_new(self, _: list[Any]) -> tuple[str, Any]:
        return ("new", True)

    def mod_old(self, _: list[Any]) -> tuple[str, Any]:
        return ("new", False)

    def mod_without(self, children: list[Any]) -> tuple[str, Any]:
        return ("without", tuple(c[1] for c in children if isinstance(c, tuple)))

    def mod_attacking(self, _: list[Any]) -> tuple[str, Any]:
        return ("attacking", True)

    def creature_mod(self, children: list[Any]) -> Any:
        return children[0]

    def creature(self, children: list[Any]) -> CreatureWords:
        values: dict[str, Any] = {}
        abilities: list[str] = []
        without: list[str] = []
        for child in children:
            if not isinstance(child, tuple):
                continue
            key, value = child
            if key == "head":
                if value.get("pt"):
                    values["pt"] = value["pt"]
                if value.get("types"):
                    values["types"] = value["types"]
                if value.get("role"):
                    values["role"] = value["role"]
            elif key == "abilities":
                abilities.extend(value)
            elif key == "without":
                without.extend(value)
            elif key == "pt":
                values["pt"] = value
            else:
                values[key] = value
        pt = values.pop("pt", None)
        power = toughness = None
        if pt:
            power_text, toughness_text = pt.split("/")
            power, toughness = int(power_text), int(toughness_text)
        return CreatureWords(power=power, toughness=toughness, abilities=tuple(abilities),
                             without=tuple(without), **values)

    def mention(self, children: list[Any]) -> Part:
        return Part(kind="creature", values={"creature": children[0]})

    # ---- combat
    def blocked_by(self, children: list[Any]) -> Part:
        creatures = [c for c in children if isinstance(c, CreatureWords)]
        return Part(kind="blocked", values={"attacker": creatures[0], "blockers": tuple(creatures[1:])})

    def attacks_with(self, children: list[Any]) -> Part:
        return Part(kind="attack", values={"player": _player(children),
                                           "creatures": tuple(c for c in children if isinstance(c, CreatureWords))})

    def attacks(self, children: list[Any]) -> Part:
        return Part(kind="attack", values={"player": None, "creatures": (children[0],)})

    def blocks_with(self, children: list[Any]) -> Part:
        creatures = [c for c in children if isinstance(c, CreatureWords)]
        if len(creatures) >= 2:
            return Part(kind="blocked", values={"attacker": creatures[0], "blockers": tuple(creatures[1:])})
        return Part(kind="blocked", values={"attacker": None, "blockers": tuple(creatures)})

    def blocks(self, children: list[Any]) -> Part:
        return Part(kind="blocked", values={"attacker": children[1], "blockers": (children[0],)})

    def unblocked(self, children: list[Any]) -> Part:
        return Part(kind="unblocked", values={"creature": children[0]})

    def no_blocker(self, _: list[Any]) -> Part:
        return Part(kind="unblocked", values={"creature": None})

    # ---- stack, mana, hand, lands
    def stack_item(self, children: list[Any]) -> dict[str, Any]:
        kind = next(c[1] for c in children if isinstance(c, tuple))
        owner = next((c for c in children if isinstance(c, str) and not isinstance(c, Token)), None)
        if any(isinstance(c, Tree) and c.data == "owner_word" for c in children):
            owner = OPPONENT
        return {"kind": kind, "owner": owner}

    def stack_response(self, children: list[Any]) -> Part:
        return Part(kind="stack", values={"item": children[-1], "response": True})

    def stack_on(self, children: list[Any]) -> Part:
        return Part(kind="stack", values={"item": next(c for c in children if isinstance(c, dict))})

    def stack_response_to_said(self, _: list[Any]) -> Part:
        return Part(kind="response")

    def stack_cast(self, children: list[Any]) -> Part:
        item = next(c for c in children if isinstance(c, dict))
        said = _player(children)
        return Part(kind="stack", values={"item": {**item, "owner": item["owner"] or said}})

    def stack_empty(self, _: list[Any]) -> Part:
        return Part(kind="stack_empty")

    def stack_nonempty(self, _: list[Any]) -> Part:
        return Part(kind="stack", values={"item": None})

    def mana_count(self, children: list[Any]) -> Part:
        return Part(kind="mana", values={"amount": _number(children)})

    def mana_symbols(self, children: list[Any]) -> Part:
        symbols = str(children[0]).replace("{", "").replace("}", "")
        amount = sum(int(s) if s.isdigit() else 1 for s in symbols)
        return Part(kind="mana", values={"amount": amount, "symbols": str(children[0]).upper()})

    def mana_none(self, _: list[Any]) -> Part:
        return Part(kind="mana", values={"amount": 0})

    def mana_left(self, children: list[Any]) -> Part:
        return next(c for c in children if isinstance(c, Part))

    def hand_count(self, children: list[Any]) -> Part:
        return Part(kind="hand", values={"count": _number(children)})

    def land_played(self, _: list[Any]) -> Part:
        return Part(kind="land_played")

    def n_int(self, children: list[Any]) -> int:
        return int(children[0])

    def events(self, children: list[Any]) -> Part:
        return Part(kind="events", values={"events": tuple(children)})

    after = events

    def ev_step(self, children: list[Any]) -> tuple[str, Any]:
        return ("step", children[0][1] or children[0][0])

    def ev_land(self, _: list[Any]) -> tuple[str, Any]:
        return ("land", None)

    # ---- questions
    def question(self, children: list[Any]) -> Part:
        return children[0]  # type: ignore[no-any-return]

    def cast(self, children: list[Any]) -> Part:
        kind = next(c[1] for c in children if isinstance(c, tuple))
        return Part(kind="question", values={"ask": "cast", "player": _player(children), "kind": kind})

    def play_land(self, children: list[Any]) -> Part:
        another = any(isinstance(c, Tree) and c.data == "another" for c in children)
        return Part(kind="question", values={"ask": "play_land", "player": _player(children), "another": another})

    def attack(self, children: list[Any]) -> Part:
        creatures = [c for c in children if isinstance(c, CreatureWords)]
        return Part(kind="question", values={"ask": "attack", "creature": creatures[0], "player": _player(children)})

    def block(self, children: list[Any]) -> Part:
        creatures = [c for c in children if isinstance(c, CreatureWords)]
        return Part(kind="question", values={"ask": "block", "creature": creatures[0],
                                             "attacker": creatures[1] if len(creatures) > 1 else None})

    def block_with(self, children: list[Any]) -> Part:
        creatures = [c for c in children if isinstance(c, CreatureWords)]
        return Part(kind="question", values={"ask": "block", "creature": creatures[1], "attacker": creatures[0]})

    def blocked_by_q(self, children: list[Any]) -> Part:
        creatures = [c for c in children if isinstance(c, CreatureWords)]
        return Part(kind="question", values={"ask": "block", "creature": creatures[1], "attacker": creatures[0]})

    def _simple(self, ask: str, children: list[Any]) -> Part:
        return Part(kind="question", values={"ask": ask, "player": _player(children)})

    def priority(self, children: list[Any]) -> Part:
        return self._simple("priority", children)

    def where(self, children: list[Any]) -> Part:
        return self._simple("where", children)

    def next(self, children: list[Any]) -> Part:
        return self._simple("next", children)

    def discard(self, children: list[Any]) -> Part:
        return self._simple("discard", children)

    def mana_burn(self, children: list[Any]) -> Part:
        return self._simple("mana_burn", children)

    mana_burn_yes = mana_burn

    def damage_to_player(self, children: list[Any]) -> Part:
        return Part(kind="question", values={"ask": "damage_dealt", "player": _player(children), "to_player": True})

    def damage_dealt(self, children: list[Any]) -> Part:
        return Part(kind="question", values={"ask": "damage_dealt", "player": None})

    def damage_steps(self, children: list[Any]) -> Part:
        return self._simple("damage_steps", children)

    def deals_damage(self, children: list[Any]) -> Part:
        creatures = [c for c in children if isinstance(c, CreatureWords)]
        return Part(kind="question", values={"ask": "deals_damage", "creature": creatures[0]})


_STEPS = {"untap": "beginning", "upkeep": "beginning", "draw": "beginning",
          "beginning_of_combat": "combat", "declare_attackers": "combat", "declare_blockers": "combat",
          "combat_damage": "combat", "end_of_combat": "combat", "end_of_turn": "ending", "cleanup": "ending"}
_PHASES = {"beginning", "precombat_main", "combat", "postcombat_main", "ending"}
_ABILITIES = {"haste", "first_strike", "double_strike", "defender", "vigilance", "trample", "flash", "flying",
              "reach", "fear", "banding"}
_KINDS = {"instant": "instant", "sorcery": "sorcery", "creature_spell": "creature", "artifact": "artifact",
          "enchantment": "enchantment", "planeswalker": "planeswalker", "ability_kind": "ability",
          "trigger_kind": "trigger"}
_NUMBERS = {f"n_{n}": n for n in range(1, 13)}
for _name, _value in _NUMBERS.items():
    setattr(_Parts, _name, lambda self, _c, _v=_value: _v)


def _ints(children: list[Any]) -> list[int]:
    return [int(c) for c in children if isinstance(c, Token) and c.type in ("INT", "YEAR")]


def _number(children: list[Any]) -> int:
    return next(c for c in children if isinstance(c, int) and not isinstance(c, bool))


def _player(children: list[Any]) -> str | None:
    """The player a question is about: the first named, « il » only when none is."""
    players = [c for c in children if isinstance(c, str) and not isinstance(c, Token)
               and (c in (ME, OPPONENT, HE, SOMEONE, ACTIVE, NONACTIVE) or c.startswith("name:"))]
    named = [p for p in players if p != HE]
    if named:
        return named[0]
    return players[0] if players else None


def parts_of(tree: Tree[Token]) -> tuple[Part, ...]:
    """The parts of a question, in order (unknown words left out: the reader lists them)."""
    done = _Parts().transform(tree)
    return tuple(child for child in done.children if isinstance(child, Part))
