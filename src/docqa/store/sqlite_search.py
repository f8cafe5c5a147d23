"""Searching the SQLite store: BM25 in FTS5 (or in the tantivy index, while it is in line) and exact
vector search in NumPy over one matrix of every vector, kept until a write."""

from __future__ import annotations

import sqlite3
import threading
from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np

from docqa.store.base import filter_columns, filter_sql
from docqa.store.sqlite_heads import HEAD_FIELDS, ChunkHeads
from docqa.types import SearchFilters, StatementKind

if TYPE_CHECKING:
    from docqa.store.tantivy_lexical import TantivyLexical

MAX_SPANS = 200  # rowid spans one restricted lexical search ranks separately


class SQLiteSearch:
    """A part of SQLiteStore (its connection, lock, version and caches are the store's)."""

    _db: sqlite3.Connection
    _lock: threading.RLock
    _version: Callable[[], tuple[int, int]]
    _heads: ChunkHeads
    _matrix: tuple | None
    _spans: tuple[tuple[int, int], dict[str, tuple[int | None, int | None]]] | None
    _lexical: TantivyLexical | None
    _lexical_current: Callable[[], bool]  # TantivyMirror's

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


def _fts_quote(text: str) -> str:
    return '"' + text.replace('"', " ") + '"'


def _filter_sql(filters: SearchFilters) -> tuple[str, list]:
    return filter_sql(filters, lambda column, values: (f"{column} IN ({','.join('?' * len(values))})", values))


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
        mask &= meta["doc_type"].isin([k.value for d in filters.doc_types for k in d.family])
    return mask
