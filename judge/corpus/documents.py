"""The rule model: frozen records produced by the parser and read by everything else.

Owns only data shapes (spans, references, rules, documents, editions). Parsing lives in
`judge.corpus.parser`, cross-referencing in `judge.corpus.graph`. Source positions never take part in equality.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from judge.corpus.numbers import parent_number

Status = Literal["current", "historical"]
RuleKind = Literal["section", "rule", "subrule"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Span:
    """Where something sits in a source file (1-based line and column)."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Reference:
    """A citation of another rule inside a text, with its quoted title if any."""

    number: str
    title: str | None = None
    range_end: str | None = None
    text: str = ""
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Plain:
    """A run of text with no reference in it."""

    text: str


Segment = Plain | Reference


@dataclass(frozen=True, slots=True, kw_only=True)
class Example:
    """An `Exemple :` / `Example:` paragraph attached to the rule above it."""

    text: str
    segments: tuple[Segment, ...]
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    """One numbered rule or section heading of one edition, in one language."""

    edition: str
    language: str
    number: str
    kind: RuleKind
    title: str | None
    text: str
    segments: tuple[Segment, ...]
    examples: tuple[Example, ...] = ()
    notes: tuple[str, ...] = ()
    status: Status = "current"
    span: Span | None = field(default=None, compare=False, repr=False)

    @property
    def references(self) -> tuple[Reference, ...]:
        """Every reference of the text and the examples, in reading order."""
        refs = [s for s in self.segments if isinstance(s, Reference)]
        for example in self.examples:
            refs.extend(s for s in example.segments if isinstance(s, Reference))
        return tuple(refs)

    @property
    def parent_number(self) -> str | None:
        return parent_number(self.number)

    @property
    def heading(self) -> str | None:
        """The rule's name: its title, or its text when that is only a name (English
        `212.6. Land`, `502.25. Fear`: a short line without a final full stop)."""
        if self.title:
            return self.title
        text = self.text.strip()
        if text and len(text) <= 40 and "\n" not in text and not text.endswith((".", ":", ";")):
            return text
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class GlossaryEntry:
    """A glossary term and its definition (English CR files)."""

    term: str
    text: str
    segments: tuple[Segment, ...]
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Line:
    """A source line the parser kept outside rules: title, heading, intro, contents, credits."""

    kind: str
    text: str
    line: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Document:
    """One parsed source file."""

    file: str
    encoding: str
    language: str
    edition: str
    title: str | None
    effective: str | None
    rules: tuple[Rule, ...]
    glossary: tuple[GlossaryEntry, ...]
    other_lines: tuple[Line, ...]
    unparsed: tuple[Line, ...]

    @property
    def examples(self) -> int:
        return sum(len(rule.examples) for rule in self.rules)

    @property
    def reference_count(self) -> int:
        count = sum(len(rule.references) for rule in self.rules)
        for entry in self.glossary:
            count += sum(1 for s in entry.segments if isinstance(s, Reference))
        return count


@dataclass(frozen=True, slots=True, kw_only=True)
class Text:
    """One language of an edition: an ordered list of source files."""

    language: str
    files: tuple[str, ...]
    origin: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Edition:
    """A release of the rules, named by id (`2004`, `2010`)."""

    id: str
    label: str
    released: str | None
    description: str
    texts: tuple[Text, ...]
    removed: tuple[str, ...] = ()
    removed_by: str = ""  # the rules change that removed them (French, for display)
    # The game model the checks follow: a model id (`rules/games/<id>.toml`) or a file path.
    game: str | None = None
    # Read from a user's configuration file (not the embedded manifest): never the default
    # edition unless it says `default = true`.
    from_config: bool = False
    default: bool = False

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(text.language for text in self.texts)


# Every record of a parsed document and of an edition: what the knowledge base's JSON of the
# corpus may name (`judge.cache.from_json`).
RECORDS = (Span, Reference, Plain, Example, Rule, GlossaryEntry, Line, Document, Text, Edition)


def rule_kind(number: str) -> RuleKind:
    if "." not in number:
        return "section"
    return "subrule" if number[-1].isalpha() else "rule"


def plain_text(segments: tuple[Segment, ...]) -> str:
    return "".join(s.text for s in segments)
