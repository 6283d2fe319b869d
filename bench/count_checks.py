"""Instruction counts of one pass over the test situations, under callgrind. Run by hand.

    .venv/bin/python bench/count_checks.py [full|check|replays|plain] [TREE ...]

For each TREE (a checkout of judge, this one by default), runs `valgrind --tool=callgrind`
over one warm-up pass of tests/situations (not derived/), then one measured pass: `full` is
the line of bench_checks.py (load + check + JSON), `check` checking loaded situations,
`replays` only those with events, `plain` only those without. Only the measured pass is
counted (it runs inside `functools.reduce`, callgrind's `--toggle-collect`), so the machine's
load does not change the figures: compare two commits (two trees) in one run. Prints the
instructions of the pass and the callgrind file, for `callgrind_annotate`.
"""

from __future__ import annotations

import functools
import subprocess
import sys
import tempfile
from pathlib import Path

MODES = ("full", "check", "replays", "plain")


def _measured(root: Path, mode: str) -> None:
    """In the child process under callgrind: warm up, then the measured pass."""
    sys.path.insert(0, str(root))
    from bench_checks import situation_texts  # beside this script (sys.path[0])

    from judge.checks.report import check, report_json
    from judge.corpus.loader import load_graph
    from judge.game.situation import load_situation

    graph = load_graph()
    texts = situation_texts(root)
    loaded = [load_situation(text, fmt="json") for text in texts]
    if mode == "replays":
        loaded = [s for s in loaded if s.events]
    elif mode == "plain":
        loaded = [s for s in loaded if not s.events]

    def one(*_: object) -> None:
        if mode == "full":
            for text in texts:
                report_json(check(graph, load_situation(text, fmt="json")))
        else:
            for situation in loaded:
                check(graph, situation)

    one()  # warm-up: imports, caches
    functools.reduce(one, range(1), None)  # the measured pass (callgrind --toggle-collect)


def _count(tree: Path, mode: str, out: Path) -> int:
    subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no",
                    "--toggle-collect=functools_reduce", f"--callgrind-out-file={out}",
                    sys.executable, __file__, "--child", mode, str(tree)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for line in out.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise SystemExit(f"pas de total dans {out}")


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        _measured(Path(sys.argv[3]), sys.argv[2])
        return
    mode = sys.argv[1] if len(sys.argv) > 1 else "full"
    if mode not in MODES:
        raise SystemExit(f"mode inconnu « {mode} » (modes : {', '.join(MODES)})")
    trees = [Path(t).resolve() for t in sys.argv[2:]] or [Path(__file__).resolve().parent.parent]
    folder = Path(tempfile.mkdtemp(prefix="judge-callgrind-"))
    for number, tree in enumerate(trees):
        out = folder / f"callgrind.{number}.{mode}"
        count = _count(tree, mode, out)
        print(f"{tree} — {mode} : {count:,} instructions ({out})".replace(",", "\u202f"))


if __name__ == "__main__":
    main()
