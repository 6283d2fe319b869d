"""The search engine: `judge search` opens the Whoosh index of record through its pointer
without loading the rule graph; the export for the static book is made when first asked for
and kept in the knowledge base."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cache_support import parts, spoil

from judge.cache import read_part, write_kb
from judge.corpus.config import knowledge_base
from judge.resources import rules_dir
from judge.search.engine import POINTER, index_for, open_configured
from judge.search.export import EXPORT_FORMAT, EXPORT_PART, build_export, index_name, unpack
from judge.search.index import export_of, open_or_build
from judge.search.query import search_with

ROOT = Path(__file__).resolve().parents[2]


def shown(result: Any) -> Any:
    """Everything a result shows but the one-time rebuild notice."""
    return (result.hits, result.suggestion, result.glossary)


def test_judge_search_queries_whoosh_without_the_rule_graph(graph, tmp_path) -> None:
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


def test_the_pointer_is_followed_only_while_its_inputs_are_unchanged(graph, tmp_path) -> None:
    index_for(graph)
    kb = knowledge_base()
    if read_part(kb, POINTER) is not None:
        spoil(Path(kb), "DELETE FROM parts WHERE kind = ?", (POINTER,))
    first = search_with(open_configured(), "blessures de combat")
    found = read_part(kb, POINTER)
    assert found is not None
    name, recorded = json.loads(found[2]), found[1]
    assert name == index_name(graph.editions)[0]
    inputs = {path for path, _ in recorded}
    assert str(rules_dir() / "manifest.toml") in inputs
    assert all(str(f) in inputs for e in graph.editions for t in e.texts for f in t.files)
    # A stamp that no longer matches (an input edited, then restored): the key is computed
    # again from the bytes, the same export is found, and the pointer is rewritten.
    stale = tuple((path, None if i == 0 else signature) for i, (path, signature) in enumerate(recorded))
    write_kb(kb, [(POINTER, "", found[0], stale, found[2])])
    assert shown(search_with(open_configured(), "blessures de combat")) == shown(first)
    assert read_part(kb, POINTER)[1] != stale
    # A pointer naming another index, or a folder outside the cache, or not JSON: ignored.
    for planted in (json.dumps("index-nowhere"), json.dumps("../elsewhere"), "\x00junk"):
        write_kb(kb, [(POINTER, "", found[0], recorded, planted)])
        assert shown(search_with(open_configured(), "blessures de combat")) == shown(first)
        assert json.loads(read_part(kb, POINTER)[2]) == name  # pointing at the index again
    # Planted by someone else (a knowledge base others can write): ignored, replaced.
    Path(kb).chmod(0o666)
    assert shown(search_with(open_configured(), "blessures de combat")) == shown(first)
    assert Path(kb).stat().st_mode & 0o077 == 0  # replaced by a file of ours


def test_judge_search_makes_no_export_and_the_book_makes_it_once(tmp_path: Path) -> None:
    env = {**os.environ, "JUDGE_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.run([sys.executable, "-m", "judge", "search", "pile"], capture_output=True, text=True,
                         env=env, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    (kb,) = (tmp_path / "cache").glob("kb-*.sqlite")
    assert (POINTER, "") in parts(kb) and (EXPORT_PART, "") not in parts(kb)
    code = ("from judge.corpus.loader import load_graph; from judge.search.index import export_of; "
            "print(export_of(load_graph())[0].text[:40])")
    made = []
    for _ in range(2):
        made.append(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                                   timeout=300, cwd=tmp_path))
        assert made[-1].returncode == 0, made[-1].stderr
        assert (EXPORT_PART, "") in parts(kb)
        if len(made) == 1:
            inode = kb.stat().st_ino
    assert made[0].stdout == made[1].stdout and made[0].stdout.startswith('{"format":')
    assert kb.stat().st_ino == inode  # made once, then read: the knowledge base was not written again


@pytest.mark.parametrize("damage", ["garbage", "other format", "other index"])
def test_a_spoiled_or_stale_export_is_made_again(graph, damage: str) -> None:
    before = export_of(graph)[0]
    kb = Path(knowledge_base())
    key = parts(kb)[(EXPORT_PART, "")][0]
    if damage == "garbage":
        spoil(kb, "UPDATE parts SET value = 'not json' WHERE kind = ?", (EXPORT_PART,))
    else:
        other = (f"{index_name(graph.editions)[0]} {EXPORT_FORMAT + 1}" if damage == "other format"
                 else f"index-other {EXPORT_FORMAT}")
        write_kb(str(kb), [(EXPORT_PART, "", other, (), json.dumps({"format": 0}))])
    assert parts(kb)[(EXPORT_PART, "")][1] != before.text
    again = export_of(graph)[0]
    assert again == before  # made again, the same
    assert parts(kb)[(EXPORT_PART, "")] == (key, before.text)


def test_the_stored_export_reads_back_as_built(graph) -> None:
    indexes, _ = open_or_build(graph)
    data = build_export(graph, indexes, index_name(graph.editions)[0])
    stored = export_of(graph)[0]
    assert unpack(stored) == json.loads(json.dumps(data))  # JSON: tuples read back as lists
    assert unpack(stored)["format"] == EXPORT_FORMAT


def test_the_engine_has_everything_the_protocol_names(graph) -> None:
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
    code = ("import hashlib; from judge.corpus.loader import load_graph; "
            "from judge.search.index import export_of; "
            "data, _ = export_of(load_graph(None)); "
            "print(hashlib.sha256(data.text.encode()).hexdigest())")
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "JUDGE_CACHE_DIR": str(tmp_path / seed)}
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        assert run.returncode == 0, run.stderr
        digests.add(run.stdout.strip())
    assert len(digests) == 1


def test_the_index_key_follows_the_terminology(graph, tmp_path, monkeypatch) -> None:
    """The engine and the export read the FR↔EN terminology from the index: an edited
    terminology is a new index (rebuilt), never a stale one."""
    from judge.corpus.lexicon import GLOSSARY_NAME
    from judge.search import export

    before = index_name(graph.editions)[0]
    (tmp_path / GLOSSARY_NAME).write_bytes((rules_dir() / GLOSSARY_NAME).read_bytes() + b"\n# edited\n")
    monkeypatch.setattr("judge.resources.rules_dir", lambda: tmp_path)
    monkeypatch.setattr(export, "_names", {})
    assert index_name(graph.editions)[0] != before

