"""Search quality on tests/search_eval.toml: MRR@10 and hit@3, ours vs a naive substring baseline.

Run: `.venv/bin/python bench/eval_search.py [--verbose]`. The test suite imports `evaluate`
from here to assert MRR@10 >= 0.9.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from judge.corpus.graph import RuleGraph
from judge.normalize import fold

EVAL_FILE = Path(__file__).resolve().parent.parent / "tests" / "search_eval.toml"
Ranker = Callable[[str], Sequence[str]]  # query -> ranked "edition:number" keys


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    q: str
    expect: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Score:
    mrr: float
    hit3: float
    ranks: tuple[tuple[Case, int | None], ...]  # 1-based rank of the first expected hit


def load_cases(path: Path = EVAL_FILE) -> tuple[Case, ...]:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return tuple(Case(q=item["q"], expect=tuple(item["expect"])) for item in data["query"])


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
    from judge.search.engine import search

    def rank(q: str) -> list[str]:
        return [f"{h.edition}:{h.number}" for h in search(q, graph=graph, limit=10).hits]

    return rank


def substring_baseline(graph: RuleGraph) -> Ranker:
    """Rules whose folded title + text contain the folded query, in corpus order."""
    docs = [(f"{r.edition}:{r.number}", fold(f"{r.title or ''} {r.text}")) for r in graph.all_rules()]

    def rank(q: str) -> list[str]:
        needle = fold(q)
        return [key for key, text in docs if needle in text]

    return rank


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--verbose", action="store_true", help="list the queries that miss the top 1")
    args = parser.parse_args(argv)
    from judge.corpus.loader import load_graph

    graph = load_graph()
    cases = load_cases()
    for name, ranker in (("judge search", ours(graph)), ("substring baseline", substring_baseline(graph))):
        score = evaluate(ranker, cases)
        print(f"{name:20} MRR@10 = {score.mrr:.3f}   hit@3 = {score.hit3:.3f}   ({len(cases)} queries)")
        if args.verbose and name == "judge search":
            for case, r in score.ranks:
                if r != 1:
                    print(f"    rank {r}: {case.q!r} -> {ranker(case.q)[:5]} (expected {case.expect})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
