"""The embedded default store: one SQLite file (FTS5 always written), BM25 searched in a tantivy index
beside it or in FTS5 (setting ``lexical``), exact vector search in NumPy."""

from __future__ import annotations

import functools
import json
import sqlite3
import threading
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Literal, TypeVar

import numpy as np

from docqa.store.base import EmbedderMismatch, StoredPage, disk_full, filter_columns, indexed_body
from docqa.store.sqlite_heads import HEAD_FIELDS, ChunkHeads
from docqa.types import (
    Answer, Chunk, DocType, Document, DocumentMeta, Job, PageInfo, QuestionRecord, SearchFilters, StatementKind,
)

if TYPE_CHECKING:
    from docqa.store.tantivy_lexical import TantivyLexical

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
CHUNK_CACHE = 20_000  # built Chunks kept between searches (~2 kB each)
PAGE_CACHE_DOCUMENTS = 4  # filings whose pages are kept between questions (549 pages of PepsiCo: 15 MB)
MAX_SPANS = 200       # rowid spans one restricted lexical search ranks separately

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    file_name TEXT NOT NULL,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    pages INTEGER NOT NULL,
    chunks INTEGER NOT NULL,
    meta TEXT NOT NULL,
    ocr_pages INTEGER NOT NULL DEFAULT 0,
    no_text_pages INTEGER NOT NULL DEFAULT 0,
    embedded INTEGER NOT NULL DEFAULT 0,
    added_at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS pages (
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    width REAL NOT NULL,
    height REAL NOT NULL,
    lines TEXT NOT NULL,
    info TEXT,
    tables TEXT,
    ocr INTEGER NOT NULL DEFAULT 0,
    no_text INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (document_id, number)
);
CREATE TABLE IF NOT EXISTS chunks (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    document TEXT NOT NULL,
    page INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    bbox TEXT,
    section TEXT,
    statement TEXT,
    company TEXT,
    fiscal_year INTEGER,
    doc_type TEXT,
    vector BLOB
);
CREATE INDEX IF NOT EXISTS chunks_document ON chunks(document_id, page);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(body, tokenize="porter unicode61 tokenchars '.&'");
-- service state (web app, MCP): background ingest jobs and the question log
CREATE TABLE IF NOT EXISTS jobs (
    seq INTEGER PRIMARY KEY,            -- insertion order: ties on created_at keep it
    id TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL                  -- the Job as JSON
);
CREATE TABLE IF NOT EXISTS questions (
    seq INTEGER PRIMARY KEY,
    answer_id TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,               -- the Answer as JSON
    filters TEXT NOT NULL,
    helpful INTEGER,                    -- NULL: no feedback yet
    note TEXT
);
"""


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


class SQLiteStore:
    """Thread-safe by a lock: the web app and MCP server share one instance."""

    def __init__(self, path: str | Path, lexical: Literal["fts5", "tantivy"] = "fts5"):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            self._db.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
            )
        self._matrix: tuple | None = None
        self._generation = 0
        self._documents: tuple[tuple[int, int], list[Document]] | None = None
        self._chunk_cache: tuple[tuple[int, int], dict[str, Chunk]] | None = None
        self._heads = ChunkHeads(self._db, self._version)
        self._page_cache: tuple[tuple[int, int], dict[str, list[StoredPage]]] | None = None
        self._spans: tuple[tuple[int, int], dict[str, tuple[int | None, int | None]]] | None = None
        self._lexical: TantivyLexical | None = None
        if lexical not in ("fts5", "tantivy"):
            raise ValueError(f"lexical must be fts5 or tantivy, not {lexical!r}")
        if lexical == "tantivy":
            try:
                from docqa.store.tantivy_lexical import ANALYSIS_VERSION, TantivyLexical
            except ImportError:
                # FTS5 is always written, so an install without the tantivy wheel still answers, as before.
                log.warning("tantivy is not installed (pip install tantivy): searching SQLite FTS5")
                lexical = "fts5"
        if lexical == "tantivy":
            self._lexical = TantivyLexical(self.path.with_name(f"{self.path.name}.tantivy{ANALYSIS_VERSION}"))
            with self._lock:
                self._lexical_in_line = self._reconcile_lexical()
                self._lexical_seen = self._version()

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
    def add_document(
        self,
        document: Document,
        pages: list[StoredPage],
        chunks: list[Chunk],
        vectors: np.ndarray | None,
    ) -> None:
        if vectors is not None and len(vectors) != len(chunks):
            raise ValueError("one vector per chunk expected")
        bodies = [indexed_body(c) for c in chunks]
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
                            json.dumps([[l.text, list(l.bbox), int(l.is_table)] for l in p.lines]),
                            p.info.model_dump_json() if p.info else None,
                            json.dumps(list(p.tables)) if p.tables else None,
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

    # --- the tantivy lexical index (setting ``lexical``) ------------------------------------
    def _lexical_rows(self, document_id: str) -> list[tuple]:
        """What the tantivy index holds for a document: the FTS5 rows' text, with the filter columns."""
        return self._db.execute(
            "SELECT c.rowid, c.document_id, c.company, c.fiscal_year, c.doc_type, f.body FROM chunks c"
            " JOIN chunks_fts f ON f.rowid = c.rowid WHERE c.document_id=? ORDER BY c.rowid", (document_id,)
        ).fetchall()

    def _write_lexical(self, document_id: str) -> None:
        """Inside the SQLite transaction, before its commit: the document's chunks (as this transaction
        holds them; none when it deletes the document) into tantivy, in one tantivy commit.

        Why before: another process reloads its tantivy view when SQLite's data_version moves, so
        the document must be in tantivy by the time SQLite lists it; a process that reloads for some
        other write in between sees rowids its SQLite view does not hold yet, and drops them. A crash
        between the two commits leaves tantivy ahead of SQLite, repaired at the next open."""
        if self._lexical is None:
            return
        self._lexical.replace({document_id: self._lexical_rows(document_id)})

    def _reconcile_lexical(self) -> bool:
        """Make the tantivy index hold exactly SQLite's chunks, per document: repairs a crash between
        the two commits, and builds the index the first time an existing store is opened with it.
        False when it could not (another process is writing, or building it too): FTS5 answers until it can.

        In two passes: the bulk without SQLite's write lock (a first build can take minutes, and other
        writers would time out), then what is still out of line with the lock held, so that no writer
        is between its two commits then (the first pass may have undone such a writer's tantivy write)."""
        assert self._lexical is not None
        stale = self._lexical_stale()
        if not stale:
            return True
        try:
            log.info("tantivy lexical index: bringing %d documents in line with SQLite", len(stale))
            self._lexical.replace({doc_id: self._lexical_rows(doc_id) for doc_id in stale})
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if stale := self._lexical_stale():
                    self._lexical.replace({doc_id: self._lexical_rows(doc_id) for doc_id in stale})
            finally:
                self._db.execute("ROLLBACK")
        except (ValueError, sqlite3.OperationalError) as e:
            # another process holds tantivy's writer (building it too) or SQLite's (writing): its commit
            # moves data_version, and the check runs again then
            log.warning("tantivy lexical index not in line with SQLite yet (%s); searching FTS5 meanwhile", e)
            return False
        return True

    def _lexical_stale(self) -> list[str]:
        """Documents whose chunks tantivy does not hold exactly as SQLite does."""
        assert self._lexical is not None
        want = dict(self._db.execute("SELECT document_id, count(*) FROM chunks GROUP BY document_id").fetchall())
        held = self._lexical.held()
        return [d for d in held if d not in want] + [d for d, n in want.items() if held.get(d) != n]

    # --- reading ------------------------------------------------------------------------
    def documents(self) -> list[Document]:
        with self._lock:
            # Every question lists the documents: read them again only after a write (this
            # connection's or, by data_version, another process's).
            key = self._version()
            if self._documents is None or self._documents[0] != key:
                rows = self._db.execute("SELECT * FROM documents ORDER BY file_name").fetchall()
                self._documents = (key, [_document(r) for r in rows])
            return list(self._documents[1])

    def document(self, document_id: str) -> Document | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM documents WHERE id=?", (document_id,)).fetchone()
        return _document(row) if row else None

    def document_by_sha(self, sha256: str) -> Document | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM documents WHERE sha256=?", (sha256,)).fetchone()
        return _document(row) if row else None

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
                    cache[r["id"]] = found[r["id"]] = _chunk(r)
            return [found[i] for i in ids if i in found]

    def page(self, document_id: str, number: int) -> StoredPage | None:
        with self._lock:
            row = self._db.execute(
                "SELECT * FROM pages WHERE document_id=? AND number=?", (document_id, number)
            ).fetchone()
        return _page(row) if row else None

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
            pages = [_page(r) for r in rows]
            if not PAGE_CACHE_DOCUMENTS:
                return pages
            if len(cache) >= PAGE_CACHE_DOCUMENTS:
                cache.pop(next(iter(cache)))
            cache[document_id] = pages
            return list(pages)

    # --- searching ----------------------------------------------------------------------
    def lexical_search(
        self, terms: list[str], phrases: list[str], filters: SearchFilters, k: int
    ) -> list[tuple[str, float]]:
        if self._lexical is not None and self._lexical_current():
            return self._tantivy_search(terms, phrases, [filters], k)[0]
        parts = [_fts_quote(t) for t in terms if t] + [_fts_quote(p) for p in phrases if p.strip()]
        if not parts:
            return []
        match = " OR ".join(parts)
        where, args = _filter_sql(filters)
        with self._lock:
            if filters.document_ids:
                # FTS5 scores every row it matches before any join can filter it. A document's chunks
                # are one run of rowids (written in one transaction), and FTS5 honours rowid bounds
                # inside its doclists: so only the named documents' chunks are matched and scored.
                # The document filter stays in the outer query, so a range that holds another
                # document's rows cannot leak them.
                ranges = self._rowid_ranges(filters.document_ids)
                if not ranges:
                    return []
                ranked = " UNION ALL ".join(
                    "SELECT rowid AS r, bm25(chunks_fts) AS score FROM chunks_fts"
                    " WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ?" for _ in ranges
                )
                inner_args: list = [x for lo, hi in ranges for x in (match, lo, hi)]
            elif where:
                ranked = "SELECT rowid AS r, bm25(chunks_fts) AS score FROM chunks_fts WHERE chunks_fts MATCH ?"
                inner_args = [match]
            else:
                # Nothing to filter: the k best come out of FTS5 before the join, so only k chunk
                # rows are looked up instead of one per match.
                ranked = ("SELECT rowid AS r, bm25(chunks_fts) AS score FROM chunks_fts WHERE chunks_fts MATCH ?"
                          " ORDER BY score LIMIT ?")
                inner_args = [match, k]
            sql = (f"SELECT c.id AS id, s.score AS score FROM ({ranked}) s JOIN chunks c ON c.rowid = s.r"
                   f" WHERE 1 {where} ORDER BY s.score LIMIT ?")
            rows = self._db.execute(sql, [*inner_args, *args, k]).fetchall()
        return [(r["id"], -float(r["score"])) for r in rows]

    def _lexical_current(self) -> bool:
        """Is the tantivy index to be searched? Reloaded after a write here or in another process; one
        not yet in line with SQLite (another process was building it) is checked again then."""
        assert self._lexical is not None
        with self._lock:
            version = self._version()
            if version != self._lexical_seen:
                self._lexical.reload()
                if not self._lexical_in_line:
                    self._lexical_in_line = self._reconcile_lexical()
                self._lexical_seen = version
            return self._lexical_in_line

    def lexical_search_groups(self, terms: list[str], phrases: list[str], groups: list[SearchFilters],
                              k: int) -> list[list[tuple[str, float]]]:
        """lexical_search for each group (a question's company groups): with tantivy, one query ranks
        them all (TantivyLexical.search_union), and each group's list is the same as its own search's."""
        if groups and self._lexical is not None and self._lexical_current():
            return self._tantivy_search(terms, phrases, list(groups), k)
        return [self.lexical_search(terms, phrases, g, k) for g in groups]

    def _tantivy_search(self, terms: list[str], phrases: list[str], groups: list[SearchFilters],
                        k: int) -> list[list[tuple[str, float]]]:
        from docqa.store.tantivy_lexical import split_groups

        assert self._lexical is not None
        columns = [filter_columns(g) for g in groups]
        with self._lock:
            ranked, complete = self._lexical.search_union(terms, phrases, columns, k * len(groups))
            rows = self._heads.by_rowid([r for r, _ in ranked])  # a rowid SQLite lacks is a stale entry
        lists = split_groups(ranked, rows, columns, k, HEAD_FIELDS)
        for i, found in enumerate(lists):
            if len(found) < k and not complete and len(groups) > 1:
                lists[i] = self._tantivy_search(terms, phrases, [groups[i]], k)[0]  # past the union's best
        return lists

    def chunk_heads(self, chunk_ids: Iterable[str]) -> dict[str, tuple[str, int, str | None, StatementKind | None]]:
        """(document id, page, section, statement) of each chunk: what ranking pages needs of a
        candidate, without building its Chunk (read for the pages shown only; store/sqlite_heads.py)."""
        with self._lock:
            rows = self._heads.by_id(list(chunk_ids))
        return {i: row[2:6] for i, row in rows.items()}

    def _rowid_ranges(self, document_ids: Iterable[str]) -> list[tuple[int, int]]:
        """The chunk rowid span of each document, adjacent spans merged; cached until a write."""
        key = self._version()
        if self._spans is None or self._spans[0] != key:
            self._spans = (key, {})
        spans = self._spans[1]
        out = []
        for doc_id in document_ids:
            if doc_id not in spans:
                spans[doc_id] = self._db.execute(
                    "SELECT min(rowid), max(rowid) FROM chunks WHERE document_id=?", (doc_id,)
                ).fetchone()
            lo, hi = spans[doc_id]
            if lo is not None:
                out.append((lo, hi))
        merged: list[tuple[int, int]] = []
        for lo, hi in sorted(out):
            if merged and lo <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
            else:
                merged.append((lo, hi))
        if len(merged) > MAX_SPANS:
            # One SELECT per span, and SQLite caps a compound SELECT at 500: close the narrowest gaps
            # (the outer document filter drops the other documents' rows they let in).
            gaps = sorted(b[0] - a[1] for a, b in zip(merged, merged[1:]))
            widest_closed = gaps[len(merged) - MAX_SPANS - 1]
            fewer = [merged[0]]
            for lo, hi in merged[1:]:
                if lo - fewer[-1][1] <= widest_closed:
                    fewer[-1] = (fewer[-1][0], hi)
                else:
                    fewer.append((lo, hi))
            merged = fewer
        return merged

    def vector_search(self, vector: np.ndarray, filters: SearchFilters, k: int) -> list[tuple[str, float]]:
        ids, matrix, meta = self._vectors()
        if len(ids) == 0:
            return []
        mask = _filter_mask(meta, filters)
        if not mask.any():
            return []
        scores = matrix @ vector.astype(np.float32)
        scores = np.where(mask, scores, -np.inf)
        if k < len(scores):  # the k best without sorting a million scores
            part = np.argpartition(-scores, k)[:k]
            top = part[np.argsort(-scores[part])]
        else:
            top = np.argsort(-scores)
        return [(ids[i], float(scores[i])) for i in top if np.isfinite(scores[i])]

    def _vectors(self) -> tuple[list[str], np.ndarray, dict]:
        """All vectors as one normalised matrix, cached until the next write."""
        with self._lock:
            # data_version moves when another connection (another process) commits.
            key = self._version()
            if self._matrix is None or self._matrix[0] != key:
                rows = self._db.execute(
                    "SELECT id, document_id, company, fiscal_year, doc_type, vector FROM chunks"
                    " WHERE vector IS NOT NULL ORDER BY rowid"
                ).fetchall()
                ids = [r["id"] for r in rows]
                matrix = (
                    np.vstack([np.frombuffer(r["vector"], dtype=np.float32) for r in rows])
                    if rows else np.zeros((0, 0), np.float32)
                )
                meta = {
                    "document_id": _Coded([r["document_id"] for r in rows]),
                    "company": _Coded([r["company"] for r in rows]),
                    "fiscal_year": np.array([r["fiscal_year"] or 0 for r in rows]),
                    "doc_type": _Coded([r["doc_type"] for r in rows]),
                }
                self._matrix = (key, ids, matrix, meta)  # type: ignore[assignment]
            _, ids, matrix, meta = self._matrix  # type: ignore[misc]
            return ids, matrix, meta

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
        return _question(row) if row else None

    def questions(self, limit: int = 100) -> list[QuestionRecord]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM questions ORDER BY created_at DESC, seq DESC LIMIT ?", (max(0, int(limit)),)
            ).fetchall()
        return [_question(r) for r in rows]

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




def _fts_quote(text: str) -> str:
    return '"' + text.replace('"', " ") + '"'


def _filter_sql(filters: SearchFilters) -> tuple[str, list]:
    clauses, args = [], []
    for column, values in filter_columns(filters):
        clauses.append(f"{column} IN ({','.join('?' * len(values))})")
        args.extend(values)
    return ("AND " + " AND ".join(clauses)) if clauses else "", args


class _Coded:
    """A column of strings as small integer codes: filtering a million chunks by document or
    company compares integers, not Python strings."""

    def __init__(self, values: list):
        self.codes_of: dict = {}
        self.codes = np.array([self.codes_of.setdefault(v, len(self.codes_of)) for v in values], dtype=np.int32)

    def __len__(self) -> int:
        return len(self.codes)

    def isin(self, wanted) -> np.ndarray:
        codes = [self.codes_of[w] for w in wanted if w in self.codes_of]
        return np.isin(self.codes, codes) if codes else np.zeros(len(self.codes), dtype=bool)


def _filter_mask(meta: dict, filters: SearchFilters) -> np.ndarray:
    mask = np.ones(len(meta["document_id"]), dtype=bool)
    if filters.document_ids:
        mask &= meta["document_id"].isin(filters.document_ids)
    if filters.companies:
        mask &= meta["company"].isin(filters.companies)
    if filters.years:
        mask &= np.isin(meta["fiscal_year"], list(filters.years))
    if filters.doc_types:
        mask &= meta["doc_type"].isin([d.value for d in filters.doc_types])
    return mask


def _document(row: sqlite3.Row) -> Document:
    return Document(
        id=row["id"], file_name=row["file_name"], path=row["path"], sha256=row["sha256"], pages=row["pages"],
        chunks=row["chunks"], meta=DocumentMeta.model_validate_json(row["meta"]), ocr_pages=row["ocr_pages"],
        no_text_pages=row["no_text_pages"], embedded=bool(row["embedded"]),
    )


def _chunk(row: sqlite3.Row) -> Chunk:
    return Chunk(
        id=row["id"], document_id=row["document_id"], document=row["document"], page=row["page"],
        ordinal=row["ordinal"], text=row["text"], kind=row["kind"],
        bbox=tuple(json.loads(row["bbox"])) if row["bbox"] else None, section=row["section"],
        statement=StatementKind(row["statement"]) if row["statement"] else None, company=row["company"],
        fiscal_year=row["fiscal_year"], doc_type=DocType(row["doc_type"]) if row["doc_type"] else None,
    )


def _question(row: sqlite3.Row) -> QuestionRecord:
    return QuestionRecord(
        answer=Answer.model_validate_json(row["answer"]), filters=json.loads(row["filters"]),
        created_at=row["created_at"], helpful=None if row["helpful"] is None else bool(row["helpful"]),
        note=row["note"],
    )


def _page(row: sqlite3.Row) -> StoredPage:
    return StoredPage.from_store(
        document_id=row["document_id"], number=row["number"], width=row["width"], height=row["height"],
        lines_json=row["lines"], info=PageInfo.model_validate_json(row["info"]) if row["info"] else None,
        tables_json=row["tables"], ocr=bool(row["ocr"]), no_text=bool(row["no_text"]),
    )
