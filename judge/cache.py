"""The on-disk cache every layer shares: where it lives, keys, and safe reads and writes.

Values are pickled, so a cache file is code as much as data: a file is read only if it
belongs to the current user and nobody else can write to it (the folder is created 0700);
any other file is ignored with one warning and rebuilt. Writes go to a temporary file in
the same folder, then are renamed: a reader never sees half a file, and several processes
starting at once on an empty cache each leave a complete file.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

from judge import __version__

_PACKAGE = Path(__file__).resolve().parent
_CODE_SUFFIXES = (".py", ".lark")
_warned: set[str] = set()


def cache_dir() -> Path:
    """`$JUDGE_CACHE_DIR`, else `$XDG_CACHE_HOME/judge`, else `~/.cache/judge`."""
    explicit = os.environ.get("JUDGE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "judge"


def digest(data: bytes = b"") -> Any:
    """A BLAKE2b hash object, without loading OpenSSL (hashlib's import costs a cold start)."""
    from _blake2 import blake2b

    return blake2b(data, digest_size=16)


def code_digest(*subpackages: str) -> Any:
    """A digest of the package version and every source file of these subpackages.

    Derived from the files themselves, so adding, renaming or removing a module changes the
    key and can never make a lookup fail.
    """
    hashed = digest(f"judge {__version__}\n".encode())
    for name in subpackages:
        folder = _PACKAGE / name
        for path in sorted(folder.rglob("*")):
            if path.suffix in _CODE_SUFFIXES and path.is_file():
                hashed.update(str(path.relative_to(_PACKAGE)).encode() + b"\0")
                hashed.update(path.read_bytes())
    return hashed


def _warn(path: Path, why: str) -> None:
    key = str(path.parent)
    if key in _warned:
        return
    _warned.add(key)
    # A library does not print: the warning is logged. With no logging set up (the `judge`
    # command), Python writes it to stderr as it is.
    import logging  # only on this rare path: logging costs a cold start milliseconds

    logging.getLogger("judge.cache").warning("judge : cache ignoré (%s) : %s — il sera reconstruit", why, path)


def trusted(path: Path) -> bool:
    """True when `path` is ours and writable by nobody else (group and others)."""
    try:
        info = path.stat()
    except OSError:
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        _warn(path, "fichier appartenant à un autre utilisateur")
        return False
    if info.st_mode & 0o022:
        _warn(path, "fichier modifiable par d'autres utilisateurs")
        return False
    return True


def read_pickle(path: Path) -> Any:
    """The cached value at `path`, or None when absent, unreadable, corrupt or untrusted."""
    if not path.is_file() or not trusted(path):
        return None
    try:
        with path.open("rb") as handle:
            return pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError,
            ValueError, IndexError):
        return None


def ensure_dir(folder: Path) -> None:
    """Create the cache folder (0700 when it is new)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)


def write_pickle(path: Path, value: object) -> None:
    """Write to a temporary file in the same folder, then rename (atomic on POSIX)."""
    try:
        ensure_dir(path.parent)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".pickle", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        # A read-only or full cache folder only costs speed.
        return
