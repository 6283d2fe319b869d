"""The slot reader: what a question says, found by one linear pass over its words' lemmas.

Owns reading a question by its meaning instead of fitting every word into a rule: each word is
compared by its lemma (the Snowball stem of `judge.search.analysis`, after the forms,
abbreviations and English names of `rules/ask-words.toml` and the glossary), and one pass fills
slots — edition, whose turn, the moment (the phase and step names of `judge.game.aliases`), the
creatures with their power, toughness, abilities, colours, owner and role in the combat, who
attacks and who blocks, the mana left, the cards in hand, the lands played, the stack, who has
priority, a damage assignment — and the question kind comes from the words that ask it
(`judge.ask.kinds.asked_kinds`), checked against the facts it needs. It emits the same `Part`s
as the grammar, for the same `judge.ask.build.Builder`.

A word that fills no slot is skipped when it carries no game meaning; a word that does
(`deciding`: an ability, a card type, a colour, a step, a game action, a counter, a
negation next to what it could turn round…) and fills no slot stops the reading (`None`):
declined, never guessed. The words it reads are data: `[slot_words]` of `rules/ask-words.toml`
and the alias tables of the game model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from judge.ask.parts import ACTIVE, ME, NONACTIVE, OPPONENT, CreatureWords, Part
from judge.ask.words import Word
from judge.game.turnplan import PHASES, STEP_PHASE, Phase, Step

SLOT_TABLE = "slot_words"
_YEAR = re.compile(r"(?:19|20)\d\d")
_PT = re.compile(r"(\d{1,2})/(\d{1,2})")
_CITED = re.compile(r"\d{3}\.\d+[a-z]?")
_MANA = re.compile(r"(?:\{[wubrgc0-9]\}|[wubrgc]){2,}")
MAX_SLOT_WORDS = 300  # the reader's own bound (the question's is `judge.ask.words.MAX_QUESTION`)


@dataclass(frozen=True, slots=True)
class SlotWords:
    """`[slot_words]` and the game model's names, folded and stemmed: what the pass looks for."""

    moments: tuple[tuple[tuple[str, ...], str, str | None], ...]  # folded words, phase, step (longest first)
    numbers: dict[str, int]
    phrases: dict[str, tuple[tuple[str, ...], ...]]  # a slot's phrases, as stem tuples (longest first)
    abilities: tuple[tuple[tuple[str, ...], str], ...]  # stems -> ability slug (longest first)
    colors: dict[str, str]  # stem -> colour slug
    kinds: tuple[tuple[tuple[str, ...], str], ...]  # a spell's kind: stems -> slug (longest first)
    player_names: frozenset[str]  # folded first names that name players (« Alice », « Bruno »)
    deciding: frozenset[str]  # stems of words that, left unplaced, stop the reading
    neutral: frozenset[str]  # stems of words said around slots that add nothing


def _stem(word: str) -> str:
    from judge.search.analysis import stem

    return str(stem(word))


def _phrase(text: str) -> tuple[str, ...]:
    """A phrase of the data as the question's words are cut (`words_of`: elisions written out)."""
    from judge.ask.words import words_of

    return tuple(_stem(w.text) for w in words_of(text))


def _words(text: str) -> tuple[str, ...]:
    """A phrase of the data as folded words (the moments: nouns compared as written, « dégagée »
    is no « dégagement »)."""
    from judge.ask.words import words_of

    return tuple(w.text for w in words_of(text))


def _longest(items: Iterable[tuple[tuple[str, ...], str]]) -> tuple[tuple[tuple[str, ...], str], ...]:
    return tuple(sorted(set(items), key=lambda item: -len(item[0])))


@lru_cache(maxsize=1)
def slot_words() -> SlotWords:
    from judge.ask.vocabulary import raw_table, vocabulary
    from judge.game.aliases import ABILITY_NAMES, COLOR_ALIASES, KIND_ALIASES, PHASE_ALIASES, STEP_ALIASES
    from judge.normalize import fold

    table = raw_table(SLOT_TABLE)

    def mapping(key: str) -> dict[str, object]:
        value = table.get(key)
        return dict(value) if isinstance(value, dict) else {}

    def listed(value: object) -> list[str]:
        return [str(v) for v in value] if isinstance(value, list) else []

    moments: set[tuple[tuple[str, ...], str, str | None]] = set()
    for name, step in STEP_ALIASES.items():
        moments.add((_words(name), STEP_PHASE[step], step))
    for name, phase in PHASE_ALIASES.items():
        if len(name) > 3:  # « main », « fin », « end » alone say nothing of a moment
            moments.add((_words(name), phase, None))
    for place, said in mapping("moments").items():
        place_phase, place_step = _STEP_OF[place]
        moments.update((_words(s), place_phase, place_step) for s in listed(said))
    phrases = {key: tuple(sorted({_phrase(p) for p in listed(value)}, key=lambda p: -len(p)))
               for key, value in mapping("phrases").items()}
    abilities = [(_phrase(name), slug) for slug, names in ABILITY_NAMES.items() for name in (slug, *names)]
    abilities += [(_phrase(name), str(slug)) for name, slug in mapping("abilities").items()]
    kinds = [(_phrase(name), slug) for name, slug in KIND_ALIASES.items()]
    kinds += [(_phrase(name), str(slug)) for name, slug in mapping("spell_kinds").items()]
    colors = {_stem(name): slug for name, slug in COLOR_ALIASES.items() if " " not in name}
    deciding = {s for p, _ in abilities for s in p} | {s for p, _ in kinds for s in p} | set(colors)
    deciding |= {s for p in phrases.get("deciding", ()) for s in p}
    deciding |= {_stem(w) for w in vocabulary().out_of_scope}
    nouns = tuple(_phrase(n) for n in vocabulary().creature_nouns)
    phrases["creature_word"] = tuple(sorted({*phrases.get("creature_word", ()), *nouns}, key=lambda p: -len(p)))
    neutral = {_stem(fold(w)) for w in listed(table.get("neutral"))}
    return SlotWords(moments=tuple(sorted(moments, key=lambda m: -len(m[0]))),
                     numbers={fold(k): int(str(v)) for k, v in mapping("numbers").items()},
                     phrases=phrases, abilities=_longest(abilities), colors=colors, kinds=_longest(kinds),
                     player_names=frozenset(fold(n) for n in listed(table.get("player_names"))),
                     deciding=frozenset(deciding - neutral), neutral=frozenset(neutral))


_STEP_OF: dict[str, tuple[str, str | None]] = {
    **{step: (phase, step) for step, phase in STEP_PHASE.items()},
    **{phase: (phase, None) for phase in PHASES},
    "first_strike_damage": (Phase.COMBAT, Step.COMBAT_DAMAGE), "regular_damage": (Phase.COMBAT, Step.COMBAT_DAMAGE)}
_OWNER_WORDS = {"mon": ME, "ma": ME, "mes": ME, "notre": ME, "son": OPPONENT, "sa": OPPONENT, "ses": OPPONENT,
                "votre": ME, "ton": ME, "ta": ME, "tes": ME}
_ARTICLES = {"le", "la", "les", "l", "un", "une", "des", "du", "ce", "cet", "cette", "ces"}
_ME_SUBJECTS = {"je", "j", "moi", "me", "m"}
_THEM_SUBJECTS = {"il", "elle", "lui"}


class _Pass:
    """The question's words, their stems and which are used; the parts found, by position."""

    def __init__(self, words: tuple[Word, ...], names: frozenset[int], data: SlotWords) -> None:
        self.words = words
        self.texts = [w.text for w in words]
        self.stems = [_stem(t) for t in self.texts]
        self.names = names
        self.data = data
        self.used = [False] * len(words)
        self.parts: list[tuple[int, Part]] = []
        self.players: dict[str, str] = {}  # a player's first name (folded) -> ME / OPPONENT
        self.typed_names: dict[str, str] = {}  # ME / OPPONENT -> the first name as typed
        self.ends: dict[int, int] = {}  # where the part starting at a word ends

    def at(self, i: int) -> str:
        return self.texts[i] if 0 <= i < len(self.texts) else ""

    def stem(self, i: int) -> str:
        return self.stems[i] if 0 <= i < len(self.stems) else ""

    def seq(self, i: int, phrase: tuple[str, ...]) -> bool:
        return bool(phrase) and tuple(self.stems[i:i + len(phrase)]) == phrase

    def phrase_at(self, i: int, key: str) -> int:
        """The length of the longest phrase of `[slot_words.phrases].key` at word i, or 0."""
        for phrase in self.data.phrases.get(key, ()):
            if self.seq(i, phrase):
                return len(phrase)
        return 0

    def find(self, key: str, start: int = 0, end: int | None = None) -> list[int]:
        stop = len(self.texts) if end is None else end
        return [i for i in range(max(start, 0), min(stop, len(self.texts))) if self.phrase_at(i, key)]

    def take(self, start: int, end: int, part: Part | None = None) -> None:
        for j in range(max(start, 0), min(end, len(self.used))):
            self.used[j] = True
        if part is not None:
            self.parts.append((start, part))
            self.ends[start] = max(end, self.ends.get(start, end))

    def number(self, i: int) -> int | None:
        text = self.at(i)
        if text.isdigit() and len(text) <= 3:
            return int(text)
        return self.data.numbers.get(text)

    @cached_property
    def first_person(self) -> bool:
        return _first_person(self)

    def is_player_name(self, i: int) -> bool:
        return self.at(i) in self.data.player_names and self.words[i].typed[:1].isupper()


# ---------------------------------------------------------------------- slots
def _edition(p: _Pass, i: int) -> int:
    text = p.at(i)
    year = int(text) if _YEAR.fullmatch(text) else 2010 if text in ("m10", "m2010") else None
    if text == "deux" and p.at(i + 1) == "mille" and p.number(i + 2) is not None:  # dictated: « deux mille quatre »
        year = 2000 + (p.number(i + 2) or 0)
        p.take(i + 1, i + 3)
    if year is None:
        span = p.phrase_at(i, "edition_old")
        if span:
            p.take(i, i + span, Part(kind="edition", values={"old": True}))
            return span
        span = p.phrase_at(i, "edition_new")
        if span:
            p.take(i, i + span, Part(kind="edition", values={"new": True}))
            return span
        span = p.phrase_at(i, "edition_burn")
        if span:
            p.take(i, i + span, Part(kind="edition", values={"mana_burn": True}))
            return span
        return 0
    start = i - 1 if p.at(i - 1) in ("magic", "regles", "edition", "en", "de") else i
    before = p.phrase_at(start - 1, "before") or p.phrase_at(start - 2, "before")
    if before:
        start = start - 1 if p.phrase_at(start - 1, "before") else start - 2
    p.take(start, i + 1, Part(kind="edition", values={"before": year} if before else {"year": year}))
    return 1


def _citation(p: _Pass, i: int) -> int:
    """A rule number the judge cites (« la 502.9 si je me souviens bien », « règle 308 »): what
    the judge thinks applies, not a fact of the game; read, and left to the answer's own rules."""
    text = p.at(i)
    cited = _CITED.fullmatch(text) or (text.isdigit() and len(text) == 3 and 100 <= int(text) <= 999
                                       and p.at(i - 1) in ("regle", "regles", "cf", "voir", "article"))
    if not cited:
        return 0
    start = i - 1 if p.at(i - 1) in ("regle", "regles", "cf", "voir", "article", "la") else i
    p.take(start, i + 1)
    return 1


def _moment(p: _Pass, i: int) -> int:
    """A phase or step named at word i, with whose turn (« mon entretien », « l'étape de fin de
    mon adversaire », « d'Alice »), its end or start said (« à la fin de », « se termine »), and
    which combat damage step (« la première étape des blessures »)."""
    for said, phase, step in p.data.moments:
        if tuple(t.removesuffix("s") for t in p.texts[i:i + len(said)]) != tuple(t.removesuffix("s") for t in said):
            continue
        if step == Step.DRAW and len(said) == 1 and p.at(i - 1) in ("ai", "a", "j", "je", "il", "avoir"):
            return 0  # « j'ai pioché »: an event, not the draw step
        owner = _possessor(p, i - 1) if p.at(i - 1) in _OWNER_WORDS else None
        start = i - 1 if owner else i
        owner_after, end = _moment_owner(p, i + len(said))
        values: dict[str, object] = {"phase": phase, "step": step, "owner": owner or owner_after}
        if owner_after is not None and p.is_player_name(end - 1):
            values["name"] = _typed(p, end - 1)
        start = _moment_edges(p, start, end, values)
        if step == Step.COMBAT_DAMAGE:
            _damage_step(p, start, end, values)
        p.take(start, end, Part(kind="moment", values=values))
        return end - i
    return 0


def _moment_owner(p: _Pass, end: int) -> tuple[str | None, int]:
    """Whose, said after the moment: « de mon tour », « de mon adversaire », « d'Alice », « adverse »."""
    owner: str | None = None
    if p.at(end) in ("de", "du") and p.at(end + 1) in ("mon", "son") and p.at(end + 2) == "tour":
        owner, end = _OWNER_WORDS[p.at(end + 1)], end + 3
    elif p.at(end) == "de" and p.at(end + 1) == "mon" and p.at(end + 2) == "adversaire":
        owner, end = OPPONENT, end + 3
    elif p.at(end) in ("de", "d") and p.is_player_name(end + 1):
        owner, end = _named(p, end + 1), end + 2
    if p.at(end) == "adverse":
        owner, end = OPPONENT, end + 1
    return owner, end


def _moment_edges(p: _Pass, start: int, end: int, values: dict[str, object]) -> int:
    """« à la fin de », « au début de » before the moment, « se termine » after it: said in
    `values`; the moment's new start."""
    linked = p.at(start - 1) in _ARTICLES | {"de", "du"}
    lead = (p.phrase_at(start - 2, "moment_end") if linked else 0) or p.phrase_at(start - 1, "moment_end")
    if lead:
        values["end"] = True
        start -= lead + (1 if linked else 0)
    if p.phrase_at(start - 2, "moment_start") and p.at(start - 1) in _ARTICLES | {"de", "du"}:
        values["start"] = True
        start -= 2
    closing = p.find("moment_end", end, end + 3)[:1]
    for j in closing:
        values["end"] = True
        p.take(j, j + p.phrase_at(j, "moment_end"))
    return start


def _damage_step(p: _Pass, start: int, end: int, values: dict[str, object]) -> None:
    """« la première étape des blessures (celle de l'initiative) », « la seconde »."""
    for j in range(max(start - 3, 0), min(end + 4, len(p.texts))):
        for key, which in (("first_strike_step", "first_strike"), ("regular_step", "regular")):
            span = p.phrase_at(j, key)
            if span:
                values["damage_step"] = which
                p.take(j, j + span)
                break


def _possessor(p: _Pass, i: int) -> str:
    """Whose, for the possessive at word i: « mon » is mine; « son », « sa », « ses » of the
    player named last before it in the question (« Bruno bloque avec son Golem »), else the
    opponent's."""
    owner = _OWNER_WORDS[p.at(i)]
    if owner != OPPONENT:
        return owner
    named = next((j for j in range(i - 1, -1, -1) if p.is_player_name(j)), None)
    if named is not None and not any(p.at(k) in _ME_SUBJECTS | {"adversaire"} for k in range(named, i)):
        return _named(p, named)
    role = next((r for r in (_role_at(p, j) for j in range(i - 1, max(i - 9, -1), -1)) if r is not None), None)
    if role is not None:
        return role  # « le joueur non actif bloque avec son Loup »: his
    if p.at(i + 1) != "adversaire" and not p.first_person:
        return ME  # told of someone else throughout (« pendant son entretien, son adversaire … »): the one told of
    return owner


_FIRST_PERSON = frozenset({"je", "j", "me", "m", "moi", "mon", "ma", "mes", "nous", "notre", "nos"})
# The judge speaking of himself, not of a player: « un joueur m'appelle », « il me demande », « que dois-je répondre »
_FRAME_VERBS = frozenset({"appelle", "demande", "dois", "repondre", "reponds", "dit", "explique", "raconte", "pense",
                          "crois", "souviens", "semble", "trompe", "interpelle", "suis"})


def _first_person(p: _Pass) -> bool:
    """Whether the one who asks is a player of the game (« mon tour », « j'attaque »), not a judge
    telling of others (« un joueur m'appelle : pendant son entretien … »); read once a pass
    (`_Pass.first_person`)."""
    for k, text in enumerate(p.texts):
        if text in ("moi", "mon", "ma", "mes", "notre", "nos", "nous") and not (text == "moi" and p.at(k - 1) == "dois"):
            return True
        if text in ("je", "j", "me", "m") and p.at(k + 1) not in _FRAME_VERBS and p.at(k - 1) not in _FRAME_VERBS:
            return True
    return False


def _role_at(p: _Pass, j: int) -> str | None:
    """A player said by role at word j (« le joueur actif », « le non-actif »)."""
    if p.phrase_at(j, "nonactive_player"):
        return NONACTIVE
    if p.phrase_at(j, "active_player") and p.at(j - 1) != "non":
        return ACTIVE
    return None


def _named(p: _Pass, i: int) -> str:
    """A player named by a first name: the first one named is the speaker's side (ME, the
    active player unless said otherwise), the second the opponent."""
    name = p.at(i)
    p.take(i, i + 1)
    if name not in p.players:
        # the speaker speaks of himself (« ma phase principale »): a name is someone else
        mine = any(t in ("je", "j", "mon", "ma", "mes", "moi") for t in p.texts)
        p.players[name] = ME if not p.players and not mine else OPPONENT
    p.typed_names.setdefault(p.players[name], _typed(p, i))
    return p.players[name]


def _turn(p: _Pass, i: int) -> int:
    if p.at(i) != "tour":
        return 0
    if p.at(i - 1) in ("mon", "son", "notre", "votre") and p.at(i - 2) not in ("de",):
        owner = _possessor(p, i - 1) if p.at(i - 1) == "son" else _OWNER_WORDS[p.at(i - 1)]
        named = next((k for k in range(i + 1, min(i + 4, len(p.texts))) if p.is_player_name(k)), None)
        if p.at(i - 1) == "son" and named is not None and not any(t in _ME_SUBJECTS | {"mon", "ma", "mes"} for t in p.texts):
            owner = _named(p, named)  # « pendant son tour, Alice … »: hers
        values: dict[str, object] = {"owner": owner}
        if p.at(i - 1) == "mon":
            values["name"] = "moi"
        elif named is not None and owner != OPPONENT:
            values["name"] = _typed(p, named)
        p.take(i - 1, i + 1, Part(kind="turn", values=values))
        return 1
    if p.at(i + 1) == "de" and p.at(i + 2) == "mon" and p.at(i + 3) == "adversaire":
        p.take(i, i + 4, Part(kind="turn", values={"owner": OPPONENT}))
        return 4
    if p.at(i + 1) in ("de", "d") and p.is_player_name(i + 2):
        p.take(i, i + 3, Part(kind="turn", values={"owner": _named(p, i + 2), "name": _typed(p, i + 2)}))
        return 3
    return 0


def _typed(p: _Pass, i: int) -> str:
    """A player's first name as the judge typed it (« Chloé »)."""
    return p.words[i].typed.rstrip("'’")


def _roster(p: _Pass, i: int) -> int:
    """« moi, Bruno, Chloé, David », « Alice, Bruno et Chloé », « moi, puis Bruno, puis Chloé »:
    three players or more, in turn order (the punctuation and arrows are gone)."""
    names: list[str] = []
    j = i
    while True:
        if p.is_player_name(j):
            names.append(_typed(p, j))
        elif p.at(j) == "moi":
            names.append("moi")
        else:
            break
        j += 1
        if p.at(j) in ("et", "puis") and (p.is_player_name(j + 1) or p.at(j + 1) == "moi"):
            j += 1
    if len(names) < 3 or len(set(names)) != len(names):
        return 0
    start = i
    if p.at(i - 1) == "ordre":
        start = i - 1
    elif p.at(i - 1) == "tour" and p.at(i - 2) in ("du", "de") and p.at(i - 3) == "ordre":
        start = i - 3
    end = j
    if p.at(j) == "dans" and p.at(j + 1) in ("le", "l") and p.at(j + 2) == "ordre":
        end = j + 3 + (2 if p.at(j + 3) == "du" and p.at(j + 4) == "tour" else 0)
    p.take(start, end, Part(kind="game", values={"players": tuple(names)}))
    return end - i


def _game_said(p: _Pass, i: int) -> int:
    """« partie à quatre », « on est trois », « multi à 4 »; « chacun pour soi »; « avec l'option
    attaquer plusieurs joueurs »."""
    for key, values in (("attack_multiple", {"attack_option": "multiple"}), ("attack_left", {"attack_option": "left"}),
                        ("attack_right", {"attack_option": "right"}), ("free_for_all", {"variant": "free_for_all"})):
        span = p.phrase_at(i, key)
        if span:
            start = i - (p.at(i - 1) in ("option", "en", "variante", "le", "la", "l"))
            start -= p.at(start - 1) in ("le", "la", "l", "de", "d")
            p.take(start, i + span, Part(kind="game", values=values))
            if p.at(i + span) == "a" and 3 <= (p.number(i + span + 1) or 0) <= 8:  # « FFA à 3 »
                p.take(i + span, i + span + 2, Part(kind="game", values={"size": p.number(i + span + 1)}))
            return span
    if 3 <= (p.number(i) or 0) <= 8 and p.at(i + 1) == "joueurs" and not p.used[i]:
        p.take(i, i + 2, Part(kind="game", values={"size": p.number(i)}))
        return 2
    if p.at(i) in ("partie", "multi", "multijoueur", "on", "nous") and p.at(i + 1) in ("a", "est", "sommes", "joue", "jouons"):
        k = i + 1 + (p.at(i + 1) in ("joue", "jouons", "est", "sommes"))
        size = p.number(k + 1) if p.at(k) == "a" else p.number(k)
        if size is not None and 3 <= size <= 8:
            end = (k + 2 if p.at(k) == "a" else k + 1)
            end += p.at(end) == "joueurs"
            p.take(i, end, Part(kind="game", values={"size": size}))
            return end - i
    return 0


def _extra_turn(p: _Pass, i: int) -> int:
    """« un sort qui lui donne un tour supplémentaire », « je me suis donné un tour en plus »,
    « Bruno obtient un tour supplémentaire », « 1 tour supp pour Bruno »: who takes it."""
    span = p.phrase_at(i, "extra_turn")
    if not span:
        return 0
    count = p.number(i - 1) if p.at(i - 1) not in ("un", "une") else 1
    start = i - 1 if count is not None else i
    end = i + span
    named: list[str] = []
    who = _beneficiary(p, start, end, named)
    if who is None:
        return 0
    values: dict[str, object] = {"who": who, "named": False, "count": count or 1}
    if named:
        values["name"] = named[0]
    p.take(start, end, Part(kind="extra_turn", values=values))
    return span


def _beneficiary(p: _Pass, start: int, end: int, named: list[str]) -> str | None:
    """Who takes the extra turn said between start and end: « pour Bruno » / « à mon
    adversaire » after it, else the object pronoun of « donner » (« me » / « lui », « se »: the
    clause's subject), else the subject of « obtient », « gagne », « prend ». The first name, when
    one says who, is added to `named`."""
    p.take(end, end + _with_causer(p, end))
    k = end + (p.at(end) in ("pour", "a", "au"))
    after = _given_to(p, start, end, k, named) if k > end else None
    if after is not None:
        return after
    for j in range(start - 1, max(start - 7, -1), -1):
        if p.stem(j) in _GIVE_STEMS:
            return _given_by(p, j, named)
        if p.stem(j) in _TAKE_STEMS:
            p.take(j, j + 1)
            subject = next((m for m in range(j - 1, max(j - 4, -1), -1) if p.is_player_name(m)), None)
            if subject is not None:
                named.append(_typed(p, subject))
            return _clause_subject(p, j)
    return None


def _given_to(p: _Pass, start: int, end: int, k: int, named: list[str]) -> str | None:
    """« (un effet a donné) un tour supplémentaire à Bruno / pour moi / à mon adversaire »."""
    verb = next((j for j in range(start - 1, max(start - 4, -1), -1) if p.stem(j) in _GIVE_STEMS), None)
    if verb is not None and (p.is_player_name(k) or p.at(k) in ("moi", "me", "mon")) and start > 0:
        _spell_that(p, verb)
        p.take(verb - (p.at(verb - 1) == "a"), verb + 1)
    if p.is_player_name(k):
        p.take(end, k + 1)
        named.append(_typed(p, k))
        return _named(p, k)
    if p.at(k) in ("moi", "me"):
        p.take(end, k + 1)
        return ME
    if p.at(k) == "mon" and p.at(k + 1) == "adversaire":
        p.take(end, k + 2)
        return OPPONENT
    return None


def _given_by(p: _Pass, verb: int, named: list[str]) -> str | None:
    """« (un sort qui) me / lui donne », « se donne »: the object pronoun of the verb says who."""
    pronoun = next((m for m in range(verb - 1, max(verb - 4, -1), -1) if p.at(m) in ("me", "m", "lui", "se", "s")), None)
    if pronoun is None:
        return None
    p.take(pronoun, verb + 1)
    _spell_that(p, pronoun)
    if p.at(pronoun) in ("me", "m"):
        return ME
    subject = next((m for m in range(pronoun - 1, max(pronoun - 12, -1), -1) if p.is_player_name(m)), None)
    if subject is not None and p.at(pronoun) in ("se", "s"):
        named.append(_typed(p, subject))
    return _clause_subject(p, pronoun)


def _spell_that(p: _Pass, i: int) -> None:
    """« (Alice a) joué un sort qui (lui donne …) », « résout un éphémère qui »: the spell that
    did what follows, read with it (it is not on the stack any more)."""
    k = i - 1
    while p.at(k) in ("qui", "et", "resout", "se", "s", "a") and k > i - 5:
        k -= 1
    if p.at(k) not in _CAUSERS:
        return
    start = k - 1 - (p.at(k - 1) in ("autre", "deuxieme", "second"))
    if p.at(start) not in ("un", "une", "son", "mon", "sa", "ma", "le", "la", "l"):
        return
    verb = start - 1
    p.take(verb if p.phrase_at(verb, "cast_verb") or p.stem(verb) == _stem("resout") else start, i)


_CAUSERS = frozenset({"sort", "ephemere", "rituel", "carte", "effet", "truc", "capacite"})


def _with_causer(p: _Pass, i: int) -> int:
    """« (… un tour en plus) avec un éphémère »: what gave the extra turn, said after it (3
    words), or 0."""
    return 3 if p.at(i) == "avec" and p.at(i + 1) in ("un", "une", "son", "mon", "sa", "ma") \
        and p.at(i + 2) in _CAUSERS else 0


def _clause_subject(p: _Pass, i: int) -> str | None:
    """The player who does what word i says, further back than `_subject` (« Alice a joué un
    sort qui lui donne … »: Alice)."""
    return _subject(p, i, reach=12)


def _extra_turn_again(p: _Pass, i: int) -> int:
    """« mon adversaire s'en est donné un aussi », « il s'en fait un »: another extra turn, said
    by « en … un » after one was said."""
    if p.at(i) not in ("se", "s", "me", "m", "lui") or p.at(i + 1) != "en" or not any(
            part.kind == "extra_turn" for _, part in p.parts):
        return 0
    j = i + 2 + (p.at(i + 2) in ("est", "a", "ai", "suis"))
    if p.stem(j) not in _GIVE_STEMS or p.at(j + 1) not in ("un", "1"):
        return 0
    who = ME if p.at(i) in ("me", "m") else _clause_subject(p, i)
    if who is None:
        return 0
    _spell_that(p, i)
    end = j + 2 + (p.at(j + 2) == "aussi")
    end += _with_causer(p, end)
    p.take(i, end, Part(kind="extra_turn", values={"who": who, "named": False, "count": 1}))
    return end - i


_GIVE_STEMS = frozenset(_stem(w) for w in ("donne", "donner", "offre", "accorde", "fait", "fais", "octroie", "cree"))
_TAKE_STEMS = frozenset(_stem(w) for w in ("obtient", "gagne", "prend", "recoit", "aura"))


def _active_said(p: _Pass, i: int) -> int:
    """« Alice, la joueuse active », « Alice est le joueur actif »: whose turn, by name."""
    span = p.phrase_at(i, "active_player")
    if not span:
        return 0
    for j in (i - 1, i - 2, i - 3, i + span, i + span + 1):
        if p.is_player_name(j):
            name = p.at(j)
            if not p.players:
                p.players[name] = ME
            p.take(i, i + span, Part(kind="turn", values={"owner": _named(p, j), "name": _typed(p, j)}))
            p.take(j, j + 1)
            return span
    return 0


def _counted(p: _Pass, i: int) -> int:
    amount = p.number(i)
    if amount is None:
        symbols = _MANA.fullmatch(p.at(i))
        if symbols and p.words[i].typed.isupper():
            amount = len(p.at(i).replace("{", "").replace("}", ""))
            p.take(i, i + 1, Part(kind="mana", values={"amount": amount}))
            return 1
        return 0
    if p.phrase_at(i + 1, "mana"):
        span = p.phrase_at(i + 1, "mana")
        values: dict[str, object] = {"amount": amount}
        owner = _subject(p, i)
        if owner is not None:
            values["owner"] = owner
        p.take(i, i + 1 + span, Part(kind="mana", values=values))
        return 1 + span
    if p.phrase_at(i + 1, "cards") and p.at(i + 2) == "en" and p.at(i + 3) == "main":
        p.take(i, i + 4, Part(kind="hand", values={"count": amount}))
        return 4
    if p.phrase_at(i + 1, "cards") and p.at(i + 2) == "dans" and p.at(i + 4) == "main":
        p.take(i, i + 5, Part(kind="hand", values={"count": amount}))
        return 5
    return 0


def _land_told(p: _Pass, i: int) -> int:
    """« j'ai (déjà) posé un marais » (1), « aucun terrain » / « pas (encore) joué de terrain » (0)."""
    lands = p.phrase_at
    if p.at(i) in ("aucun", "0") and lands(i + 1, "land"):
        start = i - 1 if lands(i - 1, "land_verb") else i
        p.take(start, i + 2, Part(kind="land_played", values={"played": 0, "place": None}))
        return 2
    if p.at(i) in ("pas", "jamais"):
        j = i + 1 + (p.at(i + 1) in ("encore", "deja"))
        if lands(j, "land_verb") and p.at(j + 1) in ("de", "d") and lands(j + 2, "land"):
            p.take(i, j + 3, Part(kind="land_played", values={"played": 0, "place": None}))
            return j + 3 - i
        return 0
    if p.number(i) is not None and lands(i + 1, "land") and p.at(i + 2) == "deja" and lands(i + 3, "land_verb"):
        # « 1 terrain déjà posé en PP1 »: the lands played this turn, counted
        p.take(i, i + 4, Part(kind="land_played", values={"played": p.number(i), "place": None}))
        return 4
    if p.at(i) not in ("ai", "a", "avait", "avais", "as", "deja"):
        # a story's « j'ai dégagé, pioché, posé une île »: a past participle with no subject before
        if p.at(i) in ("pose", "joue") and p.at(i - 1) not in _ME_SUBJECTS | _THEM_SUBJECTS | {"on", "peux", "peut", "puis",
                                                                                           "vais", "veux", "pas", "en"} \
                and p.at(i + 1) in ("un", "une", "mon", "ma", "la", "le", "l") and lands(i + 2, "land"):
            p.take(i, i + 3, Part(kind="land_played", values={"played": 1, "place": None}))
            return 3
        return 0
    j = i + 1 + (p.at(i + 1) in ("deja", "bien"))
    if lands(j, "land_verb") and p.at(j + 1) in ("un", "une", "mon", "ma", "son", "sa") and lands(j + 2, "land"):
        if p.at(i - 1) in ("pas", "ne", "n") or p.at(i - 2) in ("ne", "n"):
            return 0
        p.take(i, j + 3, Part(kind="land_played", values={"played": 1, "place": None}))
        return j + 3 - i
    return 0


def _first_turn(p: _Pass, i: int) -> int:
    """« le tout premier tour de la partie » (a part), « pas le premier de la partie » (the
    default: read, no part)."""
    j = i + (p.at(i) == "tout")
    if p.at(j) not in ("premier", "1er"):
        return 0
    k = j + 1 + (p.at(j + 1) == "tour")
    if p.at(k) not in ("de", "du") or p.at(k + 1) not in ("la", "le") or p.at(k + 2) not in ("partie", "jeu", "match"):
        return 0
    negated = p.at(i - 1) == "pas" or p.at(i - 2) == "pas"
    start = i - (p.at(i - 1) in ("le", "au", "mon", "son")) if not negated else i - 1 - (p.at(i - 1) != "pas")
    p.take(start, k + 3, None if negated else Part(kind="first_turn"))
    return k + 3 - i


def _before_resolution(p: _Pass, i: int) -> int:
    """« avant qu'elles ne soient infligées », « avant que le sort se résolve », « avant la
    résolution »: while what is on the stack waits (the stack said) — read, no part."""
    if p.at(i) != "avant" or p.at(i + 1) not in ("que", "la", "sa", "leur"):
        return 0
    for k in range(i + 2, min(i + 8, len(p.texts))):
        if p.stem(k) in _RESOLVE_STEMS:
            p.take(i, k + 1)
            return k + 1 - i
        if p.used[k]:
            return 0
    return 0


_RESOLVE_STEMS = frozenset(_stem(w) for w in ("infligees", "infligee", "inflige", "resolution", "resolve",
                                              "resout", "resolvent", "resolue", "resolues", "resolu"))


def _damage_on_stack(p: _Pass, i: int) -> int:
    """« les blessures de combat ont été assignées et sont sur la pile », « dmg sur la pile »:
    combat damage on the stack (2004; the edition's own words « à l'époque des blessures sur la
    pile » are read first, by `_edition`)."""
    span = p.phrase_at(i, "damage_word")
    if not span:
        return 0
    end = i + span + (2 if p.at(i + span) == "de" and p.at(i + span + 1) == "combat" else 0)
    k = end
    while p.at(k) in _ON_STACK_FILLERS and k < end + 6:
        k += 1
    if not (p.at(k) == "sur" and p.at(k + 1) == "la" and p.at(k + 2) in ("pile", "stack")):
        return 0
    if any(p.at(m) in ("allaient", "epoque", "temps") for m in range(max(i - 4, 0), i)):
        return 0
    start = i - (p.at(i - 1) in ("les", "mes", "ses", "des"))
    p.take(start, k + 3, Part(kind="stack", values={"item": {"kind": "combat_damage", "owner": None}}))
    return k + 3 - i


_ON_STACK_FILLERS = frozenset({"ont", "ete", "assignees", "assignee", "assignes", "et", "sont", "est", "mises", "mis",
                               "posees", "placees", "partent", "vont", "deja", "encore", "maintenant"})


def _no_effect(p: _Pass, i: int) -> int:
    """« aucun effet ne lui permet de jouer un terrain supplémentaire », « pas d'effet sur la
    taille de main », « aucun autre effet »: nothing changes the rules said — read, no part."""
    if p.at(i) not in ("aucun", "pas", "sans") or (p.at(i) == "pas" and p.at(i + 1) != "de"):
        return 0
    j = i + (2 if p.at(i) == "pas" else 1)
    j += p.at(j) == "autre"
    if p.at(j) not in ("effet", "effets"):
        return 0
    j += 1
    if p.at(j) in ("ne", "n"):
        j += 1 + (p.at(j + 1) in ("lui", "leur", "me", "te", "vous"))
        if p.stem(j) not in _EFFECT_VERBS:
            return 0
        j += 1
        while p.at(j) in _EFFECT_OBJECT and j < i + 14:
            j += 1
    elif p.at(j) == "sur" or p.at(j) in ("en", "jusque"):
        while (p.at(j) in _EFFECT_OBJECT or p.at(j) in ("en", "cours", "jusque", "fin", "du", "tour")) and j < i + 14:
            j += 1
    p.take(i, j)
    return j - i


_EFFECT_VERBS = frozenset(_stem(w) for w in ("permet", "accorde", "donne", "empeche", "change", "modifie", "autorise"))
_EFFECT_OBJECT = frozenset({"de", "d", "jouer", "poser", "un", "une", "le", "la", "les", "terrain", "terrains",
                            "supplementaire", "autre", "second", "deuxieme", "sur", "taille", "main", "maximale",
                            "maximum", "en", "plus", "lancer", "sort", "sorts"})


def _stack(p: _Pass, i: int) -> int:
    span = p.phrase_at(i, "stack_empty")
    if span:
        p.take(i, i + span, Part(kind="stack_empty"))
        return span
    span = p.phrase_at(i, "response")
    if span:
        p.take(i, i + span, Part(kind="response"))
        return span
    return 0


def _passing(p: _Pass, i: int) -> int:
    """« on passe tous les deux », « les deux joueurs passent »: both pass in succession."""
    span = p.phrase_at(i, "all_pass")
    if span and p.at(i + span) not in ("a", "au", "en", "t", "directement", "ensuite"):  # « on passe à … »: moves on
        p.take(i, i + span, Part(kind="pass", values={"who": "all"}))
        return span
    if p.stem(i) != "pass" or p.at(i + 1) in ("a", "au", "en", "sur", "la", "le", "t", "on", "de", "du", "directement") \
            or p.at(i - 1) in ("ca", "c", "se"):
        return 0
    who = _subject(p, i)
    if who is None:
        return 0
    end = i + 1 + (p.at(i + 1) in ("aussi", "egalement", "ensuite", "son", "sa", "mon", "ma")) \
        + (p.at(i + 2) in ("tour", "priorite"))
    p.take(i, end, Part(kind="pass", values={"who": who}))
    for j in range(max(i - 4, 0), i):  # the subject said: « mon adversaire passe »
        if p.at(j) in _ME_SUBJECTS | _THEM_SUBJECTS or p.at(j) == "adversaire" or p.is_player_name(j):
            p.take(j, i)
            break
    return end - i


_TIMINGS = ("before_attackers", "after_attackers", "before_blockers", "after_blockers",
            "during_combat_after_blockers")


def _timing(p: _Pass, i: int) -> int:
    """« seulement avant la déclaration des bloqueurs », « only before blockers are declared »: a
    spell's combat restriction (2010 506.6), read before the moments its words name; « jusqu'à
    la fin du tour » names no moment."""
    for when in _TIMINGS:
        span = p.phrase_at(i, "timing_" + when)
        if span:
            p.take(i, i + span, Part(kind="timing", values={"when": when}))
            return span
    span = p.phrase_at(i, "no_moment") or p.phrase_at(i, "told_steps")
    if span:
        p.take(i, i + span)
    return span


def _no_attackers(p: _Pass, i: int) -> int:
    """« aucun attaquant n'a été déclaré », « je ne déclare aucun attaquant », « personne
    n'attaque »: the active player declares no attackers (2004 308.4, 2010 508.8)."""
    span = p.phrase_at(i, "no_attackers")
    if not span:
        return 0
    p.take(i, i + span, Part(kind="no_attackers"))
    return span


def _priority_holder(p: _Pass, i: int) -> int:
    """« j'ai la priorité », « il a la prio »: who holds priority now."""
    span = p.phrase_at(i, "priority_holder")
    if p.stem(i) == "priorit" and p.at(i + 1) in ("au", "a"):  # « prio au NAP », « priorité à Bruno »
        k = i + 2 + (p.at(i + 2) in ("le", "la"))
        who = (NONACTIVE if p.phrase_at(k, "nonactive_player") else ACTIVE if p.phrase_at(k, "active_player")
               else _named(p, k) if p.is_player_name(k) else ME if p.at(k) == "moi" else None)
        if who is not None:
            size = p.phrase_at(k, "nonactive_player") or p.phrase_at(k, "active_player") or 1
            p.take(i, k + size, Part(kind="priority", values={"player": who}))
            return k + size - i
    if not span or p.stem(i + span) != "priorit":
        return 0
    said = p.texts[i:i + span]
    # « il m'a passé la priorité »: mine; « je lui ai passé la priorité »: his; « j'ai la priorité »: mine
    who = OPPONENT if "lui" in said else ME if "me" in said or p.at(i) in _ME_SUBJECTS else OPPONENT
    p.take(i, i + span + 1, Part(kind="priority", values={"player": who}))
    return span + 1


# ---------------------------------------------------------------------- creatures
def _ability_at(p: _Pass, i: int) -> tuple[int, str] | None:
    for phrase, slug in p.data.abilities:
        if p.seq(i, phrase):
            return len(phrase), slug
    return None


def _creature_head(p: _Pass, i: int) -> int:
    """The length of a creature's head word(s) at i: a card's name (capitalised, several words
    in a row), a lower-case creature noun, « créature », a power/toughness alone; else 0."""
    if p.is_player_name(i):
        return 0
    if i in p.names:
        j = i + 1
        while j in p.names and not p.is_player_name(j):
            j += 1
        return j - i
    if p.phrase_at(i, "creature_word") or _PT.fullmatch(p.at(i)):
        return 1
    if (p.phrase_at(i, "attacker_role") or p.phrase_at(i, "blocker_role")) and p.at(i - 1) in _OWNER_WORDS.keys() | _ARTICLES:
        return 1  # « mon attaquant », « le bloqueur »
    return 0


@dataclass(slots=True)
class _Described:
    """A creature being read: what its words said so far."""

    name: str | None
    owner: str | None
    indefinite: bool
    power: int | None = None
    toughness: int | None = None
    abilities: list[str] = field(default_factory=list)
    without: list[str] = field(default_factory=list)
    colors: list[str] = field(default_factory=list)
    card_types: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    role: str | None = None
    tapped: bool | None = None  # said within its description (a `state` part after it)

    def words(self) -> CreatureWords:
        return CreatureWords(name=self.name, owner=self.owner, power=self.power, toughness=self.toughness,
                             abilities=tuple(dict.fromkeys(self.abilities)), without=tuple(dict.fromkeys(self.without)),
                             colors=tuple(dict.fromkeys(self.colors)), card_types=tuple(dict.fromkeys(self.card_types)),
                             types=tuple(dict.fromkeys(self.types)), role=self.role, indefinite=self.indefinite)


_LINKS = frozenset({"avec", "a", "qui", "et", "ayant", "possede", "possedant", "dote", "dotee", "pourvue", "pourvu",
                    "munie", "muni", "le", "la", "l", "ne", "n", "pas", "ni", "du", "de", "d"})
_TRAILING = frozenset({"avec", "a", "qui", "et", "ayant", "le", "la", "l", "ne", "n", "de", "d"})


def _said_pt(p: _Pass, j: int, c: _Described, head_end: int) -> int:
    """« 3/3 », or dictated just after the head, « deux deux »."""
    found = _PT.fullmatch(p.at(j))
    if c.power is not None:
        return 0
    if found:
        c.power, c.toughness = int(found.group(1)), int(found.group(2))
        return 1
    if j == head_end and p.number(j) is not None and p.number(j + 1) is not None \
            and not p.phrase_at(j + 2, "mana") and not p.phrase_at(j + 2, "cards"):
        c.power, c.toughness = p.number(j), p.number(j + 1)
        return 2
    return 0


def _said_owner(p: _Pass, j: int, c: _Described) -> int:
    """« de mon adversaire », « d'Alice »."""
    if p.at(j) in ("de", "d", "du") and p.at(j + 1) == "mon" and p.at(j + 2) == "adversaire":
        c.owner = OPPONENT
        return 3
    if p.at(j) in ("de", "d") and p.is_player_name(j + 1):
        c.owner = _named(p, j + 1)
        return 2
    return 0


def _said_without(p: _Pass, j: int, c: _Described) -> int:
    """« sans le vol », « pas la célérité », « sans capacité »; -1: a negation of something else."""
    if p.at(j) not in ("sans", "pas", "aucun", "aucune", "ni"):
        return 0
    k = j + 1
    while p.at(k) in _ARTICLES | {"de", "d", "capacite"}:
        k += 1
    ability = _ability_at(p, k)
    if ability:
        c.without.append(ability[1])
        return k + ability[0] - j
    span = p.phrase_at(k, "no_ability")
    return k + span - j if span else -1


def _said_link(p: _Pass, j: int) -> int:
    """« avec », « qui a », « le »… before what is said of it; -1: a link to nothing of it."""
    if p.at(j) not in _LINKS:
        return 0
    following = p.at(j + 1)
    if _ability_at(p, j + 1) or (following in ("le", "la", "l") and _ability_at(p, j + 2)) \
            or following in ("a", "la", "le", "l", "ni", "pas", "ne", "n"):
        return 1
    return -1


def _said_kind(p: _Pass, j: int, c: _Described) -> int:
    """An ability, a colour (« incolore »: none), a Wall, an artifact, a role in the combat."""
    ability = _ability_at(p, j)
    if ability:
        c.abilities.append(ability[1])
        return ability[0]
    if p.at(j) in ("incolore", "incolores"):
        return 1
    if p.stem(j) in p.data.colors:
        c.colors.append(p.data.colors[p.stem(j)])
        return 1
    for key, said in (("wall_type", c.types), ("artifact", c.card_types)):
        span = p.phrase_at(j, key)
        if span:
            said.extend(["Mur"] if key == "wall_type" else ["artifact", "creature"])
            return span
    for key, role in (("attacker_role", "attacker"), ("blocker_role", "blocker")):
        span = p.phrase_at(j, key)
        if span:
            c.role = role
            return span
    for key, tapped in (("tapped", True), ("untapped", False)):  # « un ours 2/2 dégagé, sans vol »
        span = p.phrase_at(j, key)
        if span and p.at(j - 1) != "se":
            c.tapped = tapped
            return span
    return 1 if p.at(j) == "creature" and c.card_types else 0


_NAMED_THINGS = frozenset({"trigger", "capacite", "declenchee", "carte", "permanent", "enchantement", "artefact"})


def _creature_start(p: _Pass, i: int, size: int) -> tuple[int, _Described]:
    """Where the mention starts (its owner or article) and what its head says."""
    before = p.at(i - 1)
    start, owner, indefinite = i, None, False
    if before in _OWNER_WORDS:
        owner, start = _possessor(p, i - 1), i - 1
    elif before in _NAMED_THINGS and i in p.names:  # « son trigger « Taxe » » (« sa capacité déclenchée « Dîme » »)
        k = i - 1
        while p.at(k) in _NAMED_THINGS and k > i - 4:
            k -= 1
        if p.at(k) in _OWNER_WORDS:
            owner, start = _possessor(p, k), k
    elif before in ("un", "une"):
        indefinite, start = True, i - 1
    elif before in _ARTICLES:
        start = i - 1
    name: str | None = " ".join(w.typed.rstrip("'’") for w in p.words[i:i + size])
    pt = _PT.fullmatch(p.at(i))
    if pt or (i not in p.names and not p.phrase_at(i, "creature_word")):
        name = None  # « un 3/3 », « mon attaquant »: no name of its own
    elif p.phrase_at(i, "creature_word") and p.words[i].typed[:1].islower() and i not in p.names:
        name = None if p.at(i) in ("creature", "creatures") else p.words[i].typed.lower()
    c = _Described(name=name, owner=owner, indefinite=indefinite)
    if pt:
        c.power, c.toughness = int(pt.group(1)), int(pt.group(2))
    if p.phrase_at(i, "wall"):
        c.types.append("Mur")
    c.role = "attacker" if p.phrase_at(i, "attacker_role") else "blocker" if p.phrase_at(i, "blocker_role") else None
    return start, c


def _creature(p: _Pass, i: int) -> int:
    """A creature mentioned at i, with what follows it (power/toughness, abilities, « sans »,
    colours, « artefact », « de mon adversaire »): a `creature` part (merged into the one said
    just before when it restates it: « son Golem, une créature-artefact »)."""
    size = _creature_head(p, i)
    if not size or p.used[i]:
        return 0
    start, c = _creature_start(p, i, size)
    end = j = i + size
    while j < len(p.texts) and j - end < 12:
        step = _said_pt(p, j, c, end) or _said_owner(p, j, c) or _said_without(p, j, c)
        if step == 0:
            step = _said_link(p, j) or _said_kind(p, j, c)
        if step <= 0:
            break
        j += step
    while j > end and p.at(j - 1) in _TRAILING:  # linking words that introduced nothing
        j -= 1
    if _said_again(p, i, start, j, c):
        return j - i
    _said_before(p, start, c)
    words = c.words()
    p.take(start, j, Part(kind="creature", values={"creature": words}))
    if _cast_before(p, start, j):  # « Alice a lancé sa Guivre »: it came this turn
        p.parts.append((start, Part(kind="state", values={"since_turn_start": False, "creature": words})))
    if c.tapped is not None:
        p.parts.append((start, Part(kind="state", values={"tapped": c.tapped, "creature": words})))
    return j - i


def _said_before(p: _Pass, start: int, c: _Described) -> None:
    """« Bruno contrôle une Araignée », « je contrôle un Mur »: its controller, said before it."""
    if c.owner is not None or p.stem(start - 1) != _stem("controle") or p.used[start - 1]:
        return
    who = p.at(start - 2)
    owner = _named(p, start - 2) if p.is_player_name(start - 2) else ME if who in _ME_SUBJECTS else None
    if owner is not None:
        c.owner = owner
        p.take(start - 1, start)


_PAST_CAST = frozenset({"lance", "joue", "invoque", "cast"})


def _cast_before(p: _Pass, start: int, end: int) -> bool:
    """« il a lancé son Loup », « j'ai joué mon ours » (a past tense, not « peut-il lancer »),
    unless said to be older (« au tour précédent »): a creature cast this turn."""
    k = start - 1
    if p.at(k) not in _PAST_CAST or p.at(k - 1) not in ("a", "ai", "as", "avait", "avais"):
        return False
    if any(p.phrase_at(m, "old_here") for m in range(end, min(end + 12, len(p.texts)))):
        return False
    p.take(k, k + 1)
    return True


def _said_again(p: _Pass, i: int, start: int, j: int, c: _Described) -> bool:
    """« son Golem, une créature-artefact incolore 3/3 », « le Golem est une créature
    artefact »: the creature said just before, said again; its part gets what this adds."""
    if p.at(i) != "creature" or not (c.indefinite or p.at(start - 1) == "est"):
        return False
    previous = next(((s, part) for s, part in p.parts if part.kind == "creature"
                     and (_span_end(p, s) == start or (_span_end(p, s) == start - 1 and p.at(start - 1) == "est"))), None)
    if previous is None:
        return False
    said: CreatureWords = previous[1].values["creature"]
    words = c.words()
    merged = replace(said, power=said.power if said.power is not None else words.power,
                     toughness=said.toughness if said.toughness is not None else words.toughness,
                     abilities=said.abilities + words.abilities, without=said.without + words.without,
                     colors=said.colors + words.colors, card_types=said.card_types + words.card_types,
                     types=said.types + words.types, role=said.role or words.role)
    p.parts.remove(previous)
    p.take(start - (p.at(start - 1) == "est"), j)
    p.parts.append((previous[0], Part(kind="creature", values={"creature": merged})))
    p.ends[previous[0]] = j
    return True


def _state(p: _Pass, i: int) -> int:
    """What is said of the creature named before: tapped, untapped, arrived this turn, under
    its controller's control since the turn began."""
    for key, values in (("doesnt_untap", {"doesnt_untap": True}), ("cant_attack_alone", {"cant_attack_alone": True}),
                        ("tapped", {"tapped": True}), ("untapped", {"tapped": False}),
                        ("new_here", {"since_turn_start": False}), ("old_here", {"since_turn_start": True}),
                        ("phasing", {"phasing": True}), ("phased_out", {"phased_out": True}),
                        ("phased_in", {"phased_out": False})):
        span = p.phrase_at(i, key) or (key == "old_here" and _since_turns(p, i))
        if span and not p.used[i] and p.at(i - 1) != "se":  # « qui se dégage ? » asks, says no state
            if key in ("old_here", "new_here") and p.stem(i - 1) == _stem("controle"):
                p.take(i - 1, i)  # « qu'il contrôle depuis plusieurs tours »
            if key == "new_here" and p.at(i) == "ce" and not _creatures_between(p, 0, i):
                p.take(i, i + span)  # « pendant ce tour »: when, of no creature
                return span
            negated = p.at(i - 1) in ("pas", "non") or (p.at(i - 2) in ("ne", "n") and p.at(i - 1) == "est")
            if negated and "tapped" in values:
                values = {"tapped": not values["tapped"]}
                p.take(i - 1, i)
            group = _group_before(p, i) if p.at(i + span - 1).endswith("s") else []
            if any(p.at(k) in ("tous", "toutes", "chacun", "chacune") for k in range(max(i - 4, 0), i)):  # « tous les deux engagés »
                group = _creatures_between(p, 0, i)[-2:]
                for k in range(max(i - 4, 0), i):
                    if p.at(k) in ("tous", "toutes", "les", "deux", "sont", "ont", "chacun", "chacune"):
                        p.take(k, k + 1)
            if len(group) > 1:  # « Ours et Loup engagés »: said of each
                p.take(i, i + span)
                for _, words in group:
                    p.parts.append((i, Part(kind="state", values={**values, "creature": words})))
                return span
            p.take(i, i + span, Part(kind="state", values=values))
            return span
    return 0


def _since_turns(p: _Pass, i: int) -> int:
    """« depuis 5 tours », « il y a trois tours »: under its controller's control since before
    this turn (a count of turns, one or more)."""
    if p.at(i) == "depuis" and (p.number(i + 1) or 0) >= 1 and p.at(i + 2) in ("tours", "tour"):
        return 3
    if p.at(i) == "il" and p.at(i + 1) == "y" and p.at(i + 2) == "a" and (p.number(i + 3) or 0) >= 1 \
            and p.at(i + 4) in ("tours", "tour"):
        return 5
    return 0


def _said_of_it(p: _Pass, i: int) -> int:
    """« il n'a pas la célérité », « elle a le vol », « (arrivé ce tour-ci) et sans la
    célérité »: an ability said of the creature named before, in a clause of its own."""
    if not p.used[i] and p.at(i) in ("sans", "avec") and _creatures_between(p, 0, i):
        j = i + 1 + (p.at(i + 1) in ("le", "la", "l"))
        ability = _ability_at(p, j)
        if ability is not None and not p.used[j]:
            key = "without" if p.at(i) == "sans" else "abilities"
            p.take(i, j + ability[0], Part(kind="state", values={key: (ability[1],)}))
            return j + ability[0] - i
    if p.used[i] or p.at(i) not in ("il", "elle"):
        return 0
    j = i + 1
    negated = p.at(j) in ("ne", "n")
    j += negated
    if p.at(j) != "a":
        return 0
    j += 1
    negated = negated or p.at(j) == "pas"  # spoken: « il a pas le vol »
    if negated:
        if p.at(j) != "pas":
            return 0
        j += 1
    j += p.at(j) in ("le", "la", "l")
    ability = _ability_at(p, j)
    if ability is None or not _creatures_between(p, 0, i):
        return 0
    end = j + ability[0]
    p.take(i, end, Part(kind="state", values={"without" if negated else "abilities": (ability[1],)}))
    return end - i


def _damage_marked(p: _Pass, i: int) -> int:
    """« qui a déjà 2 blessures marquées », « sans blessure (marquée) », « qui n'a aucune
    blessure »: the damage already on the creature said before."""
    if p.used[i]:
        return 0
    if p.at(i) in ("sans", "aucune", "aucun") and p.phrase_at(i + 1, "damage_word"):
        end = i + 1 + p.phrase_at(i + 1, "damage_word")
        end += p.at(end) in ("marquee", "marquees", "marque", "marques")
        p.take(i - 3 if p.at(i - 1) == "a" and p.at(i - 2) in ("ne", "n") else i, end,
               Part(kind="state", values={"damage": 0}))
        return end - i
    amount = p.number(i)
    if amount is None or p.at(i - 1) not in ("a", "deja") or not p.phrase_at(i + 1, "damage_word"):
        return 0
    end = i + 1 + p.phrase_at(i + 1, "damage_word")
    if p.at(end) not in ("marquee", "marquees", "marque", "marques", "dessus", "sur", "deja"):
        return 0
    end += 1
    start = i - 1 - (p.at(i - 2) == "a" and p.at(i - 1) == "deja")
    p.take(start, end, Part(kind="state", values={"damage": amount}))
    return end - i


def _damage_order(p: _Pass, i: int) -> int:
    """« l'ordre d'assignation des blessures annoncé est le Mur, puis le Cadet », « j'ai mis
    l'ours en premier » (2010 510.1c): the order of an attacker's blockers."""
    if p.used[i] or p.at(i) != "ordre":
        return 0
    listed = _creatures_between(p, i, min(i + 16, len(p.texts)))
    if len(listed) >= 2:
        end = _span_end(p, listed[-1][0])
        p.take(i, end, Part(kind="order", values={"creatures": tuple(c for _, c in listed)}))
        return end - i
    return 0


def _first_in_order(p: _Pass, i: int) -> int:
    """« j'ai mis l'ours en premier »: that blocker first in the order (510.1c)."""
    if p.used[i] or p.at(i) not in ("mis", "place", "mets") or not (p.at(i + 3) == "premier" or p.at(i + 4) == "premier"):
        return 0
    first = _creatures_between(p, i, i + 3)
    if not first:
        return 0
    end = (i + 4 if p.at(i + 3) == "premier" else i + 5)
    p.take(i, end, Part(kind="order_first", values={"creature": first[0][1]}))
    return end - i


def _same(p: _Pass, i: int) -> int:
    """« son Loup aussi »: what was said of the creature before is said of this one."""
    if p.at(i) in ("aussi", "egalement", "pareil") and not p.used[i] and i in p.ends.values() \
            and any(part.kind == "state" for _, part in p.parts):
        p.take(i, i + 1, Part(kind="state", values={"same": True}))
        return 1
    return 0


def _group_before(p: _Pass, i: int) -> list[tuple[int, CreatureWords]]:
    """The creatures said together just before word i (« son ours et son loup »)."""
    found = _creatures_between(p, max(i - 12, 0), i)
    if not found or _span_end(p, found[-1][0]) < i - 2:
        return []
    group = [found[-1]]
    for k in range(len(found) - 2, -1, -1):
        if not _joined(p, found[k][0], group[0][0]):
            break
        group.insert(0, found[k])
    return group


# ---------------------------------------------------------------------- combat
def _creature_at(p: _Pass, position: int) -> CreatureWords | None:
    for start, part in p.parts:
        if part.kind == "creature" and start <= position and _span_end(p, start) > position:
            words: CreatureWords = part.values["creature"]
            return words
    return None


def _span_end(p: _Pass, start: int) -> int:
    return p.ends.get(start, start + 1)


def _creatures_between(p: _Pass, start: int, end: int) -> list[tuple[int, CreatureWords]]:
    return [(s, part.values["creature"]) for s, part in sorted(p.parts, key=lambda x: x[0])
            if part.kind == "creature" and start <= s < end]


def _combat(p: _Pass, question_at: int) -> None:
    """Who attacks and who blocks, said around the combat verbs (not in the asking sentence's
    verb, which asks): « X attaque », « j'attaque avec X », « X est bloqué par Y », « Y bloque X »,
    « je bloque X avec Y », « X n'est pas bloqué »."""
    for i in range(min(question_at, len(p.texts))):
        if not p.used[i]:
            _told_blocked(p, i) or _told_unblocked(p, i) or _told_attack(p, i) or _told_block(p, i)


def _group(p: _Pass, found: list[tuple[int, CreatureWords]]) -> tuple[CreatureWords, ...]:
    """The first creature found and those said together with it (« son ours et son loup »)."""
    group = [found[0][1]]
    for k in range(1, len(found)):
        if not _joined(p, found[k - 1][0], found[k][0]):
            break
        group.append(found[k][1])
    return tuple(group)


def _told_blocked(p: _Pass, i: int) -> bool:
    """« X est bloqué par Y (et Z) »."""
    span = p.phrase_at(i, "blocked_by")
    if not span:
        return False
    before = _creatures_between(p, 0, i)
    after = _creatures_between(p, i + span, len(p.texts))
    if before and after:
        p.take(i, i + span, Part(kind="blocked", values={"attacker": before[-1][1], "blockers": _group(p, after)}))
    return True


def _told_unblocked(p: _Pass, i: int) -> bool:
    span = p.phrase_at(i, "unblocked")
    if span:
        p.take(i, i + span, Part(kind="state", values={"unblocked": True}))
    return bool(span)


def _told_attack(p: _Pass, i: int) -> bool:
    """« j'attaque avec X (et Y) », « X attaque »."""
    span = p.phrase_at(i, "attack_verb")
    if not span:
        return False
    after = _creatures_between(p, i + span, min(i + span + 8, len(p.texts)))
    before = _creatures_between(p, max(i - 6, 0), i)
    if p.at(i + span) == "avec" and after:
        p.take(i, i + span + 1, Part(kind="attack", values={"creatures": _group(p, after)}))
    elif before:
        p.take(i, i + span, Part(kind="attack", values={"creatures": (before[-1][1],)}))
    return True


def _told_block(p: _Pass, i: int) -> bool:
    """« je bloque X avec Y », « il bloque avec Y », « Y bloque X », « Y bloque »."""
    span = p.phrase_at(i, "block_verb")
    if not span:
        return False
    after = _creatures_between(p, i + span, min(i + span + 10, len(p.texts)))
    before = _creatures_between(p, max(i - 6, 0), i)
    with_at = next((j for j in range(i + span, min(i + span + 8, len(p.texts))) if p.at(j) == "avec"), None)
    attacker = [c for s, c in after if with_at is not None and s < with_at]
    blockers = [c for s, c in after if with_at is not None and s > with_at]
    if attacker and blockers and with_at is not None:
        p.take(i, i + span, Part(kind="blocked", values={"attacker": attacker[0], "blockers": tuple(blockers)}))
        p.take(with_at, with_at + 1)
    elif p.at(i + span) == "avec" and after:
        p.take(i, i + span + 1, Part(kind="blocked", values={"attacker": None, "blockers": (after[0][1],)}))
    elif before and after:
        p.take(i, i + span, Part(kind="blocked", values={"attacker": after[0][1], "blockers": (before[-1][1],)}))
    elif before:
        p.take(i, i + span, Part(kind="blocked", values={"attacker": None, "blockers": (before[-1][1],)}))
    return True


def _joined(p: _Pass, first: int, second: int) -> bool:
    """Two creatures said together (« son ours et son loup », « un 2/2, un 1/1 »)."""
    end = _span_end(p, first)
    between = p.texts[end:second]
    return "et" in between and all(t in {"et", "ou"} | _ARTICLES | set(_OWNER_WORDS) for t in between)


# ---------------------------------------------------------------------- the question
def _subject(p: _Pass, i: int, reach: int = 4) -> str | None:
    """The player who does what word i says: the nearest subject before it (within `reach` words)."""
    for j in range(i - 1, max(i - 1 - reach, -1), -1):
        text = p.at(j)
        if text in _ME_SUBJECTS:
            return ME
        if text in _THEM_SUBJECTS:  # « il »: the player named last before, else the opponent
            named = next((k for k in range(j - 1, -1, -1) if p.is_player_name(k)), None)
            return _named(p, named) if named is not None else OPPONENT
        if text == "adversaire" and p.at(j - 1) in ("mon", "son", "l", "le"):
            return OPPONENT
        if p.is_player_name(j):
            return _named(p, j)
        if p.phrase_at(j, "nonactive_player"):
            return NONACTIVE
        if p.phrase_at(j, "active_player"):
            return ACTIVE
    return None


@dataclass(slots=True)
class _Asked:
    """What the kind readers share: the pass, the kinds the asking sentence's words say, where
    that sentence starts, the creatures said."""

    p: _Pass
    kinds: frozenset[str]
    start: int
    creatures: list[CreatureWords]

    def cue_at(self, key: str) -> list[int]:
        """Where a phrase of `key` starts in the asking sentence, among the words not yet read."""
        return [i for i in self.p.find(key, self.start) if not self.p.used[i]]

    def said(self, kind: str) -> bool:
        return any(part.kind == kind for _, part in self.p.parts)


def _question_part(ask: str, at: int = 0, **values: object) -> Part:
    return Part(kind="question", values={"ask": ask, "_at": at, **values})


def _ask_mana_burn(a: _Asked) -> Part | None:
    if not a.said("mana"):
        return None
    p = a.p
    player = next((who for who in (_subject(p, i) for i in a.cue_at("loss_verb")) if who is not None), None)
    owners = {part.values["owner"] for _, part in p.parts if part.kind == "mana" and "owner" in part.values}
    if owners and (len(owners) > 1 or player not in (None, *owners)):
        return None  # whose mana, whose loss: not one player
    return _question_part("mana_burn", player=player or next(iter(owners), None))


def _ask_discard(a: _Asked) -> Part | None:
    if not a.said("hand"):
        return None
    at = a.cue_at("discard_verb")
    return _question_part("discard", player=_subject(a.p, at[-1]) if at else None)


def _ask_play_land(a: _Asked) -> Part | None:
    if _spell_kind(a.p, a.start) is not None:
        return None
    land = _land_question(a.p, a.start)
    return None if land is None else Part(kind="question", values={**land.values, "_at": len(a.p.texts)})


def _ask_cast(a: _Asked) -> Part | None:
    p = a.p
    cast_kind = _spell_kind(p, a.start)
    if cast_kind is None:
        return None
    at, kind = cast_kind
    verbs = [i for i in a.cue_at("cast_verb") if i < at]
    if not verbs and p.used[at]:
        return None  # a card type said of a creature (« créature-artefact »), not a spell asked about
    kind = _cast_spell(p, at, kind)
    p.take(at, at + 1)
    return _question_part("cast", at, kind=kind, player=_subject(p, verbs[-1] if verbs else at))


def _ask_block(a: _Asked) -> Part | None:
    at = [i for i in a.cue_at("block_verb") if not _told_verb(a.p, i)]
    if not at:
        return None
    return Part(kind="question", values={**_block_question(a.p, at[-1]).values, "_at": at[-1]})


def _ask_attack(a: _Asked) -> Part | None:
    p = a.p
    at = [i for i in a.cue_at("attack_verb") if not _told_verb(p, i)]
    if not at or not a.creatures:
        return None
    p.take(at[-1], at[-1] + p.phrase_at(at[-1], "attack_verb"))
    subject = _creatures_between(p, a.start, len(p.texts)) or [(0, a.creatures[-1])]
    if a.kinds & {"declare_attackers"} and p.find("declare_verb", a.start) and p.find("modal", a.start):
        return _declaration(a, at[-1], subject[0][1])
    return _question_part("attack", at[-1], creature=subject[0][1])


def _declaration(a: _Asked, at: int, creature: CreatureWords) -> Part:
    """« je déclare l'Ours seul : ok ? », « j'attaque avec les deux ensemble »: this declaration."""
    p = a.p
    together = [k for k in range(a.start, len(p.texts)) if p.phrase_at(k, "together")]
    if not together and not any(p.at(k) in ("seul", "seule") for k in range(a.start, len(p.texts))):
        return _question_part("attack", at, creature=creature)  # « peut-il être déclaré attaquant ? »: one creature
    if not together:
        return _question_part("declare_attackers", at, creature=creature)
    for k in together:
        p.take(k, k + p.phrase_at(k, "together"))
    p.parts.append((together[0], Part(kind="attack", values={"creatures": tuple(a.creatures)})))
    return _question_part("declare_attackers", at, creature=None)


def _ask_combat_timing(a: _Asked) -> Part | None:
    """« je peux le lancer ? » of a spell « seulement avant la déclaration des bloqueurs »."""
    if not a.said("timing"):
        return None
    at = a.cue_at("cast_verb") or a.cue_at("modal")
    return _question_part("combat_timing", at[-1]) if at else None


def _ask_untap(a: _Asked) -> Part | None:
    at = a.cue_at("untap_q")
    if not at or not any(part.kind == "moment" and part.values["step"] == Step.UNTAP for _, part in a.p.parts):
        return None
    return _question_part("untap", at[-1])


def _ask_by_words(ask: str, key: str) -> _KindReader:
    """A kind asked by its words alone (« qui a la priorité ? », « on est où ? »)."""
    def reader(a: _Asked) -> Part | None:
        at = [i for i in a.cue_at(key) if not (key == "next_q" and a.p.at(i - 1) == "se")]
        return _question_part(ask, at[-1]) if at else None
    return reader


def _ask_damage_dealt(a: _Asked) -> Part | None:
    at = a.cue_at("damage_dealt_q")
    if not at:
        return None
    if a.p.find("player_target", a.start):  # « combien au joueur ? »
        return _question_part("damage_dealt", at[-1], to_player=True, player=None)
    return _question_part("damage_dealt", at[-1])


def _ask_deals_damage(a: _Asked) -> Part | None:
    """« mon ours fait ses blessures ? »: its subject, the creature said just before the verb;
    « il » alone: the story's first creature."""
    p = a.p
    at = [k for k in a.cue_at("deals_damage_q") if not any(p.at(m) == "avant" for m in range(max(k - 5, 0), k))]
    if not at:
        return None  # « avant qu'elles ne soient infligées »: when, not what is asked
    asked = _creatures_between(p, a.start, at[-1])
    pronoun = any(p.at(k) in ("il", "elle") for k in range(max(at[-1] - 3, 0), at[-1]))
    first = a.creatures[0] if a.creatures else None
    return _question_part("deals_damage", at[-1], creature=first if pronoun or not asked else asked[-1][1])


def _ask_turn_order(a: _Asked) -> Part | None:
    """« à qui sont les trois prochains tours ? », « c'est qui les 3 prochains tours ? »: how many."""
    p = a.p
    at = a.cue_at("turn_order_q")
    if not at or not a.said("extra_turn"):
        return None
    k = at[-1]
    span = p.phrase_at(k, "turn_order_q")
    count = p.number(k - 1)
    if p.at(k - 1) in ("un", "une") or (count is None and p.at(k - 1) in ("le", "les")):
        count = 1 if p.at(k - 1) in ("le", "un", "une") else None
    p.take(k - (count is not None), k + span)
    return _question_part("turn_order", k, count=count)


def _ask_triggers(a: _Asked) -> Part | None:
    """« dans quel ordre vont-elles sur la pile ? » of the cards whose abilities trigger (« son
    Autel qui se déclenche au début de son entretien », « la Malédiction du NAP »)."""
    p = a.p
    at = a.cue_at("triggers_q")
    if not at or not a.creatures or not a.said("moment"):
        return None
    if any(c.name is not None and len(c.name) == 1 for c in a.creatures):
        return None  # « de A », « B a … »: players, read as cards
    if any(p.at(k) in ("son", "sa", "mon", "ma", "un", "une", "ses", "mes") and not p.used[k + 1]
           and p.stem(k + 1) not in p.data.neutral and p.number(k + 1) is None for k in range(len(p.texts) - 1)):
        return None  # « son autel »: a card not read (its ability would be missing from the answer)
    for k in range(len(p.texts)):
        span = p.phrase_at(k, "trigger_words")
        if span and not p.used[k]:
            p.take(k, k + span)
    return _question_part("triggers", at[-1])


def _ask_defending_players(a: _Asked) -> Part | None:
    """« quels sont les joueurs défenseurs ? », « c'est qui qui défend ? » (no attacking creature
    named: of one creature, `defending_player`)."""
    at = a.cue_at("defenders_q")
    if not at or a.creatures:
        return None
    return _question_part("defending_players", at[-1])


_KindReader = Callable[[_Asked], "Part | None"]
# Each kind's reader, run when the asking sentence's words say that kind (`kinds.asked_kinds`);
# « untap », « happens » and « damage_dealt » have words of their own.
_KIND_READERS: tuple[tuple[str, _KindReader], ...] = (
    ("mana_burn", _ask_mana_burn), ("discard", _ask_discard), ("play_land", _ask_play_land),
    ("cast", _ask_cast), ("block", _ask_block), ("attack", _ask_attack),
    ("priority", _ask_by_words("priority", "priority_q")), ("where", _ask_by_words("where", "where_q")),
    ("next", _ask_by_words("next", "next_q")), ("rest_of_turn", _ask_by_words("rest_of_turn", "rest_q")),
    ("damage_steps", _ask_by_words("damage_steps", "damage_steps_q")),
    ("in_combat", _ask_by_words("in_combat", "in_combat_q")), ("deals_damage", _ask_deals_damage),
    ("turn_order", _ask_turn_order), ("triggers", _ask_triggers),
)
_OWN_WORDS: tuple[tuple[str, _KindReader], ...] = (
    ("combat_timing", _ask_combat_timing), ("untap", _ask_untap), ("defending_players", _ask_defending_players), ("happens", _ask_by_words("happens", "happens_q")), ("damage_dealt", _ask_damage_dealt))
# When the words ask several kinds, the one that says most (« combien de blessures infligées ? »
# over « inflige-t-il ? »), else the last action verb (« il m'attaque … : il peut bloquer ? »).
_PREFERRED = ("combat_timing", "untap", "defending_players", "damage_dealt", "deals_damage", "happens")
_ACTIONS = frozenset({"attack", "block", "cast", "play_land"})


def _question(p: _Pass, kinds: frozenset[str], asking_start: int) -> Part | None:
    """The question asked: the one kind whose words ask it and whose facts were said."""
    asked = _Asked(p=p, kinds=kinds, start=asking_start,
                   creatures=[part.values["creature"] for _, part in p.parts if part.kind == "creature"])
    readers = [reader for kind, reader in _KIND_READERS if kind in kinds] + [reader for _, reader in _OWN_WORDS]
    if "block" in kinds:  # « bloquer l'attaquant »: the block is asked
        readers = [reader for reader in readers if reader is not _ask_attack]
    candidates = [part for part in (reader(asked) for reader in readers) if part is not None]
    chosen = _chosen(candidates)
    if chosen is None:
        return None
    for key in _ASKING_WORDS.get(str(chosen.values["ask"]), ()):
        for i in p.find(key, asking_start):
            if not p.used[i]:
                p.take(i, i + p.phrase_at(i, key))
    return Part(kind="question", values={k: v for k, v in chosen.values.items() if k != "_at"})


def _chosen(candidates: list[Part]) -> Part | None:
    """The one question among the kinds read, or None."""
    asks = {c.values["ask"] for c in candidates}
    if asks == {"where", "priority"}:  # « on est où et qui a la priorité ? »: `where` says both
        candidates = [c for c in candidates if c.values["ask"] == "where"]
    actions = [c for c in candidates if c.values["ask"] in _ACTIONS]
    if len(asks) > 1 and len(actions) > 1:
        last = max(actions, key=lambda c: int(str(c.values["_at"])))
        candidates = [c for c in candidates if c not in actions or c is last]
    preferred = next((kind for kind in _PREFERRED if kind in asks), None)
    if preferred is not None and len(asks) > 1:
        candidates = [c for c in candidates if c.values["ask"] == preferred]
    return candidates[0] if len(candidates) == 1 else None


# The words that ask each kind (`[slot_words.phrases]`): once the question is known, they are
# its words wherever they stand in the asking sentence.
_ASKING_WORDS = {"mana_burn": ("loss_verb", "mana", "mana_words"), "discard": ("discard_verb", "cards"),
                 "play_land": ("land", "land_verb", "another", "modal"), "cast": ("cast_verb", "modal"),
                 "attack": ("attack_verb", "modal"), "block": ("block_verb", "modal"),
                 "priority": ("priority_q", "first_words"), "where": ("where_q",), "next": ("next_q",), "rest_of_turn": ("rest_q",),
                 "damage_steps": ("damage_steps_q", "damage_word"), "in_combat": ("in_combat_q",),
                 "deals_damage": ("deals_damage_q", "damage_word"), "damage_dealt": ("damage_dealt_q", "damage_word"),
                 "happens": ("happens_q",), "untap": ("untap_q",), "turn_order": ("turn_order_q", "whose"), "triggers": ("triggers_q",), "defending_players": ("defenders_q",), "combat_timing": ("cast_verb", "modal")}


def _told_verb(p: _Pass, i: int) -> bool:
    """A combat verb that tells what happened, not what is asked: passive with its agent
    (« est bloqué par »), « attaque avec », or no modal (« peut », « ok ») before it in its clause."""
    if any(p.phrase_at(j, "modal") for j in range(max(i - 6, 0), i)):
        return False  # « peut-il le bloquer avec son Golem ? »
    if p.at(i + 1) in ("par", "avec") or p.at(i - 1) in ("est", "sont", "a", "ai", "fait") or p.phrase_at(i - 1, "blocked_by"):
        return True
    return not any(p.phrase_at(j, "modal") for j in range(i, min(i + 8, len(p.texts))))


def _spell_kind(p: _Pass, start: int) -> tuple[int, str] | None:
    """A spell's kind named in the asking sentence (« un éphémère », « un rituel », « une
    créature avec le flash »), with where it is; None when there is none or several."""
    found: list[tuple[int, str]] = []
    for i in range(start, len(p.texts)):
        if p.used[i] and not p.phrase_at(i, "creature_word"):
            continue
        for phrase, slug in p.data.kinds:
            if p.seq(i, phrase):
                found.append((i, slug))
                break
    found = [f for f in found if f[1] != "creature" or not any(g[1] != "creature" for g in found)]
    if not found and start > 0 and any(p.at(k) in ("le", "la", "l") and p.phrase_at(k + 1, "cast_verb")
                                       for k in range(start, len(p.texts))):
        return _spell_kind(p, 0)  # « je peux le jouer ? »: the one told
    if len({slug for _, slug in found}) != 1:
        return None
    return found[-1]


def _cast_spell(p: _Pass, at: int, slug: str) -> str:
    """The creature spell asked about is a spell, not a creature on the battlefield: its part
    goes, and its flash says when it may be cast."""
    spell = next(((s, part) for s, part in p.parts if part.kind == "creature" and s <= at < _span_end(p, s)), None)
    if spell is not None and slug in ("creature", "creature_with_flash"):
        p.parts.remove(spell)
        if "flash" in spell[1].values["creature"].abilities:
            return "creature_with_flash"
    return slug


def _land_question(p: _Pass, start: int) -> Part | None:
    verbs = [i for i in p.find("land_verb", start) if not p.used[i]]
    lands = [i for i in p.find("land", start) if not p.used[i]]
    if not lands and not (verbs and p.at(verbs[-1] - 1) == "en"):
        return None
    others = [i for i in p.find("another", start) if not p.used[i]]
    another = bool(others)
    for i in others:
        p.take(i, i + 1)
    for i in lands + verbs:
        p.take(i, i + 1)
    return Part(kind="question", values={"ask": "play_land", "another": another,
                                         "player": _subject(p, (verbs or lands)[-1])})


def _block_question(p: _Pass, at: int) -> Part:
    """« X peut-il bloquer Y ? », « je peux bloquer son Y avec mon X ? », « Y peut-il être bloqué
    par X ? »: the blocker and the attacker, when said."""
    span = p.phrase_at(at, "block_verb")
    p.take(at, at + span)
    after = _creatures_between(p, at + span, len(p.texts))
    before = _creatures_between(p, 0, at)
    passive = p.phrase_at(at - 1, "passive") or p.at(at + span) == "par"
    with_at = next((j for j in range(at + span, len(p.texts)) if p.at(j) == "avec"), None)
    blocker: CreatureWords | None = None
    attacker: CreatureWords | None = None
    if with_at is not None:
        attacker = next((c for s, c in after if s < with_at), None)
        blocker = next((c for s, c in after if s > with_at), None)
        p.take(with_at, with_at + 1)
    elif passive:
        attacker = before[-1][1] if before else None
        blocker = after[0][1] if after else None
        if p.at(at + span) == "par":
            p.take(at + span, at + span + 1)
    else:
        blocker = before[-1][1] if before else None
        attacker = after[0][1] if after else None
    return Part(kind="question", values={"ask": "block", "creature": blocker, "attacker": attacker})


def _assignment(p: _Pass) -> None:
    """« je mets 1 sur l'ours et 4 sur le loup », « 3 dans sa face », « les six blessures sur
    l'elfe et rien sur l'ours », « une seule blessure à l'Ours et quatre à Bruno »: a proposed
    damage assignment (`assignment` shares)."""
    shares: list[tuple[int, tuple[str, object]]] = []
    used: list[int] = []
    for i in range(len(p.texts)):
        if p.used[i] and not _PT.fullmatch(p.at(i)):
            continue
        start = i
        amount = p.number(i)
        if amount is None and p.at(i) in ("rien", "aucune", "aucun", "zero"):
            amount = 0
        if amount is None and p.at(i) in ("les", "mes", "ses") and p.number(i + 1) is not None:
            amount, i = p.number(i + 1), i + 1
        if amount is None or (p.at(i) in ("un", "une") and p.phrase_at(i + 1, "creature_word")):
            continue
        j = i + 1 + (p.at(i + 1) in ("seule", "seul"))
        if p.phrase_at(j, "damage_word"):
            j += p.phrase_at(j, "damage_word")
        if p.at(j) not in ("sur", "a", "au", "aux", "dans", "pour", "vers"):
            continue
        target = _creature_at(p, j + 1) or _creature_at(p, j + 2)
        if target is not None:
            shares.append((amount, ("creature", target)))
            used += list(range(start, j + 1))
            continue
        k = j + 1 + (p.at(j + 1) in _ARTICLES | _OWNER_WORDS.keys())
        span = p.phrase_at(k, "player_target") or (p.at(j) == "au" and p.phrase_at(j + 1, "player_target")) \
            or (p.is_player_name(k) and 1)
        if span:
            shares.append((amount, ("player", OPPONENT)))
            used += list(range(start, k + span))
    if len(shares) >= 2 or (shares and any(kind == "player" for _, (kind, _) in shares)):
        for i in used:
            p.take(i, i + 1)
        for i in p.find("assign_words"):  # « au moment d'assigner les blessures », « répartir comme ça »
            p.take(i, i + p.phrase_at(i, "assign_words"))
        p.parts.append((min(used), Part(kind="assignment", values={"shares": tuple(shares)})))


def _stack_told(p: _Pass, asking_start: int) -> None:
    """A spell or ability on the stack, told (« un éphémère de Bruno est encore sur la pile »,
    « Alice lance un éphémère », « j'ai lancé un rituel »): a `stack` part with its caster."""
    for i in range(len(p.texts)):
        if p.used[i]:
            continue
        kind = next(((len(phrase), slug) for phrase, slug in p.data.kinds if p.seq(i, phrase)), None)
        if kind is None:
            continue
        size, slug = kind
        end = i + size
        owner: str | None = None
        start = i - (p.at(i - 1) in ("un", "une", "mon", "son", "ma", "sa", "le", "la", "l"))
        if p.at(end) in ("de", "d") and p.is_player_name(end + 1):
            owner, end = _named(p, end + 1), end + 2
        on_stack = next((k for k in range(end, min(end + 4, len(p.texts))) if p.at(k) == "pile"), None)
        verb = next((k for k in range(max(start - 3, 0), start) if p.phrase_at(k, "cast_verb") and not p.used[k]), None)
        if on_stack is not None:
            p.take(start, on_stack + 1)
        elif verb is not None and i < asking_start and not any(p.phrase_at(k, "modal") for k in range(max(verb - 3, 0), verb)):
            owner = owner or _subject(p, verb)
            p.take(verb, verb + 1)
            p.take(start, end)
        else:
            continue
        if owner is None and p.at(start) in ("mon", "ma"):
            owner = ME
        p.take(start, end, Part(kind="stack", values={"item": {"kind": slug, "owner": owner}}))


# ---------------------------------------------------------------------- the pass
def slot_parts(words: tuple[Word, ...], asked: tuple[str, ...]) -> tuple[Part, ...] | None:
    """The parts of a question, in the question's order, or None when no one kind is asked or
    a word of game meaning fills no slot."""
    return slot_reading(words, asked)[0]


def slot_reading(words: tuple[Word, ...], asked: tuple[str, ...]) -> tuple[tuple[Part, ...] | None, tuple[str, ...]]:
    """`slot_parts`, and the words of game meaning it could not place (as typed): what the
    judge is told was not understood."""
    from judge.ask.reader import MAX_NAMES, name_positions

    if not words or len(words) > MAX_SLOT_WORDS or len(name_positions(words)) > MAX_NAMES:
        return None, ()  # not a question of the table: refused by the reader's caps
    p, question, left = _read(words, asked)
    if left or (question is None and not any(part.kind == "assignment" for _, part in p.parts)):
        return None, tuple(dict.fromkeys(left))
    return _slot_parts(p, question), ()


def _slot_parts(p: _Pass, question: Part | None) -> tuple[Part, ...] | None:
    parts = _ordered(_placed_lands(sorted(p.parts, key=lambda item: item[0])))
    if question is not None and question.values["ask"] == "discard":  # the cleanup discards: the last moment said
        moments = [part for part in parts if part.kind == "moment"]
        parts = [part for part in parts if part.kind != "moment" or part is moments[-1]]
    if question is not None and question.values["ask"] in ("next", "rest_of_turn") and any(
            part.kind == "moment" and part.values["step"] == Step.DECLARE_ATTACKERS for part in parts):
        # « aucun attaquant ; après la déclaration des attaquants ? »: a fact of that step, no replay
        parts = [Part(kind="attackers_none") if part.kind == "no_attackers" else part for part in parts]
    if any(part.kind == "game" and len(part.values.get("players", ())) >= 3 for part in parts):
        named_parts = _by_names(parts)
        if named_parts is None:
            return None
        parts = named_parts
    elif p.typed_names and len(p.typed_names) == len(set(p.typed_names.values())):  # « Alice » answered as Alice, not A
        parts.append(Part(kind="names", values={"names": tuple(sorted(p.typed_names.items()))}))
    if not p.first_person:
        parts.append(Part(kind="told_of"))  # no « vous »: the one who asks plays no part
    if question is not None:
        parts.append(question)
    return tuple(parts)


def _by_names(parts: list[Part]) -> list[Part] | None:
    """Three players or more, named: whose turn and who takes an extra turn by their names (the
    « you » and « your opponent » of two players say nothing of a third); None when a turn or
    an extra turn cannot be given a name."""
    out: list[Part] = []
    if not any(part.kind == "turn" for part in parts):  # « pendant la phase de combat d'Alice »: hers
        whose = {part.values["name"] for part in parts if part.kind == "moment" and part.values.get("name")}
        if len(whose) == 1:
            out.append(Part(kind="turn", values={"owner": None, "named": tuple(whose)}))
    for part in parts:
        if part.kind == "turn":
            name = part.values.get("name") or ("moi" if part.values.get("owner") == ME else None)
            if name is None:
                return None
            out.append(Part(kind="turn", values={"owner": None, "named": (name,)}))
        elif part.kind == "extra_turn":
            name = part.values.get("name") or ("moi" if part.values.get("who") == ME else None)
            if name is None:
                return None
            out.append(Part(kind="extra_turn", values={"who": name, "named": True, "count": part.values["count"]}))
        else:
            out.append(part)
    return out


def _ordered(parts: list[Part]) -> list[Part]:
    """« j'ai mis l'ours en premier »: the order of the blockers, that one first, then the others
    in the order they were said."""
    out: list[Part] = []
    for part in parts:
        if part.kind != "order_first":
            out.append(part)
            continue
        first = part.values["creature"]
        blockers = [b for q in parts if q.kind == "blocked" for b in q.values["blockers"]]
        rest = [b for b in blockers if b.name != first.name]
        if len(rest) + 1 == len(blockers):
            out.append(Part(kind="order", values={"creatures": (first, *rest)}))
    return out


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


# The pass's matchers, in the order they are tried at each word: the first that reads something
# there says how many words it read. Facts of the turn first, then the creatures (which the
# facts' words would otherwise be taken for), then what is said of the creatures.
_Matcher = Callable[["_Pass", int], int]
_TURN_FACTS: tuple[_Matcher, ...] = (
    _citation, _roster, _game_said, _edition, _active_said, _timing, _damage_on_stack, _moment, _turn, _extra_turn,
    _extra_turn_again, _counted, _no_effect, _before_resolution, _land_told, _first_turn, _stack, _no_attackers,
    _priority_holder, _passing)
_CREATURE_FACTS: tuple[_Matcher, ...] = (
    _state, _same, _said_of_it, _damage_marked, _damage_order, _first_in_order)


def _each_word(p: _Pass, matchers: tuple[_Matcher, ...]) -> None:
    i = 0
    while i < len(p.texts):
        i += next((step for step in (matcher(p, i) for matcher in matchers) if step), 0) or 1


def _read(words: tuple[Word, ...], asked: tuple[str, ...]) -> tuple[_Pass, Part | None, list[str]]:
    """One pass: the slots filled, the question, and the words of game meaning left unplaced."""
    from judge.ask.kinds import asked_kinds
    from judge.ask.reader import name_positions

    p = _Pass(words, name_positions(words), slot_words())
    asking_start = _asking_start(p, asked)
    _each_word(p, _TURN_FACTS)
    i = 0
    while i < len(p.texts):
        i += (_creature(p, i) if not p.used[i] else 0) or 1
    _each_word(p, _CREATURE_FACTS)
    _assignment(p)
    _stack_told(p, asking_start)
    question = None if any(part.kind == "assignment" for _, part in p.parts) else \
        _question(p, asked_kinds(asked), asking_start)
    _combat(p, len(p.texts))
    _restated(p)
    if question is not None and question.values["ask"] in ("mana_burn",):
        _passes_end_the_moment(p)
    return p, question, _unplaced(p)


def _passes_end_the_moment(p: _Pass) -> None:
    """« … et tout le monde passe avec la pile vide : combien perd-il ? »: the moment said ends
    (mana burn is lost when the phase ends)."""
    passes = [(s, part) for s, part in p.parts if part.kind == "pass" and part.values["who"] == "all"]
    moments = [(s, part) for s, part in p.parts if part.kind == "moment"]
    if passes and len(moments) == 1:
        for item in passes:
            p.parts.remove(item)
        s, part = moments[0]
        p.parts.remove(moments[0])
        p.parts.append((s, Part(kind="moment", values={**part.values, "end": True})))


def _asking_start(p: _Pass, asked: tuple[str, ...]) -> int:
    """Where the asking sentence starts among the words: where its words stand (a statement may
    follow it: « … dans sa seconde phase principale ? Aucun effet ne le lui permet. »), else the
    last `len(asked)` words."""
    size = len(asked)
    if size:
        for start in range(len(p.texts) - size, -1, -1):
            if tuple(p.texts[start:start + size]) == asked:
                return start
    return max(len(p.texts) - size, 0)


def _restated(p: _Pass) -> None:
    """The words that restate a slot filled (« dans ma réserve » of the mana left), who has
    priority, and the fillers of the slots."""
    said = {part.kind for _, part in p.parts}
    for i in range(len(p.texts)):
        if p.used[i]:
            continue
        if "mana" in said and p.phrase_at(i, "mana_words"):
            p.take(i, i + p.phrase_at(i, "mana_words"))


def _unplaced(p: _Pass) -> list[str]:
    """The words left that carry game meaning: a deciding word (an ability, a type, a colour, a
    step, an action, an out-of-scope topic), a number, a name or a negation that fills no slot
    (« ou pas » ending a question is none)."""
    data = p.data
    left = []
    named = {p.at(i) for i in range(len(p.texts)) if p.is_player_name(i)}
    if len(named) <= 2:  # two players: a name says who is who, already placed (`_named`)
        for i in range(len(p.texts)):
            if p.is_player_name(i):
                _named(p, i)
    for i, text in enumerate(p.texts):
        if p.used[i] or p.stems[i] in data.neutral or text in data.neutral:
            continue
        if (i in p.names or text.isdigit() or _PT.fullmatch(text) or p.stems[i] in data.deciding
                or text in data.deciding or (p.phrase_at(i, "negation") and p.at(i - 1) != "ou")):
            left.append(p.words[i].typed)
    return left


def explain_pass(words: tuple[Word, ...], asked: tuple[str, ...]) -> str:
    """For development (`bench/eval_ask.py --slots`): the words used, the parts, what is left."""
    p, question, left = _read(words, asked)
    used = " ".join(t if u else f"[{t}]" for t, u in zip(p.texts, p.used, strict=True))
    parts = "; ".join(f"{part.kind}{part.values}" for _, part in sorted(p.parts, key=lambda x: x[0]))
    return f"  words: {used}\n  parts: {parts}\n  question: {question and question.values}\n  left: {left}"
