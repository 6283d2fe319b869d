"""The Lark front end: loads `grammar.lark` once and turns its parses into line items and segments.

This module is the only code that knows the grammar's rule and terminal names. The parser of
record runs its callbacks inside the LALR parse (no tree) and parses inline text only when it
holds three digits in a row (a `NUMBER`); `reference=True` keeps the plain path (a tree
with positions, then the same callbacks) so that the tests can compare the two. Placing lines
into rules, examples, glossary and so on is `judge.corpus.assemble`'s job.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import lark_cython
from lark import Lark, Token, Transformer, UnexpectedInput

from judge.corpus.assemble import Item, assemble
from judge.corpus.model import Document, Plain, Reference, Segment, Span
from judge.corpus.textio import decode, read_text
from judge.errors import RuleSyntaxError

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")

_QUOTES = "\"«»“”"
# Every citation target is a three-digit `NUMBER`: text without three digits in a row is plain.
_MAY_CITE = re.compile(r"\d{3}")


class _Callbacks(Transformer[Token, object]):
    """One callback per grammar rule, position-free: usable inside the LALR parse (fast path)
    or on a built parse tree (the reference path), with the same results."""

    def document(self, children: list[Item]) -> list[Item]:
        return children

    def rule_line(self, children: list[Token]) -> Item:
        return _numbered("rule", children)

    def section_line(self, children: list[Token]) -> Item:
        return _numbered("section", children)

    def chapter_line(self, children: list[Token]) -> Item:
        return _numbered("chapter", children)

    def example_line(self, children: list[Token]) -> Item:
        head = children[0]
        token = children[1] if len(children) > 1 else None
        raw = token.value if token is not None else ""
        return _item("example", head, None, token, raw.strip())

    def removal_note(self, children: list[Token]) -> Item:
        return _whole("removal", children[0])

    def heading_line(self, children: list[Token]) -> Item:
        return _whole("heading", children[0])

    def effective_line(self, children: list[Token]) -> Item:
        return _whole("effective", children[0])

    def text_line(self, children: list[Token]) -> Item:
        return _whole("text", children[0])

    def inline(self, children: list[Token | list[str | _Target]]) -> list[str | _Target]:
        out: list[str | _Target] = []
        for child in children:
            if isinstance(child, list):
                out.extend(child)
            else:
                out.append(child.value)
        return out

    def citation(self, children: list[Token | _Target]) -> list[str | _Target]:
        return [c if isinstance(c, _Target) else c.value for c in children]

    def target(self, children: list[Token]) -> _Target:
        range_end = None
        title = None
        for token in children[1:]:
            if token.type == "NUMBER":
                range_end = token.value
            elif token.type == "QUOTED":
                title = token.value.strip(" \t\u00a0,").strip(_QUOTES).strip().rstrip(".,;: ").strip()
        start = children[0].start_pos or 0
        return _Target(
            number=children[0].value,
            title=title or None,
            range_end=range_end,
            text="".join(t.value for t in children),
            start=start,
            end=children[-1].end_pos or start,
        )


@dataclass(frozen=True, slots=True)
class _Target:
    """A citation target as parsed, with offsets in the inline text (spans come later)."""

    number: str
    title: str | None
    range_end: str | None
    text: str
    start: int
    end: int


def _item(kind: str, head: Token, number: str | None, token: Token | None, text: str) -> Item:
    column = 0
    if token is not None:
        raw = token.value
        column = (token.column or 1) + len(raw) - len(raw.lstrip(" \t\u00a0"))
    return Item(
        kind=kind, line=head.line or 0, column=head.column or 1, number=number, head=head.value,
        text=text, text_column=column,
    )


def _numbered(kind: str, children: list[Token]) -> Item:
    head = children[0]
    token = children[1] if len(children) > 1 else None
    text = token.value.strip(" \t\u00a0") if token is not None else ""
    return _item(kind, head, head.value.rstrip("."), token, text)


def _whole(kind: str, token: Token) -> Item:
    return _item(kind, token, None, token, token.value.strip(" \t\u00a0"))


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
    return _open(transformer=_Callbacks(), _plugins=lark_cython.plugins)


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
    """Cut one rule text into plain runs and references (concatenation gives `text` back).

    `reference=True` takes the slow reference path (tree, then transform, no pre-filter):
    the tests check that both give the same segments and spans.
    """
    if not text:
        return ()
    if not reference and not _MAY_CITE.search(text):
        return (Plain(text=text),)
    where = locate or (lambda offset: (1, offset + 1))
    out: list[Segment] = []
    pending = ""
    for part in _parse(text, "inline", reference):
        if isinstance(part, str):
            pending += part
            continue
        if pending:
            out.append(Plain(text=pending))
            pending = ""
        line, column = where(part.start)
        end_line, end_column = where(part.end)
        out.append(Reference(
            number=part.number, title=part.title, range_end=part.range_end, text=part.text,
            span=Span(file=file, line=line, column=column, end_line=end_line, end_column=end_column),
        ))
    if pending:
        out.append(Plain(text=pending))
    return tuple(out)


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

    `reference=True`: the slow reference path (see `parse_inline`), for the tests.
    """
    source = text if text.endswith("\n") else text + "\n"
    try:
        items: list[Item] = _parse(source, "document", reference)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, source, file) from None
    return assemble(
        items,
        file=file,
        language=language,
        edition=edition,
        encoding=encoding,
        inline=partial(parse_inline, reference=reference),
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
