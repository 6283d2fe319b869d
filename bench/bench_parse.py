"""Benchmark: parse + graph of the 2022 CR against a regex baseline, and scaling over 10 copies.

Run by hand: `python bench/bench_parse.py [--cr PATH] [--rounds N] [--instructions]`
(`$JUDGE_SHARED`: the shared folder, default `../shared`). Everything is measured in one run,
interleaved round by round (the machine is noisy): medians and best of the rounds, wall clock
and CPU time. `--instructions` also counts the instructions of one call of each under
`valgrind --tool=callgrind` (independent of the load of a shared machine). Targets (issue 14):
parse + graph <= 5x the regex baseline; 10 copies <= 11x one copy. Cold starts of whole
processes are `bench/bench_cold.py`.

The baseline (`regex_split`) is the least a parser must do: cut the file into rules and their
examples and build the model's `Rule` and `Example` records, with one regex over the lines and
no references, positions, sections, glossary or graph.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from judge.corpus.documents import Edition, Example, Plain, Rule, Text, rule_kind
from judge.corpus.graph import RuleGraph
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


def cpu_timed(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def instructions(cr: Path, what: str) -> int:
    """Instructions of one `what` call (after a warm-up), counted by callgrind: the script runs
    itself with `--measure`, which makes that call through `eval`, and callgrind collects only
    inside the interpreter's `eval` builtin (nothing else in the measured code calls it). The
    imports call `eval` too (`collections.namedtuple` does, some 6 M instructions in all): the
    count of a run that measures nothing is taken off."""
    return _collected(cr, what) - _collected(cr, "nothing")


def _collected(cr: Path, what: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", "--toggle-collect=builtin_eval*",
             sys.executable, __file__, "--cr", str(cr), "--measure", what],
            capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind n'a rien compté :\n{done.stderr}")
    return int(found.group(1))


def measure(text: str, name: str, what: str) -> None:
    """The call that `instructions` counts (warm-up first, as in a long-lived process; then a
    full collection, so that the garbage collector's own work inside the call does not depend
    on what ran before it)."""
    work = {
        "regex": lambda: regex_split(text), "parse": lambda: parse_and_graph(text, name), "nothing": lambda: None,
    }[what]
    work()
    gc.collect()
    eval("work()", {"work": work})  # callgrind counts from here


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
    parser.add_argument("--instructions", action="store_true", help="compter aussi sous callgrind")
    parser.add_argument("--measure", choices=("regex", "parse", "nothing"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    text = read_text(args.cr).text
    if args.measure:
        measure(text, args.cr.name, args.measure)
        return
    parse_and_graph(text, "warm-up")  # grammar compiled once, as in a long-lived process
    regex_split(text)

    base, full, base_cpu, full_cpu = [], [], [], []
    for _ in range(args.rounds):
        base.append(timed(lambda: regex_split(text)))
        full.append(timed(lambda: parse_and_graph(text, args.cr.name)))
        base_cpu.append(cpu_timed(lambda: regex_split(text)))
        full_cpu.append(cpu_timed(lambda: parse_and_graph(text, args.cr.name)))
    graph = parse_and_graph(text, args.cr.name)
    print(f"{len(regex_split(text))} règles (regex), {len(graph.all_rules())} règles (parse + graphe)")
    for label, b_times, f_times in (("réel", base, full), ("cpu", base_cpu, full_cpu)):
        b, f = statistics.median(b_times), statistics.median(f_times)
        print(f"{label:>4} médianes : regex {b * 1000:.1f} ms, parse + graphe {f * 1000:.1f} ms, "
              f"rapport {f / b:.2f}x (meilleurs : {min(f_times) / min(b_times):.2f}x) [cible <= 5x]")
    if args.instructions:
        b_ins, f_ins = instructions(args.cr, "regex"), instructions(args.cr, "parse")
        print(f"instructions (callgrind) : regex {b_ins / 1e6:.0f} M, parse + graphe {f_ins / 1e6:.0f} M, "
              f"rapport {f_ins / b_ins:.2f}x [cible <= 5x]")

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
