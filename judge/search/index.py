"""The on-disk Whoosh index of a graph's rules: schema, documents, cache key, build and reuse.

Owns the cache folder (built in a temporary folder, renamed into place, rebuilt when stale
or corrupt, kept in RAM when unwritable). Its key includes the source of `judge.search.analysis`.
Querying the open index is `judge.search.query`'s job.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import threading
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import whoosh.index
from whoosh.fields import ID, TEXT, Schema
from whoosh.filedb.filestore import FileStorage, RamStorage

from judge.cache import cache_dir
from judge.corpus.graph import RuleGraph
from judge.corpus.loader import corpus_key
from judge.search import analysis
from judge.search.analysis import FrenchAnalyzer

SCHEMA_VERSION = 2


# ---------------------------------------------------------------------- index
def schema() -> Schema:
    stemmed, exact = FrenchAnalyzer(stemmed=True), FrenchAnalyzer(stemmed=False)
    return Schema(
        id=ID(stored=True, unique=True),
        edition=ID(stored=True),
        language=ID(stored=True),
        number=ID(stored=True),
        status=ID(stored=True),
        title=TEXT(analyzer=stemmed, phrase=False),
        text=TEXT(analyzer=stemmed, phrase=False),
        examples=TEXT(analyzer=stemmed, phrase=False),
        context=TEXT(analyzer=stemmed, phrase=False),
        exact=TEXT(analyzer=exact, phrase=True),
        heading=TEXT(analyzer=exact, phrase=True),
    )


def _documents(graph: RuleGraph) -> Iterable[dict[str, str]]:
    for rule in graph.all_rules():
        examples = " ".join(example.text for example in rule.examples)
        ancestors = [a.title for a in graph.ancestors(rule) if a.title]
        yield {
            "id": f"{rule.edition}:{rule.language}:{rule.number}",
            "edition": rule.edition,
            "language": rule.language,
            "number": rule.number,
            "status": rule.status,
            "title": rule.title or "",
            "text": rule.text,
            "examples": examples,
            "context": " ".join(ancestors),
            "exact": " ".join(part for part in (rule.title or "", rule.text, examples) if part),
            "heading": rule.title or "",
        }


def _fill(ix: Any, graph: RuleGraph) -> None:
    writer = ix.writer(limitmb=128)
    for doc in _documents(graph):
        writer.add_document(**doc)
    writer.commit()


_keys: weakref.WeakKeyDictionary[RuleGraph, tuple[str, str]] = weakref.WeakKeyDictionary()


def index_name(graph: RuleGraph) -> tuple[str, str]:
    """(`index-<config>-<key>`, `index-<config>-`): the folder name and its stale-sibling prefix."""
    cached = _keys.get(graph)
    if cached is not None:
        return cached
    analysis_code = Path(analysis.__file__).read_bytes()
    key = hashlib.sha256(
        f"{corpus_key(graph.editions)} schema {SCHEMA_VERSION}\n".encode() + analysis_code
    ).hexdigest()[:24]
    config = hashlib.sha256(
        repr([(e.id, [(t.language, t.files) for t in e.texts]) for e in graph.editions]).encode()
    ).hexdigest()[:8]
    prefix = f"index-{config}-"
    _keys[graph] = (prefix + key, prefix)
    return _keys[graph]


def _valid(path: Path, expected: int) -> Any | None:
    """The opened index at `path` if it is complete and readable, else None."""
    try:
        if (path / "complete").read_text() != str(expected):
            return None
        ix = _load_in_memory(path)
        with ix.searcher() as searcher:
            if searcher.doc_count() != expected:
                return None
            if expected:
                searcher.stored_fields(0)
        return ix
    except Exception:  # any failure to read a cache means "rebuild it"
        return None


def _load_in_memory(path: Path) -> Any:
    """Open the index from a RAM copy of its files: no mmap (a cache file truncated under a
    running server would kill it with SIGBUS) and no seek per term lookup (speed)."""
    ram = RamStorage()
    for name in FileStorage(str(path)).list():
        ram.files[name] = (path / name).read_bytes()
    return ram.open_index()


def _discard(path: Path) -> None:
    """Move a folder aside atomically, then delete it (another process may race us)."""
    trash = path.with_name(f".trash-{path.name}-{os.getpid()}-{threading.get_ident()}")
    try:
        os.rename(path, trash)
    except OSError:
        return
    shutil.rmtree(trash, ignore_errors=True)


def build_index(graph: RuleGraph, dest: Path) -> None:
    """Build into a temporary folder beside `dest`, then rename; if `dest` appeared, drop ours."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".building-", dir=dest.parent))
    try:
        ix = whoosh.index.create_in(str(tmp), schema())
        _fill(ix, graph)
        ix.close()
        (tmp / "complete").write_text(str(len(graph.all_rules())))
        try:
            os.rename(tmp, dest)
        except OSError:
            if not dest.is_dir():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _ram_index(graph: RuleGraph) -> Any:
    ix = RamStorage().create_index(schema())
    _fill(ix, graph)
    return ix


def open_or_build(graph: RuleGraph) -> tuple[Any, str | None]:
    name, prefix = index_name(graph)
    root = cache_dir()
    dest = root / name
    expected = len(graph.all_rules())
    notice = None
    if dest.exists():
        ix = _valid(dest, expected)
        if ix is not None:
            return ix, None
        notice = "index de recherche corrompu : reconstruction"
        _discard(dest)
    stale = [p for p in root.glob(prefix + "*") if p.name != name] if root.is_dir() else []
    if stale and notice is None:
        notice = "index de recherche périmé (règles ou version modifiées) : reconstruction"
    for old in stale:
        _discard(old)
    try:
        build_index(graph, dest)
    except OSError:
        # An unwritable cache only costs speed: search from memory.
        return _ram_index(graph), notice
    ix = _valid(dest, expected)
    if ix is None:
        return _ram_index(graph), notice
    return ix, notice
