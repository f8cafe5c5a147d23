from __future__ import annotations

import pytest

from docqa.finance.periods import parse_period
from docqa.finance.statement_kinds import detect_statement, detect_unit
from docqa.finance.statements import find_line_items, read_tables
from docqa.finance.tables import StatementTable
from docqa.types import StatementKind

from .conftest import filing_page, line, num, page, sample_page


def value(tables: list[StatementTable], metric: str, year: int) -> float | None:
    for match in find_line_items(tables, metric):
        cell = match.table.value(match.row, year)
        if cell is not None:
            return cell.value
    return None


def best_label(tables: list[StatementTable], metric: str) -> str:
    return find_line_items(tables, metric)[0].row.label


# ------------------------------------------------------------------------- synthetic layouts
def synthetic_income_statement():
    return page(
        line(40, ("Consolidated Statements of Operations", 200)),
        line(52, ("(in millions, except per share data)", 200)),
        line(64, ("Year Ended December 31,", 420)),
        line(76, num("2023", 460), num("2022", 540)),
        line(88, ("Net sales", 20), ("$", 400), num("1,000", 460), ("$", 480), num("900", 540)),
        line(100, ("Cost of sales", 30), num("(600)", 462), num("—", 532)),
        line(112, ("Income from unconsolidated affiliates related to real estate", 30)),
        line(124, ("ventures", 30), num("15", 460), num("12", 540)),
        line(136, ("Earnings per share:", 20)),
        line(148, ("Basic", 30), ("$", 400), num("1.25", 460), ("$", 480), num("1.10", 540)),
        line(172, ("Revenue grew to $1.5 billion compared to", 20), ("$1.2", 205)),
    )


def test_reads_header_years_units_and_signs():
    (table,) = read_tables(synthetic_income_statement())
    assert table.statement == StatementKind.INCOME
    assert table.unit == "millions" and table.scale == 1e6
    assert [(c.fiscal_year, c.period) for c in table.columns] == [(2023, "year"), (2022, "year")]
    sales = table.rows[0]
    assert sales.label == "Net sales" and [c.value for c in sales.cells] == [1000, 900]
    cost = table.rows[1]
    assert [c.raw for c in cost.cells] == ["(600)", "—"] and [c.value for c in cost.cells] == [-600, 0]


def test_joins_wrapped_labels_and_keeps_headings_as_sections():
    (table,) = read_tables(synthetic_income_statement())
    labels = [r.label for r in table.rows]
    assert "Income from unconsolidated affiliates related to real estate ventures" in labels
    basic = table.rows[labels.index("Basic")]
    assert basic.section == "Earnings per share:" and basic.kind == "per_share"
    assert value([table], "eps_basic", 2023) == 1.25


def test_prose_ending_in_a_number_is_not_a_row():
    (table,) = read_tables(synthetic_income_statement())
    assert not any("Revenue grew" in r.label for r in table.rows)


def test_cell_boxes_cover_the_figure():
    (table,) = read_tables(synthetic_income_statement())
    cell = table.rows[0].cells[0]
    assert cell.raw == "$ 1,000"  # as printed; the box is the digits only
    x0, _, x1, _ = cell.bbox
    assert x1 == pytest.approx(460) and x0 == pytest.approx(460 - 4.4 * 5)


def test_spanning_headers_and_quarter_columns():
    p = page(
        line(40, ("Condensed Consolidated Statements of Earnings", 150)),
        line(52, ("($ in millions)", 20)),
        line(64, ("Three Months Ended", 330), ("Six Months Ended", 490)),
        line(76, ("July 29, 2023", 300), ("July 30, 2022", 380), ("July 29, 2023", 460), ("July 30, 2022", 540)),
        line(88, ("Revenue", 20), num("9,583", 350), num("10,329", 430), num("18,050", 510), num("20,394", 590)),
        line(100, ("Operating income", 20), num("348", 350), num("371", 430), num("659", 510), num("833", 590)),
    )
    (table,) = read_tables(p)
    cols = [(c.fiscal_year, c.period, c.period_end) for c in table.columns]
    assert cols == [(2023, "quarter", "2023-07-29"), (2022, "quarter", "2022-07-30"),
                    (2023, "ytd", "2023-07-29"), (2022, "ytd", "2022-07-30")]
    row = table.rows[0]
    assert table.value(row, 2023, "quarter").value == 9583
    assert table.value(row, 2023).value == 18050 or table.value(row, 2023).value == 9583
    assert table.value(row, 2022, "ytd").value == 20394


def test_balance_sheet_dates_are_instants():
    p = page(
        line(40, ("Consolidated Balance Sheets", 200)),
        line(52, ("December 31,", 430), ("December 31,", 510)),
        line(64, ("(Dollars in millions)", 20), num("2018", 460), num("2017", 540)),
        line(76, ("Total assets", 20), ("$", 400), num("36,500", 460), ("$", 480), num("37,987", 540)),
        line(88, ("Total liabilities", 20), num("26,652", 460), num("26,365", 540)),
    )
    (table,) = read_tables(p)
    assert table.statement == StatementKind.BALANCE
    assert [(c.fiscal_year, c.period, c.period_end) for c in table.columns] == [
        (2018, "instant", "2018-12-31"), (2017, "instant", "2017-12-31")]
    assert value([table], "total_assets", 2017) == 37987


def test_period_parsing():
    assert parse_period("Fiscal 2023").fiscal_year == 2023
    assert parse_period("Q4 2023").period == "quarter"
    assert parse_period("Q4 FY23").fiscal_year == 2023
    info = parse_period("January 28, 2023", context="Fiscal Years Ended")
    assert (info.fiscal_year, info.period, info.period_end) == (2023, "year", "2023-01-28")
    assert parse_period("January 2, 2021").fiscal_year == 2020  # a 52/53-week year closing in early January
    assert parse_period("Nine Months Ended September 30, 2022").months == 9
    assert parse_period("% Change").derived
    assert parse_period("December 31, 2018", balance_sheet=True).period == "instant"


def test_statement_and_unit_detection():
    assert detect_statement("Consolidated Statement of Cash Flow s") == StatementKind.CASH_FLOW
    assert detect_statement("CONSOLIDATED STATEMENTS OF OPERATIONS") == StatementKind.INCOME
    assert detect_statement("Consolidated Statements of Comprehensive Income") == StatementKind.COMPREHENSIVE
    assert detect_statement("Management's Discussion and Analysis of Financial Condition") is None
    assert detect_unit("(Millions)")[0] == "millions"
    assert detect_unit("(in thousands, except per share data)")[0] == "thousands"
    assert detect_unit("$ and shares in millions, except per share amounts")[0] == "millions"
    assert detect_unit("Revenue was $37 million higher")[0] is None


def test_total_beats_segment_and_exclusions_veto():
    p = page(
        line(40, ("Consolidated Statements of Income", 200)),
        line(64, ("(in millions)", 20), num("2023", 460), num("2022", 540)),
        line(76, ("Net sales", 30), num("700", 460), num("600", 540)),
        line(88, ("Net sales", 30), num("300", 460), num("200", 540)),
        line(100, ("Total net sales", 20), num("1,000", 460), num("800", 540)),
        line(112, ("Net income", 20), num("90", 460), num("80", 540)),
        line(124, ("Net income attributable to noncontrolling interests", 20), num("5", 460), num("4", 540)),
        line(136, ("Net income attributable to Acme Corp.", 20), num("85", 460), num("76", 540)),
    )
    tables = read_tables(p)
    assert best_label(tables, "revenue") == "Total net sales"
    assert best_label(tables, "net_income") == "Net income attributable to Acme Corp."
    labels = [m.row.label for m in find_line_items(tables, "net_income")]
    assert "Net income attributable to noncontrolling interests" not in labels


def test_tables_serialise_to_json_and_back():
    tables = read_tables(synthetic_income_statement())
    restored = [StatementTable.model_validate_json(t.model_dump_json()) for t in tables]
    assert restored == tables


# ------------------------------------------------------------------------- samples/ (always present)
def test_amazon_2017_income_statement():
    tables = read_tables(sample_page("AMAZON_2017_10K.pdf", 38))
    assert tables[0].statement == StatementKind.INCOME and tables[0].unit == "millions"
    assert value(tables, "revenue", 2017) == 177866
    assert value(tables, "revenue", 2016) == 135987
    assert best_label(tables, "revenue") == "Total net sales"
    assert value(tables, "cost_of_revenue", 2017) == 111934
    assert value(tables, "operating_income", 2017) == 4106
    assert value(tables, "interest_expense", 2017) == -848
    assert value(tables, "net_income", 2017) == 3033
    assert value(tables, "eps_diluted", 2017) == 6.15
    assert value(tables, "weighted_shares_diluted", 2017) == 493  # "Basic"/"Diluted" under the shares heading


def test_amazon_2017_balance_sheet_and_cash_flows():
    balance = read_tables(sample_page("AMAZON_2017_10K.pdf", 40))
    assert balance[0].statement == StatementKind.BALANCE
    assert [c.period for c in balance[0].columns] == ["instant", "instant"]
    assert value(balance, "total_assets", 2017) == 131310
    assert value(balance, "accounts_payable", 2016) == 25309
    assert value(balance, "inventory", 2017) == 16047
    assert value(balance, "total_equity", 2017) == 27709
    cash = read_tables(sample_page("AMAZON_2017_10K.pdf", 37))
    assert cash[0].statement == StatementKind.CASH_FLOW
    assert value(cash, "capex", 2017) == -11955
    assert value(cash, "operating_cash_flow", 2017) == 18434


def test_netflix_2017_thousands():
    income = read_tables(sample_page("NETFLIX_2017_10K.pdf", 42))
    assert income[0].unit == "thousands"
    assert value(income, "revenue", 2017) == 11692713
    assert value(income, "net_income", 2017) == 558929
    assert value(income, "eps_basic", 2017) == 1.29  # "Basic" under "Earnings per share:"
    balance = read_tables(sample_page("NETFLIX_2017_10K.pdf", 45))
    assert value(balance, "current_liabilities", 2017) == 5466312
    cash = read_tables(sample_page("NETFLIX_2017_10K.pdf", 44))
    assert value(cash, "operating_cash_flow", 2017) == -1785948  # "Net cash used in operating activities"
    assert value(cash, "capex", 2017) == -173302


def test_adobe_2022_statements():
    income = read_tables(sample_page("ADOBE_2022_10K.pdf", 54))
    assert value(income, "revenue", 2022) == 17606
    assert best_label(income, "revenue") == "Total revenue"
    assert value(income, "cost_of_revenue", 2022) == 2165
    assert value(income, "gross_profit", 2022) == 15441
    assert value(income, "eps_diluted", 2022) == 10.10
    balance = read_tables(sample_page("ADOBE_2022_10K.pdf", 53))
    assert value(balance, "total_assets", 2022) == 27165
    assert value(balance, "ppe_net", 2021) is not None
    cash = read_tables(sample_page("ADOBE_2022_10K.pdf", 57))
    assert value(cash, "share_repurchases", 2022) == -6550
    assert find_line_items(cash, "dividends_paid") == []  # Adobe pays none: "not found", not a guess


# ------------------------------------------------------- corpus filings (cut in tests/fixtures/filings)
def test_3m_2018_cash_flow_and_balance_sheet():
    cash = read_tables(filing_page("3M_2018_10K.pdf", 60))
    assert best_label(cash, "capex") == "Purchases of property, plant and equipment (PP&E)"
    assert value(cash, "capex", 2018) == -1577
    assert value(cash, "depreciation_amortization", 2018) == 1488
    assert value(cash, "dividends_paid", 2018) == -3193
    balance = read_tables(filing_page("3M_2018_10K.pdf", 58))
    assert [c.header for c in balance[0].columns] == ["December 31, 2018", "December 31, 2017"]
    assert value(balance, "ppe_net", 2018) == 8738  # "— net", not the gross 24,873
    assert value(balance, "inventory", 2018) == 4366  # "Total inventories", not "Finished goods"
    assert value(balance, "total_equity", 2018) == 9796  # the company's shareholders, not incl. NCI


def test_best_buy_10q_quarter_and_six_month_columns():
    tables = read_tables(filing_page("BESTBUY_2024Q2_10Q.pdf", 20))
    first = tables[0]
    assert [c.period for c in first.columns] == ["quarter", "quarter", "ytd", "ytd"]
    row = find_line_items(tables, "operating_income")[0].row
    assert first.value(row, 2023, "quarter").value == 348
    assert first.value(row, 2022, "ytd").value == 833


def test_earnings_release_with_percent_columns():
    tables = read_tables(filing_page("JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf", 10))
    t = tables[0]
    assert t.statement == StatementKind.INCOME
    assert [c.derived for c in t.columns] == [False, True, False, True, True]
    assert value(tables, "revenue", 2023) == 25530  # "Sales to customers", the amount column
    assert value(tables, "net_income", 2022) == 4814


def test_coca_cola_attributable_net_income_and_wrapped_label():
    tables = read_tables(filing_page("COCACOLA_2017_10K.pdf", 74))
    assert best_label(tables, "net_income") == "NET INCOME ATTRIBUTABLE TO SHAREOWNERS OF THE COCA-COLA COMPANY"
    assert value(tables, "net_income", 2017) == 1248


def test_pepsico_ignores_the_dates_sentence_above_the_years():
    tables = read_tables(filing_page("PEPSICO_2022_10K.pdf", 62))
    assert [c.fiscal_year for c in tables[0].columns] == [2022, 2021, 2020]
    assert value(tables, "operating_income", 2022) == 11512  # "Operating Profit"
