"""What `judge serve` keeps of an answer and how a client may keep it: compressed once, an
`ETag`, `Cache-Control`.

Owns `Stored` (a 200 kept by URL: its body, the same gzip-compressed once, its entity tag) and
the cache policies: pages and API answers are revalidated (`no-cache` with an `ETag`: a 304
costs nothing), assets are kept an hour, fingerprinted ones for good (immutable). Compression of
other answers is Starlette's `GZipMiddleware` behind `Compression`, which asks it only when
the client accepts gzip (`accepts_gzip`: `gzip;q=0` is a refusal). What each route answers is
`judge.web.app`'s job.
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

PAGE_CACHE = "no-cache"
ASSET_CACHE = "public, max-age=3600"
IMMUTABLE_CACHE = "public, max-age=31536000, immutable"  # a fingerprinted asset: its name is its content
GZIP_LEVEL = 6
GZIP_MINIMUM = 1024  # bytes: below, compressing saves less than its headers


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an `Accept-Encoding` value accepts gzip: listed (or `*` when it is not) with a
    weight above 0 (`gzip;q=0` refuses it)."""
    weights: dict[str, float] = {}
    for item in accept_encoding.lower().split(",")[:32]:
        coding, _, params = item.partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    weight = float(value) if len(value) <= 5 else 0.0
                except ValueError:
                    weight = 0.0
        weights.setdefault(coding.strip(), weight)
    for coding in ("gzip", "x-gzip", "*"):
        if coding in weights:
            return weights[coding] > 0
    return False


class Compression:
    """Starlette's `GZipMiddleware`, asked only when the client accepts gzip."""

    def __init__(self, app: ASGIApp, minimum_size: int = GZIP_MINIMUM, compresslevel: int = GZIP_LEVEL) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=minimum_size, compresslevel=compresslevel)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and accepts_gzip(Headers(scope=scope).get("accept-encoding", "")):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)


class StoredResponse(Response):
    """An answer made from a `Stored` (which it carries: it is not stored again)."""

    stored: Stored


@dataclass(frozen=True, slots=True)
class Stored:
    """A 200 answer kept by URL (or an asset kept from start-up)."""

    body: bytes
    gzipped: bytes | None
    media_type: str
    etag: str
    cache_control: str

    @classmethod
    def of(cls, body: bytes, media_type: str, cache_control: str = PAGE_CACHE) -> Stored:
        gzipped = gzip.compress(body, GZIP_LEVEL, mtime=0) if len(body) >= GZIP_MINIMUM else None
        if gzipped is not None and len(gzipped) >= len(body):
            gzipped = None
        etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
        return cls(body=body, gzipped=gzipped, media_type=media_type, etag=etag, cache_control=cache_control)

    @classmethod
    def of_response(cls, response: Response) -> Stored:
        cache_control = response.headers.get("cache-control") or PAGE_CACHE
        return cls.of(bytes(response.body), response.media_type or response.headers.get("content-type", ""),
                      cache_control)

    @property
    def size(self) -> int:
        return len(self.body) + len(self.gzipped or b"")

    def response(self, request: Request) -> Response:
        """The answer to `request`: 304 when it already has this version, gzip when it accepts it."""
        headers = {"ETag": self.etag, "Cache-Control": self.cache_control, "Vary": "Accept-Encoding"}
        matches = request.headers.get("if-none-match", "")
        response: StoredResponse
        if matches and (matches.strip() == "*" or self.etag in {tag.strip().removeprefix("W/")
                                                                for tag in matches.split(",")}):
            response = StoredResponse(status_code=304, headers=headers)
        elif self.gzipped is not None and accepts_gzip(request.headers.get("accept-encoding", "")):
            response = StoredResponse(self.gzipped, media_type=self.media_type,
                                      headers={**headers, "Content-Encoding": "gzip"})
        else:
            response = StoredResponse(self.body, media_type=self.media_type, headers=headers)
        response.stored = self
        return response
