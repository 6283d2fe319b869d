"""The slot reader: the facts of a question found by one linear pass over its words.

Owns the reading of the questions the grammar (`judge.ask.reader`) leaves words of: instead of
fitting every word into a rule, one pass fills slots — edition, whose turn, the moment (phases
and steps of `judge.game.turnplan`), mana left, cards in hand, a land already played, an empty
stack, who has priority — and the question kind comes from the words that ask it
(`judge.ask.kinds.asked_kinds`). It emits the same `Part`s as the grammar, for the same
`judge.ask.build.Builder`. It reads only the kinds in `SLOT_KINDS`, and a question is read only
when every word that carries game meaning fills a slot or asks the question: else `None`
(declined, never guessed). The words it reads are data: `[slot_words]` of `rules/ask-words.toml`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from judge.ask.parts import ACTIVE, ME, NONACTIVE, OPPONENT, Part
from judge.ask.words import Word
from judge.game.turnplan import Phase, Step

SLOT_KINDS = ("mana_burn", "discard", "play_land")
SLOT_TABLE = "slot_words"
_YEAR = re.compile(r"(?:19|20)\d\d")
_OWNERS = {"mon": ME, "ma": ME, "son": OPPONENT, "sa": OPPONENT}


@dataclass(frozen=True, slots=True)
class SlotWords:
    """`[slot_words]`: the moments by their words, numbers in words, and each slot's words."""

    moments: tuple[tuple[tuple[str, ...], str, str | None], ...]  # words, phase, step (longest first)
    numbers: dict[str, int]
    mana: frozenset[str]  # said of mana left in the pool (« réserve », « flottants »)
    unspent: frozenset[str]  # after « pas » / « jamais »: mana left unused (« dépensés », « utilisé »)
    ends: frozenset[str]  # a moment's end (« se termine », « finit »)
    lands: frozenset[str]  # a land (« terrain », basic land types)
    land_verbs: frozenset[str]  # playing a land (« poser », « jouer »)
    told_aux: frozenset[str]  # before a participle, a fact told (« j'ai posé »)
    subjects_me: frozenset[str]
    subjects_them: frozenset[str]
    neutral: frozenset[str]  # words said around slots that add nothing (« possible », « bon »)


_STEP_OF = {"untap": (Phase.BEGINNING, Step.UNTAP), "upkeep": (Phase.BEGINNING, Step.UPKEEP),
            "draw": (Phase.BEGINNING, Step.DRAW), "beginning": (Phase.BEGINNING, None),
            "precombat_main": (Phase.PRECOMBAT_MAIN, None), "postcombat_main": (Phase.POSTCOMBAT_MAIN, None),
            "combat": (Phase.COMBAT, None), "beginning_of_combat": (Phase.COMBAT, Step.BEGINNING_OF_COMBAT),
            "end_of_turn": (Phase.ENDING, Step.END_OF_TURN), "ending": (Phase.ENDING, None),
            "cleanup": (Phase.ENDING, Step.CLEANUP)}


@lru_cache(maxsize=1)
def slot_words() -> SlotWords:
    from judge.ask.vocabulary import raw_table
    from judge.normalize import fold

    table = raw_table(SLOT_TABLE)

    def words(key: str) -> frozenset[str]:
        value = table.get(key)
        return frozenset(fold(str(w)) for w in value) if isinstance(value, list) else frozenset()

    def mapping(key: str) -> dict[str, object]:
        value = table.get(key)
        return dict(value) if isinstance(value, dict) else {}

    moments: list[tuple[tuple[str, ...], str, str | None]] = []
    for place, said in mapping("moments").items():
        phase, step = _STEP_OF[place]
        moments.extend((tuple(fold(str(s)).split()), phase, step) for s in (said if isinstance(said, list) else ()))
    moments.sort(key=lambda m: -len(m[0]))
    return SlotWords(moments=tuple(moments), numbers={fold(k): int(str(v)) for k, v in mapping("numbers").items()},
                     mana=words("mana"), unspent=words("unspent"), ends=words("ends"), lands=words("lands"), land_verbs=words("land_verbs"),
                     told_aux=words("told_aux"), subjects_me=words("subjects_me"),
                     subjects_them=words("subjects_them"), neutral=words("neutral"))


def _number(text: str, data: SlotWords) -> int | None:
    if text.isdigit() and len(text) <= 2:
        return int(text)
    return data.numbers.get(text)


class _Pass:
    """One pass over the words: `used[i]` once word i fills a slot."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.used = [False] * len(texts)
        self.parts: list[tuple[int, Part]] = []

    def at(self, i: int) -> str:
        return self.texts[i] if 0 <= i < len(self.texts) else ""

    def take(self, start: int, end: int, part: Part | None = None) -> None:
        for j in range(start, end):
            self.used[j] = True
        if part is not None:
            self.parts.append((start, part))


def _edition(p: _Pass, i: int) -> int:
    text = p.at(i)
    year = int(text) if _YEAR.fullmatch(text) else 2010 if text == "m10" else None
    if year is None:
        return 0
    if p.at(i - 1) == "magic":
        p.take(i - 1, i)
    before = p.at(i - 1) == "avant" or p.at(i - 2) == "avant"
    if before:
        p.take(i - 1 if p.at(i - 1) == "avant" else i - 2, i)
    p.take(i, i + 1, Part(kind="edition", values={"before": year} if before else {"year": year}))
    return 1


def _moment(p: _Pass, i: int, data: SlotWords, end_words: bool) -> int:
    for said, phase, step in data.moments:
        if tuple(p.texts[i:i + len(said)]) != said:
            continue
        if step == Step.DRAW and said == ("pioche",) and p.at(i - 1) in data.told_aux | {"j", "je", "il"}:
            return 0  # « j'ai pioché »: an event, not the draw step
        owner = _OWNERS.get(p.at(i - 1))
        start = i - 1 if owner else i
        if p.at(start - 1) in ("la", "l", "le") and p.at(start - 2) == "fin":
            start -= 2
        end = i + len(said)
        if p.at(end) == "de" and p.at(end + 1) in ("mon", "son") and p.at(end + 2) == "tour":
            owner = owner or _OWNERS[p.at(end + 1)]
            end += 3
        if p.at(end) == "adverse":
            owner, end = OPPONENT, end + 1
        closing = p.at(start - 1) in ("fin",) or (p.at(start - 2) == "fin" and p.at(start - 1) in ("de", "du"))
        if closing:
            start -= 1 if p.at(start - 1) == "fin" else 2
        values: dict[str, object] = {"phase": phase, "step": step, "owner": owner}
        closed = [j for j in range(end, end + 3) if end_words and p.at(j) in data.ends]
        if closing or closed:
            values["end"] = True
        for j in closed[:1]:
            p.take(j, j + 1)
        p.take(start, end, Part(kind="moment", values=values))
        return end - i
    return 0


def _turn(p: _Pass, i: int) -> int:
    if p.at(i) != "tour":
        return 0
    if p.at(i - 1) in ("mon", "son") and p.at(i - 2) != "de":
        p.take(i - 1, i + 1, Part(kind="turn", values={"owner": _OWNERS[p.at(i - 1)]}))
        return 1
    if p.at(i + 1) == "de" and p.at(i + 2) == "mon" and p.at(i + 3) == "adversaire":
        p.take(i, i + 4, Part(kind="turn", values={"owner": OPPONENT}))
        return 4
    return 0


def _counted(p: _Pass, i: int, data: SlotWords) -> int:
    amount = _number(p.at(i), data)
    if amount is None:
        return 0
    if p.at(i + 1) in ("mana", "manas"):
        values: dict[str, object] = {"amount": amount}
        if p.at(i - 1) == "a" and p.at(i - 2) == "adversaire" and p.at(i - 3) == "mon":  # « mon adversaire a 1 mana »
            values["owner"] = OPPONENT
            p.take(i - 3, i)
        p.take(i, i + 2, Part(kind="mana", values=values))
        return 2
    if p.at(i + 1) == "cartes" and p.at(i + 2) == "en" and p.at(i + 3) == "main":
        p.take(i, i + 4, Part(kind="hand", values={"count": amount}))
        return 4
    return 0


def _land_told(p: _Pass, i: int, data: SlotWords) -> int:
    """« j'ai (déjà) posé un marais » (1), « aucun terrain » / « pas (encore) joué de terrain » (0)."""
    if p.at(i) == "aucun" and p.at(i + 1) in data.lands:
        start = i - 1 if p.at(i - 1) in data.land_verbs else i
        p.take(start, i + 2, Part(kind="land_played", values={"played": 0, "place": None}))
        return 2
    if p.at(i) in ("1", "un") and p.at(i + 1) in data.lands:  # « 1 terrain déjà posé »
        j = i + 2 + (p.at(i + 2) == "deja")
        if p.at(j) in data.land_verbs and p.at(j - 1) == "deja":
            p.take(i, j + 1, Part(kind="land_played", values={"played": 1, "place": None}))
            return j + 1 - i
        return 0
    start = i
    if p.at(i) == "pas":
        j = i + 1 + (p.at(i + 1) == "encore")
        if p.at(j) in data.land_verbs and p.at(j + 1) in ("de", "d") and p.at(j + 2) in data.lands:
            p.take(start, j + 3, Part(kind="land_played", values={"played": 0, "place": None}))
            return j + 3 - i
        return 0
    if p.at(i) not in data.told_aux:
        return 0
    j = i + 1 + (p.at(i + 1) == "deja")
    if p.at(j) in data.land_verbs and p.at(j + 1) in ("un", "une", "mon", "ma") and p.at(j + 2) in data.lands:
        p.take(start, j + 3, Part(kind="land_played", values={"played": 1, "place": None}))
        return j + 3 - i
    return 0


def _subject(p: _Pass, i: int, data: SlotWords) -> str | None:
    """The player who does what word i says: the nearest subject before it."""
    for j in range(i - 1, max(i - 4, -1), -1):
        if p.at(j) in data.subjects_me:
            return ME
        if p.at(j) in data.subjects_them:
            return OPPONENT
        if p.at(j) == "adversaire" and p.at(j - 1) == "mon":
            return OPPONENT
    return None


def slot_parts(words: tuple[Word, ...], asked: tuple[str, ...]) -> tuple[Part, ...] | None:
    """The parts of a question of a `SLOT_KINDS` kind, in the question's order, or None when
    its kind is not one of them or not one alone, or a word of game meaning fills no slot."""
    from judge.ask.kinds import asked_kinds

    kinds = [k for k in SLOT_KINDS if k in asked_kinds(asked)]
    texts = [w.text for w in words]
    data = slot_words()
    p = _Pass(texts)
    end_words = "mana_burn" in kinds
    i = 0
    while i < len(texts):
        step = (_edition(p, i) or _moment(p, i, data, end_words) or _turn(p, i) or _counted(p, i, data)
                or _land_told(p, i, data))
        i += step or 1
    said = {part.kind for _, part in p.parts}
    question = _question(p, kinds, said, data)
    if question is None:
        return None
    _state_words(p, data, said)
    if not _all_placed(words, p, data, question.values["ask"]):
        return None
    return (*_placed_lands(sorted(p.parts, key=lambda item: item[0])), question)


def _placed_lands(parts: list[tuple[int, Part]]) -> list[Part]:
    """The parts, a moment said right after a land played (« posé un marais dans ma première
    phase principale ») made that land's place: when it was played, not the moment asked about."""
    out: list[Part] = []
    skip = -1
    for n, (start, part) in enumerate(parts):
        if n == skip:
            continue
        following = parts[n + 1] if n + 1 < len(parts) else None
        if (part.kind == "land_played" and part.values["played"] and following is not None
                and following[1].kind == "moment" and following[0] - start <= 8):
            place = (following[1].values["phase"], following[1].values["step"])
            out.append(Part(kind="land_played", values={**part.values, "place": place}))
            skip = n + 1
        else:
            out.append(part)
    return out


def _question(p: _Pass, kinds: list[str], said: set[str], data: SlotWords) -> Part | None:
    """The question asked: one kind of `SLOT_KINDS` whose facts the slots hold."""
    fitting = []
    if "mana_burn" in kinds and "mana" in said:
        fitting.append("mana_burn")
    if "discard" in kinds and "hand" in said:
        fitting.append("discard")
    if "play_land" in kinds and (any(t in data.land_verbs and not p.used[i] for i, t in enumerate(p.texts))
                                 or _another_land(p, data) is not None):
        fitting.append("play_land")
    if len(fitting) != 1:
        return None
    ask = fitting[0]
    if ask == "play_land":
        return _land_question(p, data)
    cue = {"mana_burn": ("perd", "perds", "perdre", "perdra", "perdrai", "brule", "prend", "prends"),
           "discard": ("defausse", "defausser", "defausses", "jette")}[ask]
    at = [i for i, t in enumerate(p.texts) if t in cue]
    for i in at:
        p.take(i, i + 1)
    player = _subject(p, at[-1], data) if at else None
    owners = {part.values["owner"] for _, part in p.parts if part.kind == "mana" and "owner" in part.values}
    if owners and (len(owners) > 1 or player not in (None, *owners)):
        return None  # whose mana, whose loss: not one player
    return Part(kind="question", values={"ask": ask, "player": player or next(iter(owners), None)})


def _land_question(p: _Pass, data: SlotWords) -> Part | None:
    """« je peux poser un terrain ? », « j'en pose un autre ? », « 2e terrain possible ? »."""
    at = [i for i, t in enumerate(p.texts) if t in data.land_verbs and not p.used[i]]
    second = _another_land(p, data)
    if not at and second is not None:
        p.take(second, second + 2)
        return Part(kind="question", values={"ask": "play_land", "player": None, "another": True})
    if len(at) != 1:
        return None
    i = at[0]
    end = i + 1
    another = False
    if p.at(end) in ("un", "une", "mon", "ma", "ce", "cette", "la", "le") and p.at(end + 1) in data.lands:
        end += 2
    elif p.at(i - 1) == "en" and p.at(end) in ("un", "une"):
        end += 1
        another = p.at(end) in ("autre", "deuxieme", "second")
        end += another
    elif p.at(i - 1) in ("la", "le") and p.at(i - 2) in data.subjects_me | {"peux", "puis"}:
        pass
    else:
        return None
    p.take(i, end)
    return Part(kind="question", values={"ask": "play_land", "player": _subject(p, i, data), "another": another})


def _another_land(p: _Pass, data: SlotWords) -> int | None:
    """Where « 2e terrain » / « deuxième terrain » asks for a second land, once."""
    at = [i for i, t in enumerate(p.texts) if t in ("2e", "deuxieme", "second") and p.at(i + 1) in data.lands
          and not p.used[i]]
    return at[0] if len(at) == 1 else None


def _state_words(p: _Pass, data: SlotWords, said: set[str]) -> None:
    """The words that restate a slot filled (« dans ma réserve » of the mana left), the empty
    stack and who has priority."""
    for i, text in enumerate(p.texts):
        if p.used[i]:
            continue
        if text in data.mana and "mana" in said:
            p.take(i, i + 1)
        elif text in ("pas", "jamais") and p.at(i + 1) in data.unspent and "mana" in said:
            p.take(i, i + 2)  # « jamais dépensés », « pas utilisé »: the mana left
        elif text == "ou" and p.at(i + 1) == "pas" and i + 2 == len(p.texts):
            p.take(i, i + 2)  # « … ou pas » ending the question
        elif text == "pile" and (p.at(i + 1) == "vide" or (p.at(i + 1) == "etant" and p.at(i + 2) == "vide")):
            p.take(i, i + 2 + (p.at(i + 1) == "etant"), Part(kind="stack_empty"))
        elif text in ("priorite", "prio"):
            who = _priority_holder(p, i, data)
            if who is not None:
                p.take(i, i + 1, Part(kind="priority", values={"player": who}))


def _priority_holder(p: _Pass, i: int, data: SlotWords) -> str | None:
    j = i + 1 + (p.at(i + 1) == "au")
    if p.at(j) == "joueur" and p.at(j + 1) == "actif":
        p.take(i + 1, j + 2)
        return ACTIVE
    if p.at(j) == "joueur" and p.at(j + 1) == "non" and p.at(j + 2) == "actif":
        p.take(i + 1, j + 3)
        return NONACTIVE
    if p.at(i - 1) == "la" and p.at(i - 2) in ("ai", "a") and p.at(i - 3) in data.subjects_me | data.subjects_them:
        p.take(i - 3, i)
        return ME if p.at(i - 3) in data.subjects_me else OPPONENT
    return None


def _all_placed(words: tuple[Word, ...], p: _Pass, data: SlotWords, ask: str) -> bool:
    """Whether every word left carries no game meaning, or asks this kind (its cues)."""
    from judge.ask.kinds import cues
    from judge.ask.reader import filler_words, meaningful, name_positions
    from judge.search.analysis import stem

    kind_stems = {s for cue in cues().get(ask, ()) if len(cue) == 1 for s in cue}
    skip = filler_words()
    names = name_positions(words)
    for i, word in enumerate(words):
        text = word.text
        if i in names and not p.used[i]:
            return False  # a player or card named: which one, no slot says
        if p.used[i] or text in skip or text in data.neutral:
            continue
        if stem(text) in kind_stems and text not in data.lands | data.land_verbs:
            continue
        if meaningful(text):
            return False
    return True
