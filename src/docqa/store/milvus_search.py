"""Searching the Milvus store: BM25 over the sparse field, HNSW over the vectors, and both fused inside
Milvus; none of them returns a chunk of a document that is being written."""

from __future__ import annotations

import numpy as np

from docqa.store.base import filter_columns
from docqa.store.milvus_collections import CONSISTENCY, HNSW_EF, MilvusCollections
from docqa.store.milvus_extra import AnnSearchRequest, RRFRanker
from docqa.store.milvus_lexical import lexical_query
from docqa.store.milvus_rows import in_
from docqa.types import SearchFilters

MAX_TOPK = 16_384  # a server's cap on limit (and offset + limit)


class MilvusSearch(MilvusCollections):
    """A part of MilvusStore, searching its collections."""

    def _hidden(self) -> list[str]:
        """Documents being written right now (or whose writer died): their chunks are not searched."""
        return [r["id"] for r in self._query_all("documents", 'state != "ready"', ["id"])]

    def _filter(self, filters: SearchFilters, dense: bool = False) -> str:
        clauses = []
        for column, values in filter_columns(filters):
            clauses.append(in_(column.removeprefix("c."), values))
        hidden = self._hidden()
        if hidden:
            clauses.append("not (" + in_("document_id", hidden) + ")")
        if dense:
            clauses.append("has_vector == true")
        return " and ".join(clauses)

    def lexical_search(
        self, terms: list[str], phrases: list[str], filters: SearchFilters, k: int
    ) -> list[tuple[str, float]]:
        query = lexical_query(terms, phrases)
        if not query or k <= 0 or self._chunk_layout() is False:
            return []
        hits = self._db.search(
            self._name("chunks"), data=[query], anns_field="sparse", limit=min(k, MAX_TOPK),
            filter=self._filter(filters), output_fields=["id"], consistency_level=CONSISTENCY,
            search_params={"metric_type": "BM25"},
        )
        # BM25 scores are >= 0; Milvus Lite reports them negated (as a distance): abs() serves both.
        return [(h["id"], abs(float(h["distance"]))) for h in hits[0]]

    def vector_search(self, vector: np.ndarray, filters: SearchFilters, k: int) -> list[tuple[str, float]]:
        if k <= 0 or not self._chunk_layout():
            return []
        hits = self._db.search(
            self._name("chunks"), data=[np.asarray(vector, np.float32).tolist()], anns_field="vector",
            limit=min(k, MAX_TOPK), filter=self._filter(filters, dense=True), output_fields=["id"],
            consistency_level=CONSISTENCY,
            search_params={"metric_type": "COSINE", "params": {"ef": max(HNSW_EF, min(k, MAX_TOPK))}},
        )
        return [(h["id"], float(h["distance"])) for h in hits[0]]

    def hybrid_search(
        self, terms: list[str], phrases: list[str], vector: np.ndarray | None, filters: SearchFilters, k: int,
        rrf_k: int = 60,
    ) -> list[tuple[str, float]]:
        """BM25 and HNSW fused by reciprocal rank inside Milvus (one round trip): ``hybrid_search`` with
        ``RRFRanker``. Not part of the Store contract: the engine's own fusion (search.hybrid) weighs
        the two rankings; this is for callers that want the engine-side fusion (benchmarks)."""
        query = lexical_query(terms, phrases)
        if k <= 0 or self._chunk_layout() is False:
            return []
        if vector is None or not self._chunk_layout():
            return self.lexical_search(terms, phrases, filters, k)
        if not query:
            return self.vector_search(vector, filters, k)
        limit = min(k, MAX_TOPK)
        requests = [
            AnnSearchRequest(data=[query], anns_field="sparse", param={"metric_type": "BM25"}, limit=limit,
                             expr=self._filter(filters) or None),
            AnnSearchRequest(data=[np.asarray(vector, np.float32).tolist()], anns_field="vector",
                             param={"metric_type": "COSINE", "params": {"ef": max(HNSW_EF, limit)}}, limit=limit,
                             expr=self._filter(filters, dense=True)),
        ]
        hits = self._db.hybrid_search(self._name("chunks"), requests, ranker=RRFRanker(rrf_k), limit=limit,
                                      output_fields=["id"], consistency_level=CONSISTENCY)
        return [(h["id"], float(h["distance"])) for h in hits[0]]
