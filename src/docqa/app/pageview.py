"""What the web viewer draws on a page beside the image: the page's words with their boxes (a
transparent text layer, so that quotes and figures can be selected and copied), and the evidence
boxed on the cell of the figure read rather than its whole row.

Words: a PDF page's own words as PyMuPDF reads them (x0, y0, x1, y1 in PDF points, in reading
order, grouped by line); an HTML filing's words at their stored synthetic boxes (evidence.html_page,
the layout the page image is drawn from); a page with no text layer of its own (read by OCR) falls
back to the stored rows, one box per row.

Cells: where the answer read a printed figure whose box is known (``Figure.bbox``), the page image
boxes that cell; without one the quoted row is boxed as before (``Engine.page_image``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docqa.engine import AnswerNotFound

if TYPE_CHECKING:
    from docqa.engine import Engine

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class PageWords:
    width: float
    height: float
    lines: list[list[tuple[str, Box]]]   # each line's words, in reading order
    source: str                          # "pdf", "html" or "rows" (one box a row, for an OCR page)


def _pdf_lines(path, page: int) -> list[list[tuple[str, Box]]]:
    from docqa.ingest.parse import open_pdf

    with open_pdf(path) as pdf:
        words = pdf[page - 1].get_text("words", sort=False)
    lines: dict[tuple[int, int], list[tuple[str, Box]]] = {}
    for x0, y0, x1, y1, text, block, line, _ in words:
        lines.setdefault((block, line), []).append((text, (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2))))
    return list(lines.values())


def _html_lines(path, page: int) -> list[list[tuple[str, Box]]]:
    from docqa.evidence import html_page

    doc, lines = html_page(path, page)
    doc.close()
    return [[(w.text, tuple(round(v, 2) for v in w.bbox)) for w in line.words] for line in lines if line.words]


def page_words(engine: "Engine", document: str, page: int) -> PageWords:
    """Page ``page``'s words with their boxes in PDF points (PageOutOfRange for a page it lacks)."""
    from docqa.evidence import is_html_file

    doc = engine.document(document)
    stored = engine.page(doc.id, page)
    path = engine.pdf_path(doc)
    html = is_html_file(path)
    lines = _html_lines(path, page) if html else _pdf_lines(path, page)
    source = "html" if html else "pdf"
    if not any(lines) and stored.lines:  # no text layer of its own (OCR): the stored rows, a box each
        lines = [[(row.text, tuple(row.bbox))] for row in stored.lines if row.text.strip()]  # type: ignore[misc]
        source = "rows"
    return PageWords(width=stored.width, height=stored.height, lines=lines, source=source)


def page_image(engine: "Engine", document: str, page: int, answer_id: str | None = None,
               scale: float | None = None):
    """The page drawn at ``scale`` with the answer's evidence boxed: the cells of the printed figures it
    read where their boxes are known, else (as Engine.page_image) its quotes, then its figures."""
    from docqa.viewer import clamp_scale, evidence_on_page

    doc = engine.document(document)
    if answer_id:
        record = engine.store.question(answer_id)
        if record is None:
            raise AnswerNotFound(answer_id)
        evidence = evidence_on_page(record.answer, doc.id, doc.file_name, page)
        cells = [f for f in evidence.figures if f.bbox is not None]
        if cells:
            image = engine.evidence_image(doc.id, page, [], cells, [], zoom=clamp_scale(scale))
            if image.used == "figures":
                return image
    return engine.page_image(doc.id, page, answer_id, scale)


__all__ = ["PageWords", "page_image", "page_words"]
