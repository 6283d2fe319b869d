"""`judge export --sqlite`: the knowledge base as a user opens it (sqlite-utils), the schema of
docs/sqlite.md, atomic writing and what it refuses to replace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import source_text
import sqlite_utils

from judge.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export") / "regles.sqlite"
    assert main(["export", "--sqlite", str(path)]) == 0
    return path


def test_the_documented_schema_is_the_file(exported: Path) -> None:
    """Every table and column that docs/sqlite.md lists is in the file, and nothing else."""
    doc = (ROOT / "docs" / "sqlite.md").read_text(encoding="utf-8")
    documented = {name: tuple(re.findall(r"^\| `(\w+)` \|", block, re.M))
                  for name, block in re.findall(r"^### `(\w+)`\n(.*?)(?=^### |\Z)", doc, re.M | re.S)}
    db = sqlite_utils.Database(exported)
    assert set(db.table_names()) == set(documented)
    for name, columns in documented.items():
        assert tuple(db[name].columns_dict) == columns, name
    assert {"rules", "links", "examples", "glossary", "history"} <= set(documented)
    assert not [t for t in db.table_names() if "fts" in t]  # the search is Whoosh's
    assert db.execute("PRAGMA user_version").fetchone()[0] == int(re.search(r"user_version = (\d+)", doc)[1])
    indexed = {column for name in documented for index in db[name].indexes for column in index.columns}
    assert {"number", "target", "term", "from_number", "to_number"} <= indexed


def test_a_user_queries_rules_and_links(exported: Path, graph) -> None:  # type: ignore[no-untyped-def]
    db = sqlite_utils.Database(exported)
    assert db["rules"].count == len(graph.all_rules())
    (burn,) = db["rules"].rows_where("edition = ? and language = ? and number = ?", ["2004", "fr", "300.3"])
    assert burn["status"] == "historical" and burn["parent"] == "300"
    assert burn["text"] == graph.require("2004", "300.3", "fr").text and "brûlure de mana" in burn["text"]
    (english,) = db["rules"].rows_where("edition = '2004' and language = 'en' and number = '300.3'")
    assert source_text.line_of(source_text.EN_2004, "300.3").endswith(english["text"])
    # the French 2004 rules, as their text numbers them
    french = {r["number"] for r in db.query(
        "select number from rules where edition = '2004' and language = 'fr' and kind != 'section'")}
    assert french and french <= source_text.numbers("004_17a8758e9cd78ccf.txt") | source_text.numbers(
        "000_57306400b9ed3ddd.txt")
    # a doubtful citation: 306.1 cites 502.25 for "double initiative"
    (doubtful,) = db.query("select * from links where edition = '2004' and language = 'fr' and source = '306.1'"
                           " and doubt is not null")
    assert doubtful["target"] == "502.25" and "502.28" in doubtful["doubt"]
    # who cites the end of turn step? a backlink query
    citing = {r["source"] for r in db.query(
        "select source from links where edition = '2010' and target = ? and resolved", ["514"])}
    rule = graph.require("2010", "514", "en")
    assert citing == {b.number for b in graph.backlinks(rule)} | {
        b.number for t in graph.translations(rule) for b in graph.backlinks(t)}


def test_a_user_follows_a_rule_through_the_editions(exported: Path) -> None:
    db = sqlite_utils.Database(exported)
    (land,) = db["history"].rows_where("from_edition = '2004' and from_number = '305.4'")
    assert (land["to_edition"], land["to_number"], land["change"], land["main"]) == ("2010", "505.5b", "edited", 1)
    (burn,) = db["history"].rows_where("from_edition = '2004' and from_number = '300.3'")
    assert burn["change"] == "removed" and burn["to_number"] is None and "brûlure de mana" in burn["reason"]
    # a rule of 2010 and what it came from, joined with its text: what Datasette shows
    (row,) = db.query("select h.from_number, r.text from history h join rules r on r.edition = h.to_edition"
                      " and r.number = h.to_number and r.language = 'fr'"
                      " where h.to_edition = '2010' and h.to_number = '505.5b'")
    assert row["from_number"] == "305.4" and row["text"].startswith("Pendant l'une ou l'autre des phases")


def test_glossary_and_examples(exported: Path, graph) -> None:  # type: ignore[no-untyped-def]
    db = sqlite_utils.Database(exported)
    terms = {r["term"] for r in db["glossary"].rows_where("edition = '2010' and language = 'en'")}
    assert "First Strike" in terms and len(terms) == len({e.term for e in graph.glossary("2010", "en")})
    examples = list(db["examples"].rows_where("edition = ? and language = ? and number = ?", ["2004", "fr", "308.3"]))
    assert [e["text"] for e in examples] == [e.text for e in graph.require("2004", "308.3", "fr").examples]


def test_writing_is_atomic_and_never_replaces_what_judge_did_not_write(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    mine = tmp_path / "notes.sqlite"
    mine.write_bytes(b"my own notes")
    assert main(["export", "--sqlite", str(mine)]) == 2
    assert mine.read_bytes() == b"my own notes" and "n'est pas un export de judge" in capsys.readouterr().err
    other = tmp_path / "other.sqlite"
    sqlite_utils.Database(other)["t"].insert({"a": 1})
    assert main(["export", "--sqlite", str(other)]) == 2
    assert sqlite_utils.Database(other).table_names() == ["t"]
    ours = tmp_path / "regles.sqlite"
    assert main(["export", "--sqlite", str(ours)]) == 0
    first = ours.stat().st_ino
    assert main(["export", "--sqlite", str(ours)]) == 0  # an earlier export is replaced, by a rename
    assert ours.stat().st_ino != first and sqlite_utils.Database(ours)["rules"].count > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite", "other.sqlite", "regles.sqlite"]
    capsys.readouterr()
    assert main(["export", "--sqlite", str(tmp_path / "absent" / "x.sqlite")]) == 2
    assert main(["export", "--sqlite", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "n'existe pas" in err and "est un dossier" in err and "Traceback" not in err
