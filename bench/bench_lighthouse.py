"""Benchmark: Lighthouse (mobile) on the static book (issue 34). Run by hand.

    .venv/bin/python bench/bench_lighthouse.py [--runs 3] [--site DIR] [PATH ...]

Builds the book (or takes `--site`), serves it on 127.0.0.1 as bench_phone.py does (HTTP/1.1,
gzip), and runs Lighthouse 12 (bench/lighthouse/: its default mobile settings, simulated slow 4G
and CPU 4x slower, with Debian's Chromium) on the home page, the search page with and without a
query, and the book's longest rule page (by HTML size), `--runs` times. Prints each page's
scores per category (the median over the runs, and the lowest), the audits that failed, and the
performance metrics of the last run. Exit status 1 when a median is under 95 (the issue's goal).

Needs Node (Debian's `nodejs`, 18 or later) and npm: the first run installs Lighthouse into
bench/lighthouse/node_modules with `npm ci` (its lock, about 110 MB, 10 s). One page takes 10 to 15 s
on a shared two-core machine: the four pages, about a minute a run, which is why this is a
benchmark and not a CI step. The performance score reads the main thread's task times on this
machine (multiplied by 4): under load it varies by several points from run to run (the other
three categories do not vary).
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
RULE_PAGE = re.compile(r"^\d{4}/(?:[a-z]{2}/)?\d{3}\.html$")


def longest_rule_page(site: Path) -> str:
    pages = [p for p in site.rglob("*.html") if RULE_PAGE.match(p.relative_to(site).as_posix())]
    return max(pages, key=lambda p: p.stat().st_size).relative_to(site).as_posix()


def installed() -> Path:
    runner = LIGHTHOUSE / "node_modules" / "lighthouse"
    if not runner.is_dir():
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("npm absent : installer Node et npm (paquets Debian nodejs et npm)")
        print("Installation de Lighthouse (npm ci, bench/lighthouse)…", flush=True)
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=LIGHTHOUSE, check=True)
    return LIGHTHOUSE / "run.mjs"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, help="a built book (default: built now into a temporary folder)")
    parser.add_argument("paths", nargs="*", help="pages (default: home, search, search with a query, longest rule page)")
    args = parser.parse_args(argv)
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
        paths = args.paths or ["index.html", "search.html", "search.html?q=vigilance", longest_rule_page(site)]
        port = stack.enter_context(host(site, True))
        runs: list[dict[str, dict]] = []
        for n in range(1, args.runs + 1):
            done = subprocess.run([node, str(runner), CHROMIUM, f"http://127.0.0.1:{port}/", *paths],
                                  capture_output=True, text=True, check=False)
            if done.returncode != 0:
                print(done.stderr, file=sys.stderr)
                return 2
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
            seconds = sum(page["seconds"] for page in runs[-1].values())
            print(f"essai {n} : {seconds:.0f} s pour {len(paths)} pages", flush=True)
    print(f"Lighthouse (mobile), {args.runs} essai(s) : médiane (plus bas) par catégorie")
    print(f"{'page':<28} " + " ".join(f"{c[:13]:>13}" for c in CATEGORIES))
    low = False
    for path in paths:
        cells = []
        for category in CATEGORIES:
            scores = [r[path]["scores"].get(category) for r in runs]
            known = [s for s in scores if s is not None]
            if not known:
                cells.append(f"{'erreur':>13}")
                low = True
                continue
            median = statistics.median(known)
            low = low or median < GOAL
            cells.append(f"{median:>7.0f} ({min(known):>3})")
        print(f"{path:<28} " + " ".join(cells))
        last = runs[-1][path]
        if last.get("error"):
            print(f"    erreur : {last['error']}")
        failed = [f"{c} : {', '.join(a)}" for c, a in last["failed"].items() if a]
        if failed:
            print(f"    audits en échec (dernier essai) : {' ; '.join(failed)}")
        print("    " + ", ".join(f"{k} {v}" for k, v in last["metrics"].items()))
    print(f"Objectif (issue 34) : ≥ {GOAL} dans chaque catégorie.")
    return 1 if low else 0


if __name__ == "__main__":
    raise SystemExit(main())
