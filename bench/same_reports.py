"""Every situation file's reports, written to a folder, or compared byte for byte with a folder
written before: what a change of the engine's inside (not of its behaviour) must leave as it was.

For each situation file of examples/, tests/ and bench/sealed/ (TOML or JSON), the text of
`judge check FILE` and of `judge check --json FILE` (or the error it prints), and, for a file
with `expect` or `expect_error` (the derived situations), the same for the file without those
keys. Run: `.venv/bin/python bench/same_reports.py write DIR` before the change,
`.venv/bin/python bench/same_reports.py compare DIR` after (exit 1 on any difference).
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

from judge.checks.report import check, report_json, report_text
from judge.checks.store import load_store
from judge.errors import JudgeError
from judge.game.situation import load_situation, load_situation_file

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("examples", "tests", "bench/sealed")
NOT_SITUATIONS = ("questions.toml", "search_eval.toml")


def situation_files() -> list[Path]:
    """Every TOML or JSON file under the folders that holds a situation (its `edition` key)."""
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".toml", ".json") or path.name in NOT_SITUATIONS:
                continue
            try:
                text = path.read_text(encoding="utf-8")
                data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
            except (UnicodeDecodeError, ValueError):
                continue  # not a situation (a hostile test's data): nothing to compare
            if isinstance(data, dict) and "edition" in data:
                found.append(path)
    return found


def _both(catalogue: object, load: object) -> str:
    """What `judge check` prints, then what `judge check --json` prints (or the error)."""
    try:
        report = check(catalogue, load())  # type: ignore[arg-type, operator]
    except JudgeError as error:
        return f"erreur {type(error).__name__} : {error}\n"
    return (report_text(report) + "\n" + "-" * 8 + "\n"
            + json.dumps(report_json(report), ensure_ascii=False, indent=2) + "\n")


def reports() -> Iterator[tuple[str, str]]:
    catalogue = load_store(None).catalogue
    for path in situation_files():
        name = str(path.relative_to(ROOT))
        yield name, _both(catalogue, lambda p=path: load_situation_file(str(p)))
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
        if "expect" in data or "expect_error" in data:
            data.pop("expect", None)
            data.pop("expect_error", None)
            plain = json.dumps(data)
            yield name + ".derived", _both(
                catalogue, lambda t=plain, n=name: load_situation(t, source=n, fmt="json"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("write", "compare"))
    parser.add_argument("folder", type=Path)
    args = parser.parse_args()
    count = differ = 0
    for name, output in reports():
        count += 1
        target = args.folder / (name.replace("/", "__") + ".out")
        if args.mode == "write":
            args.folder.mkdir(parents=True, exist_ok=True)
            target.write_text(output, encoding="utf-8")
        elif not target.exists() or target.read_text(encoding="utf-8") != output:
            differ += 1
            print(f"différent : {name}")
    if args.mode == "compare":
        written = len(list(args.folder.glob("*.out")))
        print(f"{count} rapports comparés ({written} écrits avant) : {differ} différent(s)")
        return 1 if differ or written != count else 0
    print(f"{count} rapports écrits dans {args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
