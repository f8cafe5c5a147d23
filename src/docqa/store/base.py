"""The store contract. Every backend passes the same behavioural battery (tests/store/battery.py).

A store keeps documents, their pages (text and row boxes), chunks, a lexical index over
``docqa.text.index_text`` and, when the index is dense, one vector per chunk. Writing a document
is one transaction: after a crash a document is either wholly present or absent.
"""

from __future__ import annotations

from typing import Iterable, Protocol, runtime_checkable

import numpy as np
from pydantic import Field

from docqa.text import index_text
from docqa.types import BBox, Chunk, Document, Frozen, Job, PageInfo, QuestionRecord, SearchFilters


class StoredLine(Frozen):
    text: str
    bbox: BBox
    is_table: bool = False


class StoredPage(Frozen):
    document_id: str
    number: int
    width: float
    height: float
    lines: tuple[StoredLine, ...] = ()
    info: PageInfo | None = None
    tables: list[dict] = Field(default_factory=list)  # finance.statements tables as JSON
    ocr: bool = False
    no_text: bool = False

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


class EmbedderMismatch(RuntimeError):
    """The index was built with another embedder; querying it with this one would be wrong."""


def indexed_body(chunk: Chunk) -> str:
    """What every backend's lexical index holds for a chunk: ``index_text`` of its text, plus the
    statement's name so that "cash flow statement" finds the statement's table."""
    extra = chunk.statement.value.replace("_", " ") + " statement" if chunk.statement else ""
    return index_text(extra + "\n" + chunk.text)


def filter_columns(filters: SearchFilters) -> list[tuple[str, list]]:
    """The chunk columns a filter constrains and the values allowed, for any SQL backend."""
    pairs = [
        ("c.document_id", list(filters.document_ids)),
        ("c.company", list(filters.companies)),
        ("c.fiscal_year", list(filters.years)),
        ("c.doc_type", list(dict.fromkeys(k.value for d in filters.doc_types for k in d.family))),
    ]
    return [(column, values) for column, values in pairs if values]


class StoreUnavailable(RuntimeError):
    """The database server cannot be reached right now. Retrying later may succeed (faces: 503)."""


class DocumentNotFound(KeyError):
    def __init__(self, name: str, known: list[str]):
        self.name = name
        self.known = known
        super().__init__(name)

    def __str__(self) -> str:
        hint = ", ".join(self.known[:8]) or "none indexed yet"
        return f"unknown document {self.name!r}; known documents: {hint}"


class AmbiguousDocument(DocumentNotFound):
    """A name that more than one document answers to: each is named with its id (ids always work)."""

    def __init__(self, name: str, matches: list[tuple[str, str]]):
        self.matches = matches  # (file_name, id) of every document the name matches
        super().__init__(name, [f"{file_name} (id {doc_id})" for file_name, doc_id in matches])

    def __str__(self) -> str:
        listed = "; ".join(self.known)
        return f"{len(self.matches)} documents are named {self.name!r}: {listed}; pass the id instead"


@runtime_checkable
class Store(Protocol):
    # --- index identity ---
    def embedder_identity(self) -> str | None: ...
    def bind_embedder(self, identity: str) -> None:
        """Record the embedder on an empty index, or raise EmbedderMismatch if another built it."""

    # --- documents ---
    def add_document(
        self,
        document: Document,
        pages: list[StoredPage],
        chunks: list[Chunk],
        vectors: np.ndarray | None,
    ) -> None:
        """Insert (or replace) one document atomically. ``vectors`` rows align with ``chunks``."""

    def delete_document(self, document_id: str) -> bool: ...
    def documents(self) -> list[Document]: ...
    def document(self, document_id: str) -> Document | None: ...
    def document_by_sha(self, sha256: str) -> Document | None: ...

    # --- reading ---
    def chunks(self, chunk_ids: Iterable[str]) -> list[Chunk]: ...
    def page(self, document_id: str, number: int) -> StoredPage | None: ...
    def pages(self, document_id: str) -> list[StoredPage]: ...

    # --- searching; scores are higher-is-better ---
    def lexical_search(
        self, terms: list[str], phrases: list[str], filters: SearchFilters, k: int
    ) -> list[tuple[str, float]]: ...
    def vector_search(self, vector: np.ndarray, filters: SearchFilters, k: int) -> list[tuple[str, float]]: ...

    # --- service state (web app, MCP): ingest jobs and the question log ---
    def put_job(self, job: Job) -> None:
        """Insert or replace a job by id."""

    def job(self, job_id: str) -> Job | None: ...
    def jobs(self) -> list[Job]:
        """Oldest first."""

    def delete_job(self, job_id: str) -> bool: ...

    def log_question(self, record: QuestionRecord) -> None:
        """Store an asked question with its answer (keyed by answer.id)."""

    def question(self, answer_id: str) -> QuestionRecord | None: ...
    def questions(self, limit: int = 100) -> list[QuestionRecord]:
        """Newest first."""

    def add_feedback(self, answer_id: str, helpful: bool, note: str | None = None) -> bool:
        """False when no such answer was logged."""

    def delete_questions(self, answer_ids: list[str] | None = None) -> int:
        """Forget these logged questions (None: all of them); how many were removed."""

    def close(self) -> None: ...
