"""Worker processes for the costly work of `judge serve`: situation checks and searches.

Checking a situation or running a search is CPU-bound Python. In a thread it holds the
interpreter lock and slows the event loop, and so every other client, for as long as it
runs; in another process it takes a core of its own and the loop keeps serving. `WorkPool`
keeps `processes` worker processes (forked from a clean server process that has imported the
task modules once: nothing of the server's threads is inherited, and a worker starts in a
fraction of a second; each gets the corpus once, opens its templates and search index, then
is reused), and bounds what one request may cost:

- a deadline: a task not done `budget` seconds after it was submitted (waiting included) is
  a French 503 at once; still waiting, it is cancelled; running, its worker processes are
  killed at once and replaced (a process pool cannot lose one worker without breaking: the
  tasks the other workers were running are tried again on the new ones, within their own
  deadlines), so that no abandoned task keeps a core and its memory;
- a bounded queue: with `processes + queue` tasks submitted and not done, the next request is
  a French 503 « serveur occupé » at once rather than a growing wait;
- a worker that dies (killed, out of memory) breaks the executor: a new one is started and
  the request tried once more, then a French 503; the server keeps serving.

A task is a module-level function of the worker side (`judge.web.situations`), reading what
its process holds with `context()`. The pool starts with the app (`start`, the app's
lifespan) or at its first task (an app used without its lifespan), and `shutdown` stops and
joins the workers; a worker whose server process died exits by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import wait
from types import ModuleType
from typing import Any, TypeVar

import jinja2

from judge.ask.reader import parser as ask_grammar
from judge.checks.catalog import every_check
from judge.corpus.graph import RuleGraph
from judge.search.engine import RuleIndex, index_for
from judge.search.query import search_with
from judge.web.refusals import Problem
from judge.web.state import page_environment

T = TypeVar("T")
PROCESSES = max(2, min(8, os.cpu_count() or 2))
QUEUE_PER_PROCESS = 32  # tasks waiting for a worker, per worker process, before « serveur occupé »
START_TIMEOUT = 120.0  # seconds for every worker to be ready (a loaded machine)


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkerContext:
    """What a worker process holds, built once when it starts."""

    graph: RuleGraph
    env: jinja2.Environment
    search_index: RuleIndex  # the Whoosh index of record, as `judge search` queries it


_CONTEXT: list[WorkerContext] = []  # this process's context, once it is a worker


def context() -> WorkerContext:
    """The worker context of this process (a task runs only in a started worker)."""
    return _CONTEXT[0]


def _exit_with_parent() -> None:
    parent = multiprocessing.parent_process()
    if parent is not None:
        wait([parent.sentinel])
        os._exit(0)


def _start_worker(graph: RuleGraph) -> None:
    # Ctrl-C on `judge serve` reaches the whole process group: the server stops its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, name="judge-parent-watch", daemon=True).start()
    worker = WorkerContext(graph=graph, env=page_environment(), search_index=index_for(graph))
    # The first use of the templates, of the index and of each topic's checks (imported on
    # demand, for `judge check`'s cold start) reads them: not inside a request.
    worker.env.get_template("situation.html")
    worker.env.get_template("question.html")
    search_with(worker.search_index, "tour", limit=1)
    every_check()
    ask_grammar()  # « Posez votre question »: the grammar of judges' French, loaded once
    _CONTEXT[:] = [worker]


def _ready() -> int:
    return os.getpid()


def busy() -> Problem:
    return Problem(503, "serveur occupé : trop de calculs sont en attente ; réessayez dans un instant")


def over_budget(seconds: float) -> Problem:
    return Problem(
        503,
        f"la requête a dépassé le temps de calcul qui lui est alloué ({seconds:g} s) ; "
        "simplifiez-la ou réessayez plus tard",
    )


def interrupted() -> Problem:
    return Problem(503, "le calcul a été interrompu (processus de calcul arrêté) ; réessayez")


class WorkPool:
    """`processes` worker processes with a bounded queue; tasks run with a deadline."""

    def __init__(self, graph: RuleGraph, *, tasks: Iterable[ModuleType] = (), processes: int = PROCESSES,
                 queue: int | None = None) -> None:
        """`tasks`: the modules of the tasks, imported once by the process the workers fork from."""
        if processes < 1:
            raise ValueError("processes ≥ 1")
        self.graph = graph
        self.preload = [module.__name__ for module in tasks]
        self.processes = processes
        self.capacity = processes + (QUEUE_PER_PROCESS * processes if queue is None else queue)
        self._lock = threading.Lock()  # the executor and the count; tasks end in another thread
        self._executor: ProcessPoolExecutor | None = None
        self._pending = 0
        self._servers = 0  # lifespans running (`start` without `shutdown` yet)
        self._closed = False

    # ------------------------------------------------------------------ lifecycle
    def _current(self) -> ProcessPoolExecutor:
        """The executor, started if need be (under `_lock`); none once shut down."""
        if self._closed:
            raise Problem(503, "le serveur s'arrête")
        if self._executor is None:
            forkserver = multiprocessing.get_context("forkserver")
            forkserver.set_forkserver_preload(self.preload)  # once per process: the first pool's
            self._executor = ProcessPoolExecutor(
                self.processes, mp_context=forkserver, initializer=_start_worker, initargs=(self.graph,),
            )
        return self._executor

    def start(self) -> None:
        """Start every worker and wait until each answers (so that no request waits for one).
        One call per server serving the app (a lifespan); the pool stops when the last of
        them calls `shutdown`, and serves again if started again."""
        with self._lock:
            self._closed = False
            self._servers += 1
            executor = self._current()
        for future in [executor.submit(_ready) for _ in range(self.processes)]:
            future.result(START_TIMEOUT)

    def worker_pids(self) -> tuple[int, ...]:
        """The worker processes now running (for the tests and the logs)."""
        with self._lock:
            executor = self._executor
        processes = getattr(executor, "_processes", None) or {}
        return tuple(sorted(processes))

    def shutdown(self) -> None:
        """The end of a server's lifespan: at the last one, stop taking tasks, cancel those
        waiting, and join the workers."""
        with self._lock:
            self._servers -= 1
            if self._servers > 0:
                return
            self._servers = 0
            self._closed = True
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is broken:
                self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)

    def _abandon(self, executor: ProcessPoolExecutor, future: Future[Any]) -> None:
        """A task past its deadline: cancelled if it still waits; running, its executor's
        workers are killed (SIGKILL) and new ones started."""
        if future.cancel() or future.done():
            return
        processes = list((getattr(executor, "_processes", None) or {}).values())
        self._replace(executor)
        for process in processes:
            with contextlib.suppress(OSError, ValueError):  # already gone
                process.kill()
        with self._lock:
            if self._closed:
                return
            fresh = self._current()
        with contextlib.suppress(BrokenProcessPool, RuntimeError):
            fresh.submit(_ready)  # the new workers start now, not at the next request

    # ------------------------------------------------------------------ tasks
    def _submit(self, task: Callable[..., T], args: tuple[Any, ...]
                ) -> tuple[ProcessPoolExecutor, Future[T], Callable[[object], None]]:
        """Count the task in, or refuse it (queue full); a broken executor is replaced once.
        With the future comes its place's release (`_place`), done when the task ends."""
        with self._lock:
            if self._pending >= self.capacity:
                raise busy()
            self._pending += 1
        free = self._place()
        try:
            for _ in range(2):
                with self._lock:
                    executor = self._current()
                try:
                    future = executor.submit(task, *args)
                except (BrokenProcessPool, RuntimeError):  # broken, or just replaced
                    self._replace(executor)
                    continue
                future.add_done_callback(free)
                return executor, future, free
            raise interrupted()
        except BaseException:
            free(None)
            raise

    def _place(self) -> Callable[[object], None]:
        """The release of one counted place, which frees it once: when its task ends, or at
        once when the task is abandoned past its deadline (its workers killed: the executor
        marks it failed only when it notices)."""
        freed = False

        def free(_: object) -> None:
            nonlocal freed
            with self._lock:
                if not freed:
                    freed = True
                    self._pending -= 1

        return free

    async def run(self, budget: float, task: Callable[..., T], *args: Any) -> T:
        """`task(*args)` in a worker, awaited on the event loop, within `budget` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + budget
        for _ in range(2):
            executor, future, free = self._submit(task, args)
            try:
                return await asyncio.wait_for(asyncio.wrap_future(future), max(0.0, deadline - loop.time()))
            except TimeoutError:
                self._abandon(executor, future)
                free(None)
                raise over_budget(budget) from None
            except BrokenProcessPool:  # its worker died: once more, on a new executor
                self._replace(executor)
        raise interrupted()

    def call(self, budget: float, task: Callable[..., T], *args: Any) -> T:
        """`task(*args)` in a worker, waited for in this (worker) thread, within `budget` seconds."""
        deadline = time.monotonic() + budget
        for _ in range(2):
            executor, future, free = self._submit(task, args)
            try:
                return future.result(max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                self._abandon(executor, future)
                free(None)
                raise over_budget(budget) from None
            except BrokenProcessPool:
                self._replace(executor)
        raise interrupted()
