"""EDGAR HTML (inline XBRL) -> the same Pages the PDF parser produces, plus the filing's tagged facts.

A filing's HTML is read as a stream of start / end / text events (lxml's parser driving a
target, so no tree is built and a 40 MB file costs little memory; benchmarks/html_parsers.py
measured lxml, selectolax and BeautifulSoup, see docs/html.md). Nothing is fetched or run:
scripts, styles and the document head are skipped, entities are not resolved, the network is off.

Layout. HTML has no coordinates, so each Page gets synthetic but stable ones that make it look
like a PDF page to everything downstream (chunker, statement reader, quotes):

* pages end where the filing breaks them (``page-break-before/after`` and ``break-before/after``
  styles; ``<hr>`` rules only when the filing has no break styles at all); a filing without
  either is cut every ``FALLBACK_PAGE_LINES`` lines;
* prose is wrapped at ``WRAP_CHARS`` characters; line ``i`` sits at ``y = MARGIN + i * LINE_HEIGHT``;
  a word's x is its character offset times ``CHAR_WIDTH``;
* a table row is one Line: the label, then the figures right-aligned in columns laid out from
  the table's own grid (``colspan`` respected), cells separated by two spaces. EDGAR prints
  ``$``, ``(`` and ``)`` in cells of their own: ``$`` joins its figure as a separate word
  (``$ 1,234``), ``(`` and ``)`` are glued to it (``(1,234)``) as the PDF rows print them. A label
  longer than its column wraps, its last part on the line with the figures.

Facts. Every ``ix:nonFraction`` becomes a :class:`docqa.ingest.ixbrl.Fact` with its context
(period, dimensions), unit, decimals, scale, sign and where it is printed (page, box). The
``dei:`` cover facts give the document's metadata exactly (:func:`cover_meta`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from lxml import etree

from docqa.ingest.ixbrl import Context, Fact, apply_cover, cover_meta, make_fact, unit_name
from docqa.ingest.parse import ParseError, drop_running_lines, is_numeric_cell
from docqa.types import DocumentMeta, Line, Page, Word

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


def is_html(path: str | Path) -> bool:
    return Path(path).suffix.lower() in HTML_SUFFIXES


def cover_over(detected: DocumentMeta, parsed: object) -> DocumentMeta:
    """For an HTML filing, the ``dei:`` cover's metadata over what text detection found; else ``detected``."""
    return apply_cover(detected, parsed.meta) if isinstance(parsed, ParsedHtml) else detected


def tables_with_facts(tables: list[dict], parsed: object, page: int) -> list[dict]:
    """For an HTML filing, the page's tables with the tagged facts on their cells; else unchanged."""
    return annotate_tables(tables, parsed.facts_on(page)) if isinstance(parsed, ParsedHtml) else tables


# ------------------------------------------------------------------------------ the event stream
@dataclass
class _Cell:
    parts: list[str] = field(default_factory=list)
    colspan: int = 1
    facts: list[int] = field(default_factory=list)
    header: bool = False

    @property
    def text(self) -> str:
        return _WS.sub(" ", "".join(self.parts)).strip()


@dataclass
class _Para:
    text: str
    facts: list[tuple[int, int, int]]  # fact index, start, end offsets in text


@dataclass
class _Table:
    rows: list[list[_Cell]] = field(default_factory=list)


@dataclass
class _Break:
    hard: bool


class _Reader:
    """An lxml parser target: start(tag, attrib) / end(tag) / data(text) in document order."""

    def __init__(self) -> None:
        self.blocks: list[_Para | _Table | _Break] = []
        self.stack: list[tuple[str, bool, bool, bool]] = []  # tag, skip, hidden, break-after
        self.skip = 0
        self.hidden = 0
        self.parts: list[str] = []               # the paragraph being read
        self.parts_len = 0
        self.part_facts: list[tuple[int, int, int]] = []
        self.table_depth = 0
        self.table: _Table | None = None
        self.cell: _Cell | None = None
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
            self.blocks.append(self.table)
            self.table = None

    # --- html ----------------------------------------------------------------------------
    def _html_start(self, local: str, attrs: dict) -> None:
        if local == "table":
            self.table_depth += 1
            if self.table_depth == 1:
                self._flush()
                self.table = _Table()
            return
        if self.table is not None and self.table_depth == 1:
            if local == "tr":
                self.table.rows.append([])
                self.cell = None
            elif local in ("td", "th"):
                if not self.table.rows:
                    self.table.rows.append([])
                try:
                    span = max(1, min(50, int(attrs.get("colspan", "1") or 1)))
                except ValueError:
                    span = 1
                self.cell = _Cell(colspan=span, header=local == "th")
                self.table.rows[-1].append(self.cell)
            elif local in _BLOCK and self.cell is not None:
                self.cell.parts.append(" ")
            return
        if self.table is not None:  # a table inside a table: its cells are text of the outer cell
            if self.cell is not None and local in ("td", "th", "tr", "br", "p", "div"):
                self.cell.parts.append(" ")
            return
        if local == "hr":
            self._flush()
            self.blocks.append(_Break(hard=False))
        elif local in _BLOCK:
            self._flush()

    def _html_end(self, local: str) -> None:
        if local == "table":
            self.table_depth = max(0, self.table_depth - 1)
            if self.table_depth == 0 and self.table is not None:
                self.blocks.append(self.table)
                self.table = None
                self.cell = None
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
            return  # a break inside a table is ignored: a table row never straddles pages here
        self._flush()
        self.hard_breaks += hard
        self.blocks.append(_Break(hard=hard))

    def _flush(self) -> None:
        if not self.parts:
            self.part_facts = [m for m in self.part_facts if m[2] < 0]  # still open: its text comes next
            return
        raw = "".join(self.parts)
        self.parts, self.parts_len = [], 0
        marks = self.part_facts
        self.part_facts = []
        text, mapped = _collapse(raw, marks)
        if text:
            self.blocks.append(_Para(text=text, facts=mapped))

    # --- inline XBRL ---------------------------------------------------------------------
    def _ix_start(self, local: str, attrs: dict) -> None:
        if local == "nonfraction":
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


def _collapse(raw: str, marks: list[tuple[int, int, int]]) -> tuple[str, list[tuple[int, int, int]]]:
    """Whitespace runs to one space, ends stripped; fact offsets moved along."""
    out: list[str] = []
    new_index = [0] * (len(raw) + 1)
    space = True  # leading whitespace is dropped
    n = 0
    for i, ch in enumerate(raw):
        new_index[i] = n
        if ch.isspace():
            if not space:
                out.append(" ")
                n += 1
                space = True
        else:
            out.append(ch)
            n += 1
            space = False
    new_index[len(raw)] = n
    text = "".join(out)
    stripped = text.rstrip()
    mapped = []
    for index, start, end in marks:
        end = len(raw) if end < 0 else end
        s, e = new_index[start], new_index[end]
        while s < e and s < len(text) and text[s] == " ":
            s += 1
        e = min(e, len(stripped))
        if s < e:
            mapped.append((index, s, e))
    return stripped, mapped


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


def _read(path: Path, xml: bool) -> _Reader:
    reader = _Reader()
    if xml:
        parser = etree.XMLParser(target=reader, huge_tree=True, resolve_entities=False, no_network=True,
                                 load_dtd=False, recover=False)
    else:
        parser = etree.HTMLParser(target=reader, huge_tree=True, no_network=True, recover=True)
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(READ_BLOCK), b""):
            parser.feed(block)
    parser.close()
    return reader


def parse_html(path: str | Path, progress: Callable[[int, int], None] | None = None) -> ParsedHtml:
    """Read an EDGAR primary document (.htm/.html, inline XBRL or plain) into Pages, cover metadata and facts.

    Raises ParseError with a reason for what is not a filing: not HTML, no text, a web page or an
    EDGAR index page without a filing's cover.
    """
    path = Path(path)
    head = _sniff(path)
    warnings: list[str] = []
    xhtml = head.lstrip().startswith(b"<?xml") or b'xmlns="http://www.w3.org/1999/xhtml"' in head
    reader = None
    if xhtml:
        try:
            reader = _read(path, xml=True)
        except etree.XMLSyntaxError as exc:
            warnings.append(f"not well-formed XHTML ({exc.msg if hasattr(exc, 'msg') else exc}); read as HTML")
    if reader is None:
        try:
            reader = _read(path, xml=False)
        except (etree.ParserError, etree.XMLSyntaxError) as exc:
            raise ParseError(f"HTML that cannot be read ({exc})") from exc
    if progress:
        progress(0, 1)
    if reader.chars == 0 and not any(isinstance(b, (_Para, _Table)) for b in reader.blocks):
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

    pages, located = _paginate(reader.blocks, reader.hard_breaks > 0)
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


def _paginate(blocks: list, hard: bool) -> tuple[list[Page], dict[int, tuple[int, tuple]]]:
    builder = _PageBuilder()
    for block in blocks:
        if isinstance(block, _Break):
            if block.hard or not hard:
                builder.page_break()
            continue
        if isinstance(block, _Para):
            _lay_paragraph(builder, block)
        else:
            _lay_table(builder, block)
        if not hard and len(builder.lines) >= FALLBACK_PAGE_LINES:
            builder.page_break()
    builder.page_break()
    return builder.pages, builder.located


_HEADING_START = re.compile(r"(?:item|part)\s+(?:\d|[ivx]+\b)", re.I)


def _wrap(text: str, width: int) -> list[tuple[int, str]]:
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


def _lay_paragraph(builder: _PageBuilder, para: _Para) -> None:
    for offset, piece in _wrap(para.text, WRAP_CHARS):
        y0 = builder.y
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


def _row_cells(row: list[_Cell]) -> list[_LogicalCell]:
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


def _lay_table(builder: _PageBuilder, table: _Table) -> None:
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
            wrapped = [p for _, p in _wrap(c.text, max(width, 8))]
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


# ------------------------------------------------------------------------------ facts on tables
def annotate_tables(tables: list[dict], facts: list[Fact]) -> list[dict]:
    """The statement reader's tables (as stored JSON) with each cell that prints a tagged fact
    carrying it: ``concept``, ``context`` and ``fact`` (value, unit, period, dimensions). Extra keys
    of a cell are ignored when the table is read back as a StatementTable, so readers that do not
    know facts are unaffected."""
    if not tables or not facts:
        return tables
    placed = [f for f in facts if f.bbox is not None]
    out = []
    for table in tables:
        rows = []
        for row in table.get("rows", []):
            cells = []
            for cell in row.get("cells", []):
                fact = _fact_at(cell, placed)
                if fact is not None:
                    cell = {**cell, "concept": fact.concept, "context": fact.context, "fact": _fact_json(fact)}
                cells.append(cell)
            rows.append({**row, "cells": cells})
        out.append({**table, "rows": rows})
    return out


def _fact_at(cell: dict, facts: list[Fact]) -> Fact | None:
    x0, y0, x1, y1 = cell["bbox"]
    best, best_overlap = None, 0.0
    for f in facts:
        fx0, fy0, fx1, fy1 = f.bbox
        if fy1 <= y0 or fy0 >= y1:
            continue
        overlap = min(x1, fx1) - max(x0, fx0)
        if overlap > best_overlap:
            best, best_overlap = f, overlap
    return best


def _fact_json(fact: Fact) -> dict:
    return {"value": fact.value, "unit": fact.unit, "decimals": fact.decimals, "scale": fact.scale,
            "start": fact.start, "end": fact.end, "instant": fact.instant,
            "dimensions": [list(d) for d in fact.dimensions], "id": fact.id}
