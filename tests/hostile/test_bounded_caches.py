"""Issue 38, files: every file of the cache opened without blocking and checked (a FIFO or a
link to /dev/zero planted in the search index's folder is a rebuild, not a hang or gigabytes
read), `judge export --sqlite` onto a FIFO refused at once, and `#`, `?`, `%` in an export's
name characters of the name (the second export replaces the first, no stray file)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hostile_support import judge, refused


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    env = {"JUDGE_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}
    assert judge("search", "mana", env=env).returncode == 0
    return env


def _index_record(env: dict[str, str]) -> Path:
    (folder,) = Path(env["JUDGE_CACHE_DIR"]).glob("index-*")
    return folder / "complete"


@pytest.mark.parametrize("plant", ["fifo", "zero"])
def test_a_planted_index_record_is_rebuilt_not_read(warm_cache: dict[str, str], plant: str) -> None:
    record = _index_record(warm_cache)
    record.unlink()
    if plant == "fifo":
        os.mkfifo(record)  # before: `judge search` waited forever
    else:
        record.symlink_to("/dev/zero")  # before: 3.7 GB read
    result = judge("search", "mana", env=warm_cache, timeout=300)
    assert result.returncode == 0 and b"mana" in result.stdout.lower(), result.stderr.decode()[-2000:]
    assert b"Traceback" not in result.stderr


def test_an_export_onto_a_fifo_is_refused_at_once(tmp_path: Path, warm_cache: dict[str, str]) -> None:
    fifo = tmp_path / "regles.sqlite"
    os.mkfifo(fifo)
    refused(judge("export", "--sqlite", str(fifo), env=warm_cache, timeout=120), "n'est pas un export de judge")


def test_an_export_path_may_hold_hash_question_and_percent(tmp_path: Path, warm_cache: dict[str, str]) -> None:
    folder = tmp_path / "a#b?c%d"
    folder.mkdir()
    target = folder / "r#1?x=%41.sqlite"
    for _ in range(2):  # before: the second was refused as « not an export »
        result = judge("export", "--sqlite", str(target), env=warm_cache, timeout=300)
        assert result.returncode == 0, result.stderr.decode()[-2000:]
    assert sorted(path.name for path in folder.iterdir()) == [target.name]


def test_a_public_row_changed_in_place_is_not_exported(tmp_path: Path, warm_cache: dict[str, str]) -> None:
    # Issue 38: a same-size byte change in the knowledge base's `rules` table was copied by
    # the export as it was. Each public table's digest is checked on the copy: a table that
    # fails is made again from the graph, and the knowledge base removed (rebuilt next time).
    import sqlite3

    from cache_support import kb_file, spoil

    where = "WHERE edition = '2004' AND language = 'fr' AND number = '300.3'"

    def exported(name: str) -> str:
        target = tmp_path / name
        result = judge("export", "--sqlite", str(target), env=warm_cache, timeout=300)
        assert result.returncode == 0 and b"Traceback" not in result.stderr, result.stderr.decode()[-2000:]
        with sqlite3.connect(target) as db:
            (text,), = db.execute(f"SELECT text FROM rules {where}").fetchall()
        return str(text)

    sound = exported("avant.sqlite")
    kb = kb_file(Path(warm_cache["JUDGE_CACHE_DIR"]))
    spoil(kb, f"UPDATE rules SET text = 'X' || substr(text, 2) {where}")
    assert exported("apres.sqlite") == sound
    if kb.exists():  # removed, then written again by the parts the export computed: never the spoiled row
        with sqlite3.connect(kb) as db:
            kept = db.execute("SELECT name FROM sqlite_master WHERE name = 'rules'").fetchall() and db.execute(
                f"SELECT text FROM rules {where}").fetchall()
        assert kept in ([], [(sound,)])
    assert exported("encore.sqlite") == sound


def _dead_pid() -> int:
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_building_folders_of_dead_processes_are_removed(tmp_path: Path) -> None:
    env = {"JUDGE_CACHE_DIR": str(tmp_path / "cache")}
    assert judge("search", "mana", env=env).returncode == 0
    cache = Path(env["JUDGE_CACHE_DIR"])
    dead = cache / f".building-{_dead_pid()}-abcd1234"  # a `kill -9` during a first search
    dead.mkdir()
    (dead / "fr_WRITELOCK").write_text("")
    living = cache / f".building-{os.getpid()}-abcd1234"  # a build still running
    living.mkdir()
    for folder in cache.glob("index-*"):
        import shutil

        shutil.rmtree(folder)
    assert judge("search", "mana", env=env, timeout=300).returncode == 0
    assert not dead.exists() and living.is_dir()


def test_a_newline_in_the_output_name_still_cleans_its_staging(tmp_path: Path) -> None:
    name = "site\nweb"
    stale = tmp_path / f".{name}-build-{_dead_pid()}-abcdefgh"
    stale.mkdir()
    (stale / ".judge-build").write_text("judge build\n")
    result = judge("build", "--out", name, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    assert not stale.exists() and (tmp_path / name / "index.html").is_file()


def test_a_knowledge_base_of_another_configuration_is_not_read(tmp_path: Path) -> None:
    import shutil

    cache = tmp_path / "cache"
    env = {"JUDGE_CACHE_DIR": str(cache)}
    config = tmp_path / "autre.toml"
    config.write_text('[[edition]]\nid = "autre"\nlabel = "Autre"\nreleased = "2099-01-01"\ngame = "2004"\n'
                      '[[edition.text]]\nlanguage = "fr"\nfiles = ["' +
                      str(Path(__import__("judge.resources", fromlist=["rules_dir"]).rules_dir())
                          / "004_17a8758e9cd78ccf.txt") + '"]\n')
    assert judge("rule", "300.3", env=env).returncode == 0
    (default,) = cache.glob("kb-*.sqlite")
    assert judge("--config", str(config), "rule", "300.3", env=env).returncode == 0
    (other,) = [path for path in cache.glob("kb-*.sqlite") if path != default]
    shutil.copyfile(other, default)  # before: exported as the default configuration's
    export = tmp_path / "r.sqlite"
    result = judge("export", "--sqlite", str(export), env=env, timeout=300)
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    import sqlite3

    with sqlite3.connect(export) as db:
        editions = {row[0] for row in db.execute("SELECT edition FROM editions")}
    assert "autre" not in editions and "2004" in editions


def test_a_refused_permission_is_said_in_french(tmp_path: Path) -> None:
    # Issue 38: « Permission denied » in a French message. Root may write almost anywhere, but
    # not in /sys.
    import errno
    import tempfile

    try:
        os.close(tempfile.mkstemp(dir="/sys")[0])
        pytest.skip("/sys accepts files here")
    except OSError as error:
        if error.errno != errno.EACCES:
            pytest.skip(f"/sys: {error}")
    refused(judge("export", "--sqlite", "/sys/regles.sqlite", timeout=120), "permission refusée")


def test_sqlite_errors_are_said_in_french(tmp_path: Path) -> None:
    # « file is not a database » and its kin, raised by SQLite itself, never shown in English.
    import sqlite3

    from judge.errors import sqlite_reason

    planted = tmp_path / "base.sqlite"
    planted.write_bytes(b"\x00pas une base" * 200)
    with pytest.raises(sqlite3.DatabaseError) as raised:
        sqlite3.connect(planted).execute("SELECT * FROM sqlite_master").fetchall()
    assert "file is not a database" in str(raised.value)
    assert sqlite_reason(raised.value) == "ce n'est pas une base SQLite"
