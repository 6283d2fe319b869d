"""HTTP/1.1 on the wire for `judge serve`: uvicorn's httptools protocol, bounded.

Owns what happens before the app sees a request, and after it has answered one it did not
read to the end: the size of the request line and headers (`MAX_HEADERS`, counted as they
arrive: a client cannot make the server hold a 50 MB header), the time a client may take to
send them (`HEADER_TIMEOUT`) and the rest of its request (`REQUEST_TIMEOUT`), French answers
where uvicorn would answer in English, and a lingering close: a body refused early (a 413)
is read and dropped for a moment, within bounds, so that the client reads the 413 instead of
a connection reset. The app's own limits are `judge.web.refusals`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from judge.web.refusals import MAX_HEADERS

HEADER_TIMEOUT = 10.0  # seconds from a request's first byte to the end of its headers
REQUEST_TIMEOUT = 30.0  # seconds from its first byte to the end of its body
KEEP_ALIVE = 5  # seconds an idle connection is kept open
LINGER_TIME = 2.0  # seconds a refused body is still read (and dropped) after the answer
LINGER_BYTES = 1024 * 1024  # and at most this many bytes

_MESSAGES = {
    400: "Requête HTTP invalide.",
    408: "La requête n'a pas été reçue à temps.",
    431: f"Les en-têtes de la requête dépassent {MAX_HEADERS // 1024} Kio.",
}
_REASONS = {400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large"}


def plain_answer(status: int) -> bytes:
    """A whole French answer, then the connection closes."""
    body = (_MESSAGES[status] + "\n").encode()
    return (f"HTTP/1.1 {status} {_REASONS[status]}\r\ncontent-type: text/plain; charset=utf-8\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n"
            "x-content-type-options: nosniff\r\n\r\n").encode() + body


class BoundedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with header size and read timeouts and a lingering close."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_bytes = 0  # bytes of the current request received before its headers ended
        self._in_head = True  # between requests or within the headers of one
        self._request_done = True
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
        self._arm(HEADER_TIMEOUT, 408)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

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
