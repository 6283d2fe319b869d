"""Benchmark: `judge serve`'s memory over many distinct searches. Run by hand.

    .venv/bin/python bench/bench_memory.py [--warmup 4000] [--searches 10000] [--clients 4]

Starts `judge serve` (two worker processes) on a free port of 127.0.0.1, sends `--warmup`
distinct searches (`GET /api/search`, each query new: no cache answers it, every cache
fills), then `--searches` more, printing every 1,000 the resident memory of the server
process and of its workers (from /proc, Linux). Target (issue 38): the server's memory flat
(within ± 10 %) over the measured searches; no answer but 200. Exit status 1 otherwise.
"""

from __future__ import annotations

import argparse
import itertools
import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

WORDS = ("mana", "combat", "pioche", "terrain", "joueur", "pile", "priorité", "attaquant", "bloqueur",
         "capacité", "sort", "étape", "phase", "tour", "dégagement", "entretien", "nettoyage", "défausse",
         "créature", "blessure", "cible", "permanent", "carte", "main", "bibliothèque", "cimetière",
         "initiative", "contrôleur", "propriétaire", "exil", "jeton", "coût", "couleur", "dégâts")


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _children(pid: int) -> list[int]:
    """Every process below `pid` (the workers are the fork server's children, not the
    server's)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found: list[int] = []
    todo = [pid]
    while todo:
        current = todo.pop()
        for child, parent in parents.items():
            if parent == current:
                found.append(child)
                todo.append(child)
    return found


def query_text(n: int) -> str:
    a, b = WORDS[n % len(WORDS)], WORDS[(n // len(WORDS)) % len(WORDS)]
    return f"{a} {b} {n}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--warmup", type=int, default=4000)
    parser.add_argument("--searches", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    judge = Path(sys.executable).with_name("judge")
    server = subprocess.Popen([str(judge), "serve", "--port", str(port), "--processes", "2"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    statuses: Counter[int] = Counter()
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                if httpx.get(f"{base}/api/search?q=tour", timeout=30).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                print("judge serve n'a pas démarré")
                return 1
            time.sleep(0.5)
        counter = itertools.count()
        lock = threading.Lock()

        def client(total: int) -> None:
            with httpx.Client(base_url=base, timeout=60) as http:
                while True:
                    with lock:
                        n = next(counter)
                    if n >= total:
                        return
                    try:
                        status = http.get("/api/search", params={"q": query_text(n)}).status_code
                    except httpx.TransportError:
                        status = 0
                    with lock:
                        statuses[status] += 1

        def send(total: int) -> None:
            threads = [threading.Thread(target=client, args=(total,)) for _ in range(args.clients)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

        began = time.monotonic()
        send(args.warmup)
        print(f"échauffement : {args.warmup} recherches en {time.monotonic() - began:.0f} s ; "
              f"serveur {_rss_kib(server.pid) // 1024} Mo", flush=True)
        samples = []
        step = 1000
        for done in range(step, args.searches + 1, step):
            send(args.warmup + done)
            server_mb = _rss_kib(server.pid) / 1024
            workers = [_rss_kib(pid) / 1024 for pid in _children(server.pid)]
            samples.append(server_mb)
            print(f"{done:>6} recherches : serveur {server_mb:.0f} Mo, processus fils "
                  f"{' '.join(f'{w:.0f}' for w in workers)} Mo ; statuts {dict(statuses)}", flush=True)
    finally:
        server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
    low, high = min(samples), max(samples)
    spread = (high - low) / low * 100
    print(f"mémoire du serveur : {low:.0f} à {high:.0f} Mo ({spread:.1f} % d'écart ; cible ≤ 20 %, ± 10 %)")
    ok = spread <= 20 and set(statuses) == {200}
    return 0 if ok else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
