"""Benchmark: `judge ask`'s reader (`judge.ask.reader.read`) over the questions of
tests/ask/questions.toml.

Run by hand: `python bench/bench_ask.py [--rounds N]`. Prints the CPU time per question
(`time.process_time`, best and median of the rounds: the machine is shared) and the Python
function calls per question (counted under `cProfile` in a separate pass: what a tracer such as
coverage pays for), with the longest question's time. The grammar is loaded before timing.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
import tomllib
from pathlib import Path

from judge.ask.reader import parser, read

QUESTIONS_FILE = Path(__file__).resolve().parent.parent / "tests" / "ask" / "questions.toml"


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--rounds", type=int, default=3, help="passes over the questions (default 3)")
    args = options.parse_args(argv)
    questions = [item["q"] for item in tomllib.loads(QUESTIONS_FILE.read_text(encoding="utf-8"))["question"]]
    parser()
    read(questions[0])
    rounds, longest = [], 0.0
    for _ in range(max(args.rounds, 1)):
        start = time.process_time()
        for question in questions:
            one = time.process_time()
            read(question)
            longest = max(longest, time.process_time() - one)
        rounds.append((time.process_time() - start) / len(questions))
    profile = cProfile.Profile()
    profile.enable()
    for question in questions:
        read(question)
    profile.disable()
    calls = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]
    print(f"{len(questions)} questions, {len(rounds)} rounds: CPU per question best {min(rounds) * 1000:.1f} ms, "
          f"median {statistics.median(rounds) * 1000:.1f} ms; longest {longest * 1000:.1f} ms; "
          f"{calls / len(questions):,.0f} Python calls per question")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
