"""From the parts of a question to a situation in the documented format (docs/situation-format.md).

Owns how what a judge says becomes the dict a user would write in a JSON situation file: who
is A (the speaker) and B (the opponent), whose turn, which step, the creatures and their
combat, the stack, mana, hand, the turn's events, and the question asked. What it cannot
build without guessing it reports as a `Gap` (then nothing is answered).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from judge.ask.parts import ACTIVE, HE, ME, NONACTIVE, OPPONENT, SOMEONE, CreatureWords, Part

SPEAKER, OTHER = "A", "B"
# Runs a situation dict through the checker: the report as `judge check --json` gives it.
Run = Callable[[dict[str, Any]], dict[str, Any]]


class Gap(Exception):
    """Something the question does not say and the answer depends on (French)."""


@dataclass(slots=True)
class Plan:
    """The situation being built, and what the explanation says of it."""

    edition: str
    active: str = SPEAKER
    active_said: bool = False
    phase: str | None = None
    step: str | None = None
    moment_said: bool = False
    moment_end: bool = False
    priority: str | None = None
    stack: list[dict[str, Any]] = field(default_factory=list)
    response: bool = False
    creatures: list[dict[str, Any]] = field(default_factory=list)
    hands: dict[str, int] = field(default_factory=dict)
    mana: dict[str, int] = field(default_factory=dict)
    lands_played: int = 0
    first_turn: bool = False
    events: list[Any] | None = None
    questions: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def situation(self) -> dict[str, Any]:
        data: dict[str, Any] = {"edition": self.edition, "players": [SPEAKER, OTHER], "active": self.active}
        if self.events is None:
            data["phase"] = self.phase
            if self.step is not None:
                data["step"] = self.step
            if self.priority is not None:
                data["priority"] = self.priority
            if self.stack:
                data["stack"] = self.stack
            if self.lands_played:
                data["lands_played"] = self.lands_played
        if self.hands:
            data["hands"] = self.hands
        if self.mana:
            data["mana_pools"] = self.mana
        if self.first_turn:
            data["first_turn"] = True
        if self.creatures:
            data["creatures"] = self.creatures
        if self.events is not None:
            data["events"] = self.events
        data["questions"] = self.questions
        return data


def other(player: str) -> str:
    return OTHER if player == SPEAKER else SPEAKER


class Builder:
    """One question's parts -> a `Plan` (raises `Gap`)."""

    def __init__(self, parts: tuple[Part, ...], edition: str, run: Run) -> None:
        self.parts = parts
        self.run = run
        self.plan = Plan(edition=edition)
        self.names: dict[int, str] = {}

    # ---------------------------------------------------------------- players
    def player(self, word: str | None, *, default: str | None = None) -> str:
        if word == ME:
            return SPEAKER
        if word == OPPONENT:
            return OTHER
        if word == ACTIVE or word == SOMEONE:
            return self.plan.active
        if word == NONACTIVE:
            return other(self.plan.active)
        if word is not None and word.startswith("name:"):
            return word[5:]
        if word == HE:
            speakers = [p.values["player"] for p in self.parts if p.kind == "speaker"
                        and p.values["player"] not in (HE, SOMEONE)]
            if speakers:
                return self.player(speakers[-1])
            raise Gap("« il » : je ne sais pas de quel joueur il s'agit")
        if default is not None:
            return default
        raise Gap("je ne sais pas de quel joueur il s'agit")

    # ---------------------------------------------------------------- the turn
    def _turn_owner(self) -> str | None:
        for part in self.parts:
            if part.kind == "turn":
                return self.player(part.values["owner"])
        for part in self.parts:
            if part.kind == "moment" and part.values.get("owner"):
                return self.player(part.values["owner"])
        return None

    def build(self) -> Plan:
        plan = self.plan
        questions = [p for p in self.parts if p.kind == "question"]
        if not questions:
            raise Gap("je n'ai pas reconnu de question (peut-il lancer, attaquer, bloquer, combien…)")
        if len({q.values["ask"] for q in questions}) > 1:
            raise Gap("plusieurs questions à la fois : posez-les une par une")
        question = questions[0].values
        owner = self._turn_owner()
        if owner is not None:
            plan.active, plan.active_said = owner, True
        else:
            plan.active = self._default_active(question)
        moments = [p for p in self.parts if p.kind == "moment"]
        if len({(m.values["phase"], m.values["step"]) for m in moments}) > 1:
            raise Gap("plusieurs moments du tour : je ne sais pas lequel est le bon")
        if moments:
            plan.phase, plan.step = moments[0].values["phase"], moments[0].values["step"]
            plan.moment_said = True
            plan.moment_end = bool(moments[0].values.get("end"))
            if plan.step is None and plan.phase in ("beginning", "combat", "ending"):
                raise Gap("quelle étape de la phase ? (la phase seule ne suffit pas)")
        for part in self.parts:
            self._state(part)
        if plan.response and not plan.stack:
            raise Gap("en réponse à quoi ? (quel sort ou capacité est sur la pile)")
        if plan.events is not None:
            self.replay_events()
        ask = question["ask"]
        getattr(self, "_q_" + ask)(question)
        if plan.phase is None and plan.events is None:
            raise Gap("à quel moment du tour ? (étape ou phase)")
        return plan

    def _default_active(self, question: dict[str, Any]) -> str:
        """No one said whose turn it is: the turn of the player who cast a sorcery-speed spell
        on the stack, else of the player the question is about."""
        for part in self.parts:
            item = part.values.get("item") if part.kind == "stack" else None
            if item and item.get("owner") and item["kind"] in _SORCERY_SPEED:
                return self.player(item["owner"])
        ask = question["ask"]
        if ask in ("cast", "play_land", "discard", "mana_burn") and question.get("player") not in (
                None, ACTIVE, NONACTIVE, SOMEONE):
            return self.player(question["player"])
        if ask == "attack":
            creature = question["creature"]
            if creature.owner is not None:
                return self.player(creature.owner)
            return self.player(question.get("player"), default=SPEAKER)
        if ask == "block":
            creature = question["creature"]
            if creature.owner is not None:
                return other(self.player(creature.owner))
        for part in self.parts:
            if part.kind == "blocked" and part.values["attacker"] is not None \
                    and part.values["attacker"].owner is not None:
                return self.player(part.values["attacker"].owner)
            if part.kind == "attack" and part.values.get("player"):
                return self.player(part.values["player"])
        return SPEAKER

    # ---------------------------------------------------------------- state parts
    def _state(self, part: Part) -> None:
        plan = self.plan
        values = part.values
        if part.kind == "stack":
            item = values["item"] or {"kind": "instant", "owner": None}
            plan.stack.append({"kind": item["kind"], "controller": "?" if item["owner"] is None
                               else self.player(item["owner"])})
            plan.response = plan.response or bool(values.get("response"))
        elif part.kind == "mana":
            plan.mana["?"] = values["amount"]
        elif part.kind == "hand":
            plan.hands["?"] = values["count"]
        elif part.kind == "response":
            plan.response = True
        elif part.kind == "land_played":
            plan.lands_played = 1
        elif part.kind == "first_turn":
            plan.first_turn = True
        elif part.kind == "blocked":
            attacker = values["attacker"]
            if attacker is None:
                raise Gap("bloque quelle créature ?")
            name = self.creature(attacker, controller=plan.active, attacking=True)
            for blocker in values["blockers"]:
                self.creature(blocker, controller=other(plan.active), blocking=name)
        elif part.kind == "attack":
            for creature in values["creatures"]:
                self.creature(creature, controller=plan.active, attacking=True)
        elif part.kind == "unblocked" and values["creature"] is not None:
            self.creature(values["creature"], controller=plan.active, attacking=True)
        elif part.kind == "events":
            plan.events = list(values["events"])

    def _owner_of(self, player_word: str | None) -> str:
        """The owner of the mana, hand…: the question's player, else the active player."""
        return self.player(player_word, default=self.plan.active)

    def _fill_owned(self, player: str) -> None:
        plan = self.plan
        if "?" in plan.mana:
            plan.mana = {player: plan.mana.pop("?")}
        if "?" in plan.hands:
            plan.hands = {player: plan.hands.pop("?")}
        for item in plan.stack:
            if item["controller"] == "?":
                item["controller"] = other(player) if plan.response else plan.active

    # ---------------------------------------------------------------- creatures
    def creature(self, words: CreatureWords, *, controller: str, attacking: bool = False,
                 blocking: str | None = None) -> str:
        key = id(words)
        if key in self.names:
            return self.names[key]
        owner = self.player(words.owner) if words.owner is not None else controller
        label = f"{words.power}/{words.toughness}" if words.power is not None else "créature"
        base = f"{label} de {owner}"
        name = base
        taken = {c["name"] for c in self.plan.creatures}
        count = 2
        while name in taken:
            name = f"{base} ({count})"
            count += 1
        data: dict[str, Any] = {"name": name, "controller": owner}
        if words.power is not None:
            data["power"], data["toughness"] = words.power, words.toughness
        if words.abilities:
            data["abilities"] = list(dict.fromkeys(words.abilities))
        if words.types:
            data["types"] = list(words.types)
        if words.tapped:
            data["tapped"] = True
        if words.new:
            data["since_turn_start"] = False
        if attacking or words.attacking:
            data["attacking"] = True
        if blocking is not None:
            data["blocking"] = blocking
        self.plan.creatures.append(data)
        self.names[key] = name
        return name

    def _mentioned(self) -> list[CreatureWords]:
        return [p.values["creature"] for p in self.parts if p.kind == "creature"]

    # ---------------------------------------------------------------- questions
    def _priority_to(self, player: str) -> None:
        """The player asked about holds priority, if anyone receives it in that step."""
        plan = self.plan
        if plan.phase is None:
            return
        probe = plan.situation()
        probe["questions"] = [{"ask": "priority"}]
        probe.pop("priority", None)
        answer = self.run(probe)["answers"][0]["answer"]
        if answer is not None:
            plan.priority = player

    def _main_by_default(self) -> None:
        plan = self.plan
        if plan.phase is None and plan.events is None:
            plan.phase = "precombat_main"
            plan.notes.append("moment non précisé : la première phase principale")

    def _q_cast(self, question: dict[str, Any]) -> None:
        player = self.player(question["player"], default=SPEAKER)
        self._fill_owned(player)
        self._main_by_default()
        self._priority_to(player)
        self.plan.questions.append({"ask": "cast", "player": player, "kind": question["kind"]})

    def _q_play_land(self, question: dict[str, Any]) -> None:
        player = self.player(question["player"], default=SPEAKER)
        if question.get("another"):
            self.plan.lands_played = max(self.plan.lands_played, 1)
        self._fill_owned(player)
        self._main_by_default()
        self._priority_to(player)
        self.plan.questions.append({"ask": "play_land", "player": player})

    def _q_attack(self, question: dict[str, Any]) -> None:
        plan = self.plan
        controller = self.player(question.get("player"), default=plan.active)
        name = self.creature(question["creature"], controller=controller)
        if plan.phase is None:
            plan.phase, plan.step = "combat", "declare_attackers"
        self._fill_owned(plan.active)
        plan.questions.append({"ask": "attack", "creature": name})

    def _q_block(self, question: dict[str, Any]) -> None:
        plan = self.plan
        attacker_words = question.get("attacker")
        if attacker_words is None:
            attacker_words = CreatureWords(role="attacker")
        attacker = self.creature(attacker_words, controller=plan.active, attacking=True)
        blocker = self.creature(question["creature"], controller=other(plan.active))
        if plan.phase is None:
            plan.phase, plan.step = "combat", "declare_blockers"
        self._fill_owned(plan.active)
        plan.questions.append({"ask": "block", "creature": blocker, "attacker": attacker})

    def _simple(self, ask: str, question: dict[str, Any], *, with_player: bool) -> None:
        plan = self.plan
        player = self._owner_of(question.get("player"))
        self._fill_owned(player)
        entry: dict[str, Any] = {"ask": ask}
        if with_player:
            entry["player"] = player
        plan.questions.append(entry)

    def _q_priority(self, question: dict[str, Any]) -> None:
        self._simple("priority", question, with_player=False)

    def _q_where(self, question: dict[str, Any]) -> None:
        self._simple("where", question, with_player=False)

    def _q_next(self, question: dict[str, Any]) -> None:
        self._simple("next", question, with_player=False)

    def _q_discard(self, question: dict[str, Any]) -> None:
        if not any(p.kind == "hand" for p in self.parts):
            raise Gap("combien de cartes en main ?")
        if self.plan.phase is None:
            self.plan.phase, self.plan.step = "ending", "end_of_turn"
            self.plan.notes.append("moment non précisé : l'étape de fin du tour")
        self._simple("discard", question, with_player=True)

    def _q_mana_burn(self, question: dict[str, Any]) -> None:
        if not any(p.kind == "mana" for p in self.parts):
            raise Gap("combien de mana reste-t-il dans la réserve ?")
        self._simple("mana_burn", question, with_player=True)

    def _q_damage_steps(self, question: dict[str, Any]) -> None:
        plan = self.plan
        for words in self._mentioned():
            self.creature(words, controller=plan.active, attacking=words.role != "blocker")
        if plan.phase is None:
            plan.phase, plan.step = "combat", "declare_blockers"
        self._simple("damage_steps", question, with_player=False)

    def _q_deals_damage(self, question: dict[str, Any]) -> None:
        plan = self.plan
        name = self.creature(question["creature"], controller=plan.active, attacking=True)
        if plan.phase is None:
            raise Gap("dans quelle étape de blessures de combat ?")
        plan.questions.append({"ask": "deals_damage", "creature": name})

    def _q_damage_dealt(self, question: dict[str, Any]) -> None:
        plan = self.plan
        attackers = [c for c in plan.creatures if c.get("attacking")]
        if not attackers:
            raise Gap("quelles créatures attaquent ?")
        plan.questions.append({"ask": "damage_dealt"})
        if question.get("to_player"):
            plan.notes.append("to_player")
        plan.phase, plan.step = None, None
        self._combat_replay()

    # ---------------------------------------------------------------- replays
    def _combat_replay(self) -> None:
        """The turn replayed from its start up to its combat damage: declarations as described."""
        plan = self.plan
        attackers = [c["name"] for c in plan.creatures if c.pop("attacking", False)]
        blocks = {c["name"]: c.pop("blocking") for c in plan.creatures if "blocking" in c}
        plan.events = []
        self._pass_until(lambda where: where.get("step") == "declare_attackers")
        plan.events.append({"declare_attackers": attackers})
        self._pass_until(lambda where: where.get("step") == "declare_blockers")
        plan.events.append({"declare_blockers": blocks})
        strikes = any(a in c.get("abilities", ()) for c in plan.creatures
                      for a in ("first_strike", "double_strike"))
        self._pass_until(lambda where: where.get("step") == "end_of_combat" if strikes else
                         bool(self._dealt()))

    def _dealt(self) -> list[Any]:
        probe = self.plan.situation()
        probe["questions"] = [{"ask": "damage_dealt"}]
        answer: list[Any] = self.run(probe)["answers"][0]["answer"] or []
        return answer

    def _pass_until(self, reached: Callable[[dict[str, Any]], bool]) -> None:
        plan = self.plan
        assert plan.events is not None
        for _ in range(80):
            probe = plan.situation()
            probe["questions"] = [{"ask": "where"}]
            where = self.run(probe)["answers"][0]["answer"]
            if reached(where):
                return
            if where.get("turn_ended"):
                break
            plan.events.append("pass")
        raise Gap("je n'arrive pas à rejouer le tour jusque-là")

    def replay_events(self) -> None:
        """« Après dégagement, entretien, pioche et un terrain joué » -> the turn's events."""
        plan = self.plan
        said = plan.events
        if said is None:
            return
        plan.events = []
        for kind, value in said:
            if kind == "step":
                self._pass_until(lambda where, step=value: where.get("step") != step
                                 and where.get("phase") != step and _after(where, step))
            else:
                self._pass_until(lambda where: where.get("main") is not None)
                plan.events.append({"play_land": plan.active})


_SORCERY_SPEED = ("sorcery", "creature", "artifact", "enchantment", "planeswalker")
_ORDER = ("untap", "upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
          "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main", "end_of_turn", "cleanup")


def _after(where: dict[str, Any], step: str) -> bool:
    here = where.get("step") or where.get("phase")
    return here in _ORDER and step in _ORDER and _ORDER.index(here) > _ORDER.index(step)
