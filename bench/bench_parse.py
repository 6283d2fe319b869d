"""Benchmark: parse + graph of the 2022 CR against a regex baseline, and scaling over 10 copies.

Run by hand: `python bench/bench_parse.py [--cr PATH] [--rounds N]` (`$JUDGE_SHARED`: the
shared folder, default `../shared`). Everything is measured in
one run, interleaved round by round (the machine is noisy), best of the rounds. Targets
(issue 14): parse + graph <= 5x the regex baseline; 10 copies <= 11x one copy. Cold starts
of whole processes are `bench/bench_cold.py`.

The baseline (`regex_split`) is the least a parser must do: cut the file into rules and their
examples and build the model's `Rule` and `Example` records, with one regex over the lines and
no references, positions, sections, glossary or graph.
"""

from __future__ import annotations

import argparse
import os
import re
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from judge.corpus.graph import RuleGraph
from judge.corpus.model import Edition, Example, Plain, Rule, Text, rule_kind
from judge.corpus.parser import parse_text
from judge.corpus.textio import read_text

SHARED = Path(os.environ.get("JUDGE_SHARED", Path(__file__).resolve().parents[2] / "shared"))
DEFAULT_CR = SHARED / "corpora" / "en" / "CR-2022-11-18.txt"
_NUMBERED = re.compile(r"^(\d{3})\.(\d+)", re.MULTILINE)
_LINE = re.compile(r"^(?:(\d{3}\.(?:\d+[a-z]?\.?)?)[ \t\u00a0]+|(Examples?:)[ \t\u00a0]*)?(.*)$", re.MULTILINE)


def regex_split(text: str) -> tuple[Rule, ...]:
    """The baseline: rules and their examples by one regex over the lines."""
    rules: list[tuple[str, list[str], list[list[str]]]] = []
    current: tuple[str, list[str], list[list[str]]] | None = None
    for m in _LINE.finditer(text):
        number, example, rest = m.group(1), m.group(2), m.group(3).strip()
        if number:
            current = (number.rstrip("."), [rest], [])
            rules.append(current)
        elif current is None or not rest:
            continue
        elif example:
            current[2].append([rest])
        else:
            (current[2][-1] if current[2] else current[1]).append(rest)
    return tuple(
        Rule(edition="bench", language="en", number=n, kind=rule_kind(n), title=None, text="\n".join(t),
             segments=(Plain(text="\n".join(t)),),
             examples=tuple(Example(text=" ".join(e), segments=(Plain(text=" ".join(e)),)) for e in ex))
        for n, t, ex in rules
    )


def parse_and_graph(text: str, name: str) -> RuleGraph:
    doc = parse_text(text, file=name, language="en", edition="bench")
    edition = Edition(id="bench", label="bench", released=None, description="",
                      texts=(Text(language="en", files=()),))
    return RuleGraph((edition,), (doc,))


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def copies(text: str, count: int) -> str:
    """Preamble once, the numbered body `count` times (renumbered), the rest once."""
    lines = text.split("\n")
    body_start = next(i for i, line in enumerate(lines) if line.startswith("100.1."))
    glossary = max(i for i, line in enumerate(lines) if line.strip() == "Glossary")
    head, body, tail = lines[:body_start], "\n".join(lines[body_start:glossary]), lines[glossary:]
    parts = ["\n".join(head)]
    for k in range(count):
        parts.append(_NUMBERED.sub(lambda m, k=k: f"{m.group(1)}.{k * 100000 + int(m.group(2))}", body))
    parts.append("\n".join(tail))
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cr", type=Path, default=DEFAULT_CR)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    text = read_text(args.cr).text
    parse_and_graph(text, "warm-up")  # grammar compiled once, as in a long-lived process
    regex_split(text)

    base, full = [], []
    for _ in range(args.rounds):
        base.append(timed(lambda: regex_split(text)))
        full.append(timed(lambda: parse_and_graph(text, args.cr.name)))
    graph = parse_and_graph(text, args.cr.name)
    b, f = min(base), min(full)
    print(f"regex (règles + exemples) : {b * 1000:.1f} ms ({len(regex_split(text))} règles)")
    print(f"parse + graphe {args.cr.name} : {f * 1000:.1f} ms ({len(graph.all_rules())} règles)")
    print(f"rapport parse + graphe / regex : {f / b:.1f}x [cible <= 5x]")

    tracemalloc.start()
    parse_and_graph(text, args.cr.name)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"mémoire de pointe (tracemalloc) : {peak / 2**20:.1f} Mio")

    ten, single = copies(text, 10), copies(text, 1)
    t1 = min(timed(lambda: parse_and_graph(single, "x1")) for _ in range(3))
    t10 = min(timed(lambda: parse_and_graph(ten, "x10")) for _ in range(3))
    print(f"échelle : 1 copie {t1 * 1000:.0f} ms, 10 copies {t10 * 1000:.0f} ms, rapport {t10 / t1:.1f}x [cible <= 11x]")


if __name__ == "__main__":
    main()
