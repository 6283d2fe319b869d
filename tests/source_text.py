"""Facts read straight from the source texts in rules/, independently of the parser.

Tests compare the parser's and the graph's output with these, so that no expected count is
copied from the tool's own output. A "numbered line" is a line that starts with a rule
number (`305.4.`, `212.6a`, `301.`); in an English CR, only the lines of the rules body
count (between the table of contents, which ends with its `Credits` entry, and the
`Glossary` heading).
"""

from __future__ import annotations

import re
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "rules"
NUMBERED = re.compile(r"^(\d{3}\.(?:\d+[a-z]?)?)\.?(?=[ \t\u00a0]|$)")
EXAMPLE = re.compile(r"^(?:Exemples?|Examples?)[ \t]*:")


def body(name: str) -> list[tuple[int, str]]:
    """(1-based line number, line) of the rules body of `rules/<name>`."""
    lines = (RULES / name).read_text(encoding="utf-8").split("\n")
    end = max((i for i, line in enumerate(lines) if line.strip() == "Glossary"), default=len(lines))
    credits = [i for i, line in enumerate(lines[:end]) if line.strip() == "Credits"]
    start = credits[0] + 1 if credits else 0
    return [(i + 1, lines[i]) for i in range(start, end)]


def numbered(name: str) -> list[tuple[int, str]]:
    """(line, rule number) of every numbered line of the body, in order."""
    out = []
    for line_no, line in body(name):
        match = NUMBERED.match(line)
        if match:
            out.append((line_no, match.group(1).rstrip(".")))
    return out


def numbers(name: str) -> set[str]:
    return {number for _, number in numbered(name)}


def examples(name: str) -> int:
    return sum(1 for _, line in body(name) if EXAMPLE.match(line))


def line_of(name: str, number: str) -> str:
    """The source line that opens rule `number` (the first one if the text repeats it)."""
    found = next(line_no for line_no, n in numbered(name) if n == number)
    return (RULES / name).read_text(encoding="utf-8").split("\n")[found - 1]


EN_2004 = "CR-2004-06-01.txt"
EN_2010 = "CR-2010-07-16.txt"
FR_2004 = ("004_17a8758e9cd78ccf.txt", "000_57306400b9ed3ddd.txt")
FR_2010 = ("003_bc0c71f8460cf034.txt",)
