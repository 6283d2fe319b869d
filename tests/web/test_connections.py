"""Issue 38: the connections `judge serve` keeps open are capped, per address too, idle ones
closed first (slowloris, a thousand idle keep-alive connections), and the one place that
reaches into uvicorn (`judge.web.protocol.uvicorn_protocol`) still fits the installed uvicorn."""

from __future__ import annotations

import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from judge.web.app import background_server
from judge.web.protocol import UVICORN_ATTRIBUTES, UVICORN_CALLBACKS, Connections, uvicorn_protocol

HOSTILE_ADDRESS = "127.0.0.2"
DESCRIPTORS = 256  # the server's descriptor limit: a thousand connections at a venue, scaled down


def test_uvicorn_still_fits_the_protocol() -> None:
    base = uvicorn_protocol()
    assert all(callable(getattr(base, name)) for name in UVICORN_CALLBACKS)
    connections = Connections(most=8, per_address=4)
    seen: list[bool] = []

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            await receive()
            await send({"type": "lifespan.startup.complete"})
            await receive()
            await send({"type": "lifespan.shutdown.complete"})
            return
        protocol = next(iter(connections.open))
        seen.append(all(getattr(protocol, name, None) is not None for name in UVICORN_ATTRIBUTES))
        seen.append(protocol.state() == "busy")
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    with background_server(app, connections=connections) as base_url:
        assert httpx.get(base_url).text == "ok"
    assert seen == [True, True]


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (DESCRIPTORS, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


@pytest.mark.skipif(sys.platform != "linux", reason="127.0.0.2 answers on Linux's loopback")
def test_slow_and_idle_connections_do_not_lock_out_the_others(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = (tmp_path / "serve.log").open("w+")
    judge = Path(sys.executable).with_name("judge")
    server = subprocess.Popen([str(judge), "serve", "--port", str(port), "--processes", "1"], stdout=log,
                              stderr=subprocess.STDOUT, preexec_fn=_limited, start_new_session=True)
    held: list[socket.socket] = []
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 180
        while True:
            try:
                if httpx.get(f"{base}/api/rule/300", timeout=30).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, "judge serve n'a pas démarré"
            time.sleep(0.3)
        # 300 connections from one address, more than the server has descriptors: half stop
        # in the middle of their headers (slowloris), half stay idle after one request.
        for n in range(300):
            sock = socket.socket()
            sock.bind((HOSTILE_ADDRESS, 0))
            try:
                sock.connect(("127.0.0.1", port))
                if n % 2:
                    sock.sendall(b"GET /api/rule/300 HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    sock.recv(65536)
                else:
                    sock.sendall(b"GET /api/rule/300 HTTP/1.1\r\nHost: localhost\r\nX-Lent: ")
            except OSError:
                pass
            held.append(sock)
        statuses = []
        for _ in range(30):
            try:
                statuses.append(httpx.get(f"{base}/api/rule/300.3", timeout=10, headers={"connection": "close"})
                                .status_code)
            except httpx.TransportError as error:
                statuses.append(repr(error))
    finally:
        for sock in held:
            sock.close()
        server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    log.seek(0)
    output = log.read()
    log.close()
    assert statuses.count(200) == 30, (statuses, output[-2000:])
    assert "Traceback" not in output, output[-3000:]


def test_a_full_server_closes_idle_connections_first() -> None:
    class Fake:
        def __init__(self, state: str) -> None:
            self._state = state
            self.transport = self
            self.closed = False

        def state(self) -> str:
            return self._state

        def evict(self) -> None:
            self.closed = True

    connections = Connections(most=3, per_address=3)
    busy, stalled, idle = Fake("busy"), Fake("stalled"), Fake("idle")
    for protocol in (busy, stalled, idle):
        assert connections.admit(protocol, "a")
    assert connections.admit(Fake("busy"), "b")
    assert idle.closed and not stalled.closed and not busy.closed
    assert connections.admit(Fake("busy"), "c")
    assert stalled.closed and not busy.closed
    full = Connections(most=1, per_address=1)
    assert full.admit(Fake("busy"), "a") and not full.admit(Fake("idle"), "b")
