"""A table continued over a page break, its column headings printed only on the first page.

J&J's sales by product run from page 81 ("2022 | 2021 | 2020 | '22 vs. '21 | '21 vs. '20") onto page 82,
which prints the next products under the same columns and no heading: read alone, its figures belong
to no year. A table that opens its page with no column heading at all, whose columns stand where the
last table of the page before had its own, one for one, is that table continued: it takes their
headings, periods and unit. Nothing else is carried over: a table with any heading of its own, or laid
out otherwise, is its own table.
"""

from __future__ import annotations

from docqa.finance.tables import Column, StatementTable

# how far (in points) a continued column's centre may stand from its heading's on the page before
CENTRE_TOLERANCE = 12.0


def with_headers_continued(tables: list[StatementTable]) -> list[StatementTable]:
    """The tables (in page order) with each headless continuation given its first page's headings."""
    out: list[StatementTable] = []
    last_on: dict[int, StatementTable] = {}
    first_on: dict[int, StatementTable] = {}
    for table in tables:
        if table.page not in first_on or table.bbox[1] < first_on[table.page].bbox[1]:
            first_on[table.page] = table
    for table in tables:
        before = last_on.get(table.page - 1)
        if before is not None and first_on.get(table.page) is table and _continues(before, table):
            table = _continued(before, table)
        if table.page not in last_on or table.bbox[3] >= last_on[table.page].bbox[3]:
            last_on[table.page] = table
        out.append(table)
    return out


def _headless(table: StatementTable) -> bool:
    return bool(table.columns) and all(not c.header.strip() and c.fiscal_year is None and c.period_end is None
                                       for c in table.columns)


def _continues(before: StatementTable, table: StatementTable) -> bool:
    if table.statement is not None or not _headless(table) or _headless(before):
        return False
    if len(before.columns) != len(table.columns):
        return False
    return all(abs(_centre(a) - _centre(b)) <= CENTRE_TOLERANCE for a, b in zip(before.columns, table.columns))


def _centre(column: Column) -> float:
    return (column.x0 + column.x1) / 2


def _continued(before: StatementTable, table: StatementTable) -> StatementTable:
    headed = tuple(c.model_copy(update={"header": h.header, "fiscal_year": h.fiscal_year, "period": h.period,
                                        "months": h.months, "period_end": h.period_end, "derived": h.derived})
                   for c, h in zip(table.columns, before.columns))
    first = before.title.strip()
    title = table.title if not first or first in table.title else f"{first} / {table.title}".rstrip(" /")
    return table.model_copy(update={"columns": headed, "unit": table.unit or before.unit,
                                    "unit_text": table.unit_text or before.unit_text, "title": title})
