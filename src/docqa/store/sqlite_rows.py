"""SQLite rows read back as the typed models the store contract returns."""

from __future__ import annotations

import json
import sqlite3

from docqa.store.base import StoredPage
from docqa.types import Answer, Chunk, DocType, Document, DocumentMeta, PageInfo, QuestionRecord, StatementKind


def document_of(row: sqlite3.Row) -> Document:
    return Document(
        id=row["id"], file_name=row["file_name"], path=row["path"], sha256=row["sha256"], pages=row["pages"],
        chunks=row["chunks"], meta=DocumentMeta.model_validate_json(row["meta"]), ocr_pages=row["ocr_pages"],
        no_text_pages=row["no_text_pages"], embedded=bool(row["embedded"]),
    )


def chunk_of(row: sqlite3.Row) -> Chunk:
    return Chunk(
        id=row["id"], document_id=row["document_id"], document=row["document"], page=row["page"],
        ordinal=row["ordinal"], text=row["text"], kind=row["kind"],
        bbox=tuple(json.loads(row["bbox"])) if row["bbox"] else None, section=row["section"],
        statement=StatementKind(row["statement"]) if row["statement"] else None, company=row["company"],
        fiscal_year=row["fiscal_year"], doc_type=DocType(row["doc_type"]) if row["doc_type"] else None,
    )


def question_of(row: sqlite3.Row) -> QuestionRecord:
    return QuestionRecord(
        answer=Answer.model_validate_json(row["answer"]), filters=json.loads(row["filters"]),
        created_at=row["created_at"], helpful=None if row["helpful"] is None else bool(row["helpful"]),
        note=row["note"],
    )


def page_of(row: sqlite3.Row) -> StoredPage:
    return StoredPage.from_store(
        document_id=row["document_id"], number=row["number"], width=row["width"], height=row["height"],
        lines_json=row["lines"], info=PageInfo.model_validate_json(row["info"]) if row["info"] else None,
        tables_json=row["tables"], ocr=bool(row["ocr"]), no_text=bool(row["no_text"]),
    )
