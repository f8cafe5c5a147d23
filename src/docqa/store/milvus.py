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

The module opens the store and holds its writes, reads and service state: the collections are
in milvus_collections, searching in milvus_search, the lexical text in milvus_lexical, values in
and rows out in milvus_rows, the client and URL in milvus_client.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Iterable

import numpy as np

from docqa.store.base import EmbedderMismatch, Store, StoredPage, StoreUnavailable, line_rows, tables_as_json
from docqa.store.milvus_client import Guarded, hold_lite, parse_milvus_url, release_lite
from docqa.store.milvus_extra import MilvusClient
from docqa.store.milvus_lexical import lexical_body, lexical_query
from docqa.store.milvus_rows import MAX_VARCHAR, PLACEHOLDER, chunk_of, lit, pack, pages_of, unpack
from docqa.store.milvus_search import MilvusSearch
from docqa.types import Chunk, Document, Job, QuestionRecord

# Importable from here as before this module was split (tests, benchmarks).
__all__ = ["MilvusStore", "lexical_body", "lexical_query", "parse_milvus_url"]

log = logging.getLogger(__name__)


class MilvusStore(MilvusSearch, Store):
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
            hold_lite(self._lite_path)
        self._db = Guarded(client, self._where)
        self._lock = threading.RLock()
        self._dense: int | None | bool = False  # False: chunks collection not seen yet; None: lexical; n: dims
        self._identity: str | None = None
        self._ensure_companions()

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
                self._db.upsert(self._name("meta"), [{"id": "embedder", "value": identity, "_v": PLACEHOLDER}])
                self._identity = identity
            elif current != identity:
                raise EmbedderMismatch(
                    f"this index ({self._where}, prefix {self.prefix!r}) was built with embedder {current!r} but "
                    f"{identity!r} was asked for; open it with the same embedder, or build a new index under "
                    "another collection prefix"
                )

    # --- writing ------------------------------------------------------------------------------------
    def _write_document(self, document: Document, pages: list[StoredPage], chunks: list[Chunk],
                        vectors: np.ndarray | None, bodies: list[str]) -> None:
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
                self._insert_chunks(chunks, vectors, bodies)
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
        data = pack(document.model_dump(mode="json"))
        if len(data) > MAX_VARCHAR:
            raise ValueError(f"document {document.id}: its metadata is too large for one Milvus row")
        self._db.upsert(self._name("documents"), [{
            "id": document.id, "sha256": document.sha256, "state": state, "file_name": document.file_name,
            "data": data, "_v": PLACEHOLDER,
        }])

    def _delete_parts(self, document_id: str) -> None:
        expr = f"document_id == {lit(document_id)}"
        if self._chunk_layout() is not False:
            self._db.delete(self._name("chunks"), filter=expr)
        self._db.delete(self._name("pages"), filter=expr)

    def _insert_pages(self, document_id: str, pages: list[StoredPage]) -> None:
        rows = []
        for p in pages:
            data = pack({
                "width": p.width, "height": p.height,
                "lines": line_rows(p.lines),
                "info": p.info.model_dump(mode="json") if p.info else None,
                "tables": tables_as_json(p.tables), "ocr": p.ocr, "no_text": p.no_text,
            })
            for part, start in enumerate(range(0, len(data), MAX_VARCHAR)):
                rows.append({"id": f"{document_id}/{p.number}/{part}", "document_id": document_id,
                             "number": p.number, "part": part, "data": data[start:start + MAX_VARCHAR],
                             "_v": PLACEHOLDER})
        self._insert("pages", rows)

    def _insert_chunks(self, chunks: list[Chunk], vectors: np.ndarray | None,
                       bodies: list[str] | None = None) -> None:
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
                "body": lexical_body(c, bodies[i] if bodies is not None else None),
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

    def delete_document(self, document_id: str) -> bool:
        with self._lock:
            existed = bool(self._get("documents", [document_id], ["id"]))
            self._delete_parts(document_id)
            self._db.delete(self._name("documents"), ids=[document_id])
            return existed

    # --- reading ------------------------------------------------------------------------------------
    def _documents_where(self, expr: str) -> list[Document]:
        rows = self._query_all("documents", expr, ["id", "data"])
        return [Document.model_validate(unpack(r["data"])) for r in rows]

    def documents(self) -> list[Document]:
        docs = self._documents_where('state == "ready"')
        return sorted(docs, key=lambda d: (d.file_name, d.id))

    def document(self, document_id: str) -> Document | None:
        rows = self._get("documents", [document_id], ["state", "data"])
        if not rows or rows[0]["state"] != "ready":
            return None
        return Document.model_validate(unpack(rows[0]["data"]))

    def document_by_sha(self, sha256: str) -> Document | None:
        docs = self._documents_where(f'sha256 == {lit(sha256)} and state == "ready"')
        return docs[0] if docs else None

    def chunks(self, chunk_ids: Iterable[str]) -> list[Chunk]:
        ids = list(dict.fromkeys(chunk_ids))
        if not ids or self._chunk_layout() is False:
            return []
        fields = ["id", "document_id", "document", "page", "ordinal", "kind", "text", "bbox", "section",
                  "statement", "company", "fiscal_year", "doc_type"]
        by_id = {}
        for start in range(0, len(ids), 1000):
            for r in self._get("chunks", ids[start:start + 1000], fields):
                by_id[r["id"]] = chunk_of(r)
        return [by_id[i] for i in chunk_ids if i in by_id]

    def page(self, document_id: str, number: int) -> StoredPage | None:
        if self.document(document_id) is None:
            return None
        rows = self._query_all("pages", f"document_id == {lit(document_id)} and number == {int(number)}",
                               ["number", "part", "data"])
        pages = pages_of(document_id, rows)
        return pages[0] if pages else None

    def pages(self, document_id: str) -> list[StoredPage]:
        if self.document(document_id) is None:
            return []
        rows = self._query_all("pages", f"document_id == {lit(document_id)}", ["number", "part", "data"])
        return pages_of(document_id, rows)

    # --- service state: ingest jobs -------------------------------------------------------------------
    def _seq(self, what: str, key: str) -> int:
        rows = self._get(what, [key], ["seq"])
        return int(rows[0]["seq"]) if rows else time.time_ns()

    def put_job(self, job: Job) -> None:
        with self._lock:
            self._db.upsert(self._name("jobs"), [{
                "id": job.id, "created_at": job.created_at, "seq": self._seq("jobs", job.id),
                "data": pack(job.model_dump(mode="json")), "_v": PLACEHOLDER,
            }])

    def job(self, job_id: str) -> Job | None:
        rows = self._get("jobs", [job_id], ["data"])
        return Job.model_validate(unpack(rows[0]["data"])) if rows else None

    def jobs(self) -> list[Job]:
        rows = self._query_all("jobs", 'id != ""', ["created_at", "seq", "data"])
        rows.sort(key=lambda r: (r["created_at"], r["seq"]))
        return [Job.model_validate(unpack(r["data"])) for r in rows]

    def delete_job(self, job_id: str) -> bool:
        with self._lock:
            existed = bool(self._get("jobs", [job_id], ["id"]))
            self._db.delete(self._name("jobs"), ids=[job_id])
            return existed

    # --- service state: the question log ----------------------------------------------------------
    def _put_question(self, record: QuestionRecord, seq: int) -> None:
        self._db.upsert(self._name("questions"), [{
            "id": record.answer.id, "created_at": record.created_at, "seq": seq,
            "data": pack(record.model_dump(mode="json")), "_v": PLACEHOLDER,
        }])

    def log_question(self, record: QuestionRecord) -> None:
        if not record.answer.id:
            raise ValueError("a logged answer needs an id")
        with self._lock:
            self._put_question(record, self._seq("questions", record.answer.id))

    def question(self, answer_id: str) -> QuestionRecord | None:
        rows = self._get("questions", [answer_id], ["data"])
        return QuestionRecord.model_validate(unpack(rows[0]["data"])) if rows else None

    def questions(self, limit: int = 100) -> list[QuestionRecord]:
        limit = max(0, int(limit))
        if not limit:
            return []
        keys = self._query_all("questions", 'id != ""', ["id", "created_at", "seq"])
        keys.sort(key=lambda r: (r["created_at"], r["seq"]), reverse=True)
        wanted = [r["id"] for r in keys[:limit]]
        by_id = {r["id"]: r for r in self._get("questions", wanted, ["id", "data"])}
        return [QuestionRecord.model_validate(unpack(by_id[i]["data"])) for i in wanted if i in by_id]

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
            record = QuestionRecord.model_validate(unpack(rows[0]["data"]))
            record = record.model_copy(update={"helpful": bool(helpful), "note": note})
            self._put_question(record, int(rows[0]["seq"]))
            return True

    def close(self) -> None:
        try:
            self._db.close()
        except Exception:
            pass
        if self._lite_path:
            release_lite(self._lite_path)
            self._lite_path = None
