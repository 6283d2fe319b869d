"""`judge export --sqlite`: the knowledge base as a user opens it (sqlite-utils), the schema of
docs/sqlite.md, a copy of the cache's own file, atomic writing and what it refuses to replace."""

from __future__ import annotations

import importlib.util
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
import source_text
import sqlite_utils

from judge import DISTRIBUTION
from judge.checks.store import store_path
from judge.cli import main
from judge.corpus.sqlite_export import TABLES

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


def test_a_user_queries_rules_and_links(exported: Path, graph) -> None:
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


def test_glossary_and_examples(exported: Path, graph) -> None:
    db = sqlite_utils.Database(exported)
    terms = {r["term"] for r in db["glossary"].rows_where("edition = '2010' and language = 'en'")}
    assert "First Strike" in terms and len(terms) == len({e.term for e in graph.glossary("2010", "en")})
    examples = list(db["examples"].rows_where("edition = ? and language = ? and number = ?", ["2004", "fr", "308.3"]))
    assert [e["text"] for e in examples] == [e.text for e in graph.require("2004", "308.3", "fr").examples]


def test_writing_is_atomic_and_never_replaces_what_judge_did_not_write(tmp_path: Path, capsys) -> None:
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


def test_the_export_is_the_knowledge_base_without_the_cache_s_own_tables(exported: Path) -> None:
    """The tables a user reads are those `judge rule` and `judge check` keep beside the rule
    store, in the same file: the export copies them, and only them."""
    kb = sqlite3.connect(f"file:{store_path()}?mode=ro", uri=True)
    out = sqlite3.connect(exported)
    names = {n for (n,) in kb.execute("select name from sqlite_master where type = 'table'")}
    assert {"parts", "stamps", "store_records", *TABLES} <= names  # the cache's own tables, and the public ones
    for table in TABLES:
        assert kb.execute(f"select * from {table}").fetchall() == out.execute(f"select * from {table}").fetchall()
    assert not {"parts", "stamps", "store_records"} & {n for (n,) in out.execute("select name from sqlite_master")}
    assert dict(out.execute("select key, value from meta")) == {
        **dict(kb.execute("select key, value from meta where key in ('generator', 'judge_version')")),
        "schema_version": "1"}  # not the cache's own keys: its format, its file's name


def test_without_a_writable_cache_the_export_is_made_from_the_graph(tmp_path: Path, exported: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(blocker / "cache"))  # cannot be created
    path = tmp_path / "regles.sqlite"
    assert main(["export", "--sqlite", str(path)]) == 0
    expected, found = sqlite3.connect(exported), sqlite3.connect(path)
    for table in TABLES:
        assert found.execute(f"select * from {table}").fetchall() == expected.execute(
            f"select * from {table}").fetchall(), table
    assert found.execute("pragma user_version").fetchone() == (1,)


def _has_history(path: Path) -> bool:
    with closing(sqlite3.connect(path)) as db:
        return bool(db.execute("select count(*) from parts where kind = 'history'").fetchone()[0])


def test_a_first_rule_lookup_aligns_no_edition_and_the_export_needs_the_matcher(tmp_path: Path) -> None:
    """The knowledge base's history leaves out a pair whose concordance is to compute: `judge
    rule` works without the matcher, and the export says which extra it needs, writing nothing."""
    from test_concordance_data import house_config, run_blocked

    config = house_config(tmp_path)
    rule = run_blocked(tmp_path, "rule", "500.1", "--edition", "maison", "--config", str(config))
    assert rule.returncode == 0, rule.stderr
    assert "A turn has five phases" in rule.stdout and "appariement" not in rule.stderr
    # The configuration's own knowledge base, beside the embedded corpus's (which keeps the
    # caches of the package's own TOML files: judge.corpus.tomlcache).
    kbs = sorted((tmp_path / "cache").glob("kb-*.sqlite"))
    assert len(kbs) == 2, kbs
    (kb,) = [p for p in kbs if _has_history(p)]
    db = sqlite3.connect(kb)
    assert db.execute("select value from parts where kind = 'history'").fetchone() == ("2010 maison",)
    assert db.execute("select count(*) from history where from_edition = '2004'").fetchone()[0] > 500
    assert db.execute("select count(*) from rules where edition = 'maison'").fetchone() == (2,)
    target = tmp_path / "regles.sqlite"
    export = run_blocked(tmp_path, "export", "--sqlite", str(target), "--config", str(config))
    assert export.returncode == 2 and f"pip install '{DISTRIBUTION}[history]'" in export.stderr
    assert not target.exists() and sorted(p.name for p in tmp_path.iterdir()) == [
        "cache", "house.txt", "judge.toml"]


@pytest.mark.skipif(importlib.util.find_spec("scipy") is None,
                    reason="extra history absent : pip install -e '.[test,history]'")
def test_the_export_computes_the_history_the_knowledge_base_left_out(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from test_concordance_data import house_config

    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    config = house_config(tmp_path)
    target = tmp_path / "regles.sqlite"
    assert main(["--config", str(config), "export", "--sqlite", str(target)]) == 0
    db = sqlite_utils.Database(target)
    # every rule of the user's edition has its line (whatever the matcher made of it)
    assert {r["to_number"] for r in db["history"].rows_where("to_edition = 'maison' and to_number is not null")} == {
        "500", "500.1"}
    assert db["history"].count_where("from_edition = '2004'") > 500  # the shipped pair too
