"""Benchmark `judge build`: the embedded corpus (target <= 1 s) and with CR-2022-11-18 added (<= 5 s).

Usage: .venv/bin/python bench/bench_build.py [--repeat N]. Loading the graph (parse or cache)
is timed separately from the build itself; the 2022 case is skipped when ../shared is absent.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from judge.corpus.loader import load_graph
from judge.site.build import build_site

ROOT = Path(__file__).resolve().parent.parent
EN2022 = Path(os.environ.get("JUDGE_SHARED", ROOT.parent / "shared")) / "corpora" / "en" / "CR-2022-11-18.txt"
CONFIG_2022 = """[[edition]]
id = "2022"
label = "Comprehensive Rules 2022"
released = "2022-11-18"
description = "Comprehensive Rules (anglais), 18 novembre 2022"

[[edition.text]]
language = "en"
files = [{path}]
"""


def bench(name: str, config: str | None, repeat: int, target: float) -> None:
    start = time.perf_counter()
    graph = load_graph(config=config)
    loaded = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as tmp:
        times = []
        for i in range(repeat):
            start = time.perf_counter()
            build_site(graph, Path(tmp) / f"site{i}")
            times.append(time.perf_counter() - start)
        files = sum(1 for p in (Path(tmp) / "site0").rglob("*") if p.is_file())
        size = sum(p.stat().st_size for p in (Path(tmp) / "site0").rglob("*") if p.is_file())
    best = min(times)
    verdict = "OK" if best <= target else "TROP LENT"
    print(f"{name}: {len(graph.all_rules())} règles, {files} fichiers, {size / 1e6:.1f} Mo ; "
          f"chargement {loaded:.2f} s ; build min {best:.3f} s / max {max(times):.3f} s "
          f"(cible {target:.0f} s) {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    bench("corpus embarqué", None, args.repeat, 1.0)
    if not EN2022.is_file():
        print(f"2022 ignoré : {EN2022} absent")
        return
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "judge.toml"
        config.write_text(CONFIG_2022.format(path=f'"{EN2022}"'), encoding="utf-8")
        bench("+ CR-2022-11-18 (en)", str(config), args.repeat, 5.0)


if __name__ == "__main__":
    main()
