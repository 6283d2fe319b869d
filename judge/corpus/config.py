"""Which user configuration file applies: `--config FILE`, `$JUDGE_CONFIG` or `./judge.toml`.

Apart from `judge.corpus.manifest` (which reads it) so that a warm start finds the file, to
name its caches, without importing the record types (nor `pathlib`: the file is named by a
string).
"""

from __future__ import annotations

import os

from judge.errors import ManifestError

CONFIG_NAME = "judge.toml"


def find_config(explicit: str | None = None) -> str | None:
    """`--config FILE`, else `$JUDGE_CONFIG`, else `./judge.toml` if present (as named, or
    absolute for `./judge.toml`; `os.path.realpath` of it names its caches).

    A file named explicitly (option or variable) must exist: a typo in its name is an error,
    never a silent fallback to the embedded corpus alone.
    """
    named = explicit or os.environ.get("JUDGE_CONFIG")
    if named:
        if not os.path.isfile(named):
            raise ManifestError(named, "", "fichier de configuration introuvable")
        return named
    local = os.path.join(os.getcwd(), CONFIG_NAME)
    return local if os.path.isfile(local) else None
