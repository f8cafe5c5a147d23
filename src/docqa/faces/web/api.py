"""The REST API under /api. Holds no logic of its own: it checks input, calls the Engine, shapes JSON.

Every error has one shape: ``{"error": {"code": "...", "message": "..."}}`` (an upload that
refuses every file adds the per-file results under ``"files"``).
"""

from __future__ import annotations

import hashlib
import os
import uuid
from pathlib import Path
from typing import Literal

from fastapi import APIRouter, File, Query, Request, Security, UploadFile
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPBearer
from pydantic import BaseModel, Field, StrictBool

from docqa.engine import Engine
from docqa.faces.web.jobs import IngestWorker, job_id_for, now
from docqa.ingest.pipeline import unique_name
from docqa.questionlog import record_answer
from docqa.store import AmbiguousDocument, DocumentNotFound
from docqa.types import Answer, DocType, Document, DocumentMeta, Job, JobStatus, QuestionRecord

MAX_FILES_PER_REQUEST = 20
MAX_NAME_CHARS = 160
PDF_MAGIC = b"%PDF-"
READ_BLOCK = 1 << 20
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
    code: str | None = Field(None, description="why refused: not_pdf, empty, too_large, duplicate, too_many_files")
    reason: str | None = Field(None, description="why refused; for an accepted file, a note (renamed to a unique name)")
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
    document: str | None = Field(None, description="only this document: its id or file name")
    company: str | None = None
    year: int | None = Field(None, ge=1900, le=2200)
    doc_type: DocType | None = Field(None, description="only filings of this type")


class PageLink(BaseModel):
    document: str
    document_id: str
    page: int
    image_url: str


class AnswerOut(Answer):
    pages: list[PageLink] = Field(default_factory=list, description="the cited pages, with the evidence boxed")


class FeedbackIn(BaseModel):
    answer_id: str = Field(..., min_length=1, max_length=64)
    helpful: StrictBool = Field(..., description="true or false (not 0, 1 or a string)")
    note: str | None = Field(None, max_length=2000)


class FeedbackOut(BaseModel):
    answer_id: str
    helpful: bool
    note: str | None = None


class QuestionOut(BaseModel):
    id: str
    question: str
    created_at: str
    filters: dict[str, str | int | None] = Field(default_factory=dict)
    helpful: bool | None = None
    note: str | None = None
    answer: AnswerOut


class QuestionList(BaseModel):
    questions: list[QuestionOut]


class Examples(BaseModel):
    examples: list[str]


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    documents: int
    queued: int
    processing: int


# --- helpers -----------------------------------------------------------------------------------------

ERRORS = {
    400: {"model": ErrorOut, "description": "bad input"},
    401: {"model": ErrorOut, "description": "missing or wrong bearer token"},
    404: {"model": ErrorOut, "description": "not found"},
    422: {"model": ErrorOut, "description": "invalid request"},
}


def _engine(request: Request) -> Engine:
    return request.app.state.engine


def _worker(request: Request) -> IngestWorker:
    return request.app.state.worker


def safe_display_name(raw: str | None) -> str:
    """The name a person gave the file, for display only: no folders, no control characters."""
    name = (raw or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if ch.isprintable()).strip().lstrip(".").strip()
    if len(name) > MAX_NAME_CHARS:
        stem, dot, ext = name.rpartition(".")
        name = (stem[: MAX_NAME_CHARS - len(ext) - 1] + dot + ext) if dot and len(ext) <= 8 else name[:MAX_NAME_CHARS]
    return name or "upload.pdf"


def _document_out(doc: Document | None, job: Job | None) -> DocumentOut:
    if doc is not None:
        return DocumentOut(
            id=doc.id, file_name=doc.file_name, status="ready", pages_done=doc.pages, pages_total=doc.pages,
            pages=doc.pages, chunks=doc.chunks, meta=doc.meta, ocr_pages=doc.ocr_pages,
            no_text_pages=doc.no_text_pages, embedded=doc.embedded,
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
    docs = {d.id: d for d in engine.documents()}
    jobs = {j.id: j for j in engine.store.jobs()}
    pending = [_document_out(None, j) for j in jobs.values() if j.id not in docs and j.status != "ready"]
    ready = [_document_out(d, jobs.get(d.id)) for d in sorted(docs.values(), key=lambda d: d.file_name.lower())]
    return pending + ready


def _find(engine: Engine, key: str) -> tuple[Document | None, Job | None]:
    doc = engine.store.document(key)
    job = engine.store.job(key)
    if doc is None and job is None:
        try:
            doc = engine.document(key)  # a file name works too
        except AmbiguousDocument:
            raise  # two documents answer to the name: the error lists both with their ids
        except DocumentNotFound:
            pass
        else:
            job = engine.store.job(doc.id)
    if doc is None and (job is None or job.status == "ready"):
        known = [d.file_name for d in engine.documents()]
        raise DocumentNotFound(key, known)
    return doc, job


def _page_links(answer: Answer, engine: Engine) -> list[PageLink]:
    seen: dict[tuple[str, int], PageLink] = {}
    ids = {d.file_name: d.id for d in engine.documents()}
    pairs = [(c.document, c.document_id, c.page) for c in answer.citations]
    pairs += [(f.document, ids.get(f.document or ""), f.page) for f in answer.figures if f.page and f.document]
    for name, doc_id, page in pairs:
        if doc_id and (doc_id, page) not in seen:
            seen[(doc_id, page)] = PageLink(
                document=name or doc_id, document_id=doc_id, page=page,
                image_url=f"/api/documents/{doc_id}/pages/{page}.png" + (f"?answer={answer.id}" if answer.id else ""),
            )
    return list(seen.values())


def _answer_out(answer: Answer, engine: Engine) -> AnswerOut:
    return AnswerOut(**answer.model_dump(), pages=_page_links(answer, engine))


def _question_out(record: QuestionRecord, engine: Engine) -> QuestionOut:
    return QuestionOut(
        id=record.answer.id or "", question=record.answer.question, created_at=record.created_at,
        filters=record.filters, helpful=record.helpful, note=record.note, answer=_answer_out(record.answer, engine),
    )


# --- the routes -----------------------------------------------------------------------------------

# The token itself is checked by the middleware in app.py for every /api path; this only documents it.
router = APIRouter(prefix="/api", dependencies=[Security(HTTPBearer(auto_error=False))], responses=ERRORS)


@router.get("/health", response_model=Health, summary="Liveness and queue length")
def health(request: Request) -> Health:
    engine = _engine(request)
    jobs = engine.store.jobs()
    return Health(documents=len(engine.documents()), queued=sum(j.status == "queued" for j in jobs),
                  processing=sum(j.status == "processing" for j in jobs))


@router.post(
    "/documents", status_code=202, response_model=UploadOut,
    summary="Upload PDFs (several at once); each file is accepted or refused with a reason",
    responses={422: {"description": "no file was accepted; per-file reasons under 'files'"}},
)
def upload(request: Request, files: list[UploadFile] = File(..., min_length=1, description="PDF files")):
    engine, worker = _engine(request), _worker(request)
    settings = engine.settings
    limit = settings.max_upload_mb * 1024 * 1024
    uploads = Path(request.app.state.uploads_dir)
    uploads.mkdir(parents=True, exist_ok=True)
    results: list[FileResult] = []
    taken: set[str] = set()
    names: set[str] = set()
    for n, upload_file in enumerate(files):
        name = safe_display_name(upload_file.filename)
        if n >= MAX_FILES_PER_REQUEST:
            results.append(FileResult(file_name=name, accepted=False, status="refused", code="too_many_files",
                                      reason=f"at most {MAX_FILES_PER_REQUEST} files per upload; send the rest again"))
            continue
        results.append(_accept(engine, worker, uploads, upload_file, name, limit, settings.max_upload_mb, taken, names))
    if not any(r.accepted for r in results):
        body = UploadOut(files=results).model_dump()
        message = "; ".join(f"{r.file_name}: {r.reason}" for r in results) or "no files in the upload"
        return error_response(422, "nothing_accepted", message, **body)
    return UploadOut(files=results)


def _accept(engine: Engine, worker: IngestWorker, uploads: Path, upload_file: UploadFile, name: str, limit: int,
            limit_mb: int, taken: set[str], names: set[str] | None = None) -> FileResult:
    def refused(code: str, reason: str, size: int = 0, doc_id: str | None = None) -> FileResult:
        return FileResult(file_name=name, accepted=False, id=doc_id, status="refused", code=code, reason=reason,
                          size=size)

    names = set() if names is None else names  # display names given earlier in this request
    incoming = uploads / f".incoming-{uuid.uuid4().hex}"  # a name the server chose; the user's never is
    digest, size, head = hashlib.sha256(), 0, b""
    try:
        with incoming.open("wb") as out:
            while block := upload_file.file.read(READ_BLOCK):
                size += len(block)
                if size > limit:  # count the rest (already spooled by the server, capped by Guard) unwritten
                    while block := upload_file.file.read(READ_BLOCK):
                        size += len(block)
                    break
                if len(head) < 1024:
                    head += block[: 1024 - len(head)]
                digest.update(block)
                out.write(block)
        if size > limit:
            return refused("too_large", f"{size / (1024 * 1024):,.1f} MB ({size:,} bytes) is larger than the upload "
                                        f"limit of {limit_mb} MB (DOCQA_MAX_UPLOAD_MB)", size)
        if size == 0:
            return refused("empty", "empty file (0 bytes)")
        if PDF_MAGIC not in head:
            return refused("not_pdf", "not a PDF: the file's bytes do not start with a PDF header, whatever its "
                                      "name says; export or print it to PDF first", size)
        pages = count_pages(incoming)
        if pages > engine.settings.max_pages:
            return refused("too_many_pages", f"{pages} pages is over the limit of {engine.settings.max_pages} "
                                             "(DOCQA_MAX_PAGES)", size)
        sha = digest.hexdigest()
        doc_id = job_id_for(sha)
        existing = engine.store.document_by_sha(sha)
        if existing is not None:
            return refused("duplicate", f"already indexed as {existing.file_name}", size, existing.id)
        job = engine.store.job(doc_id)
        if doc_id in taken or (job is not None and job.status in ("queued", "processing")):
            shown = job.file_name if job else name
            return refused("duplicate", f"the same file is already waiting to be indexed as {shown}", size, doc_id)
        stored = uploads / f"{doc_id}.pdf"
        # A display name is unique in the index: a second "report.pdf" becomes "report (2).pdf" (docs/web.md).
        in_use = [d.file_name for d in engine.documents()]
        in_use += [j.file_name for j in engine.store.jobs() if j.status != "ready" and j.id != doc_id] + sorted(names)
        shown = unique_name(name, in_use)
        note = None if shown == name else f"renamed to {shown}: a document named {name} is already in the index"
        os.replace(incoming, stored)
        stamp = now()
        worker.submit(Job(id=doc_id, file_name=shown, stored_path=str(stored), sha256=sha, status="queued",
                          pages_total=pages, created_at=stamp, updated_at=stamp))
        taken.add(doc_id)
        names.add(shown)
        return FileResult(file_name=shown, accepted=True, id=doc_id, status="queued", reason=note, size=size)
    finally:
        incoming.unlink(missing_ok=True)
        upload_file.file.close()


def count_pages(path: Path) -> int:
    """Pages in a PDF, 0 when it cannot be opened here (the worker then says why)."""
    import fitz

    try:
        with fitz.open(path, filetype="pdf") as pdf:
            return 0 if pdf.needs_pass else pdf.page_count
    except Exception:
        return 0


@router.get("/documents", response_model=DocumentList, summary="Every document: queued, processing, ready or failed")
def list_documents(request: Request) -> DocumentList:
    return DocumentList(documents=_all_documents(_engine(request)))


@router.get("/documents/{doc_id}", response_model=DocumentOut, summary="One document: status, progress, metadata")
def get_document(request: Request, doc_id: str) -> DocumentOut:
    return _document_out(*_find(_engine(request), doc_id))


@router.delete("/documents/{doc_id}", response_model=Deleted, summary="Delete one document (or cancel its upload)")
def delete_document(request: Request, doc_id: str) -> Deleted:
    engine, worker = _engine(request), _worker(request)
    doc, job = _find(engine, doc_id)
    key = doc.id if doc else job.id  # type: ignore[union-attr]
    worker.cancel(key)
    if doc is not None or engine.store.document(key) is not None:  # indexed meanwhile: delete it too
        engine.delete(key)
    return Deleted(deleted=[key])


# `all` is documented as required and true, which is what the code accepts (anything else is 400
# confirm_delete_all); declared by hand because FastAPI cannot say "required" for a parameter with a default.
@router.delete("/documents", response_model=Deleted, summary="Delete every document (needs ?all=true)",
               openapi_extra={"parameters": [{
                   "name": "all", "in": "query", "required": True, "schema": {"type": "boolean", "enum": [True]},
                   "description": "must be true: deletes every document"}]})
def delete_all(request: Request, all: bool = Query(False, include_in_schema=False)) -> Deleted:
    if not all:
        raise ApiError(400, "confirm_delete_all", "this deletes every document; add ?all=true to confirm")
    engine, worker = _engine(request), _worker(request)
    gone = []
    for job in engine.store.jobs():
        worker.cancel(job.id)
        gone.append(job.id)
    for doc in engine.documents():
        engine.delete(doc.id)
        gone.append(doc.id)
    return Deleted(deleted=sorted(set(gone)))


@router.post("/ask", response_model=AnswerOut, summary="Ask a question; a verified answer, or 'not found' with why")
def ask(request: Request, body: AskIn) -> AnswerOut:
    engine = _engine(request)
    try:
        answer = engine.ask(body.question, document=body.document, company=body.company, year=body.year,
                            doc_type=body.doc_type)
    except ValueError as exc:
        raise ApiError(400, "bad_request", str(exc)) from exc
    filters = {"document": body.document, "company": body.company, "year": body.year,
               "doc_type": body.doc_type.value if body.doc_type else None}
    record_answer(engine.store, answer, {k: v for k, v in filters.items() if v is not None})
    return _answer_out(answer, engine)


@router.get(
    "/documents/{doc_id}/pages/{page}.png", summary="A page as PNG, with an answer's evidence boxed",
    response_class=Response, responses={200: {"content": {"image/png": {}}, "description": "the page"}},
)
def page_image(request: Request, doc_id: str, page: int,
               answer: str | None = Query(None, description="an answer id: box its quotes and figures")) -> Response:
    engine = _engine(request)
    doc, job = _find(engine, doc_id)
    if doc is None:
        raise ApiError(409, "not_ready", f"{job.file_name} is {job.status}; pages can be shown once it is ready")  # type: ignore[union-attr]
    quotes, figures, boxes = [], [], []
    if answer:
        record = engine.store.question(answer)
        if record is None:
            raise ApiError(404, "answer_not_found", f"no answer with id {answer!r}; ask again")
        cited = [c for c in record.answer.citations if c.document_id == doc.id and c.page == page]
        quotes = [c.quote for c in cited if c.quote]
        boxes = [b for c in cited for b in c.boxes]
        figures = [f for f in record.answer.figures
                   if f.page == page and f.document in (None, doc.file_name) and not f.computed]
    image = engine.evidence_image(doc.id, page, quotes, figures, boxes)
    return Response(image.png, media_type="image/png", headers={
        "X-Evidence": image.used, "X-Evidence-Boxes": str(len(image.boxes)), "Cache-Control": "private, max-age=300",
    })


@router.post("/feedback", response_model=FeedbackOut, summary="Say whether an answer helped")
def feedback(request: Request, body: FeedbackIn) -> FeedbackOut:
    note = (body.note or "").strip() or None
    if not _engine(request).store.add_feedback(body.answer_id, body.helpful, note):
        raise ApiError(404, "answer_not_found", f"no answer with id {body.answer_id!r}")
    return FeedbackOut(answer_id=body.answer_id, helpful=body.helpful, note=note)


@router.get("/questions", response_model=QuestionList, summary="Questions asked, newest first")
def questions(request: Request, limit: int = Query(50, ge=1, le=1000)) -> QuestionList:
    engine = _engine(request)
    return QuestionList(questions=[_question_out(r, engine) for r in engine.store.questions(limit)])


@router.get("/questions/{answer_id}", response_model=QuestionOut, summary="One asked question and its answer")
def question(request: Request, answer_id: str) -> QuestionOut:
    engine = _engine(request)
    record = engine.store.question(answer_id)
    if record is None:
        raise ApiError(404, "answer_not_found", f"no answer with id {answer_id!r}")
    return _question_out(record, engine)


@router.get("/examples", response_model=Examples, summary="Example questions built from what is indexed")
def examples(request: Request) -> Examples:
    return Examples(examples=example_questions(_engine(request).documents()))


def example_questions(documents: list[Document], limit: int = 6) -> list[str]:
    """Questions a person could ask of these documents: figures by company and year, and exact counts."""
    if not documents:
        return []
    per_doc: list[list[str]] = []
    for doc in documents[:limit]:
        meta = doc.meta
        who = (meta.aliases[0] if meta.aliases else None) or meta.company
        asks = []
        if who and meta.fiscal_year:
            asks.append(f"What was {who}'s total revenue in {meta.fiscal_year}?")
            asks.append(f"What were {who}'s capital expenditures in {meta.fiscal_year}?")
        asks.append(f"How many pages does {doc.file_name} have?")
        asks.append(f"How many times does 'risk' appear in {doc.file_name}?")
        per_doc.append(asks)
    out: list[str] = []
    for round_ in range(max(len(a) for a in per_doc)):  # one of each document before the second of any
        for asks in per_doc:
            if round_ < len(asks) and len(out) < limit:
                out.append(asks[round_])
    return out
