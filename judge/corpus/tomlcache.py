"""The parsed TOML of the corpus's data files (game models, the FR↔EN terminology), cached
on disk: a warm start parses no TOML.

`toml_data(path)` returns what `tomllib` reads from the file (tables, lists, strings,
numbers, booleans), which its reader then validates as always (`judge.game.gamemodel` into a
`GameModel`, `judge.corpus.lexicon` into `GlossaryTerm`s): the cache holds the parser's output
only, so it depends on the file's bytes alone, never on our code. One part of the knowledge
base (`judge.cache.write_kb`) per file, named by its path: the tables as JSON (reading them
runs no code). Freshness as in the rule store
(`judge.checks.store`): the file's stamp, taken before reading it, decides at once; when it
differs, the digest of the bytes does (same digest: new stamp; else parsed again). A corrupt
or planted part is ignored and rewritten. A `judge check` of a JSON situation and a warm
`judge search` thus never import `tomllib`.
"""

from __future__ import annotations

import os

from judge.cache import Part, digest, read_part, stamps, unchanged, write_kb
from judge.corpus.config import embedded_knowledge_base
from judge.errors import ManifestError

KIND = "toml"


def toml_data(path: str, *, cached: bool = True) -> dict[str, object]:
    """The tables of the TOML file at `path` (ManifestError when unreadable or not TOML).
    `cached=False`: the file parsed again and its part written over — what a reader does when
    the cached tables fail its checks (a planted or stray value must not be blamed on the
    file, nor refused at every run)."""
    where, name = embedded_knowledge_base(), os.path.abspath(path)
    entry = read_part(where, KIND, name) if cached else None
    tables = _tables(entry)
    if entry is not None and tables is not None and unchanged(entry[1]):
        return tables
    recorded = stamps((path,))  # before the file is read: a later change shows
    from judge.inputs import MAX_CONFIG_BYTES, InputError, read_regular

    try:
        data = read_regular(path, MAX_CONFIG_BYTES)  # a regular file, bounded, never a FIFO
    except InputError as error:
        raise ManifestError(path, "", error.reason) from None
    key = str(digest(data).hexdigest())
    raw = tables if entry is not None and tables is not None and entry[0] == key else _parse(path, data)
    import json

    try:
        text = json.dumps(raw, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return raw  # a value JSON cannot hold (a TOML date): the model refuses it anyway
    write_kb(where, [(KIND, name, key, recorded, text)])
    return raw


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


def _tables(entry: Part | None) -> dict[str, object] | None:
    """The tables of a part, or None when absent or not a table."""
    if entry is None:
        return None
    import json

    try:
        tables = json.loads(entry[2])
    except (ValueError, RecursionError):  # nested deeper than Python reads: not what we wrote
        return None
    return tables if isinstance(tables, dict) else None
