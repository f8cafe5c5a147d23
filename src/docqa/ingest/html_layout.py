"""HTML filing blocks (paragraphs, tables, page breaks) laid out as Pages with PDF-like coordinates.

HTML has no coordinates, so each Page gets synthetic but stable ones that make it look like a PDF
page to everything downstream (chunker, statement reader, quotes):

* pages end where the filing breaks them (``page-break-before/after`` and ``break-before/after``
  styles; ``<hr>`` rules only when the filing has no break styles at all); a filing without
  either is cut every ``FALLBACK_PAGE_LINES`` lines, and no page runs past ``MAX_PAGE_LINES``
  (a table of thousands of rows goes on over the next pages, as a PDF prints it);
* prose is wrapped at ``WRAP_CHARS`` characters; line ``i`` sits at ``y = MARGIN + i * LINE_HEIGHT``;
  a word's x is its character offset times ``CHAR_WIDTH``;
* a table row is one Line: the label, then the figures right-aligned in columns laid out from
  the table's own grid (``colspan`` respected), cells separated by two spaces. EDGAR prints
  ``$``, ``(`` and ``)`` in cells of their own: ``$`` joins its figure as a separate word
  (``$ 1,234``), ``(`` and ``)`` are glued to it (``(1,234)``) as the PDF rows print them. A label
  longer than its column wraps, its last part on the line with the figures.

:class:`PageCount` counts the pages the layout will make from the blocks' sizes alone, so the
reader applies the page limit while it reads, before any page is laid out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from docqa.ingest.parse import is_numeric_cell
from docqa.types import Line, Page, Word

PAGE_WIDTH = 612.0
PAGE_HEIGHT = 792.0
MARGIN = 36.0
LINE_HEIGHT = 12.0
FONT_HEIGHT = 10.0
CHAR_WIDTH = 5.0
WRAP_CHARS = 108              # prose line length: 540 pt of a 612 pt page
LABEL_CHARS = 100             # a statement label wraps past this many characters (rare: long labels stay whole)
CELL_CHARS = 100              # any other table cell wraps past this
CELL_GAP = 3                  # characters between table columns (two spaces in the text, more in the boxes)
FALLBACK_PAGE_LINES = 60      # a filing that never breaks its pages is cut into pages this long
# No page is longer: the shared filings' longest has 81 lines, so only a filing that never breaks a
# long stretch (or a table of thousands of rows) is cut; it also bounds the work per page downstream.
MAX_PAGE_LINES = 200

_WS = re.compile(r"\s+")


# ------------------------------------------------------------------------------ blocks
@dataclass
class HtmlCell:
    parts: list[str] = field(default_factory=list)
    colspan: int = 1
    facts: list[int] = field(default_factory=list)
    header: bool = False

    @property
    def text(self) -> str:
        return _WS.sub(" ", "".join(self.parts)).strip()


@dataclass
class Para:
    text: str
    facts: list[tuple[int, int, int]]  # fact index, start, end offsets in text


@dataclass
class Table:
    rows: list[list[HtmlCell]] = field(default_factory=list)
    cut: bool = False  # rows past the table's cell limit were skipped


@dataclass
class Break:
    hard: bool



def collapse(raw: str, marks: list[tuple[int, int, int]]) -> tuple[str, list[tuple[int, int, int]]]:
    """Whitespace runs to one space, ends stripped; fact offsets moved along (run by run: a
    paragraph can be megabytes long, so there is no table per character)."""
    text = _WS.sub(" ", raw).strip()
    if not marks:
        return text, []
    new = _collapsed_offsets(raw, sorted({p for _, s, e in marks for p in (s, len(raw) if e < 0 else e)}))
    mapped = []
    for index, start, end in marks:
        s, e = new[start], new[len(raw) if end < 0 else end]
        while s < e and s < len(text) and text[s] == " ":
            s += 1
        e = min(e, len(text))
        if s < e:
            mapped.append((index, s, e))
    return text, mapped


def _collapsed_offsets(raw: str, offsets: list[int]) -> dict[int, int]:
    """Where each offset of ``raw`` (ascending) falls once its whitespace runs are one space each and
    a leading run is gone: every run that starts before it took all its characters but one (all of
    a leading run) with it."""
    new: dict[int, int] = {}
    removed = 0
    runs = _WS.finditer(raw)
    run = next(runs, None)
    for p in offsets:
        while run is not None and run.end() <= p:
            removed += run.end() - run.start() - (run.start() > 0)
            run = next(runs, None)
        inside = p - run.start() - (run.start() > 0) if run is not None and run.start() < p else 0
        new[p] = p - removed - inside
    return new


# ------------------------------------------------------------------------------------- layout
class _PageBuilder:
    def __init__(self) -> None:
        self.pages: list[Page] = []
        self.lines: list[Line] = []
        self.located: dict[int, tuple[int, tuple[float, float, float, float]]] = {}
        self.pending: dict[int, tuple[float, float, float, float]] = {}

    @property
    def y(self) -> float:
        return MARGIN + len(self.lines) * LINE_HEIGHT

    def add(self, words: list[Word], facts: dict[int, tuple[float, float, float, float]] | None = None,
            is_table: bool | None = None, sep: list[str] | None = None) -> None:
        if not words:
            return
        if sep is None:
            text = " ".join(w.text for w in words)
        else:
            text = words[0].text + "".join(s + w.text for s, w in zip(sep, words[1:]))
        numeric = sum(1 for w in words if is_numeric_cell(w.text) and w.text not in {"-", "$"})
        bbox = (min(w.bbox[0] for w in words), min(w.bbox[1] for w in words),
                max(w.bbox[2] for w in words), max(w.bbox[3] for w in words))
        self.lines.append(Line(text=text, bbox=bbox, words=tuple(words),
                               is_table=numeric >= 2 if is_table is None else is_table))
        for index, box in (facts or {}).items():
            self.pending[index] = box

    def room(self, lines: int = 1) -> float:
        """The y of the next line, on a new page when ``lines`` more would run past ``MAX_PAGE_LINES``."""
        if self.lines and len(self.lines) + lines > MAX_PAGE_LINES:
            self.page_break()
        return self.y

    def page_break(self) -> None:
        if not self.lines:
            return
        number = len(self.pages) + 1
        width = max(PAGE_WIDTH, max(l.bbox[2] for l in self.lines) + MARGIN)
        height = max(PAGE_HEIGHT, self.y + MARGIN)
        self.pages.append(Page(number=number, width=width, height=height, lines=tuple(self.lines)))
        for index, box in self.pending.items():
            self.located[index] = (number, box)
        self.lines, self.pending = [], {}


def paginate(blocks: list, hard: bool) -> tuple[list[Page], dict[int, tuple[int, tuple]]]:
    builder = _PageBuilder()
    for block in blocks:
        if isinstance(block, Break):
            if block.hard or not hard:
                builder.page_break()
            continue
        if isinstance(block, Para):
            _lay_paragraph(builder, block)
        else:
            _lay_table(builder, block)
        if not hard and len(builder.lines) >= FALLBACK_PAGE_LINES:
            builder.page_break()
    builder.page_break()
    return builder.pages, builder.located


_HEADING_START = re.compile(r"(?:item|part)\s+(?:\d|[ivx]+\b)", re.I)


def wrap(text: str, width: int) -> list[tuple[int, str]]:
    """(offset, line) pieces of at most ``width`` characters, broken at spaces."""
    out = []
    start = 0
    n = len(text)
    while start < n:
        if n - start <= width:
            out.append((start, text[start:]))
            break
        cut = text.rfind(" ", start, start + width + 1)
        # "... see Item 1A. Risk Factors": a wrapped line must not begin like an Item heading
        while cut > start and _HEADING_START.match(text, cut + 1):
            cut = text.rfind(" ", start, cut)
        if cut <= start:
            cut = text.find(" ", start + width)
            if cut < 0:
                out.append((start, text[start:]))
                break
        out.append((start, text[start:cut]))
        start = cut + 1
    return out


def _lay_paragraph(builder: _PageBuilder, para: Para) -> None:
    for offset, piece in wrap(para.text, WRAP_CHARS):
        y0 = builder.room()
        words, pos = [], 0
        boxes: dict[int, tuple[float, float, float, float]] = {}
        for token in piece.split(" "):
            if token:
                x0 = MARGIN + pos * CHAR_WIDTH
                words.append(Word.model_construct(text=token, bbox=(x0, y0, x0 + len(token) * CHAR_WIDTH, y0 + FONT_HEIGHT)))
            pos += len(token) + 1
        for index, s, e in para.facts:
            lo, hi = max(s, offset), min(e, offset + len(piece))
            if lo < hi:
                x0 = MARGIN + (lo - offset) * CHAR_WIDTH
                box = (x0, y0, MARGIN + (hi - offset) * CHAR_WIDTH, y0 + FONT_HEIGHT)
                old = boxes.get(index)
                boxes[index] = box if old is None else (min(old[0], box[0]), old[1], max(old[2], box[2]), box[3])
        builder.add(words, boxes, is_table=False)  # prose, however many figures it quotes


# A figure cell: "1,234", "(1,234", "12.5", "—", "%"-suffixed; "$" and ")" come as cells of their own.
_FIGURE = re.compile(r"^\(?[-\u2212]?\d[\d,]*(\.\d+)?%?\)?%?$|^\(?\.\d+%?\)?$|^[\u2014\u2013\-]+$")
_CURRENCY = {"$", "€", "£", "¥", "US$", "C$", "A$"}
_SUFFIX = {")", "%", ")%", "%)", "pts", "bps"}


@dataclass
class _LogicalCell:
    text: str
    g0: int        # grid columns spanned [g0, g1)
    g1: int
    figure: bool
    facts: list[int]


def _row_cells(row: list[HtmlCell]) -> list[_LogicalCell]:
    cells: list[_LogicalCell] = []
    g = 0
    pending: list[str] = []
    pending_g0: int | None = None
    pending_facts: list[int] = []
    for cell in row:
        text = cell.text
        g0, g1 = g, g + cell.colspan
        g = g1
        if not text:
            continue
        if text in _CURRENCY or text == "(" or text in ("$(", "($"):
            pending.append(text)
            pending_g0 = g0 if pending_g0 is None else pending_g0
            pending_facts.extend(cell.facts)
            continue
        if text in _SUFFIX and cells and cells[-1].figure and not pending:
            cells[-1].text += text
            cells[-1].facts.extend(cell.facts)
            continue
        figure = bool(_FIGURE.match(text.replace(" ", ""))) or bool(
            re.match(r"^(\$|€|£)\s?\(?[\d.,]+\)?%?$", text))
        if pending:
            prefix = ""
            for p in pending:
                prefix += p + ("" if p in ("(", "$(", "($") else " ")
            text = (prefix + text).replace("$ (", "$(") if figure else " ".join(pending + [text])
            pending = []
            pending_g0 = None
        cells.append(_LogicalCell(text=text, g0=g0, g1=g1, figure=figure, facts=cell.facts + pending_facts))
        pending_facts = []
    if pending:
        cells.append(_LogicalCell(text=" ".join(pending), g0=pending_g0 or 0, g1=g, figure=False, facts=[]))
    return cells


def _lay_table(builder: _PageBuilder, table: Table) -> None:
    rows = [cells for cells in (_row_cells(r) for r in table.rows) if cells]
    if not rows:
        return
    grid = max(c.g1 for r in rows for c in r)
    figure_cols = {c.g0 for r in rows for c in r if c.figure and c.g0 > 0}
    numeric_table = len(figure_cols) >= 1 and sum(any(c.figure for c in r) for r in rows) >= 2
    cap = LABEL_CHARS if numeric_table else CELL_CHARS
    widths = [0] * grid
    # single-column cells first, then spanning ones take what they still need from their last column
    for span_pass in (False, True):
        for r in rows:
            for c in r:
                if (c.g1 - c.g0 > 1) != span_pass:
                    continue
                need = min(len(c.text), cap if c.g0 == 0 or not c.figure else len(c.text)) + CELL_GAP
                have = sum(widths[c.g0:c.g1])
                if need > have:
                    widths[c.g1 - 1] += need - have
    left = [0] * (grid + 1)
    for g in range(grid):
        left[g + 1] = left[g] + widths[g]
    for r in rows:
        _lay_row(builder, r, left, cap)


def _lay_row(builder: _PageBuilder, row: list[_LogicalCell], left: list[int], cap: int) -> None:
    # each cell -> wrapped pieces placed in its column span; figures on the row's last line
    placed: list[tuple[list[tuple[int, str]], _LogicalCell]] = []
    height = 1
    for c in row:
        span = max(1, left[c.g1] - left[c.g0] - CELL_GAP)
        if c.figure:
            start = left[c.g1] - CELL_GAP - len(c.text)  # right-aligned in its column
            pieces = [(start, c.text)]
        else:
            width = min(span, cap) if c.g0 == 0 else max(span, 1)
            wrapped = [p for _, p in wrap(c.text, max(width, 8))]
            if c.g0 == 0:
                pieces = [(left[c.g0], p) for p in wrapped]
            else:  # headers and text in figure columns: centred over the span
                pieces = [(left[c.g0] + max(0, (span - len(p)) // 2), p) for p in wrapped]
        placed.append((pieces, c))
        height = max(height, len(pieces))
    lines: list[list[tuple[int, str, int | None]]] = [[] for _ in range(height)]
    has_figures = any(c.figure for c in row)
    for pieces, c in placed:
        # a wrapped label ends on the line with its figures, as statements print it
        first = height - len(pieces) if c.figure or (c.g0 == 0 and has_figures) else 0
        for k, (start, piece) in enumerate(pieces):
            pos = start
            for t, token in enumerate(piece.split(" ")):
                if token:
                    lines[first + k].append((pos, token, id(c) if t == 0 else None))
                pos += len(token) + 1
    builder.room(height)  # a row's lines stay on one page
    facts_by_line: list[dict[int, tuple]] = [{} for _ in range(height)]
    for k, entries in enumerate(lines):
        if not entries:
            continue
        entries.sort(key=lambda e: e[0])
        y0 = builder.y
        words: list[Word] = []
        sep: list[str] = []
        owner: list[_LogicalCell | None] = []
        cell_of = {id(c): c for c in row}
        current: _LogicalCell | None = None
        for pos, token, starts in entries:
            x0 = MARGIN + pos * CHAR_WIDTH
            w = Word.model_construct(text=token, bbox=(x0, y0, x0 + len(token) * CHAR_WIDTH, y0 + FONT_HEIGHT))
            if starts is not None:
                current = cell_of[starts]
            if words:
                sep.append("  " if starts is not None else " ")
            words.append(w)
            owner.append(current)
        for c in row:
            mine = [w for w, o in zip(words, owner) if o is c]
            if mine and c.facts and c.figure:
                body = [w for w in mine if w.text not in _CURRENCY] or mine
                box = (body[0].bbox[0], y0, body[-1].bbox[2], y0 + FONT_HEIGHT)
                for index in c.facts:
                    facts_by_line[k][index] = box
        builder.add(words, facts_by_line[k], is_table=None, sep=sep)



# ------------------------------------------------------------------------------ counting pages
@dataclass
class PageCount:
    """The pages :func:`paginate` makes, counted from the blocks' sizes alone while they are read.

    It cuts where the builder cuts: at a break, before a line past ``MAX_PAGE_LINES`` and, when
    ``fallback`` (a filing without break styles), after a block that brings a page to
    ``FALLBACK_PAGE_LINES``. A table row counts one line however its label wraps, so the count is
    never more than the pages made: a refusal on it is never wrong.
    """

    fallback: bool
    done: int = 0
    lines: int = 0

    @property
    def pages(self) -> int:
        return self.done + (1 if self.lines else 0)

    def block(self, lines: int) -> None:
        while lines:
            if self.lines >= MAX_PAGE_LINES:
                self.cut()
            step = min(lines, MAX_PAGE_LINES - self.lines)
            self.lines += step
            lines -= step
        if self.fallback and self.lines >= FALLBACK_PAGE_LINES:
            self.cut()

    def cut(self) -> None:
        if self.lines:
            self.done += 1
            self.lines = 0


def block_lines(block: Para | Table) -> int:
    """The lines a paragraph wraps into, or a table's rows that print anything (one line each at least)."""
    if isinstance(block, Para):
        return len(wrap(block.text, WRAP_CHARS))
    return sum(1 for row in block.rows if any(p.strip() for c in row for p in c.parts))
