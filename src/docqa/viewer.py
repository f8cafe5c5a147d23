"""What the document viewer needs of a filing: every page's size, a page's printed number, and the
page drawn at the zoom asked with an answer's evidence boxed.

The viewer shows server-drawn page images (docs/web.md says why): the page list gives each page's
size so that the viewer lays out the whole filing before any image arrives, and draws only the
pages scrolled into view.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from docqa.evidence import html_page, is_html_file
from docqa.ingest.parse import open_pdf
from docqa.pagelabels import printed_label
from docqa.types import Answer, BBox, Figure

MIN_SCALE = 0.25   # pixels per PDF point: a thumbnail
MAX_SCALE = 8.0    # 300 % on a 2x screen is 300/100 * 96/72 * 2 = 8
LABEL_CACHE_SIZE = 20_000  # (file, page) pairs: a few bytes each


@dataclass(frozen=True)
class PageSize:
    number: int      # physical, 1-based
    width: float     # PDF points
    height: float


@dataclass(frozen=True)
class PageEvidence:
    """What to box on one page for one answer: its quotes there, the figures printed there."""

    quotes: list[str]
    figures: list[Figure]
    boxes: list[BBox]


_labels: dict[tuple[str, int, int], str | None] = {}
_labels_lock = threading.Lock()


def page_sizes(path: Path, stored: list[tuple[int, float, float]] | None = None) -> list[PageSize]:
    """Every page's size: from the PDF (no text is read), or for an HTML filing from the store."""
    if is_html_file(path):
        return [PageSize(n, w, h) for n, w, h in stored or []]
    with open_pdf(path) as doc:
        return [PageSize(i + 1, page.rect.width, page.rect.height) for i, page in enumerate(doc)]


def page_label(path: Path, number: int) -> str | None:
    """The number the filing prints on physical page ``number`` (pagelabels.py), or None."""
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, number)
    with _labels_lock:
        if key in _labels:
            return _labels[key]
    if is_html_file(path):
        doc, _ = html_page(path, number)
        page = doc[0]
    else:
        doc = open_pdf(path)
        page = doc[number - 1] if 1 <= number <= doc.page_count else None
    try:
        label = printed_label(page) if page is not None else None
    finally:
        doc.close()
    with _labels_lock:
        if len(_labels) >= LABEL_CACHE_SIZE:
            _labels.clear()
        _labels[key] = label
    return label


def evidence_on_page(answer: Answer, document_id: str, file_name: str, page: int) -> PageEvidence:
    """The answer's evidence on this page: the quotes cited there and the printed figures read there."""
    cited = [c for c in answer.citations if c.document_id == document_id and c.page == page]
    figures = [f for f in answer.figures if f.page == page and f.document in (None, file_name) and not f.computed]
    return PageEvidence(quotes=[c.quote for c in cited if c.quote], figures=figures,
                        boxes=[b for c in cited for b in c.boxes])


def clamp_scale(scale: float | None, default: float = 2.0) -> float:
    if scale is None:
        return default
    return min(MAX_SCALE, max(MIN_SCALE, float(scale)))


__all__ = ["MAX_SCALE", "MIN_SCALE", "PageEvidence", "PageSize", "clamp_scale", "evidence_on_page", "page_label",
           "page_sizes"]
