"""The Milvus store's collections: their schemas and indexes (the chunks collection gets its vector
field from the first document that has vectors), and the reads and inserts every part of it uses."""

from __future__ import annotations

import threading

from docqa.store.milvus_client import Guarded
from docqa.store.milvus_extra import DataType, Function, FunctionType, MilvusClient, MilvusException
from docqa.store.milvus_rows import MAX_VARCHAR

BM25_K1, BM25_B = 1.2, 0.75
# HNSW: M=16, efConstruction=200 build a graph good to ~0.98 recall at ef=128 on 384-d MiniLM
# vectors; docs/milvus.md has the settings for 10M chunks.
HNSW_M, HNSW_EF_CONSTRUCTION, HNSW_EF = 16, 200, 128
BATCH_ROWS = 512  # rows per insert call (gRPC messages stay well below 64 MiB)
CONSISTENCY = "Strong"


class MilvusCollections:
    """A part of MilvusStore (its client, prefix and lock are the store's)."""

    prefix: str
    _db: Guarded
    _where: str
    _lock: threading.RLock
    _dense: int | None | bool
    _identity: str | None

    def _name(self, what: str) -> str:
        return f"{self.prefix}_{what}"

    def _kv_schema(self, key_length: int = 512, **scalars: DataType):
        schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("id", DataType.VARCHAR, is_primary=True, max_length=key_length)
        for name, dtype in scalars.items():
            if dtype == DataType.VARCHAR:
                schema.add_field(name, DataType.VARCHAR, max_length=MAX_VARCHAR)
            else:
                schema.add_field(name, dtype)
        schema.add_field("_v", DataType.FLOAT_VECTOR, dim=2)
        return schema

    def _create(self, what: str, schema, index=None) -> None:
        name = self._name(what)
        if self._db.has_collection(name):
            self._db.load_collection(name)
            return
        params = index or self._db.prepare_index_params()
        if index is None:
            params.add_index(field_name="_v", index_type="FLAT", metric_type="L2")
        try:
            self._db.create_collection(name, schema=schema, consistency_level=CONSISTENCY)
        except MilvusException:
            if not self._db.has_collection(name):  # another client created it first: fine
                raise
        # sync=False: an index on an empty collection is ready at once; pymilvus would poll it
        # every 0.5 s per index otherwise (seconds per collection).
        try:
            self._db.create_index(name, params, sync=False)
        except MilvusException:
            if not self._db.list_indexes(name):
                raise
        self._db.load_collection(name)

    def _ensure_companions(self) -> None:
        V, I = DataType.VARCHAR, DataType.INT64
        self._create("meta", self._kv_schema(value=V))
        self._create("documents", self._kv_schema(sha256=V, state=V, file_name=V, data=V))
        self._create("pages", self._kv_schema(document_id=V, number=I, part=I, data=V))
        self._create("jobs", self._kv_schema(created_at=V, seq=I, data=V))
        self._create("questions", self._kv_schema(created_at=V, seq=I, data=V))
        if self._db.has_collection(self._name("chunks")):
            self._db.load_collection(self._name("chunks"))

    def _chunk_layout(self) -> int | None | bool:
        """False: no chunks collection yet; None: lexical-only; an int: the vectors' dimensions."""
        if self._dense is False and self._db.has_collection(self._name("chunks")):
            fields = self._db.describe_collection(self._name("chunks"))["fields"]
            dims = [f["params"].get("dim") for f in fields if f["name"] == "vector"]
            self._dense = int(dims[0]) if dims else None
        return self._dense

    def _create_chunks(self, dim: int | None) -> None:
        V = DataType.VARCHAR
        schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("id", V, is_primary=True, max_length=512)
        for name in ("document_id", "document", "kind", "section", "statement", "company", "doc_type", "bbox"):
            schema.add_field(name, V, max_length=2048)
        schema.add_field("page", DataType.INT64)
        schema.add_field("ordinal", DataType.INT64)
        schema.add_field("fiscal_year", DataType.INT64)  # 0: unknown
        schema.add_field("text", V, max_length=MAX_VARCHAR)
        schema.add_field("body", V, max_length=MAX_VARCHAR, enable_analyzer=True,
                         analyzer_params={"tokenizer": "standard"})
        schema.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
        schema.add_function(Function(name="body_bm25", function_type=FunctionType.BM25,
                                     input_field_names=["body"], output_field_names=["sparse"]))
        index = self._db.prepare_index_params()
        index.add_index(field_name="sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25",
                        params={"bm25_k1": BM25_K1, "bm25_b": BM25_B})
        if dim:
            schema.add_field("has_vector", DataType.BOOL)
            schema.add_field("vector", DataType.FLOAT_VECTOR, dim=dim)
            index.add_index(field_name="vector", index_type="HNSW", metric_type="COSINE",
                            params={"M": HNSW_M, "efConstruction": HNSW_EF_CONSTRUCTION})
        for name in ("document_id", "company", "doc_type"):
            index.add_index(field_name=name, index_type="INVERTED")
        index.add_index(field_name="fiscal_year", index_type="INVERTED")
        self._create("chunks", schema, index)
        self._dense = False
        self._chunk_layout()

    def _ensure_chunks(self, dim: int | None) -> None:
        layout = self._chunk_layout()
        if layout is False:
            self._create_chunks(dim)
            layout = self._chunk_layout()
        if dim is None or layout == dim:
            return
        if layout is None and not self._db.query(self._name("chunks"), filter='id != ""', limit=1, output_fields=["id"]):
            self._db.drop_collection(self._name("chunks"))  # empty and lexical: rebuild it with vectors
            self._dense = False
            self._create_chunks(dim)
            return
        have = "no vectors" if layout is None else f"{layout}-dimensional vectors"
        raise ValueError(
            f"this Milvus index ({self._where}, prefix {self.prefix!r}) holds chunks with {have}; a document with "
            f"{dim}-dimensional vectors cannot join it. Build a dense index under another prefix "
            "(DOCQA_STORE=milvus://host:19530/another_prefix) and ingest with --dense from the start."
        )

    def _query_all(self, what: str, filter: str, fields: list[str]) -> list[dict]:
        name = self._name(what)
        first = self._db.query(name, filter=filter, output_fields=fields, limit=4096, consistency_level=CONSISTENCY)
        if len(first) < 4096:  # the usual case: one call
            return [dict(r) for r in first]
        rows: list[dict] = []
        it = self._db.query_iterator(name, batch_size=4096, filter=filter, output_fields=fields,
                                     consistency_level=CONSISTENCY)
        try:
            while True:
                batch = it.next()
                if not batch:
                    break
                rows.extend(dict(r) for r in batch)
        finally:
            it.close()
        return rows

    def _get(self, what: str, ids: list[str], fields: list[str]) -> list[dict]:
        if not ids:
            return []
        return [dict(r) for r in self._db.get(self._name(what), ids=ids, output_fields=fields,
                                               consistency_level=CONSISTENCY)]

    def _insert(self, what: str, rows: list[dict]) -> None:
        for start in range(0, len(rows), BATCH_ROWS):
            self._db.insert(self._name(what), rows[start:start + BATCH_ROWS])

    def flush(self) -> None:
        """Seal the growing segments (a server does it by itself by size and time). Milvus Lite
        builds a segment's BM25 scorer once when it is sealed and rescored growing data on every
        search: after a bulk load, flush (0.4 s -> 0.08 s per lexical search at 3k chunks)."""
        for what in ("chunks", "documents", "pages"):
            if self._db.has_collection(self._name(what)):
                self._db.flush(self._name(what))

    def drop_all(self) -> None:
        """Drop every collection under this prefix: the whole index (tests, benchmarks)."""
        with self._lock:
            for what in ("chunks", "documents", "pages", "jobs", "questions", "meta"):
                if self._db.has_collection(self._name(what)):
                    self._db.drop_collection(self._name(what))
            self._dense = False
            self._identity = None

