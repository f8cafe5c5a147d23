"""Per page: the 10-K/10-Q Item it belongs to (Part and Item headings, carried over the pages that
follow) and the primary statement printed on it. Only cheap regexes run over a page's lines."""

from __future__ import annotations

import re
from collections.abc import Sequence

from docqa.ingest.metadata.statements import statement_kind
from docqa.types import Page, PageInfo

ITEM = re.compile(
    r"^\s*(?:part\s+(i{1,3}|iv)\s*[,.:\-–—]?\s*)?item\s+(\d{1,2}\.\d\d|\d{1,2}[a-d]?)\s*(?:[.:\-–—]|\s|$)(?!\s*(?:of|in|and|to|above|below)\b)",
    re.I,
)
# an Item named inside a sentence that wrapped to the line start is a cross-reference, not a heading
CROSS_REFERENCE = re.compile(
    r"\b(?:see|section|included|discussed|described|refer|contained|set forth|incorporated|herein|this (?:report|form))\b", re.I
)
PART = re.compile(r"^\s*part\s+(i{1,3}|iv)\b(?!\s*,?\s*item)", re.I)
TOC_ITEMS = 5  # a page that opens this many Items is a table of contents, not a section start


def detect_pages(pages: Sequence[Page]) -> list[PageInfo]:
    """Per page: the Item it belongs to and the primary statement printed on it.

    A page is labelled with the first Item heading on it, else with the Item carried from the
    pages before. A table of contents (many Items on one page) is not a heading.
    """
    part: str | None = None
    found: list[list[tuple[str | None, str]]] = []
    for page in pages:
        page_part, items = part, []
        for line in page.lines:
            text = line.text
            if len(text) > 160:
                continue
            if p := PART.match(text):
                page_part = p.group(1).upper()
            if (m := ITEM.match(text)) and not CROSS_REFERENCE.search(text, m.end()):
                page_part = m.group(1).upper() if m.group(1) else page_part
                items.append((page_part, m.group(2).upper()))
        if len({item for _, item in items}) >= TOC_ITEMS:
            items = []  # a contents page: its Parts and Items are not where we are
        else:
            part = page_part
        found.append(items)
    # 10-Qs number Items afresh in each Part (Part I Item 2 is MD&A, Part II Item 2 is share
    # repurchases): when an Item number recurs under another Part, labels name the Part.
    parts_of: dict[str, set[str]] = {}
    for items in found:
        for p, item in items:
            if p:
                parts_of.setdefault(item, set()).add(p)
    with_part = any(len(ps) > 1 for ps in parts_of.values())

    def name(p: str | None, item: str) -> str:
        return f"Part {p}, Item {item}" if with_part and p else f"Item {item}"

    out: list[PageInfo] = []
    section: str | None = None
    for page, items in zip(pages, found):
        label = section
        if items:
            label, section = name(*items[0]), name(*items[-1])
        out.append(PageInfo(number=page.number, section=label, statement=statement_kind(page)))
    return out
