"""Full-text search over every rule of a corpus: query planning and ranking, on any index.

Owns query handling (rule numbers first, FR↔EN glossary, BM25F, fuzzy fallback, "recherche
aussi") over an `Index` (`judge.search.protocol`), the Whoosh engine (`judge.search.engine`);
`templates/search.js` spells out the same steps for the static book (tested equal in Chromium,
tests/site/test_search_browser.py). Matching and scoring the query tree is `judge.search.match`, result shapes and
outputs `judge.search.output`, text analysis `judge.search.tokens`. Queries longer than
`MAX_QUERY` characters are truncated, with a notice in the result.

Ties: equal scores rank by the query's language first, then rule order (the index's
document order: manifest editions, then the text's order), in every implementation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

from judge.corpus.numbers import plain_numbers, typed_pattern
from judge.errors import JudgeError, UnknownEdition
from judge.normalize import fold, levenshtein
from judge.search.abbreviations import abbreviations, spelled_out
from judge.search.fields import MAX_QUERY, OWN_FIELDS
from judge.search.match import And, Clause, Node, Or, Phrase
from judge.search.output import SearchResult, make_hit
from judge.search.tokens import fold_terms, suggestion

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from judge.corpus.lexicon import GlossaryTerm
    from judge.search.protocol import Index

    _Glossary = tuple[dict[str, tuple[tuple[str, ...], ...]], dict[tuple[str, ...], GlossaryTerm], dict[str, str]]
    Stem = Callable[[str], str]

_MEMO_SIZE = 4096  # words whose spelling correction is remembered, per open index
# Query-time weights of the ranked fields (BM25F sums them).
DIRECT_SCORE = 100.0
CHILD_SCORE = 50.0
# A rule in another language than the one asked for (the edition's first language unless the
# query says otherwise) keeps this share of its score: French first, English still found.
OTHER_LANGUAGE = 0.4
GLOSSARY_HITS = 3  # glossary entries shown with the rules
# A rule whose name (heading) is exactly what the query asks for ("mana abilities" -> 406
# Mana Abilities, "haste" -> 502.5 Haste) is the definition: its score is multiplied.
NAME_MATCH = 2.0
# A query that is only a notion of the terminology: its defining rules come first, with this score.
DEFINED_SCORE = 90.0
# A rule that refines the general rules for a variant of the game (terminology notions marked
# `variant`: multiplayer, Two-Headed Giant…) keeps this share of its score unless the query names it.
VARIANT = 0.5
# When another language's best hit answers more of the query than the first language's best,
# that language's best is scaled to this much of the first's (the only good hit is not buried).
BETTER_LANGUAGE = 1.25
# The best BM25 hits of each language that the ranking weighs (coverage, definitions…), beyond
# three per result asked: enough that a rule answering every notion is not cut before it is weighed.
CANDIDATES = 100
# A name's words the query holds apart: at most this many other words between them beyond the
# name's own (« mettre une machination à exécution »).
NAME_GAP = 2
# The last word of a query still being typed completes a terminology name after its first words
# when it has at least this many letters (« lien de vi » is « lien de vie »).
PREFIX_MIN = 2
PAIR_BOOST = 1.0  # two typed words side by side in a rule (slop 1): a phrase the query holds
# A rule that defines a notion the query names (with other words: « sous-partie Shahrazad »).
DEFINES = 2.0
# A rule of the kind that answers the relation a question asks (`RELATIONS`).
RELATION = 1.5
# A rule under a defining rule of a notion the query names (its section, its sub-rules: « rediriger
# les blessures sur un planeswalker » -> 306.7 under 306 Planeswalkers) that names the notion itself
# comes before a rule that merely mentions it — unless that defining rule is a heading
# the query names, its section answering the rest: the heading is the answer then (`NAME_MATCH`).
IN_SECTION = 1.3
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]")
# A rule number once `plain_numbers` wrote it plainly (every typed form: judge.corpus.numbers).
_NUMBER = typed_pattern("number")
_OPERATORS = re.compile(r"(?<!\w)(?:AND|OR|NOT)(?!\w)")
# Words that only introduce a rule number (`règle 308.2a`).
_NUMBER_WORDS = frozenset({"regle", "regles", "rule", "rules", "cr", "voir", "cf", "see", "numero", "no"})
_NAME_WORD = re.compile(r"\w+")
# What a whole French question says of itself, not of its topic (« a-t-on le droit de… »,
# « comment ça marche », « on fait quoi », « que dois-je faire »): dropped before the words are
# read. « Que se passe-t-il », « qu'est-ce qui arrive » ask a relation (`RELATIONS`).
_QUESTION = re.compile(r"(?<![\w'])(?:se passe|arrive)-t-elle(?![\w'])"
                       r"|(?<![\w'])(?:a-t-on|ai-je|avons-nous) le droit(?![\w'])"
                       r"|(?<![\w'])qu'est-ce qui se produit(?![\w'])"
                       r"|(?<![\w'])(?:comment (?:ca |cela )?(?:marche|fonctionne)(?:nt)?"
                       r"|(?:ca|cela) (?:marche|fonctionne)(?: comment)?)(?![\w'])"
                       r"|(?<![\w'])(?:on|je|il|elle|ca|cela) (?:fait|fais|donne) quoi(?![\w'])"
                       r"|(?<![\w'])(?:qu'est-ce que|que) (?:je dois|dois-je|on doit|doit-on|il faut) faire(?![\w'])")
_QUOTED = re.compile(r'"([^"]+)"|«([^»]+)»|“([^”]+)”')
# The relations a judge's question asks, and the rules that answer such a relation: the question
# words (a tuple of folded words, found in that order in the query, other words between) say
# which; they are the question's words, not its topic's (dropped, as `_QUESTION`). The rules of
# its kind — under a defining rule of the terminology notion named (one of its English names;
# `*`: of the notions the query names), or whose own text (`OWN_FIELDS`) says one of the words —
# have their score multiplied by `RELATION`. A number among the question words stays a word of
# the query. Read by `relations_of`; exported for the static book (`judge.search.export`).
RELATIONS: tuple[tuple[tuple[tuple[str, ...], ...], str, tuple[str, ...]], ...] = (
    # « que devient une créature dont l'endurance est à 0 », « qu'est-ce qui se passe si… » : a state-based action.
    ((("que", "devient"), ("que", "deviennent"), ("qu", "advient"), ("qu", "devient"),
      ("qu", "est", "ce", "qui", "arrive"), ("qu", "est", "ce", "qui", "se", "passe"), ("qu", "est", "ce", "qu", "il", "se", "passe"),
      ("que", "se", "passe", "t", "il"), ("qu", "arrive", "t", "il"), ("se", "passe", "quoi")), "state-based action", ()),
    # « qui met en premier ses capacités sur la pile », « dans quel ordre » : an order rule.
    ((("qui", "en", "premier"), ("quel", "ordre"), ("quelle", "ordre"), ("who", "first")), "",
     ("apnap", "order", "ordre")),
    # « combien de points de vie au début de la partie » : a number.
    ((("combien",), ("how", "many"), ("how", "much")), "",
     (*(str(n) for n in range(21)), "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
      "deux", "trois", "quatre", "cinq", "sept", "huit", "neuf", "dix")),
    # « peut-on activer deux fois… », « est-ce que je peux… », « a-t-il le droit » : a permission.
    ((("peut", "on"), ("peux",), ("puis", "je"), ("peut", "il"), ("peut", "elle"), ("peuvent",), ("droit", "de")), "",
     ("may", "cannot", "can't", "peut", "peuvent")),
    # « qu'est-ce que la portée d'influence », « c'est quoi le piétinement » : a definition.
    ((("qu", "est", "ce", "que"), ("c", "est", "quoi"), ("que", "veut", "dire"), ("que", "signifie"),
      ("definition",), ("what", "is")), "*", ()),
    # « pv à 0 », « loyauté 0 » : a state-based action too (a number asks it, and stays the topic's).
    ((("0",),), "state-based action", ()),
)


class QueryError(JudgeError):
    """A search query that cannot be run (empty, only stop words, bad limit)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class _Plan:
    """What a query asks for once cleaned: numbers, words, phrases, expansions."""

    text: str
    numbers: tuple[str, ...]
    words: tuple[str, ...]
    phrases: tuple[tuple[str, ...], ...]
    expansions: tuple[tuple[tuple[str, ...], ...], ...]  # per glossary notion, its French names
    notices: tuple[str, ...] = field(default=())
    english: tuple[tuple[tuple[str, ...], ...], ...] = ()  # per notion, its English then French names
    names: tuple[tuple[str, str], ...] = ()  # (glossary name typed, "fr" / "en" / "both")
    typed: tuple[str, ...] = ()  # every word as typed, glossary names included (proximity)
    terms: tuple[GlossaryTerm, ...] = ()  # the notions the query names
    relations: tuple[int, ...] = ()  # the relations it asks (`RELATIONS`)

    def notions(self, language: str) -> tuple[tuple[tuple[str, ...], ...], ...]:
        """Each glossary notion's names to look for in a text of `language`."""
        return self.expansions if language == "fr" else self.english


# ---------------------------------------------------------------------- the index
@dataclass(frozen=True, slots=True)
class Doc:
    """One rule of one language's index: its document number there (rule order) and its key."""

    language: str
    docnum: int
    edition: str
    number: str


# ---------------------------------------------------------------------- glossary
_glossaries: dict[tuple[GlossaryTerm, ...], _Glossary] = {}


def _singular(word: str) -> str:
    """A name's word without a plural `s` or `x` (words of 4 letters or more)."""
    return word[:-1] if len(word) > 3 and word[-1] in "sx" else word


def name_key(text: str) -> tuple[str, ...]:
    """A terminology name as a query matches it: its folded words, each without a plural
    (« effets de remplacement » is « effet de remplacement »), apostrophes and hyphens as spaces."""
    return tuple(_singular(w) for w in _NAME_WORD.findall(fold(text)))


# The small words that join a French name's words (« brûlure de mana », « mal d'invocation »), which
# a query typed on a phone leaves out (« brulure mana »): a name is also found without them.
LINK_WORDS = frozenset({"de", "d", "du", "des", "la", "le", "les", "l", "a", "au", "aux", "en", "un", "une", "sur"})


# The endings a French verb of the first group takes in a question (« sacrifier » -> « sacrifié »,
# « sacrifiée », « bloque », « attaquent »; plurals are `_singular`'s).
VERB_ENDINGS = ("e", "ee", "ent")


def derived_keys(key: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The other keys a name is found by, after every name's own key (`_glossary`): without its
    linking words (`LINK_WORDS`), when it had some and two words or more remain (« brûlure de
    mana » -> « brulure mana »); and, its one verb in -er (of five letters or more) inflected
    (`VERB_ENDINGS`: « sacrifier » -> « sacrifie », « sacrifiee »), or, without one, its last
    word in -e in the plural of a verb (« se déclenche » -> « se déclenchent »)."""
    kept = tuple(w for w in key if w not in LINK_WORDS)
    found = [kept] if len(kept) != len(key) and len(kept) > 1 else []
    for base in (key, *found):
        verbs = [i for i, w in enumerate(base) if len(w) > 4 and w.endswith("er")]
        if len(verbs) == 1:
            i = verbs[0]
            found.extend((*base[:i], base[i][:-2] + ending, *base[i + 1:]) for ending in VERB_ENDINGS)
        elif not verbs and len(base[-1]) > 4 and base[-1].endswith("e"):
            found.append((*base[:-1], base[-1] + "nt"))  # « se déclenche » -> « se déclenchent »
    return tuple(found)


def _glossary(terms: tuple[GlossaryTerm, ...]) -> _Glossary:
    """Every FR↔EN name's key (`name_key`) by its first word (longest first), and each one's
    notion; then each name's `derived_keys`, when no name has that key; and the message
    abbreviations a query spells out (`judge.search.abbreviations`: none a name of these)."""
    found = _glossaries.get(terms)
    if found is None:
        names: dict[tuple[str, ...], GlossaryTerm] = {}
        for term in terms:
            for name in (*term.en, *term.fr):
                if key := name_key(name):
                    names.setdefault(key, term)
        for term in terms:
            for name in (*term.en, *term.fr):
                for other in derived_keys(name_key(name)):
                    names.setdefault(other, term)
        firsts: dict[str, list[tuple[str, ...]]] = {}
        for key in sorted(names, key=len, reverse=True):
            firsts.setdefault(key[0], []).append(key)
        found = _glossaries[terms] = ({w: tuple(keys) for w, keys in firsts.items()}, names,
                                      abbreviations(names, name_key))
    return found


def spelling(terms: tuple[GlossaryTerm, ...]) -> dict[str, str]:
    """The message abbreviations a query spells out before it is read, with the terminology
    `terms` (`judge.search.abbreviations`); exported for the static book."""
    return _glossary(terms)[2]


def _names_in(text: str, firsts: dict[str, tuple[tuple[str, ...], ...]]) -> list[tuple[int, int, tuple[str, ...]]]:
    """Where terminology names stand in folded `text`, word for word (plurals aside; the text's
    last word may begin the name's last: `PREFIX_MIN`; a two-word name may stand swapped), left to right, the longest name at each
    word, matches not overlapping: (start, end, name key)."""
    words = [(m.start(), m.end(), _singular(m.group(0))) for m in _NAME_WORD.finditer(text)]
    spans = []
    i = 0

    def same(at: int, k: tuple[str, ...], j: int) -> bool:
        """Does the query's word `at` match the name's word `j` — or begin it, when it is the
        query's last word being typed after the name's first words (« lien de vi »)?"""
        word = words[at][2]
        return word == k[j] or (at == len(words) - 1 and j == len(k) - 1 and j > 0
                                and len(word) >= PREFIX_MIN and k[j].startswith(word))

    while i < len(words):
        key = next((k for k in firsts.get(words[i][2], ())
                    if len(k) <= len(words) - i and all(same(i + j, k, j) for j in range(len(k)))), None)
        if (key is None or len(key) < 2) and i + 1 < len(words):
            # A two-word name with its words swapped (« initiative double »), before a one-word name.
            key = next((k for k in firsts.get(words[i + 1][2], ()) if k == (words[i + 1][2], words[i][2])), key)
        if key is None:
            i += 1
            continue
        spans.append((words[i][0], words[i + len(key) - 1][1], key))
        i += len(key)
    return spans


def _names_apart(text: str, spans: list[tuple[int, int, tuple[str, ...]]],
                 firsts: dict[str, tuple[tuple[str, ...], ...]],
                 stop: frozenset[str]) -> list[tuple[list[tuple[int, int]], tuple[str, ...]]]:
    """The names that the query holds with other words between theirs (« mettre une
    machination à exécution » is « mettre à exécution »): a name of two content words or more
    whose every word stands in order among the words no other name took, with at most
    `NAME_GAP` other words between its first and its last: (its words' places, its key)."""
    taken = [(start, end) for start, end, _ in spans]
    words = [(m.start(), m.end(), _singular(m.group(0))) for m in _NAME_WORD.finditer(text)]
    free = [not any(s <= w[0] < e for s, e in taken) for w in words]
    found = []
    for i, (_, _, word) in enumerate(words):
        if not free[i] or word in stop:
            continue
        for key in firsts.get(word, ()):
            if sum(1 for w in key if w not in stop) < 2:
                continue
            places = [i]
            for w in key[1:]:
                last = i + len(key) - 1 + NAME_GAP
                nxt = next((j for j in range(places[-1] + 1, min(last, len(words) - 1) + 1)
                            if free[j] and words[j][2] == w), None)
                if nxt is None:
                    break
                places.append(nxt)
            if len(places) == len(key) and places[-1] - i > len(key) - 1:
                for j in places:
                    free[j] = False
                found.append(([(words[j][0], words[j][1]) for j in places], key))
                break
    return found


# ---------------------------------------------------------------------- queries
def _clean(raw: str) -> tuple[str, list[str]]:
    notices = []
    text = _CONTROL.sub(" ", raw)
    if len(text) > MAX_QUERY:
        text = text[:MAX_QUERY]
        notices.append(f"requête tronquée à {MAX_QUERY} caractères")
    if _OPERATORS.search(text):
        text = _OPERATORS.sub(" ", text)
        notices.append("opérateurs AND, OR, NOT ignorés : tous les mots comptent")
    return " ".join(text.split()), notices


def _name_words(name: str, stop: frozenset[str]) -> tuple[str, ...]:
    """A terminology name's words without stop words — all of them when it is only stop
    words (« Aura » is a French stop word, and a notion)."""
    return tuple(fold_terms(name, stop)) or tuple(fold_terms(name, frozenset()))


def plan_query(raw: str, terms: tuple[GlossaryTerm, ...], stop: frozenset[str]) -> _Plan:
    """Split a query into rule numbers, phrases, glossary expansions and plain words
    (`terms`: the FR↔EN glossary; `stop`: the query's stop words)."""
    text, notices = _clean(raw)
    if not text:
        raise QueryError("requête vide : indiquez des mots ou un numéro de règle (ex. « 308.2a »)")
    firsts, names, spelling = _glossary(terms)
    folded = spelled_out(plain_numbers(fold(text)), spelling)
    numbers = tuple(dict.fromkeys(_NUMBER.findall(folded)))
    phrases = []
    for match in _QUOTED.finditer(folded):
        words = fold_terms(next(g for g in match.groups() if g), stop)
        if len(words) > 1:
            phrases.append(tuple(words))
    rest = _QUESTION.sub(" ", folded.replace('"', " ").replace("«", " ").replace("»", " "))
    rest, relations = _relations_in(rest)
    every = tuple(w for w in fold_terms(rest, stop) if w not in numbers)
    expansions: list[tuple[tuple[str, ...], ...]] = []
    english: list[tuple[tuple[str, ...], ...]] = []
    typed: list[tuple[str, str]] = []
    named: list[GlossaryTerm] = []
    spans = _names_in(rest, firsts)
    apart = _names_apart(rest, spans, firsts, stop)
    found = [(rest[start:end], key) for start, end, key in spans]
    found.extend((" ".join(rest[s:e] for s, e in places), key) for places, key in apart)
    for name, key in found:
        term = names[key]
        if term not in named:
            named.append(term)
        in_fr = key in {name_key(n) for n in term.fr}
        in_en = key in {name_key(n) for n in term.en}
        typed.append((name, "both" if in_fr == in_en else "fr" if in_fr else "en"))
        alternatives = tuple(w for w in (_name_words(n, stop) for n in term.fr) if w)
        if alternatives and alternatives not in expansions:
            expansions.append(alternatives)
            english.append(tuple(dict.fromkeys(
                w for w in (_name_words(n, stop) for n in (*term.en, *term.fr)) if w)))
    # The matched words now count as one notion (any of its French names).
    cut = sorted([(start, end) for start, end, _ in spans] + [place for places, _ in apart for place in places])
    for start, end in reversed(cut):
        rest = rest[:start] + " " + rest[end:]
    plain = tuple(w for w in fold_terms(rest, stop) if w not in numbers)
    if numbers:
        plain = tuple(w for w in plain if w not in _NUMBER_WORDS)
    if not numbers and not plain and not expansions and not phrases:
        raise QueryError(f"la requête « {text[:60]} » ne contient que des mots vides (de, la, le…)")
    return _Plan(
        text=text,
        numbers=numbers,
        words=plain,
        phrases=tuple(phrases),
        expansions=tuple(expansions),
        notices=tuple(notices),
        english=tuple(english),
        names=tuple(typed),
        typed=every,
        terms=tuple(named),
        relations=relations,
    )


def _relations_in(text: str) -> tuple[str, tuple[int, ...]]:
    """The relations (`RELATIONS`) folded `text` asks, and the text without the words that ask
    them (a number stays): for each relation, its first question words found in order (the
    first occurrence of each after the one before)."""
    words = [(m.start(), m.end(), m.group(0)) for m in _NAME_WORD.finditer(text)]
    found: list[int] = []
    cut: list[tuple[int, int]] = []
    for n, (asks, _, _) in enumerate(RELATIONS):
        for pattern in asks:
            places: list[int] = []
            for word in pattern:
                place = next((i for i in range(places[-1] + 1 if places else 0, len(words)) if words[i][2] == word), None)
                if place is None:
                    break
                places.append(place)
            if len(places) == len(pattern):
                found.append(n)
                cut.extend(words[i][:2] for i in places if not words[i][2].isdecimal())
                break
    for start, end in sorted(cut, reverse=True):
        text = text[:start] + " " + text[end:]
    return text, tuple(found)


_relation_rules: dict[tuple[GlossaryTerm, ...], tuple[tuple[str, ...], ...]] = {}


def relations_of(terms: tuple[GlossaryTerm, ...]) -> tuple[tuple[tuple[tuple[str, ...], ...], tuple[str, ...],
                                                                 tuple[str, ...]], ...]:
    """`RELATIONS` with each notion read in the terminology `terms`: (question words, the
    notion's defining rules "edition:number" — `*` for the notions the query names —, the
    words its rules say)."""
    rules = _relation_rules.get(terms)
    if rules is None:
        by_name = {name_key(n): term for term in terms for n in term.en}
        rules = _relation_rules[terms] = tuple(
            ("*",) if notion == "*" else by_name[name_key(notion)].rules if notion else () for _, notion, _ in RELATIONS)
    return tuple((asks, found, says) for (asks, _, says), found in zip(RELATIONS, rules, strict=True))



def _keep(words: tuple[str, ...], stop: frozenset[str]) -> tuple[str, ...]:
    """The words that a language's index holds (its stop words dropped)."""
    return tuple(w for w in words if w not in stop)


def _group_clause(words: tuple[str, ...], stem: Stem, boost: float = 1.0) -> Node:
    """A multi-word notion: all its stems (any field), better still as a phrase."""
    stems = tuple(Clause(stem(w)) for w in words)
    if len(words) == 1:
        return Or(stems, boost=boost)
    together = And(stems)
    phrase = Phrase("exact", words, slop=2, boost=2.0)
    heading = Phrase("heading", words, slop=1, boost=4.0)
    return Or((together, phrase, heading), boost=boost)


def compose(words: tuple[str, ...], plan: _Plan, language: str, stem: Stem, stop: frozenset[str]) -> Node | None:
    """The query tree for one language's index: each word, number, phrase and glossary notion
    (by its names in that language); scores add up."""
    words = _keep(words, stop)
    clauses: list[Node] = [Clause(stem(w)) for w in dict.fromkeys(words)]
    clauses.extend(Clause(n, boost=0.5) for n in plan.numbers)
    clauses.extend(_group_clause(k, stem, boost=3.0) for p in plan.phrases if (k := _keep(p, stop)))
    clauses.extend(Or(tuple(_group_clause(k, stem) for alt in e if (k := _keep(alt, stop))))
                   for e in plan.notions(language) if any(_keep(alt, stop) for alt in e))
    if len(words) > 1:
        # Proximity bonus: the typed words close together, better still in a title.
        clauses.append(Phrase("exact", words, slop=3, boost=1.5))
        clauses.append(Phrase("heading", words, slop=1, boost=4.0))
        # Each pair of typed words side by side: the phrases the query holds.
        clauses.extend(Phrase("exact", pair, slop=1, boost=PAIR_BOOST)
                       for pair in dict.fromkeys(pairwise(words)) if pair[0] != pair[1])
    typed = _keep(plan.typed, stop)
    if len(typed) > len(words) and len(typed) > 1:
        # Some words were a glossary name ("until end of turn"): all of them, as typed.
        clauses.append(Phrase("exact", typed, slop=3, boost=1.5))
    if not clauses:
        return None
    return Or(tuple(clauses))


def _concepts(words: tuple[str, ...], plan: _Plan, language: str, stem: Stem,
              stop: frozenset[str], held: Callable[[str], bool]) -> list[tuple[frozenset[str], ...]]:
    """Each notion the query asks for, as alternative sets of stems (any one covers it). A word
    that no language's texts hold (`held`) is no notion a rule could answer."""
    words = _keep(words, stop)
    concepts: list[tuple[frozenset[str], ...]] = [(frozenset({stem(w)}),) for w in dict.fromkeys(words) if held(w)]
    concepts.extend((frozenset(stem(w) for w in k),) for p in plan.phrases if (k := _keep(p, stop)))
    concepts.extend(tuple(frozenset(stem(w) for w in k) for alt in e if (k := _keep(alt, stop)))
                    for e in plan.notions(language) if any(_keep(alt, stop) for alt in e))
    return concepts


def _coverage(has: Callable[[str], bool], concepts: list[tuple[frozenset[str], ...]]) -> float:
    """The share of the notions that a rule (`has`: does it hold this stem?) answers."""
    if not concepts:
        return 1.0
    covered = sum(1 for alts in concepts if any(all(has(s) for s in alt) for alt in alts))
    return covered / len(concepts)


def _section_coverage(index: Index, doc: Doc, concepts: list[tuple[frozenset[str], ...]],
                      holds: Callable[[str], bool], docs_of: Callable[[str], dict[int, float]]) -> float:
    """The share of the notions a heading rule answers with its section (« sous-partie
    Shahrazad » -> 506 Subgames): a stem the heading lacks counts when every rule of its edition
    that holds it (`docs_of`) is in the heading's section — the word is that section's topic."""
    section = frozenset(d.docnum for d in index.descendants(doc))
    edition = index.edition_docs(doc.language, doc.edition)

    def topic(stem: str) -> bool:
        found = [n for n in docs_of(stem) if n in edition]
        return holds(stem) or (bool(found) and all(n in section for n in found))

    return _coverage(topic, concepts)


def _known(index: Index, language: str, word: str) -> bool:
    """Does the language's index hold the word (as typed, or its stem in a ranked field)?"""
    if index.exact_frequency(language, word) > 0:
        return True
    return bool(index.postings(language).clause(index.source(language), index.stem(language, word)))


def _correct(index: Index, language: str, word: str, real: bool) -> str | None:
    """The closest word to an unknown one (most frequent in the language's texts on ties), or
    None: same first letter, at most 1 edit (words of 4–5 letters) or 2 (longer ones), among
    the indexed words and the terminology's. A real word (`real`: French or English) is only
    ever matched to a terminology word 1 edit away (« entretient » → « entretien »), never to
    another word of the texts (« lien » is not « lieu »)."""
    if not 4 <= len(word) <= 30 or any(c.isdigit() for c in word):
        return None
    distance = 1 if real or len(word) <= 5 else 2
    candidates = {c for c in index.terminology_words(word[:1])
                  if abs(len(c) - len(word)) <= distance and levenshtein(c, word) <= distance}
    if not real:
        candidates |= index.within(language, word, distance)
    candidates.discard(word)
    if not candidates:
        return None
    return min(candidates, key=lambda c: (levenshtein(c, word), -index.exact_frequency(language, c), c))


def correction(index: Index, word: str, languages: tuple[str, ...]) -> tuple[str, bool] | None:
    """The closest word to one that neither the searched languages' texts nor the terminology
    know, looked for in `languages` in order, and whether the word is a real one; memoized
    (the indexes never change)."""
    key = f"{','.join(languages)}:{word}"
    try:
        return index.corrections[key]
    except KeyError:
        if len(index.corrections) >= _MEMO_SIZE:
            index.corrections.clear()
        found = None
        if word not in index.terminology_words(word[:1]) and not any(_known(index, language, word)
                                                                     for language in languages):
            real = index.is_real_word(word)
            fixed = next((c for language in languages if (c := _correct(index, language, word, real)) is not None),
                         None)
            found = None if fixed is None else (fixed, real)
        index.corrections[key] = found
        return found


def _corrected(index: Index, plan: _Plan, languages: tuple[str, ...]) -> tuple[_Plan, dict[str, str]]:
    """The plan of the query with its unknown words corrected, and the corrections. A real
    word's correction is kept only when it completes a name of the terminology (« contacte
    mortel » → « contact mortel »): a real word is never turned into another word."""
    corrections: dict[str, str] = {}
    real: set[str] = set()
    for word in plan.words:
        found = correction(index, word, languages)
        if found is not None:
            corrections[word] = found[0]
            if found[1]:
                real.add(word)
    if not corrections:
        return plan, corrections
    fixed = plan_query(suggestion(plan.text, corrections, index.query_stop) or plan.text,
                       index.glossary_terms, index.query_stop)
    loose = [word for word in real if corrections[word] in fixed.words]
    if loose:
        for word in loose:
            del corrections[word]
        if not corrections:
            return plan, corrections
        fixed = plan_query(suggestion(plan.text, corrections, index.query_stop) or plan.text,
                           index.glossary_terms, index.query_stop)
    return fixed, corrections


# ---------------------------------------------------------------------- search
def _direct(index: Index, numbers: tuple[str, ...], edition: str | None) -> list[tuple[Doc, float]]:
    found: list[tuple[Doc, float]] = []
    for number in numbers:
        for ed, ed_languages in index.edition_languages.items():
            if edition is not None and ed != edition:
                continue
            for language in ed_languages:
                doc = index.lookup(ed, language, number)
                if doc is None:
                    # `505` when only 505.1 … exist: the rules under that number.
                    found.extend((d, CHILD_SCORE) for d in index.under(ed, language, number))
                    continue
                found.append((doc, DIRECT_SCORE))
                found.extend((child, CHILD_SCORE) for child in index.descendants(doc))
    return found


def _merge(per_language: dict[str, list[tuple[Doc, float]]], first: str,
           covered: dict[str, tuple[float, float, float, float]]) -> list[tuple[Doc, float]]:
    """One ranking from each language's own: BM25 scores of two indexes are not comparable
    (their statistics differ), so another language's best hit is scaled to `OTHER_LANGUAGE`
    times the best hit of the `first` language — or `BETTER_LANGUAGE` times when its hits
    answer more of the query (`covered`: the best share of its notions a hit answers, per
    language); `first`'s scores are kept as they are. Ties: the searched languages' order,
    then rule order."""
    tops = {language: max((score for _, score in hits), default=0.0) for language, hits in per_language.items()}
    reference = tops.get(first, 0.0)
    order = {language: i for i, language in enumerate(per_language)}
    merged: list[tuple[Doc, float]] = []
    for language, hits in per_language.items():
        scale = 1.0
        if language != first and reference > 0 and tops[language] > 0:
            share = BETTER_LANGUAGE if _better(covered.get(language), covered.get(first)) else OTHER_LANGUAGE
            scale = share * reference / tops[language]
        merged.extend((doc, score * scale) for doc, score in hits)
    merged.sort(key=lambda item: (-item[1], order[item[0].language], item[0].docnum))
    return merged


def _better(other: tuple[float, float, float, float] | None, first: tuple[float, float, float, float] | None) -> bool:
    """Do another language's hits answer more of the query than the first language's: a rule
    that defines a notion the query names and answers all its notions (the first language's text
    has none: « contrecarrer un sort » -> 701.5 Counter), a rule of the kind that answers the
    relation a question asks and all its notions (`RELATIONS`), more of its terminology notions
    and phrases, or as many and more of its words?"""
    if other is None or first is None:
        return other is not None
    return other > first


def _under(number: str, parent: str) -> bool:
    """Is rule `number` below rule `parent` (`216.3` under `216`, `110.5f` under `110.5`)?"""
    if len(number) <= len(parent) or not number.startswith(parent):
        return False
    following = number[len(parent)]
    return following == "." or following.isalpha()


def _variants(index: Index, plan: _Plan) -> dict[str, tuple[str, ...]]:
    """Per edition, the numbers (as prefixes: `810.`) of the rules that refine the general
    rules for a variant of the game the query does not name."""
    found: dict[str, list[str]] = {}
    for term in index.glossary_terms:
        if term.variant and term not in plan.terms:
            for key in term.rules:
                edition, _, number = key.partition(":")
                found.setdefault(edition, []).extend((number, number + "."))
    return {edition: tuple(numbers) for edition, numbers in found.items()}


def _defined(index: Index, plan: _Plan, edition: str | None, languages: tuple[str, ...], preferred: str | None,
             primary: dict[str, str]) -> list[tuple[Doc, float]]:
    """The rules that define the notion a query names, when the query is that notion and
    nothing else (« piétinement », "trample", « ETB »): the first of the notion's rules that
    the searched editions hold (the others rank with the text's hits), in the query's
    language when the release has it, else in the other."""
    if len(plan.terms) != 1 or plan.words or plan.numbers or plan.phrases:
        return []
    for key in plan.terms[0].rules:
        ed, _, number = key.partition(":")
        if ed not in index.edition_languages or (edition is not None and ed != edition):
            continue
        first = preferred or primary[ed]
        for language in sorted(languages, key=lambda code: code != first):
            doc = index.lookup(ed, language, number)
            if doc is not None:
                return [(doc, DEFINED_SCORE)]
    return []


def query_language(index: Index, plan: _Plan) -> str | None:
    """`en` for a query written in English (its glossary names and words are English ones,
    "mana burn", "until end of turn"), else None: each edition's first language (French)."""
    if "en" not in index.languages or "fr" not in index.languages:
        return None

    def known(word: str) -> set[str]:
        return {language for language in ("fr", "en") if index.exact_frequency(language, word) > 0}

    french = english = 0
    # A glossary name counts for its language when one of its words is unknown to the other
    # language's text ("mana burn": "burn"; not "combat", a French word too).
    for name, language in plan.names:
        words = fold_terms(name, index.query_stop)
        if language == "en" and any("fr" not in known(w) for w in words):
            english += 1
        elif language == "fr" and any("en" not in known(w) for w in words):
            french += 1
    for word in plan.words:
        found = known(word)
        french += found == {"fr"}
        english += found == {"en"}
    return "en" if english > french else None


def understood_plan(index: Index, notions: tuple[str, ...], question: str) -> _Plan:
    """The plan of a question as a reader understood it: each of `notions` (what it
    recognised: names of the terminology, or words of the rules) planned alone, so that two
    never join into another name, then merged; the relations the raw `question` asks
    (`RELATIONS`). Raises `QueryError` when no notion has a word to search."""
    parts = []
    for notion in notions:
        try:
            parts.append(plan_query(notion, index.glossary_terms, index.query_stop))
        except QueryError:
            continue
    if not parts:
        raise QueryError("aucune notion comprise à chercher")

    def joined(values: list[tuple[Any, ...]]) -> tuple[Any, ...]:
        return tuple(dict.fromkeys(v for value in values for v in value))

    _, relations = _relations_in(spelled_out(fold(_clean(question)[0]), _glossary(index.glossary_terms)[2]))
    return _Plan(
        text=" ; ".join(part.text for part in parts),
        numbers=joined([part.numbers for part in parts]),
        words=joined([part.words for part in parts]),
        phrases=joined([part.phrases for part in parts]),
        expansions=joined([part.expansions for part in parts]),
        notices=joined([part.notices for part in parts]),
        english=joined([part.english for part in parts]),
        names=joined([part.names for part in parts]),
        typed=joined([part.typed for part in parts]),
        terms=joined([part.terms for part in parts]),
        relations=tuple(sorted(set(relations))),
    )


def search_understood_with(index: Index, notions: tuple[str, ...], question: str, *, edition: str | None = None,
                           limit: int = 10, lang: str | None = None) -> SearchResult:
    """The search a reader of questions (`judge ask`) offers when it declines: the rules ranked
    from what it understood — the notions it recognised (`notions`: names of the FR↔EN
    terminology, « créature engagée », "first strike", or words of the rules) and the relation
    the raw `question` asks (« que devient », « qui … en premier », « combien », « peut-on »:
    `RELATIONS`) — not from the question's other words. Without a notion that has a word to
    search, the raw question is searched as `judge search` would. Thread-safe."""
    try:
        plan = understood_plan(index, tuple(notions), question)
    except QueryError:
        return search_with(index, question, edition=edition, limit=limit, lang=lang)
    return search_with(index, question, edition=edition, limit=limit, lang=lang, plan=plan)


def search_with(index: Index, query: str, *, edition: str | None = None, limit: int = 10,
                lang: str | None = None, plan: _Plan | None = None) -> SearchResult:
    """Run one query on an open index; thread-safe. `lang` searches one language only;
    without it, both, the query's language first (French unless it is English). `plan`: the
    query already planned (`understood_plan`), else `plan_query` plans it."""
    if not isinstance(limit, int) or limit < 1:
        raise QueryError(f"nombre de résultats invalide : {limit} (un entier positif est attendu)")
    if edition is not None and edition not in index.edition_languages:
        raise UnknownEdition(edition, tuple(index.edition_languages))
    if lang is not None and lang not in index.languages:
        raise QueryError(f"langue inconnue : « {lang} » (langues : {', '.join(index.languages)})")
    if plan is None:
        plan = plan_query(query, index.glossary_terms, index.query_stop)
    notices = list(plan.notices)
    rebuilt = index.take_notice()
    if rebuilt:
        notices.insert(0, rebuilt)
    preferred = lang or query_language(index, plan)
    languages = (lang,) if lang else tuple(sorted(index.languages, key=lambda code: code != preferred))
    primary = {e: ed_languages[0] for e, ed_languages in index.edition_languages.items()}

    def weight(doc: Doc, score: float) -> float:
        first = preferred or primary[doc.edition]
        return score if doc.language == first else score * OTHER_LANGUAGE

    ranked: dict[tuple[str, str, str], tuple[Doc, float]] = {}
    # A rule the query numbers, then the rules under it, the query's language first; the rule
    # in another language comes right after it when no release has that rule in the query's
    # language (`505`: English only), else after the rules under it.
    found = [item for item in _direct(index, plan.numbers, edition) if item[0].language in languages]
    own = {d.number for d, s in found if s == DIRECT_SCORE and weight(d, 1.0) == 1.0}
    direct = sorted(((d, s if s == DIRECT_SCORE and d.number not in own else weight(d, s))
                     for d, s in found), key=lambda item: (-item[1], weight(item[0], 1.0) != 1.0))
    for doc, score in direct:
        ranked.setdefault((doc.edition, doc.language, doc.number), (doc, score))
    missing = [n for n in plan.numbers if not any(d.number == n for d, _ in ranked.values())]
    if missing:
        notices.append("règle introuvable : " + ", ".join(missing))

    # An unknown word finds nothing by itself: the closest word of the texts or of the
    # terminology is searched instead, and offered (« recherche aussi »).
    plan, corrections = _corrected(index, plan, languages)
    words = plan.words
    variants = _variants(index, plan)
    defining = frozenset(key for term in plan.terms for key in term.rules)
    sections: dict[str, list[tuple[str, GlossaryTerm]]] = {}  # per edition, (defining rule, its notion)
    for term in plan.terms:
        for key in term.rules:
            ed, _, number = key.partition(":")
            sections.setdefault(ed, []).append((number, term))

    def held(word: str) -> bool:
        """Does some language's texts hold the word's stem (`word` is in its exported lexicon)?"""
        return any(index.postings(language).clause(index.source(language), index.stem(language, word))
                   for language in index.languages)

    relations = [relation for n, relation in enumerate(relations_of(index.glossary_terms)) if n in plan.relations]
    covered: dict[str, tuple[float, float, float, float]] = {}
    # The query asks about a notion (more than the notion alone, whose defining rule
    # `_defined` puts first): a rule that defines it and answers the rest is not buried.
    asks_more = len(plan.terms) + len(plan.words) + len(plan.phrases) > 1

    def run(language: str, terms: tuple[str, ...]) -> list[tuple[Doc, float]]:
        stop = index.stop(language)

        def stem(word: str) -> str:
            return index.stem(language, word)

        q = compose(terms, plan, language, stem, stop)
        if q is None:
            return []
        source = index.source(language)
        postings = index.postings(language)
        allowed = index.edition_docs(language, edition) if edition else None
        concepts = _concepts(terms, plan, language, stem, stop, held)
        notions = _concepts(terms, plan, language, stem, stop, lambda _: False)
        asked = frozenset().union(*(alt for alts in concepts for alt in alts)) if concepts else frozenset()
        # The terms this search found absent (from every ranked field: ""; from one field):
        # each candidate asks the same few stems again, and `Postings` remembers only the
        # index's terms (its bound); remembered here, for this search only.
        absent: set[tuple[str, str]] = set()

        def clause(stem: str) -> dict[int, float]:
            if ("", stem) in absent:
                return {}
            found = postings.clause(source, stem)
            if not found:
                absent.add(("", stem))
            return found

        def in_field(field: str, stem: str) -> dict[int, float]:
            if (field, stem) in absent:
                return {}
            found = postings.term(source, field, stem)[0]
            if not found:
                absent.add((field, stem))
            return found

        def answers(ed: str, number: str) -> bool:
            """Is a defining rule a heading the query names, its section answering the rest
            (« sous-partie Shahrazad » -> 506 Subgames)? Then it is the answer, not its sub-rules."""
            head = index.lookup(ed, language, number)
            name = index.name_stems(head) if head is not None else frozenset()
            if head is None or not name or not name <= asked:
                return False
            return _section_coverage(index, head, concepts, lambda stem: head.docnum in clause(stem), clause) == 1.0

        def said(term: GlossaryTerm) -> list[frozenset[str]]:
            """A notion's names in this language's texts, as stems."""
            names = term.fr if language == "fr" else (*term.en, *term.fr)
            return [frozenset(stem(w) for w in k) for n in names if (k := _keep(_name_words(n, index.query_stop), stop))]

        # The rules of the kinds that answer the relations asked: under these rules, or saying these stems.
        kinds = [([(ed, n) for key in (defining if rules == ("*",) else rules) for ed, _, n in [key.partition(":")]],
                  [stem(w) for w in says if w not in stop]) for _, rules, says in relations]
        # The sections whose sub-rules answer about their notion (see IN_SECTION), with its names.
        opened = {ed: [(n, said(term)) for n, term in entries if not answers(ed, n)] for ed, entries in sections.items()}
        found = []
        best = 0.0
        best_notions = 0.0
        defines = 0.0  # 1.0 when a defining rule of a notion the query names answers all its notions
        answered = 0.0  # 1.0 when a rule of the kind that answers a relation asked answers all its notions
        scores = postings.evaluate(source, q)
        for docnum, score in postings.top(scores, 3 * limit + CANDIDATES + len(ranked), allowed):
            doc = index.doc(language, docnum)
            if doc is not None:
                # Coordination: a rule that answers every notion of the query beats one
                # that repeats a single word (BM25 alone does not see this).
                def holds(stem: str, n: int = docnum) -> bool:
                    return n in clause(stem)

                def says(stem: str, n: int = docnum) -> bool:
                    """Does the rule's own text (not its parent's) hold the stem?"""
                    return any(n in in_field(f, stem) for f in OWN_FIELDS)

                coverage = _coverage(holds, concepts)
                best = max(best, coverage)
                if notions:
                    share = _coverage(holds, notions)
                    best_notions = max(best_notions, share)
                    if share == 1.0 and asks_more and f"{doc.edition}:{doc.number}" in defining:
                        defines = 1.0
                name = index.name_stems(doc)
                if coverage < 1.0 and name and name <= asked:
                    # A heading the query names: what it lacks may be its section's topic.
                    coverage = _section_coverage(index, doc, concepts, holds, clause)
                score *= coverage * coverage
                if any(doc.number.startswith(prefix) for prefix in variants.get(doc.edition, ())):
                    score *= VARIANT
                for under_rules, said_stems in kinds:
                    if any(ed == doc.edition and (doc.number == n or _under(doc.number, n)) for ed, n in under_rules) \
                            or any(says(s) for s in said_stems):
                        score *= RELATION
                        if _coverage(holds, notions) == 1.0:
                            answered = 1.0
                if f"{doc.edition}:{doc.number}" in defining:
                    score *= DEFINES
                elif any(_under(doc.number, n) and any(all(says(s) for s in alt) for alt in alts)
                         for n, alts in opened.get(doc.edition, ())):
                    score *= IN_SECTION
                if name and name <= asked and coverage == 1.0:
                    # The heading is the query (or part of it, its section's topic the rest):
                    # the definition, before the sub-rules that repeat its words.
                    score *= 1.0 + (NAME_MATCH - 1.0) * _coverage(name.__contains__, concepts)
                if score > 0:  # a rule that answers none of the notions is no hit
                    found.append((doc, score))
        covered[language] = (defines, answered, best_notions, best)
        return found

    for doc, score in _defined(index, plan, edition, languages, preferred or None, primary):
        ranked.setdefault((doc.edition, doc.language, doc.number), (doc, score))
    per_language = {language: run(language, words) for language in languages}
    text_hits = _merge(per_language, preferred or primary[index.newest_edition], covered)
    for doc, score in text_hits[: limit + len(ranked)]:
        ranked.setdefault((doc.edition, doc.language, doc.number), (doc, score))

    # Marked in a hit's text: the numbers and phrases as typed, and every word, phrase,
    # correction and glossary name by its stem in the hit's language.
    exact_words = set(plan.numbers) | {w for group in plan.phrases for w in group} | set(corrections.values())
    asked_words = {*words, *plan.words, *(w for group in plan.phrases for w in group),
                   *(w for e in (*plan.expansions, *plan.english) for alt in e for w in alt)}
    marks: dict[str, frozenset[str]] = {}

    def hit(doc: Doc, score: float) -> Any:
        stems = marks.get(doc.language)
        if stems is None:
            stems = marks[doc.language] = frozenset(index.stem(doc.language, w) for w in asked_words)
        return make_hit(index.card(doc), score, index.stop(doc.language),
                        lambda term: term in exact_words or index.stem(doc.language, term) in stems)

    return SearchResult(
        query=query,
        suggestion=suggestion(plan.text, corrections, index.query_stop),
        hits=tuple(hit(doc, score) for doc, score in list(ranked.values())[:limit]),
        notice=" ; ".join(notices) if notices else None,
        glossary=tuple(
            g for g in index.glossary_hits(plan.text, edition, GLOSSARY_HITS) if lang is None or g.language == lang
        ) if not plan.numbers else (),
    )
