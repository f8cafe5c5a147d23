"""Statement tables as data: line items x period columns, each figure with its box on the page.

Pydantic models, so a page's tables are read once at ingest and stored as JSON.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from docqa.finance.periods import PeriodKind
from docqa.types import BBox, StatementKind

Unit = Literal["units", "thousands", "millions", "billions"]
RowKind = Literal["currency", "per_share", "shares", "percent"]

UNIT_SCALE: dict[str, float] = {"units": 1.0, "thousands": 1e3, "millions": 1e6, "billions": 1e9}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Cell(_Frozen):
    value: float | None  # None: the cell states no number ("NM", "n/a"); a dash reads as 0
    raw: str             # as printed, e.g. "(1,577)" or "$ 2,853"
    column: int
    bbox: BBox


class Column(_Frozen):
    index: int
    header: str                    # the header words stacked above the column, top to bottom
    fiscal_year: int | None = None
    period: PeriodKind | None = None
    period_end: str | None = None  # ISO date, when printed
    months: int | None = None
    derived: bool = False          # "% of sales", "% change": not a period's own figure
    x0: float
    x1: float


class Row(_Frozen):
    label: str                 # continuation lines joined ("... attributable to shareowners of the Coca-Cola Company")
    section: str | None = None  # the heading the row sits under ("Current assets:", "Earnings per share:")
    kind: RowKind = "currency"
    cells: tuple[Cell, ...]
    bbox: BBox
    indent: float              # x of the label: deeper rows are components, shallower ones totals

    def cell(self, column: int) -> Cell | None:
        for c in self.cells:
            if c.column == column:
                return c
        return None


class StatementTable(_Frozen):
    page: int                          # 1-based
    statement: StatementKind | None = None
    title: str = ""                    # heading lines above the table
    unit: Unit | None = None           # scale of currency figures ("in millions")
    unit_text: str | None = None       # the words that said so
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    bbox: BBox

    @property
    def scale(self) -> float | None:
        return UNIT_SCALE[self.unit] if self.unit else None

    def period_columns(self) -> list[Column]:
        return [c for c in self.columns if not c.derived]

    def column_for(self, year: int, period: PeriodKind | None = None) -> Column | None:
        """The column reporting ``year`` (fiscal year, else the year of the printed end date).

        With no period asked, a full year (or a balance-sheet date) wins over a quarter.
        """
        order = {"year": 0, "instant": 0, None: 1, "ytd": 2, "quarter": 3}
        found = [
            c for c in self.period_columns()
            if (c.fiscal_year == year or (c.period_end is not None and int(c.period_end[:4]) == year))
            and (period is None or c.period == period)
        ]
        if not found:
            return None
        return min(found, key=lambda c: (c.fiscal_year != year, order.get(c.period, 1), c.index))

    def value(self, row: Row, year: int, period: PeriodKind | None = None) -> Cell | None:
        column = self.column_for(year, period)
        return row.cell(column.index) if column else None

    def years(self) -> list[int]:
        return sorted({c.fiscal_year for c in self.period_columns() if c.fiscal_year is not None})
