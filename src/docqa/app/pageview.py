"""What the web viewer draws on a page beside the image: the page's words with their boxes (a
transparent text layer, so that quotes and figures can be selected and copied), and the evidence
boxed on the cell of the figure read rather than its whole row.

Words: a PDF page's own words as PyMuPDF reads them (x0, y0, x1, y1 in PDF points, in reading
order, grouped by line); an HTML filing's words at their stored synthetic boxes (evidence.html_page,
the layout the page image is drawn from); a page with no text layer of its own (read by OCR) falls
back to the stored rows, one box per row.

Cells: every face boxes evidence through ``evidence_image`` — the web page image, the CLI's
``ask --evidence`` and ``show --figure``, MCP's ``show_evidence``. Where the answer read a printed
figure, the image boxes that figure's cell: its stored box (``Figure.bbox``), or for a figure given
by its printed text, the words of the quoted row that print it; without either the quoted row is
boxed, then the figures wherever the page prints them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docqa.engine import AnswerNotFound, PageOutOfRange
from docqa.types import Answer, Figure

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


def evidence_image(engine: "Engine", document: str, page: int, quotes: Sequence[str] = (),
                   figures: Sequence[Figure | str] = (), boxes: Sequence[Box] = (), scale: float | None = None):
    """Page ``page`` drawn at ``scale`` with the evidence boxed: the cells of the figures read (a
    ``Figure``, or a figure's printed text such as "81,797", found on the quoted rows), else the
    quoted rows, else the figures, else ``boxes``."""
    from docqa.evidence import render_evidence
    from docqa.viewer import clamp_scale

    doc = engine.document(document)
    if not isinstance(page, int) or not 1 <= page <= doc.pages:
        raise PageOutOfRange(doc, page)
    read = [f if isinstance(f, Figure) else Figure(name="", value=0.0, text=f, page=page)
            for f in figures if isinstance(f, Figure) or f.strip()]
    return render_evidence(engine.pdf_path(doc), page, [q for q in quotes if q], read, list(boxes),
                           zoom=clamp_scale(scale), max_pixels=engine.settings.limits.max_render_pixels,
                           time_budget_s=engine.settings.limits.render_timeout_s, cells=True)


def answer_image(engine: "Engine", answer: Answer, document: str | None = None, page: int | None = None,
                 scale: float | None = None):
    """The answer's evidence on one page (by default its first citation's), boxed as ``evidence_image`` does."""
    from docqa.viewer import evidence_on_page

    if document is None or page is None:
        if not answer.citations:
            raise ValueError("the answer cites no page")
        document, page = answer.citations[0].document_id, answer.citations[0].page
    doc = engine.document(document)
    evidence = evidence_on_page(answer, doc.id, doc.file_name, page)
    return evidence_image(engine, doc.id, page, evidence.quotes, evidence.figures, evidence.boxes, scale)


def page_image(engine: "Engine", document: str, page: int, answer_id: str | None = None,
               scale: float | None = None):
    """The page drawn at ``scale`` with the logged answer's evidence boxed (``answer_image``); the page
    alone without an answer. Raises AnswerNotFound for an id the question log does not hold."""
    if not answer_id:
        return evidence_image(engine, document, page, scale=scale)
    record = engine.store.question(answer_id)
    if record is None:
        raise AnswerNotFound(answer_id)
    return answer_image(engine, record.answer, document, page, scale)


__all__ = ["PageWords", "answer_image", "evidence_image", "page_image", "page_words"]
