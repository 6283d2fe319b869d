"""From the parts of a question to a situation in the documented format (docs/situation-format.md).

Owns how what a judge says becomes the dict a user would write in a JSON situation file: whose
turn (the active player is A, the other B, as the format's defaults), which step, the
creatures (linked: « il », « le bloqueur », a name said twice are the creature named before)
and their combat, the stack, mana, hand, the turn's events, and the question asked. What the
answer depends on and the question does not say is a `Gap`: then nothing is answered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from judge.ask.parts import ACTIVE, HE, ME, NONACTIVE, OPPONENT, SOMEONE, CreatureWords, Part

FIRST, SECOND = "A", "B"  # the active player, the other (the format's default players)
# Runs a situation dict through the checker: the report as `judge check --json` gives it.
Run = Callable[[dict[str, Any]], dict[str, Any]]
_COMBAT_STEPS = ("declare_attackers", "declare_blockers", "combat_damage", "end_of_combat")
_PHASE_OF = {"untap": "beginning", "upkeep": "beginning", "draw": "beginning", "beginning_of_combat": "combat",
             "declare_attackers": "combat", "declare_blockers": "combat", "combat_damage": "combat",
             "end_of_combat": "combat", "end_of_turn": "ending", "cleanup": "ending"}
_SORCERY_SPEED = ("sorcery", "creature", "artifact", "enchantment", "planeswalker")
_ANY_MOMENT = ("turn_order",)  # questions whose answer is the same at every moment of the turn
_NAMED_ASKS = ("turn_order", "defending_players", "defending_player")


class Gap(Exception):
    """Something the answer depends on and the question does not say (French)."""


@dataclass(slots=True)
class Entity:
    """A creature of the question, as described so far."""

    words: CreatureWords
    state: dict[str, Any] = field(default_factory=dict)
    attacking: bool = False
    blocking: str | None = None
    name: str = ""
    trigger: bool = False  # a permanent said only as the source of a triggered ability


@dataclass(slots=True)
class Plan:
    """The situation being built, and what the explanation says of it."""

    edition: str
    me: str = FIRST
    turn_said: bool = False
    phase: str | None = None
    step: str | None = None
    damage_step: str | None = None
    moment_end: bool = False
    priority: str | None = None
    stack: list[dict[str, Any]] = field(default_factory=list)
    response: bool = False
    creatures: list[dict[str, Any]] = field(default_factory=list)
    hands: dict[str, int] = field(default_factory=dict)
    mana: dict[str, int] = field(default_factory=dict)
    lands_played: int = 0
    land_plays: int = 1
    first_turn: bool = False
    skip: list[str] = field(default_factory=list)
    max_hand: int | None = 7
    max_hand_said: bool = False
    events: list[Any] | None = None
    questions: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    players: tuple[str, ...] = ()  # named players, in turn order (else A and B)
    active: str = FIRST
    game: dict[str, Any] = field(default_factory=dict)  # variant, attack_option, teams, archenemy
    extra_turns: list[str] = field(default_factory=list)
    triggers: list[dict[str, Any]] = field(default_factory=list)
    pending_triggers: list[dict[str, Any]] = field(default_factory=list)
    effects: list[dict[str, Any]] = field(default_factory=list)
    permanents: list[dict[str, Any]] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # A / B -> the first name the question gave
    told_of: bool = False  # the one who asks is no player (a judge telling of a table): no « vous »

    def situation(self) -> dict[str, Any]:
        data: dict[str, Any] = {"edition": self.edition, "players": list(self.players or (FIRST, SECOND)),
                                "active": self.active}
        data.update(self.game)
        if self.extra_turns:
            data["extra_turns"] = self.extra_turns
        if self.events is None and self.phase is not None:
            data["phase"] = self.phase
            if self.step is not None:
                data["step"] = self.step
            if self.damage_step is not None:
                data["damage_step"] = self.damage_step
            if self.priority is not None:
                data["priority"] = self.priority
            if self.stack:
                data["stack"] = self.stack
            if self.lands_played:
                data["lands_played"] = self.lands_played
            if self.skip:
                data["skip"] = self.skip
        if self.land_plays != 1:
            data["land_plays"] = self.land_plays
        if self.hands:
            data["hands"] = self.hands
        if self.mana:
            data["mana_pools"] = self.mana
        if self.first_turn:
            data["first_turn"] = True
        if self.max_hand_said:
            data["max_hand_size"] = self.max_hand
        if self.creatures:
            data["creatures"] = self.creatures
        for key in ("triggers", "pending_triggers", "effects", "permanents"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        if self.events is not None:
            data["events"] = self.events
        data["questions"] = self.questions
        return data


def other(player: str) -> str:
    return SECOND if player == FIRST else FIRST


class Builder:
    """One question's parts -> a `Plan` (raises `Gap`)."""

    def __init__(self, parts: tuple[Part, ...], edition: str, run: Run) -> None:
        self.parts = parts
        self.run = run
        self.plan = Plan(edition=edition)
        self.entities: list[Entity] = []
        self.entity_of: dict[int, Entity] = {}
        self.walkers: list[tuple[str, str | None]] = []  # planeswalkers attacked, with their controller
        self.effect: Entity | None = None  # a creature regenerated or taken control of, in combat

    # ---------------------------------------------------------------- players
    def player(self, word: str | None, *, at: int | None = None, default: str | None = None) -> str:
        """A player word as A or B (A is the active player)."""
        me = self.plan.me
        if word == ME:
            return me
        if word == OPPONENT:
            return other(me)
        if word in (ACTIVE, SOMEONE):
            return FIRST
        if word == NONACTIVE:
            return SECOND
        if word == HE or word is None:
            said = self._speaker_before(at)
            if said is not None:
                return self.player(said)
            if default is not None:
                return default
            raise Gap("« il » : je ne sais pas de quel joueur il s'agit" if word == HE
                      else "je ne sais pas de quel joueur il s'agit")
        raise Gap(f"joueur inconnu : {word}")

    def _speaker_before(self, at: int | None) -> str | None:
        """The player named last before part `at` (not « il »)."""
        end = len(self.parts) if at is None else at
        for part in reversed(self.parts[:end]):
            if part.kind == "speaker" and part.values["player"] not in (HE, SOMEONE):
                return str(part.values["player"])
        return None

    # ---------------------------------------------------------------- creatures
    def _same(self, words: CreatureWords, entity: Entity) -> bool:
        said = entity.words
        if words.name is not None:
            return said.name == words.name
        if words.indefinite or words.power is not None:
            return False
        if words.owner is not None and said.owner is not None and words.owner != said.owner:
            return False
        return words.role is None or words.role == said.role or words.role == _role(entity)

    def entity(self, words: CreatureWords) -> Entity:
        key = id(words)
        if key in self.entity_of:
            return self.entity_of[key]
        found = next((e for e in reversed(self.entities) if self._same(words, e)), None)
        if found is None:
            found = Entity(words=words)
            self.entities.append(found)
        else:
            found.words = _merge(found.words, words)
        self.entity_of[key] = found
        return found

    def _next_entity(self, after: int) -> Entity | None:
        """« J'ai pris le contrôle de la créature de mon adversaire »: said before it is named."""
        for part in self.parts[after + 1:]:
            for words in _creature_words(part):
                return self.entity(words)
        return None

    def _last_entity(self, before: int) -> Entity | None:
        for part in reversed(self.parts[:before]):
            for words in _creature_words(part):
                return self.entity(words)
        return None

    # ---------------------------------------------------------------- build
    def build(self) -> Plan:
        plan = self.plan
        questions = [(i, p) for i, p in enumerate(self.parts) if p.kind == "question"]
        said = [p for p in self.parts if p.kind not in ("edition", "nothing")]
        if not questions and said and all(p.kind == "events" and all(k == "step" for k, _ in p.values["events"])
                                          for p in said):
            # « En 2004, après l'étape de fin du tour ? »: what follows
            questions = [(len(self.parts), Part(kind="question", values={"ask": "next"}))]
            self.parts = (*self.parts, questions[0][1])
        strong = [(i, p) for i, p in questions if not p.values.get("weak")]
        if len({p.values["ask"] for _, p in questions}) > 1 and strong:
            questions = strong  # « l'étape suivante, c'est quoi ? »: the question is `next`
        if not questions:
            questions = self._implied_question()
        if not questions:
            raise Gap("je n'ai pas reconnu de question (peut-il lancer, attaquer, bloquer, combien…)")
        asks = {p.values["ask"] for _, p in questions}
        if asks == {"where", "priority"}:  # « on est où et qui a la priorité » : `where` says both
            questions = [(i, p) for i, p in questions if p.values["ask"] == "where"]
            asks = {"where"}
        if len(asks) > 1:
            raise Gap("plusieurs questions à la fois : posez-les une par une")
        at, question = questions[-1][0], questions[-1][1].values
        # Creatures first (in order), with what is said of them.
        for index, part in enumerate(self.parts):
            self._creature_part(index, part)
        self._after_is_next(question)
        named = self._named_game(question)
        owner = None if named else self._turn_owner()
        if owner is None and not named:
            owner = self._default_owner(at, question)
        plan.turn_said = owner is not None or named
        plan.me = FIRST if owner in (None, ME) else SECOND
        self._moment(at, question)
        for part in self.parts:
            self._state(part)
        getattr(self, "_q_" + question["ask"])(at, question)
        self._creatures_out()
        self._replay()
        self._all_used()
        if plan.phase is None and plan.events is None and question["ask"] not in _ANY_MOMENT:
            raise Gap("à quel moment du tour ? (étape ou phase)")
        return plan

    def _all_used(self) -> None:
        """Every name said is used: a name read as a creature of which nothing is said and that
        no question, event or trigger names (« Bruno peut-il jouer … », a player's first name
        the reader took for a card) was not understood — said, not answered."""
        import json

        plan = self.plan
        told = json.dumps([plan.questions, plan.events, plan.triggers, plan.pending_triggers, plan.effects,
                           plan.permanents, [c.get("blocking") for c in plan.creatures]], ensure_ascii=False)
        for creature in plan.creatures:
            name = str(creature["name"])
            if set(creature) <= {"name", "controller"} and name not in plan.players and f'"{name}"' not in told:
                entity = next((e for e in self.entities if e.name == name), None)
                if entity is not None and entity.words.name and not entity.words.owner:
                    raise Gap(f"« {name} » : je ne sais pas ce que c'est (un joueur ? une créature ?) "
                              "ni ce qu'il fait dans la question")

    # ---------------------------------------------------------------- players named
    def _implied_question(self) -> list[tuple[int, Part]]:
        """A question said by its facts alone: a damage assignment proposed (« je mets 1 sur
        l'ours et 3 au joueur, c'est bon ? ») asks whether it is legal."""
        proposed = [(i, p) for i, p in enumerate(self.parts) if p.kind == "assignment"]
        if len(proposed) != 1:
            return []
        at, part = proposed[0]
        question = Part(kind="question", values={"ask": "assign_damage", "shares": part.values["shares"]})
        self.parts = (*self.parts[:at], question, *self.parts[at + 1:])
        return [(at, question)]

    def _named_game(self, question: dict[str, Any]) -> bool:
        """« Partie à quatre, ordre du tour Alice, Bruno… ; c'est le tour de Chloé »: the players
        by their names, whose turn, the variant; and the extra turns said (« A se donne un tour
        supplémentaire »). True when the players are named."""
        plan = self.plan
        game: dict[str, Any] = {}
        for part in self.parts:
            if part.kind == "game":
                for key, value in part.values.items():
                    if key == "players" and len(value) <= len(game.get("players", ())):
                        continue
                    game[key] = value
        turn_names = [n for p in self.parts if p.kind == "turn" for n in p.values.get("named", ())]
        extra = [p.values for p in self.parts if p.kind == "extra_turn"]
        names = {*turn_names, *(e["who"] for e in extra if e["named"])}
        size = game.pop("size", None)
        if not names and not game.get("players"):
            if size is not None and size != 2:
                raise Gap("qui sont les joueurs, dans l'ordre du tour ?")
            if game:
                raise Gap("qui sont les joueurs, dans l'ordre du tour ?")
            for values in extra:
                plan.extra_turns.extend([self.player(values["who"])] * values["count"])
            return False
        if question["ask"] not in _NAMED_ASKS:
            raise Gap("avec des joueurs nommés, je ne réponds qu'à l'ordre des tours et aux joueurs défenseurs")
        players = tuple(game.pop("players", ()))
        if not players:
            if not names <= {FIRST, SECOND}:
                raise Gap("qui sont les joueurs, dans l'ordre du tour ?")
            players = (FIRST, SECOND)
        if size is not None and size != len(players):
            raise Gap(f"une partie à {size} joueurs, mais {len(players)} joueurs nommés")
        if len(set(players)) != len(players) or not names <= set(players):
            raise Gap("qui sont les joueurs, dans l'ordre du tour ?")
        if "teams" in game:
            game["teams"] = [list(team) for team in game["teams"]]
            game.setdefault("variant", "two_headed_giant")
        active = turn_names[0] if turn_names else None
        if active is None and any(p.kind == "turn" and p.values.get("owner") == OPPONENT for p in self.parts):
            subjects = [e["who"] for e in extra if e["named"]]
            active = subjects[0] if subjects else None  # « pendant son tour, Chloé obtient… »
        if active is None:
            raise Gap("c'est le tour de qui ?")
        for values in extra:
            if not values["named"]:
                raise Gap("quel joueur prend un tour supplémentaire ?")
            plan.extra_turns.extend([values["who"]] * values["count"])
        plan.players, plan.active, plan.game = players, active, game
        return True


    def _creature_part(self, index: int, part: Part) -> None:
        values = part.values
        if part.kind == "creature":
            self.entity(values["creature"])
        elif part.kind == "state" and values.get("creature") is not None:
            # « mon adversaire prend le contrôle de ma créature attaquante »
            taken = self.entity(values["creature"])
            taken.state.update({k: v for k, v in values.items() if k != "creature"})
        elif part.kind == "state" and values.get("same"):
            # « son Loup aussi »: what was said of the creature before is said of this one
            said = next((p.values for p in reversed(self.parts[:index]) if p.kind == "state"
                         and not p.values.get("same")), None)
            target = self._last_entity(index)
            if said is None or target is None:
                return  # « mon adversaire passe aussi »: nothing more said of a creature
            target.state.update({k: v for k, v in said.items() if k not in ("without", "abilities")})
        elif part.kind == "state":
            following = self.parts[index + 1] if index + 1 < len(self.parts) else None
            if following is not None and following.kind == "moment" and (values.get("triggered") or values.get("entered")):
                # « déclenchée pendant mon dégagement », « arrivée pendant mon étape de fin »
                place = following.values["step"] or following.values["phase"]
                values = {**values, ("triggered_at" if values.get("triggered") else "entered_at"): place}
            target = self._last_entity(index) or self._next_entity(index)
            if target is None:
                if values.get("pending"):  # « une capacité attend d'aller sur la pile »
                    self.plan.pending_triggers.append({"name": "capacité déclenchée", "controller": "?"})
                    return
                if values.get("unblocked") or not values or values == {"phased_out": False}:
                    return  # « toujours dans cette phase »: no creature is said to be in phase
                raise Gap("de quelle créature parlez-vous ?")
            target.state.update({k: v for k, v in values.items() if k not in ("without", "abilities")})
            if values.get("taken_by") in (ME, OPPONENT) and target.words.owner is not None:
                target.words = replace(target.words, owner=None)  # its controller is who took it
            if "abilities" in values:
                target.words = replace(target.words, abilities=target.words.abilities + values["abilities"])
            if "without" in values:
                target.words = replace(target.words, without=target.words.without + values["without"])
        elif part.kind == "blocked":
            attacker = values["attacker"]
            if attacker is not None:
                self.entity(attacker)
            blockers = [self.entity(b) for b in values["blockers"]]
            if attacker is None:
                found: Entity | None = next((e for e in reversed(self.entities) if e.attacking
                                             and e not in blockers), None)
                if found is None:  # « Mon 3/3 sans piétinement est bloqué par un 1/1 »
                    found = next((e for e in reversed(self.entities) if e not in blockers), None)
                if found is None:
                    raise Gap("bloque quelle créature ?")
                attacking = found
            else:
                attacking = self.entity(attacker)
            attacking.attacking = True
            for blocker in blockers:
                blocker.blocking = str(id(attacking))
        elif part.kind == "order":
            ordered = [self.entity(c) for c in values["creatures"]]
            attacker = next((e for e in self.entities if e.attacking and e not in ordered), None)
            if attacker is None:
                raise Gap("l'ordre des bloqueurs de quelle créature ?")
            attacker.state["damage_order"] = [str(id(e)) for e in ordered]
        elif part.kind == "attack":
            creatures = values["creatures"] or ()
            if not creatures:
                last = self._last_entity(index)
                if last is not None:
                    last.attacking = True
            for words in creatures:
                self.entity(words).attacking = True
                if values.get("planeswalker"):  # « son Ours attaque le planeswalker « Jace » de Chloé »
                    self.entity(words).state["attacks"] = values["planeswalker"]
            if values.get("planeswalker"):
                self.walkers.append((values["planeswalker"], values["planeswalker_controller"]))

    def _after_is_next(self, question: dict[str, Any]) -> None:
        """« Après l'entretien, quelle étape ? »: steps only, then where or next: the step that
        follows the last one named (not a replay)."""
        told = [p for p in self.parts if p.kind in ("events", "pass")]
        if len(told) != 1 or told[0].kind != "events":
            return
        events = told[0].values["events"]
        if any(kind != "step" for kind, _ in events):
            return
        said = {p.values["step"] or p.values["phase"] for p in self.parts if p.kind == "moment"}
        if said and {value for _, value in events} <= said:
            # « au début de mon étape de pioche, après ma pioche »: the action of that step
            self.parts = tuple(p for p in self.parts if p is not told[0])
            return
        if said:
            return
        if question["ask"] not in ("where", "next"):
            # « après la déclaration des attaquants, il est encore en combat ? »: that step
            if len(events) != 1:
                return
            step = events[0][1]
            self.parts = tuple(Part(kind="moment", values={"phase": _PHASE_OF.get(step, step), "owner": None,
                                                           "step": step if step in _PHASE_OF else None})
                               if p is told[0] else p for p in self.parts)
            return
        last = events[-1][1]
        phase = _PHASE_OF.get(last, last)
        self.parts = tuple(Part(kind="moment", values={"phase": phase, "step": None if phase == last else last,
                                                       "owner": None}) if p is told[0] else p for p in self.parts)
        question["ask"] = "next"

    def _turn_owner(self) -> str | None:
        for index, part in enumerate(self.parts):
            if part.kind == "turn":
                return _role(part.values["owner"], self, index)
        for index, part in enumerate(self.parts):
            if part.kind == "moment" and part.values.get("owner"):
                return _role(part.values["owner"], self, index)
        return None

    def _default_owner(self, at: int, question: dict[str, Any]) -> str | None:
        """Whose turn, when no one said: the caster of a sorcery-speed spell on the stack, the
        attacking creatures' controller, else the player the question is about."""
        for index, part in enumerate(self.parts):
            item = part.values.get("item") if part.kind == "stack" else None
            if item and item.get("owner") and item["kind"] in _SORCERY_SPEED:
                return _role(item["owner"], self, index)
        for entity in self.entities:
            if (entity.attacking or entity.words.role == "attacker") and entity.words.owner:
                return entity.words.owner
        for entity in self.entities:
            if (entity.blocking or entity.words.role == "blocker") and entity.words.owner:
                return OPPONENT if entity.words.owner == ME else ME
        ask = question["ask"]
        said_player = question.get("player")
        if said_player in (None, HE):
            said_player = self._speaker_before(at)
        if ask == "discard" and said_player == OPPONENT:
            # only the active player discards at cleanup (514.1): whose turn decides the answer
            raise Gap("c'est le tour de qui ? (seul le joueur actif défausse au nettoyage)")
        if ask in ("cast", "play_land", "discard", "mana_burn"):
            said = question.get("player")
            if said in (ME, OPPONENT):
                return str(said)
            if said in (None, HE):
                return self._speaker_before(at) if self._speaker_before(at) in (ME, OPPONENT) else None
        if ask == "attack":
            subject = self._question_creature(at, question)
            if subject is not None and subject.words.owner:
                return str(subject.words.owner)
        if ask == "block":
            blocker = self._blocker(at, question)
            if blocker is not None and blocker.words.owner:
                return OPPONENT if blocker.words.owner == ME else ME
        return None

    # ---------------------------------------------------------------- the moment
    def _moment(self, at: int, question: dict[str, Any]) -> None:
        plan = self.plan
        moments = [p.values for p in self.parts if p.kind == "moment"]
        # « un 1/1 que mon adversaire sacrifie pendant l'étape des bloqueurs »: when it left, not
        # the moment asked about (when another is said)
        attached = [p.values for i, p in enumerate(self.parts) if p.kind == "moment" and i > 0
                    and self.parts[i - 1].kind == "state" and self.parts[i - 1].values.get("leaves")]
        if attached and len(attached) < len(moments):
            moments = [m for m in moments if not any(m is a for a in attached)]
        if question["ask"] == "triggers" and len({(m["phase"], m["step"]) for m in moments}) > 1:
            # « déclenchée pendant mon dégagement : qu'est-ce qui va sur la pile au début de
            # l'entretien ? »: the moment of the question; the others, of what triggered
            after = [p.values for p in self.parts[at + 1:] if p.kind == "moment"]
            moments = after[-1:] or moments[-1:]
        precise = [m for m in moments if not (m["phase"] == "combat" and m["step"] is None and not m.get("end"))]
        moments = precise or moments  # « pendant le combat, à l'étape des bloqueurs »: the step
        steps = {m["phase"] for m in moments if m["step"] is not None}
        if len(steps) == 1:  # « pendant mon entretien … de toute la phase de début »: the step
            moments = [m for m in moments if m["step"] is not None or m["phase"] not in steps]
        if not moments:  # « j'ai joué un terrain dans ma phase principale »: that phase
            moments = [{"phase": p.values["place"][0], "step": p.values["place"][1], "owner": None}
                       for p in self.parts if p.kind == "land_played" and p.values.get("place")]
        if not moments and any(p.kind == "stack" and (p.values.get("item") or {}).get("kind") == "combat_damage"
                               for p in self.parts):
            moments = [{"phase": "combat", "step": "combat_damage", "owner": None}]  # blessures sur la pile
        places = {(m["phase"], m["step"]) for m in moments}
        if len(places) > 1:
            if any(p.kind in ("pass", "events") for p in self.parts):
                return  # several moments of a told sequence: the replay follows them
            raise Gap("plusieurs moments du tour : je ne sais pas lequel est le bon")
        if not moments:
            return
        moment = moments[0]
        _check_turn_edge(moment, question["ask"])
        plan.phase, plan.step = moment["phase"], moment["step"]
        plan.damage_step = moment.get("damage_step")
        plan.moment_end = bool(moment.get("end")) or any(p.kind == "phase_end" for p in self.parts)
        if plan.step is None and plan.phase == "combat" and not plan.moment_end:
            plan.phase = None  # « pendant le combat »: which step, the question says (or its default)
            return
        if plan.step is None and plan.phase in ("beginning", "ending") and not plan.moment_end:
            raise Gap("quelle étape de la phase ? (la phase seule ne suffit pas)")
        if plan.step is None and plan.phase in ("beginning", "combat", "ending"):
            plan.step = {"beginning": "draw", "combat": "end_of_combat", "ending": "cleanup"}[plan.phase]

    # ---------------------------------------------------------------- state parts
    def _state(self, part: Part) -> None:
        plan = self.plan
        values = part.values
        if part.kind == "stack":
            item = values["item"] or {"kind": "instant", "owner": None}
            plan.stack.append({"kind": item["kind"], "controller": "?" if item["owner"] is None
                               else self.player(item["owner"])})
            if item.get("cost"):  # « je joue un éphémère qui coûte 2 »: paid from the mana said before
                if "?" not in plan.mana or plan.mana["?"] < item["cost"]:
                    raise Gap("payé avec quel mana ?")
                plan.mana["?"] -= item["cost"]
            plan.response = plan.response or bool(values.get("response"))
        elif part.kind == "response":
            plan.response = True
        elif part.kind == "mana":
            plan.mana["?"] = values["amount"]
        elif part.kind == "hand":
            plan.hands["?"] = values["count"]
        elif part.kind == "land_played":
            plan.lands_played = values["played"]
        elif part.kind == "first_turn":
            plan.first_turn = True
        elif part.kind == "told_of":
            plan.told_of = True
        elif part.kind == "names" and not plan.players:
            plan.names = {self.player(role): typed for role, typed in values["names"]}
        elif part.kind == "priority":
            plan.priority = self.player(values["player"])
        elif part.kind == "skip":
            plan.skip.append(values["place"])
        elif part.kind == "land_plays":
            plan.land_plays = values["count"]
        elif part.kind == "max_hand":
            plan.max_hand = values["size"]
            plan.max_hand_said = True

    def _fill_owned(self, player: str) -> None:
        plan = self.plan
        if "?" in plan.mana:
            plan.mana = {player: plan.mana.pop("?")}
        if "?" in plan.hands:
            plan.hands = {player: plan.hands.pop("?")}
        for item in plan.stack:
            if item["controller"] == "?":
                item["controller"] = other(player) if plan.response else FIRST

    def _creatures_out(self) -> None:
        """The creatures as the format writes them (names unique)."""
        plan = self.plan
        taken: set[str] = set()
        for entity in self.entities:
            entity.name = self._name(entity, taken)
            taken.add(entity.name)
        for walker, controller in self.walkers:
            if controller is None:
                raise Gap(f"à qui est le planeswalker {walker} ?")
            controller = controller if controller in plan.players else self.player(controller)
            plan.permanents.append({"name": walker, "controller": controller, "card_types": ["planeswalker"]})
        for item in plan.pending_triggers:
            if item["controller"] == "?":
                item["controller"] = plan.active
        for entity in self.entities:
            if entity.state.get("pending") and not entity.trigger:
                entity.trigger = True
                plan.pending_triggers.append({"name": entity.name, "controller": self._controller(entity)})
        attackers = [e for e in self.entities if e.attacking or e.words.role == "attacker"]
        for entity in self.entities:  # « le bloqueur » of the only attacker blocks it
            if entity.words.role == "blocker" and entity.blocking is None and len(attackers) == 1 \
                    and attackers[0] is not entity:
                entity.blocking = str(id(attackers[0]))
        names = {str(id(e)): e.name for e in self.entities}
        gone = {str(id(e)) for e in self.entities if e.state.get("leaves")}
        if gone and plan.events is None and not self._asks() & {"deals_damage"}:
            raise Gap("une créature sacrifiée ou détruite : à quelle question ?")
        for entity in self.entities:
            if entity.trigger or entity.state.get("planeswalker"):
                continue
            if str(id(entity)) in gone and plan.events is None:
                plan.notes.append(f"{entity.name} a quitté le champ de bataille")
                continue  # not in the situation
            words = entity.words
            words = entity.words
            controller = self._controller(entity)
            data: dict[str, Any] = {"name": entity.name, "controller": controller}
            if words.power is not None:
                data["power"], data["toughness"] = words.power, words.toughness
            abilities = [a for a in dict.fromkeys(words.abilities) if a not in words.without]
            if abilities:
                data["abilities"] = abilities
            if words.colors:
                data["colors"] = list(words.colors)
            if words.types:
                data["types"] = list(words.types)
            if words.card_types:
                data["card_types"] = list(words.card_types)
            if entity.state.get("damage_order"):
                data["damage_order"] = [names[i] for i in entity.state["damage_order"]]
            if entity.state.get("attacks"):
                data["attacks"] = entity.state["attacks"]
            if entity.state.get("arrived_in_turn_of") and entity.state.get("since_turn_start") is None:
                # « arrivée pendant le tour de mon adversaire »: since the start of this turn if that was another turn
                data["since_turn_start"] = self.player(entity.state["arrived_in_turn_of"]) != plan.active
            for key in ("tapped", "since_turn_start", "phased_out", "phasing", "doesnt_untap", "damage", "is_creature",
                        "cant_attack_alone", "attack_cost"):
                if entity.state.get(key) is not None:
                    data[key] = entity.state[key]
            attacking = entity.attacking or words.role == "attacker" or bool(entity.state.get("unblocked"))
            if plan.events is None and plan.step in _COMBAT_STEPS and attacking:
                data["attacking"] = True
            if plan.events is None and entity.blocking is not None and plan.step in _COMBAT_STEPS[1:]:
                data["blocking"] = names[entity.blocking]
            if plan.events is None and any(e.blocking == str(id(entity)) and str(id(e)) in gone for e in self.entities):
                data["blocked"] = True  # its blocker has left: it stays blocked
            plan.creatures.append(data)

    def _asks(self) -> set[str]:
        return {q["ask"] for q in self.plan.questions}

    def _name(self, entity: Entity, taken: set[str]) -> str:
        words = entity.words
        if words.name:
            base = words.name
        else:
            label = f"{words.power}/{words.toughness}" if words.power is not None else "créature"
            base = f"{label} de {self._controller(entity)}"
        name, count = base, 2
        while name in taken:
            name = f"{base} ({count})"
            count += 1
        return name

    def _controller(self, entity: Entity) -> str:
        words = entity.words
        if self.plan.players:  # players named: an attacker is the active player's
            if entity.state.get("controller"):
                return str(entity.state["controller"])
            if entity.attacking or words.role == "attacker":
                return self.plan.active
            raise Gap(f"à qui est {words.name or 'cette créature'} ?")
        if entity.state.get("taken_by") in (ME, OPPONENT):  # « dont j'ai pris le contrôle »
            return self.player(entity.state["taken_by"])
        if words.owner is not None:
            return self.player(words.owner)
        if entity.attacking or words.role == "attacker":
            return FIRST
        if entity.blocking is not None or words.role == "blocker":
            return SECOND
        return self.plan.me

    # ---------------------------------------------------------------- questions
    def _priority_to(self, player: str) -> None:
        """The player asked about holds priority, if anyone receives it in that step."""
        plan = self.plan
        if plan.phase is None or plan.priority is not None or plan.events is not None:
            return
        probe = plan.situation()
        probe["questions"] = [{"ask": "priority"}]
        probe.pop("creatures", None)
        answer = self.run(probe)["answers"][0]["answer"]
        if answer is not None:
            plan.priority = player

    def _stack_assumed(self) -> None:
        """The empty stack, when nothing says what is on it, is said as an assumption."""
        if not any(p.kind in ("stack", "stack_empty", "response", "events", "pass") for p in self.parts):
            self.plan.notes.append("je suppose la pile vide : la question ne dit pas ce qui s'y trouve")

    def _q_cast(self, at: int, question: dict[str, Any]) -> None:
        self._stack_assumed()
        player = self.player(question["player"], at=at, default=self.plan.me)
        self._fill_owned(player)
        if self.plan.response and not self.plan.stack:
            raise Gap("en réponse à quoi ? (quel sort ou capacité est sur la pile)")
        self._priority_to(player)
        self.plan.questions.append({"ask": "cast", "player": player, "kind": question["kind"]})

    def _q_play_land(self, at: int, question: dict[str, Any]) -> None:
        player = self.player(question["player"], at=at, default=self.plan.me)
        if question.get("another"):
            self.plan.lands_played = max(self.plan.lands_played, 1)
        elif not any(p.kind in ("land_played", "events", "pass") for p in self.parts):
            self.plan.notes.append("je suppose qu'aucun terrain n'a encore été joué ce tour : la question ne le dit pas")
        self._stack_assumed()
        self._fill_owned(player)
        self._priority_to(player)
        self.plan.questions.append({"ask": "play_land", "player": player})

    def _question_creature(self, at: int, question: dict[str, Any]) -> Entity | None:
        words = question.get("creature")
        if words is not None:
            return self.entity(words)
        return self._last_entity(at)

    def _q_attack(self, at: int, question: dict[str, Any]) -> None:
        plan = self.plan
        entity = self._question_creature(at, question)
        if entity is None:
            raise Gap("quelle créature ?")
        controller = self._controller(entity)
        known = entity.state.get("since_turn_start") is not None or controller != FIRST or any(
            a in entity.words.abilities for a in ("haste", "defender")) or "Mur" in entity.words.types \
            or entity.state.get("tapped") or entity.state.get("phased_out") or entity.state.get("arrived_in_turn_of")
        if not known:
            raise Gap("depuis quand contrôlez-vous cette créature ? (arrivée ce tour-ci, ou depuis le début du tour)")
        entity.attacking = False
        if plan.phase is None:
            plan.phase, plan.step = "combat", "declare_attackers"
        self._fill_owned(FIRST)
        plan.questions.append({"ask": "attack", "creature": id(entity)})

    def _blocker(self, at: int, question: dict[str, Any]) -> Entity | None:
        if question.get("creature") is not None:
            return self.entity(question["creature"])
        attacker = question.get("attacker")
        for part in reversed(self.parts[:at]):
            for words in _creature_words(part):
                entity = self.entity(words)
                if attacker is None or entity is not self.entity_of.get(id(attacker)):
                    return entity
        return None

    def _q_block(self, at: int, question: dict[str, Any]) -> None:
        plan = self.plan
        blocker = self._blocker(at, question)
        if blocker is None:
            raise Gap("quelle créature bloque ?")
        attacker_words = question.get("attacker")
        attacker: Entity | None
        if attacker_words is not None:
            attacker = self.entity(attacker_words)
        else:
            attacker = next((e for e in self.entities if e is not blocker and (e.attacking or e.words.role == "attacker")),
                            None)
        if attacker is None and blocker.state.get("tapped") is not None:
            # « Ma créature engagée peut-elle bloquer ? »: about the blocker itself; any attacker
            attacker = self.entity(CreatureWords(name="attaquant quelconque", role="attacker"))
            plan.notes.append("un attaquant quelconque (sans capacité) de A")
        if attacker is None or attacker is blocker:
            raise Gap("bloquer quelle créature attaquante ?")
        said = attacker.words
        if not (said.name or said.power is not None or said.abilities or said.without or said.role
                or attacker.attacking or blocker.words.abilities):
            # « peut-il bloquer sa créature ? »: whether it attacks and what it has decide
            raise Gap("sa créature attaque-t-elle, et avec quelles capacités (vol, peur…) ?")
        attacker.attacking = True
        blocker.blocking = None
        if plan.phase is None:
            plan.phase, plan.step = "combat", "declare_blockers"
        self._fill_owned(FIRST)
        plan.questions.append({"ask": "block", "creature": id(blocker), "attacker": id(attacker)})

    def _simple(self, ask: str, at: int, question: dict[str, Any], *, with_player: bool) -> None:
        player = self.player(question.get("player"), at=at, default=self.plan.me)
        self._fill_owned(player)
        entry: dict[str, Any] = {"ask": ask}
        if with_player:
            entry["player"] = player
        self.plan.questions.append(entry)

    def _q_priority(self, at: int, question: dict[str, Any]) -> None:
        self._simple("priority", at, question, with_player=False)

    def _q_where(self, at: int, question: dict[str, Any]) -> None:
        self._simple("where", at, question, with_player=False)

    def _q_next(self, at: int, question: dict[str, Any]) -> None:
        self._attackers_said()
        self._simple("next", at, question, with_player=False)

    def _attackers_said(self) -> None:
        """At the declare-attackers step, what follows depends on whether creatures attack
        (2004 308.4, 2010 508.8): said, or asked."""
        plan = self.plan
        if plan.step == "declare_attackers" and plan.events is None and not self.entities \
                and not any(p.kind in ("no_attackers", "attackers_none", "pass", "events") for p in self.parts):
            raise Gap("des créatures ont-elles été déclarées attaquantes ? (la suite du combat en dépend)")

    def _q_rest_of_turn(self, at: int, question: dict[str, Any]) -> None:
        self._attackers_said()
        self._simple("rest_of_turn", at, question, with_player=False)

    def _q_defending_players(self, at: int, question: dict[str, Any]) -> None:
        plan = self.plan
        if len(plan.players) > 2 and "attack_option" not in plan.game and plan.game.get("variant") not in ("two_headed_giant", "archenemy"):
            raise Gap("avec quelle option d'attaque (attaquer plusieurs joueurs, à gauche, à droite) ?")
        if plan.phase is None:
            plan.phase, plan.step = "combat", "declare_attackers"
            plan.notes.append("moment non précisé : l'étape de déclaration des attaquants")
        plan.questions.append({"ask": "defending_players"})

    def _q_defending_player(self, at: int, question: dict[str, Any]) -> None:
        plan = self.plan
        entity = self.entity(question["creature"])
        entity.attacking = True
        if plan.phase is None:
            plan.phase, plan.step = "combat", "declare_attackers"
        plan.questions.append({"ask": "defending_player", "creature": id(entity)})

    def _q_in_combat(self, at: int, question: dict[str, Any]) -> None:
        """« Est-elle encore en combat ? »: what is said of it as state (tapped, phased out, no
        longer a creature); a change of control or a regeneration is not a state: not guessed."""
        plan = self.plan
        entity = self._last_entity(at)
        if entity is None:
            raise Gap("quelle créature ?")
        if entity.state.get("regenerates") or entity.state.get("control_taken"):
            self.effect = entity  # replayed: declared, then the effect (`_effect_replay`)
        in_combat_said = entity.attacking or entity.blocking is not None or entity.words.role is not None
        if not in_combat_said:
            raise Gap("cette créature attaque-t-elle ou bloque-t-elle ?")
        if entity.blocking is None and entity.words.role != "blocker":
            entity.attacking = True
        elif entity.blocking is None and not any(e.attacking for e in self.entities):
            # « le bloqueur de mon adversaire »: it blocks an attacker, whichever
            attacker = self.entity(CreatureWords(name="attaquant quelconque", role="attacker"))
            attacker.attacking = True
            entity.blocking = str(id(attacker))
            plan.notes.append("un attaquant quelconque (sans capacité) de A")
        if plan.phase is None:
            plan.phase, plan.step = "combat", "declare_blockers"
        plan.questions.append({"ask": "in_combat", "creature": id(entity)})

    def _q_untap(self, at: int, question: dict[str, Any]) -> None:
        plan = self.plan
        if plan.step not in (None, "untap"):
            raise Gap("le dégagement se demande à l'étape de dégagement")
        if not self.entities:
            raise Gap("quels permanents sont engagés ?")
        plan.phase, plan.step = "beginning", "untap"
        plan.questions.append({"ask": "untap"})

    def _q_happens(self, at: int, question: dict[str, Any]) -> None:
        """« Que se passe-t-il ? » at the untap or the cleanup step: what that step does."""
        step = self.plan.step
        if step == "untap":
            self._q_untap(at, question)
        elif step == "cleanup":
            self._fill_owned(self.plan.me)
            self.plan.effects = [dict(p.values) for p in self.parts if p.kind == "effect"]
            self.plan.questions.append({"ask": "cleanup"})
        else:
            raise Gap("« que se passe-t-il » : à quelle étape, et qu'est-ce que vous voulez savoir ?")

    def _q_triggers(self, at: int, question: dict[str, Any]) -> None:
        """« Dans quel ordre vont-elles sur la pile ? »: each card named is the source of a
        triggered ability « au début de » the step asked about (of an earlier step: waiting)."""
        plan = self.plan
        step = plan.step or (plan.phase if plan.phase in ("precombat_main", "postcombat_main") else None)
        if step is None:
            raise Gap("au début de quelle étape ?")
        if not self.entities:
            raise Gap("quelles capacités se déclenchent ?")
        for entity in self.entities:
            words = entity.words
            if words.name is None or words.power is not None or entity.attacking or entity.blocking \
                    or len(words.name) == 1:  # « A », « B »: players, not cards
                raise Gap("quelles capacités se déclenchent, de quelles cartes ?")
            entity.trigger = True
            controller = self.player(words.owner) if words.owner else plan.me
            triggered_at = entity.state.get("triggered_at")
            if triggered_at in _ORDER and step in _ORDER and _ORDER.index(triggered_at) < _ORDER.index(step):
                plan.pending_triggers.append({"name": words.name, "controller": controller})
                continue
            trigger: dict[str, Any] = {"name": words.name, "controller": controller, "at": step}
            if entity.state.get("entered") and entity.state.get("entered_at") in (None, step):
                trigger["entered_this_step"] = True
            plan.triggers.append(trigger)
        plan.questions.append({"ask": "triggers"})

    def _q_declare_attackers(self, at: int, question: dict[str, Any]) -> None:
        """« Je peux déclarer mon Ours comme attaquant ? », « j'attaque avec … : c'est une
        déclaration légale ? »: that set of attackers, with what is said of costs."""
        plan = self.plan
        declared = [self.entity(question["creature"])] if question.get("creature") is not None else \
            [e for e in self.entities if e.attacking]
        if not declared:
            raise Gap("quelles créatures attaquent ?")
        if plan.phase is None:
            plan.phase, plan.step = "combat", "declare_attackers"
        costs = [p.values["cost"] for p in self.parts if p.kind == "attack_cost"]
        for entity in self.entities:
            entity.attacking = False  # being declared: not attacking yet
            if costs:
                entity.state["attack_cost"] = costs[-1]
        self._fill_owned(FIRST)
        plan.questions.append({"ask": "declare_attackers", "creatures": [id(e) for e in declared]})

    def _q_turn_order(self, at: int, question: dict[str, Any]) -> None:
        if not question.get("count"):
            raise Gap("combien de tours ?")
        self.plan.questions.append({"ask": "turn_order", "count": question["count"]})

    def _q_combat_timing(self, at: int, question: dict[str, Any]) -> None:
        """« Je peux le lancer ? » of a spell « seulement avant la déclaration des bloqueurs »."""
        said = [p.values["when"] for p in self.parts if p.kind == "timing"]
        when = question.get("when") or (said[-1] if said else None)
        if when is None:
            raise Gap("lancer quoi ? (un éphémère, un rituel… ou un sort « seulement avant/après … » du combat)")
        self._fill_owned(self.plan.me)
        self.plan.questions.append({"ask": "combat_timing", "when": when})

    def _q_discard(self, at: int, question: dict[str, Any]) -> None:
        if not any(p.kind == "hand" for p in self.parts):
            raise Gap("combien de cartes en main ?")
        if self.plan.phase is None:
            raise Gap("à quel moment du tour ?")
        self._simple("discard", at, question, with_player=True)

    def _q_mana_burn(self, at: int, question: dict[str, Any]) -> None:
        if not any(p.kind == "mana" for p in self.parts):
            raise Gap("combien de mana reste-t-il dans la réserve ?")
        holders = {self.parts[i - 1].values["player"] for i, p in enumerate(self.parts)
                   if p.kind == "mana" and i and self.parts[i - 1].kind == "speaker"}
        if question.get("player") in (ME, OPPONENT) and holders & {ME, OPPONENT} - {question["player"]}:
            # « mon adversaire a 2 manas … je perds combien ? »: whose mana, whose loss
            raise Gap("le mana est dans la réserve d'un joueur, la question porte sur l'autre : lequel ?")
        self._simple("mana_burn", at, question, with_player=True)

    def _q_damage_steps(self, at: int, question: dict[str, Any]) -> None:
        plan = self.plan
        if not self.entities and not any(p.kind == "no_attackers" for p in self.parts):
            raise Gap("quelles créatures combattent ?")
        if any(p.kind == "no_attackers" for p in self.parts):
            plan.phase = plan.step = None
            plan.questions.append({"ask": "damage_steps"})
            return
        for entity in self.entities:
            if entity.blocking is None and entity.words.role != "blocker":
                entity.attacking = True
        if plan.phase is None or plan.step not in ("declare_blockers", "combat_damage"):
            plan.phase, plan.step = "combat", "declare_blockers"
        plan.questions.append({"ask": "damage_steps"})

    def _q_deals_damage(self, at: int, question: dict[str, Any]) -> None:
        plan = self.plan
        entity = self._question_creature(at, question)
        if entity is None:
            raise Gap("quelle créature ?")
        if plan.step != "combat_damage":
            raise Gap("dans quelle étape de blessures de combat ?")
        if entity.blocking is None and entity.words.role != "blocker" and entity.words.owner != OPPONENT:
            entity.attacking = True
        plan.questions.append({"ask": "deals_damage", "creature": id(entity)})

    def _q_assign_damage(self, at: int, question: dict[str, Any]) -> None:
        plan = self.plan
        attacker = next((e for e in self.entities if e.attacking), None)
        if attacker is None:
            raise Gap("quelle créature assigne ses blessures ?")
        assignment: list[tuple[Any, int]] = []
        for amount, (kind, target) in question["shares"]:
            if kind == "creature":
                entity = self.entity(target)
                if entity is not attacker and entity.blocking is None and entity.words.role != "blocker":
                    # « 1 sur Tic et 4 sur Tac »: a name no block was told of (a nickname?)
                    raise Gap(f"« {entity.words.name or 'cette créature'} » bloque-t-elle ? (la répartition en dépend)")
                assignment.append((id(entity), amount))
            else:
                assignment.append(("player", amount))
        plan.phase, plan.step = "combat", "combat_damage"
        plan.questions.append({"ask": "assign_damage", "creature": id(attacker), "assignment": assignment})

    def _q_damage_dealt(self, at: int, question: dict[str, Any]) -> None:
        plan = self.plan
        if not any(e.attacking for e in self.entities):
            raise Gap("quelles créatures attaquent ?")
        plan.questions.append({"ask": "damage_dealt"})
        if question.get("to_player"):
            plan.notes.append("to_player")
        plan.events = []  # replayed from the start of the turn to its combat damage

    # ---------------------------------------------------------------- replays
    def _replay(self) -> None:
        """Entity ids in the questions become names; a told sequence becomes `events`."""
        plan = self.plan
        names = {id(e): e.name for e in self.entities}
        for q in plan.questions:
            for key in ("creature", "attacker"):
                if key in q:
                    q[key] = names[q[key]]
            if "creatures" in q:
                q["creatures"] = [names[c] for c in q["creatures"]]
            if "assignment" in q:
                q["assignment"] = {names.get(t, SECOND) if t != "player" else SECOND: n
                                   for t, n in q["assignment"]}
        told = [p for p in self.parts if p.kind in ("pass", "events", "no_attackers")]
        if self.effect is not None:
            if told:
                raise Gap("je ne sais pas rejouer à la fois ce qui est raconté et cet effet")
            self._effect_replay(self.effect)
            return
        if told and plan.events is None:
            if any(p.kind == "declared" for p in self.parts) and not any(e.attacking for e in self.entities):
                raise Gap("quelles créatures attaquent et bloquent ?")
            for data in plan.creatures:  # declared by the replay
                data.pop("attacking", None)
                data.pop("blocking", None)
        if plan.events is not None:
            self._combat_replay()
        elif told:
            self._told_replay()

    def _at(self, where: dict[str, Any], phase: str, step: str | None) -> bool:
        return bool(where.get("phase") == phase and (step is None or where.get("step") == step))

    def _at_of(self, phase: str, step: str | None) -> Callable[[dict[str, Any]], bool]:
        return lambda where: self._at(where, phase, step)

    def _told_replay(self) -> None:
        """A sequence of what happened (« on passe tous les deux dans mon entretien ») replayed
        from the start of the turn, then the question asked where it leads."""
        plan = self.plan
        start_phase, start_step = plan.phase, plan.step
        if start_phase is None and not any(p.kind in ("events", "no_attackers", "moment") for p in self.parts):
            raise Gap("à partir de quel moment du tour ? (étape ou phase)")
        plan.events = []
        told = [p for p in self.parts if p.kind in ("pass", "events", "moment", "attack", "blocked",
                                                      "no_attackers", "stack")]
        for i in range(len(told) - 1):  # « on passe tous les deux dans mon entretien »: there, then pass
            if told[i].kind == "pass" and told[i + 1].kind == "moment":
                told[i], told[i + 1] = told[i + 1], told[i]
        if plan.moment_end:
            told = [p for p in told if p.kind != "moment"]
        previous: Part | None = None
        for part in told:
            prior, previous = previous, part
            if part.kind == "events":
                for kind, value in part.values["events"]:
                    if kind == "step":
                        self._pass_until(_past_of(value))
                    else:
                        self._pass_until(lambda w: w.get("main") is not None)
                        plan.events.append({"play_land": FIRST})
            elif part.kind == "moment":
                self._pass_until(self._at_of(part.values["phase"], part.values["step"]))
            elif part.kind == "pass":
                who = part.values["who"]
                if who == "resolve" and prior is not None and prior.kind == "pass":
                    continue  # « on passe tous les deux et il se résout »: the same passes
                count = 2 if who in ("all", "resolve") else 1
                plan.events.extend(["pass"] * count)
            elif part.kind == "attack" and part.values["creatures"]:
                self._pass_until(lambda w: w.get("step") == "declare_attackers")
                plan.events.append({"declare_attackers": [self.entity(c).name for c in part.values["creatures"]]})
            elif part.kind == "blocked" and part.values["blockers"]:
                self._pass_until(lambda w: w.get("step") == "declare_blockers")
                attacker = next((e for e in self.entities if e.attacking), None)
                if attacker is None:
                    raise Gap("bloque quelle créature ?")
                plan.events.append({"declare_blockers": {self.entity(b).name: attacker.name
                                                         for b in part.values["blockers"]}})
            elif part.kind == "no_attackers":
                self._pass_until(lambda w: w.get("step") == "declare_attackers")
                plan.events.append({"declare_attackers": []})
            elif part.kind == "stack" and part.values.get("item"):
                item = part.values["item"]
                caster = self.player(item["owner"]) if item["owner"] else FIRST
                self._give_priority(caster)
                plan.events.append({"cast": item["kind"], "by": caster} if item["kind"] not in
                                   ("ability", "trigger") else {"activate": "ability", "by": caster})
        if plan.moment_end:
            self._pass_until(lambda w: not self._at(w, start_phase or "", start_step))
        plan.stack, plan.priority = [], None
        for q in plan.questions:  # after what was told, who holds priority now: `where` says
            if q["ask"] == "priority":
                q["ask"] = "where"

    def _give_priority(self, player: str) -> None:
        where = self._where()
        if where.get("priority") not in (None, player):
            self.plan.events = [*(self.plan.events or []), "pass"]

    def _where(self) -> dict[str, Any]:
        probe = self.plan.situation()
        probe["questions"] = [{"ask": "where"}]
        answer: dict[str, Any] = self.run(probe)["answers"][0]["answer"]
        return answer

    def _effect_replay(self, entity: Entity) -> None:
        """« Mon Ours attaquant régénère pendant l'étape des bloqueurs »: the turn replayed to
        that step, attackers and blockers declared as described, then the effect."""
        plan = self.plan
        step = plan.step if plan.step in _COMBAT_STEPS[:2] else None
        if step is None:
            raise Gap("pendant quelle étape du combat ?")
        attackers = [c["name"] for c in plan.creatures if c.pop("attacking", False)]
        blocks = {c["name"]: c.pop("blocking") for c in plan.creatures if "blocking" in c}
        plan.events = []
        self._pass_until(lambda w: w.get("step") == "declare_attackers")
        plan.events.append({"declare_attackers": attackers})
        if step == "declare_blockers":
            self._pass_until(lambda w: w.get("step") == "declare_blockers")
            plan.events.append({"declare_blockers": blocks})
        plan.notes.append(("attaquants déclarés : " + ", ".join(attackers)) if attackers else "aucun attaquant")
        if entity.state.get("regenerates"):
            plan.events.append({"regenerate": entity.name})
            plan.notes.append(f"{entity.name} est régénérée")
        else:
            controller = self._controller(entity)
            by = self.player(entity.state["by"]) if entity.state.get("by") not in (None, HE) else other(controller)
            if by == controller:
                raise Gap("qui prend le contrôle de cette créature ?")
            plan.events.append({"gain_control": {"creature": entity.name, "by": by}})
            plan.notes.append(f"{by} prend le contrôle de {entity.name}")

    def _combat_replay(self) -> None:
        """The turn replayed from its start up to its combat damage: declarations as described."""
        plan = self.plan
        attackers = [c["name"] for c in plan.creatures if c.pop("attacking", False)]
        blocks = {c["name"]: c.pop("blocking") for c in plan.creatures if "blocking" in c}
        for entity in self.entities:
            if entity.attacking and entity.name not in attackers:
                attackers.append(entity.name)
            if entity.blocking is not None and entity.name not in blocks:
                blocks[entity.name] = next(e.name for e in self.entities if str(id(e)) == entity.blocking)
        plan.events = []
        self._pass_until(lambda w: w.get("step") == "declare_attackers")
        plan.events.append({"declare_attackers": attackers})
        self._pass_until(lambda w: w.get("step") == "declare_blockers")
        plan.events.append({"declare_blockers": blocks})
        gone = [e.name for e in self.entities if e.state.get("leaves")]
        if gone:
            on_stack = any(p.kind == "stack" and (p.values.get("item") or {}).get("kind") == "combat_damage"
                           for p in self.parts)
            if on_stack:  # « une fois les blessures sur la pile, il sacrifie le Fanatique »
                self._pass_until(lambda w: w.get("step") == "combat_damage")
            plan.events.extend({"leaves_play": name} for name in gone)
            plan.notes.append(", ".join(gone) + " quitte le champ de bataille"
                              + (" (blessures sur la pile)" if on_stack else " après les déclarations"))
        strikes = any(a in c.get("abilities", ()) for c in plan.creatures for a in ("first_strike", "double_strike"))
        strikes = strikes and plan.damage_step != "first_strike"  # « dans la première étape des blessures »
        self._pass_until(lambda w: w.get("step") == "end_of_combat" if strikes or gone else bool(self._dealt()))

    def _dealt(self) -> list[Any]:
        probe = self.plan.situation()
        probe["questions"] = [{"ask": "damage_dealt"}]
        answer: list[Any] = self.run(probe)["answers"][0]["answer"] or []
        return answer

    def _pass_until(self, reached: Callable[[dict[str, Any]], bool]) -> None:
        plan = self.plan
        for _ in range(60):
            where = self._where()
            if reached(where):
                return
            if where.get("turn_ended"):
                break
            # Both players pass in succession (one check a step, not one a pass): the active
            # player first holds priority; after the other one's pass the step ends.
            passes = 2 if where.get("priority") == FIRST else 1
            plan.events = [*(plan.events or []), *(["pass"] * passes)]
        raise Gap("je n'arrive pas à rejouer le tour jusque-là")


_ORDER = ("untap", "upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
          "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main", "end_of_turn", "cleanup")


def _check_turn_edge(moment: dict[str, Any], ask: str) -> None:
    """« au début de mon tour » is the untap step for the untap question, « à la fin de mon
    tour » the cleanup for discard and cleanup; for any other question which step it is decides
    the answer: asked back."""
    if moment.get("turn_start") and ask not in ("untap", "happens"):
        raise Gap("à quel moment du début du tour ? (dégagement, entretien, pioche)")
    if moment.get("turn_end") and ask not in ("discard", "cleanup"):
        raise Gap("à quel moment de la fin du tour ? (étape de fin du tour, nettoyage)")


def _past_of(step: str) -> Callable[[dict[str, Any]], bool]:
    return lambda where: _past(where, step)


def _past(where: dict[str, Any], step: str) -> bool:
    here = where.get("step") or where.get("phase")
    return here in _ORDER and step in _ORDER and _ORDER.index(here) > _ORDER.index(step)


def _role(word: Any, builder: Builder | None = None, at: int | None = None) -> str | None:
    """A player word as the speaker's role (ME or OPPONENT), None when it says nothing of it."""
    if isinstance(word, Entity):
        return "attacker" if word.attacking else "blocker" if word.blocking else word.words.role
    if word in (ME, OPPONENT):
        return str(word)
    if word == HE and builder is not None:
        said = builder._speaker_before(at)
        return said if said in (ME, OPPONENT) else None
    return None


def _creature_words(part: Part) -> list[CreatureWords]:
    values = part.values
    if part.kind == "creature":
        return [values["creature"]]
    if part.kind == "blocked":
        return [*values["blockers"], *([values["attacker"]] if values["attacker"] is not None else [])]
    if part.kind == "attack":
        return list(values["creatures"])
    if part.kind == "question":
        return [w for w in (values.get("attacker"), values.get("creature")) if isinstance(w, CreatureWords)]
    if part.kind == "state" and isinstance(values.get("creature"), CreatureWords):
        return [values["creature"]]
    return []


def _merge(old: CreatureWords, new: CreatureWords) -> CreatureWords:
    """What a second mention adds to a creature."""
    return replace(old, owner=old.owner or new.owner, power=old.power if old.power is not None else new.power,
                   toughness=old.toughness if old.toughness is not None else new.toughness,
                   abilities=tuple(dict.fromkeys(old.abilities + new.abilities)),
                   without=old.without + new.without, colors=tuple(dict.fromkeys(old.colors + new.colors)),
                   types=tuple(dict.fromkeys(old.types + new.types)), role=old.role or new.role)
