"""Making the model's records by the thousand, as the parser and the graph do: straight into
their slots.

A frozen dataclass's `__init__` binds keyword arguments, then looks up and calls
`object.__setattr__` once per field; an English CR makes some 17,000 records, and that was
a fifth of its parse. These constructors take every field positionally, in declaration
order (no default applies), and call the slots' own setters, as unpickling does
(`judge.corpus.model._restore`). `tests/corpus/test_records.py` holds them to the
dataclasses' fields.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from judge.corpus.model import Example, GlossaryEntry, Line, Plain, Reference, Rule, Segment, Span

_new = object.__new__


def setters(cls: type, names: str) -> tuple[Callable[[Any, Any], None], ...]:
    """The slot setters of these fields of a slotted class."""
    return tuple(cls.__dict__[name].__set__ for name in names.split())


def _span() -> Callable[[str, int, int, int, int], Span]:
    s_file, s_line, s_column, s_end_line, s_end_column = setters(Span, "file line column end_line end_column")

    def span(file: str, line: int, column: int, end_line: int, end_column: int) -> Span:
        obj = _new(Span)
        s_file(obj, file)
        s_line(obj, line)
        s_column(obj, column)
        s_end_line(obj, end_line)
        s_end_column(obj, end_column)
        return obj

    return span


def _plain() -> Callable[[str], Plain]:
    (s_text,) = setters(Plain, "text")

    def plain(text: str) -> Plain:
        obj = _new(Plain)
        s_text(obj, text)
        return obj

    return plain


def _reference() -> Callable[[str, str | None, str | None, str, Span], Reference]:
    s_number, s_title, s_range_end, s_text, s_span = setters(Reference, "number title range_end text span")

    def reference(number: str, title: str | None, range_end: str | None, text: str, span: Span) -> Reference:
        obj = _new(Reference)
        s_number(obj, number)
        s_title(obj, title)
        s_range_end(obj, range_end)
        s_text(obj, text)
        s_span(obj, span)
        return obj

    return reference


def _example() -> Callable[[str, tuple[Segment, ...], Span], Example]:
    s_text, s_segments, s_span = setters(Example, "text segments span")

    def example(text: str, segments: tuple[Segment, ...], span: Span) -> Example:
        obj = _new(Example)
        s_text(obj, text)
        s_segments(obj, segments)
        s_span(obj, span)
        return obj

    return example


_RuleMaker = Callable[
    [str, str, str, Any, str | None, str, tuple[Segment, ...], tuple[Example, ...], tuple[str, ...], Any, Span],
    Rule,
]


def _rule() -> _RuleMaker:
    (s_edition, s_language, s_number, s_kind, s_title, s_text, s_segments, s_examples, s_notes, s_status,
     s_span) = setters(Rule, "edition language number kind title text segments examples notes status span")

    def rule(
        edition: str, language: str, number: str, kind: Any, title: str | None, text: str,
        segments: tuple[Segment, ...], examples: tuple[Example, ...], notes: tuple[str, ...], status: Any,
        span: Span,
    ) -> Rule:
        obj = _new(Rule)
        s_edition(obj, edition)
        s_language(obj, language)
        s_number(obj, number)
        s_kind(obj, kind)
        s_title(obj, title)
        s_text(obj, text)
        s_segments(obj, segments)
        s_examples(obj, examples)
        s_notes(obj, notes)
        s_status(obj, status)
        s_span(obj, span)
        return obj

    return rule


def _glossary_entry() -> Callable[[str, str, tuple[Segment, ...], Span], GlossaryEntry]:
    s_term, s_text, s_segments, s_span = setters(GlossaryEntry, "term text segments span")

    def glossary_entry(term: str, text: str, segments: tuple[Segment, ...], span: Span) -> GlossaryEntry:
        obj = _new(GlossaryEntry)
        s_term(obj, term)
        s_text(obj, text)
        s_segments(obj, segments)
        s_span(obj, span)
        return obj

    return glossary_entry


def _line() -> Callable[[str, str, int], Line]:
    s_kind, s_text, s_line = setters(Line, "kind text line")

    def line(kind: str, text: str, number: int) -> Line:
        obj = _new(Line)
        s_kind(obj, kind)
        s_text(obj, text)
        s_line(obj, number)
        return obj

    return line


span = _span()
plain = _plain()
reference = _reference()
example = _example()
rule = _rule()
glossary_entry = _glossary_entry()
line = _line()
