"""Search quality on tests/search_eval.toml: MRR@10 and hit@3 per kind of query (and per origin:
the project's first 72 queries, the fresh ones) of the two runners of one search — Whoosh
(`judge search`, `judge serve`, the library) and the static book's (`search.js` in Chromium, on
the export) — their parity (same top 10, same first hit), beside a plain BM25 baseline
(`rank-bm25` over every rule, accents folded, rule numbers first) and a naive substring one.

Run: `.venv/bin/python bench/eval_search.py [--verbose] [--no-browser]`. The test suite imports
`evaluate` and `load_cases` from here.

A writers' file (`--file F [F…] --half dev|sealed`): the queries of a fresh writer's file, split
before anyone read them — its entries at even positions (0, 2, …) are the development half,
those at odd positions the sealed half, run once at the end. The loader drops the other half
before anything reads it; `--half sealed` never lists the queries it misses (no `--verbose`).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from judge.corpus.graph import RuleGraph
from judge.normalize import fold

EVAL_FILE = Path(__file__).resolve().parent.parent / "tests" / "search_eval.toml"
CHROMIUM = Path("/usr/bin/chromium")
Ranker = Callable[[str], Sequence[str]]  # query -> ranked "edition:number" keys


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    q: str
    expect: tuple[str, ...]
    kind: str = ""
    origin: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Score:
    mrr: float
    hit3: float
    ranks: tuple[tuple[Case, int | None], ...]  # 1-based rank of the first expected hit


HALVES = ("dev", "sealed", "all")


def load_cases(path: Path = EVAL_FILE, half: str | None = None, origin: str = "") -> tuple[Case, ...]:
    """The queries of an eval file; with `half`, only that half of a writers' file (`dev`: the
    entries at even positions, `sealed`: odd), the other dropped unread; `all`: both halves (a
    writers' file whose sealed half was already run once is development material). `origin` names the
    queries that have none."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    items = data["query"]
    if half is not None:
        if half not in HALVES:
            raise ValueError(f"half: {half!r} (dev, sealed or all)")
        if half != "all":
            items = items[0 if half == "dev" else 1::2]
    return tuple(Case(q=item["q"], expect=tuple(item["expect"]), kind=item.get("kind", ""),
                      origin=item.get("origin", origin)) for item in items)


def evaluate(rank: Ranker, cases: Sequence[Case], k: int = 10) -> Score:
    ranks: list[tuple[Case, int | None]] = []
    for case in cases:
        keys = list(dict.fromkeys(rank(case.q)))[:k]
        found = next((i for i, key in enumerate(keys, 1) if key in case.expect), None)
        ranks.append((case, found))
    mrr = sum(1 / r for _, r in ranks if r) / len(ranks)
    hit3 = sum(1 for _, r in ranks if r and r <= 3) / len(ranks)
    return Score(mrr=mrr, hit3=hit3, ranks=tuple(ranks))


def ours(graph: RuleGraph) -> Ranker:
    """The server's search: the Whoosh index of record."""
    from judge.search.engine import search
    from judge.search.query import QueryError

    def rank(q: str) -> list[str]:
        try:
            return [f"{h.edition}:{h.number}" for h in search(q, graph=graph, limit=10).hits]
        except QueryError:  # nothing to search (only stop words): no hit
            return []

    return rank


def top_ids(results: dict[str, list[str]]) -> Ranker:
    """A ranker over precomputed "edition:language:number" top 10s."""
    return lambda q: [":".join((i.split(":")[0], i.split(":")[2])) for i in results[q]]


def whoosh_ids(graph: RuleGraph, cases: Sequence[Case]) -> dict[str, list[str]]:
    from judge.search.engine import index_for
    from judge.search.query import QueryError, search_with

    index = index_for(graph)

    def ids(q: str) -> list[str]:
        try:
            return [f"{h.edition}:{h.language}:{h.number}" for h in search_with(index, q).hits]
        except QueryError:  # nothing to search (only stop words): no hit
            return []

    return {c.q: ids(c.q) for c in cases}


def static_ids(graph: RuleGraph, cases: Sequence[Case]) -> dict[str, list[str]]:
    """The shipped search.js of a freshly built book, in Debian's Chromium, from file://."""
    from playwright.sync_api import sync_playwright

    from judge.site.build import build_site

    with tempfile.TemporaryDirectory() as folder:
        site = build_site(graph, Path(folder) / "site").parent
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            page = browser.new_page()
            page.goto((site / "search.html").as_uri())
            found = page.evaluate("async qs => { const out = []; for (const q of qs)"
                                  " out.push((await judgeSearchRun(q, 10)).results.map(r => r.id)); return out; }",
                                  [c.q for c in cases])
            browser.close()
    return dict(zip((c.q for c in cases), found, strict=True))


def parity(results: dict[str, list[str]], reference: dict[str, list[str]]) -> tuple[int, int]:
    """(queries with the same top 10 in the same order, queries with the same first hit)."""
    same = sum(1 for q, ids in results.items() if ids == reference[q])
    first = sum(1 for q, ids in results.items() if ids[:1] == reference[q][:1])
    return same, first


def substring_baseline(graph: RuleGraph) -> Ranker:
    """Rules whose folded title + text contain the folded query, in corpus order."""
    docs = [(f"{r.edition}:{r.number}", fold(f"{r.title or ''} {r.text}")) for r in graph.all_rules()]

    def rank(q: str) -> list[str]:
        needle = fold(q)
        return [key for key, text in docs if needle in text]

    return rank


_WORD = re.compile(r"\w+")
_RULE = re.compile(r"(?<![\w.])(\d{3}(?:\.\d+[a-z]?)?)(?![\w])")


def bm25_baseline(graph: RuleGraph) -> Ranker:
    """A plain BM25 (`rank_bm25.BM25Okapi`) over the title, text and examples of every rule of
    both languages, words folded (accents, case), no stemming, no stop words, no glossary;
    a rule number of the query (`R305.4`, `303,1` read as 305.4, 303.1) opens that rule first."""
    from rank_bm25 import BM25Okapi

    rules = list(graph.all_rules())
    keys = [f"{r.edition}:{r.number}" for r in rules]
    corpus = [_WORD.findall(fold(" ".join((r.title or "", r.text, *(e.text for e in r.examples))))) for r in rules]
    bm25 = BM25Okapi(corpus)

    def rank(q: str) -> list[str]:
        folded = re.sub(r"(\d{3}),(\d)", r"\1.\2", fold(q))
        folded = re.sub(r"(\d{3}\.\d+) ([a-z])\b", r"\1\2", re.sub(r"(?<![a-z])(?:cr|r|§)\.?\s*(?=\d{3})", " ", folded))
        first = [k for n in _RULE.findall(folded) for k in keys if k.endswith(":" + n)]
        scores = bm25.get_scores(_WORD.findall(folded))
        order = sorted(range(len(keys)), key=lambda i: -scores[i])
        return first + [keys[i] for i in order[:30] if scores[i] > 0]

    return rank


def report(name: str, score: Score) -> list[str]:
    """MRR@10 and hit@3 overall, per origin and per kind."""
    lines = [f"{name:30} MRR@10 = {score.mrr:.3f}   hit@3 = {score.hit3:.3f}   ({len(score.ranks)} requêtes)"]
    groups: dict[str, list[tuple[Case, int | None]]] = {}
    for case, r in score.ranks:
        groups.setdefault(f"origine {case.origin or '?'}", []).append((case, r))
        groups.setdefault(f"{case.origin} · {case.kind or '?'}", []).append((case, r))
    for group, ranks in sorted(groups.items()):
        mrr = sum(1 / r for _, r in ranks if r) / len(ranks)
        hit3 = sum(1 for _, r in ranks if r and r <= 3) / len(ranks)
        lines.append(f"    {group:28} MRR@10 = {mrr:.3f}   hit@3 = {hit3:.3f}   ({len(ranks)})")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--verbose", action="store_true", help="list the queries that miss the top 1")
    parser.add_argument("--no-browser", action="store_true", help="skip the static book's search (Chromium)")
    parser.add_argument("--file", type=Path, nargs="+",
                        help="writers' files (default: tests/search_eval.toml, whole), each by its name as origin")
    parser.add_argument("--half", choices=HALVES, help="with --file: its development (even) or sealed (odd) half, or all of it")
    args = parser.parse_args(argv)
    if args.half and not args.file:
        parser.error("--half va avec --file")
    if args.half == "sealed" and args.verbose:
        parser.error("--half sealed ne liste pas les requêtes manquées (--verbose)")
    from judge.corpus.loader import load_graph

    graph = load_graph()
    if args.file:
        half = args.half or "dev"
        cases = tuple(c for f in args.file for c in load_cases(f, half, origin=f"{f.stem} ({half})"))
    else:
        cases = load_cases()
    reference = whoosh_ids(graph, cases)
    systems = {"Whoosh (judge search, serve)": reference}
    if not args.no_browser and CHROMIUM.exists():
        systems["livre statique (JS)"] = static_ids(graph, cases)
    for name, results in systems.items():
        score = evaluate(top_ids(results), cases)
        same, first = parity(results, reference)
        print("\n".join(report(name, score)))
        print(f"    même top 10 que Whoosh : {same}/{len(results)}, même premier : {first}/{len(results)}"
              " (requêtes distinctes)")
        if args.verbose and results is reference:
            for case, r in score.ranks:
                if r != 1:
                    print(f"    rang {r} [{case.kind}] : {case.q!r} -> {top_ids(results)(case.q)[:5]} (attendu {case.expect})")
    print("\n".join(report("BM25 (rank-bm25, référence)", evaluate(bm25_baseline(graph), cases))))
    baseline = evaluate(substring_baseline(graph), cases)
    print(f"{'sous-chaîne (naïf)':30} MRR@10 = {baseline.mrr:.3f}   hit@3 = {baseline.hit3:.3f}   ({len(cases)} requêtes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
