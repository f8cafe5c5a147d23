"""Files in, documents in the store. Idempotent; every file gets its own outcome."""

from __future__ import annotations

import dataclasses

import gc
import hashlib
import logging
import os
import shutil
import time
import uuid
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from docqa.embed import Embedder
from docqa.finance.statements import read_tables
from docqa.finance.tables import Cell, Row, StatementTable
from docqa.ingest import metadata
from docqa.ingest.chunk import chunk_page, page_title
from docqa.ingest.html import HTML_SUFFIXES, ParsedHtml, cover_over, is_html, parse_html, tables_with_facts
from docqa.ingest.ixbrl import trusted
from docqa.limits import HtmlLimits
from docqa.ingest.pdfcheck import BROKEN_PAGE_TREE, WHAT_IT_IS, broken_page_tree
from docqa.ingest.ocr import OcrOptions
from docqa.ingest.parse import ParseError, ocr_available, open_pdf, parse_pdf, why_no_text
from docqa.store.base import Store, StoredLine, StoredPage, disk_full, indexed_body
from docqa.types import Chunk, Document, DocumentMeta, FileOutcome, IngestReport, Page, PageInfo

log = logging.getLogger(__name__)

MIN_TABLE_ROWS = 3  # rows with two or more figures before a page is read for tables

# (file name, pages done, pages total) — called as work advances, for progress bars and job state.
# A progress that also has ``note(file name, text)`` is told what the pages wait on: "OCR page 40 of 171".
Progress = Callable[[str, int, int], None]


@dataclass
class IngestOptions:
    chunk_words: int = 250
    ocr: bool = True
    max_pages: int = 2000
    overrides: DocumentMeta | None = None  # explicit values win over detection


def read_again_note(unread: int) -> str:
    return f"indexed again: {unread} page(s) stored without text are read by OCR now"


def expand_paths(paths: Iterable[str | Path]) -> tuple[list[Path], list[FileOutcome]]:
    """Files and folders (recursively, *.pdf) -> unique files; missing paths become failures."""
    files: dict[Path, None] = {}
    missing = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for found in sorted(path.rglob("*")):
                if found.is_file() and found.suffix.lower() in (".pdf", *HTML_SUFFIXES):  # PDFs and EDGAR .htm
                    files[found.resolve()] = None
        elif path.is_file():
            files[path.resolve()] = None
        else:
            missing.append(FileOutcome(path=str(path), status="failed", reason="no such file or folder"))
    return list(files), missing


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def kept_name(document_id: str, *names: str | Path) -> str:
    """The kept copy's file name: the document id with the file's real suffix (``.htm``, ``.html``,
    ``.xhtml`` for an EDGAR filing, else ``.pdf``), from the first of ``names`` that has one."""
    for name in names:
        suffix = Path(str(name or "")).suffix.lower()
        if suffix in HTML_SUFFIXES:
            return document_id + suffix
    return document_id + ".pdf"


def keep_copy(source: Path, kept: Path, sha: str) -> Path:
    """Keep a copy of ``source`` (whose sha256 is ``sha``) at ``kept``, never half of one.

    An existing file is trusted only when its size and sha256 match; else it is replaced. The
    copy goes to a temporary name in the same folder, is flushed to disk and checked against
    ``sha``, then renamed into place (atomic), so a crash leaves either no file or a whole one.
    """
    size = source.stat().st_size
    try:
        if kept.stat().st_size == size and file_sha256(kept) == sha:
            return kept
        log.warning("kept copy %s differs from %s (cut short by a crash?); replacing it", kept, source.name)
    except FileNotFoundError:
        pass
    kept.parent.mkdir(parents=True, exist_ok=True)
    tmp = kept.with_name(f".{kept.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        with source.open("rb") as src, tmp.open("wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
            dst.flush()
            os.fsync(dst.fileno())
        if file_sha256(tmp) != sha:
            raise ParseError(f"{source.name} changed while it was being indexed; add it again")
        os.replace(tmp, kept)
    finally:
        tmp.unlink(missing_ok=True)
    return kept


def looks_truncated(path: Path) -> bool:
    """A PDF ends with %%EOF (give or take trailing whitespace); a cut-off download does not."""
    if is_html(path):
        return False
    try:
        with path.open("rb") as fh:
            fh.seek(0, 2)
            size = fh.tell()
            fh.seek(max(0, size - 2048))
            return b"%%EOF" not in fh.read()
    except OSError:
        return False


def failure_reason(path: Path, reason: str, shown_name: str | None = None) -> str:
    """Why ``path`` could not be indexed, for every path in (CLI, uploads, Dask workers): what the file
    is first (empty, not a PDF), a looping page tree named, a cut-off PDF said to be truncated whatever
    its damaged pages then looked like ("every page is blank"); the server's own path to the file
    replaced by the name the user gave it."""
    if reason.startswith(WHAT_IT_IS):
        pass
    elif broken_page_tree(path):
        reason = BROKEN_PAGE_TREE
    elif looks_truncated(path) and "truncated" not in reason:
        reason = f"the file looks truncated (no PDF end-of-file marker): add the complete file ({reason})"
    return reason.replace(str(path), shown_name) if shown_name else reason


def unique_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name (2)``, ``(3)``... before its suffix when a document already has it (any case):
    no two documents share a display name, so a name always resolves to one document (docs/web.md)."""
    used = {t.lower() for t in taken}
    if name.lower() not in used:
        return name
    stem, suffix = Path(name).stem, Path(name).suffix
    if not stem:  # ".pdf" alone
        stem, suffix = name, ""
    n = 2
    while f"{stem} ({n}){suffix}".lower() in used:
        n += 1
    return f"{stem} ({n}){suffix}"


@contextmanager
def gc_paused():
    """Python's cyclic garbage collector off for a while (back on after, if it was on).

    Building a document allocates a million small objects (words, lines, chunks) that all stay
    alive until the document is stored: every collection meanwhile walks them and frees nothing,
    and took a fifth of the parse's CPU. What they hold has no reference cycles to leak.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class Ingestor:
    def __init__(self, store: Store, embedder: Embedder | None, files_dir: Path, options: IngestOptions):
        self.store = store
        self.embedder = embedder
        self.files_dir = files_dir
        self.options = options
        self.stage_seconds: dict[str, float] = defaultdict(float)

    def run(self, paths: Iterable[str | Path], progress: Progress | None = None) -> IngestReport:
        files, outcomes = expand_paths(paths)
        for path in files:
            outcomes.append(self.ingest_file(path, progress))
        return IngestReport(files=tuple(outcomes), stage_seconds=dict(self.stage_seconds))

    def ingest_file(self, path: Path, progress: Progress | None = None, display_name: str | None = None) -> FileOutcome:
        started = time.perf_counter()
        name = display_name or path.name
        try:
            sha = file_sha256(path)
        except OSError as exc:
            return FileOutcome(path=str(path), status="failed", reason=f"cannot read file: {exc}")
        existing = self.store.document_by_sha(sha)
        unread = self.unread_pages(existing, path) if existing is not None else 0
        if existing is not None and not unread:
            return FileOutcome(
                path=str(path), status="skipped", reason=f"unchanged: already indexed as {existing.file_name}",
                document_id=existing.id, pages=existing.pages, chunks=existing.chunks,
            )
        if existing is not None:  # read again under the name it has, replacing the stored one
            given = name = existing.file_name
        else:
            given, name = name, unique_name(name, (d.file_name for d in self.store.documents()))
        try:
            document, pages, chunks, vectors, warnings, bodies = self._build(path, sha, name, progress)
        except ParseError as exc:
            return FileOutcome(path=str(path), status="failed", reason=failure_reason(path, str(exc)))
        except Exception as exc:  # a file the parsers cannot follow fails alone, with a reason
            log.warning("%s could not be read", path, exc_info=True)
            return FileOutcome(path=str(path), status="failed", reason=failure_reason(path, unexpected(exc)))
        if looks_truncated(path):
            warnings = [*warnings, "the file looks truncated (no PDF end-of-file marker): pages may be missing"]
        if name != given:
            warnings = [f"indexed as {name}: a document named {given} is already in the index", *warnings]
        if unread:
            warnings = [read_again_note(unread), *warnings]
        refused = self.store_document(path, sha, document, pages, chunks, vectors, bodies)
        if refused is not None:
            return refused
        return FileOutcome(
            path=str(path), status="indexed", document_id=document.id, pages=document.pages,
            chunks=len(chunks), seconds=round(time.perf_counter() - started, 2), warnings=tuple(warnings),
        )

    def unread_pages(self, existing: Document, path: Path) -> int:
        """Pages of a stored document that were indexed without text and never read by OCR (it was
        off, or not installed, then) and that OCR can read now: the next ingest of the same file
        reads it again, so that the advice on a flagged page ("turn OCR on") works. Pages OCR read
        and found empty do not count: reading them again would find nothing more."""
        if not existing.no_text_pages or not self.options.ocr or is_html(path):
            return 0
        if not ocr_available(OcrOptions.from_settings().engine):
            return 0
        return sum(p.no_text and not p.ocr for p in self.store.pages(existing.id))

    def store_document(self, path: Path, sha: str, document, pages, chunks, vectors,
                       bodies: list[str] | None = None) -> FileOutcome | None:
        """Keep a checked copy of the file, then write the document in one transaction; a failed
        outcome when the copy cannot be kept (nothing is written then); DiskFull when there is no room.
        ``bodies``: each chunk's ``indexed_body``, as ``_build`` returns them."""
        kept = self.files_dir / kept_name(document.id, path)
        with self._timed("index"), gc_paused():
            try:
                self.files_dir.mkdir(parents=True, exist_ok=True)
                keep_copy(path, kept, sha)
            except (ParseError, OSError) as exc:
                if (full := disk_full(exc, self.files_dir.parent)) is not None:
                    raise full from exc  # every file after this one would meet it too: the batch stops
                return FileOutcome(path=str(path), status="failed", reason=f"cannot keep a copy of the file: {exc}")
            try:
                self.store.add_document(document, pages, chunks, vectors, bodies)
            except BaseException:
                self._drop_copy(kept, document.id)
                raise
        return None

    def _drop_copy(self, kept: Path, document_id: str) -> None:
        """A copy is kept for a stored document only: one whose write failed (a full disk) leaves none
        behind, unless another process stored the same file meanwhile."""
        try:
            if self.store.document(document_id) is None:
                kept.unlink(missing_ok=True)
        except Exception as exc:  # the store cannot say (it is down): the copy stays, reused by the next try
            log.warning("kept copy %s left in place: %s", kept.name, exc)

    def _build(self, path: Path, sha: str, name: str, progress: Progress | None):
        with gc_paused():
            return self._build_paused(path, sha, name, progress)

    def _build_paused(self, path: Path, sha: str, name: str, progress: Progress | None):
        # Progress is in pages: parsing covers them all, or the first half when embedding follows.
        share = 0.5 if self.embedder is not None else 1.0

        def parsed_pages(done: int, total: int, detail: str = "") -> None:
            if progress:
                progress(name, int(done * share), total)
                if detail and (note := getattr(progress, "note", None)):
                    note(name, detail)

        # The page limit is checked on the page count before any page is parsed (as the upload path does).
        if is_html(path):
            count = 0  # an HTML filing has pages once it is laid out: counted after parsing
        else:
            with open_pdf(path) as doc:
                count = doc.page_count
        if count > self.options.max_pages:
            raise ParseError(
                f"{count} pages is over the limit of {self.options.max_pages}; raise DOCQA_MAX_PAGES to index it"
            )
        with self._timed("parse"):
            # the engine's own page limit, applied while the HTML is read (not only after)
            html_limits = dataclasses.replace(HtmlLimits.from_settings(), max_pages=self.options.max_pages)
            parsed = (parse_html(path, progress=parsed_pages, limits=html_limits) if is_html(path)
                      else parse_pdf(path, ocr=self.options.ocr, progress=parsed_pages, table_words=MIN_TABLE_ROWS))
        pages = parsed.pages
        warnings = [*parsed.warnings, *_trusted_facts(parsed)]
        if len(pages) > self.options.max_pages:
            raise ParseError(
                f"{len(pages)} pages is over the limit of {self.options.max_pages}; raise DOCQA_MAX_PAGES to index it"
            )
        if not any(p.lines for p in pages):
            if any(p.no_text for p in pages):
                raise ParseError("no extractable text: the pages are scanned images and OCR read nothing "
                                 f"({why_no_text(parsed, self.options.ocr)})")
            raise ParseError("no extractable text: every page is blank")
        with self._timed("metadata"):
            meta = _override(cover_over(metadata.detect_document(pages), parsed), self.options.overrides)
            infos = metadata.detect_pages(pages)
        doc_id = sha[:16]
        with self._timed("chunk"):
            chunks: list[Chunk] = []
            for page, info in zip(pages, infos):
                chunks.extend(chunk_page(page, doc_id, name, meta, info, self.options.chunk_words))
            # the lexical index's text, built here: on a worker when the ingest is parallel, not in the
            # one process that writes the store
            bodies = [indexed_body(c) for c in chunks]
        with self._timed("tables"):
            tables = {p.number: tables_with_facts(_tables(p), parsed, p.number) for p in pages}
            tables, dropped = _scales_as_printed(tables)
            warnings += dropped
        stored = [_stored_page(doc_id, p, i, tables[p.number]) for p, i in zip(pages, infos)]
        vectors = None
        if self.embedder is not None and chunks:
            titles = {p.number: page_title(p) for p in pages}
            texts = [_embedding_text(c, titles.get(c.page, "")) for c in chunks]
            with self._timed("embed"):
                batches = []
                step = 64
                for start in range(0, len(texts), step):
                    batches.append(self.embedder.embed(texts[start : start + step]))
                    if progress:
                        done = chunks[min(start + step, len(chunks)) - 1].page
                        progress(name, len(pages) // 2 + done // 2, len(pages))
                import numpy as np

                vectors = np.vstack(batches)
        if progress:
            progress(name, len(pages), len(pages))
        document = Document(
            id=doc_id, file_name=name, path=str(path), sha256=sha, pages=len(pages), chunks=len(chunks),
            meta=meta, ocr_pages=parsed.ocr_pages, no_text_pages=parsed.no_text_pages,
            embedded=vectors is not None,
        )
        return document, stored, chunks, vectors, warnings, bodies

    def _timed(self, stage: str):
        ingestor = self

        class _Timer:
            def __enter__(self):
                self.t = time.perf_counter()

            def __exit__(self, *exc):
                ingestor.stage_seconds[stage] += time.perf_counter() - self.t

        return _Timer()


def _override(detected: DocumentMeta, overrides: DocumentMeta | None) -> DocumentMeta:
    if overrides is None:
        return detected
    explicit = {k: v for k, v in overrides.model_dump(exclude_defaults=True).items() if v not in (None, ())}
    return detected.model_copy(update=explicit)


def unexpected(exc: BaseException) -> str:
    """A one-line reason for an error no check foresaw (the traceback goes to the log)."""
    first = (str(exc).strip().splitlines() or [""])[0][:200]
    return (f"the file could not be read ({type(exc).__name__}{': ' + first if first else ''}); "
            "the other files are indexed; run with --debug for the details")


def _trusted_facts(parsed: object) -> list[str]:
    """An HTML filing's facts without those no filing prints (``ixbrl.trusted``); their warning."""
    if not isinstance(parsed, ParsedHtml):
        return []
    parsed.facts, warning = trusted(parsed.facts)
    return [warning] if warning else []


def _scales_as_printed(tables: dict[int, list[StatementTable]]) -> tuple[dict[int, list[StatementTable]], list[str]]:
    """The tables with each cell's tagged fact taken off where its scale is not the table's printed
    unit (an amount tagged in thousands in a table "in millions"): the cell's printed figure and the
    table's unit stand, so an answer's text and its figure say the same. One warning for them all."""
    dropped: list[str] = []
    out = {page: [_printed_scale(table, page, dropped) for table in page_tables]
           for page, page_tables in tables.items()}
    if not dropped:
        return out, []
    more = f" (and {len(dropped) - 1} more)" if len(dropped) > 1 else ""
    return out, [f"{len(dropped)} tagged inline XBRL fact(s) ignored, their scale is not the table's printed unit: "
                 f"{dropped[0]}{more}; the printed figures are used"]


def _printed_scale(table: StatementTable, page: int, dropped: list[str]) -> StatementTable:
    """``table`` without the facts of another scale than its unit, each named in ``dropped``."""
    if not any(_scale_disagrees(cell, table, row) for row in table.rows for cell in row.cells):
        return table
    rows = []
    for row in table.rows:
        cells = []
        for cell in row.cells:
            if _scale_disagrees(cell, table, row):
                dropped.append(f"{cell.concept} tagged in 10^{cell.fact.scale} on page {page}, "
                               f"in a table in {table.unit}")
                cell = cell.model_copy(update={"concept": None, "context": None, "fact": None})
            cells.append(cell)
        rows.append(row.model_copy(update={"cells": tuple(cells)}))
    return table.model_copy(update={"rows": tuple(rows)})


def _scale_disagrees(cell: Cell, table: StatementTable, row: Row) -> bool:
    return cell.fact is not None and not cell.fact.agrees(table.unit, row.kind)


def _stored_page(document_id: str, page: Page, info: PageInfo, tables: list[StatementTable]) -> StoredPage:
    return StoredPage(
        document_id=document_id, number=page.number, width=page.width, height=page.height,
        lines=tuple(StoredLine(text=l.text, bbox=l.bbox, is_table=l.is_table) for l in page.lines),
        info=info, tables=tuple(tables), ocr=page.ocr, no_text=page.no_text,
    )


def _tables(page: Page) -> list[StatementTable]:
    """Numeric tables as line items x periods, read once here because reading needs word boxes."""
    if sum(line.is_table for line in page.lines) < MIN_TABLE_ROWS:
        return []
    try:
        return read_tables(page)
    except Exception as exc:  # a table the reader cannot follow must not lose the document
        log.warning("page %d: tables not read (%s)", page.number, exc)
        return []


def _embedding_text(chunk: Chunk, title: str) -> str:
    if chunk.kind == "table" and title and not chunk.text.startswith(title.split(" | ")[0]):
        return f"{title}\n{chunk.text}"
    return chunk.text
