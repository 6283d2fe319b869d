"""Benchmark the 2004 -> 2010 concordance: computed by the matcher (target <= 5 s), and read
from the reviewed data judge ships (rules/concordance/2004-2010.toml, what users pay).

Usage: .venv/bin/python bench/bench_concordance.py [--repeat N]. Each run starts in a fresh
process (the import of numpy, rapidfuzz and scipy is part of the computed cost); the graph
is loaded (from its own cache) before the clock starts. Needs the `history` extra.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

RUN = """
import time
from judge.corpus.loader import load_graph
graph = load_graph()
start = time.perf_counter()
from judge.corpus import concordance as c
table = (c.compute(graph, "2004", "2010", "en", c.load_table("2004", "2010")) if WHAT == "compute"
         else c.concordance(graph, "2004", "2010"))
print(time.perf_counter() - start, len(table.pairs), len(table.removed), len(table.added))
"""


def once(cache: str, what: str = "read") -> tuple[float, str]:
    env = {**os.environ, "JUDGE_CACHE_DIR": cache}
    out = subprocess.run([sys.executable, "-c", f"WHAT = {what!r}\n" + RUN], env=env, capture_output=True,
                         text=True, check=True).stdout
    seconds, *counts = out.split()
    return float(seconds), " ".join(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cold, warm = [], []
    counts = ""
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as cache:
            os.chmod(cache, 0o700)
            once(cache)  # parse the corpus into this cache first: not part of the concordance
            seconds, counts = once(cache, "compute")
            cold.append(seconds)
            warm.append(once(cache)[0])
    pairs, removed, added = counts.split()
    verdict = "OK" if min(cold) <= 5.0 else "TROP LENT"
    print(f"concordance 2004 -> 2010 : {pairs} paires, {removed} supprimées, {added} ajoutées")
    print(f"  calculée (imports compris) : min {min(cold):.2f} s / max {max(cold):.2f} s (cible 5 s) {verdict}")
    print(f"  lue dans rules/ : min {min(warm) * 1000:.1f} ms / max {max(warm) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
