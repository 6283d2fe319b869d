"""The fast parse (lark-cython, callbacks inside the LALR parse, digit pre-filter) against the
reference path (pure-Python Lark, a full tree with positions, every text parsed inline), and
the grammar's faster terminals against their plain forms."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import EN_DIR
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark

from judge.corpus.documents import Document, Reference, Span
from judge.corpus.parser import GRAMMAR_PATH, parse_text
from judge.corpus.textio import read_text
from judge.errors import RuleSyntaxError
from judge.resources import rules_dir

SHIPPED = sorted(rules_dir().glob("*.txt"))
SHARED_TEXTS = sorted(EN_DIR.glob("*.txt")) if EN_DIR.is_dir() else []


def _spans(doc: Document) -> list[tuple[str, Span | None]]:
    """Every source position of a document (equality of records ignores them)."""
    out: list[tuple[str, Span | None]] = []
    for rule in doc.rules:
        out.append((rule.number, rule.span))
        out.extend((ref.number, ref.span) for ref in rule.references)
        out.extend((rule.number, example.span) for example in rule.examples)
    for entry in doc.glossary:
        out.append((entry.term, entry.span))
        out.extend((s.number, s.span) for s in entry.segments if isinstance(s, Reference))
    return out


def _both(path: Path) -> tuple[Document, Document]:
    text = read_text(path).text
    language = "fr" if path.name[0].isdigit() else "en"
    fast = parse_text(text, file=path.name, language=language, edition="x")
    slow = parse_text(text, file=path.name, language=language, edition="x", reference=True)
    return fast, slow


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_fast_parse_equals_reference_parse_shipped(path: Path) -> None:
    fast, slow = _both(path)
    assert fast.rules and fast == slow
    assert _spans(fast) == _spans(slow)


@pytest.mark.shared
@pytest.mark.parametrize("name", ["CR-2004-06-01.txt", "CR-2010-07-16.txt", "CR-2022-11-18.txt"])
def test_fast_parse_equals_reference_parse_shared(name: str) -> None:
    path = EN_DIR / name
    if not path.is_file():
        pytest.skip(f"texte de référence absent : {path}")
    fast, slow = _both(path)
    assert fast.rules and fast == slow
    assert _spans(fast) == _spans(slow)


@pytest.mark.parametrize("path", [*SHIPPED, *SHARED_TEXTS], ids=lambda p: p.name)
def test_rule_lines_are_where_a_plain_split_finds_them(path: Path) -> None:
    """Line numbers (blank lines are one `_NL` token with the line end before them) against
    `str.split`: each rule starts on a line that begins with its number."""
    text = read_text(path).text
    lines = text.split("\n")
    fast, _ = _both(path)
    for rule in fast.rules:
        assert rule.span is not None
        line = lines[rule.span.line - 1].lstrip(" \t\u00a0")
        assert re.match(re.escape(rule.number) + r"\.?(?:[ \t\u00a0]|$)", line), (rule.number, rule.span)
        # the column is the number's own
        assert lines[rule.span.line - 1][rule.span.column - 1:].startswith(rule.number)
    # every line that starts with a rule number outside the contents is a rule
    numbered = {
        i + 1 for i, line in enumerate(lines) if re.match(r"\d{3}\.\d+[a-z]?\.?(?:[ \t\u00a0]|$)", line)
    }
    found = {rule.span.line for rule in fast.rules if rule.span is not None}
    assert numbered <= found | {line.line for line in fast.other_lines if line.kind == "contents"}


def _terminal(name: str) -> str:
    grammar = Lark.open(str(GRAMMAR_PATH), parser="lalr", lexer="contextual", start=["document", "inline"])
    pattern: Any = grammar.get_terminal(name).pattern
    return str(pattern.to_regexp())


PLAIN = re.compile(_terminal("PLAIN"))
# The plain form: any character of a line where no citation starts.
SLOW_PLAIN = re.compile(r"(?:(?!" + _terminal("CITE") + r")[^\n\x00-\x08\x0b\x0d-\x1f\x7f])+")
_PIECES = st.sampled_from(
    ["voir ", "Voir la règle ", "see rule ", "cf. ", "règles ", "Rules ", "ſee ", "rule", "300", "306.2a",
     " ", "\u00a0", "\n", "\x0c", "\x01", "s", "v", "c", "r", "S", "a", "é", "1", ", et ", "(", "x300", "«", "»"]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES | st.text(max_size=3), max_size=30).map("".join))
def test_plain_terminal_matches_what_its_plain_form_matches(text: str) -> None:
    for start in range(len(text) + 1):
        fast, slow = PLAIN.match(text, start), SLOW_PLAIN.match(text, start)
        assert (fast and fast.end()) == (slow and slow.end())


TEXT = re.compile(_terminal("TEXT"))
_CONTROL = re.compile(r"[\n\x00-\x08\x0b\x0d-\x1f\x7f]")


def test_text_terminal_refuses_exactly_the_non_ascii_digits_among_single_characters() -> None:
    """Every code point: a lone character is a `TEXT` unless it is a control character or a
    digit that `\\d` (hence `NUMBER`) knows beyond 0-9."""
    wrong = [
        hex(code) for code in range(0x110000)
        if (TEXT.match(chr(code) + "\n") is None)
        != bool(_CONTROL.match(chr(code)) or (re.match(r"\d", chr(code)) and not "0" <= chr(code) <= "9"))
    ]
    assert wrong == []


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES | st.sampled_from(["12", "1", "١", "٢٣", "99 "]) | st.text(max_size=3), max_size=30)
       .map("".join))
def test_text_terminal_matches_a_line_rest_only_where_no_citation_can_start(text: str) -> None:
    """`TEXT` takes the rest of a line (and its end) only when it holds no three digits in a
    row, and then `PLAIN` takes the same rest: no citation is lost by the cheap scan."""
    line = text.split("\n")[0] + "\n"
    for start in range(len(line) - 1):
        fast = TEXT.match(line, start)
        if fast is None:  # three digits, a control character or a digit beyond 0-9 follow
            rest = line[start:-1]
            assert re.search(r"\d{3}", rest) or _CONTROL.search(rest) or re.search(r"(?![0-9])\d", rest)
            continue
        assert not re.search(r"\d{3}", fast.group())
        plain = PLAIN.match(line, start)
        assert plain is not None and plain.end() == fast.end() - 1 == len(line) - 1


_LINE_PIECES = st.sampled_from([
    "300. Titre", "300.1. ", "306.2a ", "100.1", "Exemple :", "Example: ", "voir règle 306", "See rule 419.6f",
    ", \"Brawl.\"", " « Terrains. »", "rules 306-311", " et 502.15", " and rule 100.2", "Glossary", "Contents",
    "Credits", "La règle suivante a disparue dans un changement de règles :", "These rules are effective as of",
    "\n", "\n\n", " ", "\t", "\u00a0", "\x0c", "ſee rule 300", "a", "é", "12", "999", "١٢٣", "“", "”",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINE_PIECES | st.text(alphabet="ab 1.\n", max_size=4), max_size=40).map("".join))
def test_fast_parse_equals_reference_parse_on_random_documents(text: str) -> None:
    """Citations read line by line (and examples over several lines parsed whole) give what
    parsing every joined text whole gives, on any document; errors alike."""
    outcomes = []
    for reference in (False, True):
        try:
            doc = parse_text(text, file="x.txt", reference=reference)
        except RuleSyntaxError as error:
            outcomes.append(str(error))
        else:
            outcomes.append((doc, _spans(doc)))
    assert outcomes[0] == outcomes[1]
