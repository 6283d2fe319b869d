"""Hypothesis fuzz of the grammar: random lines, control characters, 100 KB lines, every
encoding. Every input parses or is refused with a French `JudgeError`; the CLI exits 0 or 2,
never with a traceback."""

from __future__ import annotations

import codecs
import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.cli import main
from judge.corpus.documents import plain_text
from judge.corpus.parser import parse_bytes
from judge.errors import JudgeError

ENCODINGS = ("utf-8", "utf-8-sig", "utf-16-le", "utf-16-be", "utf-16", "cp1252")
BOMS = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}
PIECES = st.sampled_from([
    "300.", "301.1.", "306.2a", "505.1a ", "100.1 ", "3. ", "Exemple :", "Example:", "voir règle 306",
    "(See rule 419.6f, \"Brawl.\")", "rules 306-311", " et 502.15", "Glossary", "Contents", "Sommaire",
    "Credits", "La règle suivante a disparue dans un changement de règles :", "These rules are effective as of",
    "\n", "\r\n", "\r", "\t", "\u00a0", "\x0c", "\x00", "\x01", "\x1b", "\x7f", "\ufeff", "«", "»", "“", "”",
    "é", "ſ", "\u2028", "🂡", " ", "a", "0", "999",
])
LINES = st.lists(PIECES | st.text(max_size=5), max_size=40).map("".join)
BIG = st.tuples(st.sampled_from(["voir règle 300 ", "x" * 10, "306.2a ", "é\u00a0"]),
                st.integers(min_value=100_000 // 15, max_value=100_000 // 9)).map(lambda t: t[0] * t[1])


def _french(error: JudgeError) -> None:
    message = str(error)
    assert message and "Traceback" not in message
    for english in ("Unexpected", "Expected", "object has no", "invalid literal", "codec can't"):
        assert english not in message, message


def _parse(data: bytes) -> None:
    try:
        doc = parse_bytes(data, file="fuzz.txt")
    except JudgeError as error:
        _french(error)
        return
    for rule in doc.rules:
        assert plain_text(rule.segments) == rule.text


def _encode(text: str, encoding: str, bom: bool) -> bytes:
    try:
        data = text.encode(encoding, errors="strict")
    except UnicodeEncodeError:
        data = text.encode(encoding, errors="replace")
    return BOMS.get(encoding, b"") + data if bom else data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES, st.sampled_from(ENCODINGS), st.booleans())
def test_random_lines_in_every_encoding_parse_or_are_refused_in_french(
    text: str, encoding: str, bom: bool
) -> None:
    _parse(_encode(text, encoding, bom))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_parse_or_are_refused_in_french(data: bytes) -> None:
    _parse(data)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(BIG, st.sampled_from(["300.1. ", "", "Exemple : "]), st.sampled_from(ENCODINGS))
def test_100_kb_lines_parse(line: str, head: str, encoding: str) -> None:
    _parse(_encode(f"300. Titre\n\n{head}{line}\n", encoding, bom=False))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(LINES, st.sampled_from(ENCODINGS))
def test_cli_parse_exits_0_or_2_with_one_french_line(tmp_path: Path, text: str, encoding: str) -> None:
    path = tmp_path / "fuzz.txt"
    path.write_bytes(_encode(text, encoding, bom=False))
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["parse", str(path), "--json"])
    assert code in (0, 2)
    if code == 2:
        assert err.getvalue().startswith("judge : ") and "Traceback" not in err.getvalue()
    else:
        assert err.getvalue() == "" and '"rules"' in out.getvalue()
