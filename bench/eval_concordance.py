"""Concordance quality on the hand-made gold list of the turn-structure chapter (2004 -> 2010).

Run: `.venv/bin/python bench/eval_concordance.py [--verbose]`. Prints precision and recall with
the reviewed overrides and without them (the algorithm alone). The test suite imports
`load_gold` and `evaluate` from here to assert precision and recall >= 0.95.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from judge.corpus.concordance import Concordance
from judge.corpus.numbers import sort_key

GOLD_FILE = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "gold_concordance_2004_2010.toml"
Item = tuple[str | None, str | None]  # (old rule, new rule); None: removed / added


@dataclass(frozen=True, slots=True, kw_only=True)
class Gold:
    old_sections: tuple[int, int]
    new_sections: tuple[int, int]
    items: frozenset[Item]
    uncertain: frozenset[Item]

    def in_scope(self, item: Item) -> bool:
        old, new = item
        return (old is not None and self.old_sections[0] <= sort_key(old)[0] <= self.old_sections[1]) or (
            new is not None and self.new_sections[0] <= sort_key(new)[0] <= self.new_sections[1])


@dataclass(frozen=True, slots=True, kw_only=True)
class Score:
    precision: float
    recall: float
    predicted: int
    expected: int
    false_positives: tuple[Item, ...]
    false_negatives: tuple[Item, ...]


def load_gold(path: Path = GOLD_FILE) -> Gold:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    items = {(p["from"], p["to"]) for p in data["pair"]}
    items |= {(r["number"], None) for r in data.get("removed", [])}
    items |= {(None, a["number"]) for a in data.get("added", [])}
    uncertain = {(u["from"], u["to"]) if "from" in u else (None, u["added"]) for u in data.get("uncertain", [])}
    return Gold(old_sections=tuple(data["scope"]["from"]), new_sections=tuple(data["scope"]["to"]),  # type: ignore[arg-type]
                items=frozenset(items), uncertain=frozenset(uncertain))


def predicted(table: Concordance) -> frozenset[Item]:
    items: set[Item] = {(p.source, p.target) for p in table.pairs}
    items |= {(n, None) for n in table.removed}
    items |= {(None, n) for n in table.added}
    return frozenset(items)


def evaluate(table: Concordance, gold: Gold) -> Score:
    found = {item for item in predicted(table) if gold.in_scope(item)} - gold.uncertain
    right = found & gold.items
    return Score(
        precision=len(right) / len(found) if found else 0.0,
        recall=len(right) / len(gold.items) if gold.items else 0.0,
        predicted=len(found), expected=len(gold.items),
        false_positives=tuple(sorted(found - gold.items, key=str)),
        false_negatives=tuple(sorted(gold.items - found, key=str)),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--verbose", action="store_true", help="list the misses")
    args = parser.parse_args()
    from judge.corpus.concordance import common_language, compute, load_table
    from judge.corpus.loader import load_graph

    graph = load_graph()
    gold = load_gold()
    table = load_table("2004", "2010")
    language = common_language(graph, "2004", "2010")
    for label, used in (("with the reviewed overrides", table), ("algorithm alone", replace(table, overrides=()))):
        score = evaluate(compute(graph, "2004", "2010", language, used), gold)
        print(f"{label:<28} precision {score.precision:.3f}  recall {score.recall:.3f}  "
              f"({score.predicted} predicted, {score.expected} gold items, {len(gold.uncertain)} uncertain ignored)")
        if args.verbose:
            for item in score.false_positives:
                print(f"    false positive {item}")
            for item in score.false_negatives:
                print(f"    false negative {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
