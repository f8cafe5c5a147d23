"""Values as the Milvus store writes them (compressed JSON in VARCHAR fields, filter literals) and its
rows read back as the typed models of the store contract."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any, Iterable

from docqa.store.base import StoredLine, StoredPage, StoredTables
from docqa.types import Chunk, DocType, PageInfo, StatementKind

MAX_VARCHAR = 65_535
PLACEHOLDER = [0.0, 1.0]  # companion collections' 2-d vector: Milvus requires a vector field


def pack(obj: Any) -> str:
    raw = json.dumps(obj, separators=(",", ":")).encode()
    return base64.b64encode(zlib.compress(raw, 6)).decode("ascii")


def unpack(text: str) -> Any:
    return json.loads(zlib.decompress(base64.b64decode(text)))


def lit(value: Any) -> str:
    """A Milvus filter literal (strings in double quotes, JSON escapes)."""
    return json.dumps(value)


def in_(field: str, values: Iterable) -> str:
    return f"{field} in [{', '.join(lit(v) for v in values)}]"


def chunk_of(r: dict) -> Chunk:
    return Chunk(
        id=r["id"], document_id=r["document_id"], document=r["document"], page=int(r["page"]),
        ordinal=int(r["ordinal"]), text=r["text"], kind=r["kind"],
        bbox=tuple(json.loads(r["bbox"])) if r["bbox"] else None, section=r["section"] or None,
        statement=StatementKind(r["statement"]) if r["statement"] else None, company=r["company"] or None,
        fiscal_year=int(r["fiscal_year"]) or None, doc_type=DocType(r["doc_type"]) if r["doc_type"] else None,
    )


def pages_of(document_id: str, rows: list[dict]) -> list[StoredPage]:
    parts: dict[int, list[tuple[int, str]]] = {}
    for r in rows:
        parts.setdefault(int(r["number"]), []).append((int(r["part"]), r["data"]))
    pages = []
    for number in sorted(parts):
        d = unpack("".join(data for _, data in sorted(parts[number])))
        # the store's own rows: trusted, so not validated again; the tables validated when read
        pages.append(StoredPage.model_construct(
            document_id=document_id, number=number, width=d["width"], height=d["height"],
            lines=tuple(StoredLine(text=t, bbox=tuple(b), is_table=bool(tb)) for t, b, tb in d["lines"]),
            info=PageInfo.model_validate(d["info"]) if d["info"] else None, tables=StoredTables(d["tables"]),
            ocr=bool(d["ocr"]), no_text=bool(d["no_text"]),
        ))
    return pages
