"""Loads `grammar.lark` (judges' French) and reads a question into its parts.

The grammar's words are whole words: a word lexer (`_WordLexer`) gives each folded word the
grammar's terminal for it, or PT (« 3/3 »), INT, MANA_SYMBOLS (« RRR ») or WORD. Earley reads
the words; a word of the grammar that no part can take where it stands is marked unknown and
the question read again, so that a reading always comes back, with the words not understood.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree, UnexpectedInput
from lark.lexer import Lexer

from judge.ask.words import Word, words_of

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")
_UNKNOWN = "\x00"  # a word marked unknown: no terminal of the grammar is this
_PT = re.compile(r"\d{1,3}/\d{1,3}")
_YEAR = re.compile(r"(?:19|20)\d\d")
_INT = re.compile(r"\d{1,4}")
_MANA = re.compile(r"(?:\{[wubrgc0-9]\}|[wubrgc]){2,}|\{[wubrgc0-9]\}")
_MAX_RETRIES = 40


class _WordLexer(Lexer):
    """One token a word, typed by the grammar's own word list; a word that only `_filler`
    uses is skipped (the rules are written without it)."""

    skipped: frozenset[str] = frozenset()

    def __init__(self, lexer_conf: Any) -> None:
        self.literals: dict[str, str] = {}
        for terminal in lexer_conf.terminals:
            if terminal.pattern.type == "str":
                self.literals[terminal.pattern.value] = terminal.name

    def lex(self, data: Any, *_: Any) -> Iterator[Token]:
        for index, word in enumerate(str(data).split(" ")):
            if word in self.skipped:
                continue
            kind = self.literals.get(word)
            if kind is None:
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
    return bool(term.name == token.type or term.name == "WORD")


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The grammar, loaded once per process."""
    lark = Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="earley", lexer=_WordLexer,
                ambiguity="resolve", propagate_positions=False)
    # Lark's Earley front end takes its terminal test at construction only (basic lexer:
    # same type); ours lets any word be read as unknown.
    lark.parser.parser.term_matcher = _match
    _WordLexer.skipped = _filler_only(lark)
    return lark


def _filler_only(lark: Lark) -> frozenset[str]:
    """The words that only `_filler` names: nothing else in the grammar reads them."""
    values = {t.name: t.pattern.value for t in lark.terminals if t.pattern.type == "str"}
    used: dict[str, set[str]] = {}
    for rule in lark.rules:
        for symbol in rule.expansion:
            if symbol.is_term and symbol.name in values:
                used.setdefault(values[symbol.name], set()).add(str(rule.origin.name))
    return frozenset(word for word, origins in used.items() if origins == {"_filler"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """A question read: its parse tree (unknown words included) and the words not understood."""

    words: tuple[Word, ...]
    tree: Tree[Token] | None
    unknown: tuple[str, ...]


def read(question: str) -> Reading:
    """Parse the question; a word no part takes is reported unknown (as typed)."""
    words = words_of(question)
    texts = [word.text for word in words]
    marked: set[int] = set()
    if not texts:
        return Reading(words=words, tree=None, unknown=())
    tree = None
    for _ in range(_MAX_RETRIES):
        try:
            tree = parser().parse(" ".join(_UNKNOWN if i in marked else t for i, t in enumerate(texts)))
            break
        except UnexpectedInput as error:
            index = _culprit(error, len(texts), marked)
            if index is None:
                break
            marked.add(index)
    if tree is None:
        marked = set(range(len(texts)))
    else:
        for node in tree.iter_subtrees():
            if node.data == "unknown":
                for token in node.children:
                    if isinstance(token, Token):
                        marked.add(int(token.start_pos or 0))
    unknown: list[str] = []
    for index in sorted(marked):
        typed = words[index].typed
        if not unknown or unknown[-1] != typed or index - 1 not in marked:
            unknown.append(typed)
    return Reading(words=words, tree=tree, unknown=tuple(unknown))


def _culprit(error: UnexpectedInput, count: int, marked: set[int]) -> int | None:
    """The word to mark unknown after a parse error: the token it stopped at, or at the end of
    the question the last word not yet marked."""
    token = getattr(error, "token", None)
    if isinstance(token, Token) and token.type != "$END" and token.start_pos is not None:
        index = int(token.start_pos)
        if index not in marked:
            return index
    for index in range(count - 1, -1, -1):
        if index not in marked:
            return index
    return None
