"""Read the tables on a page into line items x period columns.

A page's Lines are visual rows (label and figures on one Line, each word with its box). The
reader works from word positions, not from the text, because that is what survives all layouts:

1. Each line is split into a label and a trailing run of figure words ("$", "(1,577)", "—").
   A figure only counts when a real gap separates it from the words before it, so prose that
   happens to end in a number ("... compared to $1.5") is not a table row (table_lines).
2. Header blocks are found: a line of period tokens (2018 / Fiscal 2023 / January 28, 2023 /
   Q4 2023) plus the header lines stacked above and below it ("Three Months Ended", "Amount").
   Each header block starts a table that runs to the next block (table_headers).
3. Columns are clusters of the figures' right edges (filings right-align figures); each figure
   is assigned to the column its box overlaps, and each header group to the column(s) below it
   (table_columns).
4. Label-only lines become a continuation of the next row's label or the heading (section) of
   the rows under it (table_rows).
5. The table's statement and unit are read from its title, header and labels (statement_kinds).
"""

from __future__ import annotations

import re

from docqa.finance.cells import is_year
from docqa.finance.lineitems import LineItemMatch, find_line_items
from docqa.finance.periods import parse_period
from docqa.finance.statement_kinds import detect_statement, detect_unit, statement_from_labels
from docqa.finance.table_columns import column_headers, find_columns
from docqa.finance.table_headers import A_LEAD_IN, HeaderBlock, footnoted_year, header_blocks, is_year_line, word_groups, years_in
from docqa.finance.table_lines import TableLine, line_height, split_line
from docqa.finance.table_rows import headed_by_their_total, name_unlabeled_totals, named_by_their_total, read_rows
from docqa.finance.tables import Column, StatementTable, Unit, not_period_words
from docqa.types import Page, StatementKind, enclosing

__all__ = ["LineItemMatch", "find_line_items", "read_tables"]

MAX_TITLE_LINES = 6


def read_tables(page: Page) -> list[StatementTable]:
    """Every figure table on the page, as line items x period columns."""
    lines = [split_line(line) for line in page.lines]
    for ln in lines:
        # "(Millions)  2018  2017  2016" ends in figures too: a line of years is a header, not a row.
        years = years_in(c.raw for c in ln.cells)
        only_years = ln.is_data and all(is_year(c.raw) or footnoted_year(c.raw, years) for c in ln.cells)
        if (not ln.is_data or only_years) and is_year_line(ln.line, page.width):
            ln.as_year_line()
    blocks = header_blocks(lines, page.width)
    page_unit = _PageUnit(page)
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
            tables += by_dated_blocks(years_as_headings(table), table.title, table.statement == StatementKind.BALANCE)
        prev_end = _last_data(lines, lo, hi) + 1
    return tables


class _PageUnit:
    """The unit the page's text states, read the first time a table on it states none itself (most do:
    reading a whole page for it was a sixth of reading the page's tables)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.unit: tuple[Unit | None, str | None] | None = None

    def read(self) -> tuple[Unit | None, str | None]:
        if self.unit is None:
            self.unit = detect_unit(self.page.text)
        return self.unit


def _last_data(lines: list[TableLine], lo: int, hi: int) -> int:
    for i in range(hi - 1, lo - 1, -1):
        if lines[i].is_data:
            return i
    return lo - 1


def _is_title(ln: TableLine) -> bool:
    """Headings are short and are not sentences: prose that mentions "the balance sheet" is no title."""
    text = ln.line.text.strip().rstrip("\u201d\"')")
    return (not ln.is_data and (0 < len(text.split()) <= 14 or bool(A_LEAD_IN.search(text))) and not text.endswith(".")
            and not text[:1].islower())


def _title_lines(lines: list[TableLine], lo: int, hi: int) -> list[str]:
    start = max(lo, hi - MAX_TITLE_LINES)
    return [title for k in range(start, hi)
            if (title := _title_of(lines[k], lines[k - 1] if k > start else None))]


def _title_of(ln: TableLine, before: TableLine | None = None) -> str | None:
    """A heading; or the sentence that ends a paragraph's last line and introduces the table ("...
    prevailing throughout the period. Net sales attributed to countries ... are as follows (in millions):"),
    begun on the line before when it wraps ("... A reconciliation of the beginning" / "and ending amount
    of gross unrecognized tax benefits (UTB) is as follows:")."""
    if _is_title(ln):
        return ln.line.text
    text = ln.line.text.strip()
    if ln.is_data or not text.endswith(":"):
        return None
    last = re.split(r"(?<=[.;])\s+(?=[A-Z])", text)[-1]
    if last[:1].islower() and last == text and before is not None and not before.is_data and A_LEAD_IN.search(last):
        last = re.split(r"(?<=[.;])\s+(?=[A-Z])", f"{before.line.text.strip()} {text}")[-1]
    return last if last[:1].isupper() and A_LEAD_IN.search(last) else None


def _top_lines(lines: list[TableLine], hi: int) -> list[str]:
    return [ln.line.text for ln in lines[:min(hi, 5)] if _is_title(ln)]


def _read_region(page: Page, lines: list[TableLine], block: HeaderBlock | None, lo: int, hi: int,
                 title_lines: list[str], page_unit: "_PageUnit") -> StatementTable | None:
    data = [(i, lines[i]) for i in range(lo, hi) if lines[i].is_data]
    if not data:
        return None
    cols = find_columns(data)
    if not cols:
        return None
    header_lines = [lines[i].line for i in range(block.start, block.end + 1)] if block else []
    headers, stub, names = column_headers(header_lines, cols) if header_lines else ([""] * len(cols), "", [])
    if not any(h.strip() for h in headers):
        # No line of periods over the figures: a segment note heads its columns with the parts'
        # names ("Pharmacy Services | Retail/LTC | ... | Consolidated Totals") and dates its row
        # blocks ("2018:", "Fiscal 2015"). The lines right above the first row name the columns.
        named = _lines_over_columns(lines, data[0][0], lo)
        # "The following table presents the 2022 activity in goodwill by segment:" names the table
        lead_ins = [ln for ln in named if A_LEAD_IN.search(ln.text.strip())]
        named = named[named.index(lead_ins[-1]) + 1:] if lead_ins else named
        if lead_ins:
            title_lines = title_lines + [lead_ins[-1].text]
        if named:
            headers, more, _ = column_headers(named, cols)
            stub = " ".join(x for x in (stub, more) if x)
            header_lines = header_lines + named
            # lines of several names head the columns, not the rows ("2018:" right above them does)
            over = [k for k, ln in enumerate(named) if len(word_groups(ln.words, line_height(ln))) >= 2]
            if over:
                lo = max(lo, data[0][0] - len(named) + over[-1] + 1)
    title = " / ".join(t for t in [*title_lines, *(n for n in names if n not in " ".join(title_lines))] if t.strip())
    rows = named_by_their_total(headed_by_their_total(read_rows(lines, lo, hi, cols)))
    if not rows:
        return None
    statement = (detect_statement(title) or statement_from_labels([r.label for r in rows])
                 # "Consolidated statements of income (unaudited)" printed in the header block itself
                 or detect_statement(" ".join([stub, *headers])))
    rows = name_unlabeled_totals(rows, statement)
    unit, unit_text = detect_unit(" ".join([title, stub, *(ln.text for ln in header_lines)]))
    if unit is None:
        unit, unit_text = page_unit.read()
    context = f"{stub} {title}"
    columns = []
    for k, col in enumerate(cols):
        info = parse_period(headers[k], context, balance_sheet=statement == StatementKind.BALANCE)
        columns.append(Column(index=k, header=headers[k], fiscal_year=info.fiscal_year, period=info.period,
                              period_end=info.period_end, months=info.months, derived=info.derived,
                              x0=col.x0, x1=col.x1))
    boxes = [r.bbox for r in rows] + [ln.bbox for ln in header_lines]
    bbox = enclosing(boxes)
    return StatementTable(page=page.number, statement=statement, title=title, unit=unit, unit_text=unit_text,
                          columns=tuple(columns), rows=tuple(rows), bbox=bbox)


MAX_NAME_LINES = 3


def _lines_over_columns(lines: list[TableLine], first_row: int, lo: int) -> list:
    """The label-only lines stacked right above a table's first row (at most MAX_NAME_LINES, none
    before ``lo`` nor a sentence), top to bottom."""
    out = []
    i = first_row - 1
    while i >= max(0, lo - MAX_NAME_LINES) and len(out) < MAX_NAME_LINES:
        ln = lines[i]
        if ln.is_data or not ln.line.text.strip() or ln.line.text.rstrip().endswith("."):
            break
        out.append(ln.line)
        i -= 1
    return out[::-1]


def years_as_headings(table: StatementTable) -> StatementTable:
    """A segment note that prints each block's year on a line of its own, over the figures ("2021"
    above "Total revenue  $ 141,398  $ 27,298 ..."): the year heads the rows below it, and is no row
    nor column of figures."""
    if any(c.fiscal_year or c.period_end for c in table.columns):
        return table
    marks = [k for k, r in enumerate(table.rows)
             if not r.label.strip() and len(r.cells) == 1 and is_year(r.cells[0].raw.strip())]
    if len(marks) < 2 or marks[0] != 0:
        return table
    rows, year = [], ""
    for k, row in enumerate(table.rows):
        if k in marks:
            year = row.cells[0].raw.strip()
            continue
        rows.append(row.model_copy(update={"section": year}))
    used = {c.column for r in rows for c in r.cells}
    if not all(table.rows[k].cells[0].column not in used for k in marks):
        return table
    # the column the years stood in holds no figure: gone, and the others numbered anew
    kept = [c for c in table.columns if c.index in used]
    new = {c.index: k for k, c in enumerate(kept)}
    rows = [r.model_copy(update={"cells": tuple(c.model_copy(update={"column": new[c.column]}) for c in r.cells)})
            for r in rows]
    columns = tuple(c.model_copy(update={"index": new[c.index]}) for c in kept)
    return table.model_copy(update={"rows": tuple(rows), "columns": columns})


def by_dated_blocks(table: StatementTable, context: str, balance_sheet: bool) -> list[StatementTable]:
    """A table whose columns name parts, not periods, and whose rows sit under dated headings
    ("2018:", "Fiscal 2014"): one table per heading, each column dated by it, so a figure of the
    year asked is read from that year's block."""
    if any(c.fiscal_year or c.period_end for c in table.columns) or not any(c.header for c in table.columns):
        return [table]
    blocks: dict[int, tuple[str, list]] = {}
    year, heading = None, ""
    for row in table.rows:
        # A dated heading holds the rows under it until the next one (a total row may end its section).
        if row.section and (dated := _heading_year(row.section)) is not None:
            year, heading = dated, row.section
        if year is None:
            return [table]
        blocks.setdefault(year, (heading, []))[1].append(row)
    out = []
    for year, (heading, rows) in blocks.items():
        columns = []
        for c in table.columns:
            info = parse_period(f"{heading.rstrip(':')} {c.header}", context, balance_sheet=balance_sheet)
            columns.append(c.model_copy(update={"header": f"{heading.rstrip(':')} {c.header}".strip(),
                                                "fiscal_year": info.fiscal_year or year, "period": info.period or "year",
                                                "period_end": info.period_end, "months": info.months or 12,
                                                "derived": info.derived or c.derived}))
        boxes = [r.bbox for r in rows]
        bbox = enclosing(boxes)
        out.append(table.model_copy(update={"columns": tuple(columns), "rows": tuple(rows), "bbox": bbox}))
    return out


def _heading_year(section: str) -> int | None:
    """The fiscal year a row heading that says only a period names ("2018:", "Fiscal 2014", "For the
    year ended December 31, 2020"); None for any other heading ("Current assets:")."""
    if len(section.split()) > 8 or not_period_words(section):
        return None
    info = parse_period(section.rstrip(":"))
    return info.fiscal_year if info.months in (12, None) and info.period in ("year", None) else None
