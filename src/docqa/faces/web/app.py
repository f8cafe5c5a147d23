"""The web app: the REST API (api.py), the background ingest worker (jobs.py) and the page (static/).

Safe by default: binds 127.0.0.1; when ``DOCQA_API_TOKEN`` is set every /api call needs
``Authorization: Bearer <token>``; uploads are stored under names the server chooses.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

import docqa
from docqa.config import Settings
from docqa.engine import Engine, PageOutOfRange
from docqa.faces.web.api import MAX_FILES_PER_REQUEST, ApiError, error_response, router
from docqa.faces.origin import HostPolicy, SameOrigin
from docqa.faces.web.jobs import IngestWorker
from docqa.ingest.parse import ParseError
from docqa.limits import PageTooLarge
from docqa.store import AmbiguousDocument, DocumentNotFound, EmbedderMismatch, StoreUnavailable

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed", 409: "conflict", 413: "too_large", 415: "unsupported_media_type"}


class Guard:
    """ASGI middleware: bearer token on /api, a cap on upload request bodies, headers on the page."""

    def __init__(self, app: ASGIApp, token: str | None, max_body: int):
        self.app = app
        self.token = token
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path == "/api" or path.startswith("/api/"):
            if self.token and not self._authorized(scope):
                response = error_response(
                    401, "unauthorized",
                    "this server needs a token: send 'Authorization: Bearer <token>' (the DOCQA_API_TOKEN it runs with)",
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await response(scope, receive, send)
                return
            if scope["method"] == "POST":
                await self._capped(scope, receive, send)
                return
            await self.app(scope, receive, send)
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

    def _authorized(self, scope: Scope) -> bool:
        header = dict(scope["headers"]).get(b"authorization", b"").decode("latin-1")
        scheme, _, given = header.partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), self.token.encode())  # type: ignore[union-attr]

    async def _capped(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a request body over ``max_body``: up front by Content-Length, else once it runs past."""
        too_large = error_response(
            413, "too_large", f"the request is larger than {self.max_body // (1024 * 1024)} MB; "
            "send fewer or smaller files (DOCQA_MAX_UPLOAD_MB is the limit per file)")
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            await too_large(scope, receive, send)
            return
        seen = 0
        over = False
        answered = False

        async def capped_receive() -> dict:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:  # a chunked body that runs on: stop reading it
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: dict) -> None:
            nonlocal answered
            if not over:
                await send(message)
            elif not answered:  # whatever the app made of the cut-off body, the answer is 413
                answered = True
                await too_large(scope, receive, send)

        await self.app(scope, capped_receive, guarded_send)


def create_app(settings: Settings | None = None, engine: Engine | None = None, worker: bool = True,
               preload_model: bool = False) -> FastAPI:
    """The ASGI app. Opens the index from ``settings`` unless an engine is given; ``worker`` starts ingestion;
    ``preload_model`` loads the sentence model in the background at start (answers meanwhile say so)."""
    settings = settings or Settings()
    owns_engine = engine is None
    engine = engine or Engine.open(settings)
    settings = engine.settings
    uploads_dir = settings.index / "uploads"
    ingest = IngestWorker(engine, uploads_dir)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if preload_model:  # a thread: the first question is answered at once, by words alone if need be
            engine.load_model_in_background()
        if worker:
            ingest.start()
        try:
            yield
        finally:
            ingest.stop(timeout=2.0)
            thread = ingest._thread
            if owns_engine and (thread is None or not thread.is_alive()):
                engine.close()

    app = FastAPI(
        title="docqa", version=docqa.__version__, lifespan=lifespan,
        description="Questions about company filings, answered with the page, the quote and the arithmetic that "
                    "prove them. Every error is `{\"error\": {\"code\", \"message\"}}`. When the server runs with "
                    "DOCQA_API_TOKEN, every /api call needs `Authorization: Bearer <token>`.",
    )
    app.state.engine = engine
    app.state.worker = ingest
    app.state.settings = settings
    app.state.uploads_dir = uploads_dir

    token = settings.api_token.get_secret_value() if settings.api_token else None
    max_body = (settings.max_upload_mb * MAX_FILES_PER_REQUEST + 1) * 1024 * 1024
    app.add_middleware(Guard, token=token or None, max_body=max_body)
    if not token:  # no token: only this machine's own pages may reach it (DNS rebinding, cross-site forms)
        app.add_middleware(SameOrigin, policy=HostPolicy(settings.host, settings.allowed_hosts))

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError):
        return error_response(exc.status, exc.code, exc.message, headers=exc.headers, **exc.extra)

    @app.exception_handler(DocumentNotFound)
    async def _no_document(request: Request, exc: DocumentNotFound):
        return error_response(404, "document_not_found", str(exc))

    @app.exception_handler(AmbiguousDocument)
    async def _ambiguous(request: Request, exc: AmbiguousDocument):
        return error_response(409, "ambiguous_document", str(exc),
                              matches=[{"file_name": name, "id": doc_id} for name, doc_id in exc.matches])

    @app.exception_handler(PageOutOfRange)
    async def _no_page(request: Request, exc: PageOutOfRange):
        return error_response(404, "page_not_found", str(exc))

    @app.exception_handler(ParseError)
    async def _unreadable(request: Request, exc: ParseError):
        return error_response(422, "unreadable_pdf", str(exc))

    @app.exception_handler(PageTooLarge)
    async def _huge_page(request: Request, exc: PageTooLarge):
        return error_response(422, "page_too_large", str(exc))

    @app.exception_handler(EmbedderMismatch)
    async def _mismatch(request: Request, exc: EmbedderMismatch):
        return error_response(409, "embedder_mismatch", str(exc))

    @app.exception_handler(StoreUnavailable)
    async def _store_down(request: Request, exc: StoreUnavailable):
        message = str(exc) if "try again" in str(exc) else f"{exc}; try again shortly"
        return error_response(503, "store_unavailable", message, headers={"Retry-After": "5"})

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        problems = []
        for e in exc.errors():
            where = ".".join(str(x) for x in e.get("loc", ()) if x not in ("body", "query", "path"))
            msg = e.get("msg")
            if e.get("type") == "string_pattern_mismatch" and where == "question":  # api.QUESTION_PATTERN
                msg = ("has no letter or digit, so nothing to look for in a filing; "
                       "ask about a company, a measure or a topic")
            problems.append(f"{where}: {msg}" if where else str(msg))
        return error_response(422, "invalid_request", "; ".join(problems) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        code = STATUS_CODES.get(exc.status_code, "http_error")
        message = exc.detail if isinstance(exc.detail, str) else code
        headers = getattr(exc, "headers", None)
        if exc.status_code == 404 and message == "Not Found":
            message = f"no such endpoint: {request.method} {request.url.path} (the API is described at /docs)"
        if exc.status_code == 405:  # Starlette names the first route's methods only; a path can have several
            allowed = allowed_methods(request.app, request.scope)
            headers = {**(headers or {}), "Allow": ", ".join(allowed)}
            message = f"{request.method} is not allowed on {request.url.path}; allowed: {', '.join(allowed)}"
        return error_response(exc.status_code, code, message, headers=headers)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception):
        log.exception("%s %s failed", request.method, request.url.path)
        return error_response(500, "internal_error", f"internal error ({type(exc).__name__}); see the server log")

    app.include_router(router)
    _fit_openapi(app, token_required=bool(token), max_question_chars=settings.max_question_chars)

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict:
        return {"status": "ok"}

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def allowed_methods(app: FastAPI, scope: Scope) -> list[str]:
    """Every method some route serves at this path (not HEAD and OPTIONS, which the schema does not list)."""
    from starlette.routing import Match

    # Asked per method of the top-level routes (included routers answer too): no router internals.
    return [method for method in ("GET", "POST", "PUT", "PATCH", "DELETE")
            if any(route.matches({**scope, "method": method})[0] == Match.FULL for route in app.router.routes)]


def _fit_openapi(app: FastAPI, token_required: bool, max_question_chars: int) -> None:
    """The OpenAPI document as this server runs: bearer auth only when DOCQA_API_TOKEN is set (else
    no security requirement, as the code has none), and the question length limit it enforces."""
    build = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = build()
        if not token_required:
            for operations in schema.get("paths", {}).values():
                for operation in operations.values():
                    if isinstance(operation, dict):
                        operation.pop("security", None)
                        operation.get("responses", {}).pop("401", None)
            schema.get("components", {}).pop("securitySchemes", None)
        question = schema.get("components", {}).get("schemas", {}).get("AskIn", {}).get("properties", {}).get("question")
        if question is not None:
            question["maxLength"] = max_question_chars
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run_server(settings: Settings) -> None:
    """``docqa serve``: the app on settings.host:settings.port (127.0.0.1:8000 unless told otherwise)."""
    logging.getLogger("docqa").setLevel(logging.INFO)
    if not _is_loopback(settings.host) and settings.api_token is None:
        log.warning("serving on %s without DOCQA_API_TOKEN: anyone who can reach this address can upload, "
                    "ask and delete; set DOCQA_API_TOKEN", settings.host)
    from docqa.faces.web.serving import answer_workers, run

    shown = f"[{settings.host}]" if ":" in settings.host else settings.host
    workers = answer_workers(settings)
    processes = f" · {workers} answering processes + 1 indexing" if workers > 1 else ""
    print(f"docqa: index {settings.index} · open http://{shown}:{settings.port}/{processes}", flush=True)
    run(settings)
