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
"""

from __future__ import annotations

import json
import logging
from contextlib import contextmanager
from typing import Any, Iterable, Iterator

import numpy as np

from docqa.store.base import EmbedderMismatch, StoredPage, StoreUnavailable, filter_columns, indexed_body
from docqa.text import index_text
from docqa.types import (
    Answer,
    Chunk,
    DocType,
    Document,
    DocumentMeta,
    Job,
    PageInfo,
    QuestionRecord,
    SearchFilters,
    StatementKind,
)

try:  # the 'postgres' extra
    import psycopg
    from psycopg.types.json import Jsonb
    from psycopg_pool import ConnectionPool
    from pgvector.psycopg import register_vector
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the PostgreSQL store needs the 'postgres' extra: pip install -e '.[postgres]'"
    ) from exc

log = logging.getLogger(__name__)

SCHEMA = "docqa"
_MIGRATION_LOCK = 0x646F6371  # pg_advisory_xact_lock key while migrating ('docq')
_DIMENSION_LOCK = 0x646F6372  # ... while giving the vector column its dimension
BM25_K1 = 1.2
BM25_B = 0.75


# --- the schema, as ordered migrations ----------------------------------------------------------
# Each step runs once, in order, inside one transaction, under an advisory lock (two processes
# opening a fresh database do not race). Never edit a released step: append a new one.

_TSV = """
CREATE TEXT SEARCH DICTIONARY docqa.english_stem (TEMPLATE = snowball, Language = english);

-- index_text's output is already lower-case tokens separated by single spaces; PostgreSQL's parser
-- would split 'pp&e' and drop stop words, so split on spaces and stem each token ourselves.
CREATE FUNCTION docqa.tsvector_of(body text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(quote_literal(coalesce((ts_lexize('docqa.english_stem', t))[1], t))
                             || ':' || least(n, 16383), ' '), '')::tsvector
  FROM unnest(string_to_array(body, ' ')) WITH ORDINALITY AS u(t, n)
  WHERE t <> ''
$$;

-- parts: index_text strings; each becomes a phrase (tokens in a row), the phrases are OR-ed.
CREATE FUNCTION docqa.tsquery_of(parts text[]) RETURNS tsquery
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(string_agg('(' || phrase || ')', ' | '), '')::tsquery FROM (
    SELECT string_agg(quote_literal(coalesce((ts_lexize('docqa.english_stem', t))[1], t)), ' <-> ' ORDER BY n)
           AS phrase
    FROM unnest(parts) WITH ORDINALITY AS p(part, i),
         unnest(string_to_array(part, ' ')) WITH ORDINALITY AS u(t, n)
    WHERE t <> ''
    GROUP BY i
  ) s
$$;

-- the lexemes of one index_text string, as the tsvector holds them (for BM25 term weights)
CREATE FUNCTION docqa.lexemes_of(part text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT coalesce((ts_lexize('docqa.english_stem', t))[1], t)), '{}')
  FROM unnest(string_to_array(part, ' ')) AS u(t)
  WHERE t <> ''
$$;
"""

MIGRATIONS: list[tuple[int, str, str]] = [
    (1, "documents, pages, chunks, lexical index, vectors", _TSV + """
CREATE TABLE docqa.meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE docqa.documents (
    id text PRIMARY KEY,
    file_name text NOT NULL,
    path text NOT NULL,
    sha256 text NOT NULL UNIQUE,
    pages integer NOT NULL,
    chunks integer NOT NULL,
    meta jsonb NOT NULL,
    ocr_pages integer NOT NULL DEFAULT 0,
    no_text_pages integer NOT NULL DEFAULT 0,
    embedded boolean NOT NULL DEFAULT false,
    added_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE docqa.pages (
    document_id text NOT NULL REFERENCES docqa.documents(id) ON DELETE CASCADE,
    number integer NOT NULL,
    width double precision NOT NULL,
    height double precision NOT NULL,
    lines jsonb NOT NULL,
    info jsonb,
    tables jsonb,
    ocr boolean NOT NULL DEFAULT false,
    no_text boolean NOT NULL DEFAULT false,
    PRIMARY KEY (document_id, number)
);
CREATE TABLE docqa.chunks (
    id text PRIMARY KEY,
    document_id text NOT NULL REFERENCES docqa.documents(id) ON DELETE CASCADE,
    document text NOT NULL,
    page integer NOT NULL,
    ordinal integer NOT NULL,
    kind text NOT NULL,
    text text NOT NULL,
    bbox double precision[],
    section text,
    statement text,
    company text,
    fiscal_year integer,
    doc_type text,
    body text NOT NULL,
    length integer NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (docqa.tsvector_of(body)) STORED,
    embedding vector
);
CREATE INDEX chunks_document ON docqa.chunks (document_id, page);
CREATE INDEX chunks_company ON docqa.chunks (company);
CREATE INDEX chunks_year ON docqa.chunks (fiscal_year);
CREATE INDEX chunks_doc_type ON docqa.chunks (doc_type);
CREATE INDEX chunks_tsv ON docqa.chunks USING gin (tsv);
-- BM25 statistics: in how many chunks each lexeme occurs; totals in docqa.meta
CREATE TABLE docqa.lexemes (lexeme text PRIMARY KEY, df bigint NOT NULL);
INSERT INTO docqa.meta (key, value) VALUES ('chunk_count', '0'), ('chunk_length_total', '0');
"""),
    (2, "service state: ingest jobs and the question log", """
CREATE TABLE docqa.jobs (
    seq bigserial NOT NULL,
    id text PRIMARY KEY,
    created_at text NOT NULL,
    status text NOT NULL,
    body jsonb NOT NULL
);
CREATE INDEX jobs_order ON docqa.jobs (created_at COLLATE "C", seq);
CREATE TABLE docqa.questions (
    seq bigserial NOT NULL,
    answer_id text PRIMARY KEY,
    created_at text NOT NULL,
    question text NOT NULL,
    answer jsonb NOT NULL,
    filters jsonb NOT NULL,
    helpful boolean,
    note text
);
CREATE INDEX questions_order ON docqa.questions (created_at COLLATE "C" DESC, seq DESC);
"""),
    (3, "a version number for the document list, so readers can keep it between writes", """
INSERT INTO docqa.meta (key, value) VALUES ('documents_version', '0') ON CONFLICT (key) DO NOTHING;
"""),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]


def migrate(conn: "psycopg.Connection", target: int | None = None) -> int:
    """Bring the schema to ``target`` (default: the latest). Returns the version it is at."""
    target = SCHEMA_VERSION if target is None else target
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        has_vector = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone()
        if not has_vector:
            try:
                with conn.transaction():
                    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            except psycopg.errors.InsufficientPrivilege as exc:
                raise RuntimeError(
                    "the pgvector extension is not enabled in this database and this user may not enable it; "
                    "ask an administrator to run: CREATE EXTENSION vector;"
                ) from exc
            except psycopg.errors.FeatureNotSupported as exc:
                raise RuntimeError(f"pgvector is not installed on this PostgreSQL server: {exc}") from exc
            except psycopg.errors.UndefinedFile as exc:
                raise RuntimeError(
                    "pgvector is not installed on this PostgreSQL server (see docs/postgres.md)"
                ) from exc
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}")
        conn.execute(
            f"CREATE TABLE IF NOT EXISTS {SCHEMA}.schema_version (version integer PRIMARY KEY,"
            " description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        current = conn.execute(f"SELECT coalesce(max(version), 0) FROM {SCHEMA}.schema_version").fetchone()[0]
        if current > SCHEMA_VERSION:
            raise RuntimeError(
                f"the database schema is at version {current} but this docqa knows versions up to "
                f"{SCHEMA_VERSION}; upgrade docqa"
            )
        for version, description, ddl in MIGRATIONS:
            if current < version <= target:
                log.info("PostgreSQL store: migrating schema to version %d (%s)", version, description)
                conn.execute(ddl)
                conn.execute(
                    f"INSERT INTO {SCHEMA}.schema_version (version, description) VALUES (%s, %s)",
                    (version, description),
                )
                current = version
    return current


# --- the store ------------------------------------------------------------------------------------


class PostgresStore:
    """Thread-safe: every call takes a connection from the pool for one transaction."""

    lexical_budget = 4000  # candidate chunks a lexical search scores, roughly (see lexical_search)

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

    # --- identity -----------------------------------------------------------------------
    def embedder_identity(self) -> str | None:
        if self._identity is None:
            with self._tx() as conn:
                row = conn.execute(f"SELECT value FROM {SCHEMA}.meta WHERE key = 'embedder'").fetchone()
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
            with self._tx() as conn:
                row = conn.execute(f"SELECT value FROM {SCHEMA}.meta WHERE key = 'dimensions'").fetchone()
            if row:
                self._dims = int(row[0])
        return self._dims

    def _ensure_dimensions(self, conn: "psycopg.Connection", dims: int) -> None:
        row = conn.execute(f"SELECT value FROM {SCHEMA}.meta WHERE key = 'dimensions'").fetchone()
        if row is None:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_DIMENSION_LOCK,))
            row = conn.execute(f"SELECT value FROM {SCHEMA}.meta WHERE key = 'dimensions'").fetchone()
        if row is None:
            conn.execute(f"ALTER TABLE {SCHEMA}.chunks ALTER COLUMN embedding TYPE vector({int(dims)})")
            conn.execute(
                f"CREATE INDEX IF NOT EXISTS chunks_embedding ON {SCHEMA}.chunks"
                " USING hnsw (embedding vector_cosine_ops)"
            )
            conn.execute(f"INSERT INTO {SCHEMA}.meta (key, value) VALUES ('dimensions', %s)", (str(dims),))
        elif int(row[0]) != dims:
            raise ValueError(f"this index holds {row[0]}-dimensional vectors, not {dims}")

    # --- writing ------------------------------------------------------------------------
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
        with self._tx() as conn:
            # Two writers of the same document queue up instead of colliding on its keys.
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (document.id,))
            if vectors is not None and len(vectors):
                self._ensure_dimensions(conn, int(vectors.shape[1]))
            self._delete(conn, document.id)
            conn.execute(
                f"INSERT INTO {SCHEMA}.documents (id, file_name, path, sha256, pages, chunks, meta, ocr_pages,"
                " no_text_pages, embedded) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    document.id, _clean(document.file_name), _clean(document.path), document.sha256, document.pages,
                    len(chunks), _jsonb(document.meta.model_dump(mode="json")), document.ocr_pages,
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
                            _jsonb([[l.text, list(l.bbox), int(l.is_table)] for l in p.lines]),
                            _jsonb(p.info.model_dump(mode="json")) if p.info else None,
                            _jsonb(list(p.tables)) if p.tables else None, p.ocr, p.no_text,
                        ))
                with cur.copy(
                    f"COPY {SCHEMA}.chunks (id, document_id, document, page, ordinal, kind, text, bbox, section,"
                    " statement, company, fiscal_year, doc_type, body, length, embedding) FROM STDIN"
                ) as copy:
                    for i, c in enumerate(chunks):
                        copy.write_row((
                            c.id, c.document_id, _clean(c.document), c.page, c.ordinal, c.kind, _clean(c.text),
                            list(c.bbox) if c.bbox else None, _clean(c.section),
                            c.statement.value if c.statement else None, _clean(c.company), c.fiscal_year,
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
    _DOC_COLS = "id, file_name, path, sha256, pages, chunks, meta, ocr_pages, no_text_pages, embedded"

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
                f"SELECT {self._DOC_COLS} FROM {SCHEMA}.documents ORDER BY file_name COLLATE \"C\", id"
            ).fetchall()
        documents = [_document(r) for r in rows]
        if version is not None:
            self._documents = (version[0], documents)
        return list(documents)

    def document(self, document_id: str) -> Document | None:
        with self._tx() as conn:
            row = conn.execute(
                f"SELECT {self._DOC_COLS} FROM {SCHEMA}.documents WHERE id = %s", (document_id,)
            ).fetchone()
        return _document(row) if row else None

    def document_by_sha(self, sha256: str) -> Document | None:
        with self._tx() as conn:
            row = conn.execute(
                f"SELECT {self._DOC_COLS} FROM {SCHEMA}.documents WHERE sha256 = %s", (sha256,)
            ).fetchone()
        return _document(row) if row else None

    _CHUNK_COLS = ("id, document_id, document, page, ordinal, text, kind, bbox, section, statement, company,"
                   " fiscal_year, doc_type")

    def chunks(self, chunk_ids: Iterable[str]) -> list[Chunk]:
        ids = list(chunk_ids)
        if not ids:
            return []
        with self._tx() as conn:
            rows = conn.execute(
                f"SELECT {self._CHUNK_COLS} FROM {SCHEMA}.chunks WHERE id = ANY(%s)", (ids,)
            ).fetchall()
        by_id = {r[0]: _chunk(r) for r in rows}
        return [by_id[i] for i in ids if i in by_id]

    _PAGE_COLS = "document_id, number, width, height, lines::text, info, tables::text, ocr, no_text"

    def page(self, document_id: str, number: int) -> StoredPage | None:
        with self._tx() as conn:
            row = conn.execute(
                f"SELECT {self._PAGE_COLS} FROM {SCHEMA}.pages WHERE document_id = %s AND number = %s",
                (document_id, number),
            ).fetchone()
        return _page(row) if row else None

    def pages(self, document_id: str) -> list[StoredPage]:
        with self._tx() as conn:
            rows = conn.execute(
                f"SELECT {self._PAGE_COLS} FROM {SCHEMA}.pages WHERE document_id = %s ORDER BY number",
                (document_id,),
            ).fetchall()
        return [_page(r) for r in rows]

    # --- searching ----------------------------------------------------------------------
    def lexical_search(
        self, terms: list[str], phrases: list[str], filters: SearchFilters, k: int
    ) -> list[tuple[str, float]]:
        parts: list[str] = []
        for text in [*terms, *phrases]:
            normal = index_text(text or "")
            if normal and normal not in parts:
                parts.append(normal)
        if not parts or k <= 0:
            return []
        where, args = _filter_sql(filters)
        # BM25 (k1=1.2, b=0.75, as FTS5): each part (a token or a phrase) is one term. Its frequency
        # in a chunk is ts_rank_cd with unit weights (the number of times the phrase occurs), its
        # document frequency its rarest lexeme's, from docqa.lexemes.
        # Candidates: chunks that match the rarest parts, adding parts rarest first while the chunks
        # they would bring (document frequency x the share of chunks the filters keep) sum to less
        # than lexical_budget. A chunk that holds only very common words ("other", "total") would
        # rank last anyway; scoring every such chunk is what makes full-text ranking slow.
        budget = self.lexical_budget
        sql = f"""
        WITH w AS MATERIALIZED (
            SELECT p.i, docqa.tsquery_of(ARRAY[p.part]) AS tq, coalesce(d.df, 0) AS df,
                   ln(1 + (n.v - coalesce(d.df, 0) + 0.5) / (coalesce(d.df, 0) + 0.5)) AS idf
            FROM unnest(%s::text[]) WITH ORDINALITY AS p(part, i)
            CROSS JOIN LATERAL (SELECT docqa.lexemes_of(p.part) AS lx) lx
            CROSS JOIN (SELECT greatest(value::float8, 1) AS v FROM {SCHEMA}.meta WHERE key = 'chunk_count') n
            LEFT JOIN LATERAL (
                SELECT min(l.df) AS df FROM {SCHEMA}.lexemes l WHERE l.lexeme = ANY(lx.lx)
            ) d ON true
            WHERE cardinality(lx.lx) > 0
        ), picked AS (
            SELECT string_agg('(' || tq::text || ')', ' | ')::tsquery AS q FROM (
                SELECT tq, coalesce(sum(df) OVER (ORDER BY df, i ROWS BETWEEN UNBOUNDED PRECEDING
                                                  AND 1 PRECEDING), 0) AS before
                FROM w
            ) o WHERE before * {{share}} < %s
        ), stats AS (
            SELECT greatest((SELECT value::float8 FROM {SCHEMA}.meta WHERE key = 'chunk_length_total')
                   / greatest((SELECT value::float8 FROM {SCHEMA}.meta WHERE key = 'chunk_count'), 1), 1) AS avg_len
        ), candidates AS MATERIALIZED (
            -- setweight copies the tsvector once, out of TOAST, for the per-part calls below
            SELECT c.id, c.length, setweight(c.tsv, 'D') AS tsv FROM {SCHEMA}.chunks c, picked
            WHERE c.tsv @@ picked.q {where}
        ), tf AS MATERIALIZED (
            SELECT c.id, c.length, w.idf, ts_rank_cd('{{1,1,1,1}}', c.tsv, w.tq, 0)::float8 AS tf
            FROM candidates c JOIN w ON c.tsv @@ w.tq
        )
        SELECT t.id, sum(t.idf * t.tf * ({BM25_K1} + 1)
                         / (t.tf + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * t.length / stats.avg_len))) AS score
        FROM tf t CROSS JOIN stats
        GROUP BY t.id
        ORDER BY score DESC, t.id
        LIMIT %s
        """
        if where:  # the share of all chunks that the filters keep (btree index scans: cheap)
            share = (f"(SELECT count(*) FROM {SCHEMA}.chunks c WHERE true {where})::float8"
                     f" / greatest((SELECT value::float8 FROM {SCHEMA}.meta WHERE key = 'chunk_count'), 1)")
            sql = sql.replace("{share}", share, 1)
            params = (parts, *args, budget, *args, k)
        else:
            sql = sql.replace("{share}", "1", 1)
            params = (parts, budget, k)
        with self._tx() as conn:
            rows = conn.execute(sql, params).fetchall()
        return [(r[0], float(r[1])) for r in rows]

    def vector_search(self, vector: np.ndarray, filters: SearchFilters, k: int) -> list[tuple[str, float]]:
        dims = self.dimensions()
        if dims is None or k <= 0:
            return []
        vector = np.asarray(vector, dtype=np.float32).reshape(-1)
        if len(vector) != dims:
            raise ValueError(f"this index holds {dims}-dimensional vectors; the query vector has {len(vector)}")
        where, args = _filter_sql(filters)
        with self._tx() as conn:
            if filters.document_ids or filters.companies:
                # A few documents' chunks: exact search over them beats walking the graph past
                # everything else (and never misses a neighbour).
                conn.execute("SET LOCAL enable_indexscan = off")
            else:
                conn.execute(f"SET LOCAL hnsw.ef_search = {max(40, min(1000, int(k)))}")
                if self._pgvector >= (0, 8):
                    # with filters, keep walking the graph until k rows pass them
                    conn.execute("SET LOCAL hnsw.iterative_scan = strict_order")
            rows = conn.execute(
                f"SELECT c.id, 1 - (c.embedding <=> %s) AS score FROM {SCHEMA}.chunks c"
                f" WHERE c.embedding IS NOT NULL {where} ORDER BY c.embedding <=> %s LIMIT %s",
                (vector, *args, vector, k),
            ).fetchall()
        return [(r[0], float(r[1])) for r in rows]

    # --- service state: ingest jobs ------------------------------------------------------
    def put_job(self, job: Job) -> None:
        with self._tx() as conn:
            conn.execute(
                f"INSERT INTO {SCHEMA}.jobs (id, created_at, status, body) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, status = excluded.status,"
                " body = excluded.body",
                (job.id, job.created_at, job.status, _jsonb(job.model_dump(mode="json"))),
            )

    def job(self, job_id: str) -> Job | None:
        with self._tx() as conn:
            row = conn.execute(f"SELECT body FROM {SCHEMA}.jobs WHERE id = %s", (job_id,)).fetchone()
        return Job.model_validate(row[0]) if row else None

    def jobs(self) -> list[Job]:
        with self._tx() as conn:
            rows = conn.execute(f"SELECT body FROM {SCHEMA}.jobs ORDER BY created_at COLLATE \"C\", seq").fetchall()
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
                    record.answer.id, record.created_at, _clean(record.answer.question),
                    _jsonb(record.answer.model_dump(mode="json")), _jsonb(record.filters), record.helpful,
                    _clean(record.note),
                ),
            )

    _Q_COLS = "answer, filters, created_at, helpful, note"

    def question(self, answer_id: str) -> QuestionRecord | None:
        with self._tx() as conn:
            row = conn.execute(
                f"SELECT {self._Q_COLS} FROM {SCHEMA}.questions WHERE answer_id = %s", (answer_id,)
            ).fetchone()
        return _question(row) if row else None

    def questions(self, limit: int = 100) -> list[QuestionRecord]:
        with self._tx() as conn:
            rows = conn.execute(
                f"SELECT {self._Q_COLS} FROM {SCHEMA}.questions"
                " ORDER BY created_at COLLATE \"C\" DESC, seq DESC LIMIT %s",
                (max(0, int(limit)),),
            ).fetchall()
        return [_question(r) for r in rows]

    def add_feedback(self, answer_id: str, helpful: bool, note: str | None = None) -> bool:
        with self._tx() as conn:
            return conn.execute(
                f"UPDATE {SCHEMA}.questions SET helpful = %s, note = %s WHERE answer_id = %s",
                (bool(helpful), _clean(note), answer_id),
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


def _clean(text: str | None) -> str | None:
    # PostgreSQL text cannot hold NUL; a PDF's text layer sometimes does.
    return text.replace("\x00", "\ufffd") if text else text


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False).replace("\\u0000", "\\ufffd")


def _jsonb(obj: Any) -> Jsonb:
    return Jsonb(obj, dumps=_dumps)




def _filter_sql(filters: SearchFilters) -> tuple[str, list]:
    clauses, args = [], []
    for column, values in filter_columns(filters):
        clauses.append(f"{column} = ANY(%s)")
        args.append(values)
    return ("AND " + " AND ".join(clauses)) if clauses else "", args


def _document(row) -> Document:
    return Document(
        id=row[0], file_name=row[1], path=row[2], sha256=row[3], pages=row[4], chunks=row[5],
        meta=DocumentMeta.model_validate(row[6]), ocr_pages=row[7], no_text_pages=row[8], embedded=row[9],
    )


def _chunk(row) -> Chunk:
    return Chunk(
        id=row[0], document_id=row[1], document=row[2], page=row[3], ordinal=row[4], text=row[5], kind=row[6],
        bbox=tuple(row[7]) if row[7] else None, section=row[8],
        statement=StatementKind(row[9]) if row[9] else None, company=row[10], fiscal_year=row[11],
        doc_type=DocType(row[12]) if row[12] else None,
    )


def _page(row) -> StoredPage:
    return StoredPage.from_store(
        document_id=row[0], number=row[1], width=row[2], height=row[3], lines_json=row[4],
        info=PageInfo.model_validate(row[5]) if row[5] else None,
        tables_json=row[6], ocr=row[7], no_text=row[8],
    )


def _question(row) -> QuestionRecord:
    return QuestionRecord(
        answer=Answer.model_validate(row[0]), filters=row[1], created_at=row[2], helpful=row[3], note=row[4],
    )
