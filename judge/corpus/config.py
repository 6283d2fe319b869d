"""Which user configuration file applies: `--config FILE` or `$JUDGE_CONFIG` (nothing else).

Apart from `judge.corpus.manifest` (which reads it) so that a warm start finds the file, to
name its knowledge base (`knowledge_base`: the one cache file of a configuration), without
importing the record types (nor `pathlib`: the file is named by a string). The configuration
travels with each call: no process-wide « current » one.
"""

from __future__ import annotations

import os
import sys

from judge import __version__
from judge.cache import cache_path, digest
from judge.errors import ManifestError, os_reason
from judge.resources import rules_folder

_announced: set[str] = set()


def find_config(explicit: str | None = None) -> str | None:
    """`--config FILE`, else `$JUDGE_CONFIG`, else None: only a file the user names is read
    (never one found in the current folder). Said on stderr once per process:
    « configuration lue : CHEMIN ».

    A file named explicitly (option or variable) must be a regular file: a typo in its name
    is an error, never a silent fallback to the embedded corpus alone.
    """
    import stat

    named = explicit or os.environ.get("JUDGE_CONFIG")
    if not named:
        return None
    try:
        mode = os.stat(named).st_mode
    except FileNotFoundError:
        raise ManifestError(named, "", "fichier de configuration introuvable") from None
    except (OSError, ValueError) as exc:
        reason = os_reason(exc) if isinstance(exc, OSError) else "nom de fichier invalide"
        raise ManifestError(named, "", f"fichier de configuration illisible ({reason})") from None
    if stat.S_ISDIR(mode):
        raise ManifestError(named, "", "est un dossier, pas un fichier de configuration")
    if not stat.S_ISREG(mode):
        raise ManifestError(named, "", "n'est pas un fichier ordinaire (tube, périphérique…) : refusé")
    if named not in _announced:
        _announced.add(named)
        sys.stderr.write(f"configuration lue : {named}\n")
    return named


def _cache_of(kind: str, suffix: str, found: str | None) -> str:
    """The cache file `<kind>-<key><suffix>` of the configuration whose user file is `found`:
    one per version of judge and of Python, installed package, embedded corpus and user
    file. Its content says which inputs it was made from (their stamps, a digest)."""
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    seed = (f"{__version__}\0{sys.implementation.cache_tag}\0{package}\0"
            f"{rules_folder()}\0{found and os.path.realpath(found)}")
    return cache_path(f"{kind}-{digest(seed.encode()).hexdigest()}{suffix}")


def knowledge_base(config: str | None = None) -> str:
    """The knowledge base of this configuration (`kb-<key>.sqlite`, `judge.cache.write_kb`):
    one SQLite file holding every cache of its corpus but Whoosh's index. It travels with the
    call: a graph keeps its own (`RuleGraph.knowledge_base`); nothing remembers the last one."""
    return _cache_of("kb", ".sqlite", find_config(config))


def embedded_knowledge_base() -> str:
    """The knowledge base of the embedded corpus alone (no user file, whatever `$JUDGE_CONFIG`
    says): where the caches of the package's own files are kept (a game model, the FR↔EN
    glossary: `judge.corpus.tomlcache`), and a graph made without one names."""
    return _cache_of("kb", ".sqlite", None)
