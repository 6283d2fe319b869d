"""Loads `grammar.lark` (judges' French) and reads a question into its parse tree.

The grammar's words are whole words: the word lexer (`_WordLexer`) gives each folded word the
grammar's terminal for it, or one of the word tokens the grammar declares: NAME (a capitalised
word the grammar does not know, a card's name), PT (« 3/3 »), YEAR, INT, MANA_SYMBOLS
(« RRR »), OF_PLAYER (« de » before a player) or WORD. A word only `_filler` names is skipped. Earley
reads the words; any word may also be read as WORD (`unknown`, the lowest priority), so a
reading always comes back, with the words not understood. Earley predicts, at every word, the
rules that could start there: only the rules whose words are all in the question are offered
(`_Needs`), the others could never be read.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from lark import Lark, Token, Tree, UnexpectedInput
from lark.lexer import Lexer

from judge.ask.vocabulary import corrected, vocabulary
from judge.ask.words import Word, words_of
from judge.errors import JudgeError

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")
_NAME_MARK = "\x01"  # a capitalised word the grammar does not know
_DE_MARK = "\x02"  # « de » that introduces a player
_PT = re.compile(r"\d{1,3}/\d{1,3}")
_YEAR = re.compile(r"(?:19|20)\d\d")
_INT = re.compile(r"\d{1,4}")
_MANA = re.compile(r"(?:\{[wubrgc0-9]\}|[wubrgc]){2,}|\{[wubrgc0-9]\}")
# After « de », the words that start a player: « de mon adversaire », « du joueur actif ».
_PLAYER_STARTS = {"adversaire", "joueur"}
_PLAYER_OWNERS = {"mon", "son", "ton", "votre"}
_ARTICLES = {"le", "la", "l"}
# Before a creature noun that is also a word of the grammar (« troll »), the words that make it
# a creature: « son troll » (not « Troll à deux têtes »).
_NOUN_OWNERS = {"mon", "ma", "son", "sa", "ton", "ta", "votre", "notre", "leur", "le", "la", "un", "une"}
_ANY = "WORD"  # the terminal any word matches (`unknown`)
# The reader's work is bounded by construction. A question may tell a whole story (the
# story-tellers' questions run to 90 words): at most `MAX_WORDS` words after folding (and
# `judge.ask.words.MAX_QUESTION` characters), read in one linear pass that drops the words no
# source gives a game meaning. Earley's work grows with the cube of the words it reads where
# names can be read in several ways (« B B B … »): at most `MAX_READ` words reach it, and
# `MAX_NAMES` names, else a French refusal.
MAX_WORDS = 300
MAX_READ = 120
MAX_NAMES = 16


class _WordLexer(Lexer):
    """One token a word, typed by the grammar's own word list; a word that only `_filler`
    uses is skipped (the rules are written without it)."""

    skipped: ClassVar[frozenset[str]] = frozenset()
    literals: ClassVar[dict[str, str]] = {}

    def __init__(self, lexer_conf: Any) -> None:
        literals = {}
        for terminal in lexer_conf.terminals:
            if terminal.pattern.type == "str":
                literals[terminal.pattern.value] = terminal.name
        _WordLexer.literals = literals

    def lex(self, data: Any, *_: Any) -> Iterator[Token]:
        for index, word in enumerate(str(data).split(" ")):
            if word in self.skipped:
                continue
            kind = self.literals.get(word)
            if word.startswith(_NAME_MARK):
                kind, word = "NAME", word[1:]
            elif word.startswith(_DE_MARK):
                kind, word = "OF_PLAYER", word[1:]
            elif kind is None:
                if _PT.fullmatch(word):
                    kind = "PT"
                elif _YEAR.fullmatch(word):
                    kind = "YEAR"
                elif _INT.fullmatch(word):
                    kind = "INT"
                elif _MANA.fullmatch(word):
                    kind = "MANA_SYMBOLS"
                else:
                    kind = "WORD"
            yield Token(kind, word, start_pos=index, line=1, column=index + 1)


def _match(term: Any, token: Token) -> bool:
    """Earley's terminal test: a word is its own terminal, and any word may be WORD (an
    unknown word, the lowest priority: the reading with the fewest unknown words wins)."""
    return bool(term.name == token.type or term.name == _ANY)


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The grammar, loaded once per process, with the reader's vocabulary."""
    grammar, skipped = prepare(GRAMMAR_PATH.read_text(encoding="utf-8"))
    lark = Lark(grammar, parser="earley", lexer=_WordLexer, ambiguity="resolve", propagate_positions=False)
    _earley_of(lark).term_matcher = _match
    _WordLexer.skipped = skipped
    vocabulary()  # the words beyond the grammar: loaded with it (a server's workers load both at start)
    return lark


def _earley_of(lark: Lark) -> Any:
    """Lark's Earley parser inside `lark` (from `judge.corpus.larkinternals`, the one place
    judge reaches past Lark's public API).

    Lark has no public way to let any word be read as an unknown word at the lowest priority
    (the terminal test, `term_matcher`, is fixed at construction for a basic lexer) nor to
    offer Earley only the rules a question's words can complete (`predictions`). Without them
    every reading takes about 50 times longer (measured: 256 questions in 263 s instead of
    5 s), and a terminal `unknown` listing every word changes the readings. Checked by
    tests/ask/test_ask_lark.py, which fails on the first Lark version where these are gone.
    """
    from judge.corpus.larkinternals import lark_internals

    earley = lark_internals(lark).earley
    if earley is None:
        raise RuntimeError(f"lark {getattr(lark, '__version__', '?')} : parseur Earley sans term_matcher ni predictions")
    return earley


@dataclass(frozen=True, slots=True)
class _Needs:
    """What each rule of the compiled grammar needs to be read: the word tokens (terminals) in
    it and the rules (non-terminals) in it."""

    rules: tuple[tuple[Any, frozenset[str], frozenset[Any]], ...]

    def readable(self, kinds: frozenset[str]) -> set[int]:
        """The rules (by `id`) that a question with these word tokens could read: all their
        terminals among them (WORD matches any word: `_match`), all their non-terminals readable."""
        kinds = kinds | {_ANY}
        waiting = [(rule, inner) for rule, terms, inner in self.rules if terms <= kinds]
        known: set[Any] = set()
        kept: set[int] = set()
        grown = True
        while grown:
            grown, rest = False, []
            for rule, inner in waiting:
                if inner <= known:
                    kept.add(id(rule))
                    grown = grown or rule.origin not in known
                    known.add(rule.origin)
                else:
                    rest.append((rule, inner))
            waiting = rest
        return kept


@lru_cache(maxsize=1)
def _needs() -> _Needs:
    rules = _earley_of(parser()).parser_conf.rules
    return _Needs(tuple((rule, frozenset(s.name for s in rule.expansion if s.is_term),
                         frozenset(s for s in rule.expansion if not s.is_term)) for rule in rules))


class _Predictions(dict[Any, list[Any]]):
    """Earley's predictions (each non-terminal: the rules it may start with, closed) limited to
    the readable rules, filtered when first asked."""

    def __init__(self, full: dict[Any, list[Any]], kept: set[int]) -> None:
        super().__init__()
        self.full, self.kept = full, kept

    def __missing__(self, symbol: Any) -> list[Any]:
        rules = [rule for rule in self.full[symbol] if id(rule) in self.kept]
        self[symbol] = rules
        return rules


def _parse(text: str) -> Tree[Token]:
    """Earley over the question's words, predicting only the rules it could read.

    A rule that names a word token the question does not have can never be completed, so no
    reading uses it: left out of the predictions, it is no longer tried at every word (Earley
    offers every rule that may start a part at every word, and most need words the question
    does not have). The readings, and the one chosen, are the same.
    """
    lark = parser()
    kinds = frozenset(token.type for token in _WordLexer.lex(_WordLexer, text))  # type: ignore[arg-type]
    from judge.corpus.larkinternals import lark_internals

    front = copy.copy(lark_internals(lark).frontend)
    earley = copy.copy(_earley_of(lark))
    earley.predictions = _Predictions(earley.predictions, _needs().readable(kinds))
    front.parser = earley
    tree: Tree[Token] = front.parse(text)
    return tree

# ---------------------------------------------------------------------- grammar preparation
_GRAMMAR_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"i?|/(?:[^/\\]|\\.)+/|->|[A-Za-z_][A-Za-z_0-9.\-]*|[()|?*+]|\S')
_RULE_HEAD = re.compile(r"[?!]?[a-z_][a-z_0-9]*(\.-?\d+)?")


def prepare(text: str) -> tuple[str, frozenset[str]]:
    """The grammar as Earley reads it fast, and the words the reader skips.

    Written with groups, a rule would be expanded by Lark into every combination of their
    alternatives (Earley then predicts each one at every word): each group becomes a rule of
    its own instead. An optional item stays one (Lark writes the rule with and without it): as
    a rule of its own it would be read empty at every word, and each empty reading looks back
    over all the items of the word. The words only `_filler` names are taken out of it: the
    reader skips them.
    """
    rules: list[str] = []
    for line in text.split("\n"):
        code = "" if line.lstrip().startswith("//") else line.split("//")[0].rstrip()
        if not code.strip():
            continue
        if code.lstrip().startswith("|") and rules:
            rules[-1] += " " + code.strip()
        else:
            rules.append(code.strip())
    bodies = {rule.partition(":")[0].strip().split(".")[0]: rule.partition(":")[2] for rule in rules
              if not rule.startswith("%")}
    elsewhere = {word for name, body in bodies.items() if name != "_filler"
                 for word in re.findall(r'"([^"]+)"', body)}
    filler = [alt.strip() for alt in bodies.get("_filler", "").split("|")]
    skipped = frozenset(alt[1:-1] for alt in filler if re.fullmatch(r'"[^"]+"', alt) and alt[1:-1] not in elsewhere)
    lifted: list[str] = []
    extra: list[str] = []

    def new(body: str) -> str:
        name = f"_lift{len(extra) + 1}"
        extra.append(f"{name}: {body}")
        return name

    def sequence(tokens: list[str]) -> str:
        items: list[str] = []
        i = 0
        while i < len(tokens):
            if tokens[i] == "(":
                depth, j = 1, i + 1
                while depth:
                    depth += {"(": 1, ")": -1}.get(tokens[j], 0)
                    j += 1
                item, i = new(alternatives(tokens[i + 1:j - 1])), j
            else:
                item, i = tokens[i], i + 1
            if i < len(tokens) and tokens[i] in ("?", "*", "+"):
                item += tokens[i]
                i += 1
            items.append(item)
        return " ".join(items)

    def alternatives(tokens: list[str]) -> str:
        alts: list[list[str]] = [[]]
        depth = 0
        for token in tokens:
            depth += {"(": 1, ")": -1}.get(token, 0)
            if token == "|" and depth == 0:
                alts.append([])
            else:
                alts[-1].append(token)
        out = []
        for alt in alts:
            alias = ""
            if "->" in alt:
                alias, alt = " -> " + alt[alt.index("->") + 1], alt[:alt.index("->")]
            out.append(sequence(alt) + alias)
        return " | ".join(out)

    for rule in rules:
        head, _, body = rule.partition(":")
        if rule.startswith("%") or not _RULE_HEAD.fullmatch(head.strip()):
            lifted.append(rule)
            continue
        tokens = _GRAMMAR_TOKEN.findall(body)
        if head.strip().split(".")[0] == "_filler":
            tokens = _without_words(tokens, skipped)
        lifted.append(f"{head.strip()}: {alternatives(tokens)}")
    return "\n".join(lifted + extra) + "\n", skipped


def _without_words(tokens: list[str], words: frozenset[str]) -> list[str]:
    """`_filler`'s alternatives without the single words in `words`."""
    alts: list[list[str]] = [[]]
    for token in tokens:
        if token == "|":
            alts.append([])
        else:
            alts[-1].append(token)
    kept = [alt for alt in alts if not (len(alt) == 1 and alt[0].strip('"') in words)]
    out: list[str] = []
    for alt in kept:
        out.extend([*(["|"] if out else []), *alt])
    return out



@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """A question read: its parse tree, the words not understood that carry game meaning
    (`unknown`: they stop the answer), the words skipped as carrying none (`skipped`), and the
    words of an out-of-scope topic (`out_of_scope`)."""

    words: tuple[Word, ...]
    tree: Tree[Token] | None
    unknown: tuple[str, ...]
    skipped: tuple[str, ...] = ()
    out_of_scope: tuple[str, ...] = ()
    asked: tuple[str, ...] = ()  # the asking sentence's words, folded and mended (`asking_part`)
    refused: str = ""  # past the grammar's caps (French): said when the slot reader cannot read it either


def _grammar_words() -> frozenset[str]:
    parser()
    return frozenset(_WordLexer.literals)


def _known() -> frozenset[str]:
    """Every word the reader reads as itself: the grammar's, its fillers, the creature nouns."""
    vocab = vocabulary()
    return _grammar_words() | _WordLexer.skipped | vocab.creature_nouns


def normalised(words: tuple[Word, ...]) -> tuple[tuple[Word, ...], tuple[str, ...]]:
    """The words as the grammar reads them: forms of `rules/ask-words.toml` and the glossary's
    English names replaced (longest first, up to four words), one-edit typos corrected; the
    forms that stand for nothing are dropped and returned as skipped."""
    vocab = vocabulary()
    known = _known()
    out: list[Word] = []
    skipped: list[str] = []
    i = 0
    while i < len(words):
        for size in (4, 3, 2, 1):
            key = " ".join(w.text for w in words[i:i + size])
            if key in vocab.lower_only and words[i].typed[:1].isupper():
                continue  # « ma Forêt »: a name
            if len(words[i:i + size]) == size and key in vocab.forms:
                value = vocab.forms[key]
                typed = " ".join(w.typed for w in words[i:i + size])
                if not value:
                    skipped.append(typed)
                out.extend(Word(text=text, typed=typed) for text in value)
                i += size
                break
        else:
            word = words[i]
            text = word.text
            if text not in known and text not in vocab.text_words and not text.isdigit():
                text = corrected(text, known) or text
            out.append(Word(text=text, typed=word.typed))
            i += 1
    return tuple(out), tuple(skipped)


def _is_name(words: tuple[Word, ...], index: int, known: set[str], nouns: frozenset[str]) -> bool:
    """A card's name: a capital letter alone (« le tour de A »), a lower-case creature noun
    (« mon ours »; one that is also a grammar word after an owner or article: « son troll »),
    or a capitalised word the grammar does not know."""
    word = words[index]
    text = word.text
    if index > 0 and len(word.typed) == 1 and "A" <= word.typed <= "Z":
        following = words[index + 1].text if index + 1 < len(words) else ""
        return not (word.typed == "A" and following in ("t", "il", "elle", "on", "vous"))  # « A-t-il » : the verb
    before = words[index - 1].text if index else ""
    if text in nouns and (text not in _WordLexer.literals or before in _NOUN_OWNERS):
        return True
    return (word.typed[:1].isupper() and text not in known and text not in vocabulary().auxiliaries
            and text.isalpha() and not _MANA.fullmatch(text))


def _of_player(words: tuple[Word, ...], index: int) -> bool:
    """« de » / « du » before a player: « le tour de mon adversaire », « du joueur actif »."""
    following = [w.text for w in words[index + 1:index + 4] if w.text not in _ARTICLES]
    if following and (following[0] in _PLAYER_STARTS
                      or (following[0] in _PLAYER_OWNERS and following[1:2] == ["adversaire"])):
        return True
    return index + 1 < len(words) and words[index + 1].typed[:1].isupper() and words[index + 1].text in ("a", "b")


def _marked(words: tuple[Word, ...]) -> list[str]:
    """The words as the lexer reads them: card names and « de » before a player marked."""
    parser()
    known = set(_WordLexer.literals) | _WordLexer.skipped
    nouns = vocabulary().creature_nouns
    texts = []
    for index, word in enumerate(words):
        text = word.text
        if _is_name(words, index, known, nouns):
            text = _NAME_MARK + word.typed.rstrip("'’")
        elif text in ("de", "du") and _of_player(words, index):
            text = _DE_MARK + text
        texts.append(text)
    return texts


def _bounded(words: tuple[Word, ...]) -> list[str]:
    """The words as the lexer reads them, or a French refusal past the caps."""
    if len(words) > MAX_WORDS:
        raise JudgeError(f"question trop longue : {len(words)} mots (au plus {MAX_WORDS}) ; "
                         "posez une question à la fois")
    return _marked(words)


def _kept(words: tuple[Word, ...], texts: list[str], told: frozenset[str]) -> tuple[list[int], list[str]]:
    """The positions of the words Earley reads, and the words dropped before it (as typed): a
    word is dropped when it is no word of the grammar, no name, number or mana, and carries no
    game meaning (`Vocabulary.carries_meaning`) — read as unknown it would only be skipped —, or
    a setting (tournament, deck) told in the story, not asked (`told`).
    Linear; then the caps on what Earley reads (`MAX_READ` words, `MAX_NAMES` names)."""
    vocab = vocabulary()
    grammar = _grammar_words() - _WordLexer.skipped
    kept: list[int] = []
    dropped: list[str] = []
    for index, text in enumerate(texts):
        if text in told:
            dropped.extend([words[index].typed] if words[index].typed not in dropped else [])
        elif (text[:1] in (_NAME_MARK, _DE_MARK) or text in _WordLexer.literals or text in _WordLexer.skipped
                or not text.isalpha() or _MANA.fullmatch(text) or vocab.carries_meaning(text, grammar)):
            kept.append(index)
        elif words[index].typed not in dropped:
            dropped.append(words[index].typed)
    if len(kept) > MAX_READ:
        raise JudgeError(f"question trop longue : {len(kept)} mots qui comptent (au plus {MAX_READ}) ; "
                         "posez une question à la fois")
    names = sum(1 for i in kept if texts[i].startswith(_NAME_MARK))
    if names > MAX_NAMES:
        raise JudgeError(f"trop de noms dans la question : {names} (au plus {MAX_NAMES})")
    return kept, dropped


def _sorted_out(words: tuple[Word, ...], tree: Tree[Token],
                skipped: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words read as unknown: those that carry game meaning (`unknown`, as typed, a word
    split by folding said once), and the others added to the skipped ones."""
    marked = sorted({int(token.start_pos or 0) for node in tree.iter_subtrees() if node.data == "unknown"
                     for token in node.children if isinstance(token, Token)})
    vocab = vocabulary()
    grammar = _grammar_words() - _WordLexer.skipped
    unknown: list[str] = []
    dropped = list(skipped)
    for position, index in enumerate(marked):
        typed = words[index].typed
        if not vocab.carries_meaning(words[index].text, grammar):
            dropped.extend([typed] if typed not in dropped else [])
        elif not unknown or unknown[-1] != typed or marked[position - 1] != index - 1:
            unknown.append(typed)
    return tuple(unknown), tuple(dropped)


def _owners_named(words: tuple[Word, ...], texts: list[str]) -> tuple[str, ...]:
    """The names after a card's name and « de » (« l'Araignée de Bruno », « le Griffon d'Alice »):
    a player named by a first name, which the reader cannot tell from a card (it would read one
    card « Araignée Bruno » of no known player): not understood, never guessed. A name said
    again elsewhere (the players listed: « chacun pour soi à trois (Alice, Bruno, Chloé) ») is
    read by the grammar as a player."""
    counts: dict[str, int] = {}
    for text in texts:
        counts[text] = counts.get(text, 0) + 1
    return tuple(dict.fromkeys(
        words[i].typed.rstrip("'’") for i in range(2, len(texts))
        if texts[i].startswith(_NAME_MARK) and words[i - 1].text == "de" and texts[i - 2].startswith(_NAME_MARK)
        and counts[texts[i]] == 1))


_SENTENCE_END = re.compile(r"[.!?…]+")


def _only_a_frame(sentence: str) -> bool:
    """A question that asks nothing of the game itself: « Que dois-je répondre ? », « A-t-il
    raison ? », « Qui a raison ? » (`[frames]` of `rules/ask-words.toml`)."""
    text = " ".join(w.text for w in words_of(sentence))
    return text in vocabulary().frames


def asking_part(question: str) -> str:
    """The sentences that ask (those ending in « ? »; else the last one): a setting told in the
    story before them (« finale de notre tournoi », « mon deck trop lourd ») is context, not
    what is asked (`Vocabulary.settings`)."""
    ends = [m.end() for m in _SENTENCE_END.finditer(question)]
    asked = list(re.finditer(r"[^.!?…]*\?", question))
    if asked:
        if all(_only_a_frame(m.group(0)) for m in asked):
            return question  # « … s'il en a le droit. Que dois-je répondre ? »: what was told asks
        return " ".join(m.group(0) for m in asked)
    starts = [e for e in ends if e < len(question.rstrip())]
    return question[starts[-1]:] if starts else question


def read(question: str) -> Reading:
    """Parse the question; a word read as unknown is reported (as typed) when it carries game
    meaning, skipped otherwise. Bounded: at most `MAX_WORDS` words after folding, `MAX_READ`
    words read by Earley and `MAX_NAMES` names, else a French refusal (`JudgeError`)."""
    words, skipped = normalised(words_of(question))
    if not words:
        return Reading(words=words, tree=None, unknown=(), skipped=skipped)
    texts = _bounded(words)
    asking = tuple(w.text for w in normalised(words_of(asking_part(question)))[0])
    asked = set(asking)
    vocab = vocabulary()
    scope = tuple(dict.fromkeys(w.typed for w in words if w.text in vocab.out_of_scope
                                and (w.text in asked or w.text not in vocab.settings)))
    try:
        kept, dropped = _kept(words, texts, frozenset(vocab.settings - asked))
    except JudgeError as refusal:  # past the grammar's caps: the slot reader may still read it
        return Reading(words=words, tree=None, unknown=tuple(dict.fromkeys(w.typed for w in words)),
                       skipped=skipped, out_of_scope=scope, asked=asking, refused=str(refusal))
    read_words = tuple(words[i] for i in kept)
    if not kept:  # nothing with a game meaning: nothing read
        return Reading(words=words, tree=None, unknown=(), skipped=(*skipped, *dropped), out_of_scope=scope,
                       asked=asking)
    try:
        tree = _parse(" ".join(texts[i] for i in kept))
    except UnexpectedInput:  # cannot happen (any word may be unknown); said, not raised
        return Reading(words=words, tree=None, unknown=tuple(w.typed for w in words), out_of_scope=scope,
                       asked=asking)
    unknown, dropped_after = _sorted_out(read_words, tree, (*skipped, *dropped))
    unknown = (*unknown, *(w for w in _owners_named(words, texts) if w not in unknown))
    return Reading(words=words, tree=tree, unknown=unknown, skipped=dropped_after, out_of_scope=scope,
                   asked=asking)


def filler_words() -> frozenset[str]:
    """The words the grammar names only as fillers: skipped by every reader."""
    parser()
    return _WordLexer.skipped


def meaningful(text: str) -> bool:
    """Whether a folded word carries game meaning (`Vocabulary.carries_meaning`): left unplaced,
    it stops the answer."""
    return vocabulary().carries_meaning(text, _grammar_words() - _WordLexer.skipped)


def name_positions(words: tuple[Word, ...]) -> frozenset[int]:
    """The positions of the words read as names (a card's or a player's: `_is_name`)."""
    return frozenset(i for i, text in enumerate(_marked(words)) if text.startswith(_NAME_MARK))
