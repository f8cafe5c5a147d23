"""Pages -> Chunks. A chunk never crosses a page and a table region is never split.

Prose is packed into chunks of about ``max_words`` words on paragraph-ish boundaries; a run of
table rows (with the short label rows between them, and the heading rows just above) is one chunk
however long, because a statement read in halves loses its column headers.
"""

from __future__ import annotations

import hashlib

from docqa.types import Chunk, DocumentMeta, Line, Page, PageInfo

TABLE_GAP = 3        # label-only rows allowed inside a table region ("Cash flows from investing")
TABLE_HEADING = 3    # short rows above a table kept with it (title, "in millions", years)
HEADING_MAX_CHARS = 90


def chunk_id(document_id: str, page: int, ordinal: int) -> str:
    return hashlib.sha1(f"{document_id}:{page}:{ordinal}".encode()).hexdigest()[:16]


def table_mask(lines: tuple[Line, ...]) -> list[bool]:
    """Which lines belong to a table region."""
    mask = [line.is_table for line in lines]
    table_rows = [i for i, is_table in enumerate(mask) if is_table]
    # Fill short gaps between table rows: sub-headings inside a statement.
    for a, b in zip(table_rows, table_rows[1:]):
        if 1 < b - a <= TABLE_GAP + 1:
            for i in range(a + 1, b):
                mask[i] = True
    # Pull short heading rows above each region into it.
    i = 0
    while i < len(mask):
        if mask[i] and (i == 0 or not mask[i - 1]):
            j = i - 1
            while j >= 0 and i - j <= TABLE_HEADING and not mask[j] and len(lines[j].text) <= HEADING_MAX_CHARS:
                mask[j] = True
                j -= 1
        i += 1
    return mask


def _regions(page: Page, max_words: int) -> list[tuple[str, list[Line]]]:
    mask = table_mask(page.lines)
    regions: list[tuple[str, list[Line]]] = []
    words = 0  # in the last region: counted as lines join it, not recounted for every line
    for line, is_table in zip(page.lines, mask):
        kind = "table" if is_table else "text"
        n = len(line.text.split())
        if regions and regions[-1][0] == kind:
            current = regions[-1][1]
            if kind == "text" and words >= max_words:
                regions.append((kind, [line]))
                words = n
            else:
                current.append(line)
                words += n
        else:
            regions.append((kind, [line]))
            words = n
    # A table region of one or two rows is just a line with figures in prose.
    merged: list[tuple[str, list[Line]]] = []
    last = 0  # words in merged[-1] when it is text
    for kind, lines in regions:
        if kind == "table" and len(lines) < 3:
            kind = "text"
        if merged and merged[-1][0] == kind == "text":
            n = _words(lines)
            if last + n <= max_words:
                merged[-1][1].extend(lines)
                last += n
                continue
        merged.append((kind, list(lines)))
        last = _words(lines) if kind == "text" else 0
    return merged


def _words(lines: list[Line]) -> int:
    return sum(len(l.text.split()) for l in lines)


def chunk_page(
    page: Page,
    document_id: str,
    document: str,
    meta: DocumentMeta,
    info: PageInfo | None = None,
    max_words: int = 250,
) -> list[Chunk]:
    chunks = []
    for ordinal, (kind, lines) in enumerate(_regions(page, max_words)):
        text = "\n".join(l.text for l in lines).strip()
        if not text:
            continue
        bbox = (
            min(l.bbox[0] for l in lines),
            min(l.bbox[1] for l in lines),
            max(l.bbox[2] for l in lines),
            max(l.bbox[3] for l in lines),
        )
        chunks.append(
            Chunk(
                id=chunk_id(document_id, page.number, ordinal),
                document_id=document_id,
                document=document,
                page=page.number,
                ordinal=ordinal,
                text=text,
                kind=kind,  # type: ignore[arg-type]
                bbox=bbox,
                section=info.section if info else None,
                statement=info.statement if info else None,
                company=meta.company,
                fiscal_year=meta.fiscal_year,
                doc_type=meta.doc_type,
            )
        )
    return chunks


def page_title(page: Page, max_lines: int = 3) -> str:
    """The first short lines of a page: usually the statement or section title."""
    out = []
    for line in page.lines[:8]:
        if len(line.text) <= HEADING_MAX_CHARS and not line.is_table:
            out.append(line.text)
        if len(out) >= max_lines:
            break
    return " | ".join(out)
