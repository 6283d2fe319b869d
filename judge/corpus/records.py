"""Making the model's records by the thousand, as the parser and the graph do.

A frozen dataclass's `__init__` binds keyword arguments, then looks up and calls
`object.__setattr__` once per field; an English CR makes some 17,000 records, and that was
a fifth of its parse. Here a record is filled in as an instance of a plain class with the
record's own slots (the same memory layout, plain attribute stores), then given the record's
class: Python allows that `__class__` assignment between classes of the same layout, and
checks it (`TypeError` otherwise). The result is a record like any other (same type,
equality, hash, pickling, frozen from then on). These constructors take every field
positionally, in declaration order (no default applies); `tests/corpus/test_records.py`
holds them to the dataclasses' fields.
"""

from __future__ import annotations

from typing import Any

from judge.corpus.model import Example, GlossaryEntry, Line, Plain, Reference, Rule, Segment, Span


def draft(cls: type) -> Any:
    """A mutable class with the slots of `cls` (a slotted class), whose instances can become
    `cls` instances by `__class__` assignment."""
    slots: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]
    return type(f"_{cls.__name__}Draft", (), {"__slots__": slots})


_Span, _Plain, _Reference, _Example = draft(Span), draft(Plain), draft(Reference), draft(Example)
_Rule, _GlossaryEntry, _Line = draft(Rule), draft(GlossaryEntry), draft(Line)


def span(file: str, line: int, column: int, end_line: int, end_column: int) -> Span:
    obj = _Span()
    obj.file = file
    obj.line = line
    obj.column = column
    obj.end_line = end_line
    obj.end_column = end_column
    obj.__class__ = Span
    return obj  # type: ignore[no-any-return]


def plain(text: str) -> Plain:
    obj = _Plain()
    obj.text = text
    obj.__class__ = Plain
    return obj  # type: ignore[no-any-return]


def reference(number: str, title: str | None, range_end: str | None, text: str, span: Span) -> Reference:
    obj = _Reference()
    obj.number = number
    obj.title = title
    obj.range_end = range_end
    obj.text = text
    obj.span = span
    obj.__class__ = Reference
    return obj  # type: ignore[no-any-return]


def example(text: str, segments: tuple[Segment, ...], span: Span) -> Example:
    obj = _Example()
    obj.text = text
    obj.segments = segments
    obj.span = span
    obj.__class__ = Example
    return obj  # type: ignore[no-any-return]


def rule(
    edition: str, language: str, number: str, kind: Any, title: str | None, text: str,
    segments: tuple[Segment, ...], examples: tuple[Example, ...], notes: tuple[str, ...], status: Any,
    span: Span,
) -> Rule:
    obj = _Rule()
    obj.edition = edition
    obj.language = language
    obj.number = number
    obj.kind = kind
    obj.title = title
    obj.text = text
    obj.segments = segments
    obj.examples = examples
    obj.notes = notes
    obj.status = status
    obj.span = span
    obj.__class__ = Rule
    return obj  # type: ignore[no-any-return]


def glossary_entry(term: str, text: str, segments: tuple[Segment, ...], span: Span) -> GlossaryEntry:
    obj = _GlossaryEntry()
    obj.term = term
    obj.text = text
    obj.segments = segments
    obj.span = span
    obj.__class__ = GlossaryEntry
    return obj  # type: ignore[no-any-return]


def line(kind: str, text: str, number: int) -> Line:
    obj = _Line()
    obj.kind = kind
    obj.text = text
    obj.line = number
    obj.__class__ = Line
    return obj  # type: ignore[no-any-return]
