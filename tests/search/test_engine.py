"""The search engine: `judge search` opens the Whoosh index of record through its pointer
without loading the rule graph; the export for the static book is stored with the index."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from judge.cache import cache_dir
from judge.corpus.config import configured_cache
from judge.resources import rules_dir
from judge.search.engine import index_for, open_configured
from judge.search.export import (
    EXPORT_FILE,
    EXPORT_FORMAT,
    build_export,
    index_name,
    pack,
    read_export,
    unpack,
    unpacked,
)
from judge.search.index import open_or_build
from judge.search.query import search_with

ROOT = Path(__file__).resolve().parents[2]


def shown(result: Any) -> Any:
    """Everything a result shows but the one-time rebuild notice."""
    return (result.hits, result.suggestion, result.glossary)


def test_judge_search_queries_whoosh_without_the_rule_graph(graph, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Run outside the checkout: `python -c` puts the current folder first on sys.path, which
    # would import the source tree instead of the installed package (whose cache this is).
    index_for(graph)
    heavy = ("whoosh", "judge.corpus.parser", "judge.corpus.graph", "judge.corpus.documents")
    code = ("import sys; before = set(sys.modules); from judge.cli import main; "
            "code = main(['search', 'blessures de combat']); "
            f"print([m for m in {heavy!r} if m in sys.modules and m not in before]); sys.exit(code)")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=tmp_path)
            for _ in range(2)]  # the first one writes the pointer
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert "310 Etape des blessures de combat" in run.stdout
    assert runs[1].stdout.splitlines()[-1] == "['whoosh']"  # Whoosh answers; no graph, no model


def test_the_pointer_is_followed_only_while_its_inputs_are_unchanged(graph, tmp_path) -> None:  # type: ignore[no-untyped-def]
    index_for(graph)
    pointer = Path(configured_cache("search", ".pointer"))
    pointer.unlink(missing_ok=True)
    first = search_with(open_configured(), "blessures de combat")
    assert pointer.is_file()
    fmt, name, recorded = marshal.loads(pointer.read_bytes())
    assert name == index_name(graph.editions)[0]
    inputs = {path for path, _ in recorded}
    assert str(rules_dir() / "manifest.toml") in inputs
    assert all(str(f) in inputs for e in graph.editions for t in e.texts for f in t.files)
    # A stamp that no longer matches (an input edited, then restored): the key is computed
    # again from the bytes, the same export is found, and the pointer is rewritten.
    stale = tuple((path, None if i == 0 else signature) for i, (path, signature) in enumerate(recorded))
    pointer.write_bytes(marshal.dumps((fmt, name, stale)))
    assert shown(search_with(open_configured(), "blessures de combat")) == shown(first)
    assert marshal.loads(pointer.read_bytes())[2] != stale
    # A pointer naming another index, or not marshal at all, or planted by someone else: ignored.
    for planted in (marshal.dumps((fmt, "index-nowhere", recorded)), b"\x00junk"):
        pointer.write_bytes(planted)
        assert shown(search_with(open_configured(), "blessures de combat")) == shown(first)
        assert marshal.loads(pointer.read_bytes())[1] == name  # pointing at the index again
    pointer.chmod(0o666)
    assert shown(search_with(open_configured(), "blessures de combat")) == shown(first)
    assert pointer.stat().st_mode & 0o077 == 0  # replaced by a file of ours


@pytest.mark.parametrize("damage", ["garbage", "cut", "other format"])
def test_a_corrupt_export_is_rebuilt_with_the_index(graph, damage: str) -> None:  # type: ignore[no-untyped-def]
    index_for(graph)
    path = cache_dir() / index_name(graph.editions)[0] / EXPORT_FILE
    whole = path.read_bytes()
    before = unpack(read_export(path.parent))
    bad = {"garbage": b"\x00not marshal", "cut": whole[:-100],
           "other format": pack({**before, "format": EXPORT_FORMAT + 1})}[damage]
    assert bad != whole
    path.write_bytes(bad)
    Path(configured_cache("search", ".pointer")).unlink(missing_ok=True)
    index = open_configured()
    assert index.take_notice() == "index de recherche corrompu : reconstruction"
    assert unpack(read_export(path.parent)) == before  # built again, the same
    assert [h.number for h in search_with(index, "brulure de mana").hits][:1] == ["300.3"]


def test_the_stored_export_reads_back_as_built(graph) -> None:  # type: ignore[no-untyped-def]
    indexes, _ = open_or_build(graph)
    name = index_name(graph.editions)[0]
    data = build_export(graph, indexes, name)
    stored = unpacked(pack(data))
    assert stored is not None
    assert unpack(stored) == data
    # A query reads parts of the body, never all of it: the head is small.
    assert len(marshal.dumps(stored.head)) < len(pack(data)) / 4


def test_the_engine_has_everything_the_protocol_names(graph) -> None:  # type: ignore[no-untyped-def]
    # `judge.search.protocol.Index` is what a search needs of an index (read by the type
    # checker only): the Whoosh engine provides all of it.
    from judge.search.protocol import Index

    members = {name for name in vars(Index) if not name.startswith("_")} | set(Index.__annotations__)
    assert {"edition_languages", "newest_edition", "postings", "card", "glossary_hits"} <= members
    for index in (index_for(graph), open_configured()):  # opened with or without the graph
        assert [name for name in sorted(members) if not hasattr(index, name)] == []


def test_the_export_is_the_same_whatever_the_hash_seed(tmp_path: Path) -> None:
    # Two processes (two string-hash seeds, as two judges' machines) export the same bytes:
    # nothing in it follows the order of a set. A rebuilt export is compared with the old one.
    code = ("import hashlib, marshal; from judge.corpus.loader import load_graph; "
            "from judge.search.index import export_of; from judge.search.export import unpack; "
            "data, _ = export_of(load_graph(None)); "
            "print(hashlib.sha256(marshal.dumps(unpack(data))).hexdigest())")
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "JUDGE_CACHE_DIR": str(tmp_path / seed)}
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        assert run.returncode == 0, run.stderr
        digests.add(run.stdout.strip())
    assert len(digests) == 1


def test_the_index_key_follows_the_terminology(graph, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The engine and the export read the FR↔EN terminology from the index: an edited
    terminology is a new index (rebuilt), never a stale one."""
    from judge.corpus.lexicon import GLOSSARY_NAME
    from judge.search import export

    before = index_name(graph.editions)[0]
    (tmp_path / GLOSSARY_NAME).write_bytes((rules_dir() / GLOSSARY_NAME).read_bytes() + b"\n# edited\n")
    monkeypatch.setattr("judge.resources.rules_dir", lambda: tmp_path)
    monkeypatch.setattr(export, "_names", {})
    assert index_name(graph.editions)[0] != before

