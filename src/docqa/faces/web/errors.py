"""Every error the web app returns is ``{"error": {"code", "message"}}``: the exception handlers that map
the engine's and the framework's errors to a status, a code and a message that says what to do."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Scope

from docqa.app.errors import AmbiguousDocument, DocumentNotFound, EmbedderMismatch, ParseError, StoreUnavailable
from docqa.engine import PageOutOfRange
from docqa.faces.web.api import DISK_FULL_MESSAGE, ApiError, disk_full, error_response
from docqa.limits import PageTooLarge, clipped, shown

log = logging.getLogger(__name__)

STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed", 409: "conflict", 413: "too_large", 415: "unsupported_media_type"}


async def _api_error(request: Request, exc: ApiError):
    return error_response(exc.status, exc.code, exc.message, headers=exc.headers, **exc.extra)


async def _no_document(request: Request, exc: DocumentNotFound):
    hint = ", ".join(exc.known[:8]) or "none indexed yet"  # the name as sent is shown cut short
    return error_response(404, "document_not_found", f"unknown document {shown(exc.name)}; known documents: {hint}")


async def _ambiguous(request: Request, exc: AmbiguousDocument):
    listed = "; ".join(exc.known)
    return error_response(409, "ambiguous_document",
                          f"{len(exc.matches)} documents are named {shown(exc.name)}: {listed}; pass the id instead",
                          matches=[{"file_name": name, "id": doc_id} for name, doc_id in exc.matches])


async def _no_page(request: Request, exc: PageOutOfRange):
    return error_response(404, "page_not_found", str(exc))


async def _unreadable(request: Request, exc: ParseError):
    return error_response(422, "unreadable_pdf", str(exc))


async def _huge_page(request: Request, exc: PageTooLarge):
    return error_response(422, "page_too_large", str(exc))


async def _mismatch(request: Request, exc: EmbedderMismatch):
    return error_response(409, "embedder_mismatch", str(exc))


async def _store_down(request: Request, exc: StoreUnavailable):
    message = str(exc) if "try again" in str(exc) else f"{exc}; try again shortly"
    return error_response(503, "store_unavailable", message, headers={"Retry-After": "5"})


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


async def _crash(request: Request, exc: Exception):
    if disk_full(exc):
        log.error("%s %s: no space left on the index's disk (%s)", request.method, request.url.path, exc)
        return error_response(507, "disk_full", DISK_FULL_MESSAGE)
    log.exception("%s %s failed", request.method, request.url.path)
    return error_response(500, "internal_error", f"internal error ({type(exc).__name__}); see the server log")


HANDLERS = (
    (ApiError, _api_error),
    (DocumentNotFound, _no_document),
    (AmbiguousDocument, _ambiguous),
    (PageOutOfRange, _no_page),
    (ParseError, _unreadable),
    (PageTooLarge, _huge_page),
    (EmbedderMismatch, _mismatch),
    (StoreUnavailable, _store_down),
    (RequestValidationError, _invalid),
    (StarletteHTTPException, _http),
    (OSError, _crash),  # a full disk is the operator's to fix, not a crash: 507, and said so
    (Exception, _crash),
)


def install_error_handlers(app: FastAPI) -> None:
    for exc_class, handler in HANDLERS:
        app.add_exception_handler(exc_class, handler)


def allowed_methods(app: FastAPI, scope: Scope) -> list[str]:
    """Every method some route serves at this path (not HEAD and OPTIONS, which the schema does not list)."""
    from starlette.routing import Match

    # Asked per method of the top-level routes (included routers answer too): no router internals.
    return [method for method in ("GET", "POST", "PUT", "PATCH", "DELETE")
            if any(route.matches({**scope, "method": method})[0] == Match.FULL for route in app.router.routes)]
