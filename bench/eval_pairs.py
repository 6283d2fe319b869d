"""Agreement of the 2004 -> 2010 concordance with the writers' gold pairings, and the structure check.

Usage: .venv/bin/python bench/eval_pairs.py FILE... [--half dev|sealed] [--table PATH] [--verbose]
       .venv/bin/python bench/eval_pairs.py --changed-from OLD_TABLE [--table PATH]

FILE: a writer's own file (`[[pair]]` tables, see bench/gold_pairs.py; not the halved copy in
tests/corpus, which the tests read as it is); only the chosen half is read
(even positions: dev, the default; odd: sealed — run once, at the end). `--table`: a concordance
data file to evaluate instead of the shipped one (an older `rules/concordance/2004-2010.toml`, to
compare). `--algorithm`: the algorithm alone (the texts aligned now, with the folds but without
the reviewed overrides; needs the matcher). `--verbose` lists the disagreements (never use it on the sealed half before its run).

A gold entry agrees when: removed in the gold and no counterpart in the table; else the table's
main counterpart is one of the gold's rules. `uncertain` entries are left out. Printed: agreement
by 2004 section and by change kind (the table's), by gold verdict, and the count of sub-rules of
titled rules (keywords: 2004's 502) paired under another titled rule than their own — over every
such sub-rule, not only the gold's.

`--changed-from OLD_TABLE`: how many rules of either edition have other counterparts (or
another change kind) in the table than in OLD_TABLE, by 2004 section and by change kind.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gold_pairs import GoldPair, Half, load

from judge.corpus.concordance import Concordance, family_crossings


def agrees(table: Concordance, gold: GoldPair) -> bool:
    pairs = table.counterparts(gold.source)
    if gold.verdict == "removed" or not gold.targets:
        return not pairs
    return bool(pairs) and pairs[0].target in gold.targets


def read_table(graph, path: Path | None, *, algorithm: bool = False) -> Concordance:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from judge.corpus.concordance import common_language, compute, concordance, from_table, load_table

    if algorithm:  # the algorithm alone: the shipped folds, no reviewed override (needs the matcher)
        table = replace(load_table("2004", "2010", path), overrides=())
        return compute(graph, "2004", "2010", common_language(graph, "2004", "2010"), table)
    if path is None:
        return concordance(graph, "2004", "2010")
    table = load_table("2004", "2010", path)
    assert table.computed is not None, f"{path}: no [computed] section"
    return from_table(graph, "2004", "2010", table, table.computed)


def report(table: Concordance, gold: tuple[GoldPair, ...], *, verbose: bool) -> tuple[int, int]:
    by_section: dict[str, Counter[bool]] = {}
    by_change: dict[str, Counter[bool]] = {}
    by_verdict: dict[str, Counter[bool]] = {}
    right = total = 0
    misses = []
    for entry in gold:
        if entry.verdict == "uncertain":
            continue
        ok = agrees(table, entry)
        right += ok
        total += 1
        section = entry.source.split(".")[0]
        by_section.setdefault("502" if section == "502" else f"{section[0]}xx", Counter())[ok] += 1
        by_change.setdefault(table.change_of_source(entry.source), Counter())[ok] += 1
        by_verdict.setdefault(entry.verdict, Counter())[ok] += 1
        if not ok:
            misses.append((entry, [p.target for p in table.counterparts(entry.source)]))
    print(f"agreement {right}/{total} = {right / max(total, 1):.1%} "
          f"({sum(1 for g in gold if g.verdict == 'uncertain')} uncertain left out)")
    for label, groups in (("2004 section", by_section), ("change (table)", by_change), ("gold verdict", by_verdict)):
        cells = ", ".join(f"{key} {c[True]}/{c[True] + c[False]}" for key, c in sorted(groups.items()))
        print(f"  by {label}: {cells}")
    if verbose:
        for entry, found in misses:
            print(f"    {entry.source}: gold {entry.verdict} {list(entry.targets)}, table {found}"
                  f"{'  — ' + entry.note if entry.note else ''}")
    return right, total


def changed(old: Concordance, new: Concordance) -> None:
    """Rules whose counterparts or change differ between two tables, counted."""
    by_section: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    sources = sorted({p.source for p in (*old.pairs, *new.pairs)} | set(old.removed) | set(new.removed))
    for number in sources:
        before = ([p.target for p in old.counterparts(number)], old.change_of_source(number))
        after = ([p.target for p in new.counterparts(number)], new.change_of_source(number))
        if before != after:
            section = number.split(".")[0]
            by_section["502" if section == "502" else f"{section[0]}xx"] += 1
            by_kind[f"{before[1]} -> {after[1]}"] += 1
    added = {n for n in (*old.added, *new.added) if (n in old.added) != (n in new.added)}
    print(f"2004 rules paired otherwise: {sum(by_section.values())} of {len(sources)}; "
          f"2010 rules added before or after, not both: {len(added)}")
    print("  by 2004 section: " + ", ".join(f"{k} {v}" for k, v in sorted(by_section.items())))
    print("  by change kind (old -> new): " + ", ".join(f"{k} {v}" for k, v in by_kind.most_common()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--changed-from", type=Path, help="an older concordance data file to compare with")
    parser.add_argument("--half", choices=("dev", "sealed"), default="dev")
    parser.add_argument("--table", type=Path, help="a concordance data file to evaluate instead of the shipped one")
    parser.add_argument("--algorithm", action="store_true",
                        help="the algorithm alone: align the texts now without the reviewed overrides")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    half: Half = args.half
    gold = tuple(entry for path in args.files for entry in load(path, half))
    from judge.corpus.loader import load_graph

    graph = load_graph()
    table = read_table(graph, args.table, algorithm=args.algorithm)
    if args.changed_from:
        changed(read_table(graph, args.changed_from), table)
        if not gold:
            return 0
    print(f"{table.source} -> {table.target}: {len(gold)} gold entries ({half} half of "
          f"{', '.join(p.name for p in args.files)}), table {args.table or 'shipped'}"
          f"{' (algorithm alone, no override)' if args.algorithm else ''}")
    report(table, gold, verbose=args.verbose)
    checked, crossings = family_crossings(graph, table)
    keyword = [n for n in checked if n.startswith("502.")]
    crossed = [c for c in crossings if c.source.startswith("502.")]
    print(f"keyword sub-rules (2004 502) paired under another keyword: {len(crossed)} of {len(keyword)}; "
          f"all titled rules' sub-rules: {len(crossings)} of {len(checked)}")
    for c in crossings:
        print(f"    {c.source} ({c.source_family}) -> {c.target} ({c.target_family})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
