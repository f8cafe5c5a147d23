"""Which line of a statement is the largest: "What was the largest liability on the balance sheet?"

The lines are the statement's own, read in the asked period's column: for liabilities, the rows
between total assets and total liabilities (current or long-term ones when the question says so);
for assets, the rows down to total assets; for expenses, the income statement's cost and expense
rows. Totals and subtotals are not lines of their own. The answer names the line, its value as
printed and the next two, each cited where it is printed.
"""

from __future__ import annotations

import re

from docqa.finance import formulas as F
from docqa.plan.lines import LineAsked
from docqa.finance.periods import Period
from docqa.finance.tables import Cell, Row, StatementTable
from docqa.store.base import StoredPage
from docqa.types import Citation, Draft, Figure, StatementKind

_TOTAL = re.compile(r"^\s*total\b", re.I)
_EQUITY = re.compile(r"equity|stockholders|shareholders|shareowners|commitments|redeemable|noncontrolling", re.I)
_EXPENSES = re.compile(r"^\s*(?:total\s+)?(?:operating\s+)?(?:costs?\s+and\s+)?(?:operating\s+)?expenses\s*:?\s*$", re.I)
SHOWN_NEXT = 2


def _index(rows: tuple[Row, ...], pattern: str, start: int = 0) -> int | None:
    rx = re.compile(pattern, re.I)
    return next((i for i in range(start, len(rows)) if rx.search(rows[i].label)), None)


def block(table: StatementTable, asked: LineAsked) -> list[Row]:
    """The statement's rows that are lines of the kind asked (totals included; callers drop them)."""
    rows = table.rows
    if asked.kind == "expenses":
        # Only a heading that introduces the costs ("Costs and expenses:", "Operating expenses:"),
        # not "Other income (expense)".
        return [r for r in rows if r.section and _EXPENSES.search(r.section)]
    if asked.kind == "assets":
        end = _index(rows, r"^\s*total\s+assets\b")
        if end is None:
            return []
        start, stop = 0, end
        middle = _index(rows[:end], r"^\s*total\s+current\s+assets\b")
    else:
        after_assets = _index(rows, r"^\s*total\s+assets\b")
        start = after_assets + 1 if after_assets is not None else _index(rows, r"liabilit")
        if start is None:
            return []
        stop = _index(rows, r"^\s*total\s+liabilities\s*$", start)
        if stop is None:
            stop = next((i for i in range(start, len(rows)) if _EQUITY.search(rows[i].label)
                         or _EQUITY.search(rows[i].section or "")), len(rows))
        middle = _index(rows[:stop], r"^\s*total\s+current\s+liabilities\b", start)
    if asked.scope == "current":
        if middle is None:
            return []
        stop = middle
    elif asked.scope == "noncurrent":
        if middle is None:
            return []
        start = middle + 1
    return list(rows[start:stop])


def largest_line(asked: LineAsked, sources: list, period: Period) -> Draft | None:
    statement = StatementKind.INCOME if asked.kind == "expenses" else StatementKind.BALANCE
    for source in sources:
        for table in source.tables:
            if table.statement != statement:
                continue
            column = source.column(table, period, statement == StatementKind.BALANCE)
            if column is None:
                continue
            lines: list[tuple[float, Row, Cell]] = []
            for row in block(table, asked):
                cell = row.cell(column.index)
                if cell is not None and cell.value is not None and not _TOTAL.search(row.label):
                    lines.append((abs(cell.value), row, cell))
            if len(lines) < 2:
                continue
            lines.sort(key=lambda line: line[0], reverse=asked.largest)
            return _draft(asked, lines, table, source, period)
    return None


def _draft(asked: LineAsked, lines, table: StatementTable, source, period: Period) -> Draft:
    def shown(value: float) -> str:
        return F.render(value, "currency", F.Format(), table.unit)  # type: ignore[arg-type]

    value, row, cell = lines[0]
    scope = f"{asked.scope} " if asked.scope else ""
    where = "income statement" if asked.kind == "expenses" else "balance sheet"
    word = "largest" if asked.largest else "smallest"
    nxt = "; ".join(f"{_name(r)} {shown(v)}" for v, r, _ in lines[1:1 + SHOWN_NEXT])
    text = (f"{_name(row)}: {shown(value)} for {period.label} (as printed: {cell.raw}), the {word} "
            f"{scope}{asked.kind[:-3] + 'y' if asked.kind == 'liabilities' else asked.kind[:-1]} line on the "
            f"{where} ({source.document} p. {table.page}); next: {nxt}.")
    page = source.pages.get(table.page)
    shown_lines = lines[:1 + SHOWN_NEXT]
    citations = tuple(Citation(document=source.document, document_id=source.document_id, page=table.page,
                               quote=printed_line(page, r) if page else r.label, boxes=(r.bbox,))
                      for _, r, _ in shown_lines)
    figures = tuple(Figure(name=r.label, value=c.value, text=c.raw, unit="USD", scale=table.scale or 1.0,
                           period=period.short, document=source.document, page=table.page, bbox=c.bbox)
                    for _, r, c in shown_lines)
    return Draft(text=text, found=True, citations=citations, figures=figures, answerer="figures")


def _name(row: Row) -> str:
    """The row's label without its parenthetical detail ("Long-term debt (includes debt issued by ...)")."""
    short = re.sub(r"\s*\(.*$", "", row.label).strip()
    return short or row.label


def printed_line(page: StoredPage, row: Row) -> str:
    """The stored line that prints the row (the label's line when a label wraps)."""
    y0, y1 = row.bbox[1], row.bbox[3]
    best, overlap = None, 0.0
    for line in page.lines:
        o = min(y1, line.bbox[3]) - max(y0, line.bbox[1])
        if o > overlap and any(ch.isdigit() for ch in line.text):
            best, overlap = line.text, o
    return best or row.label
