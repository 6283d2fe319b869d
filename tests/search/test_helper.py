"""The helper process of a first run (`judge.search.helper`): it does its task, a failed one is redone
by its caller, a stopped one cleans up and is reaped (no zombie), none is started from a helper
or beside other threads; and what two processes build is what one builds: the same search
index export, the same answers; a first run interrupted by Ctrl-C exits 130 without a
traceback, leaving no process and no half-built index."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest

from judge.search import helper

EVAL = Path(__file__).resolve().parents[1] / "search_eval.toml"


def _answer(index: Any, query: str) -> tuple[Any, str | None]:
    from judge.search.query import QueryError

    try:
        result = index.search(query)
    except QueryError:  # only stop words: nothing to search
        return (), None
    return result.hits, result.suggestion


JUDGE = str(Path(sys.executable).with_name("judge"))
needs_cores = pytest.mark.skipif(not hasattr(os, "fork") or helper._cores() < 2, reason="no second core (or no fork)")


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Helpers started from this process although a test runner may have a thread of its own
    here (pytest-xdist's): these tests fork all the same."""
    monkeypatch.setattr(helper, "_threads", lambda: 1)


def _gone(pid: int) -> bool:
    """True when `pid` is no child of ours any more (reaped: no zombie)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@needs_cores
@pytest.mark.usefixtures("forking")
def test_a_helper_does_its_task_and_is_reaped(tmp_path: Path) -> None:
    child = helper.start(lambda: (tmp_path / "done").write_text("yes"))
    assert child is not None
    pid = child.pid
    assert child.wait() and (tmp_path / "done").read_text() == "yes"
    assert _gone(pid)


@needs_cores
@pytest.mark.usefixtures("forking")
def test_a_failed_task_says_so() -> None:
    def fail() -> None:
        raise OSError("disque plein")

    child = helper.start(fail)
    assert child is not None and child.wait() is False


@needs_cores
@pytest.mark.usefixtures("forking")
def test_a_stopped_helper_runs_its_cleanup_and_leaves_no_zombie(tmp_path: Path) -> None:
    started, cleaned = tmp_path / "started", tmp_path / "cleaned"

    def task() -> None:
        try:
            started.write_text("")
            time.sleep(60)
        finally:
            cleaned.write_text("")

    child = helper.start(task)
    assert child is not None
    pid = child.pid
    while not started.exists():
        time.sleep(0.01)
    child.close()
    assert cleaned.exists()  # SIGTERM became an exception in the helper: its `finally` ran
    assert _gone(pid)
    assert child.wait() is False


@needs_cores
@pytest.mark.usefixtures("forking")
def test_no_helper_from_a_helper_or_beside_other_threads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    child = helper.start(lambda: (tmp_path / "nested").write_text(repr(helper.available())))
    assert child is not None and child.wait()
    assert (tmp_path / "nested").read_text() == "False"
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        monkeypatch.undo()  # the threads counted again: there is one more now
        assert helper.start(lambda: None) is None
    finally:
        stop.set()
        other.join()


@needs_cores
@pytest.mark.usefixtures("forking")
def test_two_processes_build_the_index_one_builds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The index built with a helper (a second segment) and without: the same export (terms,
    document numbers, frequencies, positions, lengths, cards) and the same answers to every
    query of the search eval set (hits, suggestions: « fisrt strike » was corrected only with
    two segments, whose reader counted a transposition as one edit)."""
    from judge.corpus.loader import load_graph
    from judge.search.engine import open_index
    from judge.search.export import build_export, index_name
    from judge.search.index import open_folder, record_of

    graph = load_graph()
    every = sorted({case["q"] for case in tomllib.loads(EVAL.read_text(encoding="utf-8"))["query"]})
    # The whole eval set (« fisrt strike » among them: the query that once told the two apart).
    queries = every
    assert "fisrt strike" in queries
    exports, answers = [], []
    for shared in (True, False):
        monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / f"cache-{shared}"))
        if not shared:
            monkeypatch.setattr(helper, "available", lambda: False)
        index = open_index(graph)
        folder = tmp_path / f"cache-{shared}" / index_name(graph.editions)[0]
        segments = {name.split("_")[0] for name in os.listdir(folder) if name.endswith(".seg")}
        assert segments == {*record_of(folder)["counts"]}  # every index in the folder, whole
        joined = [name for name in os.listdir(folder) if name.endswith("_2.toc")]
        assert bool(joined) == shared  # with a helper, a language's index has a second segment
        indexes = open_folder(folder)
        assert indexes is not None
        exports.append(build_export(graph, indexes, "index"))
        answers.append([_answer(index, query) for query in queries])
    assert exports[0] == exports[1]
    assert answers[0] == answers[1]
    assert sum(1 for hits, _ in answers[0] if hits) > len(queries) * 0.9


@needs_cores
def test_ctrl_c_during_a_first_search_leaves_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = dict(os.environ, JUDGE_CACHE_DIR=str(cache))
    run = subprocess.Popen([JUDGE, "search", "brûlure de mana"], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert run.stderr is not None
    for line in run.stderr:  # interrupted while both processes build the index
        if "Index de recherche (" in line:
            break
    os.killpg(run.pid, signal.SIGINT)  # what Ctrl-C does: the whole process group
    rest = run.stderr.read()
    code = run.wait(timeout=120)
    for pipe in (run.stdout, run.stderr):
        if pipe is not None:
            pipe.close()
    assert "Traceback" not in rest
    if code != 0:  # interrupted (else the search had already ended: nothing to check)
        assert (code, rest.strip().splitlines()[-1]) == (130, "judge : interrompu")
    assert not [p for p in cache.iterdir() if p.name.startswith((".building-", ".tmp-"))]
    left = subprocess.run(["pgrep", "-s", str(run.pid)], capture_output=True, text=True).stdout.split()
    assert left == []  # no helper left running
