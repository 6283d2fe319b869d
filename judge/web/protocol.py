"""HTTP/1.1 on the wire for `judge serve`: uvicorn's httptools protocol, bounded.

Owns what happens before the app sees a request, and after it has answered one it did not
read to the end: the connections a server keeps open (`Connections`: at most `most`, at most
`per_address` from one address; past either, an idle connection is closed first, then one
still sending its headers (answered 408), oldest first, never one whose request is being
answered; none of those, the newcomer gets a French 503), the size of the request line and headers
(`MAX_HEADERS`, counted as they arrive: a client cannot make the server hold a 50 MB header),
the time a client may take to send them (`HEADER_TIMEOUT`) and the rest of its request
(`REQUEST_TIMEOUT`), French answers where uvicorn would answer in English, and a lingering
close: a body refused early (a 413) is read and dropped for a moment, within bounds, so that
the client reads the 413 instead of a connection reset. The app's own limits are
`judge.web.refusals`.

uvicorn has no public hook for any of this: `uvicorn_protocol` is the one place that reaches
into it (its httptools protocol class, and the callbacks and attributes it must still have),
and fails loudly, naming what is missing, on the first version it no longer fits.
"""

from __future__ import annotations

import asyncio
import resource
from typing import TYPE_CHECKING, Any

from judge.web.refusals import MAX_HEADERS

# What judge uses of uvicorn's httptools protocol: the callbacks it overrides or calls, and
# the attributes it reads (set by the protocol's constructor or `connection_made`).
UVICORN_CALLBACKS = ("connection_made", "connection_lost", "data_received", "send_400_response",
                     "on_message_begin", "on_headers_complete", "on_message_complete",
                     "on_response_complete", "timeout_keep_alive_handler")
UVICORN_ATTRIBUTES = ("transport", "flow", "cycle", "loop", "config")


def uvicorn_protocol() -> type:
    """uvicorn's httptools protocol class (no public API gives it), checked to have every
    callback judge overrides; a `RuntimeError` naming what is missing otherwise."""
    import uvicorn
    from uvicorn.protocols.http import httptools_impl

    base = getattr(httptools_impl, "HttpToolsProtocol", None)
    missing = [name for name in UVICORN_CALLBACKS if not callable(getattr(base, name, None))]
    if base is None or missing:
        raise RuntimeError(f"uvicorn {uvicorn.__version__} ne convient plus à judge.web.protocol : "
                           f"HttpToolsProtocol ou ses méthodes {missing} manquent")
    return base  # type: ignore[no-any-return]


if TYPE_CHECKING:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Base
else:
    _Base = uvicorn_protocol()

MAX_CONNECTIONS = 512  # connections a server keeps open (and half its descriptors at most)
MAX_PER_ADDRESS = 64  # of them from one client address

HEADER_TIMEOUT = 10.0  # seconds from a request's first byte to the end of its headers
REQUEST_TIMEOUT = 30.0  # seconds from its first byte to the end of its body
KEEP_ALIVE = 5  # seconds an idle connection is kept open
LINGER_TIME = 2.0  # seconds a refused body is still read (and dropped) after the answer
LINGER_BYTES = 1024 * 1024  # and at most this many bytes

_MESSAGES = {
    400: "Requête HTTP invalide.",
    408: "La requête n'a pas été reçue à temps.",
    431: f"Les en-têtes de la requête dépassent {MAX_HEADERS // 1024} Kio.",
    503: "Trop de connexions ouvertes ; réessayez dans un instant.",
}
_REASONS = {400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large",
            503: "Service Unavailable"}


def plain_answer(status: int) -> bytes:
    """A whole French answer, then the connection closes."""
    body = (_MESSAGES[status] + "\n").encode()
    return (f"HTTP/1.1 {status} {_REASONS[status]}\r\ncontent-type: text/plain; charset=utf-8\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n"
            "x-content-type-options: nosniff\r\n\r\n").encode() + body


class Connections:
    """The connections one server keeps open, oldest first."""

    def __init__(self, most: int | None = None, per_address: int | None = None) -> None:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        descriptors = soft // 2 if soft != resource.RLIM_INFINITY and soft > 0 else MAX_CONNECTIONS
        self.most = most if most is not None else max(8, min(MAX_CONNECTIONS, descriptors))
        self.per_address = per_address if per_address is not None else max(2, min(MAX_PER_ADDRESS, self.most // 4))
        self.open: dict[BoundedProtocol, str] = {}  # insertion order: the oldest first

    def admit(self, newcomer: BoundedProtocol, address: str) -> bool:
        """Count `newcomer` in, closing another connection if a cap is reached; False (not
        counted) when every other connection is answering a request."""
        same = [protocol for protocol, where in self.open.items() if where == address]
        if len(same) >= self.per_address and not self._close_one(same):
            return False
        if len(self.open) >= self.most and not self._close_one(list(self.open)):
            return False
        self.open[newcomer] = address
        return True

    def _close_one(self, candidates: list[BoundedProtocol]) -> bool:
        """Close the oldest idle connection of `candidates`, else the oldest still sending
        its headers; False if all are answering a request."""
        for wanted in ("idle", "stalled"):
            for protocol in candidates:
                if protocol.state() == wanted:
                    self.open.pop(protocol, None)
                    protocol.evict()
                    return True
        return False

    def forget(self, protocol: BoundedProtocol) -> None:
        self.open.pop(protocol, None)


class BoundedProtocol(_Base):
    """uvicorn's httptools protocol with a connection cap, header size and read timeouts and a
    lingering close."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._connections: Connections = getattr(self.config, "judge_connections", None) or _DEFAULT
        self._head_bytes = 0  # bytes of the current request received before its headers ended
        self._in_head = True  # between requests or within the headers of one
        self._request_done = True
        self._served = False  # a request of this connection answered (it is kept alive)
        self._timer: asyncio.TimerHandle | None = None
        self._lingering = 0  # bytes dropped since the lingering close began (-1: not lingering)
        self._lingering = -1

    # ------------------------------------------------------------------ timers
    def _arm(self, seconds: float, status: int) -> None:
        self._disarm()
        self._timer = self.loop.call_later(seconds, self._expire, status)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expire(self, status: int) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(plain_answer(status))
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if not self._connections.admit(self, address):
            self._refuse(503)
            return
        self._arm(HEADER_TIMEOUT, 408)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._connections.forget(self)
        super().connection_lost(exc)

    def evict(self) -> None:
        """Closed to make room: a request begun, or none yet, is answered 408 first (an idle
        kept-alive connection is just closed, as at the end of its keep-alive time)."""
        if not self.transport.is_closing():
            if self._head_bytes or not self._served:
                self._refuse(408)
            else:
                self.transport.close()

    def state(self) -> str:
        """`idle` (between requests), `stalled` (within a request's line and headers) or
        `busy` (a request read or answered)."""
        if self._in_head and self._lingering < 0 and (self.cycle is None or self.cycle.response_complete):
            return "stalled" if self._head_bytes else "idle"
        return "busy"

    # ------------------------------------------------------------------ reading
    def data_received(self, data: bytes) -> None:
        if self._lingering >= 0:
            self._lingering += len(data)
            if self._lingering > LINGER_BYTES:
                self.transport.close()
            return
        if self._in_head:
            self._head_bytes += len(data)
            if self._head_bytes - len(data) > MAX_HEADERS:
                self._refuse(431)
                return
        super().data_received(data)
        if self._in_head and self._head_bytes > MAX_HEADERS and not self.transport.is_closing():
            self._refuse(431)

    def _refuse(self, status: int) -> None:
        self._disarm()
        self.transport.write(plain_answer(status))
        self.transport.close()

    def send_400_response(self, msg: str) -> None:  # uvicorn's is in English
        self._refuse(400)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._request_done = False
        if self._timer is None:  # a new request on a kept-alive connection
            self._arm(HEADER_TIMEOUT, 408)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._arm(REQUEST_TIMEOUT, 408)
        super().on_headers_complete()
        if self.cycle is not None:
            self.cycle.transport = _LingeringTransport(self)  # type: ignore[assignment]

    def on_message_complete(self) -> None:
        self._disarm()
        self._in_head, self._head_bytes, self._request_done = True, 0, True
        super().on_message_complete()

    def on_response_complete(self) -> None:
        self._served = True
        super().on_response_complete()
        if not self._request_done and not self.transport.is_closing():
            self.linger()

    def timeout_keep_alive_handler(self) -> None:
        self._disarm()
        super().timeout_keep_alive_handler()

    # ------------------------------------------------------------------ closing
    def linger(self) -> None:
        """Answered before the request's body ended: send the end of the answer, then read
        and drop what still comes for a moment (bounded) before closing, so that the
        client is not reset before it reads the answer."""
        if self._lingering >= 0:
            return
        self._lingering = 0
        self._disarm()
        self.flow.resume_reading()
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self._timer = self.loop.call_later(LINGER_TIME, self.transport.close)


_DEFAULT = Connections()  # the servers of this process made without their own (tests, benchmarks)


class _LingeringTransport:
    """The transport as a request's cycle sees it: closing it lingers if the request's body
    was not read to its end."""

    def __init__(self, protocol: BoundedProtocol) -> None:
        self._protocol = protocol
        self._transport = protocol.transport

    def close(self) -> None:
        if self._protocol._request_done or self._transport.is_closing():
            self._transport.close()
        else:
            self._protocol.linger()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)
