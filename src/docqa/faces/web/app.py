"""The web app: the REST API (api.py), the background ingest worker (jobs.py) and the page (static/).

Safe by default: binds 127.0.0.1; when ``DOCQA_API_TOKEN`` (or ``DOCQA_API_TOKENS``) is set every /api
call needs ``Authorization: Bearer <token>``; request bodies have limits (guard.py); uploads are stored
under names the server chooses.
"""

from __future__ import annotations

import ipaddress
import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Scope

import docqa
from docqa.config import Settings
from docqa.engine import Engine, PageOutOfRange
from docqa.faces.web.api import DISK_FULL_MESSAGE, ApiError, disk_full, error_response, router
from docqa.faces.web.questions import router as questions_router
from docqa.faces.web.guard import Guard
from docqa.faces.origin import HostPolicy, SameOrigin
from docqa.faces.web.jobs import IngestWorker
from docqa.limits import PageTooLarge, clipped, shown
from docqa.app.errors import AmbiguousDocument, DocumentNotFound, EmbedderMismatch, ParseError, StoreUnavailable

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed", 409: "conflict", 413: "too_large", 415: "unsupported_media_type"}


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
                    "DOCQA_API_TOKEN (or DOCQA_API_TOKENS), every /api call needs `Authorization: Bearer <token>`; "
                    "with several tokens each sees only the questions and threads asked with it. A JSON body "
                    "over DOCQA_MAX_JSON_KB or an upload over DOCQA_MAX_UPLOAD_REQUEST_MB is refused with 413.",
    )
    app.state.engine = engine
    app.state.worker = ingest
    app.state.settings = settings
    app.state.uploads_dir = uploads_dir

    token = bool(settings.bearer_tokens)
    app.add_middleware(Guard, settings=settings)
    if not token:  # no token: only this machine's own pages may reach it (DNS rebinding, cross-site forms)
        app.add_middleware(SameOrigin, policy=HostPolicy(settings.host, settings.allowed_hosts))

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError):
        return error_response(exc.status, exc.code, exc.message, headers=exc.headers, **exc.extra)

    @app.exception_handler(DocumentNotFound)
    async def _no_document(request: Request, exc: DocumentNotFound):
        hint = ", ".join(exc.known[:8]) or "none indexed yet"  # the name as sent is shown cut short
        return error_response(404, "document_not_found", f"unknown document {shown(exc.name)}; known documents: {hint}")

    @app.exception_handler(AmbiguousDocument)
    async def _ambiguous(request: Request, exc: AmbiguousDocument):
        listed = "; ".join(exc.known)
        return error_response(409, "ambiguous_document",
                              f"{len(exc.matches)} documents are named {shown(exc.name)}: {listed}; pass the id instead",
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
            message = f"no such endpoint: {request.method} {clipped(request.url.path)} (the API is described at /docs)"
        if exc.status_code == 405:  # Starlette names the first route's methods only; a path can have several
            allowed = allowed_methods(request.app, request.scope)
            headers = {**(headers or {}), "Allow": ", ".join(allowed)}
            message = f"{request.method} is not allowed on {clipped(request.url.path)}; allowed: {', '.join(allowed)}"
        return error_response(exc.status_code, code, message, headers=headers)

    @app.exception_handler(OSError)  # a full disk is the operator's to fix, not a crash: 507, and said so
    async def _os_error(request: Request, exc: OSError):
        return await _crash(request, exc)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception):
        if disk_full(exc):
            log.error("%s %s: no space left on the index's disk (%s)", request.method, request.url.path, exc)
            return error_response(507, "disk_full", DISK_FULL_MESSAGE)
        log.exception("%s %s failed", request.method, request.url.path)
        return error_response(500, "internal_error", f"internal error ({type(exc).__name__}); see the server log")

    app.include_router(router)
    app.include_router(questions_router)
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
    if not _is_loopback(settings.host) and not settings.bearer_tokens:
        log.warning("serving on %s without DOCQA_API_TOKEN: anyone who can reach this address can upload, "
                    "ask and delete; set DOCQA_API_TOKEN", settings.host)
    from docqa.faces.web.serving import answer_workers, run

    shown = f"[{settings.host}]" if ":" in settings.host else settings.host
    workers = answer_workers(settings)
    processes = f" · {workers} answering processes + 1 indexing" if workers > 1 else ""
    print(f"docqa: index {settings.index} · open http://{shown}:{settings.port}/{processes}", flush=True)
    run(settings)
