"""The web app's front door (ASGI middleware): bearer tokens on /api, a limit on every request body,
security headers on the page.

Bodies: an upload request and a JSON request each have a limit (Settings.upload_request_bytes,
Settings.max_json_kb). A Content-Length over it is refused before any byte is read; a chunked body is
counted as it arrives and cut off once it runs past. Without them every POST took about 2 GB: a
400 MB question was parsed for 13.6 s at 1.1 GB of memory, a 500 MB upload spooled to /tmp first.

Tokens: DOCQA_API_TOKEN is one user. With several (DOCQA_API_TOKENS), each is its own user: the
questions and threads asked with a token are that token's alone (threads.asking_as).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from docqa.config import Settings
from docqa.faces.web.api import error_response
from docqa.app.threads import asking_as

PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
UPLOAD_PATH = "/api/documents"
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class BodyLimit:
    """How large one kind of request body may be, and what the 413 says about it."""

    max_bytes: int
    message: str


def body_limits(settings: Settings) -> tuple[BodyLimit, BodyLimit]:
    """(upload, JSON) limits with their messages: each says the limit and the setting that raises it."""
    upload_mb = settings.upload_request_bytes // (1024 * 1024)
    upload = BodyLimit(settings.upload_request_bytes, (
        f"the upload is larger than {upload_mb} MB, the limit for one upload request (DOCQA_MAX_UPLOAD_REQUEST_MB); "
        f"send fewer files per request (each may be up to {settings.limits.max_upload_mb} MB, DOCQA_MAX_UPLOAD_MB), "
        "or raise DOCQA_MAX_UPLOAD_REQUEST_MB"))
    json_body = BodyLimit(settings.limits.max_json_kb * 1024, (
        f"the request body is larger than {settings.limits.max_json_kb} KB, the limit for a JSON request "
        "(DOCQA_MAX_JSON_KB); send a shorter question or fewer document names, or raise DOCQA_MAX_JSON_KB"))
    return upload, json_body


def owner_of(token: str) -> str:
    """What the question log keeps of a token to say whose a question is: a digest, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()[:16]


class Guard:
    """ASGI middleware: bearer token on /api, a cap on request bodies, headers on the page."""

    def __init__(self, app: ASGIApp, settings: Settings):
        self.app = app
        self.tokens = tuple(t.encode() for t in settings.bearer_tokens)
        self.per_token = len(self.tokens) > 1  # several users: each sees only its own questions
        self.upload_limit, self.json_limit = body_limits(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path == "/api" or path.startswith("/api/"):
            await self._api(scope, receive, send)
            return
        if path == "/" or path.startswith("/static/"):
            async def send_with_headers(message):
                if message["type"] == "http.response.start":
                    headers = list(message.get("headers", []))
                    headers += [(k.lower().encode(), v.encode()) for k, v in PAGE_HEADERS.items()]
                    message = {**message, "headers": headers}
                await send(message)

            await self.app(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send)

    async def _api(self, scope: Scope, receive: Receive, send: Send) -> None:
        token = self._token(scope)
        if self.tokens and token is None:
            response = error_response(
                401, "unauthorized",
                "this server needs a token: send 'Authorization: Bearer <token>' (the DOCQA_API_TOKEN it runs with)",
                headers={"WWW-Authenticate": "Bearer"},
            )
            await response(scope, receive, send)
            return
        with asking_as(owner_of(token.decode()) if token is not None and self.per_token else None):
            if scope["method"] in BODY_METHODS:
                limit = self.upload_limit if scope["path"].rstrip("/") == UPLOAD_PATH else self.json_limit
                await capped(self.app, limit, scope, receive, send)
            else:
                await self.app(scope, receive, send)

    def _token(self, scope: Scope) -> bytes | None:
        """The configured token the request carries, or None."""
        header = dict(scope["headers"]).get(b"authorization", b"")
        scheme, _, given = header.partition(b" ")
        if scheme.lower() != b"bearer":
            return None
        given = given.strip()
        matched = None
        for token in self.tokens:  # every one compared, in constant time each
            if hmac.compare_digest(given, token):
                matched = token
        return matched


async def capped(app: ASGIApp, limit: BodyLimit, scope: Scope, receive: Receive, send: Send) -> None:
    """Run ``app`` on a body of at most ``limit.max_bytes``: refused up front by its Content-Length,
    else cut off once it runs past, and then the answer is 413 whatever the app made of it."""
    too_large = error_response(413, "too_large", limit.message)
    length = dict(scope["headers"]).get(b"content-length")
    if length is not None and (not length.strip().isdigit() or int(length) > limit.max_bytes):
        await too_large(scope, receive, send)
        return
    seen = 0
    over = False
    answered = False

    async def capped_receive() -> Message:
        nonlocal seen, over
        if over:
            return {"type": "http.disconnect"}
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit.max_bytes:  # a chunked body that runs on: stop reading it
                over = True
                return {"type": "http.disconnect"}
        return message

    async def guarded_send(message: Message) -> None:
        nonlocal answered
        if not over:
            await send(message)
        elif not answered:
            answered = True
            await too_large(scope, receive, send)

    await app(scope, capped_receive, guarded_send)
    if over and not answered:  # the app ended without answering (it saw the client leave): answer for it
        await too_large(scope, receive, send)
