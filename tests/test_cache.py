"""The knowledge base (`judge.cache`): one SQLite file per configuration, private, written
atomically, read read-only, never believed when planted, cut or spoiled (ignored with one
warning, or one French error, then rebuilt), and no pickle anywhere; eight processes starting
at once on an empty cache."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cache_support import kb_file, parts, spoil

from judge.cache import (
    code_inputs,
    ensure_dir,
    from_json,
    open_kb,
    read_part,
    stamps,
    to_json,
    unchanged,
    write_kb,
)
from judge.corpus.documents import RECORDS, Edition, Reference, Rule, Span, Text

JUDGE = [str(Path(sys.executable).with_name("judge"))]
WARNING = "cache ignoré"
PACKAGE = Path(__file__).resolve().parents[1] / "judge"


def _run(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, JUDGE_CACHE_DIR=str(cache))
    return subprocess.run([*JUDGE, *args], env=env, capture_output=True, text=True, timeout=300)


def _part(kind: str, value: str, name: str = "", key: str = "k") -> tuple[str, str, str, tuple[()], str]:
    return (kind, name, key, (), value)


def test_cache_folder_is_created_private(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "cache"
    path = str(folder / "kb-x.sqlite")
    assert write_kb(path, [_part("x", "[1,2]")])
    assert folder.stat().st_mode & 0o777 == 0o700
    assert (folder / "kb-x.sqlite").stat().st_mode & 0o077 == 0
    assert read_part(path, "x") == ("k", (), "[1,2]")
    ensure_dir(folder)  # already there: unchanged
    assert folder.stat().st_mode & 0o777 == 0o700


def test_a_write_replaces_the_file_and_keeps_the_other_parts(tmp_path: Path) -> None:
    path = str(tmp_path / "kb-x.sqlite")
    assert write_kb(path, [_part("a", '"one"'), _part("b", '"two"')])
    reader = open_kb(path)
    assert reader is not None
    before = os.stat(path).st_ino
    assert write_kb(path, [_part("a", '"three"', key="k2")])
    assert os.stat(path).st_ino != before  # a new file renamed over the old one, never changed in place
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kb-x.sqlite"]  # no temporary file left
    assert read_part(path, "a") == ("k2", (), '"three"') and read_part(path, "b") == ("k", (), '"two"')
    assert reader.part("a") == ("k", (), '"one"')  # an open reader keeps the file it opened
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        reader._db.execute("DELETE FROM parts")  # readers open it read-only
    reader.close()


def test_an_unwritable_folder_only_costs_speed(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir(mode=0o500)
    if os.access(folder, os.W_OK):
        pytest.skip("root writes anywhere")
    assert not write_kb(str(folder / "kb-x.sqlite"), [_part("a", "1")])


@pytest.mark.parametrize("damage", ["empty", "not sqlite", "cut", "grown", "other format", "checksum"])
def test_a_spoiled_knowledge_base_is_not_read_and_the_next_write_starts_afresh(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "kb-x.sqlite"
    assert write_kb(str(path), [_part("a", '"one"'), _part("b", '"two"')])
    whole = path.read_bytes()
    if damage == "other format":
        spoil(path, "UPDATE meta SET value = '0' WHERE key = 'format'")
    elif damage == "checksum":
        spoil(path, "UPDATE parts SET value = '\"planted\"' WHERE kind = 'a'")
    else:
        path.write_bytes({"empty": b"", "not sqlite": b"\x00pas une base" * 100, "cut": whole[:-1024],
                          "grown": whole + b"\x00" * 1024}[damage])
    assert read_part(str(path), "a") is None
    assert write_kb(str(path), [_part("c", '"three"')])
    assert read_part(str(path), "c") == ("k", (), '"three"')
    expected_b = ("k", (), '"two"') if damage == "checksum" else None  # the other parts survive a bad value
    assert read_part(str(path), "b") == expected_b


def test_values_are_json_and_frozen_records_come_back_equal() -> None:
    span = Span(file="f", line=1, column=2, end_line=1, end_column=9)
    rule = Rule(edition="2004", language="fr", number="300.3", kind="rule", title=None, text="Voir 300.2.",
                segments=(Reference(number="300.2", text="300.2", span=span),), notes=("n",), span=span)
    edition = Edition(id="2004", label="2004", released=None, description="", texts=(Text(language="fr", files=("a",)),))
    value = {"rules": (rule,), "editions": (edition,), "pairs": ((("a", 1), None),)}
    text = to_json(value)
    assert "pickle" not in text and '"@":"Rule"' in text
    back = from_json(text, RECORDS)
    assert back == value and back["rules"][0].span == span and isinstance(back["pairs"][0][0], tuple)
    with pytest.raises(ValueError, match="Rule"):
        from_json(text, (Span, Reference))  # a class the reader does not name is refused
    with pytest.raises(TypeError):
        to_json(object())


def test_no_pickle_nor_marshal_in_the_package() -> None:
    # Loading either can run code or depends on Python's version: the caches are JSON in SQLite.
    found = [f"{path.relative_to(PACKAGE)}:{n}" for path in sorted(PACKAGE.rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "pickle" in line or "marshal" in line]
    assert found == []


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A cache filled by one `judge rule 300.3`, and that command's output."""
    cache = tmp_path_factory.mktemp("warm") / "cache"
    first = _run(cache, "rule", "300.3")
    assert first.returncode == 0, first.stderr
    # only the first run's progress (judge.progress), no warning
    assert "Préparation du corpus (une seule fois)" in first.stderr
    assert all(line.startswith("[") for line in first.stderr.splitlines())
    return cache, first.stdout


def _planted_copy(warm: Path, tmp_path: Path) -> tuple[Path, Path]:
    """The warm cache with a knowledge base someone else changed: every rule's text says
    PLANTED (SQLite holds no code, but a file someone else could write is not believed)."""
    cache = tmp_path / "cache"
    shutil.copytree(warm, cache)
    kb = kb_file(cache)
    spoil(kb, "UPDATE store_records SET text = 'PLANTED', brief = 'PLANTED'")
    return cache, kb


def test_cache_file_writable_by_others_is_ignored_once_and_rebuilt(
    warm_cache: tuple[Path, str], tmp_path: Path
) -> None:
    warm, expected = warm_cache
    cache, kb = _planted_copy(warm, tmp_path)
    kb.chmod(0o666)
    run = _run(cache, "rule", "300.3")
    assert run.returncode == 0, run.stderr
    assert run.stdout == expected and "PLANTED" not in run.stdout
    warnings = [line for line in run.stderr.splitlines() if WARNING in line]
    assert len(warnings) == 1 and "modifiable par d'autres" in warnings[0], run.stderr
    # rebuilt: the next run reads a private, trusted cache and says nothing
    assert kb.stat().st_mode & 0o077 == 0
    again = _run(cache, "rule", "300.3")
    assert (again.returncode, again.stdout, again.stderr) == (0, expected, "")


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="chown needs root")
def test_cache_file_of_another_user_is_ignored_once_and_rebuilt(
    warm_cache: tuple[Path, str], tmp_path: Path
) -> None:
    warm, expected = warm_cache
    cache, kb = _planted_copy(warm, tmp_path)
    kb.chmod(0o600)
    os.chown(kb, 65534, 65534)
    run = _run(cache, "rule", "300.3")
    assert run.returncode == 0, run.stderr
    assert run.stdout == expected and "PLANTED" not in run.stdout
    warnings = [line for line in run.stderr.splitlines() if WARNING in line]
    assert len(warnings) == 1 and "autre utilisateur" in warnings[0], run.stderr
    assert kb.stat().st_uid == os.getuid()


def test_search_index_file_writable_by_others_is_ignored_and_rebuilt(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _run(cache, "search", "pile", "--json")
    assert first.returncode == 0, first.stderr
    (index,) = cache.glob("index-*")
    (toc,) = index.glob("_fr_*.toc")
    toc.chmod(0o666)  # Whoosh's table of contents, read by `judge search`
    run = _run(cache, "search", "pile", "--json")
    assert run.returncode == 0, run.stderr
    assert [line for line in run.stderr.splitlines() if WARNING in line], run.stderr
    (rebuilt,) = cache.glob("index-*")
    assert all(f.stat().st_mode & 0o077 == 0 for f in rebuilt.iterdir())
    again = _run(cache, "search", "pile", "--json")
    assert (again.returncode, again.stderr) == (0, "")
    assert again.stdout == first.stdout


def test_eight_processes_on_an_empty_cache_all_succeed_and_leave_one_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = dict(os.environ, JUDGE_CACHE_DIR=str(cache))
    command = [*JUDGE, "search", "étape de nettoyage", "--json"]
    runs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(8)]
    results = [(p.wait(timeout=600), *p.communicate()) for p in runs]
    assert [code for code, _, _ in results] == [0] * 8, [err for _, _, err in results]
    outputs = {out for _, out, _ in results}
    assert len(outputs) == 1 and '"hits"' in outputs.pop()
    names = sorted(p.name for p in cache.iterdir())
    assert not [n for n in names if n.startswith(".")], names  # no temporary or trashed leftovers
    assert len([n for n in names if n.startswith("index-")]) == 1, names
    assert len([n for n in names if n.startswith("kb-")]) == 1, names  # one knowledge base
    assert {"editions", "documents", "search"} <= {kind for kind, _ in parts(kb_file(cache))}
    # consistent: a ninth process reuses it all, rebuilds nothing, says nothing
    ninth = _run(cache, "search", "étape de nettoyage", "--json")
    assert (ninth.returncode, ninth.stderr) == (0, "")
    assert sorted(p.name for p in cache.iterdir()) == names


def test_stamps_see_a_change_and_never_trust_a_file_changed_just_now(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    file, folder = tmp_path / "a.txt", tmp_path / "sub"
    file.write_text("one", encoding="utf-8")
    folder.mkdir()
    fresh = stamps((file, folder))
    assert [signature for _, signature in fresh] == [None, None]  # changed within the clock's blur
    assert not unchanged(fresh)
    later = time.time_ns() + 3_000_000_000
    monkeypatch.setattr("judge.cache.time.time_ns", lambda: later)
    settled = stamps((file, folder, tmp_path / "absent"))
    assert unchanged(settled[:2]) and not unchanged(settled)
    file.write_text("two", encoding="utf-8")  # same size
    assert not unchanged(settled[:1])
    (folder / "new.py").write_text("", encoding="utf-8")
    assert not unchanged(settled[1:2])


def test_code_inputs_are_the_sources_and_their_folders_not_the_bytecode() -> None:
    inputs = code_inputs("corpus")
    names = {p.name for p in inputs}
    assert {"cache.py", "__init__.py", "corpus", "graph.py", "grammar.lark"} <= names
    assert not [p for p in inputs if "__pycache__" in p.parts or p.suffix == ".pyc"]


def test_eight_judge_rule_on_an_empty_cache_all_succeed_and_leave_one_store(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = dict(os.environ, JUDGE_CACHE_DIR=str(cache))
    runs = [subprocess.Popen([*JUDGE, "rule", "300.3", "--json"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(8)]
    results = [(p.wait(timeout=600), *p.communicate()) for p in runs]
    assert [code for code, _, _ in results] == [0] * 8, [err for _, _, err in results]
    outputs = {out for _, out, _ in results}
    assert len(outputs) == 1 and '"number": "300.3"' in outputs.pop()
    names = sorted(p.name for p in cache.iterdir())
    assert not [n for n in names if n.startswith(".")], names
    assert [n for n in names if n.startswith("kb-")] == names, names
    assert ("rules", "") in parts(kb_file(cache))
    ninth = _run(cache, "rule", "300.3", "--json")
    assert (ninth.returncode, ninth.stderr) == (0, "")
    assert sorted(p.name for p in cache.iterdir()) == names
