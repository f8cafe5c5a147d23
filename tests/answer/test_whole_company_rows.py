"""The whole company asked: a row of a table by segment is read after the company's own tables."""

from __future__ import annotations

from docqa.answer.figures.reading.printed_rows import RowMeasure
from docqa.answer.figures.reading.sources import Source
from docqa.finance.periods import Period
from docqa.finance.tables import Cell, Column, Row, StatementTable
from docqa.types import StatementKind

BOX = (0.0, 0.0, 1.0, 1.0)
YEAR = Column(index=0, header="Year Ended December 31, 2020", fiscal_year=2020, period="year",
              period_end="2020-12-31", months=12, x0=0, x1=1)


def _table(title: str, label: str, value: float, page: int, statement=None, section=None) -> StatementTable:
    row = Row(label=label, section=section, cells=(Cell(value=value, raw=f"{value:,.0f}", column=0, bbox=BOX),), bbox=BOX, indent=0)
    return StatementTable(page=page, title=title, statement=statement, unit="thousands", columns=(YEAR,),
                          rows=(row,), bbox=BOX)


def test_a_segments_row_printed_as_asked_is_not_the_companys_figure():
    by_segment = _table("Net Revenues by Segment", "Casino revenue", 728254, 44)
    income = _table("Consolidated Statements of Operations", "Casino", 2871720, 65, StatementKind.INCOME, "Revenues")
    source = Source("MGM_10K.pdf", "m", [by_segment, income], {})
    got = RowMeasure("casino revenues", kinds=frozenset({"amount"})).evaluate([source], Period(2020))
    assert got is not None and got.value == 2871720
    # A part asked (a scoped question sets the source's part): the segment's table is read as it ranks.
    part = Source("MGM_10K.pdf", "m", [by_segment, income], {}, part=lambda c: True)
    assert RowMeasure("casino revenues", kinds=frozenset({"amount"})).evaluate([part], Period(2020)).value == 728254
