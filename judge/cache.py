"""The on-disk cache every layer shares: where it lives, keys, stamps, safe reads and writes.

Most values are pickled, so a cache file is code as much as data: a file is read only if it
belongs to the current user and nobody else can write to it (the folder is created 0700);
any other file is ignored with one warning and rebuilt. Writes go to a temporary file in
the same folder, then are renamed: a reader never sees half a file, and several processes
starting at once on an empty cache each leave a complete file.

A digest of the inputs (sources, texts) is the key of record; a *stamp* (size, times and
inode of each input, taken before the digest is computed) lets a warm start see in a few
`stat` calls that nothing changed since, without reading the inputs (see `stamps`).

Paths are `str` or `os.PathLike` (`StrPath`), handled with `os.path`; `pathlib` is imported
only where files are listed or hashed (a rebuild).
"""

from __future__ import annotations

import marshal
import os
import time
from typing import TYPE_CHECKING

from judge import __version__

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path
    from typing import IO, Any

    StrPath = str | os.PathLike[str]

_PACKAGE = os.path.dirname(os.path.realpath(__file__))
_CODE_SUFFIXES = (".py", ".lark")
_warned: set[str] = set()


def cache_folder() -> str:
    """`$JUDGE_CACHE_DIR`, else `$XDG_CACHE_HOME/judge`, else `~/.cache/judge`."""
    explicit = os.environ.get("JUDGE_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "judge")


def cache_dir() -> Path:
    """The cache folder (`cache_folder`) as a `Path`."""
    from pathlib import Path

    return Path(cache_folder())


def cache_path(name: str) -> str:
    """The file `name` of the cache folder, as a string (no `pathlib` on warm paths)."""
    return os.path.join(cache_folder(), name)


def digest(data: bytes = b"") -> Any:
    """A 128-bit BLAKE2b hash object of `data` (more can be added with `update`)."""
    import hashlib

    return hashlib.blake2b(data, digest_size=16)


def code_digest(*subpackages: str) -> Any:
    """A digest of the package version and every source file of these subpackages.

    Derived from the files themselves, so adding, renaming or removing a module changes the
    key and can never make a lookup fail.
    """
    from pathlib import Path

    package = Path(_PACKAGE)
    hashed = digest(f"judge {__version__}\n".encode())
    for name in subpackages:
        for path in _code_files(package / name):
            hashed.update(str(path.relative_to(package)).encode() + b"\0")
            hashed.update(path.read_bytes())
    return hashed


def _code_files(folder: Path) -> list[Path]:
    return [p for p in sorted(folder.rglob("*")) if p.suffix in _CODE_SUFFIXES and p.is_file()]


def code_inputs(*subpackages: str) -> tuple[Path, ...]:
    """The package's top-level modules and every source file of these subpackages, with the
    folders (a new module shows in its folder's stamp): inputs for `stamps` and `inputs_digest`."""
    from pathlib import Path

    package = Path(_PACKAGE)
    out: list[Path] = [package, *sorted(package.glob("*.py"))]
    for name in subpackages:
        folder = package / name
        out.extend(sorted({folder, *(p for p in folder.rglob("*") if p.is_dir() and p.name != "__pycache__")}))
        out.extend(_code_files(folder))
    return tuple(out)


def inputs_digest(seed: str, paths: tuple[Path, ...]) -> str:
    """A digest of `seed`, the package version and the bytes of every file of `paths` (folders
    count by name: their files are listed too). A missing file counts as empty."""
    hashed = digest(f"judge {__version__}\n{seed}\n".encode())
    for path in paths:
        hashed.update(str(path).encode() + b"\0")
        try:
            data = path.read_bytes() if path.is_file() else b""
        except OSError:
            data = b"\1unreadable"
        hashed.update(len(data).to_bytes(8, "little") + data)
    return str(hashed.hexdigest())


def _warn(path: StrPath, why: str) -> None:
    key = os.path.dirname(os.fspath(path))
    if key in _warned:
        return
    _warned.add(key)
    # A library does not print: the warning is logged. With no logging set up (the `judge`
    # command), Python writes it to stderr as it is.
    import logging  # only on this rare path

    logging.getLogger("judge.cache").warning("judge : cache ignoré (%s) : %s — il sera reconstruit", why,
                                             os.fspath(path))


def _trusted_info(path: StrPath, info: os.stat_result) -> bool:
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        _warn(path, "fichier appartenant à un autre utilisateur")
        return False
    if info.st_mode & 0o022:
        _warn(path, "fichier modifiable par d'autres utilisateurs")
        return False
    return True


def trusted(path: StrPath) -> bool:
    """True when `path` is a regular file or a folder, ours and writable by nobody else (group
    and others): a FIFO or a device planted in the cache folder is never read."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return False
    if info.st_mode & 0o170000 not in (0o100000, 0o040000):
        _warn(path, "ni fichier ordinaire ni dossier")
        return False
    return _trusted_info(path, info)


def open_trusted(path: StrPath) -> IO[bytes] | None:
    """`path` opened for reading when it is a regular file we trust (checked on the open file
    itself, so it cannot be swapped in between), else None."""
    # Opened without blocking (a FIFO planted in the cache folder would block a plain open
    # until someone writes to it), then checked to be a regular file before any read.
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not (info.st_mode & 0o170000 == 0o100000 and _trusted_info(path, info)):
            os.close(fd)
            return None
        os.set_blocking(fd, True)
        # The file object keeps the path as its name (the store names it in its messages).
        return open(path, "rb", opener=lambda _path, _flags: fd)
    except OSError:
        os.close(fd)
        return None


def read_pickle(path: StrPath) -> Any:
    """The cached value at `path`, or None when absent, unreadable, corrupt or untrusted."""
    handle = open_trusted(path)
    if handle is None:
        return None
    import pickle  # not on the warm paths of `judge rule` and `judge check` (marshal store)

    with handle:
        try:
            return pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError,
                ValueError, IndexError):
            return None


def read_marshal(path: StrPath, magic: bytes = b"") -> Any:
    """The marshalled value after `magic` in the file at `path` (plain data: loading it calls
    no function), or None when absent, untrusted, of another kind or corrupt."""
    handle = open_trusted(path)
    if handle is None:
        return None
    with handle:
        try:
            if handle.read(len(magic)) != magic:
                return None
            return marshal.loads(handle.read())
        except (OSError, EOFError, ValueError, TypeError):
            return None


def discard(path: StrPath) -> None:
    """Remove a cache file found corrupt while it was read (past the checks made when it was
    opened), so that the next start rebuilds it."""
    import contextlib  # only on this rare path: not a warm start's import

    with contextlib.suppress(OSError):
        os.unlink(path)


def ensure_dir(folder: StrPath) -> None:
    """Create the cache folder (0700 when it is new)."""
    os.makedirs(folder, mode=0o700, exist_ok=True)


def write_atomic(path: StrPath, data: bytes) -> None:
    """Write to a temporary file in the same folder, then rename (atomic on POSIX)."""
    import contextlib
    import tempfile

    folder = os.path.dirname(os.fspath(path))
    try:
        ensure_dir(folder)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=os.path.splitext(os.fspath(path))[1], dir=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
    except OSError:
        # A read-only or full cache folder only costs speed.
        return


def write_pickle(path: StrPath, value: object) -> None:
    """`value` pickled, written as `write_atomic` does."""
    import pickle

    write_atomic(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


# ---------------------------------------------------------------------- stamps
# A file changed less than this before its stamp was taken may change again within the same
# tick of the file system's clock without its times moving: its stamp never matches, so the
# digest decides (as git does for "racily clean" files).
_RACY_NS = 2_000_000_000
Stamp = tuple[str, "tuple[int, int, int, int] | None"]


def stamps(paths: Iterable[StrPath]) -> tuple[Stamp, ...]:
    """Size, modification and change times and inode of each path (file or folder: a folder's
    times move when an entry is added, removed or renamed). Take them *before* reading the
    files for a digest: a change made after that shows as a different stamp."""
    now = time.time_ns()
    out: list[Stamp] = []
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            out.append((os.fspath(path), None))
            continue
        recent = max(info.st_mtime_ns, info.st_ctime_ns) > now - _RACY_NS
        out.append((os.fspath(path), None if recent else _signature(info)))
    return tuple(out)


def _signature(info: os.stat_result) -> tuple[int, int, int, int]:
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)


def unchanged(recorded: tuple[Stamp, ...]) -> bool:
    """True when every path still has its recorded stamp (a racy or missing one never does)."""
    for path, signature in recorded:
        if signature is None:
            return False
        try:
            if _signature(os.stat(path)) != signature:
                return False
        except OSError:
            return False
    return True
