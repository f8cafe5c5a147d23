"""The REST API under /api. Holds no logic of its own: it checks input, calls the Engine, shapes JSON.

Every error has one shape: ``{"error": {"code": "...", "message": "..."}}`` (an upload that
refuses every file adds the per-file results under ``"files"``).
"""

from __future__ import annotations

import errno
import itertools
import logging
from pathlib import Path
from typing import Annotated, Iterator, Literal

from fastapi import APIRouter, File, Query, Request, Security, UploadFile
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.security import HTTPBearer
from pydantic import BaseModel, Field

from docqa.app import uploads
from docqa.app.badge import BadgeKey, badge
from docqa.app.figures import figure_value
from docqa.app.conversation import UnknownThread
from docqa.engine import Engine
from docqa.app.ingestjobs import IngestWorker
from docqa.limits import MAX_NAME_CHARS
from docqa.progress import STAGES, Failed, Finished, Stage, StageName, StageReporter, stages_of
from docqa.app import asking
from docqa.app.conversation import ask_in_thread
from docqa.app.errors import StoreUnavailable
from docqa.app.threads import ASKED_KEY, INHERITED_KEY, ORIGIN_KEY, THREAD_KEY, UNDERSTOOD_KEY, Scope
from docqa.types import Answer, DocType, Document, DocumentMeta, Job, JobStatus

log = logging.getLogger(__name__)

MAX_FILES_PER_REQUEST = 20
MAX_SCOPE_DOCUMENTS = 50
QUESTION_PATTERN = r"[0-9A-Za-z\u00c0-\u024f\u0400-\u04ff\u4e00-\u9fff]"


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.extra = extra


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None,
                   **extra) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}, **extra}, status_code=status, headers=headers)


# --- response and request models (these make the OpenAPI document) ------------------------------


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    error: ErrorBody


class DocumentOut(BaseModel):
    id: str
    file_name: str
    status: JobStatus
    pages_done: int = 0
    pages_total: int = 0
    reason: str | None = Field(None, description="why indexing failed (or a note, e.g. retried after a restart)")
    warnings: list[str] = Field(default_factory=list, description="what indexing noticed about a ready document, "
                                                                  "e.g. that the file looks truncated")
    pages: int = 0
    chunks: int = 0
    meta: DocumentMeta = DocumentMeta()
    ocr_pages: int = 0
    no_text_pages: int = 0
    embedded: bool = False
    attempts: int = 0
    created_at: str | None = None
    updated_at: str | None = None


class DocumentList(BaseModel):
    documents: list[DocumentOut]


class FileResult(BaseModel):
    file_name: str
    accepted: bool
    id: str | None = None
    status: Literal["queued", "refused"]
    code: str | None = Field(None, description="why refused: not_pdf, empty, too_large, too_many_pages, duplicate, "
                                                "too_many_files")
    reason: str | None = Field(None, description="why refused; for an accepted file, a note (renamed to a unique name)")
    duplicate_of: str | None = Field(None, description="for a duplicate: the file name of the document (or upload "
                                                       "waiting to be indexed) it duplicates; id is that one's id")
    size: int = 0


class UploadOut(BaseModel):
    files: list[FileResult]


class Deleted(BaseModel):
    deleted: list[str]


class AskIn(BaseModel):
    # The length limit is DOCQA_MAX_QUESTION_CHARS, checked by the engine for every face (one message);
    # create_app writes the running server's value into the OpenAPI document as maxLength.
    # pattern: a letter or digit (Latin, Cyrillic or CJK; ranges with no control, format or unassigned
    # character) somewhere, so that no question the schema allows is empty once question.clean_question
    # drops those; the same ranges in JSON Schema (ECMA) and pydantic, unlike \w. "???" is refused here.
    question: str = Field(..., min_length=1, pattern=QUESTION_PATTERN,
                          description="the question, with at least one letter or digit; at most "
                                      "DOCQA_MAX_QUESTION_CHARS characters")
    document: str | None = Field(None, max_length=MAX_NAME_CHARS, description="only this document: its id or file name")
    company: str | None = Field(None, max_length=MAX_NAME_CHARS)
    year: int | None = Field(None, ge=1900, le=2200)
    doc_type: DocType | None = Field(None, description="only filings of this type")
    documents: list[Annotated[str, Field(max_length=MAX_NAME_CHARS)]] | None = Field(
        None, max_length=MAX_SCOPE_DOCUMENTS, description="only these documents (ids or file names); with document, both")
    thread: str | None = Field(None, pattern=r"^[0-9a-f]{12}$",
                               description="the thread_id of an earlier answer: this question follows it and "
                                           "takes its company, period, metric and scope when it omits them")


class ScopeOut(BaseModel):
    documents: list[str] = Field(default_factory=list, description="document ids")
    document_names: list[str] = Field(default_factory=list)
    company: str | None = None
    year: int | None = None
    doc_type: str | None = None


class PageLink(BaseModel):
    document: str
    document_id: str
    page: int = Field(..., description="the physical page, counted from 1")
    label: str | None = Field(None, description="the page number the filing prints on it, when it prints one")
    pages: int = Field(0, description="pages in the document")
    image_url: str


class AnswerOut(Answer):
    pages: list[PageLink] = Field(default_factory=list, description="the cited pages, with the evidence boxed")
    thread_id: str | None = Field(None, description="send it as 'thread' to ask a follow-up")
    asked: str | None = Field(None, description="the words as typed, when the question answered differs")
    understood: str | None = Field(None, description="the question in a few words, e.g. '3M capital expenditures, "
                                                     "FY2017'")
    inherited: list[str] = Field(default_factory=list, description="what came from the thread: company, period, "
                                                                   "metric, scope")
    scope: ScopeOut = Field(default_factory=ScopeOut)
    origin: str | None = Field(None, description="where it was asked: web, cli or mcp")
    badge: str = Field("", description="what every face shows for it, from verification alone: Verified, "
                                       "Partially verified, Passages found — not an answer, Not found (or "
                                       "Document deleted once a cited document is gone)")
    badge_key: BadgeKey = Field("not_found", description="the badge as a key: verification, or deleted")
    figure_values: list[str] = Field(default_factory=list, description="each figure's value in words, in the "
                                                                       "order of figures: as printed with its unit "
                                                                       "and scale ('838,679 (USD thousands)'), a "
                                                                       "margin as a percentage ('88.2 %')")


class StageOut(BaseModel):
    name: StageName = Field(..., description=f"one of {', '.join(STAGES)}, each sent as it begins: a stage the "
                                              "work does not need is left out, and verifying follows every draft "
                                              "(figures that fail their check are verified, then an answer is "
                                              "composed from quotes and verified again)")
    title: str = Field(..., description="the stage in words, e.g. 'Searching'")
    detail: str = Field(..., description="what it works on, e.g. 'searching 15,435 pages of 111 filings'")
    elapsed_s: float = Field(..., description="seconds since the question was taken")


class Examples(BaseModel):
    examples: list[str] = Field(description="questions the indexed filings answer: each was asked and gave a "
                                            "found, Verified answer (a figure of the period asked)")
    pending: bool = Field(False, description="still checking candidates: ask again shortly for more")


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    documents: int
    queued: int
    processing: int


DISK_FULL_MESSAGE = ("no space left on the index's disk: free some space there (or move DOCQA_INDEX to a disk "
                     "with room), then try again")
FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


def disk_full(exc: BaseException) -> bool:
    """Whether ``exc``, or an error it was raised from, says the disk is full: an OSError with ENOSPC or
    EDQUOT (the store's DiskFull is one)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in FULL_ERRNOS:
            return True
        current = current.__cause__ or current.__context__
    return False


# --- helpers -----------------------------------------------------------------------------------------

ERRORS = {
    400: {"model": ErrorOut, "description": "bad input"},
    401: {"model": ErrorOut, "description": "missing or wrong bearer token"},
    404: {"model": ErrorOut, "description": "not found"},
    422: {"model": ErrorOut, "description": "invalid request"},
}
# What a request that writes can also meet: a body over its limit (guard.py), a full disk.
SERVER_ERRORS = {
    413: {"model": ErrorOut, "description": "the request body is over its limit (DOCQA_MAX_JSON_KB, "
                                            "DOCQA_MAX_UPLOAD_REQUEST_MB)"},
    507: {"model": ErrorOut, "description": "no space left on the index's disk"},
}


def _engine(request: Request) -> Engine:
    return request.app.state.engine


def _worker(request: Request) -> IngestWorker:
    return request.app.state.worker


def _document_out(doc: Document | None, job: Job | None) -> DocumentOut:
    # Written but its job not yet settled: still processing, so that "ready" comes with its warnings.
    if doc is not None and (job is None or job.status not in ("queued", "processing")):
        return DocumentOut(
            id=doc.id, file_name=doc.file_name, status="ready", pages_done=doc.pages, pages_total=doc.pages,
            pages=doc.pages, chunks=doc.chunks, meta=doc.meta, ocr_pages=doc.ocr_pages,
            no_text_pages=doc.no_text_pages, embedded=doc.embedded, warnings=uploads.warnings_of(job),
            attempts=job.attempts if job else 0, created_at=job.created_at if job else None,
            updated_at=job.updated_at if job else None,
        )
    assert job is not None
    return DocumentOut(
        id=job.id, file_name=job.file_name, status=job.status, pages_done=job.pages_done,
        pages_total=job.pages_total, reason=job.reason, pages=job.pages_total, attempts=job.attempts,
        created_at=job.created_at, updated_at=job.updated_at,
    )


def _all_documents(engine: Engine) -> list[DocumentOut]:
    return [_document_out(e.document, e.job) for e in uploads.library(engine)]


def _page_links(answer: Answer, engine: Engine) -> list[PageLink]:
    seen: dict[tuple[str, int], PageLink] = {}
    docs = {d.id: d for d in engine.documents()}
    ids = {d.file_name: d.id for d in docs.values()}
    pairs = [(c.document, c.document_id, c.page) for c in answer.citations]
    pairs += [(f.document, ids.get(f.document or ""), f.page) for f in answer.figures if f.page and f.document]
    for name, doc_id, page in pairs:
        if doc_id and doc_id in docs and (doc_id, page) not in seen:  # a deleted document has no pages to show
            doc = docs.get(doc_id)
            label = None
            if doc is not None and 1 <= page <= doc.pages:
                try:
                    label = engine.page_label(doc_id, page)
                except Exception:  # a kept copy gone or damaged: the page says so when it is opened
                    label = None
            seen[(doc_id, page)] = PageLink(
                document=name or doc_id, document_id=doc_id, page=page, label=label,
                pages=doc.pages if doc else 0,
                image_url=f"/api/documents/{doc_id}/pages/{page}.png" + (f"?answer={answer.id}" if answer.id else ""),
            )
    return list(seen.values())


def _scope_out(filters: dict, names: dict[str, str]) -> ScopeOut:
    scope = Scope.from_filters(filters)
    return ScopeOut(documents=list(scope.documents), document_names=[names.get(d, d) for d in scope.documents],
                    company=scope.company, year=scope.year, doc_type=scope.doc_type)


def _answer_out(answer: Answer, engine: Engine, filters: dict | None = None,
                document_deleted: bool = False) -> AnswerOut:
    filters = filters or {}
    names = {d.id: d.file_name for d in engine.documents()}
    shown_badge = badge(answer, document_deleted)
    return AnswerOut(
        badge=shown_badge.words, badge_key=shown_badge.key, figure_values=[figure_value(f) for f in answer.figures],
        **answer.model_dump(), pages=_page_links(answer, engine), thread_id=filters.get(THREAD_KEY),
        asked=filters.get(ASKED_KEY), understood=filters.get(UNDERSTOOD_KEY),
        inherited=[k for k in str(filters.get(INHERITED_KEY) or "").split(",") if k], scope=_scope_out(filters, names), origin=filters.get(ORIGIN_KEY),
    )


# --- the routes -----------------------------------------------------------------------------------

# The token itself is checked by the middleware in app.py for every /api path; this only documents it.
router = APIRouter(prefix="/api", dependencies=[Security(HTTPBearer(auto_error=False))], responses=ERRORS)


@router.get("/health", response_model=Health, summary="Liveness and queue length")
def health(request: Request) -> Health:
    engine = _engine(request)
    queued, processing = uploads.queue_counts(engine)
    return Health(documents=len(engine.documents()), queued=queued, processing=processing)


@router.post(
    "/documents", status_code=202, response_model=UploadOut,
    summary="Upload PDFs or EDGAR HTML filings (several at once); each file is accepted or refused with a reason",
    responses={422: {"description": "no file was accepted; per-file reasons under 'files'"}, **SERVER_ERRORS},
)
def upload(request: Request, files: list[UploadFile] = File(..., min_length=1, description="PDF files or EDGAR HTML filings (.htm, .html, .xhtml)")):
    engine, worker = _engine(request), _worker(request)
    folder = Path(request.app.state.uploads_dir)
    folder.mkdir(parents=True, exist_ok=True)
    results: list[FileResult] = []
    taken: set[str] = set()
    names: set[str] = set()
    for n, upload_file in enumerate(files):
        name = uploads.safe_display_name(upload_file.filename)
        if n >= MAX_FILES_PER_REQUEST:
            results.append(FileResult(file_name=name, accepted=False, status="refused", code="too_many_files",
                                      reason=f"at most {MAX_FILES_PER_REQUEST} files per upload; send the rest again"))
            continue
        try:
            done = uploads.accept(engine, worker, folder, upload_file.file, name, taken, names)
        except OSError as exc:
            _disk_full(exc, results)
            raise
        results.append(FileResult(file_name=done.file_name, accepted=done.accepted, id=done.id,
                                  status="queued" if done.accepted else "refused", code=done.code,
                                  reason=done.reason, duplicate_of=done.duplicate_of, size=done.size))
    if not any(r.accepted for r in results):
        body = UploadOut(files=results).model_dump()
        message = "; ".join(f"{r.file_name}: {r.reason}" for r in results) or "no files in the upload"
        return error_response(422, "nothing_accepted", message, **body)
    return UploadOut(files=results)


def _disk_full(exc: OSError, results: list[FileResult]) -> None:
    """507 for a full disk, with what the same upload had already queued (those stay queued)."""
    if disk_full(exc):
        log.error("upload: no space left on the index's disk (%s)", exc)
        raise ApiError(507, "disk_full", DISK_FULL_MESSAGE, files=[r.model_dump() for r in results]) from exc


@router.get("/documents", response_model=DocumentList, summary="Every document: queued, processing, ready or failed")
def list_documents(request: Request) -> DocumentList:
    return DocumentList(documents=_all_documents(_engine(request)))


@router.get("/documents/{doc_id}", response_model=DocumentOut, summary="One document: status, progress, metadata")
def get_document(request: Request, doc_id: str) -> DocumentOut:
    entry = uploads.find(_engine(request), doc_id)
    return _document_out(entry.document, entry.job)


@router.delete("/documents/{doc_id}", response_model=Deleted, summary="Delete one document (or cancel its upload)")
def delete_document(request: Request, doc_id: str) -> Deleted:
    return Deleted(deleted=[uploads.remove(_engine(request), _worker(request), doc_id)])


# `all` is documented as required and true, which is what the code accepts (anything else is 400
# confirm_delete_all); declared by hand because FastAPI cannot say "required" for a parameter with a default.
@router.delete("/documents", response_model=Deleted, summary="Delete every document (needs ?all=true)",
               openapi_extra={"parameters": [{
                   "name": "all", "in": "query", "required": True, "schema": {"type": "boolean", "enum": [True]},
                   "description": "must be true: deletes every document"}]})
def delete_all(request: Request, all: bool = Query(False, include_in_schema=False)) -> Deleted:
    if not all:
        raise ApiError(400, "confirm_delete_all", "this deletes every document; add ?all=true to confirm")
    return Deleted(deleted=uploads.remove_all(_engine(request), _worker(request)))


@router.post("/ask", response_model=AnswerOut, summary="Ask a question; a verified answer, or 'not found' with why",
             responses=SERVER_ERRORS)
def ask(request: Request, body: AskIn) -> AnswerOut:
    return _asked(_engine(request), body)


def _asked(engine: Engine, body: AskIn, progress: StageReporter | None = None) -> AnswerOut:
    documents = [*([body.document] if body.document else []), *(body.documents or [])]
    scope = Scope(documents=tuple(documents), company=body.company, year=body.year,
                  doc_type=body.doc_type.value if body.doc_type else None)
    try:
        asked = ask_in_thread(engine, body.question, scope, thread=body.thread, origin="web", progress=progress)
    except UnknownThread as exc:
        raise ApiError(404, "thread_not_found", str(exc)) from exc
    except ValueError as exc:
        raise ApiError(400, "bad_request", str(exc)) from exc
    filters = asked.record.filters if asked.record else {}
    return _answer_out(asked.answer, engine, filters)


STREAM_EXAMPLE = ('event: stage\ndata: {"name": "searching", "title": "Searching", '
                  '"detail": "searching 15,435 pages of 111 filings", "elapsed_s": 0.02}\n\n'
                  'event: answer\ndata: {"id": "…", "text": "…", "verification": "verified", …}\n\n')
def _event_schema(event: str, data: dict) -> dict:
    """One Server-Sent Event as OpenAPI 3.1 describes it (the 3.2 itemSchema, given as the schema):
    its name, and its data, a JSON text of the schema given."""
    return {"type": "object", "required": ["event", "data"],
            "properties": {"event": {"const": event},
                           "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": data}}}


STREAM_RESPONSES = {200: {
    "description": "Server-Sent Events: one `stage` event as each stage begins (data: StageOut), then one "
                   "`answer` event (data: AnswerOut, as POST /api/ask returns it) or, if answering failed "
                   "after it began, one `error` event (data: ErrorOut). Input that POST /api/ask refuses is "
                   "refused here the same way, before any event. The schema is that of one event.",
    "content": {"text/event-stream": {
        "schema": {"oneOf": [_event_schema("stage", StageOut.model_json_schema()),
                             _event_schema("answer", {"$ref": "#/components/schemas/AnswerOut"}),
                             _event_schema("error", {"$ref": "#/components/schemas/ErrorOut"})]},
        "example": STREAM_EXAMPLE}},
}}


@router.post("/ask/stream", response_class=StreamingResponse, responses={**STREAM_RESPONSES, **SERVER_ERRORS},
             summary="Ask a question and watch it answered: its stages as events, then the answer")
def ask_stream(request: Request, body: AskIn) -> StreamingResponse:
    engine = _engine(request)
    events = stages_of(lambda progress: _asked(engine, body, progress))
    first = next(events)
    if isinstance(first, Failed):  # refused before it began: the same error, status and shape as POST /api/ask
        raise first.error
    return StreamingResponse(_event_stream(first, events), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _event_stream(first: Stage | Finished | Failed, rest: Iterator[Stage | Finished | Failed]) -> Iterator[str]:
    for item in itertools.chain([first], rest):
        if isinstance(item, Stage):
            out = StageOut(name=item.name, title=item.title, detail=item.detail, elapsed_s=item.elapsed_s)
            yield _sse("stage", out)
        elif isinstance(item, Finished):
            yield _sse("answer", item.result)
        else:
            yield _sse("error", _error_out(item.error))


def _error_out(exc: BaseException) -> ErrorOut:
    if isinstance(exc, ApiError):
        return ErrorOut(error=ErrorBody(code=exc.code, message=exc.message))
    if isinstance(exc, StoreUnavailable):
        return ErrorOut(error=ErrorBody(code="store_unavailable", message=f"{exc}; try again shortly"))
    if disk_full(exc):
        return ErrorOut(error=ErrorBody(code="disk_full", message=DISK_FULL_MESSAGE))
    log.error("answering a streamed question failed", exc_info=exc)
    return ErrorOut(error=ErrorBody(code="internal_error",
                                    message=f"internal error ({type(exc).__name__}); see the server log"))


def _sse(event: str, data: BaseModel) -> str:
    return f"event: {event}\ndata: {data.model_dump_json()}\n\n"


@router.get("/examples", response_model=Examples, summary="Example questions the indexed filings answer (each checked by asking it)")
def examples(request: Request) -> Examples:
    found = asking.examples(_engine(request))
    return Examples(examples=found.questions, pending=found.pending)
