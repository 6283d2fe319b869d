"""Loading the corpus: manifest (+ user configuration) -> parsed documents -> `RuleGraph`.

Parsed documents are cached on disk, keyed by the source bytes, the manifest, the grammar
and the parser code and the package version, so that a warm `judge rule` neither re-parses
nor imports Lark. A stale key is never read; a corrupt cache file is ignored and rewritten.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import Any

from . import __version__
from .graph import RuleGraph
from .manifest import find_config
from .model import Document, Edition
from .resources import display_path, rules_dir

_PACKAGE = Path(__file__).resolve().parent
# Code whose change changes what a parse produces.
_PARSER_FILES = ("grammar.lark", "parser.py", "assemble.py", "model.py", "textio.py", "corpus.py")
CACHE_FORMAT = 1


def cache_dir() -> Path:
    """`$JUDGE_CACHE_DIR`, else `$XDG_CACHE_HOME/judge`, else `~/.cache/judge`."""
    explicit = os.environ.get("JUDGE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "judge"


def _digest(data: bytes) -> Any:
    """BLAKE2b without loading OpenSSL (hashlib's import costs a cold start several ms)."""
    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - CPython always has it, other VMs may not
        from hashlib import blake2b
    return blake2b(data, digest_size=16)


def corpus_key(editions: tuple[Edition, ...]) -> str:
    """A digest of everything a parse depends on."""
    digest = _digest(f"judge {__version__} format {CACHE_FORMAT}\n".encode())
    for name in _PARSER_FILES:
        digest.update((_PACKAGE / name).read_bytes())
    for edition in editions:
        digest.update(repr(edition).encode())
        for text in edition.texts:
            for file in text.files:
                digest.update(Path(file).read_bytes())
    return str(digest.hexdigest())


def parse_editions(editions: tuple[Edition, ...]) -> tuple[Document, ...]:
    """Parse every text of every edition (imports Lark)."""
    from .parser import parse_file

    documents: list[Document] = []
    for edition in editions:
        for text in edition.texts:
            for file in text.files:
                label = display_path(Path(file))
                documents.append(
                    parse_file(Path(file), language=text.language, edition=edition.id, label=label)
                )
    return tuple(documents)


def _read_cache(path: Path) -> Any:
    try:
        with path.open("rb") as handle:
            return pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None


def _read_documents(path: Path) -> tuple[Document, ...] | None:
    data = _read_cache(path)
    if not isinstance(data, tuple) or not all(isinstance(d, Document) for d in data):
        return None
    return data


def _write_cache(path: Path, documents: object) -> None:
    """Write to a temporary file in the same folder, then rename: readers never see half a file."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".corpus-", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(documents, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        # A read-only or full cache folder only costs speed.
        return


def load_documents(editions: tuple[Edition, ...], *, use_cache: bool = True) -> tuple[Document, ...]:
    if not use_cache:
        return parse_editions(editions)
    path = cache_dir() / f"corpus-{corpus_key(editions)}.pickle"
    cached = _read_documents(path)
    if cached is not None:
        return cached
    documents = parse_editions(editions)
    _write_cache(path, documents)
    return documents


def load_editions(config: str | None = None, *, use_cache: bool = True) -> tuple[Edition, ...]:
    """The manifest's editions plus the user's configuration.

    Cached by the bytes of both files (and the package version), so a warm start needs no TOML
    parser; file paths inside are re-checked before use.
    """
    manifest = rules_dir() / "manifest.toml"
    found = find_config(config)
    path: Path | None = None
    if use_cache:
        try:
            seed = manifest.read_bytes() + b"\0" + (found.read_bytes() if found else b"")
        except OSError:
            seed = None
        if seed is not None:
            digest = _digest(f"{__version__}\0{manifest}\0{found}\0".encode() + seed)
            path = cache_dir() / f"editions-{digest.hexdigest()}.pickle"
            cached = _read_cache(path)
            if _valid_editions(cached):
                return tuple(cached)
    from .manifest import apply_config, load_manifest

    editions = load_manifest(manifest)
    if found is not None:
        editions = apply_config(editions, found)
    if path is not None:
        _write_cache(path, editions)
    return editions


def _valid_editions(data: object) -> bool:
    return (
        isinstance(data, tuple)
        and all(isinstance(e, Edition) for e in data)
        and all(Path(f).is_file() for e in data for t in e.texts for f in t.files)
    )


def load_graph(config: str | None = None, *, use_cache: bool = True) -> RuleGraph:
    """The embedded corpus plus the user's configuration, as a cross-referenced graph."""
    editions = load_editions(config)
    return RuleGraph(editions, load_documents(editions, use_cache=use_cache))


def graph_from_editions(editions: tuple[Edition, ...], *, use_cache: bool = True) -> RuleGraph:
    return RuleGraph(editions, load_documents(editions, use_cache=use_cache))
