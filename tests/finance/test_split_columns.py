"""Columns of one period split by part of the company, and quarter columns under a year heading."""

from __future__ import annotations

from docqa.finance.periods import Period
from docqa.finance.tables import Cell, Column, Row, StatementTable, column_part, column_period

BOX = (0.0, 0.0, 1.0, 1.0)


def _table(headers: list[str], values: list[float], **column) -> StatementTable:
    columns = tuple(Column(index=i, header=h, x0=i, x1=i + 1, **column) for i, h in enumerate(headers))
    cells = tuple(Cell(value=v, raw=str(v), column=i, bbox=BOX) for i, v in enumerate(values))
    return StatementTable(page=1, columns=columns, rows=(Row(label="Net sales", cells=cells, bbox=BOX, indent=0),),
                          bbox=BOX)


QUARTER = dict(fiscal_year=2018, period="quarter", period_end="2018-12-31", months=3)


def test_the_part_of_a_header_is_what_is_not_its_period():
    assert column_part(Column(index=0, header="Three months ended December 31, 2018 Asia Pacific", x0=0, x1=1)) \
        == "asia pacific"
    assert column_part(Column(index=0, header="Fiscal Year Ended January 31, 2018 Q3", x0=0, x1=1)) == ""


def test_a_table_split_by_region_answers_the_company_from_its_worldwide_column():
    table = _table(["Three months ended December 31, 2018 United States",
                    "Three months ended December 31, 2018 Asia Pacific",
                    "Three months ended December 31, 2018 Worldwide"], [3183, 2453, 7945], **QUARTER)
    column = table.column_for_period(Period(2018, 4), quarter_hint=4)
    assert column is not None and column.index == 2


def test_a_table_split_by_region_with_no_total_gives_no_company_figure():
    table = _table(["Three months ended December 31, 2018 United States",
                    "Three months ended December 31, 2018 Asia Pacific"], [3183, 2453], **QUARTER)
    assert table.column_for_period(Period(2018, 4), quarter_hint=4) is None


def test_columns_of_one_period_that_name_no_part_keep_the_first():
    table = _table(["2018", "2018"], [1, 2], fiscal_year=2018, period="year", months=12)
    assert table.column_for(2018).index == 0


def test_a_quarter_column_under_a_year_heading_reports_its_three_months():
    year = dict(fiscal_year=2018, period="year", period_end="2018-01-31", months=12)
    table = _table([f"Fiscal Year Ended January 31, 2018 {q}" for q in ("Q1", "Q2", "Q3", "Q4", "Total")],
                   [117542, 123355, 123179, 136267, 500343], **year)
    assert column_period(table.columns[3]) == (Period(2018, 4), 3)
    assert table.column_for_period(Period(2018, 4)).index == 3
    assert table.column_for(2018).index == 4      # the year: the Total column, never Q1


def test_a_dash_is_an_amount_only_in_a_table_of_amounts():
    from docqa.answer.figures.reading.located import states_an_amount

    dash = Cell(value=0.0, raw="—", column=2, bbox=BOX)
    growth = Row(label="FLNA", cells=(Cell(value=8.0, raw="8 %", column=0, bbox=BOX),
                                       Cell(value=-0.5, raw="(0.5)", column=1, bbox=BOX), dash), bbox=BOX, indent=0)
    rates = StatementTable(page=1, columns=(), rows=(growth,), bbox=BOX)
    assert not states_an_amount(dash, growth, rates)
    assert states_an_amount(dash, growth, rates.model_copy(update={"unit": "millions"}))
    amounts = growth.model_copy(update={"cells": (Cell(value=8.0, raw="$ 8", column=0, bbox=BOX), dash)})
    assert states_an_amount(dash, amounts, rates)


YEAR = dict(fiscal_year=2021, period="year", months=12)


def test_a_column_named_by_the_measure_read_is_chosen_over_another_measures():
    table = _table(["Net Revenue 2021", "Long-Lived Assets 2021"], [3426, 3751], **YEAR)
    by_words = table.column_for(2021, choose=lambda cols: next((c for c in cols if "Revenue" in c.header), None))
    assert by_words.index == 0
    assert table.column_for(2021) is None          # no words, no total: neither is the company's figure


def test_the_one_column_headed_by_its_period_alone_is_the_tables_own_measure():
    table = _table(["2021", "Long-Lived Assets (a) 2021"], [3426, 3751], **YEAR)
    assert table.column_for(2021).index == 0
