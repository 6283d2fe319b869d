"""The one use of Whoosh's internals (`judge.search.index.splice_segments`), on its own: two
indexes written as judge writes them (`_fill`: its codec, one segment each), the second's
segment spliced after the first's. The result must be the index one writer makes of all the
documents: same count, same document numbers, same stored fields, same scores. A Whoosh whose
table of contents, `clean_files` or segments no longer fit fails here, naming its version."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import whoosh
import whoosh.index
from whoosh.fields import ID, TEXT, Schema
from whoosh.qparser import QueryParser

from judge.search.index import _fill, splice_segments

WORDS = ("mana", "burn", "combat", "damage", "upkeep", "priority", "attack", "block", "phase", "step")


def _documents() -> list[dict[str, Any]]:
    """Sixty small documents, each with a few of the words (some repeated)."""
    return [{"id": f"r{n}", "text": " ".join(WORDS[(n * k) % len(WORDS)] for k in range(1, 2 + n % 5))}
            for n in range(60)]


def _schema() -> Schema:
    return Schema(id=ID(stored=True, unique=True), text=TEXT(stored=True))


def _answers(ix: Any) -> list[list[tuple[str, float]]]:
    with ix.searcher() as searcher:
        parser = QueryParser("text", ix.schema)
        return [[(hit["id"], round(hit.score, 9)) for hit in searcher.search(parser.parse(word), limit=None)]
                for word in WORDS]


def test_spliced_segments_are_the_index_one_writer_makes(tmp_path: Path) -> None:
    docs = _documents()
    whole, folder, other = tmp_path / "whole", tmp_path / "first", tmp_path / "other"
    for path in (whole, folder, other):
        path.mkdir()
    _fill(whoosh.index.create_in(str(whole), _schema(), indexname="en"), docs)
    _fill(whoosh.index.create_in(str(folder), _schema(), indexname="en"), docs[:35])
    _fill(whoosh.index.create_in(str(other), _schema(), indexname="en"), docs[35:])
    version = whoosh.versionstring()
    try:
        splice_segments(folder, other, "en")
        spliced = whoosh.index.open_dir(str(folder), indexname="en")
        with spliced.searcher() as searcher:
            count, stored = searcher.doc_count(), [searcher.stored_fields(n)["id"] for n in range(len(docs))]
        answers = _answers(spliced)
    except Exception as exc:  # any failure of the internals is this test's verdict
        pytest.fail(f"Whoosh {version} : splice_segments n'y convient plus ({type(exc).__name__}: {exc})")
    assert count == len(docs), f"Whoosh {version} : {count} documents après l'épissure, {len(docs)} attendus"
    assert stored == [doc["id"] for doc in docs], f"Whoosh {version} : numéros de documents changés"
    assert answers == _answers(whoosh.index.open_dir(str(whole), indexname="en")), (
        f"Whoosh {version} : scores de l'index épissé différents de ceux d'un seul segment")
    left = [p.name for p in other.iterdir() if p.name.startswith(("_en_", "en_")) and "LOCK" not in p.name]
    assert left == [], (
        f"Whoosh {version} : des fichiers de l'index restent dans le dossier d'origine")
    assert len([p for p in folder.iterdir() if p.suffix == ".toc"]) == 1  # one table of contents
