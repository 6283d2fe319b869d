"""Benchmark: cold starts of whole `judge` processes against `python -c pass`, side by side,
and the modules each command imports.

Run by hand: `python bench/bench_cold.py [--runs 15]`, with the Python of an installed (not
editable) judge. Every command runs twice first to fill the cache (a "warm" cold start: a
new process, the caches on disk), then the commands are run in turn, round after round (the
machine is noisy); medians. Ceilings (issue 21): `judge rule` <= 3x, `judge search` <= 12x,
`judge check` <= 6x `python -c pass`. The commands are run as a judge types them: the
installed `judge` script beside this Python (`python -m judge` when there is none; it also
imports `runpy`). Also prints which heavy modules each command imported (`-X importtime`),
*floors* (the standard modules a command imports whatever judge does: `re`, which pip's
`judge` script imports first thing, `dataclasses` for the frozen records, `tomllib` for a TOML
situation) and, for each command, the time spent creating its frozen dataclasses.

The import check: each command must not import the modules listed for it in `NOT_IMPORTED`
(a warm `judge rule` reads the rule store: no Lark, no graph; `judge check` loads the replay
only for a situation with events, and no TOML parser for a JSON one…), and must import those
in `IMPORTED`. A module found where it should not be, or missing, is printed and the script
exits 1, as for a ceiling passed.
`--instructions` also counts the instructions of one run of each under `valgrind
--tool=callgrind` (independent of the load of a shared machine, though blind to what the
system does for a process: page faults, reads). With `--against DIR` (another version's source
tree, e.g. `git archive main | tar -x -C DIR`), the judge commands are also counted as that
tree runs them (`python -m judge` with `PYTHONPATH=DIR`, its own cache filled first), each
beside this version's run as the same `python -m judge`, alternately: a before/after in one run.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITUATION = ROOT / "examples" / "attaque-2004.toml"
JSON_SITUATION = ROOT / "examples" / "brulure-2010.json"
REPLAY_SITUATION = ROOT / "examples" / "tour-rejoue.toml"
SCRIPT = Path(sys.executable).parent / "judge"
JUDGE = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "judge"]
COMMANDS = {
    "python -c pass": ([sys.executable, "-c", "pass"], None),
    "judge rule 300.3": ([*JUDGE, "rule", "300.3"], 3.0),
    "judge search": ([*JUDGE, "search", "blessures de combat"], 12.0),
    "judge check": ([*JUDGE, "check", str(SITUATION)], 6.0),
    "judge check (JSON)": ([*JUDGE, "check", str(JSON_SITUATION)], 6.0),
    "judge check (rejeu)": ([*JUDGE, "check", str(REPLAY_SITUATION)], 6.0),
}
FLOORS = {
    "plancher re": "import re",
    "plancher + dataclasses": "import re, dataclasses",
    "plancher + tomllib": "import re, dataclasses, tomllib",
}
# The import check (what each command must not import, and must import), by command.
_NO_CORPUS = ("lark", "judge.corpus.parser", "judge.corpus.graph", "jinja2", "starlette")
_NO_REPLAY = ("judge.procedure.replay", "judge.procedure.trail", "judge.game.events", "judge.game.eventreaders")
_CHECK_ONLY_ASKED = ("judge.checks.coverage", "judge.game.objects", *_NO_REPLAY)
NOT_IMPORTED: dict[str, tuple[str, ...]] = {
    "judge rule 300.3": (*_NO_CORPUS, "whoosh", "tomllib", "pickle", "judge.checks.report", "tomllib"),
    "judge search": ("lark", "judge.corpus.parser", "jinja2", "starlette", "judge.checks.report", "tomllib"),
    "judge check": (*_NO_CORPUS, "whoosh", *_CHECK_ONLY_ASKED),
    "judge check (JSON)": (*_NO_CORPUS, "whoosh", "tomllib", *_CHECK_ONLY_ASKED),
    "judge check (rejeu)": (*_NO_CORPUS, "whoosh", "judge.checks.coverage"),
}
IMPORTED: dict[str, tuple[str, ...]] = {
    "judge check": ("tomllib",),
    "judge check (rejeu)": _NO_REPLAY,
}
# Runs one command in-process and prints how many frozen dataclasses it created, and in how
# many seconds (`dataclasses._process_class`, wrapped here for the measure only).
_CLASSES = """
import contextlib, dataclasses, io, sys, time
made = [0, 0.0]
process = dataclasses._process_class
def timed(*args, **kwargs):
    start = time.perf_counter()
    try:
        return process(*args, **kwargs)
    finally:
        made[0] += 1
        made[1] += time.perf_counter() - start
dataclasses._process_class = timed
from judge.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
print(made[0], made[1])
"""
HEAVY = ("lark", "whoosh", "jinja2", "starlette", "tomllib", "pickle", "pathlib", "typing", "dataclasses", "json")


def modules(command: list[str], env: dict[str, str]) -> set[str]:
    """Every module `command` imports (as `-X importtime` lists them)."""
    run = subprocess.run(command, env=dict(env, PYTHONPROFILEIMPORTTIME="1"), capture_output=True, text=True)
    return {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if "|" in line}


def imported(command: list[str], env: dict[str, str]) -> list[str]:
    names = modules(command, env)
    return [name for name in HEAVY if name in names]


def import_faults(env: dict[str, str]) -> list[str]:
    """The import check: what each command imports and should not, or misses."""
    faults = []
    for name, (command, _) in COMMANDS.items():
        if name not in NOT_IMPORTED and name not in IMPORTED:
            continue
        found = modules(command, env)
        faults += [f"{name} importe {m}" for m in NOT_IMPORTED.get(name, ()) if m in found]
        faults += [f"{name} n'importe pas {m}" for m in IMPORTED.get(name, ()) if m not in found]
    return faults


def instructions(command: list[str], env: dict[str, str]) -> int:
    """Instructions of one run of `command` (the whole process), counted by callgrind."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                          env=dict(env, PYTHONHASHSEED="0"), capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind n'a rien compté :\n{done.stderr}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--instructions", action="store_true", help="compter aussi sous callgrind")
    parser.add_argument("--against", type=Path, metavar="DOSSIER",
                        help="avec --instructions : compter aussi les commandes d'un autre arbre source")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, JUDGE_CACHE_DIR=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed package: bytecode compiled
        for command, _ in COMMANDS.values():
            for _ in range(2):  # fill the caches (the second run restamps what the first built)
                subprocess.run(command, env=env, capture_output=True, check=True)
        runs = {**COMMANDS, **{name: ([sys.executable, "-c", code], None) for name, code in FLOORS.items()}}
        times: dict[str, list[float]] = {name: [] for name in runs}
        cpu: dict[str, list[float]] = {name: [] for name in runs}
        classes: dict[str, list[tuple[int, float]]] = {name: [] for name in COMMANDS if name != "python -c pass"}
        for _ in range(args.runs):
            for name, (command, _) in runs.items():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(command, env=env, capture_output=True)
                times[name].append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[name].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            for name in classes:
                argv = COMMANDS[name][0][len(JUDGE):]
                done = subprocess.run([sys.executable, "-c", _CLASSES, *argv], env=env, capture_output=True,
                                      text=True, check=True)
                count, seconds = done.stdout.split()
                classes[name].append((int(count), float(seconds)))
        bare, bare_cpu = statistics.median(times["python -c pass"]), statistics.median(cpu["python -c pass"])
        faults = import_faults(env)
        failed = bool(faults)
        print(f"charge de la machine : {os.getloadavg()[0]:.1f} (2 cœurs) ; "
              "temps réel et temps processeur (utilisateur + système), médianes ; "
              f"judge lancé par : {' '.join(JUDGE)}")
        for name, (command, target) in runs.items():
            median, median_cpu = statistics.median(times[name]), statistics.median(cpu[name])
            line = f"{name:<22} {median * 1000:6.1f} ms réel, {median_cpu * 1000:6.1f} ms cpu"
            if name != "python -c pass":
                ratio, ratio_cpu = median / bare, median_cpu / bare_cpu
                line += f"  rapport {ratio:4.2f}x réel, {ratio_cpu:4.2f}x cpu"
                if target is not None:
                    failed |= ratio > target
                    heavy = ", ".join(imported(command, env)) or "aucun"
                    line += f" [plafond <= {target}x]  modules lourds : {heavy}"
            print(line)
        print("importations : " + ("conformes" if not faults else "; ".join(faults)))
        print("création des dataclasses figées de chaque commande (médiane) :")
        for name, made in classes.items():
            seconds = statistics.median(s for _, s in made)
            print(f"{name:<22} {made[0][0]:3d} classes, {seconds * 1000:5.1f} ms  soit {seconds / bare:4.2f}x python -c pass")
        if args.instructions:
            counts = {name: instructions(command, env) for name, (command, _) in runs.items()}
            bare_count = counts["python -c pass"]
            print("instructions (callgrind), une exécution de chaque :")
            for name, (_, target) in runs.items():
                extra = f" [plafond <= {target}x]" if target is not None else ""
                print(f"{name:<22} {counts[name] / 1e6:7.1f} M  rapport {counts[name] / bare_count:4.2f}x{extra}")
            if args.against is not None:
                compare(args.against.resolve(), env, bare_count)
    return 1 if failed else 0


def compare(other: Path, env: dict[str, str], bare_count: int) -> None:
    """Instructions of each judge command as this tree and `other` run it (`python -m judge`),
    one after the other, each with its own filled cache."""
    trees = {"ici": (ROOT, dict(env, PYTHONPATH=str(ROOT))), "autre": (other, dict(env, PYTHONPATH=str(other)))}
    with tempfile.TemporaryDirectory() as cache:
        trees["autre"][1]["JUDGE_CACHE_DIR"] = cache
        print(f"instructions, python -m judge, ici ({ROOT}) et autre ({other}) :")
        for name, (command, _) in COMMANDS.items():
            if name == "python -c pass":
                continue
            argv = [sys.executable, "-m", "judge", *command[len(JUDGE):]]
            counts = {}
            for label, (tree, tree_env) in trees.items():
                for _ in range(2):  # fill this tree's caches
                    subprocess.run(argv, env=tree_env, cwd=tree, capture_output=True, check=True)
                counts[label] = instructions(argv, tree_env)
            print(f"{name:<22} ici {counts['ici'] / 1e6:7.1f} M ({counts['ici'] / bare_count:4.2f}x), autre "
                  f"{counts['autre'] / 1e6:7.1f} M ({counts['autre'] / bare_count:4.2f}x), "
                  f"écart {100 * (counts['ici'] / counts['autre'] - 1):+5.2f} %")


if __name__ == "__main__":
    raise SystemExit(main())
