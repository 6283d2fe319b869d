"""The knowledge base as a test sees it (`judge.cache`): finding it, reading its parts, and
spoiling it the way a disk or a stray write would."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def kb_file(cache: Path) -> Path:
    """The one knowledge base of a cache folder (a single configuration)."""
    (path,) = cache.glob("kb-*.sqlite")
    return path


def parts(path: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """(kind, name) -> (digest, value) of every part of the knowledge base at `path`."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {(k, n): (d, v) for k, n, d, v in db.execute("SELECT kind, name, digest, value FROM parts")}
    finally:
        db.close()


def spoil(path: Path, sql: str, args: tuple[object, ...] = ()) -> None:
    """Change the knowledge base at `path` in place with `sql` (a stray write: the file stays
    a whole SQLite database of the same format, its checksums are not updated)."""
    db = sqlite3.connect(path)
    try:
        with db:
            changed = db.execute(sql, args).rowcount
    finally:
        db.close()
    assert changed > 0, sql
