"""A quarter's flow is never read off a column of a day: a year-end column is its fourth quarter's
balance, and only that."""

from __future__ import annotations

from docqa.finance.periods import Period
from docqa.finance.tables import Cell, Column, Row, StatementTable

BOX = (0.0, 0.0, 1.0, 1.0)


def _table(columns) -> StatementTable:
    cells = tuple(Cell(value=194579.0, raw="194,579", column=k, bbox=BOX) for k in range(len(columns)))
    return StatementTable(page=327, title="Impact of Change in Accounting Policy", unit="millions", columns=tuple(columns),
                          rows=(Row(label="Total revenues", cells=cells, bbox=BOX, indent=0),), bbox=BOX)


def test_a_year_end_column_is_the_fourth_quarters_balance_never_its_flow():
    # CVS 2018: "As of/For the year ended December 31, 2018" read as a day's column
    day = Column(index=0, header="December 31, 2018", fiscal_year=2018, period="instant", x0=0, x1=1)
    table = _table([day])
    assert table.column_for_period(Period(2018, 4), stock=False) is None
    assert table.column_for_period(Period(2018, 4), stock=True) == day
    assert table.column_for_period(Period(2018), stock=False) == day  # the year's, as the year's
