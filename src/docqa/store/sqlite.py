"""The embedded default store: one SQLite file (FTS5 always written), BM25 searched in a tantivy index
beside it or in FTS5 (setting ``lexical``), exact vector search in NumPy.

The store is split by job: the file's tables (sqlite_schema), searching (sqlite_search), the tantivy
index kept in line with the file (sqlite_tantivy), rows read back as models (sqlite_rows); this
module opens the store and holds its writes, reads and service state."""

from __future__ import annotations

import functools
import json
import sqlite3
import threading
import logging
from pathlib import Path
from typing import Callable, Iterable, Literal, TypeVar

import numpy as np

from docqa.store.base import EmbedderMismatch, Store, StoredPage, disk_full, line_rows, tables_as_text
from docqa.store.sqlite_heads import ChunkHeads
from docqa.store.sqlite_rows import chunk_of, document_of, page_of, question_of
from docqa.store.sqlite_schema import connect
from docqa.store.sqlite_search import SQLiteSearch
from docqa.store.sqlite_tantivy import TantivyMirror
from docqa.types import Chunk, Document, Job, QuestionRecord

log = logging.getLogger(__name__)

CHUNK_CACHE = 20_000  # built Chunks kept between searches (~2 kB each)
PAGE_CACHE_DOCUMENTS = 4  # filings whose pages are kept between questions (549 pages of PepsiCo: 15 MB)

# benchmarks/scale.py and benchmarks/dense_source.py decode rows with these names
_document, _chunk, _page = document_of, chunk_of, page_of


W = TypeVar("W", bound=Callable)


def _says_disk_full(write: W) -> W:
    """A write that fails for want of space raises DiskFull (naming the index's folder) from SQLite's
    or tantivy's own error, so every face can say so in words (the CLI's line, HTTP 507)."""

    @functools.wraps(write)
    def wrapper(self: "SQLiteStore", *args, **kwargs):
        try:
            return write(self, *args, **kwargs)
        except Exception as exc:
            full = disk_full(exc, self.path.parent)
            if full is None or full is exc:
                raise
            raise full from exc

    return wrapper  # type: ignore[return-value]


class SQLiteStore(SQLiteSearch, TantivyMirror, Store):
    """Thread-safe by a lock: the web app and MCP server share one instance."""

    def __init__(self, path: str | Path, lexical: Literal["fts5", "tantivy"] = "fts5"):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = connect(self.path)
        self._lock = threading.RLock()
        self._matrix: tuple | None = None
        self._generation = 0
        self._documents: tuple[tuple[int, int], list[Document]] | None = None
        self._chunk_cache: tuple[tuple[int, int], dict[str, Chunk]] | None = None
        self._heads = ChunkHeads(self._db, self._version)
        self._page_cache: tuple[tuple[int, int], dict[str, list[StoredPage]]] | None = None
        self._spans: tuple[tuple[int, int], dict[str, tuple[int | None, int | None]]] | None = None
        self._open_lexical(lexical)

    def _version(self) -> tuple[int, int]:
        """Moves with every write: this connection's (generation) or another process's (data_version)."""
        return self._generation, self._db.execute("PRAGMA data_version").fetchone()[0]

    # --- identity -----------------------------------------------------------------------
    def embedder_identity(self) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key='embedder'").fetchone()
        return row["value"] if row else None

    @_says_disk_full
    def bind_embedder(self, identity: str) -> None:
        with self._lock:
            current = self.embedder_identity()
            if current is None:
                self._db.execute("INSERT INTO meta(key, value) VALUES ('embedder', ?)", (identity,))
            elif current != identity:
                raise EmbedderMismatch(
                    f"this index was built with embedder {current!r} but {identity!r} was asked for; "
                    "open it with the same embedder, or build a new index in another folder"
                )

    # --- writing ------------------------------------------------------------------------
    @_says_disk_full
    def _write_document(self, document: Document, pages: list[StoredPage], chunks: list[Chunk],
                        vectors: np.ndarray | None, bodies: list[str]) -> None:
        if self._lexical is not None:
            self._lexical.prepare(bodies)  # the costly part of its write, before SQLite's write lock is taken
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                self._delete(document.id)
                db.execute(
                    "INSERT INTO documents(id, file_name, path, sha256, pages, chunks, meta, ocr_pages,"
                    " no_text_pages, embedded) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (
                        document.id, document.file_name, document.path, document.sha256, document.pages,
                        len(chunks), document.meta.model_dump_json(), document.ocr_pages,
                        document.no_text_pages, int(vectors is not None),
                    ),
                )
                db.executemany(
                    "INSERT INTO pages(document_id, number, width, height, lines, info, tables, ocr, no_text)"
                    " VALUES (?,?,?,?,?,?,?,?,?)",
                    [
                        (
                            document.id, p.number, p.width, p.height,
                            json.dumps(line_rows(p.lines)),
                            p.info.model_dump_json() if p.info else None,
                            tables_as_text(p.tables) if p.tables else None,
                            int(p.ocr), int(p.no_text),
                        )
                        for p in pages
                    ],
                )
                for i, c in enumerate(chunks):
                    vec = vectors[i].astype(np.float32).tobytes() if vectors is not None else None
                    cur = db.execute(
                        "INSERT INTO chunks(id, document_id, document, page, ordinal, kind, text, bbox, section,"
                        " statement, company, fiscal_year, doc_type, vector) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        (
                            c.id, c.document_id, c.document, c.page, c.ordinal, c.kind, c.text,
                            json.dumps(list(c.bbox)) if c.bbox else None, c.section,
                            c.statement.value if c.statement else None, c.company, c.fiscal_year,
                            c.doc_type.value if c.doc_type else None, vec,
                        ),
                    )
                    db.execute("INSERT INTO chunks_fts(rowid, body) VALUES (?, ?)", (cur.lastrowid, bodies[i]))
                self._write_lexical(document.id)
                db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
            self._generation += 1

    def _rollback(self) -> None:
        """Undo the failed write's transaction, without hiding why it failed. SQLite has already rolled
        it back itself after some errors (a full disk, out of memory): ROLLBACK then raised "no
        transaction is active" in place of the error that says what happened."""
        if not self._db.in_transaction:
            return
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error as exc:  # the first error is the one raised; this one is only logged
            log.warning("rolling back a failed write failed too: %s", exc)

    def _delete(self, document_id: str) -> bool:
        db = self._db
        db.execute(
            "DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE document_id=?)", (document_id,)
        )
        db.execute("DELETE FROM chunks WHERE document_id=?", (document_id,))
        db.execute("DELETE FROM pages WHERE document_id=?", (document_id,))
        return db.execute("DELETE FROM documents WHERE id=?", (document_id,)).rowcount > 0

    @_says_disk_full
    def delete_document(self, document_id: str) -> bool:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                removed = self._delete(document_id)
                self._write_lexical(document_id)
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
            self._generation += 1
            return removed

    # --- reading ------------------------------------------------------------------------
    def documents(self) -> list[Document]:
        with self._lock:
            # Every question lists the documents: read them again only after a write (this
            # connection's or, by data_version, another process's).
            key = self._version()
            if self._documents is None or self._documents[0] != key:
                rows = self._db.execute("SELECT * FROM documents ORDER BY file_name").fetchall()
                self._documents = (key, [document_of(r) for r in rows])
            return list(self._documents[1])

    def document(self, document_id: str) -> Document | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM documents WHERE id=?", (document_id,)).fetchone()
        return document_of(row) if row else None

    def document_by_sha(self, sha256: str) -> Document | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM documents WHERE sha256=?", (sha256,)).fetchone()
        return document_of(row) if row else None

    def chunks(self, chunk_ids: Iterable[str]) -> list[Chunk]:
        ids = list(chunk_ids)
        if not ids:
            return []
        with self._lock:
            # Questions about one filing fetch the same candidate chunks again and again: keep the
            # built Chunks (immutable) until a write, so a search reads only the ones it has not seen.
            key = self._version()
            if self._chunk_cache is None or self._chunk_cache[0] != key:
                self._chunk_cache = (key, {})
            cache = self._chunk_cache[1]
            found = {i: c for i in ids if (c := cache.get(i)) is not None}  # kept if the cache is emptied below
            missing = list(dict.fromkeys(i for i in ids if i not in found))
            if missing:
                if len(cache) + len(missing) > CHUNK_CACHE:
                    cache.clear()
                marks = ",".join("?" * len(missing))
                for r in self._db.execute(f"SELECT * FROM chunks WHERE id IN ({marks})", missing):
                    cache[r["id"]] = found[r["id"]] = chunk_of(r)
            return [found[i] for i in ids if i in found]

    def page(self, document_id: str, number: int) -> StoredPage | None:
        with self._lock:
            row = self._db.execute(
                "SELECT * FROM pages WHERE document_id=? AND number=?", (document_id, number)
            ).fetchone()
        return page_of(row) if row else None

    def pages(self, document_id: str) -> list[StoredPage]:
        with self._lock:
            # A figure question reads every page of the filings it asks about; decoding and validating
            # those rows was about half of its CPU. Pages are immutable until a write: keep the last
            # few filings' pages, dropped when this or another process writes.
            key = self._version()
            if self._page_cache is None or self._page_cache[0] != key:
                self._page_cache = (key, {})
            cache = self._page_cache[1]
            if document_id in cache:
                cache[document_id] = cache.pop(document_id)  # most recently used last
                return list(cache[document_id])
            rows = self._db.execute(
                "SELECT * FROM pages WHERE document_id=? ORDER BY number", (document_id,)
            ).fetchall()
            pages = [page_of(r) for r in rows]
            if not PAGE_CACHE_DOCUMENTS:
                return pages
            if len(cache) >= PAGE_CACHE_DOCUMENTS:
                cache.pop(next(iter(cache)))
            cache[document_id] = pages
            return list(pages)

    # --- service state: ingest jobs ------------------------------------------------------
    @_says_disk_full
    def put_job(self, job: Job) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO jobs(id, created_at, body) VALUES (?,?,?)"
                " ON CONFLICT(id) DO UPDATE SET created_at=excluded.created_at, body=excluded.body",
                (job.id, job.created_at, job.model_dump_json()),
            )

    def job(self, job_id: str) -> Job | None:
        with self._lock:
            row = self._db.execute("SELECT body FROM jobs WHERE id=?", (job_id,)).fetchone()
        return Job.model_validate_json(row["body"]) if row else None

    def jobs(self) -> list[Job]:
        with self._lock:
            rows = self._db.execute("SELECT body FROM jobs ORDER BY created_at, seq").fetchall()
        return [Job.model_validate_json(r["body"]) for r in rows]

    @_says_disk_full
    def delete_job(self, job_id: str) -> bool:
        with self._lock:
            return self._db.execute("DELETE FROM jobs WHERE id=?", (job_id,)).rowcount > 0

    # --- service state: the question log ------------------------------------------------
    @_says_disk_full
    def log_question(self, record: QuestionRecord) -> None:
        if not record.answer.id:
            raise ValueError("a logged answer needs an id")
        with self._lock:
            self._db.execute(
                "INSERT INTO questions(answer_id, created_at, question, answer, filters, helpful, note)"
                " VALUES (?,?,?,?,?,?,?) ON CONFLICT(answer_id) DO UPDATE SET created_at=excluded.created_at,"
                " question=excluded.question, answer=excluded.answer, filters=excluded.filters,"
                " helpful=excluded.helpful, note=excluded.note",
                (
                    record.answer.id, record.created_at, record.answer.question, record.answer.model_dump_json(),
                    json.dumps(record.filters), None if record.helpful is None else int(record.helpful), record.note,
                ),
            )

    def question(self, answer_id: str) -> QuestionRecord | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM questions WHERE answer_id=?", (answer_id,)).fetchone()
        return question_of(row) if row else None

    def questions(self, limit: int = 100) -> list[QuestionRecord]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM questions ORDER BY created_at DESC, seq DESC LIMIT ?", (max(0, int(limit)),)
            ).fetchall()
        return [question_of(r) for r in rows]

    @_says_disk_full
    def add_feedback(self, answer_id: str, helpful: bool, note: str | None = None) -> bool:
        with self._lock:
            return self._db.execute(
                "UPDATE questions SET helpful=?, note=? WHERE answer_id=?", (int(bool(helpful)), note, answer_id)
            ).rowcount > 0

    @_says_disk_full
    def delete_questions(self, answer_ids: list[str] | None = None) -> int:
        with self._lock:
            if answer_ids is None:
                return self._db.execute("DELETE FROM questions").rowcount
            return sum(self._db.execute("DELETE FROM questions WHERE answer_id=?", (a,)).rowcount for a in answer_ids)

    def close(self) -> None:
        with self._lock:
            self._db.close()
