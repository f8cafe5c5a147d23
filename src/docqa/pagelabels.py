"""The page number a filing prints on each page ("21"), beside the physical page (23) docqa counts.

Citations count physical pages from 1, but a reader sees the number printed in the footer (or the
header); they differ by the cover and contents pages, and restart in exhibits ("F-3"). The stored
lines leave headers and footers out, so the printed number is read from the PDF page itself: the
last text block (or the first) when it is only a page number: ``21``, ``F-3``, ``iv``, ``Page 21``,
``21 | 3M Company``. A page printing none has no label. Read per page, on demand: a page costs a
few milliseconds, a whole 300-page filing seconds.
"""

from __future__ import annotations

import re

import fitz

EDGE_BLOCKS = 2  # the last two (and first two) text blocks: a footer under a footnote still counts
_ROMAN = r"[ivxlc]{1,7}"
_LABEL = re.compile(
    rf"^(?:page\s+)?((?:[A-Z]{{1,2}}\s?-\s?)?\d{{1,4}}|{_ROMAN})(?:\s+of\s+\d+)?$"  # "21", "F-3", "iv", "Page 2 of 9"
    rf"|^((?:[A-Z]{{1,2}}-)?\d{{1,4}})\s*[|•·]\s*\S.*$"        # "21 | 3M Company"
    rf"|^\S.*\s[|•·]\s*((?:[A-Z]{{1,2}}-)?\d{{1,4}})$",        # "3M Company | 21"
    re.I,
)


def printed_label(page: fitz.Page) -> str | None:
    """The page number printed in the page's footer (preferred) or header, or None."""
    try:
        blocks = [b for b in page.get_text("blocks") if b[6] == 0 and b[4].strip()]
    except Exception:  # an unreadable page prints no label we can read
        return None
    blocks.sort(key=lambda b: (b[3], b[0]))
    height = page.rect.height or 1.0
    footers = [b for b in reversed(blocks[-EDGE_BLOCKS:]) if b[1] >= 0.5 * height]
    headers = [b for b in blocks[:EDGE_BLOCKS] if b[3] <= 0.2 * height]
    for block in footers + headers:
        text = " ".join(block[4].split())
        if len(text) > 60:
            continue
        match = _LABEL.match(text)
        if match:
            return re.sub(r"\s", "", next(g for g in match.groups() if g))
    return None


__all__ = ["printed_label"]
