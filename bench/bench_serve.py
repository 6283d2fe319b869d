"""Benchmark: `judge serve` under load on loopback. Run by hand.

    .venv/bin/python bench/bench_serve.py [--requests 2000] [--clients 64] [--cold]

Starts `judge serve`'s app with uvicorn on 127.0.0.1 (free port) in a child process, so that
client and server do not share one interpreter lock, then sends the requests of each scenario
from `--clients` concurrent connections. Prints errors (must be 0), p50/p95 and requests/s.
Targets (issue 14): mixed requests p95 ≤ 50 ms; the same while one more client keeps sending
the most expensive valid request (`EXPENSIVE`, a body just under the 64 KiB limit): the
others' p95 ≤ 100 ms. `--cold` turns the search result cache off so every /api/search runs
a real query. Exit status 1 when a request failed or a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import httpx
from starlette.applications import Starlette

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.corpus.loader import load_graph  # noqa: E402
from judge.web.app import create_app  # noqa: E402
from judge.web.work import tune_interpreter  # noqa: E402

TARGET_P95_MS = 50.0
TARGET_LOADED_P95_MS = 100.0
QUERIES = (
    "brûlure de mana", "blessures de combat", "initiative", "308.2a", "priorité", "pioche",
    "étape de nettoyage", "attaquant", "bloqueur", "défausser", "célérité", "phase principale",
    "terrain", "pile", "joueur actif", "dégagement", "entretien", "capacité déclenchée",
    "double initiative", "mana", "tour supplémentaire", "combat", "Mur", "atacker",
)
SITUATION = json.dumps({
    "edition": "2004", "active": "A", "phase": "combat", "step": "declare_attackers",
    "priority": "A",
    "creatures": [{"name": "Ours runeguerrier", "controller": "A", "since_turn_start": False}],
    "questions": [{"ask": "attack", "creature": "Ours runeguerrier"}],
})

Request = tuple[str, str, str | None]  # method, path, body


def _expensive() -> str:
    """The costliest situation found that the server must answer: as many `turn_order`
    questions of the largest count as fit under the body limit (each answer is 1000 turns)."""
    question = {"ask": "turn_order", "count": 1000}
    body = {"edition": "2004", "active": "A", "players": ["A", "B", "C"], "extra_turns": ["B", "A"],
            "phase": "beginning", "step": "upkeep", "questions": [question]}
    while len(json.dumps(body)) < 63 * 1024:
        body["questions"].append(question)
    return json.dumps(body)


EXPENSIVE = _expensive()


@dataclass(frozen=True, slots=True)
class Outcome:
    name: str
    count: int
    errors: int
    seconds: float
    latencies_ms: tuple[float, ...]

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]

    def line(self) -> str:
        return (f"{self.name:<12} {self.count:>5} req  erreurs {self.errors}  "
                f"p50 {statistics.median(self.latencies_ms):6.1f} ms  p95 {self.percentile(95):6.1f} ms  "
                f"{self.count / self.seconds:7.0f} req/s")


def search_requests(n: int) -> list[Request]:
    return [("GET", f"/api/search?{urlencode({'q': QUERIES[i % len(QUERIES)], 'limit': 10})}", None)
            for i in range(n)]


def mixed_requests(n: int) -> list[Request]:
    cycle: list[Request] = [
        ("GET", "/2004/308.html", None),
        ("GET", "/api/rule/308.2a", None),
        ("POST", "/api/check", SITUATION),
        ("GET", "/recherche?q=blessures", None),
        ("GET", "/", None),
        ("GET", "/api/search?q=pile", None),
    ]
    return [cycle[i % len(cycle)] for i in range(n)]


class Connection:
    """One kept-alive HTTP/1.1 connection with the least client work possible: on two cores,
    httpx's own cost per request (~1.5 ms) would be measured instead of the server's."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str) -> None:
        self.reader, self.writer, self.host = reader, writer, host

    @classmethod
    async def open(cls, host: str, port: int) -> Connection:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer, f"{host}:{port}")

    async def request(self, method: str, path: str, body: str | None) -> int:
        payload = body.encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        await self.writer.drain()
        header = await self.reader.readuntil(b"\r\n\r\n")
        lines = header.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(
            (int(line.split(":", 1)[1]) for line in lines[1:] if line.lower().startswith("content-length:")),
            None,
        )
        if length is None:
            raise ConnectionError("réponse sans Content-Length")
        await self.reader.readexactly(length)
        return status

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def run(base_url: str, name: str, requests: list[Request], clients: int, *, hog: bool = False) -> Outcome:
    """Send `requests` from `clients` connections at once (all connected before timing);
    with `hog`, one more connection sends `EXPENSIVE` again and again until they are done
    (its own answers are counted apart: 200 or the French 503 of the time budget)."""
    url = httpx.URL(base_url)
    host, port = url.host, url.port or 80
    assert host == "127.0.0.1", "loopback only"
    latencies: list[float] = []
    errors = 0
    queue: asyncio.Queue[Request] = asyncio.Queue()
    for item in requests:
        queue.put_nowait(item)
    start = asyncio.Event()  # every client connected: go
    ready: list[Connection] = []

    async def worker() -> None:
        nonlocal errors
        connection = await Connection.open(host, port)
        await connection.request("GET", "/api/rule/300", None)  # connected before the clock starts
        ready.append(connection)
        await start.wait()
        try:
            while True:
                try:
                    method, path, body = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                sent = time.perf_counter()
                try:
                    ok = await connection.request(method, path, body) == 200
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    ok = False
                    connection = await Connection.open(host, port)
                latencies.append((time.perf_counter() - sent) * 1000)
                errors += not ok
        finally:
            await connection.close()

    hogged: list[int] = []
    done = asyncio.Event()

    async def hog_worker() -> None:
        connection = await Connection.open(host, port)
        await start.wait()
        try:
            while not done.is_set():
                hogged.append(await connection.request("POST", "/api/check", EXPENSIVE))
        finally:
            await connection.close()

    tasks = [asyncio.create_task(worker()) for _ in range(clients)]
    hog_task = asyncio.create_task(hog_worker()) if hog else None
    while len(ready) < clients:
        await asyncio.sleep(0.01)
    began = time.perf_counter()
    start.set()
    await asyncio.gather(*tasks)
    seconds = time.perf_counter() - began
    done.set()
    if hog_task is not None:
        await hog_task
        statuses = {code: hogged.count(code) for code in sorted(set(hogged))}
        print(f"  client lourd : {len(hogged)} requêtes de {len(EXPENSIVE)} octets, statuts {statuses}")
        errors += sum(1 for code in hogged if code not in (200, 503))
    return Outcome(name, len(requests), errors, seconds, tuple(latencies))


def warm_app() -> Starlette:
    """App factory for the worker processes: `judge serve`'s app, as is."""
    warnings.simplefilter("ignore", RuntimeWarning)  # an index rebuild notice is not a result
    tune_interpreter()  # as `judge serve` does
    return create_app(load_graph())


def cold_app() -> Starlette:
    """App factory for the worker processes: no search result cache (every query runs)."""
    app = warm_app()
    app.state.judge.search_cache_size = 0
    app.state.judge.response_cache_size = 0
    return app


def serve_child(port: int, cold: bool, workers: int) -> None:
    """The child process: the app of `judge serve` on 127.0.0.1:`port`, no access log."""
    import uvicorn

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    factory = f"bench_serve:{'cold_app' if cold else 'warm_app'}"
    uvicorn.run(factory, factory=True, workers=workers, host="127.0.0.1", port=port,
                log_level="warning", access_log=False)


@contextmanager
def server_process(*, cold: bool, workers: int) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, __file__, "--serve", str(port), "--workers", str(workers)]
    command += ["--cold"] if cold else []
    child = subprocess.Popen(command)
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base_url}/api/rule/300", timeout=1).status_code < 500:
                    break
            except httpx.HTTPError:
                pass
            if child.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("le serveur n'a pas démarré")
            time.sleep(0.05)
        yield base_url
    finally:
        child.terminate()
        child.wait(10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--cold", action="store_true", help="sans cache des résultats de recherche")
    parser.add_argument("--workers", type=int, default=1, help="processus serveurs (judge serve --workers)")
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_child(args.serve, args.cold, args.workers)
        return 0

    scenarios: list[tuple[str, Callable[[int], list[Request]], bool]] = [
        ("/api/search", search_requests, False),
        ("mixte", mixed_requests, False),
        ("mixte+lourd", mixed_requests, True),
    ]
    outcomes: list[Outcome] = []
    with server_process(cold=args.cold, workers=args.workers) as base_url:
        # One warm-up pass so that the first-use costs (page cache, searchers) are not timed.
        asyncio.run(run(base_url, "chauffe", mixed_requests(12) + search_requests(len(QUERIES)), 4))
        for name, make, hog in scenarios:
            outcomes.append(asyncio.run(run(base_url, name, make(args.requests), args.clients, hog=hog)))
    print(f"{args.requests} requêtes par scénario, {args.clients} clients concurrents, "
          f"{args.workers} processus serveur(s), "
          f"cache de recherche {'désactivé' if args.cold else 'actif'}")
    for outcome in outcomes:
        print(outcome.line())
    _, mixed, loaded = outcomes
    failed = sum(o.errors for o in outcomes)
    verdicts = (
        (f"mixte p95 ≤ {TARGET_P95_MS:.0f} ms", mixed.percentile(95) <= TARGET_P95_MS),
        (f"mixte+lourd p95 des autres ≤ {TARGET_LOADED_P95_MS:.0f} ms", loaded.percentile(95) <= TARGET_LOADED_P95_MS),
        ("0 erreur", failed == 0),
    )
    for label, ok in verdicts:
        print(f"objectif {label} : {'atteint' if ok else 'MANQUÉ'}")
    return 0 if all(ok for _, ok in verdicts) else 1


if __name__ == "__main__":
    raise SystemExit(main())
