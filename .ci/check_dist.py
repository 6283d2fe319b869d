"""Check what `python -m build` wrote in dist/: the sdist holds every file of the corpus
(rules/), the templates and the docs that git tracks, the changelog and the README; the wheel
holds the corpus and the templates as package data. Usage: python .ci/check_dist.py dist"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path


def main(dist: Path) -> int:
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    with tarfile.open(sdist) as archive:
        top = archive.getnames()[0].split("/")[0]
        in_sdist = {name.removeprefix(top + "/") for name in archive.getnames()}
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())
    tracked = subprocess.run(["git", "ls-files", "rules", "templates", "docs"], capture_output=True, text=True,
                             check=True).stdout.split()
    missing = [f"sdist : {name}" for name in [*tracked, "README.md", "CHANGELOG.md", "pyproject.toml"]
               if name not in in_sdist]
    for name in tracked:
        if name.startswith("rules/") and name.endswith((".txt", ".toml")):
            missing += [f"roue : {name}"] if "judge/_rules/" + name.removeprefix("rules/") not in in_wheel else []
        if name.startswith("templates/"):
            missing += [f"roue : {name}"] if "judge/_templates/" + name.removeprefix("templates/") not in in_wheel else []
    if not tracked or missing:
        print("absent de la distribution :\n  " + "\n  ".join(missing or ["(git ls-files ne liste rien)"]))
        return 1
    print(f"{sdist.name} : {len(tracked)} fichiers du corpus, des gabarits et de la doc ; {wheel.name} : "
          f"{len(in_wheel)} fichiers")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
