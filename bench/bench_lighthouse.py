"""Lighthouse (mobile) on the static book (issue 34): a benchmark, and a step of `.ci/run`.

    .venv/bin/python bench/bench_lighthouse.py [--runs 3] [--site DIR] [PATH ...]

Builds the book (or takes `--site`), serves it on 127.0.0.1 as bench_phone.py does (HTTP/1.1,
gzip), and runs Lighthouse 12 (bench/lighthouse/: its default mobile settings, simulated slow 4G
and CPU 4x slower, with Debian's Chromium) on the home page, the search page with a query and
the book's longest rule page (by HTML size; section pages and long sections' rule pages alike).
Prints each page's scores per category (the median over its runs, and the lowest), the audits
that failed, and the performance metrics of its last run. Exit status 1 when a median is under
95 in any category (the issue's goal), 2 when Lighthouse could not run.

Each page gets `--runs` runs at most (odd: 3 by default), in passes over the pages; a page
leaves the passes once its median is decided in every category (a majority of its runs at or
above 95, or under it): with three runs, a page two runs agree on is not run a third time.
The performance score reads the main thread's task times on this machine (multiplied by 4): on a
loaded machine it moves by several points from run to run, hence the median; the other three
categories do not move. `.ci/run` runs this once the test suite is done, on the machine alone.

Needs Node (18.16 or later: Debian 12's `nodejs` is 18.20) and npm: the first run installs
Lighthouse into bench/lighthouse/node_modules with `npm ci` (its lock, about 110 MB, 10-30 s).
One page takes 8 to 15 s on a two-core machine.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_phone import CHROMIUM, host  # noqa: E402

LIGHTHOUSE = ROOT / "bench" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
GOAL = 95
# A rule page: a section's (`2004/en/410.html`) or one rule's of a long section (`2010/en/702.19.html`).
RULE_PAGE = re.compile(r"^\d{4}/(?:[a-z]{2}/)?\d{3}(?:\.\d+)?\.html$")


def longest_rule_page(site: Path) -> str:
    pages = [p for p in site.rglob("*.html") if RULE_PAGE.match(p.relative_to(site).as_posix())]
    return max(pages, key=lambda p: (p.stat().st_size, p.as_posix())).relative_to(site).as_posix()


def installed() -> Path:
    runner = LIGHTHOUSE / "node_modules" / "lighthouse"
    if not runner.is_dir():
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("npm absent : installer Node et npm (paquets Debian nodejs et npm)")
        print("Installation de Lighthouse (npm ci, bench/lighthouse)…", flush=True)
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=LIGHTHOUSE, check=True)
    return LIGHTHOUSE / "run.mjs"


def decided(scores: list[int | None], runs: int) -> bool | None:
    """Whether the median of `runs` runs of one category is at or above the goal, once the runs
    made so far decide it (a majority on one side), else None. A run without a score fails."""
    majority = runs // 2 + 1
    passed = sum(1 for s in scores if s is not None and s >= GOAL)
    if passed >= majority:
        return True
    if len(scores) - passed >= majority:
        return False
    return None


def page_decided(results: list[dict], runs: int) -> bool:
    return all(decided([r["scores"].get(c) for r in results], runs) is not None for c in CATEGORIES)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per page at most (odd)")
    parser.add_argument("--site", type=Path, help="a built book (default: built now into a temporary folder)")
    parser.add_argument("paths", nargs="*", help="pages (default: home, search with a query, longest rule page)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.runs % 2 == 0:
        parser.error("--runs : un nombre impair (la médiane est l'un des essais)")
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node absent : installer Node (paquet Debian nodejs)")
    runner = installed()
    with contextlib.ExitStack() as stack:
        site = args.site
        if site is None:
            from judge.corpus.loader import load_graph
            from judge.site.build import build_site

            site = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "site"
            build_site(load_graph(), site)
        paths = args.paths or ["index.html", "search.html?q=vigilance", longest_rule_page(site)]
        port = stack.enter_context(host(site, True))
        results: dict[str, list[dict]] = {path: [] for path in paths}
        for n in range(1, args.runs + 1):
            todo = [p for p in paths if not page_decided(results[p], args.runs)]
            if not todo:
                break
            done = subprocess.run([node, str(runner), CHROMIUM, f"http://127.0.0.1:{port}/", *todo],
                                  capture_output=True, text=True, check=False)
            if done.returncode != 0:
                print(done.stderr, file=sys.stderr)
                return 2
            out = json.loads(done.stdout.strip().splitlines()[-1])
            for path in todo:
                results[path].append(out[path])
            print(f"passe {n} : {sum(out[p]['seconds'] for p in todo):.0f} s pour {len(todo)} page(s)", flush=True)
    print(f"Lighthouse (mobile), {args.runs} essai(s) au plus par page : médiane (plus bas) par catégorie")
    print(f"{'page':<28} {'essais':>6} " + " ".join(f"{c[:13]:>13}" for c in CATEGORIES))
    low = False
    for path in paths:
        cells = []
        for category in CATEGORIES:
            scores = [r["scores"].get(category) for r in results[path]]
            known = [s for s in scores if s is not None]
            low = low or not decided(scores, args.runs)
            if not known:
                cells.append(f"{'erreur':>13}")
                continue
            cells.append(f"{statistics.median(known):>7.0f} ({min(known):>3})")
        print(f"{path:<28} {len(results[path]):>6} " + " ".join(cells))
        last = results[path][-1]
        if last.get("error"):
            print(f"    erreur : {last['error']}")
        failed = [f"{c} : {', '.join(a)}" for c, a in last["failed"].items() if a]
        if failed:
            print(f"    audits en échec (dernier essai) : {' ; '.join(failed)}")
        print("    " + ", ".join(f"{k} {v}" for k, v in last["metrics"].items()))
    speeds = [r["benchmarkIndex"] for page in results.values() for r in page if r.get("benchmarkIndex")]
    if speeds:  # what the performance scores depend on: this machine's processor, as Lighthouse timed it
        print(f"Vitesse de la machine (benchmarkIndex de Lighthouse) : médiane {statistics.median(speeds):.0f}, "
              f"de {min(speeds):.0f} à {max(speeds):.0f} (≈ 1 400 sur un cœur libre ici, 500 à 900 sous charge)")
    print(f"Objectif (issue 34) : médiane ≥ {GOAL} dans chaque catégorie, sur chaque page : "
          f"{'manqué' if low else 'atteint'}.")
    return 1 if low else 0


if __name__ == "__main__":
    raise SystemExit(main())
