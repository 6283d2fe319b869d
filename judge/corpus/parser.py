"""The Lark front end: loads `grammar.lark` once and turns parse trees into line items and segments.

This module is the only code that knows the grammar's rule and terminal names. Placing lines
into rules, examples, glossary and so on is `judge.corpus.assemble`'s job.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, UnexpectedInput

from judge.corpus.assemble import Item, assemble
from judge.corpus.model import Document, Plain, Reference, Segment, Span
from judge.corpus.textio import decode, read_text
from judge.errors import RuleSyntaxError

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")

_LINE_KINDS = {
    "rule_line": "rule",
    "section_line": "section",
    "chapter_line": "chapter",
    "example_line": "example",
    "removal_note": "removal",
    "heading_line": "heading",
    "effective_line": "effective",
    "text_line": "text",
}
_MAY_CITE = re.compile(r"\d{3}")
_QUOTES = "\"«»“”"


@lru_cache(maxsize=1)
def _lark() -> Lark:
    return Lark.open(
        str(GRAMMAR_PATH),
        parser="lalr",
        lexer="contextual",
        start=["document", "inline"],
        propagate_positions=True,
        maybe_placeholders=False,
    )


class _Lines(Transformer[Token, list[Item]]):
    """Block tree -> flat list of classified line items."""

    def document(self, children: list[Item]) -> list[Item]:
        return children

    def __default__(self, data: object, children: list[Token], meta: object) -> Item:
        kind = _LINE_KINDS[str(data)]
        head = children[0]
        number = None
        text_token: Token | None = None
        if kind in ("rule", "section", "chapter"):
            number = head.value.rstrip(".")
            text_token = children[1] if len(children) > 1 else None
        elif kind == "example":
            text_token = children[1] if len(children) > 1 else None
        else:
            text_token = head
        raw = text_token.value if text_token is not None else ""
        stripped = raw.lstrip(" \t\u00a0")
        column = (text_token.column or 1) + len(raw) - len(stripped) if text_token else 0
        if kind == "example":
            stripped = raw.strip()
        return Item(
            kind=kind,
            line=head.line or 0,
            column=head.column or 1,
            number=number,
            head=head.value,
            text=stripped.rstrip(" \t\u00a0"),
            text_column=column,
        )


class _Inline(Transformer[Token, list[Segment]]):
    """Inline tree -> plain text and reference segments, with source spans."""

    def __init__(self, locate: Callable[[int], tuple[int, int]], file: str) -> None:
        super().__init__()
        self._locate = locate
        self._file = file

    def inline(self, children: list[Token | list[Segment]]) -> list[Segment]:
        out: list[Segment] = []
        for child in children:
            if isinstance(child, Token):
                out.append(Plain(text=child.value))
            else:
                out.extend(child)
        return out

    def citation(self, children: list[Token | Reference]) -> list[Segment]:
        return [
            Plain(text=c.value) if isinstance(c, Token) else c for c in children
        ]

    def target(self, children: list[Token]) -> Reference:
        number = children[0]
        range_end = None
        title = None
        for token in children[1:]:
            if token.type == "NUMBER":
                range_end = token.value
            elif token.type == "QUOTED":
                title = token.value.strip(" \t\u00a0,").strip(_QUOTES).strip().rstrip(".,;: ").strip()
        start = number.start_pos or 0
        end = children[-1].end_pos or start
        line, column = self._locate(start)
        end_line, end_column = self._locate(end)
        text = "".join(t.value for t in children)
        return Reference(
            number=number.value,
            title=title or None,
            range_end=range_end,
            text=text,
            span=Span(
                file=self._file, line=line, column=column, end_line=end_line, end_column=end_column
            ),
        )


def parse_inline(
    text: str, *, file: str = "", locate: Callable[[int], tuple[int, int]] | None = None
) -> tuple[Segment, ...]:
    """Cut one rule text into plain runs and references (concatenation gives `text` back)."""
    if not text:
        return ()
    if not _MAY_CITE.search(text):
        return (Plain(text=text),)
    where = locate or (lambda offset: (1, offset + 1))
    tree = _lark().parse(text, start="inline")
    segments = _Inline(where, file).transform(tree)
    return tuple(_merge_plain(segments))


def _merge_plain(segments: list[Segment]) -> list[Segment]:
    out: list[Segment] = []
    for seg in segments:
        if isinstance(seg, Plain) and out and isinstance(out[-1], Plain):
            out[-1] = Plain(text=out[-1].text + seg.text)
        else:
            out.append(seg)
    return out


def parse_text(
    text: str,
    *,
    file: str = "<texte>",
    language: str = "fr",
    edition: str = "",
    encoding: str = "utf-8",
) -> Document:
    """Parse a decoded rule text (line ends already `\\n`) into a `Document`."""
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = _lark().parse(source, start="document")
    except UnexpectedInput as exc:
        raise _syntax_error(exc, source, file) from None
    items: list[Item] = _Lines().transform(tree)
    return assemble(
        items,
        file=file,
        language=language,
        edition=edition,
        encoding=encoding,
        inline=parse_inline,
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
