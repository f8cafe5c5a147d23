"""The PostgreSQL store's schema ``docqa``, as ordered migrations, and the vector column's dimension,
given by the first document that has vectors."""

from __future__ import annotations

import logging

from docqa.store.postgres_extra import psycopg

log = logging.getLogger(__name__)

SCHEMA = "docqa"
_MIGRATION_LOCK = 0x646F6371  # pg_advisory_xact_lock key while migrating ('docq')
_DIMENSION_LOCK = 0x646F6372  # ... while giving the vector column its dimension


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


def ensure_dimensions(conn: "psycopg.Connection", dims: int) -> None:
    """Give the vector column its dimension the first time a document brings vectors (in that
    writer's transaction), or refuse vectors of another dimension."""
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
