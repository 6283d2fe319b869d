"""Benchmark: check 10,000 situations in-process (target: at most 2 s). Run by hand.

    .venv/bin/python bench/bench_checks.py [COUNT]

Cycles over the test situations (events replays included), loading each from its text and
answering every question; prints load + check time and check-only time (wall clock, and the
process's CPU time: on a shared machine, compare CPU times, or two commits in one run).
"""

from __future__ import annotations

import json
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CEILING = 2.0  # seconds, for 10,000 situations loaded and checked (issue 23)


def situation_texts(root: Path = ROOT) -> list[str]:
    """The situations of `root`'s tests/situations (not derived/), as JSON texts without their
    expectations (bench/count_checks.py reads those of each tree it counts)."""
    texts = []
    for path in sorted(p for p in (root / "tests" / "situations").iterdir() if p.is_file()):
        raw = path.read_text(encoding="utf-8")
        data = tomllib.loads(raw) if path.suffix == ".toml" else json.loads(raw)
        data.pop("expect", None)
        texts.append(json.dumps(data))
    return texts


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from judge.checks.report import check, report_json
    from judge.corpus.loader import load_graph
    from judge.game.situation import load_situation

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    graph = load_graph()
    texts = situation_texts()
    batch = [texts[i % len(texts)] for i in range(count)]

    start, cpu = time.perf_counter(), time.process_time()
    answers = 0
    for text in batch:
        answers += len(report_json(check(graph, load_situation(text, fmt="json")))["answers"])
    full, full_cpu = time.perf_counter() - start, time.process_time() - cpu

    loaded = [load_situation(text, fmt="json") for text in batch]
    start, cpu = time.perf_counter(), time.process_time()
    for situation in loaded:
        check(graph, situation)
    only, only_cpu = time.perf_counter() - start, time.process_time() - cpu

    print(f"{count} situations ({len(texts)} distinctes), {answers} réponses")
    print(f"LE CHIFFRE (issue 23 : {count} situations, chargement + vérification, avec le JSON) : "
          f"{full:.3f} s, temps processeur {full_cpu:.3f} s — plafond {CEILING:.0f} s : "
          f"{'tenu' if full <= CEILING else 'DÉPASSÉ'}")
    print(f"  dont vérification seule : {only:.3f} s ({count / only:,.0f} situations/s ; "
          f"temps processeur {only_cpu:.3f} s)")
    print("  (machine partagée : comparer les temps processeur, ou deux commits dans un même "
          "passage)")


if __name__ == "__main__":
    main()
