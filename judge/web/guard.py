"""What every answer of `judge serve` carries, and whom it answers: security headers, the
`Host` allow-list, the `Origin` check of state-changing requests, and user-input failures
that are not bugs.

Owns the Content-Security-Policy (no inline script or style: every script and stylesheet is
a file of the site), the `Host` names the server answers (parsed strictly: a name or an
address, then digits of a port; DNS rebinding: a page of another site resolving to this
server cannot read it), the refusal of a cross-origin POST (a form of another site posting to
`/situation`) and of a cross-site GET of a page that computes (`HEAVY_PATHS`: an `<img>` of
another site cannot make the server search or read questions), and who asks (the client's
address, for the pool's fairness: `judge.web.pool.client_key`). Limits and error pages are
`judge.web.refusals`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from judge.web.pool import client_key
from judge.web.refusals import error_response

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# GET routes whose work is a search, a question read or a situation checked: refused when
# another site asks (like a POST), unless a person followed a link to them.
HEAVY_PATHS = frozenset({"/question", "/recherche", "/search.html", "/api/search", "/situation"})
SAME_SITE = ("same-origin", "none")
# `Host`: a DNS name or IPv4 address, or an IPv6 address in brackets; then at most a port.
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_.-]{0,251}[a-z0-9_])?\.?)(?::[0-9]{1,5})?")


def host_name(value: str) -> str:
    """The name part of a `Host` header (`[::1]:8000` → `[::1]`, `Example.org:80` → `example.org`);
    "" when it is no host (`127.0.0.1:1@evil.example`, `127.0.0.1:evil`): answered by none."""
    found = _HOST.fullmatch(value.strip().lower())
    return found.group(1).rstrip(".") if found else ""


def allowed_hosts(bound: str | None = None, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names the server answers: the local ones, the address it is bound to (unless it
    listens on every address), and those given with `--allow-host`."""
    names = set(LOCAL_HOSTS)
    if bound and bound not in ("0.0.0.0", "::", ""):
        names.add(f"[{bound}]" if ":" in bound and not bound.startswith("[") else bound)
    names.update(host_name(name) for name in extra if name.strip())
    return frozenset(name.lower() for name in names)


class Guard:
    """Adds `SECURITY_HEADERS` to every response; answers 400 to an unknown `Host` and 403 to a
    state-changing request from another origin."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = LOCAL_HOSTS) -> None:
        self.app = app
        self.hosts = frozenset(host_name(name) for name in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                message["headers"] = [*message.get("headers", ()),
                                      *(item for item in SECURITY_HEADERS if item[0] not in present)]
            await send(message)

        client = scope.get("client")
        client_key.set(str(client[0]) if client else "")
        refusal = self._refusal(scope)
        if refusal is not None:
            await error_response(Request(scope), *refusal)(scope, receive, secured)
            return
        await self.app(scope, receive, secured)

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if not host_name(host) or host_name(host) not in self.hosts:
            shown = host[:60] + ("…" if len(host) > 60 else "")
            return 400, (f"nom d'hôte non autorisé : « {shown} » (ce serveur répond à "
                         f"{', '.join(sorted(self.hosts))} ; voir judge serve --allow-host)")
        if scope.get("method", "GET") in SAFE_METHODS:
            return self._cross_site_get(scope, headers)
        origin = headers.get("origin")
        if origin is not None:
            netloc = urlsplit(origin).netloc.lower() if origin != "null" else ""
            if netloc != host.strip().lower():
                return 403, "requête refusée : elle vient d'un autre site (en-tête Origin)"
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, "requête refusée : elle vient d'un autre site (en-tête Sec-Fetch-Site)"
        return None

    @staticmethod
    def _cross_site_get(scope: Scope, headers: Headers) -> tuple[int, str] | None:
        """A GET of a page that computes sent by another site (an `<img>`, a script, a frame):
        refused; a link a person followed (a navigation they started) is answered."""
        if scope.get("path") not in HEAVY_PATHS:
            return None
        site = headers.get("sec-fetch-site", "same-origin")
        if site in SAME_SITE:
            return None
        if headers.get("sec-fetch-mode") == "navigate" and headers.get("sec-fetch-user") == "?1":
            return None
        return 403, "requête refusée : elle vient d'un autre site (en-tête Sec-Fetch-Site)"
