"""EDGAR HTML (inline XBRL) -> the same Pages the PDF parser produces, plus the filing's tagged facts.

A filing's HTML is read as a stream of start / end / text events (lxml's parser driving a
target, so no tree is built and a 40 MB file costs little memory; benchmarks/html_parsers.py
measured lxml, selectolax and BeautifulSoup, see docs/html.md). Nothing is fetched or run:
scripts, styles and the document head are skipped, entities are not resolved, the network is off.

Layout (html_layout): pages end where the filing breaks them, prose is wrapped, a table row is one
Line with its figures right-aligned in columns, at synthetic but stable PDF-like coordinates.

Bounds. A file over ``Settings.max_html_mb`` is refused before it is read; a table is read up to
``max_table_cells`` cells and the filing up to ``max_html_cells`` cells, facts and contexts (what
is skipped is said in a warning naming the setting); the page limit is applied while reading, on
the pages the layout will make, so a filing of thousands of pages stops early, never laid out.

Facts. Every ``ix:nonFraction`` becomes a :class:`docqa.ingest.ixbrl.Fact` with its context
(period, dimensions), unit, decimals, scale, sign and where it is printed (page, box). The
``dei:`` cover facts give the document's metadata exactly (:func:`cover_meta`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from lxml import etree

from docqa.finance.periods import FiscalCalendar
from docqa.finance.tables import StatementTable
from docqa.ingest.html_facts import annotate_tables
from docqa.ingest.html_layout import (CHAR_WIDTH, FONT_HEIGHT, LINE_HEIGHT, MARGIN, Break, HtmlCell, PageCount, Para,
                                      Table, block_lines, collapse, paginate)
from docqa.ingest.ixbrl import Context, Fact, apply_cover, cover_meta, make_fact, unit_name
from docqa.ingest.parse import ParseError, drop_running_lines
from docqa.limits import HtmlLimits
from docqa.types import DocumentMeta, Page

__all__ = ["CHAR_WIDTH", "FONT_HEIGHT", "HTML_SUFFIXES", "LINE_HEIGHT", "MARGIN", "ParsedHtml", "annotate_tables",
           "cover_over", "is_html", "parse_html", "tables_with_facts"]

READ_BLOCK = 1 << 20          # bytes fed to the parser at a time
HTML_SUFFIXES = (".htm", ".html", ".xhtml")

_SKIP = {"script", "style", "head", "title", "noscript", "template", "object", "embed", "iframe", "svg",
         "math", "applet", "frameset", "select", "option", "button", "audio", "video", "canvas"}
_BLOCK = {"p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "section",
          "article", "center", "pre", "dl", "dt", "dd", "header", "footer", "nav", "aside", "main", "form",
          "address", "figure", "figcaption", "caption", "hr", "body", "html"}
_BREAK_BEFORE = re.compile(r"(?:page-)?break-before\s*:\s*(?:always|page|left|right)", re.I)
_BREAK_AFTER = re.compile(r"(?:page-)?break-after\s*:\s*(?:always|page|left|right)", re.I)
_HIDDEN = re.compile(r"display\s*:\s*none", re.I)
_WS = re.compile(r"\s+")
_NS_PREFIX = {
    "http://www.xbrl.org/2013/inlinexbrl": "ix",
    "http://www.xbrl.org/2003/instance": "xbrli",
    "http://xbrl.org/2006/xbrldi": "xbrldi",
    "http://www.w3.org/1999/xhtml": "",
}
_FILING_WORDS = re.compile(
    r"securities\s+and\s+exchange\s+commission|\bform\s+(?:10-k|10-q|8-k|20-f|40-f|6-k)\b|"
    r"\bannual\s+report\s+pursuant\s+to\s+section|\bquarterly\s+report\s+pursuant\s+to\s+section", re.I)
_EDGAR_INDEX = re.compile(r"document\s+format\s+files|filing\s+detail|data\s+files", re.I)


@dataclass
class ParsedHtml:
    """What :func:`parse_html` read: Pages as the PDF parser makes them, the cover metadata and the facts."""

    pages: list[Page]
    meta: DocumentMeta
    facts: list[Fact] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    contexts: dict[str, Context] = field(default_factory=dict)

    ocr_pages: int = 0       # the same face as ParsedPdf
    no_text_pages: int = 0

    def facts_on(self, page: int) -> list[Fact]:
        return [f for f in self.facts if f.page == page]

    @property
    def calendar(self) -> FiscalCalendar | None:
        """How the filing names its fiscal years, from its cover (None when the cover does not say)."""
        if not self.meta.period_end:
            return None
        try:
            return FiscalCalendar.from_period_end(self.meta.period_end, self.meta.fiscal_year, self.meta.fiscal_quarter)
        except ValueError:
            return None


def is_html(path: str | Path) -> bool:
    return Path(path).suffix.lower() in HTML_SUFFIXES


def cover_over(detected: DocumentMeta, parsed: object) -> DocumentMeta:
    """For an HTML filing, the ``dei:`` cover's metadata over what text detection found; else ``detected``."""
    return apply_cover(detected, parsed.meta) if isinstance(parsed, ParsedHtml) else detected


def tables_with_facts(tables: list[StatementTable], parsed: object, page: int) -> list[StatementTable]:
    """For an HTML filing, the page's tables with the tagged facts on their cells and each column's
    period as its facts state it (html_facts); else unchanged."""
    if not isinstance(parsed, ParsedHtml):
        return tables
    return annotate_tables(tables, parsed.facts_on(page), parsed.calendar)



class _Stop(Exception):
    """Raised inside the parser to stop reading: the filing's cell budget is spent."""


class _TooManyPages(Exception):
    """Raised inside the parser when the pages read so far pass the page limit."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


class _Reader:
    """An lxml parser target: start(tag, attrib) / end(tag) / data(text) in document order.

    Bounded: a table keeps at most ``limits.max_table_cells`` cells (the rest of it is skipped),
    the filing at most ``limits.max_cells`` cells, facts and contexts (reading stops there), and
    reading stops as soon as the pages to be laid out pass ``limits.max_pages``.
    """

    def __init__(self, limits: HtmlLimits) -> None:
        self.limits = limits
        self.blocks: list[Para | Table | Break] = []
        self.stack: list[tuple[str, bool, bool, bool]] = []  # tag, skip, hidden, break-after
        self.skip = 0
        self.hidden = 0
        self.parts: list[str] = []               # the paragraph being read
        self.parts_len = 0
        self.part_facts: list[tuple[int, int, int]] = []
        self.table_depth = 0
        self.table: Table | None = None
        self.cell: HtmlCell | None = None
        self.facts: list[Fact] = []
        self.open_facts: list[tuple[int, dict, list[str]]] = []  # nonFraction being read
        self.cover: dict[str, list[str]] = {}    # dei concept -> printed values
        self.cover_ctx: dict[str, str] = {}
        self.open_cover: list[tuple[str, dict, list[str]]] = []
        self.contexts: dict[str, Context] = {}
        self.units: dict[str, str] = {}
        self._ctx: dict | None = None
        self._unit: dict | None = None
        self._text: list[str] | None = None      # text of an xbrli element being read
        self.hard_breaks = 0
        self.chars = 0                           # visible characters read
        # pages as the layout will cut them, whichever way the filing turns out to break its pages
        self.hard_pages = PageCount(fallback=False)
        self.soft_pages = PageCount(fallback=True)
        self.items = 0                           # cells, facts and contexts kept: the filing's budget
        self.table_cells = 0                     # cells kept of the table being read
        self.cut_tables: list[str] = []          # the first words of each table cut at the cell limit
        self.stopped_at: int | None = None       # bytes read when the filing's budget ran out

    # --- tags --------------------------------------------------------------------------
    _names: dict[str, tuple[str, str]] = {}

    @classmethod
    def _name(cls, tag) -> tuple[str, str]:
        if not isinstance(tag, str):
            return "", "#other"  # comments, processing instructions
        known = cls._names.get(tag)
        if known is None:
            known = cls._names[tag] = cls._split_name(tag)
        return known

    @staticmethod
    def _split_name(tag: str) -> tuple[str, str]:
        if tag.startswith("{"):
            uri, local = tag[1:].split("}", 1)
            return _NS_PREFIX.get(uri.lower(), uri), local.lower()
        if ":" in tag:
            prefix, local = tag.split(":", 1)
            return prefix.lower(), local.lower()
        return "", tag.lower()

    def start(self, tag, attrib) -> None:
        prefix, local = self._name(tag)
        attrs = {k.split("}")[-1].lower(): v for k, v in attrib.items()}
        style = attrs.get("style", "")
        skip = not prefix and local in _SKIP
        hidden = bool(style) and "none" in style and bool(_HIDDEN.search(style))
        breaks = bool(style) and "break" in style
        after = breaks and bool(_BREAK_AFTER.search(style))
        if breaks and _BREAK_BEFORE.search(style) and not self.skip:
            self._break(True)
        self.stack.append((tag, skip, hidden, after))
        self.skip += skip
        self.hidden += hidden
        if prefix == "ix":
            self._ix_start(local, attrs)
        elif prefix in ("xbrli", "xbrldi"):
            self._xbrli_start(local, attrs)
        elif not prefix and not self.skip:
            self._html_start(local, attrs)

    def end(self, tag) -> None:
        prefix, local = self._name(tag)
        # tolerate the HTML parser's implied end tags: pop to the matching start
        after = False
        while self.stack:
            opened, skip, hidden, breaks = self.stack.pop()
            self.skip -= skip
            self.hidden -= hidden
            if opened == tag:
                after = breaks
                break
        if prefix == "ix":
            self._ix_end(local)
        elif prefix in ("xbrli", "xbrldi"):
            self._xbrli_end(local)
        elif not prefix and not self.skip:
            self._html_end(local)
        if after and not self.skip:
            self._break(True)

    def data(self, text: str) -> None:
        if self._text is not None:
            self._text.append(text)
        for _, _, buf in self.open_facts:
            buf.append(text)
        for _, _, buf in self.open_cover:
            buf.append(text)
        if self.skip or self.hidden:
            return
        self.chars += len(text)
        if self.cell is not None:
            self.cell.parts.append(text)
        elif self.table is None:
            self.parts.append(text)
            self.parts_len += len(text)

    def comment(self, text: str) -> None:  # comments are not text
        return None

    def pi(self, target: str, data: str | None = None) -> None:
        return None

    def doctype(self, *args) -> None:
        return None

    def close(self) -> None:
        self._flush()
        if self.table is not None:
            table, self.table = self.table, None
            self._emit(table)

    # --- blocks, counted as the layout will page them -------------------------------------
    def _emit(self, block: Para | Table | Break) -> None:
        self.blocks.append(block)
        if isinstance(block, Break):
            self.soft_pages.cut()
            if block.hard:
                self.hard_pages.cut()
        else:
            lines = block_lines(block)
            self.hard_pages.block(lines)
            self.soft_pages.block(lines)
        # Which count applies is known at the end (break styles anywhere make the rules no breaks);
        # until a break style is read, the pages of what was read are those of the rules and lines.
        pages = (self.hard_pages if self.hard_breaks else self.soft_pages).pages
        if pages > self.limits.max_pages:
            raise _TooManyPages(self.limits.max_pages)

    # --- html ----------------------------------------------------------------------------
    def _html_start(self, local: str, attrs: dict) -> None:
        if local == "table":
            self.table_depth += 1
            if self.table_depth == 1:
                self._flush()
                self.table = Table()
                self.table_cells = 0
            return
        if self.table is not None and self.table_depth == 1:
            if local in ("tr", "td", "th") and not self._room_in_table():
                self.cell = None  # past the table's cell limit: the rest of the table is skipped
            elif local == "tr":
                self.table.rows.append([])
                self.cell = None
            elif local in ("td", "th"):
                self._start_cell(local, attrs)
            elif local in _BLOCK and self.cell is not None:
                self.cell.parts.append(" ")
            return
        if self.table is not None:  # a table inside a table: its cells are text of the outer cell
            if self.cell is not None and local in ("td", "th", "tr", "br", "p", "div"):
                self.cell.parts.append(" ")
            return
        if local == "hr":
            self._flush()
            self._emit(Break(hard=False))
        elif local in _BLOCK:
            self._flush()

    def _start_cell(self, local: str, attrs: dict) -> None:
        if not self.table.rows:
            self.table.rows.append([])
        try:
            span = max(1, min(50, int(attrs.get("colspan", "1") or 1)))
        except ValueError:
            span = 1
        self.cell = HtmlCell(colspan=span, header=local == "th")
        self.table.rows[-1].append(self.cell)
        self.table_cells += 1
        self._spend()

    def _room_in_table(self) -> bool:
        if self.table_cells < self.limits.max_table_cells:
            return True
        if not self.table.cut:
            self.table.cut = True
            first = next((c.text for row in self.table.rows for c in row if c.text), "")
            self.cut_tables.append(first[:40])
        return False

    def _spend(self) -> None:
        """One more cell, fact or context kept: reading stops once the filing's budget is spent."""
        self.items += 1
        if self.items > self.limits.max_cells:
            raise _Stop()

    def _html_end(self, local: str) -> None:
        if local == "table":
            self.table_depth = max(0, self.table_depth - 1)
            if self.table_depth == 0 and self.table is not None:
                table, self.table = self.table, None
                self.cell = None
                self._emit(table)
            return
        if self.table is not None:
            if self.table_depth == 1 and local in ("td", "th"):
                self.cell = None
            elif self.cell is not None and local in _BLOCK:
                self.cell.parts.append(" ")
            return
        if local in _BLOCK:
            self._flush()

    def _break(self, hard: bool) -> None:
        if self.table is not None:
            return  # a break inside a table is ignored: its rows go on to a new page only when one is full
        self._flush()
        self.hard_breaks += hard
        self._emit(Break(hard=hard))

    def _flush(self) -> None:
        if not self.parts:
            self.part_facts = [m for m in self.part_facts if m[2] < 0]  # still open: its text comes next
            return
        raw = "".join(self.parts)
        self.parts, self.parts_len = [], 0
        marks = self.part_facts
        self.part_facts = []
        text, mapped = collapse(raw, marks)
        if text:
            self._emit(Para(text=text, facts=mapped))

    # --- inline XBRL ---------------------------------------------------------------------
    def _ix_start(self, local: str, attrs: dict) -> None:
        if local == "nonfraction":
            self._spend()
            index = len(self.facts) + len(self.open_facts)
            self.open_facts.append((index, attrs, []))
            if not self.skip and not self.hidden:
                if self.cell is not None:
                    self.cell.facts.append(index)
                elif self.table is None:
                    self.part_facts.append((index, self.parts_len, -1))
        elif local == "nonnumeric" and attrs.get("name", "").startswith("dei:"):
            self.open_cover.append((attrs["name"], attrs, []))

    def _ix_end(self, local: str) -> None:
        if local == "nonfraction" and self.open_facts:
            index, attrs, buf = self.open_facts.pop()
            text = _WS.sub(" ", "".join(buf)).strip()
            self.facts.append(_make_fact(index, attrs, text))
            if self.table is None and self.cell is None:
                for k, (i, start, end) in enumerate(self.part_facts):
                    if i == index and end < 0:
                        self.part_facts[k] = (i, start, self.parts_len)
        elif local == "nonnumeric" and self.open_cover:
            name, attrs, buf = self.open_cover.pop()
            value = _WS.sub(" ", "".join(buf).replace("\xa0", " ")).strip()
            self.cover.setdefault(name, []).append(value)
            self.cover_ctx.setdefault(name, attrs.get("contextref", ""))

    def _xbrli_start(self, local: str, attrs: dict) -> None:
        if local == "context":
            self._ctx = {"id": attrs.get("id", ""), "dims": []}
        elif local == "unit":
            self._unit = {"id": attrs.get("id", ""), "num": [], "den": [], "side": "num"}
        elif local == "unitdenominator" and self._unit is not None:
            self._unit["side"] = "den"
        elif local == "unitnumerator" and self._unit is not None:
            self._unit["side"] = "num"
        if local in ("startdate", "enddate", "instant", "explicitmember", "typedmember", "measure", "identifier"):
            self._text = []
            if self._ctx is not None and local in ("explicitmember", "typedmember"):
                self._ctx["dim"] = attrs.get("dimension", "")

    def _xbrli_end(self, local: str) -> None:
        text = "".join(self._text or []).strip() if self._text is not None else None
        if local in ("startdate", "enddate", "instant", "explicitmember", "typedmember", "measure", "identifier"):
            self._text = None
        if self._ctx is not None:
            if local in ("startdate", "enddate", "instant"):
                self._ctx[local] = text
            elif local in ("explicitmember", "typedmember"):
                self._ctx["dims"].append((self._ctx.pop("dim", ""), text or ""))
            elif local == "context":
                self._spend()
                c = self._ctx
                self.contexts[c["id"]] = Context(
                    id=c["id"], start=c.get("startdate"), end=c.get("enddate") or c.get("instant"),
                    instant="instant" in c, dimensions=tuple(c["dims"]))
                self._ctx = None
        if self._unit is not None:
            if local == "measure" and text:
                self._unit[self._unit["side"]].append(text)
            elif local == "unit":
                u = self._unit
                self.units[u["id"]] = unit_name(u["num"], u["den"])
                self._unit = None


def _make_fact(index: int, attrs: dict, text: str) -> Fact:
    return make_fact(index, attrs, text)  # the rules, and what a filing cannot print, are in ixbrl


# ------------------------------------------------------------------------------------ parsing
def _sniff(path: Path) -> bytes:
    try:
        with path.open("rb") as fh:
            head = fh.read(65536)
    except OSError as exc:
        raise ParseError(f"cannot read file: {exc.strerror or exc}") from exc
    if not head.strip():
        raise ParseError("empty file (0 bytes)")
    if head.startswith(b"%PDF"):
        raise ParseError("a PDF with an HTML name; rename it to .pdf")
    lower = head.lower()
    if b"<" not in head or not any(t in lower for t in (b"<html", b"<body", b"<div", b"<p", b"<table", b"<?xml")):
        raise ParseError("not HTML (no HTML tags in the first 64 KB); add the filing's .htm primary document")
    return head


def _read(path: Path, xml: bool, limits: HtmlLimits) -> _Reader:
    reader = _Reader(limits)
    if xml:
        parser = etree.XMLParser(target=reader, huge_tree=True, resolve_entities=False, no_network=True,
                                 load_dtd=False, recover=False)
    else:
        parser = etree.HTMLParser(target=reader, huge_tree=True, no_network=True, recover=True)
    done = 0
    with path.open("rb") as fh:
        try:
            for block in iter(lambda: fh.read(READ_BLOCK), b""):
                done += len(block)
                parser.feed(block)
            parser.close()
        except _Stop:
            reader.close()  # what was read so far is the filing
            reader.stopped_at = done
        except _TooManyPages as exc:
            raise ParseError(f"more than {exc.limit:,} pages in the first {_share(done, path)} of the file, over "
                             f"the limit of {exc.limit:,}; raise DOCQA_MAX_PAGES to index it") from None
    return reader


def _share(done: int, path: Path) -> str:
    return f"{min(100, max(1, round(100 * done / max(1, path.stat().st_size))))}%"


def _check_size(path: Path, limits: HtmlLimits) -> None:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ParseError(f"cannot read file: {exc.strerror or exc}") from exc
    if size > limits.max_bytes:
        raise ParseError(f"an HTML file of {size / 2**20:,.1f} MB, over the limit of {limits.max_bytes / 2**20:,.0f} MB "
                         "for one HTML filing; raise DOCQA_MAX_HTML_MB to read it")


def _bound_warnings(reader: _Reader, path: Path) -> list[str]:
    """What the cell limits left out, each with the setting that reads it whole."""
    out = []
    if reader.cut_tables:
        n, limit = len(reader.cut_tables), reader.limits.max_table_cells
        first = f" (the first begins {reader.cut_tables[0]!r})" if reader.cut_tables[0] else ""
        out.append(f"{n} table{'s' if n > 1 else ''} of more than {limit:,} cells read up to {limit:,} cells, "
                   f"the rest skipped{first}; raise DOCQA_MAX_TABLE_CELLS to read them whole")
    if reader.stopped_at is not None:
        out.append(f"more than {reader.limits.max_cells:,} table cells, tagged facts and contexts: the filing is "
                   f"read up to there ({_share(reader.stopped_at, path)} of the file), the rest is not indexed; "
                   "raise DOCQA_MAX_HTML_CELLS to read it whole")
    return out


def parse_html(path: str | Path, progress: Callable[[int, int], None] | None = None,
               limits: HtmlLimits | None = None) -> ParsedHtml:
    """Read an EDGAR primary document (.htm/.html, inline XBRL or plain) into Pages, cover metadata and facts.

    Raises ParseError with a reason for what is not a filing: not HTML, no text, a web page or an
    EDGAR index page without a filing's cover; and for a file over ``limits`` (default: the
    settings' max_html_mb and max_pages) as soon as that is known. What the cell limits skip is
    said in the warnings.
    """
    path = Path(path)
    limits = limits or HtmlLimits.from_settings()
    _check_size(path, limits)
    head = _sniff(path)
    warnings: list[str] = []
    xhtml = head.lstrip().startswith(b"<?xml") or b'xmlns="http://www.w3.org/1999/xhtml"' in head
    reader = None
    if xhtml:
        try:
            reader = _read(path, xml=True, limits=limits)
        except etree.XMLSyntaxError as exc:
            warnings.append(f"not well-formed XHTML ({exc.msg if hasattr(exc, 'msg') else exc}); read as HTML")
    if reader is None:
        try:
            reader = _read(path, xml=False, limits=limits)
        except (etree.ParserError, etree.XMLSyntaxError) as exc:
            raise ParseError(f"HTML that cannot be read ({exc})") from exc
    warnings += _bound_warnings(reader, path)
    if progress:
        progress(0, 1)
    if reader.chars == 0 and not any(isinstance(b, (Para, Table)) for b in reader.blocks):
        raise ParseError("no text in the HTML (nothing outside scripts, styles and hidden elements)")

    facts = [f for f in sorted(reader.facts, key=lambda f: f.index)]
    missing = 0
    for k, f in enumerate(facts):
        ctx = reader.contexts.get(f.context)
        if ctx is None:
            missing += 1
        facts[k] = f.model_copy(update={
            "unit": reader.units.get(f.unit_ref or "", f.unit_ref),
            "start": ctx.start if ctx else None, "end": ctx.end if ctx else None,
            "instant": ctx.instant if ctx else False, "dimensions": ctx.dimensions if ctx else ()})
    if missing:
        warnings.append(f"{missing} of {len(facts)} tagged facts refer to a context the filing does not define "
                        "(their periods are unknown)")

    pages, located = paginate(reader.blocks, reader.hard_breaks > 0)
    pages = drop_running_lines(pages)
    for k, f in enumerate(facts):
        where = located.get(f.index)
        if where:
            facts[k] = f.model_copy(update={"page": where[0], "bbox": where[1]})

    meta = cover_meta(reader.cover, reader.contexts, reader.cover_ctx, facts)
    if meta.company is None and meta.doc_type is None:
        text = "\n".join(p.text for p in pages[:5])
        if not _FILING_WORDS.search(text):
            if _EDGAR_INDEX.search(text):
                raise ParseError("an EDGAR filing index page, not a filing; add the primary document it lists (.htm)")
            raise ParseError("not an SEC filing: no inline XBRL cover (dei:) facts and no filing cover "
                             "(\"Securities and Exchange Commission\", \"Form 10-K\") on its first pages")
        warnings.append("no inline XBRL cover (dei:) facts: company, form and period read from the text")
    if progress:
        progress(1, 1)
    return ParsedHtml(pages=pages, meta=meta, facts=facts, warnings=warnings, contexts=reader.contexts)

