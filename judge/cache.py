"""The on-disk cache every layer shares: where it lives, keys, stamps, safe reads and writes.

Everything judge caches, apart from Whoosh's own index folder, lives in one SQLite file per
corpus configuration, its *knowledge base* (`write_kb`, `open_kb`): the editions, the parsed
documents, the doubtful citations, the checks' rule map, the game models' tables, the
computed concordances, the rule store and the static book's search export. Values are JSON
(plain data, frozen dataclasses by class name: `to_json`, `from_json`): reading one runs no
code. A file is read only if it belongs to the current user and nobody else can write to it
(the folder is created 0700), and only when it is whole (its size is the one its header
says); any other file is ignored with one warning and rebuilt. Each value carries a checksum,
each table a part's owner adds the digest of its rows (`table_intact`).
Readers open the file read-only; a writer copies it into a temporary file in the same folder,
changes the copy, then renames it over the file (writers take turns): a reader never sees
half a file, and several processes starting at once on an empty cache each leave a complete
one.

A digest of the inputs (sources, texts) is the key of record; a *stamp* (size, times and
inode of each input, taken before the digest is computed) lets a warm start see in a few
`stat` calls that nothing changed since, without reading the inputs (see `stamps`).

Paths are `str` or `os.PathLike` (`StrPath`), handled with `os.path`; `pathlib` is imported
only where files are listed or hashed (a rebuild).
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from judge import __version__

if TYPE_CHECKING:
    import sqlite3
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


def read_trusted(path: StrPath, cap: int) -> bytes | None:
    """The bytes of `path` when `open_trusted` opens it and it holds at most `cap` bytes
    (checked on the open file, and again while reading), else None."""
    handle = open_trusted(path)
    if handle is None:
        return None
    with handle:
        try:
            if os.fstat(handle.fileno()).st_size > cap:
                _warn(path, "fichier trop grand")
                return None
            data = handle.read(cap + 1)
        except OSError:
            return None
    return data if len(data) <= cap else None


def discard(path: StrPath) -> None:
    """Remove a cache file found corrupt while it was read (past the checks made when it was
    opened), so that the next start rebuilds it."""
    import contextlib  # only on this rare path: not a warm start's import

    with contextlib.suppress(OSError):
        os.unlink(path)


def ensure_dir(folder: StrPath) -> None:
    """Create the cache folder (0700 when it is new)."""
    os.makedirs(folder, mode=0o700, exist_ok=True)


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


# ---------------------------------------------------------------------- knowledge base
# One SQLite file per corpus configuration (`judge.corpus.config.knowledge_base`): every value
# judge caches, apart from Whoosh's own index folder.
KB_FORMAT = 2
GENERATOR = "judge"
_SCHEMA = (
    # `format` (KB_FORMAT), `generator` (judge) and `judge_version`: the columns and the last
    # two rows are those of the public `meta` table (docs/sqlite.md).
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # One value per kind and name: the digest of its inputs, the value (text, JSON for most:
    # plain data, reading it runs no code) and the value's checksum.
    "CREATE TABLE parts (kind TEXT NOT NULL, name TEXT NOT NULL, digest TEXT NOT NULL,"
    " checksum TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, name))",
    # The stamps of a part's inputs (`stamps`), in order; a racy one has no signature.
    "CREATE TABLE stamps (kind TEXT NOT NULL, name TEXT NOT NULL, position INTEGER NOT NULL,"
    " path TEXT NOT NULL, size INTEGER, mtime INTEGER, ctime INTEGER, inode INTEGER,"
    " PRIMARY KEY (kind, name, position))",
)
_TABLES = ("meta", "parts", "stamps")
TABLE_PART = "table"  # a part per table an owner adds: its rows' digest (`table_intact`)
INTERNAL_TABLES = ("parts", "stamps")
# (digest of the inputs, their stamps, the value's text)
Part = tuple[str, "tuple[Stamp, ...]", str]
# A table a part's owner adds (`write_kb`): its CREATE TABLE statement, then those run once
# its rows are in (its indexes), and its rows.
Table = tuple["tuple[str, ...]", "Iterable[tuple[Any, ...]]"]


class KnowledgeBase:
    """One knowledge base file opened read-only (`open_kb`): a snapshot (the file is never
    changed in place, only replaced). Threads may share it (SQLite's serialized mode)."""

    __slots__ = ("_db", "path")

    def __init__(self, path: str, db: sqlite3.Connection) -> None:
        self.path, self._db = path, db

    def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """The rows of a query. A file found corrupt (`sqlite3.DatabaseError`, raised again)
        is removed first: the next start rebuilds it."""
        import sqlite3

        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError:
            self.discard()
            raise

    def part(self, kind: str, name: str = "") -> Part | None:
        """The part `kind`/`name`, or None when absent; one whose value does not match its
        checksum is absent too (it is written again)."""
        found = self.rows("SELECT digest, checksum, value FROM parts WHERE kind = ? AND name = ?", (kind, name))
        if not found:
            return None
        key, summed, value = found[0]
        if not isinstance(value, str) or summed != checksum(value):
            return None
        recorded = self.rows("SELECT path, size, mtime, ctime, inode FROM stamps WHERE kind = ? AND name = ?"
                             " ORDER BY position", (kind, name))
        return key, tuple((p, None if size is None else (size, m, c, i)) for p, size, m, c, i in recorded), value

    def backup(self, db: sqlite3.Connection) -> None:
        """Copy the whole file into `db` (SQLite's backup API)."""
        self._db.backup(db)

    def discard(self) -> None:
        """Remove the file, found unreadable while read: it is rebuilt next time."""
        discard(self.path)

    def close(self) -> None:
        self._db.close()


def checksum(value: str) -> str:
    """The checksum of a cached text (a part's value, a row of a part owner's table)."""
    return str(digest(value.encode("utf-8", "surrogatepass")).hexdigest())


def open_kb(path: str) -> KnowledgeBase | None:
    """The knowledge base at `path` opened read-only, or None when absent, untrusted (not the
    user's own, or writable by others: one warning), not SQLite or of another format."""
    if not os.path.exists(path) or not trusted(path) or not _whole(path):
        return None
    import sqlite3

    # A URI (the characters it gives a meaning to escaped): opened read-only, and `immutable`
    # (judge never changes the file in place, it is replaced), so no locking.
    name = path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    try:
        db = sqlite3.connect(f"file:{name}?mode=ro&immutable=1", uri=True, check_same_thread=False)
    except sqlite3.Error:
        return None
    try:
        found = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchall()
    except sqlite3.DatabaseError:
        found = []
    if found != [(str(KB_FORMAT),)]:
        db.close()
        return None
    # Its name is its configuration's key: a knowledge base copied over another's name (made
    # for another configuration) is not read as that one's.
    try:
        named = db.execute("SELECT value FROM meta WHERE key = 'name'").fetchall()
    except sqlite3.DatabaseError:
        named = []
    if named != [(os.path.basename(path),)]:
        db.close()
        if named:  # none: written by an earlier judge, rebuilt without a word
            _warn(path, "base d'une autre configuration")
        return None
    return KnowledgeBase(path, db)


def _whole(path: str) -> bool:
    """True when the file at `path` is an SQLite database of the size its header says (a file
    cut short or grown by a stray write is not read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return False
    try:
        head, size = os.read(fd, 100), os.fstat(fd).st_size
    except OSError:
        return False
    finally:
        os.close(fd)
    if len(head) < 100 or not head.startswith(b"SQLite format 3\0") or head[24:28] != head[92:96]:
        return False
    page = int.from_bytes(head[16:18], "big")
    return (65536 if page == 1 else page) * int.from_bytes(head[28:32], "big") == size


def read_part(path: str, kind: str, name: str = "") -> Part | None:
    """`KnowledgeBase.part` of the file at `path` (None when it cannot be read)."""
    kb = open_kb(path)
    if kb is None:
        return None
    import sqlite3

    try:
        return kb.part(kind, name)
    except sqlite3.DatabaseError:  # a corrupt file: removed by `rows`, the part is rebuilt
        return None
    finally:
        kb.close()


def to_json(value: Any) -> str:
    """`value` as JSON: plain data (dict keys are strings), tuples as arrays, frozen
    dataclasses as objects naming their class (`from_json` makes them again)."""
    import json

    return json.dumps(value, default=_encode, ensure_ascii=False, separators=(",", ":"))


_init_fields: dict[type, tuple[str, ...]] = {}


def _encode(value: Any) -> dict[str, Any]:
    cls = type(value)
    names = _init_fields.get(cls)
    if names is None:
        import dataclasses

        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            raise TypeError(f"not JSON: {cls.__name__}")
        names = _init_fields[cls] = tuple(f.name for f in dataclasses.fields(value) if f.init)
    out = {name: getattr(value, name) for name in names}
    out["@"] = cls.__name__
    return out


def from_json(text: str, classes: Iterable[type]) -> Any:
    """What `to_json` wrote, read back from its JSON `text`: arrays as tuples, objects naming
    one of `classes` as instances of it (ValueError: not JSON, or a class not among them, or
    fields of another shape, or nested deeper than Python reads)."""
    import json

    known = {cls.__name__: cls for cls in classes}

    def make(value: dict[str, Any]) -> Any:
        name = value.pop("@", None)
        for k, v in value.items():
            if type(v) is list:
                value[k] = _tuples(v)
        if name is None:
            return value
        return known[name](**value)

    try:
        return _tuples(json.loads(text, object_hook=make))
    except (KeyError, TypeError, RecursionError) as error:  # nested too deep: not a value we wrote
        raise ValueError(str(error) or type(error).__name__) from None


def _tuples(value: Any) -> Any:
    if type(value) is list:
        return tuple([_tuples(v) for v in value] if any(type(v) is list for v in value) else value)
    return value


def write_kb(path: str, parts: Iterable[tuple[str, str, str, tuple[Stamp, ...], str]] = (),
             tables: dict[str, Table] | None = None) -> bool:
    """Add or replace `parts` (kind, name, digest, stamps, value) in the knowledge base at
    `path`, and replace the `tables` named (a part's owner's own: CREATE statement and rows),
    atomically: the file is copied into a temporary file of the same folder, changed there,
    then renamed over it; writers take turns (a lock on the folder), so that none loses
    another's parts. False when the cache cannot be written (a read-only or full folder only
    costs speed)."""
    import contextlib
    import sqlite3
    import tempfile

    folder = os.path.dirname(path)
    try:
        ensure_dir(folder)
        with _FolderLock(folder):
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".sqlite", dir=folder)
            os.close(fd)
            try:
                db = sqlite3.connect(tmp)
                try:
                    _copy_or_create(path, db)
                    with db:
                        for kind, name, key, recorded, value in parts:
                            db.execute("INSERT OR REPLACE INTO parts VALUES (?, ?, ?, ?, ?)",
                                       (kind, name, key, checksum(value), value))
                            db.execute("DELETE FROM stamps WHERE kind = ? AND name = ?", (kind, name))
                            db.executemany("INSERT INTO stamps VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                           ((kind, name, n, p, *(signature or (None,) * 4))
                                            for n, (p, signature) in enumerate(recorded)))
                        fill_tables(db, tables or {})
                        # Each table's digest, as a part of kind `table`: a copy of the file
                        # checks it (`table_intact`) before trusting the rows.
                        db.executemany("INSERT OR REPLACE INTO parts VALUES (?, ?, ?, ?, '')",
                                       ((TABLE_PART, table, table_digest(db, table), checksum(""))
                                        for table in tables or {}))
                finally:
                    db.close()
                os.chmod(tmp, 0o600)
                os.replace(tmp, path)
            except BaseException:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
                raise
    except (OSError, sqlite3.Error):
        return False
    return True


def table_digest(db: sqlite3.Connection, table: str) -> str:
    """The digest of every row of `table` in `db`, in order (a same-size byte change shows)."""
    hashed = digest(table.encode())
    for row in db.execute(f"SELECT * FROM {table} ORDER BY rowid"):
        hashed.update(repr(row).encode("utf-8", "surrogatepass") + b"\0")
    return str(hashed.hexdigest())


def table_intact(db: sqlite3.Connection, table: str) -> bool:
    """Whether `table` of a knowledge base (or of a copy of one, `db`) still holds the rows
    whose digest `write_kb` recorded (False when none was recorded)."""
    import sqlite3

    try:
        found = db.execute("SELECT digest FROM parts WHERE kind = ? AND name = ?", (TABLE_PART, table)).fetchall()
        return bool(found) and found[0][0] == table_digest(db, table)
    except sqlite3.DatabaseError:
        return False


def fill_tables(db: sqlite3.Connection, tables: dict[str, Table]) -> None:
    """Replace (drop, create, fill, index) each of `tables` in `db`, within its transaction;
    none may be one of the knowledge base's own (`meta`, `parts`, `stamps`)."""
    for table, (statements, rows) in tables.items():
        if table in _TABLES:
            raise ValueError(table)
        db.execute(f"DROP TABLE IF EXISTS {table}")
        db.execute(statements[0])
        columns = len(db.execute(f"PRAGMA table_info({table})").fetchall())
        db.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * columns)})", rows)
        for statement in statements[1:]:
            db.execute(statement)


def _copy_or_create(path: str, db: sqlite3.Connection) -> None:
    """The current file's content copied into `db`, or a new, empty knowledge base when there
    is none readable (absent, untrusted, corrupt, of another format)."""
    import sqlite3

    db.execute("PRAGMA journal_mode = OFF")  # a temporary file: the rename is the commit
    old = open_kb(path)
    if old is not None:
        try:
            old.backup(db)
            return
        except sqlite3.DatabaseError:
            pass
        finally:
            old.close()
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            db.execute(f"DROP TABLE IF EXISTS {table}")
    with db:
        for statement in _SCHEMA:
            db.execute(statement)
        db.executemany("INSERT INTO meta VALUES (?, ?)", (("format", str(KB_FORMAT)), ("generator", GENERATOR),
                                                          ("judge_version", __version__),
                                                          ("name", os.path.basename(path))))


class _FolderLock:
    """An exclusive lock on the cache folder (`flock`: judge runs on POSIX systems)."""

    def __init__(self, folder: str) -> None:
        self.folder, self.fd = folder, -1

    def __enter__(self) -> None:
        import fcntl

        self.fd = os.open(self.folder, os.O_RDONLY)
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # releases the lock
