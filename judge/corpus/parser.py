"""The Lark front end: loads `grammar.lark` once and turns its parses into line items and segments.

This module is the only code that knows the grammar's rule and terminal names. The parser of
record reads a whole file in one LALR parse, its callbacks run inside the parse (no tree), and
each line's citations are lexed with the line (no second parse of the text); the assembler
only re-reads with the `inline` start an example that runs over several lines (joined with
spaces, a citation could straddle two of them). `reference=True` keeps the plain path: a
tree with positions, the same callbacks on it, then every rule text parsed again as a whole
with the `inline` start, so that the tests can compare the two. Placing lines into rules,
examples, glossary and so on is `judge.corpus.assemble`'s job.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import lark_cython
from lark import Lark, Token, UnexpectedInput
from lark.visitors import Transformer_NonRecursive

from judge.corpus.assemble import Item, Part, Target, assemble, segments_of
from judge.corpus.documents import Document, Plain, Segment, Span
from judge.corpus.numbers import MAX_RULE_DIGITS
from judge.corpus.textio import decode, read_text
from judge.errors import RuleSyntaxError

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")

_QUOTES = "\"«»“”"
_WS = " \t\u00a0"
_WS_NL = _WS + "\n"
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Every citation target is a three-digit `NUMBER`: text without three digits in a row is plain.
_MAY_CITE = re.compile(r"\d{3}")


class _Callbacks(Transformer_NonRecursive[Token, object]):
    """One callback per grammar rule: usable inside the LALR parse (fast path) or on a built
    parse tree (the reference path), with the same results. Non-recursive on a tree: the line
    list nests one level per line."""

    def document(self, children: list[Any]) -> list[Item]:
        return children[-1] if children and isinstance(children[-1], list) else []

    def lines(self, children: list[Any]) -> list[Item]:
        if len(children) == 1:
            return [children[0]]
        children[0].append(children[1])
        return children[0]  # type: ignore[no-any-return]

    def rule_line(self, children: list[Any]) -> Item:
        return _line("rule", children)

    def section_line(self, children: list[Any]) -> Item:
        return _line("section", children)

    def chapter_line(self, children: list[Any]) -> Item:
        return _line("chapter", children)

    def example_line(self, children: list[Any]) -> Item:
        return _line("example", children)

    def removal_note(self, children: list[Token]) -> Item:
        return _whole("removal", children[0])

    def heading_line(self, children: list[Token]) -> Item:
        return _whole("heading", children[0])

    def effective_line(self, children: list[Token]) -> Item:
        return _whole("effective", children[0])

    def text_line(self, children: list[Any]) -> Item:
        first = children[0]
        token = first[0] if isinstance(first, list) else first
        return _text_item("text", token.line or 0, token.column or 1, None, "", first)

    # Lines that are one token (called as the token is read).
    def RULE_LINE(self, token: Token) -> Item:
        return _numbered("rule", token)

    def SECTION_LINE(self, token: Token) -> Item:
        return _numbered("section", token)

    def CHAPTER_LINE(self, token: Token) -> Item:
        return _numbered("chapter", token)

    def EXAMPLE_LINE(self, token: Token) -> Item:
        value = token.value.lstrip(_WS)
        return _headed("example", token, value[:value.index(":") + 1], None)

    def TEXT(self, token: Token) -> Item:
        return _text_item("text", token.line or 0, token.column or 1, None, "", token)

    # Tokens are tested as "not a list, not a Target": lark-cython's tokens are not `lark.Token`s.
    def parts(self, children: list[Any]) -> list[Any]:
        out: list[Any] = []
        for child in children:
            if isinstance(child, list):
                out.extend(child)
            else:
                out.append(child)
        return out

    def inline(self, children: list[Any]) -> list[Part]:
        out: list[Part] = []
        for child in children:
            if isinstance(child, list):
                out.extend([p if isinstance(p, Target) else p.value for p in child])
            else:
                out.append(child.value)
        return out

    def citation(self, children: list[Token | Target]) -> list[Token | Target]:
        return children

    def target(self, children: list[Token]) -> Target:
        range_end = None
        title = None
        for token in children[1:]:
            if token.type == "NUMBER":
                range_end = token.value
            elif token.type == "QUOTED":
                title = token.value.strip(" \t\u00a0,").strip(_QUOTES).strip().rstrip(".,;: ").strip()
        first, last = children[0], children[-1]
        return _target((  # number, title, range_end, text, start, end, line, column, end_line, end_column
            first.value, title or None, range_end, "".join([t.value for t in children]),
            first.start_pos or 0, last.end_pos or 0, first.line or 0, first.column or 1,
            last.end_line or 0, last.end_column or 1,
        ))


# `Item`s and `Target`s are made by the thousand inside the parse: straight from their fields
# (the named tuple's own `__new__` is one more Python call each).
_item = partial(tuple.__new__, Item)
_target = partial(tuple.__new__, Target)


def _line(kind: str, children: list[Any]) -> Item:
    token: Token = children[0]
    head = token.value.lstrip(_WS)  # a head may be indented
    column = (token.column or 1) + len(token.value) - len(head)
    number = head.rstrip(".") if kind != "example" else None
    text = children[1]
    if not isinstance(text, list) and text.type == "NL":  # no text, only the line end
        return _item((kind, token.line or 0, column, number, head, "", 0, None))
    return _text_item(kind, token.line or 0, column, number, head, text)


def _numbered(kind: str, token: Token) -> Item:
    # The number ends at the first white space (the grammar puts one after it, none in it).
    head = token.value.split(None, 1)[0]
    return _headed(kind, token, head, head.rstrip("."))


def _headed(kind: str, token: Token, head: str, number: str | None) -> Item:
    """The item of a one-token line: its head (after any indent), then its text up to the line end."""
    value = token.value
    lead = len(value) - len(value.lstrip(_WS))
    stripped = value[lead + len(head):].lstrip(_WS)
    column = token.column or 1
    return _item((
        kind, token.line or 0, column + lead, number, head, stripped.rstrip(_WS_NL),
        column + len(value) - len(stripped), None,
    ))


def _text_item(kind: str, line: int, column: int, number: str | None, head: str, text: Any) -> Item:
    """An item whose text was lexed with its citations: one text token (a `PLAIN`, or a `TEXT`
    line, which ends with the line end: no citation), or the `parts` list (tokens and
    targets)."""
    if not isinstance(text, list):
        raw = text.value
        stripped = raw.lstrip(_WS)
        return _item((
            kind, line, column, number, head, stripped.rstrip(_WS_NL),
            (text.column or 1) + len(raw) - len(stripped), None,
        ))
    lead = 0
    pieces: list[Part] = [p if isinstance(p, Target) else p.value for p in text]
    if isinstance(pieces[0], str):
        stripped = pieces[0].lstrip(_WS)
        lead = len(pieces[0]) - len(stripped)
        pieces[0] = stripped
    if isinstance(pieces[-1], str):
        pieces[-1] = pieces[-1].rstrip(_WS)
    parts = tuple([p for p in pieces if p != ""])
    return _item((
        kind, line, column, number, head, "".join([p if isinstance(p, str) else p.text for p in parts]),
        (text[0].column or 1) + lead, parts,
    ))


def _whole(kind: str, token: Token) -> Item:
    raw = token.value
    stripped = raw.lstrip(_WS)
    return _item((
        kind, token.line or 0, token.column or 1, None, raw, stripped.rstrip(_WS),
        (token.column or 1) + len(raw) - len(stripped), None,
    ))


def _open(**options: Any) -> Lark:
    return Lark.open(
        str(GRAMMAR_PATH),
        parser="lalr",
        lexer="contextual",
        start=["document", "inline"],
        maybe_placeholders=False,
        **options,
    )


@lru_cache(maxsize=1)
def _fast() -> Lark:
    """The parser of record: lark-cython's lexer and parser, callbacks run as LALR reduces
    (no tree is built)."""
    parser = _open(transformer=_Callbacks(), _plugins=lark_cython.plugins)
    # After each reduce the LALR loop looks the rule's name up among the parse table's plain
    # `str` keys; the grammar loader names rules with `lark.Token`s, a `str` subclass whose
    # Python `__eq__` then runs once per reduce. The same names as plain `str`s (equal, same
    # hash) keep that lookup in C.
    for rule in parser.rules:
        rule.origin.name = str(rule.origin.name)
    _plain_reductions(parser)
    return parser


class _Reduction:
    """What the LALR loop reads of a reduce action's rule (its length and its name), with the
    default identity hash and comparisons: lark's `Rule` has Python ones, and the loop runs
    both once per reduce (`callbacks[rule]`, and an `assert` that compares it to a state)."""

    __slots__ = ("expansion", "origin")

    def __init__(self, rule: Any) -> None:
        self.expansion = rule.expansion
        self.origin = rule.origin


def _plain_reductions(parser: Lark) -> None:
    """Put `_Reduction`s in the parse table's reduce actions, and their callbacks in the
    (shared, mutated in place) callback table.

    No public API gives the LALR parse table or the callback table: they come from
    `judge.corpus.larkinternals`, and a `RuntimeError` names the Lark version when they are not
    there (`tests/corpus/test_parser_lark.py` fails loudly on it)."""
    import lark

    from judge.corpus.larkinternals import lark_internals

    inside = lark_internals(parser)
    callbacks, states = inside.callbacks, inside.lalr_states
    if callbacks is None or states is None:
        raise RuntimeError(f"lark {lark.__version__} ne convient plus à judge.corpus.parser._plain_reductions : "
                           "table des callbacks ou table d'analyse LALR introuvable")
    reductions: dict[Any, _Reduction] = {}
    for actions in states.values():
        for token, (action, arg) in actions.items():
            if not isinstance(arg, int):
                if arg not in reductions:
                    reductions[arg] = _Reduction(arg)
                    callbacks[reductions[arg]] = callbacks[arg]
                actions[token] = (action, reductions[arg])


@lru_cache(maxsize=1)
def _tree() -> Lark:
    """The reference path: pure-Python Lark, a full parse tree with positions, transformed
    afterwards."""
    return _open(propagate_positions=True)


def _parse(text: str, start: str, reference: bool) -> Any:
    if reference:
        return _Callbacks().transform(_tree().parse(text, start=start))
    return _fast().parse(text, start=start)


def parse_inline(
    text: str,
    *,
    file: str = "",
    locate: Callable[[int], tuple[int, int]] | None = None,
    reference: bool = False,
) -> tuple[Segment, ...]:
    """Cut one text into plain runs and references (concatenation gives `text` back).

    `reference=True` takes the slow reference path (tree, then transform, no pre-filter):
    the tests check that both give the same segments and spans.
    """
    if not text:
        return ()
    if not reference and not _MAY_CITE.search(text):
        return (Plain(text=text),)
    where = locate or (lambda offset: (1, offset + 1))

    def span(target: Target) -> Span:
        line, column = where(target.start)
        end_line, end_column = where(target.end)
        return Span(file=file, line=line, column=column, end_line=end_line, end_column=end_column)

    return segments_of(_parse(text, "inline", reference), span)


def parse_text(
    text: str,
    *,
    file: str = "<texte>",
    language: str = "fr",
    edition: str = "",
    encoding: str = "utf-8",
    reference: bool = False,
) -> Document:
    """Parse a decoded rule text (line ends already `\\n`) into a `Document`.

    `reference=True`: the slow reference path (see the module's docstring), for the tests.
    """
    source = text if text.endswith("\n") else text + "\n"
    try:
        items: list[Item] = _parse(source, "document", reference)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, source, file) from None
    _check_numbers(items, source, file)
    return assemble(
        items,
        file=file,
        language=language,
        edition=edition,
        encoding=encoding,
        inline=partial(parse_inline, reference=reference),
        per_line=not reference,
    )


def parse_file(
    path: str | Path, *, language: str = "fr", edition: str = "", label: str | None = None
) -> Document:
    """Read (any supported encoding and line ends) and parse one rule text file.

    `label` is the name used in spans and messages (default: the path as given).
    """
    decoded = read_text(path)
    return parse_text(
        decoded.text, file=label or str(path), language=language, edition=edition,
        encoding=decoded.encoding,
    )


def parse_bytes(data: bytes, *, file: str = "<texte>", language: str = "fr", edition: str = "") -> Document:
    decoded = decode(data, path=file)
    return parse_text(
        decoded.text, file=file, language=language, edition=edition, encoding=decoded.encoding
    )


def _check_numbers(items: list[Item], source: str, file: str) -> None:
    """A rule number (of a line, or cited) of over `MAX_RULE_DIGITS` digits after its section
    is refused: no real text has one, and it could not be ordered as a number."""
    for item in items:
        numbers = [item.number or ""] + [part.number for part in item.parts or () if isinstance(part, Target)]
        for number in numbers:
            if len(number) > MAX_RULE_DIGITS + 5 and len(number.partition(".")[2].rstrip(_LETTERS)) > MAX_RULE_DIGITS:
                lines = source.split("\n", item.line)
                shown = lines[item.line - 1] if 0 < item.line <= len(lines) else ""
                raise RuleSyntaxError(file, item.line, item.column, shown[:80] + ("…" if len(shown) > 80 else ""),
                                      f"numéro de règle trop long ({len(number)} caractères ; au plus "
                                      f"{MAX_RULE_DIGITS} chiffres après le point)")


def _syntax_error(exc: UnexpectedInput, source: str, file: str) -> RuleSyntaxError:
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    lines = source.split("\n")
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    pos = getattr(exc, "pos_in_stream", None)
    char = source[pos] if isinstance(pos, int) and 0 <= pos < len(source) else ""
    if char and (ord(char) < 32 or ord(char) == 127):
        reason = f"caractère de contrôle inattendu (U+{ord(char):04X})"
        shown = source_line.replace(char, "�")
    else:
        reason = "texte que la grammaire ne sait pas placer"
        shown = source_line
    return RuleSyntaxError(file, line, column, shown, reason)
