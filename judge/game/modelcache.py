"""The parsed TOML of each game model file, cached on disk: a warm start parses no model.

`model_data(path)` returns what `tomllib` reads from a model file (tables, lists, strings,
numbers, booleans), which `judge.game.gamemodel` then validates into a `GameModel` as always:
the cache holds the parser's output only, so it depends on the file's bytes alone (and on
Python's version: marshal's format and `tomllib` are Python's), never on our code. One cache
file per model file: marshal data (loading it runs no code), read only when trusted
(`judge.cache.read_marshal`). Freshness as in the rule store (`judge.checks.store`): the
file's stamp, taken before reading it, decides at once; when it differs, the digest of the
bytes does (same digest: new stamp; else parsed again). A corrupt or planted cache file is
ignored and rewritten. A `judge check` of a JSON situation thus never imports `tomllib`.
"""

from __future__ import annotations

import marshal
import os
import sys

from judge import __version__
from judge.cache import Stamp, cache_path, digest, read_marshal, stamps, unchanged, write_atomic
from judge.errors import ManifestError

FORMAT = 1
MAGIC = b"judge game model\n"
# (format, digest of the model file's bytes, its stamp, the parsed tables)
Entry = tuple[int, str, tuple[Stamp, ...], dict[str, object]]


def model_data(path: str) -> dict[str, object]:
    """The tables of the model file at `path` (ManifestError when unreadable or not TOML)."""
    where = cache_file(path)
    entry = _read(where)
    if entry is not None and unchanged(entry[2]):
        return entry[3]
    recorded = stamps((path,))  # before the file is read: a later change shows
    from judge.inputs import MAX_CONFIG_BYTES, InputError, read_regular

    try:
        data = read_regular(path, MAX_CONFIG_BYTES)  # a regular file, bounded, never a FIFO
    except InputError as error:
        raise ManifestError(path, "", error.reason) from None
    key = str(digest(data).hexdigest())
    raw = entry[3] if entry is not None and entry[1] == key else _parse(path, data)
    try:
        packed = marshal.dumps((FORMAT, key, recorded, raw))
    except ValueError:
        return raw  # a value marshal cannot hold (a TOML date): the model refuses it anyway
    write_atomic(where, MAGIC + packed)
    return raw


def cache_file(path: str) -> str:
    """Where the parsed tables of the model file at `path` are kept."""
    seed = f"{__version__}\0{sys.implementation.cache_tag}\0{os.path.abspath(path)}"
    return cache_path(f"game-{digest(seed.encode()).hexdigest()}.marshal")


def _parse(path: str, data: bytes) -> dict[str, object]:
    from judge.inputs import (  # only when the file changed, or on a first run
        InputError,
        decode_utf8,
        parse_toml,
    )

    try:
        return parse_toml(decode_utf8(data, path), path)
    except InputError as error:
        raise ManifestError(error.path, "", error.reason) from None


def _read(where: str) -> Entry | None:
    """The cache entry at `where`, or None when absent, untrusted or corrupt."""
    entry = read_marshal(where, MAGIC)
    if not (isinstance(entry, tuple) and len(entry) == 4 and entry[0] == FORMAT
            and isinstance(entry[1], str) and isinstance(entry[2], tuple) and isinstance(entry[3], dict)
            and all(isinstance(s, tuple) and len(s) == 2 and isinstance(s[0], str) for s in entry[2])):
        return None
    return entry
