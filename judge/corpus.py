"""Loading the corpus: manifest (+ user configuration) -> parsed documents -> `RuleGraph`.

Parsed documents are cached on disk, keyed by the source bytes, the manifest, the grammar
and the parser code and the package version, so that a warm `judge rule` neither re-parses
nor imports Lark. A stale key is never read; a corrupt cache file is ignored and rewritten.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path

from . import __version__
from .graph import RuleGraph
from .manifest import apply_config, find_config, load_manifest
from .model import Document, Edition
from .resources import display_path

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


def corpus_key(editions: tuple[Edition, ...]) -> str:
    """A digest of everything a parse depends on."""
    digest = hashlib.sha256(f"judge {__version__} format {CACHE_FORMAT}\n".encode())
    for name in _PARSER_FILES:
        digest.update((_PACKAGE / name).read_bytes())
    for edition in editions:
        digest.update(repr(edition).encode())
        for text in edition.texts:
            for file in text.files:
                digest.update(Path(file).read_bytes())
    return digest.hexdigest()[:32]


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


def _read_cache(path: Path) -> tuple[Document, ...] | None:
    try:
        with path.open("rb") as handle:
            data = pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None
    if not isinstance(data, tuple) or not all(isinstance(d, Document) for d in data):
        return None
    return data


def _write_cache(path: Path, documents: tuple[Document, ...]) -> None:
    """Write to a temporary file in the same folder, then rename: readers never see half a file."""
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
    cached = _read_cache(path)
    if cached is not None:
        return cached
    documents = parse_editions(editions)
    _write_cache(path, documents)
    return documents


def load_editions(config: str | None = None) -> tuple[Edition, ...]:
    editions = load_manifest()
    found = find_config(config)
    if found is not None:
        editions = apply_config(editions, found)
    return editions


def load_graph(config: str | None = None, *, use_cache: bool = True) -> RuleGraph:
    """The embedded corpus plus the user's configuration, as a cross-referenced graph."""
    editions = load_editions(config)
    return RuleGraph(editions, load_documents(editions, use_cache=use_cache))


def graph_from_editions(editions: tuple[Edition, ...], *, use_cache: bool = True) -> RuleGraph:
    return RuleGraph(editions, load_documents(editions, use_cache=use_cache))
