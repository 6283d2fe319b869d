"""Placing classified lines: rules with their text, examples and notes; glossary; contents; credits.

Works on `Item`s (one per non-blank line, already classified by the grammar, with the
citations of its text when the parser read them with the line) with a small state machine
over the document's parts. Knows nothing of Lark.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

from judge.corpus.documents import (
    Document,
    Example,
    GlossaryEntry,
    Line,
    Plain,
    Reference,
    Rule,
    Segment,
    Span,
    rule_kind,
)

InlineParser = Callable[..., tuple[Segment, ...]]

_TITLE_LINE = re.compile(r"(?i)règles complètes|comprehensive rules")
_CONTENTS = ("contents", "sommaire", "table des matières")
_GLOSSARY = ("glossary", "glossaire")
_CREDITS = ("credits", "crédits", "questions?")


class Target(NamedTuple):
    """A citation target as parsed: offsets in the parsed text and the source position (spans
    come later). A named tuple, like `Item`: made by the thousand inside the parse."""

    number: str
    title: str | None
    range_end: str | None
    text: str
    start: int
    end: int
    line: int
    column: int
    end_line: int
    end_column: int


Part = str | Target


class Item(NamedTuple):
    """One source line as the grammar classified it. `parts`: the text cut at its citations
    (plain runs and targets, joined they give `text`), None when the line has no citation."""

    kind: str
    line: int
    column: int
    number: str | None
    head: str
    text: str
    text_column: int
    parts: tuple[Part, ...] | None


class _Piece(NamedTuple):
    """One line of a rule, example or glossary text. `read`: `parts` is the line's own
    reading (False: only the inline parse of the joined text knows its citations)."""

    text: str
    line: int
    column: int
    parts: tuple[Part, ...] | None
    read: bool = True


def segments_of(parts: Iterable[Part], span: Callable[[Target], Span]) -> tuple[Segment, ...]:
    """Plain runs and references from parsed parts (adjacent plain parts merged)."""
    out: list[Segment] = []
    pending = ""
    for part in parts:
        if isinstance(part, str):
            pending += part
            continue
        if pending:
            out.append(Plain(text=pending))
            pending = ""
        out.append(Reference(number=part.number, title=part.title, range_end=part.range_end, text=part.text,
                             span=span(part)))
    if pending:
        out.append(Plain(text=pending))
    return tuple(out)


# One `_Piece` per text line: made straight from its fields (see `parser._item`).
_piece = partial(tuple.__new__, _Piece)


@dataclass(slots=True)
class _OpenRule:
    """A rule being assembled: its numbered line, its text lines, its examples so far."""

    item: Item
    pieces: list[_Piece]
    examples: list[list[_Piece]]
    notes: tuple[str, ...] = ()
    historical: bool = False


def _locator(pieces: list[_Piece]) -> Callable[[int], tuple[int, int]]:
    """Map an offset in the `\\n`-joined pieces back to a source line and column."""
    starts: list[tuple[int, _Piece]] = []
    offset = 0
    for piece in pieces:
        starts.append((offset, piece))
        offset += len(piece.text) + 1

    def locate(pos: int) -> tuple[int, int]:
        chosen = starts[0]
        for start in starts:
            if start[0] <= pos:
                chosen = start
            else:
                break
        return chosen[1].line, chosen[1].column + pos - chosen[0]

    return locate


def _heading_like(text: str) -> bool:
    words = text.split()
    return 0 < len(words) <= 5 and len(text) <= 40 and not text.rstrip().endswith((".", ";", ","))


class _Assembler:
    def __init__(
        self, *, file: str, language: str, edition: str, inline: InlineParser, per_line: bool
    ) -> None:
        self.file = file
        self.language = language
        self.edition = edition
        self.inline = inline
        self.per_line = per_line
        self.mode = "preamble"
        self.rules: list[Rule] = []
        self.glossary: list[GlossaryEntry] = []
        self.other: list[Line] = []
        self.unparsed: list[Line] = []
        self.title: str | None = None
        self.effective: str | None = None
        self.current: _OpenRule | None = None
        self.entry: tuple[Item, list[_Piece]] | None = None
        self.toc: set[str] = set()
        self.removal_note: str | None = None
        self.removed_roots: list[str] = []
        self.last_line = 0
        self._handlers = {
            "preamble": self._on_preamble, "contents": self._on_contents, "body": self._on_body,
            "glossary": self._on_glossary, "credits": self._on_credits,
        }

    # ------------------------------------------------------------------ driving
    def feed(self, item: Item) -> None:
        if item.kind == "text" and not item.text.strip():
            return  # a whitespace-only line is a blank line: the next item sees the gap
        line = item.line
        if line > self.last_line + 1 and self.mode == "glossary":
            self._close_entry()  # a blank line ends a glossary entry
        self.last_line = line
        self._handlers[self.mode](item)

    def _other(self, kind: str, item: Item) -> None:
        text = f"{item.number}. {item.text}" if item.number else item.text
        if item.kind in ("heading", "removal", "effective"):
            text = item.head.strip()
        self.other.append(Line(kind=kind, text=text, line=item.line))

    # ------------------------------------------------------------------ modes
    def _on_preamble(self, item: Item) -> None:
        kind = item.kind
        if kind in ("rule", "section", "chapter"):
            self.mode = "body"
            self._on_body(item)
        elif kind == "heading":
            word = item.head.strip().lower()
            if word in _CONTENTS:
                self.mode = "contents"
            self._other("heading", item)
        elif kind == "effective":
            self.effective = item.head.strip()
            self._other("effective", item)
        elif kind == "removal":
            self.removal_note = item.head.strip()
            self._other("note", item)
        elif kind == "text" and self.title is None and _TITLE_LINE.search(item.text):
            self.title = item.text
            self._other("title", item)
        elif kind == "text":
            self._other("heading" if _heading_like(item.text) else "intro", item)
        else:
            self.unparsed.append(Line(kind=kind, text=item.head + item.text, line=item.line))

    def _on_contents(self, item: Item) -> None:
        if item.kind in ("chapter", "section") and item.number in self.toc:
            self.mode = "body"
            self._on_body(item)
            return
        if item.kind == "rule":
            self.mode = "body"
            self._on_body(item)
            return
        if item.number:
            self.toc.add(item.number)
        self._other("contents", item)

    def _on_body(self, item: Item) -> None:
        kind = item.kind
        if kind in ("rule", "section"):
            self._close_rule()
            self.current = _OpenRule(
                item, [_piece((item.text, item.line, item.text_column, item.parts, True))] if item.text else [], [],
            )
            number = item.number or ""
            if self.removal_note is not None:
                self.current.historical = True
                self.current.notes = (self.removal_note,)
                self.removed_roots.append(number)
                self.removal_note = None
            elif self.removed_roots and any(
                number.startswith(root) and number != root for root in self.removed_roots
            ):
                self.current.historical = True
        elif kind == "chapter":
            self._close_rule()
            self._other("chapter", item)
        elif kind == "example":
            if self.current is None:
                self.unparsed.append(Line(kind="example", text=item.head + " " + item.text, line=item.line))
            else:
                self.current.examples.append([_piece((item.text, item.line, item.text_column, item.parts, True))])
        elif kind == "removal":
            self._close_rule()
            self.removal_note = item.head.strip()
            self._other("note", item)
        elif kind == "heading":
            word = item.head.strip().lower()
            self._close_rule()
            if word in _GLOSSARY:
                self.mode = "glossary"
            elif word in _CREDITS:
                self.mode = "credits"
            self._other("heading", item)
        elif kind == "effective":
            self._other("effective", item)
        else:  # text
            current = self.current
            if current is None:
                kind_name = "heading" if _heading_like(item.text) else "intro"
                self._other(kind_name, item)
            elif current.examples and self.last_line == current.examples[-1][-1].line + 1:
                current.examples[-1].append(_piece((item.text, item.line, item.text_column, item.parts, True)))
            else:
                current.pieces.append(_piece((item.text, item.line, item.text_column, item.parts, True)))

    def _on_glossary(self, item: Item) -> None:
        if item.kind == "heading" and item.head.strip().lower() in _CREDITS:
            self._close_entry()
            self.mode = "credits"
            self._other("heading", item)
            return
        text = item.head.strip() if item.kind in ("heading", "removal", "effective") else (
            f"{item.head.strip()} {item.text}".strip() if item.kind != "text" else item.text
        )
        # The line's own reading holds for a text line whose text starts its line; other lines
        # (and the column the joined text is located from) are the inline parse's.
        read = item.kind == "text" and item.column == item.text_column
        piece = _Piece(text, item.line, item.column, item.parts, read)
        if self.entry is None:
            self.entry = (item, [piece])
        else:
            self.entry[1].append(piece)

    def _on_credits(self, item: Item) -> None:
        self._other("credits", item)

    # ------------------------------------------------------------------ closing
    def _close_rule(self) -> None:
        open_rule = self.current
        if open_rule is None:
            return
        self.current = None
        item = open_rule.item
        number = item.number or ""
        pieces = open_rule.pieces
        title = None
        if item.kind == "section":
            text = ""
            segments: tuple[Segment, ...] = ()
            title = " ".join([p.text for p in pieces]) or None
        elif self.per_line and len(pieces) == 1 and pieces[0].parts is None:  # one line, no citation
            text = pieces[0].text
            segments = (Plain(text=text),)
        else:
            text = "\n".join([p.text for p in pieces])
            segments = self._segments(text, pieces, "\n")
        examples = []
        for example in open_rule.examples:
            example_text = " ".join([p.text for p in example])
            examples.append(Example(
                text=example_text, segments=self._segments(example_text, example, " "),
                span=self._span(example[0].line, example[0].column, example[-1]),
            ))
        last = pieces[-1] if pieces else _Piece("", item.line, item.column, None)
        self.rules.append(Rule(
            edition=self.edition, language=self.language, number=number, kind=rule_kind(number), title=title,
            text=text, segments=segments, examples=tuple(examples), notes=open_rule.notes,
            status="historical" if open_rule.historical else "current",
            span=Span(file=self.file, line=item.line, column=item.column, end_line=last.line,
                      end_column=last.column + len(last.text)),
        ))

    def _close_entry(self) -> None:
        if self.entry is None:
            return
        item, pieces = self.entry
        self.entry = None
        term = pieces[0].text
        body = pieces[1:]
        text = "\n".join([p.text for p in body])
        segments = self._segments(text, body, "\n")
        self.glossary.append(GlossaryEntry(
            term=term, text=text, segments=segments, span=self._span(item.line, item.column, pieces[-1])))

    def _segments(self, text: str, pieces: list[_Piece], joiner: str) -> tuple[Segment, ...]:
        """The text's segments: merged from its lines' own readings when they settle it (lines
        joined by line ends: no citation spans a line end), else parsed whole with the inline
        start (several lines joined by spaces, or the reference path)."""
        if not text:
            return ()
        if self.per_line and (joiner == "\n" or len(pieces) == 1):
            parts: list[Part] = []
            cited = False
            for i, piece in enumerate(pieces):
                if not piece.read:
                    break
                if i:
                    parts.append(joiner)
                if piece.parts is None:
                    parts.append(piece.text)
                else:
                    cited = True
                    parts.extend(piece.parts)
            else:
                return segments_of(parts, self._target_span) if cited else (Plain(text=text),)
        return self.inline(text, file=self.file, locate=_locator(pieces))

    def _target_span(self, target: Target) -> Span:
        return Span(file=self.file, line=target.line, column=target.column, end_line=target.end_line,
                    end_column=target.end_column)

    def _span(self, line: int, column: int, last: _Piece) -> Span:
        return Span(file=self.file, line=line, column=column, end_line=last.line,
                    end_column=last.column + len(last.text))

    def finish(self, encoding: str) -> Document:
        self._close_rule()
        self._close_entry()
        return Document(
            file=self.file,
            encoding=encoding,
            language=self.language,
            edition=self.edition,
            title=self.title,
            effective=self.effective,
            rules=tuple(self.rules),
            glossary=tuple(self.glossary),
            other_lines=tuple(self.other),
            unparsed=tuple(self.unparsed),
        )


def assemble(
    items: list[Item],
    *,
    file: str,
    language: str,
    edition: str,
    encoding: str,
    inline: InlineParser,
    per_line: bool = True,
) -> Document:
    """Place every line item; what cannot be placed goes to `Document.unparsed`.

    `inline` parses a joined text; `per_line=False` uses it for every text (the reference
    path) instead of the citations read with each line."""
    assembler = _Assembler(file=file, language=language, edition=edition, inline=inline, per_line=per_line)
    for item in items:
        assembler.feed(item)
    return assembler.finish(encoding)


__all__ = ["Item", "Part", "Target", "assemble", "segments_of"]
