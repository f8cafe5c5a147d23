"""A table that prints no scale takes the statements' when it repeats their figures (PepsiCo's free
cash flow reconciliation in its MD&A), and only then."""

from __future__ import annotations

from docqa.finance.table_scale import INFERRED, scaled_like_statements
from docqa.finance.tables import Cell, Column, Row, StatementTable
from docqa.types import StatementKind

BOX = (0.0, 0.0, 1.0, 1.0)


def _table(rows: list[tuple[str, float]], unit=None, statement=None, page=1) -> StatementTable:
    return StatementTable(page=page, title="", statement=statement, unit=unit, bbox=BOX,
                          columns=(Column(index=0, header="2021", fiscal_year=2021, x0=0, x1=1),),
                          rows=tuple(Row(label=label, cells=(Cell(value=v, raw=f"{v:,.0f}", column=0, bbox=BOX),),
                                         bbox=BOX, indent=0) for label, v in rows))


CASH_FLOWS = _table([("Net Cash Provided by Operating Activities", 11616), ("Capital spending", -4625),
                     ("Sales of property, plant and equipment", 166)], unit="millions",
                    statement=StatementKind.CASH_FLOW, page=63)


def test_a_reconciliation_repeating_the_statements_figures_takes_their_scale():
    free = _table([("Net cash provided by operating activities, GAAP measure", 11616), ("Capital spending", -4625),
                   ("Sales of property, plant and equipment", 166), ("Free cash flow, non-GAAP measure", 7157)],
                  page=53)
    scaled = scaled_like_statements([CASH_FLOWS, free])[1]
    assert scaled.unit == "millions" and scaled.unit_text == INFERRED


def test_a_table_with_one_figure_of_the_statements_keeps_no_scale():
    # prices and counts beside one total: the total alone says nothing of the rest
    kpis = _table([("Total net sales", 11616), ("Average ticket", 152), ("Warehouses", 815), ("Members", 1205)],
                  page=20)
    assert scaled_like_statements([CASH_FLOWS, kpis])[1].unit is None


def test_a_table_with_its_own_scale_keeps_it():
    own = _table([("Operating cash flow", 11616), ("Capital spending", -4625)], unit="thousands", page=40)
    assert scaled_like_statements([CASH_FLOWS, own])[1].unit == "thousands"


def test_a_breakdown_whose_total_repeats_the_statements_figures_takes_their_scale():
    balance = _table([("Total assets", 92377), ("Total liabilities", 76226)], unit="millions",
                     statement=StatementKind.BALANCE, page=65)
    statements = [CASH_FLOWS, balance]
    divisions = StatementTable(page=71, title="Total assets and capital spending of each division", statement=None,
                               unit=None, bbox=BOX,
                               columns=(Column(index=0, header="Total Assets 2021", fiscal_year=2021, x0=0, x1=1),
                                        Column(index=1, header="Capital Spending 2021", fiscal_year=2021, x0=1, x1=2)),
                               rows=tuple(Row(label=label, bbox=BOX, indent=0,
                                              cells=tuple(Cell(value=v, raw=f"{v:,.0f}", column=k, bbox=BOX)
                                                          for k, v in enumerate(values)))
                                          for label, values in (("FLNA", (9763, 1411)), ("PBNA", (37801, 1275)),
                                                                ("Other divisions", (38624, 1833)),
                                                                ("Corporate", (6189, 106)), ("Total", (92377, 4625)))))
    scaled = scaled_like_statements([*statements, divisions])[-1]
    assert scaled.unit == "millions" and scaled.unit_text == INFERRED
