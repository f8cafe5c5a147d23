"""Searching the PostgreSQL store: BM25 over the generated tsvector, scoring only the chunks that hold
the query's rarer words, and pgvector's cosine search (exact for a few documents, HNSW otherwise)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Callable

import numpy as np

from docqa.store.base import filter_sql
from docqa.store.postgres_schema import SCHEMA
from docqa.text import index_text
from docqa.types import SearchFilters

BM25_K1 = 1.2
BM25_B = 0.75


class PostgresSearch:
    """A part of PostgresStore (its transactions, vector dimension and pgvector version are the store's)."""

    lexical_budget = 4000  # candidate chunks a lexical search scores, roughly (see lexical_search)
    _tx: Callable[[], AbstractContextManager]
    _pgvector: tuple[int, ...]
    dimensions: Callable[[], int | None]

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


def _filter_sql(filters: SearchFilters) -> tuple[str, list]:
    return filter_sql(filters, lambda column, values: (f"{column} = ANY(%s)", [values]))
