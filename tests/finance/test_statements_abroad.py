"""Statements as filers outside the US print them (IFRS, UK, Australian, Hong Kong, Canadian), read
from practice-set filings nobody tuned on: the layouts, not the companies, are what these pin."""

from __future__ import annotations

import pytest

from docqa.finance.statements import find_line_items, read_tables
from docqa.finance.tables import StatementTable, parent_only, without_parent_only
from docqa.types import StatementKind

from .conftest import practice_page
from .test_statements import best_label, value

BENJAMIN_HORNIGOLD = "e2850fff8d9dee77f3a6520d0b1aba46adddc2c0.pdf"
STARVEST = "53aa4bfb3b29d7fc064e97626fc4f860942ca9fd.pdf"
EPI = "674a255d82495ef40189645697460801193e5a2d.pdf"
SWISS_WATER = "d86be8a2fa1aab721d7de6de7fd4f5267c914cb2.pdf"
OFX = "1bd670f9cdf088266db849722c3aded77a2f4894.pdf"
ZEGONA = "3696c1b29566acc1eafc704ee5737fb3ae6f3d1d.pdf"


def test_profit_or_loss_statement_and_its_bottom_line():
    # "Statement of profit or loss and other comprehensive income" is the IFRS income statement; its
    # bottom line reads "(Loss)/Profit after income tax for the year attributable to the owners of ...",
    # and "Net (loss)/gain on investment activities" above it is one item, not net income.
    tables = read_tables(practice_page(BENJAMIN_HORNIGOLD, 15))
    assert tables[0].statement == StatementKind.INCOME
    assert best_label(tables, "net_income").startswith("(Loss)/Profit after income tax for the year")
    assert value(tables, "net_income", 2022) == -1239019
    labels = [m.row.label for m in find_line_items(tables, "net_income")]
    assert "Net (loss)/gain on investment activities" not in labels


def test_a_label_finished_below_its_figures():
    # "Loss for the financial year attributable to" / "(5,869,756)  (3,528,482)" / "Equity holders of the Company"
    tables = read_tables(practice_page(STARVEST, 36))
    labels = [r.label for t in tables for r in t.rows]
    assert "Loss for the financial year attributable to Equity holders of the Company" in labels
    assert value(tables, "net_income", 2022) == -5869756


def test_a_gain_or_loss_with_its_sign_in_brackets_is_no_bottom_line():
    # Cash-flow adjustment "Net loss (gain) on financial assets at fair value through profit or loss"
    tables = read_tables(practice_page(EPI, 91))
    assert all("financial assets" not in m.row.label for m in find_line_items(tables, "net_income"))


def test_quarter_and_year_columns_under_a_header_that_states_the_unit():
    # "In 000s except for shares ...  3 months ended December 31,  Year ended December 31," over four years
    tables = read_tables(practice_page(SWISS_WATER, 19))
    table = next(t for t in tables if any("attributable to shareholders" in r.label for r in t.rows))
    assert [(c.fiscal_year, c.months) for c in table.columns] == [(2022, 3), (2021, 3), (2022, 12), (2021, 12)]


def test_two_dates_set_close_together_head_one_column_each():
    tables = read_tables(practice_page(SWISS_WATER, 44))
    assert [c.header for c in tables[0].columns][1:] == ["December 31, 2022", "December 31, 2021"]
    assert value(tables, "revenue", 2022) == 176935


def test_a_year_with_its_footnote_mark_glued_on():
    # "2022  20211": 2021 with a superscript footnote "1"
    tables = read_tables(practice_page(OFX, 81))
    assert [c.fiscal_year for c in tables[0].columns][1:] == [2022, 2021]
    assert value(tables, "total_assets", 2022) == 404452


def test_the_group_not_the_parent_company_and_not_equity_plus_liabilities():
    group = read_tables(practice_page(ZEGONA, 51))
    company = read_tables(practice_page(ZEGONA, 52))
    assert not any(parent_only(t) for t in group) and all(parent_only(t) for t in company)
    tables: list[StatementTable] = without_parent_only(company + group)
    assert all(t.page == 51 for t in tables)
    assert best_label(tables, "total_equity") == "Total equity attributable to equity holders of the Parent"
    # Only the parent's statements printed: they are what there is.
    assert without_parent_only(company) == company


def test_figures_with_zero_width_marks_glued_on_are_figures():
    # Ethernity's statements print "(8,696,876)\u200c": the mark prints nothing and is dropped at parse.
    page = practice_page("e51b7204b91cbe7709bd3218e7d2d0c2b8dbb438.pdf", 31)
    assert "\u200c" not in page.text
    rows = {r.label: [c.value for c in r.cells] for t in read_tables(page) for r in t.rows}
    assert rows["Operating loss"] == [-8696876.0, -6327475.0]


@pytest.mark.parametrize("text, unit", [
    ("€000", "thousands"), ("£000", "thousands"), ("£'000", "thousands"), ("HK$’000", "thousands"),
    ("In € millions", "millions"), ("(in £ thousands)", "thousands"),
    ("spent €1,000 on it", None), ("€100,000", None),
])
def test_a_currency_sign_over_000_or_before_millions_states_the_unit(text, unit):
    from docqa.finance.statement_kinds import detect_unit

    assert detect_unit(text)[0] == unit
