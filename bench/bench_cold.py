"""Benchmark: cold starts of whole `judge` processes against `python -c pass`, side by side.

Run by hand: `python bench/bench_cold.py [--runs 15]`. Every command runs once first to fill
the cache (a "warm" cold start: a new process, the caches on disk), then the commands are run
in turn, round after round (the machine is noisy); medians. Targets (issue 14): `judge rule`
<= 2.5x, `judge search` <= 4x, `judge check` <= 3x `python -c pass`. Also prints which heavy
modules each command imported (`-X importtime`).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITUATION = ROOT / "examples" / "attaque-2004.toml"
JUDGE = [sys.executable, "-m", "judge"]
COMMANDS = {
    "python -c pass": ([sys.executable, "-c", "pass"], None),
    "judge rule 300.3": ([*JUDGE, "rule", "300.3"], 2.5),
    "judge search": ([*JUDGE, "search", "blessures de combat"], 4.0),
    "judge check": ([*JUDGE, "check", str(SITUATION)], 3.0),
}
HEAVY = ("lark", "whoosh", "jinja2", "starlette", "tomllib", "hashlib", "json")


def imported(command: list[str], env: dict[str, str]) -> list[str]:
    run = subprocess.run([command[0], "-X", "importtime", *command[1:]], env=env, capture_output=True, text=True)
    names = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if "|" in line}
    return [name for name in HEAVY if name in names]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, JUDGE_CACHE_DIR=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed package: bytecode compiled
        for command, _ in COMMANDS.values():
            subprocess.run(command, env=env, capture_output=True, check=True)  # fill the caches
        times: dict[str, list[float]] = {name: [] for name in COMMANDS}
        cpu: dict[str, list[float]] = {name: [] for name in COMMANDS}
        for _ in range(args.runs):
            for name, (command, _) in COMMANDS.items():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(command, env=env, capture_output=True)
                times[name].append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[name].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        bare, bare_cpu = statistics.median(times["python -c pass"]), statistics.median(cpu["python -c pass"])
        failed = False
        print(f"charge de la machine : {os.getloadavg()[0]:.1f} (2 cœurs) ; "
              "temps réel et temps processeur (utilisateur + système), médianes")
        for name, (command, target) in COMMANDS.items():
            median, median_cpu = statistics.median(times[name]), statistics.median(cpu[name])
            line = f"{name:<18} {median * 1000:6.1f} ms réel, {median_cpu * 1000:6.1f} ms cpu"
            if target is not None:
                ratio, ratio_cpu = median / bare, median_cpu / bare_cpu
                failed |= ratio > target
                heavy = ", ".join(imported(command, env)) or "aucun"
                line += (f"  rapport {ratio:4.1f}x réel, {ratio_cpu:4.1f}x cpu [cible <= {target}x]"
                         f"  modules lourds : {heavy}")
            print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
