"""The production store: PostgreSQL with pgvector, behind the same contract as SQLite.

Selected by ``DOCQA_STORE=postgresql://user:password@host:5432/dbname``. Everything lives in the
schema ``docqa`` of that database:

- ``documents``, ``pages``, ``chunks`` (metadata columns for filters: company, fiscal_year, doc_type,
  document_id, each with a btree index), ``jobs`` and ``questions`` (service state), ``meta``
  (embedder identity, vector dimensions) and ``schema_version`` (applied migrations).
- Lexical: ``chunks.tsv``, a generated ``tsvector`` over ``docqa.text.index_text`` with a GIN index.
  PostgreSQL's own parser would split ``pp&e`` into ``pp`` and ``e`` and the ``english``
  configuration drops stop words, so ``docqa.tsvector_of`` splits the normalised text on spaces
  only (as SQLite's FTS5 tokenizer does) and stems each token with an English Snowball dictionary
  that keeps stop words: ``1577``, ``8.70``, ``fy2018``, ``10k`` and ``pp&e`` stay tokens.
  Ranking is BM25 (k1=1.2, b=0.75, as FTS5), with document frequencies kept in ``lexemes``;
  a search scores only the chunks that hold the query's rarer words (lexical_budget).
- Dense: ``chunks.embedding vector(d)`` with an HNSW index (cosine). The column gets its dimension
  from the first document with vectors. Searches filtered by document or company are exact (a few
  thousand rows); unfiltered or year/type-filtered searches use HNSW with iterative scans.

Writing a document is one transaction (a crash leaves it wholly present or absent). Connections
come from a pool; when the server is down, calls raise ``StoreUnavailable`` (a clear message, for
the faces to answer "503, try again") and the pool reconnects by itself when the server is back.

The module opens the store and holds its writes, reads and service state; the schema and its
migrations are in postgres_schema, searching in postgres_search, values in and rows out in
postgres_rows.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterable, Iterator

import numpy as np

from docqa.store.base import EmbedderMismatch, Store, StoredPage, StoreUnavailable, line_rows, tables_as_json
from docqa.store.postgres_extra import ConnectionPool, psycopg, register_vector
from docqa.store.postgres_rows import (
    CHUNK_COLUMNS, DOCUMENT_COLUMNS, PAGE_COLUMNS, QUESTION_COLUMNS, chunk_of, clean, document_of, jsonb, page_of,
    question_of,
)
from docqa.store.postgres_schema import MIGRATIONS, SCHEMA, SCHEMA_VERSION, ensure_dimensions, migrate
from docqa.store.postgres_search import PostgresSearch
from docqa.types import Chunk, Document, Job, QuestionRecord

# Importable from here as before this module was split (tests, docs/postgres.md).
__all__ = ["MIGRATIONS", "SCHEMA", "SCHEMA_VERSION", "PostgresStore", "StoreUnavailable", "migrate"]


class PostgresStore(PostgresSearch, Store):
    """Thread-safe: every call takes a connection from the pool for one transaction."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10, timeout: float = 10.0,
                 connect_timeout: int = 5):
        self.url = url
        self._timeout = timeout
        self._where = _describe(url)
        kwargs = {"connect_timeout": connect_timeout, "application_name": "docqa"}
        try:
            with psycopg.connect(url, **kwargs) as conn:
                migrate(conn)
                self._pgvector = tuple(int(x) for x in conn.execute(
                    "SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()[0].split(".")[:2])
        except psycopg.OperationalError as exc:
            raise StoreUnavailable(f"cannot connect to PostgreSQL at {self._where}: {_first_line(exc)}") from exc
        self._dims: int | None = None
        self._documents: tuple[str, list[Document]] | None = None
        self._identity: str | None = None  # once bound, an index's embedder never changes
        self._pool = ConnectionPool(
            url, min_size=min_size, max_size=max_size, kwargs=kwargs, configure=register_vector,
            check=ConnectionPool.check_connection, timeout=timeout, name="docqa", open=True,
        )

    def __repr__(self) -> str:
        return f"PostgresStore({self._where})"

    @contextmanager
    def _tx(self) -> Iterator["psycopg.Connection"]:
        """One connection, one transaction: committed when the block ends, rolled back on error."""
        try:
            with self._pool.connection() as conn:
                yield conn
        except psycopg.OperationalError as exc:  # includes the pool's PoolTimeout
            raise StoreUnavailable(
                f"PostgreSQL at {self._where} is unavailable: {_first_line(exc)} (try again shortly)"
            ) from exc

    def _one(self, sql: str, args: tuple | None = None) -> tuple | None:
        """The first row of one query, in a transaction of its own."""
        with self._tx() as conn:
            return conn.execute(sql, args).fetchone()

    def _all(self, sql: str, args: tuple | None = None) -> list[tuple]:
        """Every row of one query, in a transaction of its own."""
        with self._tx() as conn:
            return conn.execute(sql, args).fetchall()

    # --- identity -----------------------------------------------------------------------
    def embedder_identity(self) -> str | None:
        if self._identity is None:
            row = self._one(f"SELECT value FROM {SCHEMA}.meta WHERE key = 'embedder'")
            self._identity = row[0] if row else None
        return self._identity

    def bind_embedder(self, identity: str) -> None:
        with self._tx() as conn:
            conn.execute(
                f"INSERT INTO {SCHEMA}.meta (key, value) VALUES ('embedder', %s) ON CONFLICT (key) DO NOTHING",
                (identity,),
            )
            current = conn.execute(f"SELECT value FROM {SCHEMA}.meta WHERE key = 'embedder'").fetchone()[0]
        self._identity = current
        if current != identity:
            raise EmbedderMismatch(
                f"this index was built with embedder {current!r} but {identity!r} was asked for; "
                "open it with the same embedder, or use another database"
            )

    def dimensions(self) -> int | None:
        """The vector column's dimension, once a document with vectors has been added."""
        if self._dims is None:
            row = self._one(f"SELECT value FROM {SCHEMA}.meta WHERE key = 'dimensions'")
            if row:
                self._dims = int(row[0])
        return self._dims

    # --- writing ------------------------------------------------------------------------
    def _write_document(self, document: Document, pages: list[StoredPage], chunks: list[Chunk],
                        vectors: np.ndarray | None, bodies: list[str]) -> None:
        with self._tx() as conn:
            # Two writers of the same document queue up instead of colliding on its keys.
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (document.id,))
            if vectors is not None and len(vectors):
                ensure_dimensions(conn, int(vectors.shape[1]))
            self._delete(conn, document.id)
            conn.execute(
                f"INSERT INTO {SCHEMA}.documents (id, file_name, path, sha256, pages, chunks, meta, ocr_pages,"
                " no_text_pages, embedded) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    document.id, clean(document.file_name), clean(document.path), document.sha256, document.pages,
                    len(chunks), jsonb(document.meta.model_dump(mode="json")), document.ocr_pages,
                    document.no_text_pages, vectors is not None,
                ),
            )
            with conn.cursor() as cur:
                with cur.copy(
                    f"COPY {SCHEMA}.pages (document_id, number, width, height, lines, info, tables, ocr, no_text)"
                    " FROM STDIN"
                ) as copy:
                    for p in pages:
                        copy.write_row((
                            document.id, p.number, p.width, p.height,
                            jsonb(line_rows(p.lines)),
                            jsonb(p.info.model_dump(mode="json")) if p.info else None,
                            jsonb(tables_as_json(p.tables)) if p.tables else None, p.ocr, p.no_text,
                        ))
                with cur.copy(
                    f"COPY {SCHEMA}.chunks (id, document_id, document, page, ordinal, kind, text, bbox, section,"
                    " statement, company, fiscal_year, doc_type, body, length, embedding) FROM STDIN"
                ) as copy:
                    for i, c in enumerate(chunks):
                        copy.write_row((
                            c.id, c.document_id, clean(c.document), c.page, c.ordinal, c.kind, clean(c.text),
                            list(c.bbox) if c.bbox else None, clean(c.section),
                            c.statement.value if c.statement else None, clean(c.company), c.fiscal_year,
                            c.doc_type.value if c.doc_type else None, bodies[i], len(bodies[i].split()),
                            np.asarray(vectors[i], dtype=np.float32) if vectors is not None else None,
                        ))
            self._count(conn, document.id, +1)

    def _count(self, conn: "psycopg.Connection", document_id: str, sign: int) -> None:
        """Add (sign=+1) or remove (-1) a document's chunks from the BM25 statistics."""
        if sign > 0:
            conn.execute(
                f"INSERT INTO {SCHEMA}.lexemes (lexeme, df)"
                f" SELECT lexeme, count(*) FROM {SCHEMA}.chunks, unnest(tsv) AS u(lexeme)"
                " WHERE document_id = %s GROUP BY lexeme ORDER BY lexeme"
                " ON CONFLICT (lexeme) DO UPDATE SET df = lexemes.df + excluded.df",
                (document_id,),
            )
        else:
            conn.execute(
                f"UPDATE {SCHEMA}.lexemes l SET df = l.df - d.n FROM ("
                f" SELECT lexeme, count(*) AS n FROM {SCHEMA}.chunks, unnest(tsv) AS u(lexeme)"
                " WHERE document_id = %s GROUP BY lexeme ORDER BY lexeme) d WHERE l.lexeme = d.lexeme",
                (document_id,),
            )
        conn.execute(
            f"UPDATE {SCHEMA}.meta m SET value = (m.value::bigint + %s * s.v)::text FROM ("
            f" SELECT 'chunk_count' AS k, count(*) AS v FROM {SCHEMA}.chunks WHERE document_id = %s"
            f" UNION ALL SELECT 'chunk_length_total', coalesce(sum(length), 0) FROM {SCHEMA}.chunks"
            " WHERE document_id = %s) s WHERE m.key = s.k",
            (sign, document_id, document_id),
        )
        # Bumped in the writer's transaction, so a reader sees the new number only with the new list.
        conn.execute(f"UPDATE {SCHEMA}.meta SET value = (value::bigint + 1)::text WHERE key = 'documents_version'")

    def _delete(self, conn: "psycopg.Connection", document_id: str) -> bool:
        self._count(conn, document_id, -1)
        return conn.execute(f"DELETE FROM {SCHEMA}.documents WHERE id = %s", (document_id,)).rowcount > 0

    def delete_document(self, document_id: str) -> bool:
        with self._tx() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (document_id,))
            return self._delete(conn, document_id)

    # --- reading ------------------------------------------------------------------------
    def documents(self) -> list[Document]:
        # Every question lists the documents (thousands at scale): keep the list until a writer,
        # in any process, bumps documents_version. The number is read first, so a list read
        # after it is never older than the number it is kept under.
        with self._tx() as conn:
            version = conn.execute(f"SELECT value FROM {SCHEMA}.meta WHERE key = 'documents_version'").fetchone()
            cached = self._documents
            if version is not None and cached is not None and cached[0] == version[0]:
                return list(cached[1])
            rows = conn.execute(
                f"SELECT {DOCUMENT_COLUMNS} FROM {SCHEMA}.documents ORDER BY file_name COLLATE \"C\", id"
            ).fetchall()
        documents = [document_of(r) for r in rows]
        if version is not None:
            self._documents = (version[0], documents)
        return list(documents)

    def document(self, document_id: str) -> Document | None:
        return self._document_where("id", document_id)

    def document_by_sha(self, sha256: str) -> Document | None:
        return self._document_where("sha256", sha256)

    def _document_where(self, column: str, value: str) -> Document | None:
        row = self._one(f"SELECT {DOCUMENT_COLUMNS} FROM {SCHEMA}.documents WHERE {column} = %s", (value,))
        return document_of(row) if row else None

    def chunks(self, chunk_ids: Iterable[str]) -> list[Chunk]:
        ids = list(chunk_ids)
        if not ids:
            return []
        rows = self._all(f"SELECT {CHUNK_COLUMNS} FROM {SCHEMA}.chunks WHERE id = ANY(%s)", (ids,))
        by_id = {r[0]: chunk_of(r) for r in rows}
        return [by_id[i] for i in ids if i in by_id]

    def page(self, document_id: str, number: int) -> StoredPage | None:
        row = self._one(f"SELECT {PAGE_COLUMNS} FROM {SCHEMA}.pages WHERE document_id = %s AND number = %s",
                        (document_id, number))
        return page_of(row) if row else None

    def pages(self, document_id: str) -> list[StoredPage]:
        rows = self._all(f"SELECT {PAGE_COLUMNS} FROM {SCHEMA}.pages WHERE document_id = %s ORDER BY number",
                         (document_id,))
        return [page_of(r) for r in rows]

    # --- service state: ingest jobs ------------------------------------------------------
    def put_job(self, job: Job) -> None:
        with self._tx() as conn:
            conn.execute(
                f"INSERT INTO {SCHEMA}.jobs (id, created_at, status, body) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, status = excluded.status,"
                " body = excluded.body",
                (job.id, job.created_at, job.status, jsonb(job.model_dump(mode="json"))),
            )

    def job(self, job_id: str) -> Job | None:
        row = self._one(f"SELECT body FROM {SCHEMA}.jobs WHERE id = %s", (job_id,))
        return Job.model_validate(row[0]) if row else None

    def jobs(self) -> list[Job]:
        rows = self._all(f"SELECT body FROM {SCHEMA}.jobs ORDER BY created_at COLLATE \"C\", seq")
        return [Job.model_validate(r[0]) for r in rows]

    def delete_job(self, job_id: str) -> bool:
        with self._tx() as conn:
            return conn.execute(f"DELETE FROM {SCHEMA}.jobs WHERE id = %s", (job_id,)).rowcount > 0

    # --- service state: the question log ------------------------------------------------
    def log_question(self, record: QuestionRecord) -> None:
        if not record.answer.id:
            raise ValueError("a logged answer needs an id")
        with self._tx() as conn:
            conn.execute(
                f"INSERT INTO {SCHEMA}.questions (answer_id, created_at, question, answer, filters, helpful, note)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (answer_id) DO UPDATE SET"
                " created_at = excluded.created_at, question = excluded.question, answer = excluded.answer,"
                " filters = excluded.filters, helpful = excluded.helpful, note = excluded.note",
                (
                    record.answer.id, record.created_at, clean(record.answer.question),
                    jsonb(record.answer.model_dump(mode="json")), jsonb(record.filters), record.helpful,
                    clean(record.note),
                ),
            )

    def question(self, answer_id: str) -> QuestionRecord | None:
        row = self._one(f"SELECT {QUESTION_COLUMNS} FROM {SCHEMA}.questions WHERE answer_id = %s", (answer_id,))
        return question_of(row) if row else None

    def questions(self, limit: int = 100) -> list[QuestionRecord]:
        rows = self._all(
            f"SELECT {QUESTION_COLUMNS} FROM {SCHEMA}.questions ORDER BY created_at COLLATE \"C\" DESC, seq DESC"
            " LIMIT %s", (max(0, int(limit)),),
        )
        return [question_of(r) for r in rows]

    def add_feedback(self, answer_id: str, helpful: bool, note: str | None = None) -> bool:
        with self._tx() as conn:
            return conn.execute(
                f"UPDATE {SCHEMA}.questions SET helpful = %s, note = %s WHERE answer_id = %s",
                (bool(helpful), clean(note), answer_id),
            ).rowcount > 0

    def delete_questions(self, answer_ids: list[str] | None = None) -> int:
        with self._tx() as conn:
            if answer_ids is None:
                return conn.execute(f"DELETE FROM {SCHEMA}.questions").rowcount
            return conn.execute(f"DELETE FROM {SCHEMA}.questions WHERE answer_id = ANY(%s)",
                                (list(answer_ids),)).rowcount

    def close(self) -> None:
        self._pool.close()


# --- helpers --------------------------------------------------------------------------------------


def _describe(url: str) -> str:
    """host:port/dbname, never the password."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "(unparseable URL)"
    host = info.get("host") or "localhost"
    return f"{host}:{info.get('port') or 5432}/{info.get('dbname') or info.get('user') or ''}"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
