"""Uploads and the library: a file people send is checked, named and queued for the ingest worker
(ingestjobs.py); the library lists waiting, failed and ready documents as one list; deleting a
document also cancels its upload. The web face calls these; none of it is the face's own.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Iterator

from docqa.ingest.html import HTML_SUFFIXES
from docqa.ingest.pipeline import read_again_note, unique_name
from docqa.app.ingestjobs import IngestWorker, job_id_for, now
from docqa.store import AmbiguousDocument, DocumentNotFound
from docqa.types import Document, Job

if TYPE_CHECKING:
    from docqa.engine import Engine

MAX_NAME_CHARS = 160
PDF_MAGIC = b"%PDF-"
HTML_MARKS = (b"<?xml", b"<html", b"<!doctype html")
READ_BLOCK = 1 << 20


@dataclass(frozen=True)
class UploadResult:
    file_name: str
    accepted: bool
    id: str | None = None
    code: str | None = None      # why refused: not_pdf, empty, too_large, too_many_pages, duplicate
    reason: str | None = None    # why refused; for an accepted file, a note (renamed)
    size: int = 0
    duplicate_of: str | None = None  # a duplicate's: the file name of the document or upload it duplicates


@dataclass(frozen=True)
class Entry:
    """One row of the library: an indexed document, a waiting or failed upload, or both (re-indexing)."""

    document: Document | None
    job: Job | None


def safe_display_name(raw: str | None) -> str:
    """The name a person gave the file, for display only: no folders, no control characters."""
    name = (raw or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if ch.isprintable()).strip().lstrip(".").strip()
    if len(name) > MAX_NAME_CHARS:
        stem, dot, ext = name.rpartition(".")
        name = (stem[: MAX_NAME_CHARS - len(ext) - 1] + dot + ext) if dot and len(ext) <= 8 else name[:MAX_NAME_CHARS]
    return name or "upload.pdf"



def find(engine: "Engine", key: str) -> Entry:
    """A document or a waiting upload by id (or a document by file name); DocumentNotFound else."""
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
    return Entry(doc, job)



ACCEPT_LOCK = ".accept.lock"


@dataclass(frozen=True)
class Received:
    """An uploaded file as written to its incoming name: its size, first bytes and digest."""

    size: int
    head: bytes
    sha256: str


@contextmanager
def accepting(uploads: Path) -> Iterator[None]:
    """One upload at a time decides whether its file is new and queues it, across the threads and the
    processes of ``docqa serve`` (an exclusive lock on a file in the uploads folder): of identical files
    sent at once one is queued and every other is told it duplicates that one. Unlocked, 100 at once
    queued 4, under names no document ever had."""
    with (uploads / ACCEPT_LOCK).open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def accept(engine: "Engine", worker: IngestWorker, uploads: Path, stream: BinaryIO, name: str,
           taken: set[str], names: set[str] | None = None) -> UploadResult:
    """One uploaded file checked (size, PDF bytes, page count, duplicates), named uniquely and queued;
    ``taken`` and ``names`` are the ids and display names given earlier in the same request."""
    names = set() if names is None else names  # display names given earlier in this request
    incoming = uploads / f".incoming-{uuid.uuid4().hex}"  # a name the server chose; the user's never is
    try:
        received = _receive(stream, incoming, engine.settings.limits.max_upload_mb * 1024 * 1024)
        refusal, pages = _refusal(engine, incoming, received, name)
        if refusal is not None:
            return refusal
        with accepting(uploads):
            return _queue(engine, worker, uploads, incoming, received, name, pages, taken, names)
    finally:
        incoming.unlink(missing_ok=True)
        stream.close()


def _receive(stream: BinaryIO, incoming: Path, limit: int) -> Received:
    """Write the upload to ``incoming`` up to ``limit`` bytes; past it, only count the rest."""
    digest, size, head = hashlib.sha256(), 0, b""
    with incoming.open("wb") as out:
        while block := stream.read(READ_BLOCK):
            size += len(block)
            if size > limit:  # count the rest (already spooled by the server, capped by the guard) unwritten
                while block := stream.read(READ_BLOCK):
                    size += len(block)
                break
            if len(head) < 1024:
                head += block[: 1024 - len(head)]
            digest.update(block)
            out.write(block)
    return Received(size=size, head=head, sha256=digest.hexdigest())


def _refusal(engine: "Engine", incoming: Path, received: Received, name: str) -> tuple[UploadResult | None, int]:
    """Why the file is refused before it is queued (too large, empty, not a PDF, too many pages), or
    None; and its page count (0 when it was not counted, or cannot be here)."""
    limit_mb, size = engine.settings.limits.max_upload_mb, received.size

    def refused(code: str, reason: str, size: int = 0) -> UploadResult:
        return UploadResult(file_name=name, accepted=False, code=code, reason=reason, size=size)

    if size > limit_mb * 1024 * 1024:
        return refused("too_large", f"{size / (1024 * 1024):,.1f} MB ({size:,} bytes) is larger than the upload "
                                    f"limit of {limit_mb} MB (DOCQA_MAX_UPLOAD_MB)", size), 0
    if size == 0:
        return refused("empty", "empty file (0 bytes)"), 0
    if PDF_MAGIC not in received.head:
        if looks_like_html(received.head):  # an EDGAR filing as served (.htm): pages are counted when it is read
            return None, 0
        return refused("not_pdf", "not a PDF or an HTML filing: the file's bytes start with neither a PDF header "
                                  "nor HTML, whatever its name says; export or print it to PDF first, or upload "
                                  "the filing's .htm as EDGAR serves it", size), 0
    pages = count_pages(incoming)
    if pages > engine.settings.limits.max_pages:
        return refused("too_many_pages", f"{pages} pages is over the limit of {engine.settings.limits.max_pages} "
                                         "(DOCQA_MAX_PAGES)", size), pages
    return None, pages


def _queue(engine: "Engine", worker: IngestWorker, uploads: Path, incoming: Path, received: Received, name: str,
           pages: int, taken: set[str], names: set[str]) -> UploadResult:
    """Queue a checked file unless the same bytes are indexed or waiting (under ``accepting``)."""
    sha, size = received.sha256, received.size
    doc_id = job_id_for(sha)
    # The job first, then the document: the worker writes the document before it marks the job ready,
    # so a job read as not waiting has its document there already (read the other way round, a file
    # indexed in between was queued again under a new name no document ever had).
    job = engine.store.job(doc_id)
    if doc_id in taken or (job is not None and job.status in ("queued", "processing")):
        shown = job.file_name if job else name
        return UploadResult(file_name=name, accepted=False, id=doc_id, code="duplicate", size=size,
                            reason=f"the same file is already waiting to be indexed as {shown}", duplicate_of=shown)
    existing = engine.store.document_by_sha(sha)
    # a stored file with pages OCR can read now is read again, under the name it has
    unread = engine.unread_pages(existing, incoming) if existing is not None else 0
    if existing is not None and not unread:
        return UploadResult(file_name=name, accepted=False, id=existing.id, code="duplicate", size=size,
                            reason=f"already indexed as {existing.file_name}", duplicate_of=existing.file_name)
    stored = uploads / (f"{doc_id}{html_suffix(name)}" if looks_like_html(received.head) else f"{doc_id}.pdf")
    # A display name is unique in the index: a second "report.pdf" becomes "report (2).pdf" (docs/web.md).
    in_use = [d.file_name for d in engine.documents()]
    in_use += [j.file_name for j in engine.store.jobs() if j.status != "ready" and j.id != doc_id] + sorted(names)
    shown = existing.file_name if existing is not None else unique_name(name, in_use)
    note = (read_again_note(unread) if existing is not None
            else None if shown == name else f"renamed to {shown}: a document named {name} is already in the index")
    os.replace(incoming, stored)
    stamp = now()
    try:
        worker.submit(Job(id=doc_id, file_name=shown, stored_path=str(stored), sha256=sha, status="queued",
                          pages_total=pages, created_at=stamp, updated_at=stamp))
    except BaseException:  # not queued (a full disk, the store down): no file is left behind for it
        stored.unlink(missing_ok=True)
        raise
    taken.add(doc_id)
    names.add(shown)
    return UploadResult(file_name=shown, accepted=True, id=doc_id, reason=note, size=size)


def looks_like_html(head: bytes) -> bool:
    """An HTML (or XHTML) document by its first bytes, a PDF never: what the ingest pipeline reads as a filing
    when its name ends .htm, .html or .xhtml."""
    lower = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return PDF_MAGIC.lower() not in lower and any(t in lower for t in HTML_MARKS)


def html_suffix(name: str) -> str:
    """The suffix an HTML upload is kept under (the pipeline reads a file as HTML by it): the name's own
    when it is one of them, else .htm."""
    suffix = Path(name).suffix.lower()
    return suffix if suffix in HTML_SUFFIXES else ".htm"


def warnings_of(job: Job | None) -> list[str]:
    """What indexing warned about a ready document (ingestjobs keeps them in its job's reason)."""
    return job.reason.splitlines() if job is not None and job.status == "ready" and job.reason else []


def count_pages(path: Path) -> int:
    """Pages in a PDF, 0 when it cannot be opened here (the worker then says why)."""
    import fitz

    try:
        with fitz.open(path, filetype="pdf") as pdf:
            return 0 if pdf.needs_pass else pdf.page_count
    except Exception:
        return 0




def library(engine: "Engine") -> list[Entry]:
    """Waiting and failed uploads first, then ready documents by name."""
    docs = {d.id: d for d in engine.documents()}
    jobs = {j.id: j for j in engine.store.jobs()}
    pending = [Entry(None, j) for j in jobs.values() if j.id not in docs and j.status != "ready"]
    ready = [Entry(d, jobs.get(d.id)) for d in sorted(docs.values(), key=lambda d: d.file_name.lower())]
    return pending + ready


def queue_counts(engine: "Engine") -> tuple[int, int]:
    """(queued, processing) uploads."""
    jobs = engine.store.jobs()
    return sum(j.status == "queued" for j in jobs), sum(j.status == "processing" for j in jobs)


def remove(engine: "Engine", worker: IngestWorker, key: str) -> str:
    """Delete a document, or cancel its upload (both when it is being re-indexed); its id."""
    entry = find(engine, key)
    doc_id = entry.document.id if entry.document else entry.job.id  # type: ignore[union-attr]
    worker.cancel(doc_id)
    if entry.document is not None or engine.store.document(doc_id) is not None:  # indexed meanwhile: delete it too
        engine.delete(doc_id)
    return doc_id


def remove_all(engine: "Engine", worker: IngestWorker) -> list[str]:
    gone = []
    for job in engine.store.jobs():
        worker.cancel(job.id)
        gone.append(job.id)
    for doc in engine.documents():
        engine.delete(doc.id)
        gone.append(doc.id)
    return sorted(set(gone))
