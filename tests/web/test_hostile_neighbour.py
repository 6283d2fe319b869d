"""Issue 38: a hostile client beside ordinary ones. A real `judge serve` (two worker processes,
as on a two-core laptop), one bounded hostile client from another address sending the two
attacks of the issue in turn — a question the reader took minutes over (`GET /question`, past
its budget on the build it was found on) and an unterminated JSON string of escaped quotes
(`POST /api/check`, quadratic to pre-check on it) — while three ordinary clients search, each
query new (no cache answers it). Before: 4 of 29 ordinary searches answered 200, the others
500 (`CancelledError`) or 503. Now: none 500, no traceback in the log, and with the attacker
the ordinary clients get at least 95 % of the 200s they get alone on the same machine in the same
run (a first phase without the attacker: on a loaded machine a search may pass its own budget,
which is the machine, not the neighbour)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest

ATTACK_SECONDS = 15.0
ALONE_SECONDS = 8.0
HOSTILE_ADDRESS = "127.0.0.2"  # another machine of the venue, as the server sees it
QUESTION = "B " + "\ufdfa" * 120
ESCAPED_QUOTES = "[" * 70 + '{"active": "' + '\\"' * 30_000  # 60 KB: under the body limit
WORDS = ("mana", "combat", "pioche", "terrain", "joueur", "pile", "priorité", "attaquant", "bloqueur",
         "capacité", "sort", "étape", "phase", "tour", "dégagement", "entretien", "nettoyage", "défausse",
         "créature", "blessure", "cible", "permanent", "carte", "main", "bibliothèque", "cimetière")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.skipif(sys.platform != "linux", reason="127.0.0.2 answers on Linux's loopback")
def test_a_hostile_client_does_not_starve_the_others(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = (tmp_path / "serve.log").open("w+")
    judge = Path(sys.executable).with_name("judge")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([str(judge), "serve", "--port", str(port), "--processes", "2"],
                              stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                if httpx.get(f"{base}/api/search?q=tour", timeout=30).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, "judge serve n'a pas démarré"
            time.sleep(0.3)

        stop = threading.Event()
        ordinary: Counter[int] = Counter()
        alone: Counter[int] = Counter()
        attacked = threading.Event()
        hostile: Counter[int] = Counter()
        lock = threading.Lock()
        failures: list[str] = []

        def attack(which: int) -> None:
            transport = httpx.HTTPTransport(local_address=HOSTILE_ADDRESS)
            with httpx.Client(base_url=base, transport=transport, timeout=60) as client:
                while not stop.is_set():
                    try:
                        if which == 0:
                            status = client.get("/question", params={"q": QUESTION}).status_code
                        else:
                            status = client.post("/api/check", content=ESCAPED_QUOTES,
                                                 headers={"content-type": "application/json"}).status_code
                    except httpx.TransportError:
                        status = 0
                    with lock:
                        hostile[status] += 1

        def search(offset: int) -> None:
            with httpx.Client(base_url=base, timeout=60) as client:
                n = offset
                while not stop.is_set():
                    query = f"{WORDS[n % len(WORDS)]} {WORDS[(n // len(WORDS) + offset) % len(WORDS)]} {n}"
                    n += 3
                    try:
                        response = client.get("/api/search", params={"q": query})
                        status = response.status_code
                    except httpx.TransportError as error:
                        status, response = 0, error
                    with lock:
                        (ordinary if attacked.is_set() else alone)[status] += 1
                        if status != 200 and attacked.is_set():
                            failures.append(f"{status} {query}: {str(getattr(response, 'text', response))[:200]}")
                    time.sleep(0.2)

        searchers = [threading.Thread(target=search, args=(offset,)) for offset in range(3)]
        attackers = [threading.Thread(target=attack, args=(which,)) for which in (0, 1)]
        threads = searchers + attackers
        for thread in searchers:
            thread.start()
        time.sleep(ALONE_SECONDS)
        attacked.set()
        for thread in attackers:
            thread.start()
        time.sleep(ATTACK_SECONDS)
        stop.set()
        for thread in threads:
            thread.join(120)
    finally:
        server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    log.seek(0)
    output = log.read()
    log.close()
    total = sum(ordinary.values())
    assert total >= 10, (ordinary, hostile)  # a loaded machine answers fewer; each one counts
    assert ordinary[500] == 0, (ordinary, hostile, failures, output[-3000:])
    alone_share = alone[200] / max(sum(alone.values()), 1)
    assert alone[500] == 0, alone
    assert ordinary[200] >= 0.95 * alone_share * total, (alone, ordinary, hostile, failures)
    assert "Traceback" not in output and "CancelledError" not in output, output[-3000:]
