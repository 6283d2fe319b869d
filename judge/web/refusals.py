"""How `judge serve` refuses and fails: request limits, `Problem`, French error pages and JSON.

Owns the size limits (URL, body, parameters), the status texts, the exception handlers and
the `RequestLimits` middleware. What each route does is `judge.web.app`'s job.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from markupsafe import escape
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from judge.errors import JudgeError, NotFound
from judge.search.fields import MAX_QUERY
from judge.web.state import render

LOG = logging.getLogger("judge.web.app")
MAX_BODY = 64 * 1024
MAX_URL = 4096
MAX_LIMIT = 100
MAX_WORD = 60  # characters of one word of a user's input quoted in a message
MAX_MESSAGE = 600  # characters of a message
MAX_HEADERS = 16 * 1024  # bytes of request line and headers (uvicorn's protocol refuses more, streamed)

STATUS_TITLES = {
    400: "Requête invalide",
    403: "Accès refusé",
    404: "Page introuvable",
    405: "Méthode non autorisée",
    413: "Requête trop volumineuse",
    414: "Adresse trop longue",
    422: "Situation impossible à traiter",
    431: "En-têtes trop volumineux",
    500: "Erreur interne",
    503: "Service indisponible",
}
STATUS_MESSAGES = {
    404: "Cette page n'existe pas.",
    405: "Cette adresse n'accepte pas cette méthode HTTP.",
    413: f"Le corps de la requête dépasse {MAX_BODY // 1024} Kio.",
    414: f"L'adresse dépasse {MAX_URL} caractères.",
    431: f"Les en-têtes de la requête dépassent {MAX_HEADERS // 1024} Kio.",
    500: "Une erreur inattendue s'est produite ; elle n'a pas été causée par votre requête.",
}


class Problem(Exception):
    """A request the app refuses, with its HTTP status and a French message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def __reduce__(self) -> tuple[type[Problem], tuple[int, str]]:  # rebuilt whole across a pipe
        return Problem, (self.status, self.message)


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def cut(text: str, most: int = 60) -> str:
    """A user's text as quoted in a message: at most `most` characters, and printable."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= most else text[:most] + "…"


_LONG_WORD = re.compile(rf"\S{{{MAX_WORD + 1},}}")


def short_message(message: str) -> str:
    """A message as shown: a user's long input quoted in it cut to `MAX_WORD` characters
    (every run of characters without a space), the whole to `MAX_MESSAGE`."""
    message = _LONG_WORD.sub(lambda found: found.group(0)[:MAX_WORD] + "…", message)
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE] + "…"


def user_input_problem(exc: BaseException) -> Problem | None:
    """The Problem a failure caused by the request's content is (a document nested too deep,
    an integer too long to read, a character that is not text), or None: a real bug."""
    if isinstance(exc, RecursionError):
        return Problem(422, "document trop imbriqué : des tableaux ou des objets sont emboîtés trop "
                            "profondément pour être lus")
    if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
        return Problem(422, "nombre trop long : un entier de plus de 4 300 chiffres ne peut pas être lu")
    if isinstance(exc, UnicodeError) and "surrogate" in str(exc):
        return Problem(400, "caractère invalide : un demi-codet UTF-16 isolé (par exemple « \\ud800 ») "
                            "n'est pas du texte")
    return None


def error_response(request: Request, status: int, message: str,
                   headers: Mapping[str, str] | None = None) -> Response:
    """A French error: `{"error": …}` under /api/, an HTML page elsewhere."""
    message = short_message(message)
    if _is_api(request):
        return JSONResponse({"error": message}, status_code=status, headers=headers)
    title = STATUS_TITLES.get(status, "Erreur")
    state = getattr(request.app.state, "judge", None)
    if state is not None:
        try:
            response = render(state, "error.html", status, status=status, title=title, message=message)
        except Exception:
            response = None
        if response is not None:
            if headers:
                response.headers.update(headers)
            return response
    body = (
        f'<!DOCTYPE html><html lang="fr"><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<h1>{escape(title)}</h1><p>{escape(message)}</p><p><a href=\"/\">Accueil</a></p></html>"
    )
    return HTMLResponse(body, status_code=status, headers=headers)


async def _on_http_exception(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    headers = dict(exc.headers or {}) if isinstance(exc, HTTPException) else {}
    if "Allow" in headers:  # the route's own methods, in a stable order
        headers["Allow"] = ", ".join(sorted(method.strip() for method in headers["Allow"].split(",")))
    return error_response(request, status, STATUS_MESSAGES.get(status, STATUS_TITLES.get(status, "Erreur")),
                          headers)


async def _on_problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Problem)
    return error_response(request, exc.status, exc.message)


async def _on_judge_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, JudgeError)
    status = 404 if isinstance(exc, NotFound) else 400
    return error_response(request, status, str(exc))


async def _on_crash(request: Request, exc: Exception) -> Response:
    if isinstance(exc, ClientDisconnect):  # nobody to answer
        return Response(status_code=400)
    problem = user_input_problem(exc)
    if problem is not None:
        return error_response(request, problem.status, problem.message)
    from judge.web.guard import SECURITY_HEADERS  # this answer is sent outside the app's middleware

    # The traceback goes to the server log (uvicorn's), never to the client.
    LOG.error("erreur interne sur %s %s", request.method, request.url.path, exc_info=exc)
    response = error_response(request, 500, STATUS_MESSAGES[500])
    response.headers.update({name.decode(): value.decode() for name, value in SECURITY_HEADERS})
    return response


# ---------------------------------------------------------------------- request limits
class RequestLimits:
    """Refuses over-long URLs and bodies over `MAX_BODY` (declared or streamed) with a French
    413; a client gone before its body ended is one French line in the log."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY, max_url: int = MAX_URL) -> None:
        self.app = app
        self.max_body = max_body
        self.max_url = max_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self._refusal(scope)
        if refused is not None:
            await error_response(Request(scope), *refused)(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise Problem(413, STATUS_MESSAGES[413])
            return message

        try:
            await self.app(scope, limited, send)
        except ClientDisconnect:  # nobody to answer: one line in the log, no traceback
            client = scope.get("client")
            LOG.warning("client parti avant la fin de sa requête : %s %s (%s)", scope.get("method", ""),
                        cut(scope.get("path", ""), 80), client[0] if client else "adresse inconnue")

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        """What is wrong with the request line and headers alone (the body is not read yet)."""
        if len(scope.get("raw_path", b"")) + len(scope.get("query_string", b"")) > self.max_url:
            return 414, STATUS_MESSAGES[414]
        if sum(len(name) + len(value) + 4 for name, value in scope.get("headers", ())) > MAX_HEADERS:
            return 431, STATUS_MESSAGES[431]
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    return 400, "en-tête Content-Length invalide"
                if declared > self.max_body:
                    return 413, STATUS_MESSAGES[413]
        return None


def query_param(request: Request, name: str, *, cap: int = MAX_QUERY) -> str | None:
    value = request.query_params.get(name)
    if value is not None and len(value) > cap:
        raise Problem(400, f"paramètre « {name} » trop long : {len(value)} caractères ({cap} au plus)")
    return value


def limit_param(value: str | None, default: int = 10) -> int:
    if value is None or value == "":
        return default
    try:
        limit = int(value)
    except ValueError:
        raise Problem(400, f"limit : un entier est attendu (reçu « {cut(value, 20)} »)") from None
    if not 1 <= limit <= MAX_LIMIT:
        raise Problem(400, f"limit : doit être compris entre 1 et {MAX_LIMIT} (reçu {limit})")
    return limit


def exception_handlers() -> Mapping[Any, Callable[[Request, Exception], Awaitable[Response]]]:
    """The app's handlers: every failure becomes a French page or `{"error": …}`."""
    return {
        HTTPException: _on_http_exception,
        Problem: _on_problem,
        JudgeError: _on_judge_error,
        Exception: _on_crash,
    }
