"""Worker processes for the costly work of `judge serve`: situation checks, searches, questions.

Checking a situation or running a search is CPU-bound Python. In a thread it holds the
interpreter lock and slows the event loop, and so every other client, for as long as it
runs; in another process it takes a core of its own and the loop keeps serving. `WorkPool`
keeps `processes` worker processes (forked from a clean server process that has imported the
task modules once: nothing of the server's threads is inherited, and a worker starts in a
fraction of a second; each gets the corpus once, opens its templates and search index, then
is reused), each with its own pipe and its own slot thread in the server, and bounds what
one request may cost without touching anyone else's:

- a deadline: a task not done `budget` seconds after it was submitted (waiting included) is
  a French 503 at once; still waiting, it is dropped from the queue; running, its own worker
  process gets `LATE_GRACE` seconds more to finish (its reply is dropped: a slow machine
  under load makes many tasks a little late, and a worker restarts in seconds), then is
  killed (SIGKILL) and replaced, so that no abandoned task keeps a core and its memory. The other workers, and the tasks of other clients, are never touched;
- a bounded queue: with `capacity` tasks submitted and not done, the next request is a French
  503 « serveur occupé » at once rather than a growing wait (only then);
- fairness between clients (`client_key`, the address a request came from): the queue is
  served in turn, one client after another, and a client never holds every worker while
  another client has been asking within `RECENT` seconds (one worker stays for the others);
- a worker that dies (killed, out of memory) is replaced and its task tried once more on the
  new one (within its deadline), then a French 503; the server keeps serving.

A task is a module-level function of the worker side (`judge.web.situations`), reading what
its process holds with `context()`. The pool starts with the app (`start`, the app's
lifespan) or at its first task (an app used without its lifespan), and `shutdown` stops and
joins the workers; a worker whose server process died exits by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
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
LOG = logging.getLogger("judge.web.pool")
PROCESSES = max(2, min(8, os.cpu_count() or 2))
QUEUE_PER_PROCESS = 32  # tasks waiting for a worker, per worker process, before « serveur occupé »
START_TIMEOUT = 120.0  # seconds for every worker to be ready (a loaded machine)
RECENT = 10.0  # seconds a client counts as asking after its last task (it keeps a worker free)
# Who asks: set per request by the app (`judge.web.guard`), read when a task is submitted.
client_key: contextvars.ContextVar[str] = contextvars.ContextVar("judge_client", default="")


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


def _worker_main(conn: Connection, graph: RuleGraph) -> None:
    """A worker process: its context, then tasks from its pipe, one at a time, until the
    pipe closes (the server stops it, or died)."""
    _start_worker(graph)
    try:
        conn.send(("ready", os.getpid()))
    except OSError:  # stopped before it was ready
        os._exit(0)
    while True:
        try:
            task, args = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        try:
            reply: tuple[str, Any] = ("ok", task(*args))
        except Exception as exc:  # sent to the server, which raises it in the request
            reply = ("error", _portable(exc))
        try:
            conn.send(reply)
        except (EOFError, OSError):
            os._exit(0)
        except Exception as exc:  # a result that cannot be sent (nothing was written)
            conn.send(("error", RuntimeError(f"résultat non transmissible : {exc!r}")))


def _portable(exc: Exception) -> Exception:
    """`exc` as it can cross the pipe and be rebuilt on the other side: a `Problem` as is, a
    `JudgeError` as its base class with its message (404 or 400 kept), anything else as a
    `RuntimeError` naming it (a 500)."""
    from judge.errors import JudgeError, NotFound

    if isinstance(exc, Problem):
        return exc
    if isinstance(exc, JudgeError):
        return NotFound(str(exc)) if isinstance(exc, NotFound) else JudgeError(str(exc))
    return RuntimeError(repr(exc))


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


class _Died(Exception):
    """The worker process of a task ended before answering."""


LATE_GRACE = 2.0  # seconds a task past its deadline may still finish before its worker is killed


class _Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, context: Any, graph: RuleGraph) -> None:
        ours, theirs = context.Pipe(duplex=True)
        self.process = context.Process(target=_worker_main, args=(theirs, graph), daemon=True,
                                       name="judge-worker")
        self.process.start()
        theirs.close()
        self.conn: Connection = ours
        self.pid: int = self.process.pid or 0
        self.ready = False
        self._greeting = threading.Lock()  # `start` and a slot may both wait for it

    def wait_ready(self, timeout: float) -> bool:
        """Whether the worker said it is ready within `timeout` seconds."""
        if not self._greeting.acquire(timeout=max(0.0, timeout)):
            return self.ready
        try:
            if not self.ready and self.conn.poll(timeout):
                self.ready = self.conn.recv()[0] == "ready"
        except (EOFError, OSError):
            return False
        finally:
            self._greeting.release()
        return self.ready

    def run(self, task: Callable[..., Any], args: tuple[Any, ...], deadline: float) -> tuple[str, Any] | None:
        """The worker's reply to one task, None past `deadline` (the worker is then killed)."""
        try:
            self.conn.send((task, args))
            if not self.conn.poll(max(0.0, deadline - time.monotonic())):
                if self.conn.poll(LATE_GRACE):  # late, but done: its reply dropped, the worker kept
                    self.conn.recv()
                    return "late", None
                self.kill()
                return None
            reply: tuple[str, Any] = self.conn.recv()
            return reply
        except (EOFError, OSError):
            raise _Died from None
        except Exception as exc:  # a task that cannot be sent (nothing written), an unreadable reply
            return "error", RuntimeError(f"tâche ou réponse non transmissible : {exc!r}")

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.process.kill()
        self.process.join(5)
        self.conn.close()

    def stop(self) -> None:
        """Close the pipe (the worker exits), then make sure it did."""
        self.conn.close()
        self.process.join(5)
        if self.process.is_alive():
            self.kill()


@dataclass(eq=False)
class _Job:
    """A task submitted: whose, until when, and the future its requester waits on."""

    task: Callable[..., Any]
    args: tuple[Any, ...]
    client: str
    deadline: float  # time.monotonic()
    budget: float
    free: Callable[[], None]
    future: Future[Any] = field(default_factory=Future)


class WorkPool:
    """`processes` worker processes with a bounded, fair queue; tasks run with a deadline."""

    def __init__(self, graph: RuleGraph, *, tasks: Iterable[ModuleType] = (), processes: int = PROCESSES,
                 queue: int | None = None) -> None:
        """`tasks`: the modules of the tasks, imported once by the process the workers fork from."""
        if processes < 1:
            raise ValueError("processes ≥ 1")
        self.graph = graph
        self.preload = [module.__name__ for module in tasks]
        self.processes = processes
        self.capacity = processes + (QUEUE_PER_PROCESS * processes if queue is None else queue)
        # Re-entrant: a task's future may be settled under it, and its callbacks free its place.
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)  # a task queued, a worker freed, or closing
        self._queues: OrderedDict[str, deque[_Job]] = OrderedDict()  # per client, served in turn
        self._running: Counter[str] = Counter()
        self._last_seen: dict[str, float] = {}
        self._pending = 0  # places taken: tasks queued or running, not yet answered
        self._workers: list[_Worker | None] = []
        self._slots: list[threading.Thread] = []
        self._generation = 0  # the slot threads of one start (a stopped pool's threads end)
        self._servers = 0  # lifespans running (`start` without `shutdown` yet)
        self._closed = False

    # ------------------------------------------------------------------ lifecycle
    def _context(self) -> Any:
        forkserver = multiprocessing.get_context("forkserver")
        forkserver.set_forkserver_preload(self.preload)  # once per process: the first pool's
        return forkserver

    def _ensure_started(self) -> list[_Worker | None]:
        """The workers, started with their slot threads if need be (under `_lock`)."""
        if self._closed:
            raise Problem(503, "le serveur s'arrête")
        if not self._slots:
            context = self._context()
            self._generation += 1
            self._workers = [_Worker(context, self.graph) for _ in range(self.processes)]
            self._slots = [threading.Thread(target=self._serve_slot, args=(index, self._generation),
                                            name=f"judge-pool-{index}", daemon=True)
                           for index in range(self.processes)]
            for thread in self._slots:
                thread.start()
        return list(self._workers)

    def start(self) -> None:
        """Start every worker and wait until each answers (so that no request waits for one).
        One call per server serving the app (a lifespan); the pool stops when the last of
        them calls `shutdown`, and serves again if started again."""
        with self._lock:
            self._closed = False
            self._servers += 1
            workers = self._ensure_started()
        deadline = time.monotonic() + START_TIMEOUT
        for worker in workers:
            if worker is not None:
                worker.wait_ready(max(0.0, deadline - time.monotonic()))

    def worker_pids(self) -> tuple[int, ...]:
        """The worker processes now running (for the tests and the logs)."""
        with self._lock:
            return tuple(sorted(worker.pid for worker in self._workers if worker is not None))

    def shutdown(self) -> None:
        """The end of a server's lifespan: at the last one, stop taking tasks, drop those
        waiting, and stop and join the workers."""
        with self._lock:
            self._servers -= 1
            if self._servers > 0:
                return
            self._servers = 0
            self._closed = True
            workers, self._workers = self._workers, []
            slots, self._slots = self._slots, []
            waiting = [job for jobs in self._queues.values() for job in jobs]
            self._queues.clear()
            self._wake.notify_all()
        for job in waiting:
            self._fail(job, Problem(503, "le serveur s'arrête"))
        for worker in workers:
            if worker is not None:
                worker.stop()
        for thread in slots:
            thread.join(10)

    # ------------------------------------------------------------------ the slots
    def _next_job(self, generation: int) -> _Job | None:
        """The next task for a free worker (under `_lock`): clients in turn, a client over its
        share skipped; None once the pool is stopped."""
        while not self._closed and generation == self._generation:
            now = time.monotonic()
            for client in list(self._queues):
                jobs = self._queues[client]
                while jobs and (jobs[0].future.done() or jobs[0].deadline <= now):
                    stale = jobs.popleft()  # its requester has given up: never started
                    self._fail(stale, over_budget(stale.budget))
                if not jobs:
                    del self._queues[client]
                    continue
                if self._running[client] >= self._share(client, now):
                    continue
                job = jobs.popleft()
                if not jobs:
                    del self._queues[client]
                else:
                    self._queues.move_to_end(client)  # the others first, next time
                if not job.future.set_running_or_notify_cancel():
                    continue
                self._running[client] += 1
                return job
            self._wake.wait(1.0)
        return None

    def _share(self, client: str, now: float) -> int:
        """How many workers `client` may hold at once: all, unless another client asked
        within `RECENT` seconds; then all but one."""
        others = any(other != client and now - seen < RECENT for other, seen in self._last_seen.items())
        return max(1, self.processes - 1) if others else self.processes

    def _serve_slot(self, index: int, generation: int) -> None:
        """One worker's thread: take a task, run it on this worker within its deadline,
        replace the worker when it is killed or dies."""
        while True:
            with self._lock:
                job = self._next_job(generation)
                worker = self._workers[index] if job is not None else None
            if job is None:
                return
            try:
                self._run(index, generation, worker, job)
            except Exception as exc:  # never the end of this slot: the task fails, the slot serves on
                LOG.warning("processus de calcul %d : %r", index, exc)
                self._fail(job, interrupted())
            finally:
                with self._lock:
                    self._running[job.client] -= 1
                    if self._running[job.client] <= 0:
                        del self._running[job.client]
                    self._wake.notify_all()

    def _run(self, index: int, generation: int, worker: _Worker | None, job: _Job) -> None:
        for attempt in range(2):
            try:
                if worker is None:
                    raise _Died
                if not worker.wait_ready(max(0.0, job.deadline - time.monotonic())):
                    if worker.process.is_alive():  # still starting (a loaded machine): kept
                        self._fail(job, over_budget(job.budget))
                        return
                    raise _Died
                reply = worker.run(job.task, job.args, job.deadline)
            except _Died:
                worker = self._renew(index, generation, worker)
                if attempt == 0 and job.deadline > time.monotonic():
                    continue  # once more, on the new worker
                self._fail(job, interrupted())
                return
            if reply is None:  # past its deadline: this worker was killed, and only this one
                self._fail(job, over_budget(job.budget))
                self._renew(index, generation, worker)
                return
            kind, value = reply
            if kind == "late":  # its requester had its 503 at the deadline; the worker serves on
                self._fail(job, over_budget(job.budget))
                return
            if not job.future.done():
                if kind == "ok":
                    job.future.set_result(value)
                else:
                    job.future.set_exception(value)
            return

    def _renew(self, index: int, generation: int, old: _Worker | None) -> _Worker | None:
        """A new worker in slot `index` in place of `old` (killed or dead)."""
        if old is not None:
            old.kill()
        with self._lock:
            if self._closed or generation != self._generation:
                return None
            context = self._context()
        fresh = _Worker(context, self.graph)
        with self._lock:
            if self._closed or generation != self._generation:
                keep = False
            else:
                self._workers[index] = fresh
                keep = True
        if not keep:
            fresh.stop()
            return None
        return fresh

    @staticmethod
    def _fail(job: _Job, problem: BaseException) -> None:
        """The task's requester gets `problem` (a French 503), unless it was answered."""
        with contextlib.suppress(Exception):  # answered or cancelled meanwhile
            if not job.future.done():
                job.future.set_exception(problem)

    # ------------------------------------------------------------------ tasks
    def _submit(self, task: Callable[..., T], args: tuple[Any, ...], budget: float) -> _Job:
        """Queue the task, or refuse it (queue full). Its place is freed once: when it ends,
        or when its requester stops waiting."""
        client = client_key.get()
        with self._lock:
            if self._pending >= self.capacity:
                raise busy()
            self._ensure_started()
            self._pending += 1
            freed = False

            def free() -> None:
                nonlocal freed
                with self._lock:
                    if not freed:
                        freed = True
                        self._pending -= 1

            now = time.monotonic()
            job = _Job(task, args, client, now + budget, budget, free)
            job.future.add_done_callback(lambda _: free())
            self._last_seen[client] = now
            if len(self._last_seen) > 4 * self.capacity:  # forget the clients gone quiet
                self._last_seen = {key: seen for key, seen in self._last_seen.items() if now - seen < RECENT}
            self._queues.setdefault(client, deque()).append(job)
            self._wake.notify()
        return job

    async def run(self, budget: float, task: Callable[..., T], *args: Any) -> T:
        """`task(*args)` in a worker, awaited on the event loop, within `budget` seconds."""
        job = self._submit(task, args, budget)
        try:
            result: T = await asyncio.wait_for(asyncio.wrap_future(job.future),
                                               max(0.0, job.deadline - time.monotonic()))
            return result
        except (TimeoutError, asyncio.CancelledError) as stop:
            job.future.cancel()  # still waiting: never started (running: its slot kills it)
            job.free()
            if isinstance(stop, asyncio.CancelledError):
                raise
            raise over_budget(budget) from None

    def call(self, budget: float, task: Callable[..., T], *args: Any) -> T:
        """`task(*args)` in a worker, waited for in this (worker) thread, within `budget` seconds."""
        job = self._submit(task, args, budget)
        try:
            result: T = job.future.result(max(0.0, job.deadline - time.monotonic()))
            return result
        except TimeoutError:
            job.future.cancel()
            job.free()
            raise over_budget(budget) from None
