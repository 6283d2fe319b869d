"""Which user configuration file applies: `--config FILE`, `$JUDGE_CONFIG` or `./judge.toml`.

Apart from `judge.corpus.manifest` (which reads it) so that a warm start finds the file, to
name its caches, without importing the record types.
"""

from __future__ import annotations

import os
from pathlib import Path

from judge.errors import ManifestError

CONFIG_NAME = "judge.toml"


def find_config(explicit: str | None = None) -> Path | None:
    """`--config FILE`, else `$JUDGE_CONFIG`, else `./judge.toml` if present.

    A file named explicitly (option or variable) must exist: a typo in its name is an error,
    never a silent fallback to the embedded corpus alone.
    """
    named = explicit or os.environ.get("JUDGE_CONFIG")
    if named:
        path = Path(named)
        if not path.is_file():
            raise ManifestError(named, "", "fichier de configuration introuvable")
        return path
    local = Path.cwd() / CONFIG_NAME
    return local if local.is_file() else None
