"""Every English Comprehensive Rules file at hand through the installed `judge parse`, against
a plain count written here: the three of `$JUDGE_SHARED/corpora/en` (skipped when absent) and
any others named in `$JUDGE_CR_TEXTS` (files or folders of `*.txt`, separated by `os.pathsep`:
`JUDGE_CR_TEXTS=~/cr-archive pytest tests/cli/test_parse_every_cr.py`). The count decodes the
bytes by itself (BOM, else UTF-16 told by its NUL bytes, else UTF-8, else cp1252), then counts
the lines of the rules body (after the contents' `Credits`, or in 1999 after the contents' first
chapter line seen again; before the `Glossary` heading; the contents' dotted lines left out) that open with a rule number, and those that open with
`Example:` in any case (`EXAMPLE:` in 1999), white space before either allowed."""

from __future__ import annotations

import codecs
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EN_DIR

JUDGE = str(Path(sys.executable).with_name("judge"))
NUMBERED = re.compile(r"^\d{3}\.(?:\d+[a-z]?)?\.?(?:[ \t\u00a0]|$)")
EXAMPLE = re.compile(r"^examples?[ \t\u00a0]*:", re.IGNORECASE)
CONTENTS = re.compile(r"\.{4,}[ \t]*\d*$")  # `100. General........ 3`: an entry of the contents (1999)


def _texts() -> list[Path]:
    found = sorted(EN_DIR.glob("*.txt")) if EN_DIR.is_dir() else []
    for entry in filter(None, os.environ.get("JUDGE_CR_TEXTS", "").split(os.pathsep)):
        path = Path(entry).expanduser()
        found.extend(sorted(path.glob("*.txt")) if path.is_dir() else [path])
    return found


def _decode(data: bytes) -> str:
    for bom, name in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                      (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(name)
    if b"\x00" in data:
        return data.decode("utf-16-le" if data[1::2].count(0) > data[0::2].count(0) else "utf-16-be")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252")


def _count(path: Path) -> tuple[int, int]:
    """(rule lines, example lines) of the rules body."""
    lines = [line.strip(" \t\u00a0") for line in re.split(r"\r\n|\r|\n", _decode(path.read_bytes()))]
    end = max((i for i, line in enumerate(lines) if line == "Glossary"), default=len(lines))
    credits = [i for i, line in enumerate(lines[:end]) if line == "Credits"]
    start = credits[0] + 1 if credits else 0
    if not credits and "Contents" in lines[:end]:  # 1999: the contents end where their first chapter comes again
        at, first = next((i, CONTENTS.sub("", line)) for i, line in enumerate(lines[:end])
                         if i > lines.index("Contents") and re.match(r"\d{1,2}\. \S", line))
        start = lines.index(first, at + 1)
    body = [line for line in lines[start:end] if not CONTENTS.search(line)]
    return sum(1 for line in body if NUMBERED.match(line)), sum(1 for line in body if EXAMPLE.match(line))


@pytest.mark.shared
@pytest.mark.parametrize("path", _texts(), ids=lambda path: path.name)
def test_judge_parse_counts_every_rule_and_example(path: Path) -> None:
    done = subprocess.run([JUDGE, "parse", str(path), "--lang", "en", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    parsed = json.loads(done.stdout)
    assert (parsed["rules"], parsed["examples"]) == _count(path)
    assert parsed["unparsed"] == []


def test_the_count_here_reads_what_judge_reads(tmp_path: Path) -> None:
    """The plain count on a made-up text in every encoding judge reads (UTF-16 without BOM in
    both byte orders among them): 3 rule lines, 2 examples (one in capitals, as in 1999)."""
    text = ("Contents\n\n1. Game\n\nCredits\n\n1. Game\n\n100. General\n\n100.1. A rule’s text.\n\nExample: one.\n\n"
            "100.1a Under it.\n\nEXAMPLE: two.\n\nGlossary\n\nTerm\nExample: not a rule's.\n")
    for encoding in ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp1252"):
        path = tmp_path / f"{encoding}.txt"
        path.write_bytes(text.replace("\n", "\r\n").encode(encoding))
        assert _count(path) == (3, 2), encoding
        done = subprocess.run([JUDGE, "parse", str(path), "--lang", "en", "--json"],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        parsed = json.loads(done.stdout)
        assert (parsed["rules"], parsed["examples"]) == (3, 2), encoding


def test_a_utf16_copy_that_lost_a_byte_is_said_so_where(tmp_path: Path) -> None:
    """BOM-less UTF-16 with one byte dropped (a copy through a tool that read it as bytes of
    text, as one archived CR of 2016 was): a French error naming where, not « binaire »."""
    lines = "".join(f"100.{n}. Rule number {n} of the text.\r\n\r\n" for n in range(1, 200))
    data = lines.encode("utf-16-le")
    cut = data.index("100.150.".encode("utf-16-le")) - 1  # the high byte of the character before
    path = tmp_path / "damaged.txt"
    path.write_bytes(data[:cut] + data[cut + 1:])
    done = subprocess.run([JUDGE, "parse", str(path), "--lang", "en"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 2 and done.stdout == ""
    said = re.search(r"UTF-16 sans BOM abîmé : un octet perdu avant l'octet (\d+) ", done.stderr)
    assert said and cut < int(said.group(1)) <= cut + 8, done.stderr  # the first shifted NUL
    assert "Traceback" not in done.stderr
