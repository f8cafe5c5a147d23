"""The store contract. Every backend passes the same behavioural battery (tests/store/battery.py).

A store keeps documents, their pages (text and row boxes), chunks, a lexical index over
``docqa.text.index_text`` and, when the index is dense, one vector per chunk. Writing a document
is one transaction: after a crash a document is either wholly present or absent.
"""

from __future__ import annotations

import errno
import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Callable, Iterable, Protocol, TypeVar, overload, runtime_checkable

import numpy as np
from pydantic import field_serializer

from docqa.finance.tables import StatementTable
from docqa.text import index_text
from docqa.types import BBox, Chunk, Document, Frozen, Job, PageInfo, QuestionRecord, SearchFilters


class StoredLine(Frozen):
    text: str
    bbox: BBox
    is_table: bool = False


T = TypeVar("T")


class _DecodedOnUse(Sequence[T]):
    """A sequence kept as the JSON the store holds, decoded the first time it is read."""

    __slots__ = ()

    def _decoded(self) -> Sequence[T]:
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> T: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[T]: ...
    def __getitem__(self, i):
        return self._decoded()[i]

    def __len__(self) -> int:
        return len(self._decoded())

    def __iter__(self):
        return iter(self._decoded())

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, Sequence) else NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self)} items)"


def line_rows(lines: Iterable[StoredLine]) -> list[list]:
    """A page's rows in the form every backend stores them (``[[text, bbox, is_table], ...]``):
    what StoredLines decodes."""
    return [[line.text, list(line.bbox), int(line.is_table)] for line in lines]


class StoredLines(_DecodedOnUse[StoredLine]):
    """A page's rows as the store holds them (``[[text, bbox, is_table], ...]`` JSON), decoded on first
    use. A figure question reads the text of every page of a filing but the rows and boxes of the few
    it cites; building a model per row of every page was a third of a first question's CPU."""

    __slots__ = ("_raw", "_lines", "_text")

    def __init__(self, raw: str) -> None:
        self._raw = raw
        self._lines: tuple[StoredLine, ...] | None = None
        self._text: str | None = None

    def _decoded(self) -> tuple[StoredLine, ...]:
        if self._lines is None:
            self._lines = tuple(StoredLine(text=t, bbox=tuple(b), is_table=bool(tb)) for t, b, tb in json.loads(self._raw))
        return self._lines

    @property
    def text(self) -> str:
        """The rows' text joined by newlines, without building the rows."""
        if self._text is None:
            rows = self._lines if self._lines is not None else json.loads(self._raw)
            self._text = "\n".join(row.text if isinstance(row, StoredLine) else row[0] for row in rows)
        return self._text


class StoredTables(_DecodedOnUse[StatementTable]):
    """A page's statement tables as the store holds them (JSON, or that JSON decoded), validated into
    StatementTable the first time something reads them and kept so with the page: the store's page
    cache then keeps the typed tables (a figure question validated every statement table again on
    every question), and a page whose tables nothing reads validates none."""

    __slots__ = ("_raw", "_tables")

    def __init__(self, raw: str | list | None) -> None:
        self._raw = raw if raw and raw != "[]" else None
        self._tables: tuple[StatementTable, ...] | None = None if self._raw else ()

    def _decoded(self) -> tuple[StatementTable, ...]:
        if self._tables is None:
            rows = json.loads(self._raw) if isinstance(self._raw, str) else self._raw
            self._tables = tuple(StatementTable.model_validate(t) for t in rows)
        return self._tables

    def __bool__(self) -> bool:
        return self._raw is not None

    def as_json(self) -> list[dict]:
        """The tables as the JSON they were read (or sent) as, not validated."""
        return json.loads(self._raw) if isinstance(self._raw, str) else list(self._raw or [])

    def as_text(self) -> str | None:
        """The JSON text they were read (or sent) as, if they came as text."""
        return self._raw if isinstance(self._raw, str) else None


def tables_as_json(tables: Sequence[StatementTable]) -> list[dict]:
    """A page's tables as every backend stores them: the one place they become JSON (what
    StoredTables reads back). Tables still held as JSON are passed on as they are."""
    if isinstance(tables, StoredTables):
        return tables.as_json()
    return [t.model_dump(mode="json") for t in tables]


def tables_as_text(tables: Sequence[StatementTable]) -> str:
    """``tables_as_json`` as JSON text (SQLite's column, what an ingest worker sends); tables still
    held as that text are passed on without decoding it."""
    text = tables.as_text() if isinstance(tables, StoredTables) else None
    return text if text is not None else json.dumps(tables_as_json(tables))


class StoredPage(Frozen):
    document_id: str
    number: int
    width: float
    height: float
    # A tuple, or StoredLines from a store that decodes them lazily (see ``StoredPage.from_store``).
    lines: tuple[StoredLine, ...] = ()
    info: PageInfo | None = None
    # A tuple, or StoredTables from a store that validates them lazily (see ``StoredPage.from_store``).
    tables: tuple[StatementTable, ...] = ()
    ocr: bool = False
    no_text: bool = False

    @property
    def text(self) -> str:
        if isinstance(self.lines, StoredLines):
            return self.lines.text
        return "\n".join(line.text for line in self.lines)

    @field_serializer("lines")
    def _rows_out(self, lines: Sequence[StoredLine]) -> list[dict]:
        return [line.model_dump() for line in lines]

    @field_serializer("tables")
    def _tables_out(self, tables: Sequence[StatementTable]) -> list[dict]:
        return tables_as_json(tables)

    def packed(self) -> "StoredPage":
        """The page with its tables as the JSON text the store writes, validated again only if
        something reads them: what an ingest worker sends the one process that writes the store, which
        then writes that text as it is (unpickling the typed tables and dumping them there cost that
        process more than the whole table JSON did before tables were typed)."""
        if not self.tables or isinstance(self.tables, StoredTables):
            return self
        return self.model_copy(update={"tables": StoredTables(tables_as_text(self.tables))})

    @classmethod
    def from_store(cls, *, document_id: str, number: int, width: float, height: float, lines_json: str,
                   info: PageInfo | None, tables_json: str | None, ocr: bool, no_text: bool) -> "StoredPage":
        """A page read back from a store's own rows: trusted, so not validated, and its rows and
        tables decoded only when something reads them."""
        return cls.model_construct(document_id=document_id, number=number, width=width, height=height,
                                   lines=StoredLines(lines_json), info=info, tables=StoredTables(tables_json), ocr=ocr,
                                   no_text=no_text)


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


def filter_sql(filters: SearchFilters, condition: Callable[[str, list], tuple[str, list]]) -> tuple[str, list]:
    """A filter as ``AND ...`` conditions (or "") and their arguments, for any SQL backend: ``condition``
    writes one column's test in the backend's own placeholders."""
    clauses, args = [], []
    for column, values in filter_columns(filters):
        clause, clause_args = condition(column, values)
        clauses.append(clause)
        args.extend(clause_args)
    return ("AND " + " AND ".join(clauses)) if clauses else "", args


class DiskFull(OSError):
    """No space left where the index is written (its folder's disk, or the database server's): the
    write that met it was undone and left nothing behind. Freeing space and doing it again succeeds
    (faces: HTTP 507). An OSError with errno ENOSPC, so code that handles a full disk already sees one."""

    def __init__(self, where: str | Path | None = None):
        self.where = str(where) if where is not None else None
        super().__init__(errno.ENOSPC, "no space left on the index's disk")

    def __str__(self) -> str:
        at = f" ({self.where})" if self.where else ""
        return f"no space left on the index's disk{at}: free some space there, then try again"

    def __reduce__(self):  # raised in worker processes too: pickles with its one argument
        return type(self), (self.where,)


# How each layer says its disk is full: SQLite's SQLITE_FULL, PostgreSQL's SQLSTATE 53100
# (disk_full), and the OS's ENOSPC / EDQUOT, which tantivy (Rust) reports only in its message.
_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT}
_FULL_WORDS = ("no space left on device", "disk quota exceeded", "database or disk is full")


def disk_full(exc: BaseException, where: str | Path | None = None) -> DiskFull | None:
    """``exc`` (or an error it was raised from) as DiskFull when it says the disk is full; else None."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, DiskFull):
            return current
        if ((isinstance(current, OSError) and current.errno in _FULL_ERRNOS)
                or getattr(current, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
                or getattr(current, "sqlstate", None) == "53100"
                or any(w in str(current).lower() for w in _FULL_WORDS)):
            return DiskFull(where)
        current = current.__cause__ or current.__context__
    return None


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
        bodies: Sequence[str] | None = None,
    ) -> None:
        """Insert (or replace) one document atomically. ``vectors`` rows align with ``chunks``, and so
        do ``bodies`` when given: each chunk's ``indexed_body``, worked out already (an ingest worker
        does, so that the one process writing the store does not).

        The backends subclass Store and write in ``_write_document``: a misaligned call is refused
        here, once for all of them, before anything is written."""
        if vectors is not None and len(vectors) != len(chunks):
            raise ValueError("one vector per chunk expected")
        if bodies is not None and len(bodies) != len(chunks):
            raise ValueError("one body per chunk expected")
        self._write_document(document, pages, chunks, vectors,
                             list(bodies) if bodies is not None else [indexed_body(c) for c in chunks])

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
