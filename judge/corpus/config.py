"""Which user configuration file applies: `--config FILE`, `$JUDGE_CONFIG` or `./judge.toml`.

Apart from `judge.corpus.manifest` (which reads it) so that a warm start finds the file, to
name its caches, without importing the record types (nor `pathlib`: the file is named by a
string).
"""

from __future__ import annotations

import os
import sys

from judge import __version__
from judge.cache import cache_path, digest
from judge.errors import ManifestError
from judge.resources import rules_folder

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


def configured_cache(kind: str, suffix: str, config: str | None = None) -> str:
    """The cache file `<kind>-<key><suffix>` of this configuration: one per version of judge
    and of Python (marshal's format is Python's), installed package, embedded corpus and user
    file. Its content says which inputs it was made from (their stamps, a digest)."""
    found = find_config(config)
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    seed = (f"{__version__}\0{sys.implementation.cache_tag}\0{package}\0"
            f"{rules_folder()}\0{found and os.path.realpath(found)}")
    return cache_path(f"{kind}-{digest(seed.encode()).hexdigest()}{suffix}")
