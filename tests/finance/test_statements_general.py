"""Statement rows read right on practice-set filings nobody tuned on: SEC Schedule I (the parent's
own statements) is no consolidated figure, a debt line "classified as current" is no long-term debt,
and a label that merely holds a form's words ("available-for-sale") is not that line item."""

from __future__ import annotations

from docqa.finance.formulas import Format, compute, render
from docqa.finance.statements import find_line_items, read_tables
from docqa.finance.tables import parent_only, without_parent_only

from .conftest import practice_page

PGE = "PG_E_2022_10K.pdf"


def test_schedule_one_is_the_parents_own_statements():
    # "Schedule I — Condensed Financial Information of PG&E Corporation (“Parent”)"
    parent = read_tables(practice_page(PGE, 217))
    consolidated = read_tables(practice_page(PGE, 101))
    assert parent and all(parent_only(t) for t in parent if t.statement is not None)
    assert not any(parent_only(t) for t in consolidated)
    kept = without_parent_only(consolidated + parent)
    assert all(t.page != 217 for t in kept if t.statement is not None)


def test_debt_classified_as_current_is_not_long_term_debt():
    tables = read_tables(practice_page(PGE, 101))
    long_term = find_line_items(tables, "long_term_debt")
    assert long_term and long_term[0].row.label.startswith("Long-term debt (includes")
    assert all("classified as current" not in m.row.label for m in long_term)
    current = find_line_items(tables, "current_portion_long_term_debt")
    assert current and "classified as current" in current[0].row.label


def test_words_of_a_form_scattered_in_a_label_are_not_that_line():
    # Other comprehensive income: "Net unrealized losses on available-for-sale securities" holds
    # "net" and "sale" but is no net sales line.
    tables = read_tables(practice_page(PGE, 99))
    assert all("available-for-sale" not in m.row.label for m in find_line_items(tables, "revenue"))


def test_amounts_of_a_table_with_no_unit_are_shown_as_printed():
    assert render(7222, "currency", Format(scale="millions"), None) == "$7,222"
    assert render(1577, "currency", Format(scale="billions"), "millions") == "$1.58 billion"
    # A small amount asked in a larger scale keeps a digit instead of reading as nothing.
    assert render(2, "currency", Format(scale="millions"), "thousands") == "$0.002 million"


def test_a_debt_ratio_shows_the_debt_lines_it_adds():
    result = compute("debt_to_equity", {"short_term_debt": 9963, "long_term_debt": 140676, "total_equity": 92463})
    assert "(9,963 + 140,676) / 92,463" in result.formula
    single = compute("debt_to_equity", {"long_term_debt": 15429, "total_equity": 9266})
    assert "15,429 / 9,266" in single.formula


def test_a_tax_benefit_is_read_from_the_label_that_names_it():
    from docqa.finance.text import expense_amount

    assert expense_amount("Income tax provision (benefit)", -1338) == -1338          # a benefit
    assert expense_amount("Benefit (provision) for income taxes", -697068) == 697068  # a provision
    assert expense_amount("Benefit (provision) for income taxes", 191572) == -191572
    assert expense_amount("Provision for income taxes", -2374) == 2374                # printed subtractive
    assert expense_amount("Income tax benefit", 500) == -500


def test_profit_and_total_comprehensive_income_is_the_bottom_line():
    # A UK single statement with no other comprehensive income names its bottom line both ways.
    tables = read_tables(practice_page("ac9aa244462c80705c3ff046542c02c459989742.pdf", 77))   # Mercia Asset Management
    matches = find_line_items(tables, "net_income")
    assert matches and matches[0].row.label == "Profit and total comprehensive income for the year"


def test_a_closed_groups_balance_sheet_is_not_the_filers():
    # Amcor's "Deed of Cross Guarantee / Consolidated Balance Sheets" (p. 107) consolidates only the
    # closed group: its "Receivables, net 342" is not the group's trade receivables of 1,875 (p. 52).
    from .conftest import filing_page

    closed = read_tables(filing_page("AMCOR_2023_10K.pdf", 107))
    group = read_tables(filing_page("AMCOR_2023_10K.pdf", 52))
    assert closed and all(parent_only(t) for t in closed if t.statement is not None)
    assert not any(parent_only(t) for t in group)
    kept = without_parent_only(group + closed)
    assert {t.page for t in kept if t.statement is not None} == {52}


def test_a_column_whose_year_heading_was_lost_is_the_filings_own_year():
    # McDonald's 2022 cash flow statement prints "Years ended December 31, 2022  2021  2020" on one
    # line, its first heading starting over the labels: that heading is the first column's.
    from docqa.finance.tables import with_own_year_filled

    tables = read_tables(practice_page("MCDONALDS_2022_10K.pdf", 39))
    read = next(t for t in tables if t.statement is not None)
    assert [c.fiscal_year for c in read.columns] == [2022, 2021, 2020]
    # A heading lost all the same (set apart from its column, read with no header beside "2021" and
    # "2020"): only the filing's own year fills such a gap, a blank column beside a filing's years
    # is as often a notes column.
    blank = read.columns[0].model_copy(update={"header": "", "fiscal_year": None, "period": None,
                                               "period_end": None, "months": None})
    flows = read.model_copy(update={"columns": (blank, *read.columns[1:])})
    assert flows.column_for(2022) is None and flows.column_for(2021) is not None
    filled = with_own_year_filled(flows, 2022)
    column = filled.column_for(2022)
    assert column is not None and column.index == 0 and column.period == "year"
    operations = next(r for r in filled.rows if r.label == "Cash provided by operations")
    assert operations.cell(column.index).value == 7386.7
    assert with_own_year_filled(flows, 2023) is flows  # not the filing's year: left as read
    assert with_own_year_filled(filled, 2022) is filled
