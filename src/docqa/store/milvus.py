"""The distributed store: Milvus (Standalone or Distributed), or Milvus Lite in-process, behind the
same contract as SQLite and PostgreSQL (docs/milvus.md).

Selected by ``DOCQA_STORE=milvus://host:19530[/prefix]`` (a server; ``milvus://user:password@...``
for an authenticated one) or ``DOCQA_STORE=milvus-lite:///path/index.db`` (Milvus Lite, in this
process: tests and laptops). Every collection is named ``<prefix>_<name>`` (prefix ``docqa``):

- ``chunks``: one row per chunk. Scalar fields for the filters (document_id, company, fiscal_year,
  doc_type, page, section, statement), the text, ``body`` (the lexical text) with a BM25 function
  that turns it into the sparse field ``sparse`` (SPARSE_INVERTED_INDEX, metric BM25, k1=1.2,
  b=0.75 as FTS5), and, when the index is dense, ``vector`` (HNSW, cosine) with ``has_vector``.
- ``documents`` (one row per document, the commit record: see below), ``pages`` (a page's lines,
  boxes, info and statement tables as compressed JSON, in parts of at most 64 KiB),
  ``jobs`` and ``questions`` (service state), ``meta`` (embedder identity).

Lexical text. ``body`` holds ``indexed_body(chunk)`` (the figure-preserving tokens the other stores
index: ``1,577`` -> ``1577``, ``FY2018`` -> ``fy2018 2018``), each token stemmed with the English
Snowball stemmer as PostgreSQL does, plus one token per pair of neighbouring tokens (for
phrases: Milvus BM25 has no phrase query; a phrase is searched as its pairs, so only chunks where
the words stand together score for it). Tokens holding ``.`` or ``&`` (``8.70``, ``pp&e``) and the
pairs are written as ``x`` + a 16-hex-digit hash, so any Milvus tokenizer (Lite's ``\\w+``, the
server's standard tokenizer) keeps them whole: the analyzer only ever sees ``[a-z0-9]`` words.

One document's writes become visible together by write-then-flip: the document's row is upserted
with ``state="writing"`` first, its old chunks and pages are deleted (if it had a row) and the new
ones inserted, and the row is flipped to ``state="ready"`` last (one single-row upsert: the commit point). Readers
list only ready documents, and every search excludes the chunks of documents that are being
written. A failed write deletes what it wrote; a writer that died leaves a ``writing`` row whose
chunks no search returns until the file is ingested again (or deleted).

Milvus has no unique constraint: duplicate chunk ids are refused before anything is written.
All reads and writes use Strong consistency, so a write is seen by the next search of any client.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import threading
import time
import zlib
from functools import lru_cache
from typing import Any, Callable, Iterable
from urllib.parse import unquote, urlsplit

import numpy as np

from docqa.store.base import (
    EmbedderMismatch, StoredLine, StoredPage, StoreUnavailable, filter_columns, indexed_body,
)
from docqa.text import index_text
from docqa.types import Chunk, Document, Job, PageInfo, QuestionRecord, SearchFilters

try:  # the 'milvus' extra
    from pymilvus import AnnSearchRequest, DataType, Function, FunctionType, MilvusClient, RRFRanker
    from pymilvus.client import entity_helper
    from pymilvus.exceptions import MilvusException, MilvusUnavailableException
    import snowballstemmer
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the Milvus store needs the 'milvus' extra: pip install -e '.[milvus]'") from exc

# pymilvus 3.0.2's row insert "checks" a VARCHAR value by iterating over its characters (isinstance
# and length per character: it checks nothing, and a 60 kB page row costs ~1.5 ms; two thirds of a
# load's CPU, docs/milvus.md). This store builds every string itself and checks their byte lengths
# against MAX_VARCHAR before inserting, so the per-character pass is switched off.
entity_helper.CHECK_STR_ARRAY = False

log = logging.getLogger(__name__)

BM25_K1, BM25_B = 1.2, 0.75
# HNSW: M=16, efConstruction=200 build a graph good to ~0.98 recall at ef=128 on 384-d MiniLM
# vectors; docs/milvus.md has the settings for 10M chunks.
HNSW_M, HNSW_EF_CONSTRUCTION, HNSW_EF = 16, 200, 128
MAX_VARCHAR = 65_535
MAX_TOPK = 16_384          # a server's cap on limit (and offset + limit)
BATCH_ROWS = 512           # rows per insert call (gRPC messages stay well below 64 MiB)
CONSISTENCY = "Strong"
_PLACEHOLDER = [0.0, 1.0]  # companion collections' 2-d vector: Milvus requires a vector field


def parse_milvus_url(url: str) -> tuple[str, dict, str]:
    """``milvus://[user:pass@]host:port[/prefix]`` or ``milvus-lite:///path.db`` -> (uri, client kwargs, prefix)."""
    parts = urlsplit(url)
    if parts.scheme == "milvus-lite":
        path = unquote(parts.netloc + parts.path)
        if not path or path == "/":
            raise ValueError(f"DOCQA_STORE={url!r}: give a file, as in milvus-lite:///path/to/index.db")
        if not path.endswith(".db"):
            raise ValueError(f"DOCQA_STORE={url!r}: a Milvus Lite index is a file ending in .db")
        prefix = "docqa"
        return path, {}, prefix
    if parts.scheme not in ("milvus", "milvuss"):
        raise ValueError(f"DOCQA_STORE={url!r}: expected milvus://host:19530[/prefix] or milvus-lite:///path.db")
    if not parts.hostname:
        raise ValueError(f"DOCQA_STORE={url!r}: no host; expected milvus://host:19530[/prefix]")
    scheme = "https" if parts.scheme == "milvuss" else "http"
    uri = f"{scheme}://{parts.hostname}:{parts.port or 19530}"
    kwargs: dict = {}
    if parts.username:
        kwargs["token"] = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
    prefix = parts.path.strip("/") or "docqa"
    if not prefix.replace("_", "").isalnum() or not prefix[0].isalpha():
        raise ValueError(f"DOCQA_STORE={url!r}: the collection prefix {prefix!r} must be letters, digits and _")
    return uri, kwargs, prefix


# --- lexical text ---------------------------------------------------------------------------------
_stemmer = snowballstemmer.stemmer("english")
_stem_lock = threading.Lock()


@lru_cache(maxsize=200_000)
def _stem(token: str) -> str:
    if not token.isalpha():
        return token
    with _stem_lock:  # snowballstemmer's stemmer objects are not thread-safe
        return _stemmer.stemWord(token)


@lru_cache(maxsize=200_000)
def _word(token: str) -> str:
    """A token as one analyzer word: plain ``[a-z0-9]+`` as is, anything else hashed."""
    if token.isalnum() and token.isascii():
        return token
    return "x" + hashlib.blake2b(token.encode(), digest_size=8).hexdigest()


def _stems(text: str) -> list[str]:
    """The stemmed tokens of an ``index_text`` string."""
    return [_stem(t) for t in text.split()]


def lexical_body(chunk: Chunk) -> str:
    """What the BM25 function reads for a chunk: its stemmed tokens, then its neighbouring pairs."""
    stems = _stems(indexed_body(chunk))
    words = [_word(s) for s in stems] + [_word(a + " " + b) for a, b in zip(stems, stems[1:])]
    body = " ".join(words)
    if len(body) > MAX_VARCHAR:  # a very long chunk: keep what fits, whole words
        body = body[: body.rfind(" ", 0, MAX_VARCHAR)]
    return body


def lexical_query(terms: list[str], phrases: list[str]) -> str:
    words: dict[str, None] = {}
    for term in terms:
        for s in _stems(index_text(term or "")):
            words.setdefault(_word(s))
    for phrase in phrases:
        stems = _stems(index_text(phrase or ""))
        if len(stems) == 1:
            words.setdefault(_word(stems[0]))
        for a, b in zip(stems, stems[1:]):
            words.setdefault(_word(a + " " + b))
    return " ".join(words)


# --- compressed JSON in VARCHAR fields ------------------------------------------------------------
def _pack(obj: Any) -> str:
    raw = json.dumps(obj, separators=(",", ":")).encode()
    return base64.b64encode(zlib.compress(raw, 6)).decode("ascii")


def _unpack(text: str) -> Any:
    return json.loads(zlib.decompress(base64.b64decode(text)))


def _lit(value: Any) -> str:
    """A Milvus filter literal (strings in double quotes, JSON escapes)."""
    return json.dumps(value)


def _in(field: str, values: Iterable) -> str:
    return f"{field} in [{', '.join(_lit(v) for v in values)}]"


# --- the clients: one per (uri, token), Milvus Lite servers released with their last store ---------
_lite_users: dict[str, int] = {}
_lite_lock = threading.Lock()


def _is_outage(exc: BaseException) -> bool:
    if isinstance(exc, MilvusUnavailableException):
        return True
    text = str(exc).lower()
    return isinstance(exc, MilvusException) and any(
        s in text for s in ("unavailable", "deadline", "connect", "failed to connect", "timeout", "server is not ready")
    )


class _Guarded:
    """The MilvusClient with outages turned into StoreUnavailable (faces: 503 + Retry-After)."""

    def __init__(self, client: MilvusClient, where: str):
        self._client = client
        self._where = where

    def __getattr__(self, name: str) -> Callable:
        method = getattr(self._client, name)

        def call(*args, **kwargs):
            try:
                return method(*args, **kwargs)
            except Exception as exc:
                if _is_outage(exc):
                    raise StoreUnavailable(
                        f"Milvus at {self._where} is unavailable: {str(exc).splitlines()[0]} (try again shortly)"
                    ) from exc
                raise

        return call


class MilvusStore:
    """Thread-safe: MilvusClient is, and writes of one document hold a lock in this process."""

    def __init__(self, url: str, timeout: float = 10.0):
        self.url = url
        uri, kwargs, prefix = parse_milvus_url(url)
        self.lite = not uri.startswith(("http://", "https://"))
        self.prefix = prefix
        self._where = uri if not self.lite else f"milvus-lite {uri}"
        self._lite_path = None
        if self.lite:
            import os

            self._lite_path = os.path.abspath(uri)
            os.makedirs(os.path.dirname(self._lite_path), exist_ok=True)
        try:
            client = MilvusClient(uri=uri, timeout=timeout, **kwargs)
        except Exception as exc:
            if self.lite:
                raise RuntimeError(f"cannot open Milvus Lite at {uri}: {exc}") from exc
            raise StoreUnavailable(f"cannot connect to Milvus at {uri}: {str(exc).splitlines()[0]}") from exc
        if self._lite_path:
            with _lite_lock:
                _lite_users[self._lite_path] = _lite_users.get(self._lite_path, 0) + 1
        self._db = _Guarded(client, self._where)
        self._lock = threading.RLock()
        self._dense: int | None | bool = False  # False: chunks collection not seen yet; None: lexical; n: dims
        self._identity: str | None = None
        self._ensure_companions()

    # --- collections ----------------------------------------------------------------------------
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

    # --- generic reads ------------------------------------------------------------------------------
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

    # --- identity -----------------------------------------------------------------------------------
    def embedder_identity(self) -> str | None:
        if self._identity is None:
            rows = self._get("meta", ["embedder"], ["value"])
            self._identity = rows[0]["value"] if rows else None
        return self._identity

    def bind_embedder(self, identity: str) -> None:
        with self._lock:
            self._identity = None
            current = self.embedder_identity()
            if current is None:
                self._db.upsert(self._name("meta"), [{"id": "embedder", "value": identity, "_v": _PLACEHOLDER}])
                self._identity = identity
            elif current != identity:
                raise EmbedderMismatch(
                    f"this index ({self._where}, prefix {self.prefix!r}) was built with embedder {current!r} but "
                    f"{identity!r} was asked for; open it with the same embedder, or build a new index under "
                    "another collection prefix"
                )

    # --- writing ------------------------------------------------------------------------------------
    def add_document(
        self,
        document: Document,
        pages: list[StoredPage],
        chunks: list[Chunk],
        vectors: np.ndarray | None,
    ) -> None:
        if vectors is not None and len(vectors) != len(chunks):
            raise ValueError("one vector per chunk expected")
        seen: set[str] = set()
        for c in chunks:
            if c.id in seen:
                raise ValueError(f"duplicate chunk id {c.id!r} in document {document.id}")
            seen.add(c.id)
        dim = int(vectors.shape[1]) if vectors is not None and len(chunks) else None
        stored = document.model_copy(update={"chunks": len(chunks), "embedded": vectors is not None})
        with self._lock:
            self._ensure_chunks(dim)
            # Parts are written only after their document's row exists and deleted before it goes, so
            # a document without a row has none: skip the delete-by-filter, which Milvus Lite runs as a
            # scan of the whole collection (its cost grew with the index: docs/milvus.md).
            had_row = bool(self._get("documents", [document.id], ["id"]))
            self._put_document(stored, "writing")  # from here on no search sees this document's chunks
            try:
                if had_row:
                    self._delete_parts(document.id)
                self._insert_pages(document.id, pages)
                self._insert_chunks(chunks, vectors)
                self._before_commit(document)
                self._put_document(stored, "ready")  # the commit point: one single-row upsert
            except BaseException:
                try:
                    self._delete_parts(document.id)
                    self._db.delete(self._name("documents"), ids=[document.id])
                except Exception:  # the row stays "writing": hidden until re-ingested or deleted
                    log.warning("could not clean up the failed write of %s", document.id, exc_info=True)
                raise

    def _before_commit(self, document: Document) -> None:
        """Everything is written but not yet visible (a hook for tests)."""

    def _put_document(self, document: Document, state: str) -> None:
        data = _pack(document.model_dump(mode="json"))
        if len(data) > MAX_VARCHAR:
            raise ValueError(f"document {document.id}: its metadata is too large for one Milvus row")
        self._db.upsert(self._name("documents"), [{
            "id": document.id, "sha256": document.sha256, "state": state, "file_name": document.file_name,
            "data": data, "_v": _PLACEHOLDER,
        }])

    def _delete_parts(self, document_id: str) -> None:
        expr = f"document_id == {_lit(document_id)}"
        if self._chunk_layout() is not False:
            self._db.delete(self._name("chunks"), filter=expr)
        self._db.delete(self._name("pages"), filter=expr)

    def _insert_pages(self, document_id: str, pages: list[StoredPage]) -> None:
        rows = []
        for p in pages:
            data = _pack({
                "width": p.width, "height": p.height,
                "lines": [[l.text, list(l.bbox), int(l.is_table)] for l in p.lines],
                "info": p.info.model_dump(mode="json") if p.info else None,
                "tables": list(p.tables), "ocr": p.ocr, "no_text": p.no_text,
            })
            for part, start in enumerate(range(0, len(data), MAX_VARCHAR)):
                rows.append({"id": f"{document_id}/{p.number}/{part}", "document_id": document_id,
                             "number": p.number, "part": part, "data": data[start:start + MAX_VARCHAR],
                             "_v": _PLACEHOLDER})
        self._insert("pages", rows)

    def _insert_chunks(self, chunks: list[Chunk], vectors: np.ndarray | None) -> None:
        dim = self._chunk_layout()
        placeholder = None
        if dim:
            placeholder = [0.0] * dim
            placeholder[0] = 1.0
        rows = []
        for i, c in enumerate(chunks):
            text = c.text
            if len(text.encode()) > MAX_VARCHAR:
                raise ValueError(f"chunk {c.id} holds {len(text)} characters; Milvus keeps at most {MAX_VARCHAR} bytes")
            row = {
                "id": c.id, "document_id": c.document_id, "document": c.document, "page": c.page,
                "ordinal": c.ordinal, "kind": c.kind, "text": text,
                "bbox": json.dumps(list(c.bbox)) if c.bbox else "", "section": c.section or "",
                "statement": c.statement.value if c.statement else "", "company": c.company or "",
                "fiscal_year": c.fiscal_year or 0, "doc_type": c.doc_type.value if c.doc_type else "",
                "body": lexical_body(c),
            }
            if dim:
                if vectors is not None:
                    row["vector"] = vectors[i].astype(np.float32).tolist()
                    row["has_vector"] = True
                else:
                    row["vector"] = placeholder
                    row["has_vector"] = False
            rows.append(row)
        self._insert("chunks", rows)

    def _insert(self, what: str, rows: list[dict]) -> None:
        for start in range(0, len(rows), BATCH_ROWS):
            self._db.insert(self._name(what), rows[start:start + BATCH_ROWS])

    def delete_document(self, document_id: str) -> bool:
        with self._lock:
            existed = bool(self._get("documents", [document_id], ["id"]))
            self._delete_parts(document_id)
            self._db.delete(self._name("documents"), ids=[document_id])
            return existed

    # --- reading ------------------------------------------------------------------------------------
    def _documents_where(self, expr: str) -> list[Document]:
        rows = self._query_all("documents", expr, ["id", "data"])
        return [Document.model_validate(_unpack(r["data"])) for r in rows]

    def documents(self) -> list[Document]:
        docs = self._documents_where('state == "ready"')
        return sorted(docs, key=lambda d: (d.file_name, d.id))

    def document(self, document_id: str) -> Document | None:
        rows = self._get("documents", [document_id], ["state", "data"])
        if not rows or rows[0]["state"] != "ready":
            return None
        return Document.model_validate(_unpack(rows[0]["data"]))

    def document_by_sha(self, sha256: str) -> Document | None:
        docs = self._documents_where(f'sha256 == {_lit(sha256)} and state == "ready"')
        return docs[0] if docs else None

    def _hidden(self) -> list[str]:
        """Documents being written right now (or whose writer died): their chunks are not searched."""
        return [r["id"] for r in self._query_all("documents", 'state != "ready"', ["id"])]

    def chunks(self, chunk_ids: Iterable[str]) -> list[Chunk]:
        ids = list(dict.fromkeys(chunk_ids))
        if not ids or self._chunk_layout() is False:
            return []
        fields = ["id", "document_id", "document", "page", "ordinal", "kind", "text", "bbox", "section",
                  "statement", "company", "fiscal_year", "doc_type"]
        by_id = {}
        for start in range(0, len(ids), 1000):
            for r in self._get("chunks", ids[start:start + 1000], fields):
                by_id[r["id"]] = _chunk(r)
        return [by_id[i] for i in chunk_ids if i in by_id]

    def page(self, document_id: str, number: int) -> StoredPage | None:
        if self.document(document_id) is None:
            return None
        rows = self._query_all("pages", f"document_id == {_lit(document_id)} and number == {int(number)}",
                               ["number", "part", "data"])
        pages = _pages(document_id, rows)
        return pages[0] if pages else None

    def pages(self, document_id: str) -> list[StoredPage]:
        if self.document(document_id) is None:
            return []
        rows = self._query_all("pages", f"document_id == {_lit(document_id)}", ["number", "part", "data"])
        return _pages(document_id, rows)

    # --- searching ----------------------------------------------------------------------------------
    def _filter(self, filters: SearchFilters, dense: bool = False) -> str:
        clauses = []
        for column, values in filter_columns(filters):
            clauses.append(_in(column.removeprefix("c."), values))
        hidden = self._hidden()
        if hidden:
            clauses.append("not (" + _in("document_id", hidden) + ")")
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

    # --- service state: ingest jobs -------------------------------------------------------------------
    def _seq(self, what: str, key: str) -> int:
        rows = self._get(what, [key], ["seq"])
        return int(rows[0]["seq"]) if rows else time.time_ns()

    def put_job(self, job: Job) -> None:
        with self._lock:
            self._db.upsert(self._name("jobs"), [{
                "id": job.id, "created_at": job.created_at, "seq": self._seq("jobs", job.id),
                "data": _pack(job.model_dump(mode="json")), "_v": _PLACEHOLDER,
            }])

    def job(self, job_id: str) -> Job | None:
        rows = self._get("jobs", [job_id], ["data"])
        return Job.model_validate(_unpack(rows[0]["data"])) if rows else None

    def jobs(self) -> list[Job]:
        rows = self._query_all("jobs", 'id != ""', ["created_at", "seq", "data"])
        rows.sort(key=lambda r: (r["created_at"], r["seq"]))
        return [Job.model_validate(_unpack(r["data"])) for r in rows]

    def delete_job(self, job_id: str) -> bool:
        with self._lock:
            existed = bool(self._get("jobs", [job_id], ["id"]))
            self._db.delete(self._name("jobs"), ids=[job_id])
            return existed

    # --- service state: the question log ----------------------------------------------------------
    def _put_question(self, record: QuestionRecord, seq: int) -> None:
        self._db.upsert(self._name("questions"), [{
            "id": record.answer.id, "created_at": record.created_at, "seq": seq,
            "data": _pack(record.model_dump(mode="json")), "_v": _PLACEHOLDER,
        }])

    def log_question(self, record: QuestionRecord) -> None:
        if not record.answer.id:
            raise ValueError("a logged answer needs an id")
        with self._lock:
            self._put_question(record, self._seq("questions", record.answer.id))

    def question(self, answer_id: str) -> QuestionRecord | None:
        rows = self._get("questions", [answer_id], ["data"])
        return QuestionRecord.model_validate(_unpack(rows[0]["data"])) if rows else None

    def questions(self, limit: int = 100) -> list[QuestionRecord]:
        limit = max(0, int(limit))
        if not limit:
            return []
        keys = self._query_all("questions", 'id != ""', ["id", "created_at", "seq"])
        keys.sort(key=lambda r: (r["created_at"], r["seq"]), reverse=True)
        wanted = [r["id"] for r in keys[:limit]]
        by_id = {r["id"]: r for r in self._get("questions", wanted, ["id", "data"])}
        return [QuestionRecord.model_validate(_unpack(by_id[i]["data"])) for i in wanted if i in by_id]

    def delete_questions(self, answer_ids: list[str] | None = None) -> int:
        with self._lock:
            if answer_ids is None:
                answer_ids = [r["id"] for r in self._query_all("questions", 'id != ""', ["id"])]
            # an id given twice is one question: Milvus returns its row once per time it is asked for
            wanted = list(dict.fromkeys(answer_ids))
            present = [r["id"] for r in self._get("questions", wanted, ["id"])] if wanted else []
            if present:
                self._db.delete(self._name("questions"), ids=present)
            return len(present)

    def add_feedback(self, answer_id: str, helpful: bool, note: str | None = None) -> bool:
        with self._lock:
            rows = self._get("questions", [answer_id], ["seq", "data"])
            if not rows:
                return False
            record = QuestionRecord.model_validate(_unpack(rows[0]["data"]))
            record = record.model_copy(update={"helpful": bool(helpful), "note": note})
            self._put_question(record, int(rows[0]["seq"]))
            return True

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

    def close(self) -> None:
        try:
            self._db.close()
        except Exception:
            pass
        if self._lite_path:
            with _lite_lock:
                left = _lite_users.get(self._lite_path, 1) - 1
                if left <= 0:
                    _lite_users.pop(self._lite_path, None)
                else:
                    _lite_users[self._lite_path] = left
            if left <= 0:  # the last store on this file: stop its in-process server, free the file
                from milvus_lite import server_manager_instance

                server_manager_instance.release_server(self._lite_path)
            self._lite_path = None


def _chunk(r: dict) -> Chunk:
    from docqa.types import DocType, StatementKind

    return Chunk(
        id=r["id"], document_id=r["document_id"], document=r["document"], page=int(r["page"]),
        ordinal=int(r["ordinal"]), text=r["text"], kind=r["kind"],
        bbox=tuple(json.loads(r["bbox"])) if r["bbox"] else None, section=r["section"] or None,
        statement=StatementKind(r["statement"]) if r["statement"] else None, company=r["company"] or None,
        fiscal_year=int(r["fiscal_year"]) or None, doc_type=DocType(r["doc_type"]) if r["doc_type"] else None,
    )


def _pages(document_id: str, rows: list[dict]) -> list[StoredPage]:
    parts: dict[int, list[tuple[int, str]]] = {}
    for r in rows:
        parts.setdefault(int(r["number"]), []).append((int(r["part"]), r["data"]))
    pages = []
    for number in sorted(parts):
        d = _unpack("".join(data for _, data in sorted(parts[number])))
        pages.append(StoredPage(
            document_id=document_id, number=number, width=d["width"], height=d["height"],
            lines=tuple(StoredLine(text=t, bbox=tuple(b), is_table=bool(tb)) for t, b, tb in d["lines"]),
            info=PageInfo.model_validate(d["info"]) if d["info"] else None, tables=d["tables"] or [],
            ocr=bool(d["ocr"]), no_text=bool(d["no_text"]),
        ))
    return pages
