"""Read the tables on a page into line items x period columns.

A page's Lines are visual rows (label and figures on one Line, each word with its box). The
reader works from word positions, not from the text, because that is what survives all layouts:

1. Each line is split into a label and a trailing run of figure words ("$", "(1,577)", "—").
   A figure only counts when a real gap separates it from the words before it, so prose that
   happens to end in a number ("... compared to $1.5") is not a table row.
2. Header blocks are found: a line of period tokens (2018 / Fiscal 2023 / January 28, 2023 /
   Q4 2023) plus the header lines stacked above and below it ("Three Months Ended", "Amount").
   Each header block starts a table that runs to the next block.
3. Columns are clusters of the figures' right edges (filings right-align figures); each figure
   is assigned to the column its box overlaps, and each header group to the column(s) below it.
4. Label-only lines become a continuation of the next row's label or the heading (section) of
   the rows under it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from docqa.finance.cells import (
    is_affix,
    is_cell_word,
    is_dash,
    is_day,
    is_month,
    is_not_meaningful,
    is_number,
    is_numeric_date,
    is_short_period,
    is_year,
    parse_value,
)
from docqa.finance.lineitems import LineItemMatch, find_line_items
from docqa.finance.periods import parse_period
from docqa.finance.tables import Cell, Column, Row, RowKind, StatementTable, Unit
from docqa.finance.text import clean_label
from docqa.types import BBox, Line, Page, StatementKind, Word

__all__ = ["LineItemMatch", "find_line_items", "read_tables", "detect_statement", "detect_unit"]

MAX_HEADER_LINES_ABOVE = 4
MAX_TITLE_LINES = 6
CLUSTER_GAP = 6.0  # pt between right edges of figures in one column (")" and "%" stick out)

_HEADER_WORDS = re.compile(
    r"\b(ended|ending|months?|weeks?|years?|fiscal|quarters?|as of|at|unaudited|restated|actual|"
    r"amounts?|percent|change|increase|decrease|millions|thousands|billions|reported|total|"
    r"fy|ytd|q[1-4])\b|%"
)
_UNAUDITED = re.compile(r"\(?\s*unaudited\s*\)?", re.I)
_CONNECTOR_END = re.compile(r"(,|\b(and|of|for|to|in|the|from|on|or|by|with|at|net|less|including|excluding|before|after|per|due|related)|[\u2014\u2013\-&(])$", re.I)
_UNIT = re.compile(
    r"(?:\bin\b|\$|\(|dollars\s+in|amounts\s+in|figures\s+in)\s*(?:u\.?\s?s\.?\s*)?(?:dollars\s*)?"
    r"(millions|thousands|billions)\b|\b(millions|thousands|billions)\s+of\s+(?:u\.?\s?s\.?\s+)?dollars\b|"
    r"\(\s*\$?\s*(000)'?s?\s*\)|\bin\s+\$?(000)'?s\b|"
    r"\(\s*(?:in\s+)?(?:us\s*)?\$\s*(million|thousand|billion)\b|"   # Amcor's "($ million)"
    r"(?:\b[A-Z]{1,3}\$|\$|£|€|¥|\bRMB|\bHKD|\bUSD|\bAUD|\bGBP|\bEUR)\s*['’]\s*(000)(?!\d)",  # "HK$’000", "£'000", "RMB'000"
    re.I,
)
# "In 000s", "HK$'000", "(000's)": the table's unit set in its header line, not a figure in it.
_UNIT_WORD = re.compile(r"\(?(?:[A-Z]{0,3}\$)?['’]?000['’]?s?\)?,?", re.I)
_STATEMENT_TITLES: tuple[tuple[StatementKind, re.Pattern[str]], ...] = (
    # Matched on the title's letters only ("Consolidated Statement of Cash Flow s" -> "...cashflows").
    # MD&A headings ("Analysis of Financial Condition", "Cash Flows") must not count as statements.
    (StatementKind.COMPREHENSIVE, re.compile(r"statements?of(consolidated)?comprehensive(income|loss|earnings)|comprehensiveincomestatements?")),
    (StatementKind.CASH_FLOW, re.compile(r"statements?of(consolidated)?cashflows?|cashflows?statements?")),
    (StatementKind.BALANCE, re.compile(r"balancesheets?|statements?of(consolidated)?financial(position|condition)|statements?ofcondition")),
    (StatementKind.EQUITY, re.compile(r"statements?of(consolidated)?(changesin)?(shareholders|stockholders|shareowners)?(equity|deficit)|changesinequity")),
    # IFRS: "Statement of profit or loss and other comprehensive income" is the income statement.
    (StatementKind.INCOME, re.compile(r"statements?of(consolidated)?(operations|income|earnings)|incomestatements?|profitandloss|"
                                      r"statements?of(consolidated)?profitorloss")),
)


# ---------------------------------------------------------------------------------------- lines
@dataclass
class _RawCell:
    words: list[Word]
    numeric: bool  # a number (not a dash or "NM"): only these define where columns are

    @property
    def raw(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def bbox(self) -> BBox:
        body = [w for w in self.words if w.text != "$"] or self.words
        return (min(w.bbox[0] for w in body), min(w.bbox[1] for w in body),
                max(w.bbox[2] for w in body), max(w.bbox[3] for w in body))


@dataclass
class _Line:
    line: Line
    label_words: list[Word]
    cells: list[_RawCell]
    year_line: bool = False

    @property
    def is_data(self) -> bool:
        return any(c.numeric or is_dash(c.raw) or is_not_meaningful(c.raw) for c in self.cells)

    @property
    def label(self) -> str:
        return " ".join(w.text for w in self.label_words).strip()

    @property
    def x0(self) -> float:
        return (self.label_words or self.line.words or [Word(text="", bbox=self.line.bbox)])[0].bbox[0]


def _height(line: Line) -> float:
    return max(1.0, line.bbox[3] - line.bbox[1])


def _split(line: Line) -> _Line:
    """Separate a line's label from its trailing figures."""
    words = list(line.words)
    i = len(words)
    while i > 0 and is_cell_word(words[i - 1].text):
        i -= 1
    label, run = words[:i], words[i:]
    gap_needed = 0.8 * _height(line)
    # A figure glued to the words before it by a single space is prose ("to $1.5"), or part of
    # the label ("Level 3"): move it into the label and look at the next one.
    while run and label and run[0].bbox[0] - label[-1].bbox[2] < gap_needed and run[0].text != "$":
        label.append(run.pop(0))
    if run and label and run[0].text == "$" and run[0].bbox[0] - label[-1].bbox[2] < gap_needed * 0.5:
        label.append(run.pop(0))
    return _Line(line=line, label_words=label, cells=_cells(run))


def _cells(run: list[Word]) -> list[_RawCell]:
    cells: list[_RawCell] = []
    pending: list[Word] = []  # "$" or "(" waiting for their number
    for w in run:
        t = w.text
        if t in ("$", "("):
            pending.append(w)
        elif t in (")", "%", ")%", "%)", "*") and cells and not pending:
            cells[-1].words.append(w)
        elif is_number(t) or is_dash(t) or is_not_meaningful(t):
            numeric = is_number(t)
            cells.append(_RawCell(words=[*pending, w], numeric=numeric))
            pending = []
        elif is_affix(t):
            pending.append(w)
    return cells


# ------------------------------------------------------------------------------------- headers
def _groups(words: list[Word] | tuple[Word, ...], height: float) -> list[list[Word]]:
    """Runs of words separated by less than a cell gap: one header phrase each."""
    groups: list[list[Word]] = []
    for w in words:
        if groups and w.bbox[0] - groups[-1][-1].bbox[2] < 0.8 * height:
            groups[-1].append(w)
        else:
            groups.append([w])
    return groups


def _is_year_line(line: Line, page_width: float) -> bool:
    """A line of column periods: every number on it is a year, a day of a month, or "Q4"/"FY23"."""
    words = line.words
    if not words or len(words) > 30:
        return False
    has_period = False
    years = _years(w.text for w in words)
    for k, w in enumerate(words):
        if not any(map(str.isdigit, w.text)):
            continue  # no test below holds for a word without a digit: skip them (ingest runs this on every row)
        t = w.text.strip("()")
        if is_year(t) or (is_short_period(t) and any(ch.isdigit() for ch in t)) or is_numeric_date(w.text) \
                or footnoted_year(t, years):
            has_period = True
        elif is_day(t) and k > 0 and is_month(words[k - 1].text):
            continue
        elif any(ch.isdigit() for ch in t):
            return False
    if not has_period:
        return False
    groups = _groups(words, _height(line))
    with_period = [g for g in groups if any(is_year(w.text.strip("()")) or is_short_period(w.text) or is_numeric_date(w.text)
                                            for w in g)]
    return len(with_period) >= 2 or with_period[0][0].bbox[0] >= 0.45 * page_width


_FOOTNOTED_YEAR = re.compile(r"((?:19|20)\d\d)\d{1,2}")


def _years(texts) -> list[int]:
    return [int(m.group()) for t in texts if is_year(t) and (m := _A_YEAR.search(t))]


_A_YEAR = re.compile(r"(?:19|20)\d\d")


def footnoted_year(text: str, years: list[int]) -> str | None:
    """"20211" beside "2022": the year 2021 with its footnote mark glued on ("2021¹")."""
    m = _FOOTNOTED_YEAR.fullmatch(text)
    if m and any(0 < abs(int(m.group(1)) - y) <= 3 for y in years):
        return m.group(1)
    return None


def _is_header_part(line: Line, page_width: float) -> bool:
    """Header words with no figures: "Three Months Ended", "December 31,", "Amount  % to Sales"."""
    words = line.words
    if not words or len(words) > 20:
        return False
    if any(any(ch.isdigit() for ch in w.text) and not (is_year(w.text) or is_day(w.text) or is_short_period(w.text)
                                                       or _UNIT_WORD.fullmatch(w.text))
           for w in words):
        return False
    text = line.text.lower()
    if _HEADER_WORDS.search(text) or any(is_month(w.text) for w in words):
        return True
    groups = _groups(words, _height(line))
    return len(groups) >= 2 and all(g[0].bbox[0] >= 0.3 * page_width for g in groups)


@dataclass
class _Block:
    start: int  # first header line index
    end: int    # last header line index (inclusive)


def _header_blocks(lines: list[_Line], page_width: float) -> list[_Block]:
    blocks: list[_Block] = []
    i = 0
    while i < len(lines):
        if not lines[i].year_line:
            i += 1
            continue
        start = i
        while (start > 0 and i - start < MAX_HEADER_LINES_ABOVE and not lines[start - 1].is_data
               and (blocks == [] or start - 1 > blocks[-1].end)
               and _close(lines[start - 1].line, lines[start].line)
               and (lines[start - 1].year_line or _is_header_part(lines[start - 1].line, page_width))):
            start -= 1
        end = i
        while end + 1 < len(lines) and not lines[end + 1].is_data and _close(lines[end].line, lines[end + 1].line):
            nxt = lines[end + 1].line
            groups = _groups(nxt.words, _height(nxt))
            if lines[end + 1].year_line or (
                _is_header_part(nxt, page_width)
                and (len(groups) >= 2 or _HEADER_WORDS.search(nxt.text.lower()))
                and groups[0][0].bbox[0] >= 0.3 * page_width
            ):
                end += 1
            else:
                break
        blocks.append(_Block(start, end))
        i = end + 1
    return blocks


def _close(upper: Line, lower: Line) -> bool:
    return lower.bbox[1] - upper.bbox[3] < 3.0 * _height(lower)


# ------------------------------------------------------------------------------------- columns
@dataclass
class _Col:
    x0: float     # span of the figures themselves
    x1: float
    lines: set[int] = field(default_factory=set)
    reach: float = 0.0  # leftmost "$" of the column: headers often sit over it, not over the digits

    @property
    def centre(self) -> float:
        return (self.x0 + self.x1) / 2


def _find_columns(data: list[tuple[int, _Line]]) -> list[_Col]:
    points = sorted(
        (c.bbox[2], c.bbox[0], c.words[0].bbox[0], idx) for idx, ln in data for c in ln.cells if c.numeric
    )
    clusters: list[_Col] = []
    last_x1 = None
    for x1, x0, reach, idx in points:
        if clusters and last_x1 is not None and x1 - last_x1 <= CLUSTER_GAP:
            col = clusters[-1]
            col.x0, col.x1, col.reach = min(col.x0, x0), max(col.x1, x1), min(col.reach, reach)
            col.lines.add(idx)
        else:
            clusters.append(_Col(x0, x1, {idx}, reach))
        last_x1 = x1
    support = 2 if len(data) >= 3 else 1
    kept = [c for c in clusters if len(c.lines) >= support]
    # Figures of one column can straddle two right-edge clusters when some are centred:
    # merge clusters whose spans overlap.
    kept.sort(key=lambda c: c.x0)
    merged: list[_Col] = []
    for c in kept:
        if merged and c.x0 < merged[-1].x1 - 1:
            m = merged[-1]
            m.x0, m.x1, m.lines = min(m.x0, c.x0), max(m.x1, c.x1), m.lines | c.lines
            m.reach = min(m.reach, c.reach)
        else:
            merged.append(c)
    return merged


def _assign(cells: list[_RawCell], cols: list[_Col]) -> tuple[dict[int, _RawCell], list[_RawCell]]:
    """Map a row's figures to columns by overlap; figures left of every column go back to the label."""
    spacing = min((b.centre - a.centre for a, b in zip(cols, cols[1:])), default=80.0)
    chosen: dict[int, tuple[float, _RawCell]] = {}
    to_label: list[_RawCell] = []
    for cell in cells:
        x0, _, x1, _ = cell.bbox
        best, best_overlap = None, 0.0
        for k, col in enumerate(cols):
            overlap = min(x1, col.x1 + 3) - max(x0, col.x0 - 3)
            if overlap > best_overlap:
                best, best_overlap = k, overlap
        if best is None and not cell.numeric:
            # Dashes and "NM" are often centred, not right-aligned: take the nearest column.
            centre = (x0 + x1) / 2
            k = min(range(len(cols)), key=lambda j: abs(cols[j].centre - centre))
            if abs(cols[k].centre - centre) < 0.6 * spacing:
                best, best_overlap = k, 0.01
        if best is None:
            if x1 < cols[0].x0:
                to_label.append(cell)
            continue
        if best not in chosen or chosen[best][0] < best_overlap:
            chosen[best] = (best_overlap, cell)
    return {k: v[1] for k, v in chosen.items()}, to_label


def _column_headers(header_lines: list[Line], cols: list[_Col]) -> tuple[list[str], str]:
    """Stack each header line's groups onto the columns under them; text left of them is context."""
    parts: list[list[str]] = [[] for _ in cols]
    stub: list[str] = []
    first_x0 = min(cols[0].reach, cols[0].x0)
    spacing = min((b.centre - a.centre for a, b in zip(cols, cols[1:])), default=80.0)
    for line in header_lines:
        groups = [part for g in _groups(line.words, _height(line)) for part in _repeated_dates(g)]
        years = _years(w.text for w in line.words)
        right, left_dated, right_dated = [], [], 0
        for g in groups:
            text = " ".join(footnoted_year(w.text, years) or w.text for w in g)
            x0, x1 = g[0].bbox[0], g[-1].bbox[2]
            dated = any(is_year(w.text) or is_numeric_date(w.text) for w in g)
            # A period ("2022", "June 30, 2022") set a little left of its figures still heads the first column.
            period = dated and len(g) <= 4 and x1 > first_x0 - 0.4 * spacing
            # Units and "(Unaudited)" centred over the figures describe the table, not a column.
            if _UNIT.search(text) or _UNAUDITED.fullmatch(text.strip()):
                stub.append(text)
            elif (x0 + x1) / 2 < first_x0 - 4 and not period:
                stub.append(text)  # context for every column ("Years ended"), and maybe the first's heading
                left_dated += [text] if dated and len(g) > 1 else []
            else:
                right.append((x0, x1, text))
                right_dated += dated
        in_order = len(left_dated) == 1 and len(cols) >= 2 and len(right) == right_dated == len(cols) - 1
        for k, text in _first_period_over_labels(left_dated[0], right) if in_order else _place(right, cols):
            parts[k].append(text)
    return [" ".join(p) for p in parts], " ".join(stub)


def _first_period_over_labels(left: str, right: list[tuple[float, float, str]]) -> list[tuple[int, str]]:
    """"Year Ended December 31, 2023 | 2022": a line of periods, one per column, the first set so wide
    that it starts over the labels. It heads the first column (taken for the table's context only,
    it left its column to the "2022" beside it); the others follow in order."""
    return [(0, left)] + [(k + 1, text) for k, (*_, text) in enumerate(sorted(right))]


def _repeated_dates(group: list[Word]) -> list[list[Word]]:
    """"December 31, 2022 December 31, 2021" set close together over two columns: one date each.
    Split only where the same words repeat before each year, so "Year ended December 31, 2022 2021"
    (one heading over two years) stays whole."""
    parts: list[list[Word]] = [[]]
    for w in group:
        parts[-1].append(w)
        if is_year(w.text.strip("()")):
            parts.append([])
    parts = [p for p in parts if p]
    if len(parts) < 2 or not all(is_year(p[-1].text.strip("()")) for p in parts):
        return [group]
    words = {tuple(w.text.lower() for w in p[:-1]) for p in parts}
    return parts if len(words) == 1 and () not in words else [group]


def _place(groups: list[tuple[float, float, str]], cols: list[_Col]) -> list[tuple[int, str]]:
    """Which column(s) each header group belongs to.

    One group per column: in order. Fewer groups that divide the columns evenly and either
    reach over two or more columns each or sit over the middle of their block ("Three Months
    Ended" over two columns): each spans its block. Otherwise each group goes to its nearest column.
    """
    k, n = len(groups), len(cols)
    if k == 0:
        return []
    if k == n:
        return [(j, g[2]) for j, g in enumerate(groups)]
    centres = [(x0 + x1) / 2 for x0, x1, _ in groups]
    nearest = [(min(range(n), key=lambda j: abs(cols[j].centre - c)), g[2]) for c, g in zip(centres, groups)]
    if k < n and n % k == 0:
        width = n // k
        blocks = [cols[j * width:(j + 1) * width] for j in range(k)]
        reaches = [sum(1 for col in cols if x0 < col.x1 and x1 > min(col.reach, col.x0)) for x0, x1, _ in groups]
        err_span = sum(abs(c - sum(b.centre for b in blk) / len(blk)) for c, blk in zip(centres, blocks))
        err_near = sum(abs(cols[j].centre - c) for c, (j, _) in zip(centres, nearest))
        if all(r >= 2 for r in reaches) or err_span <= err_near + 2 * k:
            return [(j * width + i, g[2]) for j, g in enumerate(groups) for i in range(width)]
    return nearest


# ------------------------------------------------------------------------------ page metadata
def detect_statement(text: str) -> StatementKind | None:
    """The primary statement a title names ("Consolidated Statement of Cash Flow s" -> cash_flow)."""
    compact = re.sub(r"[^a-z]", "", text.lower())
    found = [(m.start(), kind) for kind, pat in _STATEMENT_TITLES if (m := pat.search(compact))]
    return min(found, key=lambda f: f[0])[1] if found else None


def detect_unit(text: str) -> tuple[Unit | None, str | None]:
    m = _UNIT.search(text)
    if not m:
        return None, None
    word = next(g for g in m.groups() if g).lower()
    unit: Unit = "thousands" if word == "000" else (word if word.endswith("s") else word + "s")  # type: ignore[assignment]
    return unit, m.group(0).strip()


def _statement_from_labels(labels: list[str]) -> StatementKind | None:
    text = " ".join(labels).lower()
    if "total assets" in text and "total liabilities" in text or "total current assets" in text and "total current liabilities" in text:
        return StatementKind.BALANCE
    if "operating activities" in text and ("investing activities" in text or "financing activities" in text):
        return StatementKind.CASH_FLOW
    return None


# ------------------------------------------------------------------------------------- reading
def read_tables(page: Page) -> list[StatementTable]:
    """Every figure table on the page, as line items x period columns."""
    lines = [_split(line) for line in page.lines]
    for ln in lines:
        # "(Millions)  2018  2017  2016" ends in figures too: a line of years is a header, not a row.
        years = _years(c.raw for c in ln.cells)
        only_years = ln.is_data and all(is_year(c.raw) or footnoted_year(c.raw, years) for c in ln.cells)
        if (not ln.is_data or only_years) and _is_year_line(ln.line, page.width):
            ln.year_line, ln.cells = True, []
    blocks = _header_blocks(lines, page.width)
    page_unit = detect_unit(page.text)
    tables: list[StatementTable] = []
    bounds = [(None, 0, blocks[0].start if blocks else len(lines))]
    bounds += [(b, b.end + 1, blocks[j + 1].start if j + 1 < len(blocks) else len(lines)) for j, b in enumerate(blocks)]
    prev_end = 0
    for block, lo, hi in bounds:
        if block is None and hi - lo < 3:
            continue
        title_lines = _title_lines(lines, prev_end, block.start if block else lo)
        if not tables:
            # The first table on a page also answers to the page's heading ("Consolidated Balance Sheets").
            top = _top_lines(lines, block.start if block else hi)
            title_lines = top + [t for t in title_lines if t not in top]
        table = _read_region(page, lines, block, lo, hi, title_lines, page_unit)
        if table is not None and (block is not None or len(table.rows) >= 3):
            tables.append(table)
        prev_end = _last_data(lines, lo, hi) + 1
    return tables


def _last_data(lines: list[_Line], lo: int, hi: int) -> int:
    for i in range(hi - 1, lo - 1, -1):
        if lines[i].is_data:
            return i
    return lo - 1


def _is_title(ln: _Line) -> bool:
    """Headings are short and are not sentences: prose that mentions "the balance sheet" is no title."""
    text = ln.line.text.strip().rstrip("\u201d\"')")
    return (not ln.is_data and 0 < len(text.split()) <= 14 and not text.endswith(".")
            and not text[:1].islower())


def _title_lines(lines: list[_Line], lo: int, hi: int) -> list[str]:
    return [ln.line.text for ln in lines[max(lo, hi - MAX_TITLE_LINES):hi] if _is_title(ln)]


def _top_lines(lines: list[_Line], hi: int) -> list[str]:
    return [ln.line.text for ln in lines[:min(hi, 5)] if _is_title(ln)]


def _read_region(page: Page, lines: list[_Line], block: _Block | None, lo: int, hi: int,
                 title_lines: list[str], page_unit: tuple[Unit | None, str | None]) -> StatementTable | None:
    data = [(i, lines[i]) for i in range(lo, hi) if lines[i].is_data]
    if not data:
        return None
    cols = _find_columns(data)
    if not cols:
        return None
    header_lines = [lines[i].line for i in range(block.start, block.end + 1)] if block else []
    headers, stub = _column_headers(header_lines, cols) if header_lines else ([""] * len(cols), "")
    title = " / ".join(t for t in title_lines if t.strip())
    rows = _rows(lines, lo, hi, cols)
    if not rows:
        return None
    statement = (detect_statement(title) or _statement_from_labels([r.label for r in rows])
                 # "Consolidated statements of income (unaudited)" printed in the header block itself
                 or detect_statement(" ".join([stub, *headers])))
    rows = _name_unlabeled_totals(rows, statement)
    unit, unit_text = detect_unit(" ".join([title, stub, *(ln.text for ln in header_lines)]))
    if unit is None:
        unit, unit_text = page_unit
    context = f"{stub} {title}"
    columns = []
    for k, col in enumerate(cols):
        info = parse_period(headers[k], context, balance_sheet=statement == StatementKind.BALANCE)
        columns.append(Column(index=k, header=headers[k], fiscal_year=info.fiscal_year, period=info.period,
                              period_end=info.period_end, months=info.months, derived=info.derived,
                              x0=col.x0, x1=col.x1))
    boxes = [r.bbox for r in rows] + [ln.bbox for ln in header_lines]
    bbox = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    return StatementTable(page=page.number, statement=statement, title=title, unit=unit, unit_text=unit_text,
                          columns=tuple(columns), rows=tuple(rows), bbox=bbox)


def _rows(lines: list[_Line], lo: int, hi: int, cols: list[_Col]) -> list[Row]:
    rows: list[Row] = []
    headings: list[_Heading] = []  # the headings above the current row, outermost first
    pending: list[_Line] = []      # label-only lines not yet claimed by a row
    last: _Line | None = None      # the line of the last row read
    for i in range(lo, hi):
        ln = lines[i]
        if not ln.is_data:
            if ln.line.words and rows and last is not None and not pending and _ends_unfinished(rows[-1].label, ln, last):
                # The figures sit on the first line of a wrapped label ("Loss for the year attributable to
                # (5,869,756)" / "Equity holders of the Company"): the line below finishes the label.
                rows[-1] = _extended(rows[-1], ln)
                last = ln
                continue
            if ln.line.words:
                if pending and _continues_heading(pending[-1], ln):
                    prev = pending.pop()
                    ln = _Line(line=_join(prev.line, ln.line), label_words=prev.label_words + ln.label_words, cells=[])
                pending.append(ln)
            continue
        assigned, to_label = _assign(ln.cells, cols)
        if not assigned:
            pending.append(_Line(line=ln.line, label_words=list(ln.line.words), cells=[]))
            continue
        label_words = ln.label_words + [w for c in to_label for w in c.words]
        label = " ".join(w.text for w in label_words).strip()
        indent = label_words[0].bbox[0] if label_words else min(c.bbox[0] for c in assigned.values())
        # Label-only lines just above: a wrapped label ("... real estate" / "ventures  (2,704)")
        # or headings ("Current assets:").
        continued: list[_Line] = []
        while pending and _continues(pending[-1], label, ln):
            continued.insert(0, pending.pop())
            label = f"{continued[0].label} {label}".strip()
        if continued:
            indent = min(indent, continued[0].x0)
        for p in pending:
            if _is_unit_line(p.label):
                continue  # "(In millions except per share data)" below the years is no heading
            headings = [h for h in headings if h.indent < p.x0 - 1]
            headings.append(_Heading(p.x0, p.label))
        pending = []
        # A row that comes back out to a heading's indent after rows under it closes the heading:
        # it is the heading's total (Pfizer's "Net income attributable ..." under "Earnings per
        # share––diluted:") and the heading stops applying after it.
        closing = [h for h in headings if indent <= h.indent + 1 and h.nested]
        for h in headings:
            h.nested = h.nested or indent > h.indent + 1
        section = headings[-1].text if headings else None
        headings = [h for h in headings if h not in closing]
        cells = tuple(
            Cell(value=parse_value(c.raw), raw=c.raw, column=k, bbox=c.bbox) for k, c in sorted(assigned.items())
        )
        boxes = [ln.line.bbox] + [c.line.bbox for c in continued]
        bbox = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        clean = clean_label(label)
        rows.append(Row(label=clean, section=clean_label(section) if section else None,
                        kind=_row_kind(clean, section, cells), cells=cells, bbox=bbox, indent=indent))
        last = ln
        if clean.lower().startswith("total") and headings and not closing:
            headings.pop()  # "Total current assets" closes "Current assets:"
    return rows


def _name_unlabeled_totals(rows: list[Row], statement: StatementKind | None) -> list[Row]:
    """Some statements print totals with no label (MGM's "$ 36,494,934" under the assets): name them.

    A figures-only row that adds up the rows of its heading above it is "Total <heading>". On a
    balance sheet, a figures-only "$" row closing the assets is "Total assets", and the one
    closing the liabilities and equity is "Total liabilities and equity".
    """
    out: list[Row] = []
    seen_liabilities = False
    for k, row in enumerate(rows):
        label = row.label
        if not label and row.kind == "currency" and row.cells:
            named = None
            members = [r for r in out if r.section and r.section == row.section and r.label]
            if row.section and members and _adds_up(row, members):
                named = f"Total {row.section.rstrip(':').strip()}"
            elif statement == StatementKind.BALANCE and row.cells[0].raw.startswith("$"):
                named = "Total liabilities and equity" if seen_liabilities else "Total assets"
            if named:
                row = row.model_copy(update={"label": named})
        if "liabilit" in row.label.lower():
            seen_liabilities = True
        out.append(row)
    return out


def _adds_up(total: Row, members: list[Row]) -> bool:
    """Does every figure of ``total`` equal the sum of the members' figures in its column?"""
    checked = 0
    for cell in total.cells:
        if cell.value is None:
            continue
        parts = [c.value for r in members if (c := r.cell(cell.column)) is not None and c.value is not None]
        if not parts or abs(sum(parts) - cell.value) > max(1.0, abs(cell.value) * 0.001):
            return False
        checked += 1
    return checked > 0


@dataclass
class _Heading:
    indent: float
    text: str
    nested: bool = False  # rows deeper than the heading have been seen under it


def _continues(prev: _Line, label: str, row: _Line) -> bool:
    """Is the label-only line ``prev`` the first part of this row's label?"""
    text = prev.label.rstrip()
    if not text or text.endswith(":") or not _adjacent(prev.line, row.line):
        return False
    if not label:
        return True  # a figures-only row under its label ("Diluted net income per share ..." / "0.02")
    if label[0].islower() or _CONNECTOR_END.search(text):
        return True
    return False


def _ends_unfinished(label: str, ln: _Line, last: _Line) -> bool:
    """Does the row's label stop mid-phrase ("... attributable to") and the label-only line just
    below it carry on ("Equity holders of the Company"), rather than open a heading ("Assets:")?"""
    text = ln.label.rstrip()
    return (bool(label) and bool(_TRAILING_CONNECTOR.search(label)) and bool(text) and not text.endswith(":")
            and _adjacent(last.line, ln.line))


# Words a line item's name cannot end with. Narrower than _CONNECTOR_END: "net", "less" and
# "," end complete labels ("Accounts receivable, net").
_TRAILING_CONNECTOR = re.compile(r"\b(?:of|for|to|from|on|by|with|attributable\s+to|available\s+to|and|or)$", re.I)


def _extended(row: Row, ln: _Line) -> Row:
    label = clean_label(f"{row.label} {ln.label}")
    a, b = row.bbox, ln.line.bbox
    return row.model_copy(update={
        "label": label, "kind": _row_kind(label, row.section, row.cells),
        "bbox": (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))})


def _is_unit_line(text: str) -> bool:
    return bool(_UNIT.search(text)) and len(text.split()) <= 12


def _join(upper: Line, lower: Line) -> Line:
    a, b = upper.bbox, lower.bbox
    return Line(text=f"{upper.text} {lower.text}", words=upper.words + lower.words,
                bbox=(min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])))


def _continues_heading(prev: _Line, ln: _Line) -> bool:
    """A heading wrapped onto a second line ("Adjustments to reconcile ... to net cash" / "provided by ...")."""
    text = prev.label.rstrip()
    if not text or text.endswith(":") or not ln.label or not _adjacent(prev.line, ln.line):
        return False
    return ln.label[0].islower() or bool(_CONNECTOR_END.search(text))


def _adjacent(upper: Line, lower: Line) -> bool:
    # Some statements double-space wrapped headings; a blank line between is still < 1.2 heights.
    return lower.bbox[1] - upper.bbox[3] < 1.2 * _height(lower)


_SHARES_START = re.compile(r"(weighted|average|shares|number of shares)\b")
_SHARES_LABEL = re.compile(r"^(weighted|average|shares|number of shares)|shares outstanding|shares used|weighted[- ]average")
_GENERIC = ("basic", "diluted")  # labels that say what they count only through their heading


def _row_kind(label: str, section: str | None, cells: tuple[Cell, ...]) -> RowKind:
    """What a row counts: per-share amounts and share counts are not scaled by "in millions"."""
    own = label.lower()
    sec = (section or "").lower()
    generic = own.split()[:1] and own.split()[0] in _GENERIC
    if _SHARES_START.match(own):
        return "shares"  # "Shares used to compute diluted net income per share" counts shares
    if "per share" in own or "per common share" in own or "per diluted share" in own or "per basic share" in own:
        return "per_share"
    if _SHARES_LABEL.search(own) or (generic and _SHARES_LABEL.search(sec)):
        return "shares"
    if "per share" in sec or "per common share" in sec:
        return "per_share"  # every row under "Per share of common stock:" is a per-share amount
    if sum("%" in c.raw for c in cells) * 2 > len(cells):
        return "percent"  # a "% change" column beside the amounts does not make the row a percentage
    return "currency"

