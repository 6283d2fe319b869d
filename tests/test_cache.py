"""Caches that cannot be planted: a private folder, foreign or shared-writable files ignored
(one warning, then rebuilt), and eight processes starting at once on an empty cache."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from judge.cache import code_inputs, ensure_dir, read_pickle, stamps, unchanged, write_pickle

JUDGE = [str(Path(sys.executable).with_name("judge"))]
WARNING = "cache ignoré"


class _Plant:
    """A pickle that, when loaded, creates the file `marker` (what a planted cache could do)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.marker), "w"))


def _run(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, JUDGE_CACHE_DIR=str(cache))
    return subprocess.run([*JUDGE, *args], env=env, capture_output=True, text=True, timeout=300)


def test_cache_folder_is_created_private(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "cache"
    write_pickle(folder / "x.pickle", (1, 2))
    assert folder.stat().st_mode & 0o777 == 0o700
    assert (folder / "x.pickle").stat().st_mode & 0o077 == 0
    assert read_pickle(folder / "x.pickle") == (1, 2)
    ensure_dir(folder)  # already there: unchanged
    assert folder.stat().st_mode & 0o777 == 0o700


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A cache filled by one `judge rule 300.3`, and that command's output."""
    cache = tmp_path_factory.mktemp("warm") / "cache"
    first = _run(cache, "rule", "300.3")
    assert first.returncode == 0, first.stderr
    assert first.stderr == ""
    return cache, first.stdout


def _planted_copy(warm: Path, tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    """The warm cache with a planted corpus pickle, and its rule store (marshal: it cannot run
    code, but a store someone else could write is not believed either)."""
    cache = tmp_path / "cache"
    shutil.copytree(warm, cache)
    (corpus,) = cache.glob("corpus-*.pickle")
    (store,) = cache.glob("rules-*.store")
    marker = tmp_path / "planted-code-ran"
    corpus.write_bytes(pickle.dumps(_Plant(marker)))
    return cache, corpus, store, marker


def test_cache_file_writable_by_others_is_ignored_once_and_rebuilt(
    warm_cache: tuple[Path, str], tmp_path: Path
) -> None:
    warm, expected = warm_cache
    cache, corpus, store, marker = _planted_copy(warm, tmp_path)
    corpus.chmod(0o666)
    store.chmod(0o666)
    for other in cache.glob("*.pickle"):
        other.chmod(0o664)
    run = _run(cache, "rule", "300.3")
    assert run.returncode == 0, run.stderr
    assert run.stdout == expected
    assert not marker.exists()
    warnings = [line for line in run.stderr.splitlines() if WARNING in line]
    assert len(warnings) == 1 and "modifiable par d'autres" in warnings[0], run.stderr
    # rebuilt: the next run reads a private, trusted cache and says nothing
    assert corpus.stat().st_mode & 0o077 == 0
    assert store.stat().st_mode & 0o077 == 0
    again = _run(cache, "rule", "300.3")
    assert (again.returncode, again.stdout, again.stderr) == (0, expected, "")


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="chown needs root")
def test_cache_file_of_another_user_is_ignored_once_and_rebuilt(
    warm_cache: tuple[Path, str], tmp_path: Path
) -> None:
    warm, expected = warm_cache
    cache, corpus, store, marker = _planted_copy(warm, tmp_path)
    corpus.chmod(0o600)
    os.chown(corpus, 65534, 65534)
    os.chown(store, 65534, 65534)
    run = _run(cache, "rule", "300.3")
    assert run.returncode == 0, run.stderr
    assert run.stdout == expected
    assert not marker.exists()
    warnings = [line for line in run.stderr.splitlines() if WARNING in line]
    assert len(warnings) == 1 and "autre utilisateur" in warnings[0], run.stderr
    assert corpus.stat().st_uid == os.getuid()
    assert store.stat().st_uid == os.getuid()


def test_search_index_file_writable_by_others_is_ignored_and_rebuilt(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _run(cache, "search", "pile", "--json")
    assert first.returncode == 0, first.stderr
    (index,) = cache.glob("index-*")
    (index / "export.marshal").chmod(0o666)  # what `judge search` reads
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
    assert len([n for n in names if n.startswith("corpus-")]) == 1, names
    assert len([n for n in names if n.startswith("editions-")]) == 1, names
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
    assert len([n for n in names if n.startswith("rules-")]) == 1, names
    ninth = _run(cache, "rule", "300.3", "--json")
    assert (ninth.returncode, ninth.stderr) == (0, "")
    assert sorted(p.name for p in cache.iterdir()) == names
