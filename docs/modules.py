"""Writes the section « Les modules » of docs/architecture.md from the tree: every module of
`judge/`, by subpackage, with the first sentence of its docstring (run by hand after adding,
removing or re-describing a module: `python docs/modules.py`; tests/test_architecture.py checks
that every module is named)."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- modules: begin (docs/modules.py) -->"
END = "<!-- modules: end -->"


def first_sentence(path: Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    paragraph = " ".join(doc.split("\n\n", 1)[0].split())
    found = re.match(r"(.+?[.!?])(?:\s|$)", paragraph)
    sentence = found.group(1) if found else paragraph
    return (sentence if len(sentence) <= 240 else sentence[:239] + "…") or "(sans docstring)"


def section() -> str:
    lines = [BEGIN, "", "| module | ce qu'il possède (première phrase de sa docstring) |", "|---|---|"]
    for path in sorted((ROOT / "judge").rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        name = path.relative_to(ROOT).as_posix()
        lines.append(f"| `{name}` | {first_sentence(path).replace('|', '/')} |")
    return "\n".join([*lines, "", END])


def main() -> int:
    text = DOC.read_text(encoding="utf-8")
    start, stop = text.find(BEGIN), text.find(END)
    if start < 0 or stop < 0:
        sys.stderr.write(f"marqueurs absents de {DOC}\n")
        return 1
    DOC.write_text(text[:start] + section() + text[stop + len(END):], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
