"""Render a cited page as a PNG with the evidence boxed, so a person can see the proof.

What gets boxed, in order of preference:

0. with ``cells``, ``figures`` — the cells of the figures read, not their rows: a figure's ``bbox``
   when the answer kept it (the stored word box of the cell), else the words of a quoted row that
   print the figure (its label not included); every face asks for this (app/pageview.py);
1. ``quote`` — the cited quotes, found with PyMuPDF's ``search_for``; when that fails (the stored
   text joins table cells with two spaces, drops ``$`` cells, or a word is hyphenated at a line
   end) the quote's words are located in the page's own word stream, and failing that a table
   row is found by its label and figures, line by line;
2. ``figures`` — the answer's figures: by their ``bbox`` when known, else by searching their
   printed text (on the line of their line item when that line can be found);
3. ``boxes`` — boxes the caller already had (PDF points);
4. ``none`` — the page alone.

Boxes are drawn in ``HIGHLIGHT_RGB``: an opaque outline and a translucent fill, so the text under
them stays readable and a test can find the outline's exact colour in the image.
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Sequence

import fitz  # PyMuPDF

from docqa.ingest.html import CHAR_WIDTH, FONT_HEIGHT, HTML_SUFFIXES, parse_html
from docqa.ingest.parse import open_pdf, parse_page
from docqa.limits import capped_scale, check_renderable
from docqa.text import fold, tokens
from docqa.types import BBox, Figure, Line

log = logging.getLogger(__name__)

HIGHLIGHT_RGB = (255, 200, 0)           # the outline's exact colour in the PNG
HIGHLIGHT_FILL_OPACITY = 0.25           # the fill over the text: translucent
HIGHLIGHT_WIDTH = 2.0                   # outline width in PDF points (4 px at zoom 2)
HIGHLIGHT_PADDING = 2.0                 # points added around the text's own box

Used = Literal["quote", "figures", "boxes", "none"]


@dataclass(frozen=True)
class EvidenceImage:
    png: bytes
    used: Used
    boxes: list[BBox] = field(default_factory=list)  # what was drawn, PDF points (x zoom for pixels)
    zoom: float = 2.0


# --- locating a quote ----------------------------------------------------------------------------


def _merge_by_line(rects: list[fitz.Rect]) -> list[fitz.Rect]:
    """One box per visual line: a table row becomes one box from its label to its last figure."""
    merged: list[fitz.Rect] = []
    for rect in sorted(rects, key=lambda r: (round((r.y0 + r.y1) / 2), r.x0)):
        for i, box in enumerate(merged):
            overlap = min(box.y1, rect.y1) - max(box.y0, rect.y0)
            if overlap > 0.5 * min(box.height, rect.height):
                merged[i] = box | rect
                break
        else:
            merged.append(fitz.Rect(rect))
    return merged


def _search(page: fitz.Page, text: str) -> list[fitz.Rect]:
    text = " ".join(fold(text).split())
    if not text:
        return []
    try:
        return list(page.search_for(text))
    except Exception:  # MuPDF refuses some odd strings; the fallbacks take over
        return []


_INNER_HYPHEN = re.compile(r"(\w)-(\w)")

Ref = tuple[int, int]  # (line index, word index) in the page's parsed lines


def _word_tokens(lines: Sequence[Line]) -> list[tuple[str, tuple[Ref, ...]]]:
    """The page as a stream of tokens, each pointing at its word(s); line-end hyphens rejoined."""
    stream: list[tuple[str, tuple[Ref, ...]]] = []
    joined: set[Ref] = set()
    for li, line in enumerate(lines):
        for wi, word in enumerate(line.words):
            if (li, wi) in joined:
                continue
            text, refs = word.text, [(li, wi)]
            if wi == len(line.words) - 1 and text.endswith("-") and li + 1 < len(lines) and lines[li + 1].words:
                text = text[:-1] + lines[li + 1].words[0].text  # "abil-" + "ity" = "ability"
                joined.add((li + 1, 0))
                refs.append((li + 1, 0))
            stream += [(tok, tuple(refs)) for tok in tokens(text)]
    return stream


def _boxes_for_refs(lines: Sequence[Line], refs: set[Ref]) -> list[fitz.Rect]:
    by_line: dict[int, fitz.Rect] = {}
    for li, wi in refs:
        rect = fitz.Rect(lines[li].words[wi].bbox)
        by_line[li] = by_line[li] | rect if li in by_line else rect
    return [by_line[li] for li in sorted(by_line)]


def _locate_words(lines: Sequence[Line], quote: str) -> list[fitz.Rect]:
    """The quote's tokens as a contiguous run of the page's tokens (spacing and '$' cells ignored)."""
    stream = _word_tokens(lines)
    toks = [tok for tok, _ in stream]
    # A compound broken at its own hyphen ("co-\nsourced") is rejoined without it: try both forms.
    for form in (quote, _INNER_HYPHEN.sub(r"\1\2", quote)):
        wanted = tokens(form)
        n = len(wanted)
        for start in range(len(toks) - n + 1) if n else ():
            if toks[start : start + n] == wanted:
                refs = {ref for _, refs in stream[start : start + n] for ref in refs}
                return _boxes_for_refs(lines, refs)
    return []


def _is_number(token: str) -> bool:
    return any(ch.isdigit() for ch in token)


def _locate_row(lines: Sequence[Line], quote: str) -> list[fitz.Rect]:
    """A table row by its label and figures: every figure of the quote, most of its label words."""
    wanted = tokens(quote)
    numbers = [t for t in wanted if _is_number(t)]
    label = [t for t in wanted if not _is_number(t)]
    if not numbers or not label:
        return []
    best: tuple[float, int] | None = None
    for li, line in enumerate(lines):
        have = tokens(line.text)
        if not all(n in have for n in numbers):
            continue
        share = sum(1 for t in label if t in have) / len(label)
        if share >= 0.5 and (best is None or share > best[0]):
            best = (share, li)
    if best is None:
        return []
    return [fitz.Rect(lines[best[1]].bbox)]


def locate_quote(page: fitz.Page, quote: str, lines: Sequence[Line] | None = None) -> list[fitz.Rect]:
    """Boxes (PDF points) around ``quote`` on ``page``; [] when it cannot be placed.

    ``lines`` are the page's parsed rows, for the fallbacks; parsed here when not given.
    """
    rects = _search(page, quote)
    if not rects:
        # "Net income  $  596" in the store may print as "Net income $596": search the cells alone.
        rects = _search(page, " ".join(quote.replace("$", " ").split()))
    if rects:
        return _merge_by_line(rects)
    if lines is None:
        lines = parse_page(page, page.number + 1, ocr=False).lines
    return _locate_words(lines, quote) or _locate_row(lines, quote)


# --- locating figures ------------------------------------------------------------------------------


def _locate_figure(page: fitz.Page, figure: Figure, lines: Sequence[Line]) -> list[fitz.Rect]:
    if figure.bbox is not None:
        return [fitz.Rect(figure.bbox)]
    if figure.computed or not figure.text.strip():
        return []  # a computed figure is printed nowhere
    hits = _search(page, figure.text.strip("()$ "))
    if not hits:
        return []
    # Prefer the hit on the line of the figure's line item ("Total net sales ... 177,866").
    name = [t for t in tokens(figure.name) if not _is_number(t)]
    if name:
        for line in lines:
            have = tokens(line.text)
            if sum(1 for t in name if t in have) >= max(1, 0.6 * len(name)):
                y0, y1 = line.bbox[1], line.bbox[3]
                on_line = [r for r in hits if min(r.y1, y1) - max(r.y0, y0) > 0.5 * r.height]
                if on_line:
                    return on_line
    return hits[:3]


_CELL_CHARS = re.compile(r"[\s$€£¥()]")


def _cell_text(text: str) -> str:
    """A figure as a cell prints it, without currency signs, brackets or spaces: "$ (1,234)" is "1,234"."""
    return _CELL_CHARS.sub("", fold(text))


def _locate_cells(page: fitz.Page, quotes: Sequence[str], figures: Sequence[Figure],
                  lines: Sequence[Line]) -> list[fitz.Rect]:
    """The cells of the figures read: a figure's own box when known, else the words of a quoted row
    that print the figure. A figure printed nowhere on the quoted rows gives no cell."""
    rects = [fitz.Rect(f.bbox) for f in figures if f.bbox is not None]
    wanted = {_cell_text(f.text) for f in figures if f.bbox is None and not f.computed and _cell_text(f.text)}
    if not wanted:
        return rects
    # the quoted rows across the page: a quote of the label alone ("Purchases of property") is its row
    rows = [(r.y0, r.y1) for q in quotes for r in locate_quote(page, q, lines)]
    for line in lines:
        for word in line.words:
            box = fitz.Rect(word.bbox)
            middle = (box.y0 + box.y1) / 2
            if _cell_text(word.text) in wanted and any(y0 <= middle <= y1 for y0, y1 in rows):
                rects.append(box)
    return rects


# --- HTML filings ---------------------------------------------------------------------------------
# An HTML filing has no geometry of its own: docqa.ingest.html lays each page out on synthetic
# coordinates (line i at y = 36 + 12*i, 5 pt per character, words 10 pt high) and every stored box,
# quote and fact location is in those coordinates. Its evidence page is that layout drawn back: the
# kept copy is parsed again (same code, same bytes: the sha256 was checked) and each word of the cited
# page is written at its own box in Courier sized so that a character is exactly 5 pt wide. The boxes
# are then found and drawn as on a PDF page, so the PNG matches the stored coordinates exactly.

_HTML_FONT_SIZE = CHAR_WIDTH / 0.6      # Courier glyphs are 600/1000 em wide: 5 pt per character
_HTML_BASELINE = 0.8 * FONT_HEIGHT      # a word's baseline inside its 10 pt box
_HTML_CACHE_SIZE = 4                    # parsed filings kept in memory (the first render of one parses it)
_html_cache: dict[tuple[str, int, int], list] = {}
_html_lock = threading.Lock()


def is_html_file(path: str | Path) -> bool:
    """An HTML filing by its suffix, or by its bytes (kept copies used to be named .pdf whatever they were)."""
    path = Path(path)
    if path.suffix.lower() in HTML_SUFFIXES:
        return True
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    lower = head.lstrip().lower()
    return not lower.startswith(b"%pdf") and any(t in lower for t in (b"<?xml", b"<html", b"<!doctype html"))


def _html_pages(path: Path) -> list:
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    with _html_lock:
        pages = _html_cache.pop(key, None)
    if pages is None:
        pages = parse_html(path).pages  # raises ParseError with a reason
    with _html_lock:
        _html_cache[key] = pages      # most recently used last
        while len(_html_cache) > _HTML_CACHE_SIZE:
            _html_cache.pop(next(iter(_html_cache)))
    return pages


def html_page(path: str | Path, page: int) -> tuple[fitz.Document, Sequence[Line]]:
    """Page ``page`` (1-based) of an HTML filing laid out on a one-page PDF at its stored coordinates,
    with the page's parsed lines (word boxes) for the quote fallbacks."""
    pages = _html_pages(Path(path))
    if not isinstance(page, int) or page < 1 or page > len(pages):
        raise ValueError(f"{Path(path).name} has pages 1-{len(pages)}; page {page} does not exist")
    source = pages[page - 1]
    doc = fitz.open()
    out = doc.new_page(width=source.width, height=source.height)
    writer = fitz.TextWriter(out.rect)
    font = fitz.Font("cour")
    for line in source.lines:
        for word in line.words:
            writer.append((word.bbox[0], word.bbox[1] + _HTML_BASELINE), word.text, font=font,
                          fontsize=_HTML_FONT_SIZE)
    writer.write_text(out)
    return doc, source.lines


# --- rendering ------------------------------------------------------------------------------------


def _draw(page: fitz.Page, rects: list[fitz.Rect]) -> list[BBox]:
    colour = tuple(c / 255 for c in HIGHLIGHT_RGB)
    drawn: list[BBox] = []
    for rect in rects:
        padded = fitz.Rect(rect.x0 - HIGHLIGHT_PADDING, rect.y0 - HIGHLIGHT_PADDING,
                           rect.x1 + HIGHLIGHT_PADDING, rect.y1 + HIGHLIGHT_PADDING) & page.rect
        if padded.is_empty:
            continue
        shape = page.new_shape()
        shape.draw_rect(padded)
        shape.finish(color=colour, fill=colour, width=HIGHLIGHT_WIDTH, fill_opacity=HIGHLIGHT_FILL_OPACITY,
                     stroke_opacity=1.0)
        shape.commit(overlay=True)
        drawn.append((padded.x0, padded.y0, padded.x1, padded.y1))
    return drawn


def render_evidence(
    pdf_path: str | Path,
    page: int,
    quotes: Sequence[str],
    figures: Sequence[Figure] = (),
    boxes: Sequence[BBox] = (),
    zoom: float = 2.0,
    max_pixels: int | None = None,
    time_budget_s: float | None = None,
    cells: bool = False,
) -> EvidenceImage:
    """Render 1-based ``page`` of ``pdf_path`` with the evidence boxed (see the module's order; with
    ``cells`` the figures' cells first).

    The zoom is lowered for a huge page so that the PNG holds at most ``max_pixels`` (default:
    ``Settings.max_render_pixels``), and for a page slow to draw so that rendering fits in
    ``time_budget_s`` (``_rasterise``); the returned ``zoom`` is the one used."""
    started = time.monotonic()
    if zoom <= 0:
        raise ValueError("zoom must be positive")
    html = is_html_file(pdf_path)
    if html:  # an EDGAR HTML filing: its page laid out at the stored coordinates (see html_page)
        doc, html_lines = html_page(pdf_path, page)
    else:
        doc = open_pdf(pdf_path)  # raises ParseError with a reason a person can act on
    try:
        if not html and (not isinstance(page, int) or page < 1 or page > doc.page_count):
            raise ValueError(f"{Path(pdf_path).name} has pages 1-{doc.page_count}; page {page} does not exist")
        pdf_page = doc[0] if html else doc[page - 1]
        zoom = capped_scale(pdf_page.rect.width, pdf_page.rect.height, zoom, max_pixels)
        check_renderable(pdf_page.rect.width, pdf_page.rect.height, zoom, page)
        # the rows the store holds, with word boxes; parsed only when there is evidence to place, so
        # that a viewer scrolling through a 300-page filing pays for drawing alone
        wanted = [q for q in quotes if q and q.strip()]
        placed = [f for f in figures if f.page in (None, page)]
        lines: Sequence[Line] = ()
        if wanted or placed:
            lines = html_lines if html else parse_page(pdf_page, page, ocr=False).lines
        rects: list[fitz.Rect] = _locate_cells(pdf_page, wanted, placed, lines) if cells else []
        used: Used = "figures"
        if not rects:
            rects, used = [r for quote in wanted for r in locate_quote(pdf_page, quote, lines)], "quote"
        if not rects:
            rects, used = [r for figure in placed for r in _locate_figure(pdf_page, figure, lines)], "figures"
        if not rects:
            rects, used = [fitz.Rect(b) for b in boxes], "boxes"
        drawn = _draw(pdf_page, rects)  # drawn on the in-memory copy only; the file is never written
        if not drawn:
            used = "none"
        png, zoom = _rasterise(pdf_page, zoom, time_budget_s, started)
    finally:
        doc.close()
    return EvidenceImage(png=png, used=used, boxes=drawn, zoom=zoom)


PROBE_SHRINK = 16  # the probe is drawn at 1/16 of the zoom


def _rasterise(pdf_page: fitz.Page, zoom: float, budget_s: float | None, started: float) -> tuple[bytes, float]:
    """The page as PNG at ``zoom``, or lower when drawing it would overrun ``budget_s`` (from ``started``).

    MuPDF draws synchronously and cannot be interrupted from Python, so the budget is kept by
    measuring: the page's display list is built once and drawn at 1/16 of the zoom; the full
    drawing's time is extrapolated linearly in the zoom (what a page of many strokes measured:
    60,000 long lines took 1.2 s at zoom 0.05, 11 s at 0.5, 18 s at 1 and 39 s at 2; pages that
    cost per pixel are bounded by the pixel cap instead) and the zoom lowered until the estimate fits
    what is left of the budget. A page whose probe alone overruns it is returned as the probe.
    Building the display list is not bounded (it measured 0.05 s for that page)."""
    matrix = fitz.Matrix(zoom, zoom)
    if budget_s is None:
        return pdf_page.get_pixmap(matrix=matrix, alpha=False).tobytes("png"), zoom
    display = pdf_page.get_displaylist()
    probe_zoom = zoom / PROBE_SHRINK
    t0 = time.monotonic()
    probe = display.get_pixmap(matrix=fitz.Matrix(probe_zoom, probe_zoom), alpha=False)
    probe_s = time.monotonic() - t0
    left = budget_s - (time.monotonic() - started)
    if probe_s * PROBE_SHRINK > left:
        fitted = probe_zoom * max(left, 0.0) / probe_s if probe_s > 0 else zoom
        if fitted <= probe_zoom:
            log.warning("page drawn at zoom %.3f instead of %.2f: drawing it at that zoom took %.2f s of a %.1f s "
                        "budget (DOCQA_RENDER_TIMEOUT_S)", probe_zoom, zoom, probe_s, budget_s)
            return probe.tobytes("png"), probe_zoom
        log.warning("page drawn at zoom %.3f instead of %.2f to stay within %.1f s (DOCQA_RENDER_TIMEOUT_S)",
                    fitted, zoom, budget_s)
        zoom = math.floor(fitted * 10_000) / 10_000
    return display.get_pixmap(matrix=fitz.Matrix(zoom, zoom), alpha=False).tobytes("png"), zoom


__all__ = [
    "EvidenceImage",
    "HIGHLIGHT_FILL_OPACITY",
    "HIGHLIGHT_RGB",
    "HIGHLIGHT_WIDTH",
    "html_page",
    "is_html_file",
    "locate_quote",
    "render_evidence",
]


# --- fitting an evidence image into a model's context ---------------------------------------------


@dataclass
class FittedImage:
    data: bytes
    format: Literal["png", "jpeg"]
    width: int
    height: int
    cropped: bool   # only the boxed region (full page width) is shown


def fit_image(image: EvidenceImage, *, crop: bool = True, width: int = 1000, max_bytes: int = 100_000,
              margin_pt: float = 144.0) -> FittedImage:
    """The evidence image made small enough for a model's context: cropped to the boxes (the page's
    full width, ``margin_pt`` above and below them) when ``crop`` and anything is boxed, scaled to at
    most ``width`` pixels, PNG when that fits in ``max_bytes``, else JPEG, smaller until it fits."""
    pix = fitz.Pixmap(image.png)
    if pix.alpha:
        pix = fitz.Pixmap(pix, 0)
    cropped = False
    if crop and image.boxes:
        zoom = image.zoom
        top = max(0, int((min(b[1] for b in image.boxes) - margin_pt) * zoom))
        bottom = min(pix.height, int((max(b[3] for b in image.boxes) + margin_pt) * zoom) + 1)
        if bottom - top < 0.9 * pix.height:
            pix = fitz.Pixmap(pix, pix.width, pix.height, fitz.IRect(0, top, pix.width, bottom))
            pix.set_origin(0, 0)
            cropped = True
    target = max(1, min(width, pix.width))
    smallest: FittedImage | None = None
    while True:
        height = max(1, round(pix.height * target / pix.width))
        scaled = pix if target == pix.width else fitz.Pixmap(pix, target, height)
        png = scaled.tobytes("png")
        if len(png) <= max_bytes:
            return FittedImage(png, "png", scaled.width, scaled.height, cropped)
        for quality in (80, 65, 50):
            jpeg = scaled.tobytes("jpeg", jpg_quality=quality)
            smallest = FittedImage(jpeg, "jpeg", scaled.width, scaled.height, cropped)
            if len(jpeg) <= max_bytes:
                return smallest
        if target <= 300:
            return smallest
        target = max(300, int(target * 0.8))
