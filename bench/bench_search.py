"""Search latency and index build time, embedded corpus vs + CR-2022-11-18, and cold CLI start.

Run: `.venv/bin/python bench/bench_search.py [--queries 1000]`. Uses a private temporary
cache folder and a temporary `judge.toml`; skips the 2022 part when ../shared is absent.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("JUDGE_SHARED", ROOT.parent / "shared"))
CR2022 = SHARED / "corpora" / "en" / "CR-2022-11-18.txt"
QUERIES = [
    "brulure de mana", "308.2a", "règle 308.2", "505", "first strike", "iniative", "upkeep",
    "mal d'invocation", "est-ce qu'une créature engagée peut bloquer", "blessures de combat",
    "jouer un terrain", "phase principale", "\"fin du tour\"", "combat damage", "haste",
    "priorité", "extra turn", "sauter une étape", "créature bloquée", "blesures de combat",
    "triggered ability", "mana pool", "déclaration des attaquants", "cleanup", "xylophone",
]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def bench_graph(label: str, config: str | None, count: int) -> None:
    from judge.corpus.loader import load_graph
    from judge.search.engine import open_index
    from judge.search.query import search_with

    graph = load_graph(config)
    start = time.perf_counter()
    index = open_index(graph)  # first time: builds into the empty cache
    build = time.perf_counter() - start
    start = time.perf_counter()
    index = open_index(graph)
    reopen = time.perf_counter() - start
    for q in QUERIES:  # warm caches (stems, searcher)
        search_with(index, q)
    times = []
    for i in range(count):
        q = QUERIES[i % len(QUERIES)]
        start = time.perf_counter()
        search_with(index, q)
        times.append((time.perf_counter() - start) * 1000)
    print(
        f"{label:28} rules={len(graph.all_rules()):5}  build={build:6.2f} s  reopen={reopen * 1000:6.1f} ms  "
        f"p50={statistics.median(times):6.2f} ms  p95={percentile(times, 0.95):6.2f} ms  "
        f"max={max(times):6.2f} ms  ({count} queries)"
    )


def cold(cmd: list[str], runs: int = 5) -> float:
    best = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=False, capture_output=True)
        best.append(time.perf_counter() - start)
    return statistics.median(best) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["JUDGE_CACHE_DIR"] = str(Path(tmp) / "cache")
        bench_graph("embedded (2004 + 2010 fr)", None, args.queries)
        if CR2022.is_file():
            config = Path(tmp) / "judge.toml"
            config.write_text(
                '[[edition]]\nid = "2022"\nlabel = "CR 2022"\nreleased = "2022-11-18"\n'
                'description = "bench"\n\n[[edition.text]]\nlanguage = "en"\n'
                f'files = ["{CR2022}"]\n',
                encoding="utf-8",
            )
            bench_graph("embedded + CR-2022 (en)", str(config), args.queries)
        else:
            print(f"(CR-2022 absent : {CR2022})")
        python = sys.executable
        judge = [python, "-m", "judge", "search", "brulure de mana"]
        subprocess.run(judge, check=False, capture_output=True)  # warm the on-disk caches
        bare = cold([python, "-c", "pass"])
        full = cold(judge)
        print(f"cold process: python -c pass = {bare:6.1f} ms   judge search = {full:6.1f} ms   "
              f"(difference {full - bare:6.1f} ms, median of 5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
