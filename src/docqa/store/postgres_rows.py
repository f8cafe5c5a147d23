"""Values as PostgreSQL can hold them (no NUL in text or JSON), and its rows read back as the typed
models of the store contract: each decoder with the columns it reads, in their order."""

from __future__ import annotations

import json
from typing import Any

from docqa.store.base import StoredPage
from docqa.store.postgres_extra import Jsonb
from docqa.types import Answer, Chunk, DocType, Document, DocumentMeta, PageInfo, QuestionRecord, StatementKind


def clean(text: str | None) -> str | None:
    # PostgreSQL text cannot hold NUL; a PDF's text layer sometimes does.
    return text.replace("\x00", "\ufffd") if text else text


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False).replace("\\u0000", "\\ufffd")


def jsonb(obj: Any) -> Jsonb:
    return Jsonb(obj, dumps=_dumps)


DOCUMENT_COLUMNS = "id, file_name, path, sha256, pages, chunks, meta, ocr_pages, no_text_pages, embedded"


def document_of(row) -> Document:
    return Document(
        id=row[0], file_name=row[1], path=row[2], sha256=row[3], pages=row[4], chunks=row[5],
        meta=DocumentMeta.model_validate(row[6]), ocr_pages=row[7], no_text_pages=row[8], embedded=row[9],
    )


CHUNK_COLUMNS = ("id, document_id, document, page, ordinal, text, kind, bbox, section, statement, company,"
                 " fiscal_year, doc_type")


def chunk_of(row) -> Chunk:
    return Chunk(
        id=row[0], document_id=row[1], document=row[2], page=row[3], ordinal=row[4], text=row[5], kind=row[6],
        bbox=tuple(row[7]) if row[7] else None, section=row[8],
        statement=StatementKind(row[9]) if row[9] else None, company=row[10], fiscal_year=row[11],
        doc_type=DocType(row[12]) if row[12] else None,
    )


PAGE_COLUMNS = "document_id, number, width, height, lines::text, info, tables::text, ocr, no_text"


def page_of(row) -> StoredPage:
    return StoredPage.from_store(
        document_id=row[0], number=row[1], width=row[2], height=row[3], lines_json=row[4],
        info=PageInfo.model_validate(row[5]) if row[5] else None,
        tables_json=row[6], ocr=row[7], no_text=row[8],
    )


QUESTION_COLUMNS = "answer, filters, created_at, helpful, note"


def question_of(row) -> QuestionRecord:
    return QuestionRecord(
        answer=Answer.model_validate(row[0]), filters=row[1], created_at=row[2], helpful=row[3], note=row[4],
    )
