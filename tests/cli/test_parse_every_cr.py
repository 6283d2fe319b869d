"""Every English Comprehensive Rules file at hand through the installed `judge parse`, against
a plain count written here: the three of `$JUDGE_SHARED/corpora/en` (skipped when absent) and
any others named in `$JUDGE_CR_TEXTS` (files or folders of `*.txt`, separated by `os.pathsep`:
`JUDGE_CR_TEXTS=~/cr-archive pytest tests/cli/test_parse_every_cr.py`). The count decodes the
bytes by itself (BOM, else UTF-16 told by its NUL bytes, else UTF-8, else cp1252), then counts
the lines of the rules body (after the contents' `Credits`, before the `Glossary` heading) that
open with a rule number, and those that open with `Example:` in any case (`EXAMPLE:` in 1999)."""

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
    body = lines[credits[0] + 1 if credits else 0:end]
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
    text = ("Contents\n1. Game\nCredits\n100. General\n100.1. A rule’s text.\nExample: one.\n"
            "100.1a Under it.\nEXAMPLE: two.\nGlossary\nExample: not a rule's.\n")
    for encoding in ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp1252"):
        path = tmp_path / f"{encoding}.txt"
        path.write_bytes(text.replace("\n", "\r\n").encode(encoding))
        assert _count(path) == (3, 2), encoding
        done = subprocess.run([JUDGE, "parse", str(path), "--lang", "en", "--json"],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        parsed = json.loads(done.stdout)
        assert (parsed["rules"], parsed["examples"]) == (3, 2), encoding
