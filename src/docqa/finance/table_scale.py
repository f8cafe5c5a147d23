"""The scale of a table that prints none, read from the statements that print its figures.

A reconciliation in the MD&A ("Net cash provided by operating activities, GAAP measure $ 11,616 ...
Free cash flow, non-GAAP measure $ 7,157") often prints no "in millions" of its own: the reader takes
the scale from the statements whose figures it repeats. A table without a unit takes the one unit of
the statements that print at least half of its money rows' figures (two at least), or whose closing
"Total" row repeats two or more of their figures (a breakdown adding up to the statements); otherwise
it stays without one, as before. A table of prices and counts beside a total or two never qualifies.
"""

from __future__ import annotations

import re

from docqa.finance.tables import StatementTable

INFERRED = "as the statements that print the same figures"
MIN_FIGURE = 100.0   # smaller figures repeat by chance too often to say anything


def scaled_like_statements(tables: list[StatementTable]) -> list[StatementTable]:
    """The tables, each without a unit given the statements' unit where its figures are theirs."""
    units: dict[float, set[str]] = {}
    for table in tables:
        if table.statement is None or not table.unit:
            continue
        for row in table.rows:
            if row.kind == "currency":
                for cell in row.cells:
                    if cell.value is not None and abs(cell.value) >= MIN_FIGURE:
                        units.setdefault(abs(cell.value), set()).add(table.unit)
    return [_scaled(t, units) if t.unit is None else t for t in tables]


def _scaled(table: StatementTable, units: dict[float, set[str]]) -> StatementTable:
    rows = [r for r in table.rows if r.kind == "currency"
            and any(c.value is not None and abs(c.value) >= MIN_FIGURE for c in r.cells)]
    found = [units.get(abs(c.value), set()) for r in rows for c in r.cells
             if c.value is not None and abs(c.value) >= MIN_FIGURE]
    matched = [r for r in rows if any(units.get(abs(c.value)) for c in r.cells if c.value is not None)]
    seen = set().union(*found) if found else set()
    if len(matched) < 2 or 2 * len(matched) < len(rows) or len(seen) != 1:
        return _scaled_by_its_total(table, rows, units)
    return table.model_copy(update={"unit": next(iter(seen)), "unit_text": INFERRED})


def _scaled_by_its_total(table: StatementTable, rows, units: dict[float, set[str]]) -> StatementTable:
    """A breakdown whose closing total repeats two or more statement figures of one unit (PepsiCo's
    total assets and capital spending under its divisions' rows): its rows add up to the statements'
    figures, so they are in the statements' unit."""
    if len(rows) < 3 or not re.match(r"\s*total\b", rows[-1].label, re.I):
        return table
    found = [units.get(abs(c.value), set()) for c in rows[-1].cells if c.value is not None and abs(c.value) >= MIN_FIGURE]
    seen = set().union(*found) if found else set()
    if sum(bool(f) for f in found) < 2 or len(seen) != 1:
        return table
    return table.model_copy(update={"unit": next(iter(seen)), "unit_text": INFERRED})
