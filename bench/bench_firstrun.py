"""What a new user pays: the size of a default install, and the first `judge search` and the
first `judge build` from an empty cache (goals: <= 150 MB, <= 3 s, <= 8 s on an idle machine).

Usage:
    .venv/bin/python bench/bench_firstrun.py [--repeat N] [--venv DIR] [--keep]

Without `--venv`, installs the project (`pip install .`, the default extras only) into a new
virtual environment in a temporary folder, as a new user would, and measures its
site-packages (`du -sh`'s figure, in MB); with `--venv DIR`, measures that environment's
`judge` instead (e.g. one of an earlier version, for a before/after). Each timed run is a
fresh process with an empty cache folder; the machine's load average is printed beside the
figures with the processor time (user + system) of the run, which a loaded machine inflates
much less than the wall time: compare runs made under the same load. With a second core, a
first run shares its work with a helper process (`judge.search.helper`): the processor time counts
both, and may exceed the wall time. `--profile` then runs each
command once more from an empty cache under cProfile and prints where its time went: the
processor time by package (Whoosh, judge's subpackages, the standard library…) and the
costliest functions by their own time.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOALS = {"install": 150.0, "search": 3.0, "build": 8.0}


def site_packages(venv: Path) -> Path:
    (found,) = venv.glob("lib/python*/site-packages")
    return found


def megabytes(folder: Path) -> float:
    out = subprocess.run(["du", "-sk", str(folder)], capture_output=True, text=True, check=True).stdout
    return int(out.split()[0]) / 1024


def install(where: Path) -> Path:
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    started = time.perf_counter()
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(ROOT)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(f"installation (pip install .) : {time.perf_counter() - started:.1f} s")
    return venv


def first_run(venv: Path, work: Path, *args: str) -> tuple[float, float]:
    """(wall time, processor time) of one run with an empty cache."""
    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=work))
    env = {**os.environ, "JUDGE_CACHE_DIR": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([str(venv / "bin" / "judge"), *args], env=env, cwd=work, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(cache, ignore_errors=True)
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def profile(venv: Path, work: Path, *args: str) -> None:
    """One run of `judge ARGS` from an empty cache under cProfile: its time by package, and
    the 12 functions of most own time."""
    import collections
    import pstats

    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=work))
    out = work / "profile.out"
    env = {**os.environ, "JUDGE_CACHE_DIR": str(cache)}
    subprocess.run([str(venv / "bin" / "python"), "-m", "cProfile", "-o", str(out), "-m", "judge", *args],
                   env=env, cwd=work, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shutil.rmtree(cache, ignore_errors=True)
    stats = pstats.Stats(str(out))
    by_package: collections.Counter[str] = collections.Counter()
    rows = []
    for (file, line, name), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        if "/judge/" in file:
            package = "judge." + file.rsplit("/judge/", 1)[1].split("/")[0].removesuffix(".py")
        elif "site-packages/" in file:
            package = file.split("site-packages/", 1)[1].split("/")[0]
        elif file.startswith("~"):
            package = "(fonctions C)"
        else:
            package = "(bibliothèque standard)"
        by_package[package] += own
        rows.append((own, f"{file.rsplit('/', 2)[-2:][-1]}:{line} {name}"))
    total = sum(by_package.values()) or 1.0
    print(f"  profil de judge {' '.join(args)} (temps propre sous cProfile, qui le gonfle) :")
    for package, own in by_package.most_common(10):
        print(f"    {100 * own / total:5.1f} %  {package}")
    for own, where in sorted(rows, reverse=True)[:12]:
        print(f"    {own:6.2f} s  {where}")


def verdict(value: float, goal: float) -> str:
    return "OK" if value <= goal else "au-dessus"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--venv", type=Path, help="an existing environment with judge installed")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--profile", action="store_true", help="profile one more run of each (cProfile)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="judge-firstrun-"))
    try:
        venv = args.venv.resolve() if args.venv else install(work)
        size = megabytes(site_packages(venv))
        packages = len(subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "list", "--format=freeze"],
                                      capture_output=True, text=True).stdout.split())
        print(f"installation : {size:.0f} Mo dans site-packages, {packages} paquets (objectif "
              f"{GOALS['install']:.0f} Mo) {verdict(size, GOALS['install'])}")
        for name, command in (("search", ("search", "brûlure de mana")),
                              ("build", ("build", "--out", str(work / "site")))):
            times, cpu = [], []
            for _ in range(args.repeat):
                load = os.getloadavg()[0]
                wall, used = first_run(venv, work, *command)
                times.append(wall)
                cpu.append(used)
                print(f"  judge {name} (cache vide) : {wall:.2f} s, processeur {used:.2f} s (charge {load:.1f})")
            print(f"premier judge {name} : min {min(times):.2f} s / max {max(times):.2f} s, processeur min "
                  f"{min(cpu):.2f} s (objectif {GOALS[name]:.0f} s) {verdict(min(times), GOALS[name])}")
            if args.profile:
                profile(venv, work, *command)
    finally:
        if args.keep:
            print(f"gardé : {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
