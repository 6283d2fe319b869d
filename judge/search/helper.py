"""A second process for a first run's work, when the machine has a second core.

A cache built from scratch splits its work in two (the search index; the book's search index
while its pages are written): `start(task)` forks this process, the child runs `task()` while
the caller does its own share, and `Helper.wait` says whether the child finished. The child
inherits everything the caller holds (the rule graph, the documents to index: nothing is sent
to it) and writes what it makes as any writer of the cache does: files of a temporary folder
renamed into place, or a knowledge base part (`judge.cache.write_kb`, the cache's lock
respected), so that what it leaves half-written is never read. It prints nothing but its
progress lines (`judge.progress`) and ends with `os._exit`, so that nothing of the caller's
(buffered output, `finally` blocks, exit handlers) runs twice. A helper starts no helper.

No helper (`start` gives None, the caller does all the work, the files are the same) when
there is no second core, no `fork`, or the process has other threads: a server's threads may
hold locks that a forked child would wait for forever.

Ctrl-C: SIGINT is blocked across the fork and the child ignores it (the terminal sends it to
the whole process group). The caller, interrupted (or failing), stops the child before the
interrupt goes on (`close`, or leaving the `with` block): SIGTERM, which the child turns into
an exception so that its own cleanup runs (its temporary files removed), then SIGKILL if it
is not gone within `GRACE` seconds; the child is reaped either way: no zombie, no process
left writing, exit 130 as before.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable

GRACE = 2.0  # seconds a stopped helper has to remove its temporary files
_in_helper = False  # set in a helper: it starts none of its own (one helper, one more core)


def available() -> bool:
    """True when a helper can be forked and would run on a core of its own."""
    if _in_helper or not hasattr(os, "fork") or _threads() != 1:
        return False
    return threading.current_thread() is threading.main_thread() and _cores() >= 2


def _threads() -> int:
    """The threads of this process, those that Python did not start included (Linux's
    `/proc`; elsewhere, Python's own)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Helper:
    """A forked child running a task; `wait` for it, or `close` (kill it) on the way out."""

    __slots__ = ("done", "pid")

    def __init__(self, pid: int) -> None:
        self.pid, self.done = pid, False

    def wait(self) -> bool:
        """Wait for the child; True when it finished its task (exit status 0)."""
        if self.pid:
            _, status = os.waitpid(self.pid, 0)
            self.pid = 0
            self.done = os.waitstatus_to_exitcode(status) == 0
        return self.done

    def close(self) -> None:
        """Stop the child if it is still running (SIGTERM, then SIGKILL after `GRACE`
        seconds), and reap it."""
        if not self.pid:
            return
        pid, self.pid = self.pid, 0
        deadline = time.monotonic() + GRACE
        stop: int = signal.SIGTERM
        while True:
            try:
                if stop:
                    os.kill(pid, stop)
                    stop = 0
                if os.waitpid(pid, os.WNOHANG)[0]:
                    return
                if time.monotonic() > deadline:
                    stop, deadline = signal.SIGKILL, float("inf")
                time.sleep(0.005)
            except ChildProcessError:
                return
            except ProcessLookupError:
                stop = 0
            except KeyboardInterrupt:  # a second Ctrl-C: the child is stopped all the same
                stop = signal.SIGKILL

    def __enter__(self) -> Helper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Stop(BaseException):
    """Raised in a helper that its caller stops: its `finally` blocks run, then it exits."""


def _stopped(signum: int, frame: object) -> None:
    raise _Stop


def start(task: Callable[[], object]) -> Helper | None:
    """`task()` run by a forked child (its value is dropped: it writes files), or None when no
    helper is `available` (the caller then runs the task itself)."""
    if not available():
        return None
    for stream in (sys.stdout, sys.stderr):  # nothing buffered is inherited, to be written twice
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    # Blocked until the child has its handlers: no signal reaches it before.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        pid = os.fork()
    except OSError:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        return None
    if pid == 0:  # the child: never returns
        global _in_helper
        _in_helper = True
        code = 1
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, _stopped)
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            task()
            code = 0
        except BaseException:  # the caller does the task again and meets the error itself
            pass
        finally:
            os._exit(code)
    child = Helper(pid)
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # a pending Ctrl-C is raised here
    except BaseException:
        child.close()
        raise
    return child
