"""The README's figures against the real thing: the size of a fresh environment holding judge's
wheel and its runtime dependencies (« L'installation par défaut pèse environ N Mo »), and the
Python versions it names against pyproject's classifiers.

    python .ci/check_readme.py VENV    (VENV: a new venv where only the wheel was installed)
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOLERANCE = 0.15  # the README rounds; an environment differs a little between Pythons


def size_of(folder: Path) -> int:
    return sum(path.lstat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def main(venv: Path) -> int:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    problems = []
    claimed = re.search(r"pèse environ (\d+) Mo", readme)
    measured = size_of(venv) / 1e6
    if claimed is None:
        problems.append("README : la phrase « pèse environ N Mo » est introuvable")
    elif abs(int(claimed.group(1)) - measured) > TOLERANCE * measured:
        problems.append(f"README : « environ {claimed.group(1)} Mo », mesuré {measured:.0f} Mo ({venv})")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    versions = sorted(c.rsplit(" :: ", 1)[1] for c in project["classifiers"]
                      if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    named = re.search(r"^Python (3\.\d+) à (3\.\d+)", readme, re.M)
    if named is None or (named.group(1), named.group(2)) != (versions[0], versions[-1]):
        problems.append(f"README : « Python {versions[0]} à {versions[-1]} » attendu (classificateurs)")
    print(f"environnement de la roue : {measured:.0f} Mo ; Pythons : {', '.join(versions)}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
