"""Tagged facts on an HTML filing's tables: each printed figure with its inline XBRL fact, and the
fact's period over the column's printed heading where the two disagree.

A column's year is read from its printed heading, which can be misread ("Year Ended December 31,
2023 | 2022" set over the wrong columns), while the fact tagged on each figure states its period
exactly. So, per column, the period most of its facts share is compared with the heading's: a
heading that says another year (or another end date, or another length) gives way to the facts'
period. A single figure whose fact is of another period than its column's is taken off its row:
it answers for no period rather than for the wrong one.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import date

from docqa.finance.periods import FiscalCalendar
from docqa.finance.tables import Cell, Column, StatementTable, TaggedFact
from docqa.ingest.ixbrl import Fact, fiscal_year_of

log = logging.getLogger(__name__)

# Statements whose columns are periods; a note's columns can be maturity years of balances at one
# date ("2024 | 2025 | After 2028"), and a statement of equity's are its components.
PERIOD_STATEMENTS = {"income", "comprehensive", "balance", "cash_flow"}
DAYS_APART = 7   # a printed end date and a fact's end this close are one period (52/53-week years)
MAJORITY = 0.5   # a column's period is the one more than half of its dated facts share

FactPeriod = tuple[str | None, str, bool]  # start (None for a date), end, instant


def annotate_tables(tables: list[StatementTable], facts: list[Fact],
                    calendar: FiscalCalendar | None = None) -> list[StatementTable]:
    """The statement reader's tables with each cell that prints a tagged fact carrying it:
    ``concept``, ``context`` and ``fact`` (value, unit, period, dimensions); each column's period as
    its facts state it (``calendar`` names fiscal years as the filing does). Readers that do not
    know facts are unaffected: a cell's fact is None in a PDF's tables."""
    if not tables or not facts:
        return tables
    placed = [f for f in facts if f.bbox is not None]
    out = []
    for table in tables:
        rows = tuple(row.model_copy(update={"cells": tuple(_tagged(cell, placed) for cell in row.cells)})
                     for row in table.rows)
        out.append(periods_from_facts(table.model_copy(update={"rows": rows}), calendar))
    return out


def _tagged(cell: Cell, facts: list[Fact]) -> Cell:
    fact = _fact_at(cell, facts)
    if fact is None:
        return cell
    return cell.model_copy(update={"concept": fact.concept, "context": fact.context, "fact": _tagged_fact(fact)})


def _fact_at(cell: Cell, facts: list[Fact]) -> Fact | None:
    x0, y0, x1, y1 = cell.bbox
    best, best_overlap = None, 0.0
    for f in facts:
        fx0, fy0, fx1, fy1 = f.bbox
        if fy1 <= y0 or fy0 >= y1:
            continue
        overlap = min(x1, fx1) - max(x0, fx0)
        if overlap > best_overlap:
            best, best_overlap = f, overlap
    return best


def _tagged_fact(fact: Fact) -> TaggedFact:
    return TaggedFact(value=fact.value, unit=fact.unit, decimals=fact.decimals, scale=fact.scale, start=fact.start,
                      end=fact.end, instant=fact.instant, dimensions=fact.dimensions, id=fact.id)


# ------------------------------------------------------------------------ the facts' period wins
def periods_from_facts(table: StatementTable, calendar: FiscalCalendar | None = None) -> StatementTable:
    """``table`` with each dated column's period taken from its facts where its heading says
    another, and the cells whose fact is of another period than their column's taken off; only in
    the primary statements (``PERIOD_STATEMENTS``)."""
    if table.statement is None or table.statement.value not in PERIOD_STATEMENTS:
        return table
    columns = list(table.columns)
    periods: dict[int, FactPeriod] = {}
    for k, column in enumerate(columns):
        if column.derived or (column.fiscal_year is None and not column.period_end):
            continue  # no printed period to contradict ("% change", a segment's column)
        period = _column_period(table, column.index)
        if period is None:
            continue  # mixed periods (a roll-forward, quarters as rows): nothing to say
        periods[column.index] = period
        if not _agrees(column, period, calendar):
            columns[k] = _as_facts_say(column, period, calendar)
            log.info("page %s: column %r read as %s from its tagged facts (its heading said %s)",
                     table.page, column.header, columns[k].fiscal_year, column.fiscal_year)
    rows, dropped = [], 0
    for row in table.rows:
        kept = tuple(c for c in row.cells if _fits(c, periods.get(c.column)))
        dropped += len(row.cells) - len(kept)
        rows.append(row.model_copy(update={"cells": kept}) if len(kept) < len(row.cells) else row)
    if dropped:
        log.info("page %s: %d printed figure(s) tagged with another period than their column's left out",
                 table.page, dropped)
    if tuple(columns) == table.columns and not dropped:
        return table
    return table.model_copy(update={"columns": tuple(columns), "rows": tuple(rows)})


def _day(iso: str | None) -> date | None:
    try:
        return date.fromisoformat(iso[:10]) if iso else None
    except ValueError:
        return None  # "2023-02-30": no period to compare


def _column_period(table: StatementTable, column: int) -> FactPeriod | None:
    """The period more than half of the column's facts share: its flows' when it has flows (a cash
    flow column's opening balance is of another date), else its balances' date."""
    facts = [c.fact for row in table.rows for c in row.cells
             if c.column == column and c.fact is not None and _day(c.fact.end)]
    flows = [f for f in facts if not f.instant and _day(f.start)]
    pool = flows or [f for f in facts if f.instant]
    if not pool:
        return None
    (start, end), count = Counter((f.start if flows else None, f.end) for f in pool).most_common(1)[0]
    if count <= MAJORITY * len(pool):
        return None  # no period most of them share: a statement of equity's columns, a roll-forward
    return start, end, not flows


def _fiscal_year(end: date, calendar: FiscalCalendar | None) -> int:
    return calendar.period_of(end.isoformat())[0] if calendar is not None else fiscal_year_of(end)


def _months(start: str | None, end: str) -> int | None:
    a, b = _day(start), _day(end)
    return round((b - a).days / 30.44) if a and b else None


def _agrees(column: Column, period: FactPeriod, calendar: FiscalCalendar | None) -> bool:
    """Whether the column's printed period is the facts' one: the same end date (within a week) or,
    printed as a year, the same fiscal year as the filing names years; and the same length when
    both say one."""
    start, end, instant = period
    fact_end = _day(end)
    printed_end = _day(column.period_end)
    if printed_end is not None:
        same_end = abs((printed_end - fact_end).days) <= DAYS_APART
    elif calendar is not None:
        same_end = column.fiscal_year == _fiscal_year(fact_end, calendar)
    else:  # without the filing's calendar, a year that ends in its first half may be named after the one before
        same_end = column.fiscal_year in (fiscal_year_of(fact_end), fact_end.year,
                                          fact_end.year - (1 if fact_end.month <= 6 else 0))
    months = None if instant else _months(start, end)
    printed = column.months
    return same_end and (not months or not printed or abs(months - printed) <= 1)


def _as_facts_say(column: Column, period: FactPeriod, calendar: FiscalCalendar | None) -> Column:
    start, end, instant = period
    months = None if instant else _months(start, end)
    kind = "instant" if instant else {12: "year", 3: "quarter", 6: "ytd", 9: "ytd"}.get(months or 0, column.period)
    return column.model_copy(update={"fiscal_year": _fiscal_year(_day(end), calendar), "period_end": end[:10],
                                     "months": months or column.months, "period": kind})


def _fits(cell: Cell, period: FactPeriod | None) -> bool:
    """Whether a cell's fact ends when its column's period does (a cell without a fact, or in a
    column without a shared period, always fits); a balance at the column's start (a cash flow's
    opening cash) fits too."""
    fact = cell.fact
    end = _day(fact.end) if fact is not None else None
    if end is None or period is None:
        return True
    start, column_end, _ = period
    if abs((end - _day(column_end)).days) <= DAYS_APART:
        return True
    opening = _day(start)
    return fact.instant and opening is not None and abs(end.toordinal() - opening.toordinal() + 1) <= DAYS_APART
