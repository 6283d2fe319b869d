"""The same answers from judge installed under different Pythons or dependency versions: each
`judge` given runs the commands a judge types first (`rule`, `search`, `check` on every example,
`ask`, `build`), each with a cache of its own; their exit codes, outputs and built books (every
file's bytes) must be equal. Prints what differs and exits 1, else one line per command.

    python .ci/same_output.py .venv/bin/judge .venv-3.12/bin/judge ~/.local/bin/judge ...
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "Mon adversaire peut-il lancer un éphémère pendant mon étape d'entretien ?"
COMMANDS = [
    ["rule", "300.3"],
    ["search", "brulure de mana"],
    *[["check", str(path)] for path in sorted((ROOT / "examples").glob("*.toml"))],
    ["ask", QUESTION],
    ["build", "--out", "{out}"],
]


# The search index's cache key (and what is made from its digest: its file's name, the service
# worker's version, the name of the offline file list that lists it) covers the paths of the
# installed texts: it names the installation, not what the book says; masked.
KEY = re.compile(rb'index-[0-9a-f]{8}-[0-9a-f]{24}|index\.[0-9a-f]{10}\.js|offline-files\.[0-9a-f]{10}\.js'
                 rb'|VERSION = "[0-9a-f]{16}"')


def _book(folder: Path) -> str:
    """One digest of every file of a built book (its path and bytes, the index key masked)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = KEY.sub(b"KEY", str(path.relative_to(folder)).encode())
        digest.update(name + b"\0" + KEY.sub(b"KEY", path.read_bytes()))
    return digest.hexdigest()[:16]


def _answers(judge: str) -> list[tuple[int, str]]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {"PATH": "/usr/bin:/bin", "JUDGE_CACHE_DIR": f"{tmp}/cache", "COLUMNS": "100",
               "LANG": "C.UTF-8", "HOME": tmp}
        for command in COMMANDS:
            args = [part.format(out=f"{tmp}/site") for part in command]
            done = subprocess.run([judge, *args], capture_output=True, text=True, env=env, timeout=900,
                                  cwd=ROOT)
            text = done.stdout.replace(tmp, "TMP")
            if command[0] == "build" and done.returncode == 0:
                text += f"livre : {_book(Path(tmp) / 'site')}\n"
            out.append((done.returncode, text))
    return out


def main(judges: list[str]) -> int:
    results = {judge: _answers(judge) for judge in judges}
    first = judges[0]
    failed = 0
    for i, command in enumerate(COMMANDS):
        name = " ".join(part.replace(str(ROOT) + "/", "") for part in command)
        differ = [judge for judge in judges[1:] if results[judge][i] != results[first][i]]
        code = results[first][i][0]
        if differ:
            failed = 1
            print(f"DIFFÈRE : judge {name} : {first} ≠ {', '.join(differ)}")
            for judge in [first, *differ]:
                print(f"--- {judge} (code {results[judge][i][0]})\n{results[judge][i][1][:2000]}")
        else:
            print(f"identique ({len(judges)} installations, code {code}) : judge {name}")
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
