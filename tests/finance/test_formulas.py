from __future__ import annotations

import pytest

from docqa.plan.format import requested_format

from docqa.finance import formulas as F


def test_capex_to_revenue_shows_its_arithmetic():
    r = F.capex_to_revenue(-1577, 32765)  # 3M 2018: capex printed (1,577), net sales 32,765
    assert r.value == pytest.approx(0.04813, rel=1e-3)
    assert r.kind == "percent"
    assert r.formula == "capex / revenue = 1,577 / 32,765 = 4.81%"


def test_dpo_uses_average_payables_and_purchases():
    # Amazon FY2017 (millions): AP 25,309 -> 34,616; inventory 11,461 -> 16,047; cost of sales 111,934
    r = F.dpo(111934, 25309, 34616, 11461, 16047)
    assert round(r.value, 2) == 93.86
    assert "365 * ((25,309 + 34,616) / 2) / (111,934 + (16,047 - 11,461))" in r.formula


def test_compute_by_key_reads_prior_year_for_averages():
    current = {"revenue": 6489, "ppe_net": 253}
    prior = {"ppe_net": 282}
    r = F.compute("fixed_asset_turnover", current, prior)  # Activision FY2019
    assert round(r.value, 2) == 24.26
    with pytest.raises(F.FormulaError, match="prior-year value of ppe_net"):
        F.compute("fixed_asset_turnover", current, {})


def test_compute_names_a_missing_input():
    with pytest.raises(F.FormulaError, match="current-year value of revenue"):
        F.compute("net_margin", {"net_income": 1})


def test_zero_denominator_is_an_error_not_infinity():
    with pytest.raises(F.FormulaError, match="zero"):
        F.current_ratio(10, 0)


@pytest.mark.parametrize("key, current, prior, expected", [
    ("current_ratio", {"current_assets": 1001425, "current_liabilities": 577464}, None, 1.73),
    ("working_capital", {"current_assets": 19815, "current_liabilities": 13997}, None, 5818),
    ("free_cash_flow", {"operating_cash_flow": 3676.2, "capex": -460.8}, None, 3215.4),
    ("ebitda", {"operating_income": 1196, "depreciation_amortization": 636}, None, 1832),
    ("retention_ratio", {"net_income": 2707.3, "dividends_paid": -1244.5}, None, 0.54),
    ("operating_cash_flow_ratio", {"operating_cash_flow": 1469502, "current_liabilities": 2213556}, None, 0.66),
    ("inventory_turnover", {"cost_of_revenue": 16830, "inventory": 2721}, {"inventory": 2667}, 6.25),
    ("roa", {"net_income": 1248, "total_assets": 87896}, {"total_assets": 87270}, 0.01),
    ("asset_turnover", {"revenue": 65398, "total_assets": 50710}, {"total_assets": 47528}, 1.33),
    ("interest_coverage", {"operating_income": 4106, "interest_expense": -848}, None, 4.84),
    ("effective_tax_rate_calc", {"income_tax": 769, "pretax_income": 3806}, None, 0.20),
    ("debt_to_equity", {"short_term_debt": 100, "long_term_debt": 400, "total_equity": 1000}, None, 0.5),
])
def test_formulas_against_known_answers(key, current, prior, expected):
    assert round(F.compute(key, current, prior).value, 2) == pytest.approx(expected, abs=0.006)


def test_cash_conversion_cycle_matches_general_mills_fy2019():
    current = {"inventory": 1559.3, "accounts_receivable": 1679.7, "accounts_payable": 2854.1,
               "cost_of_revenue": 11108.4, "revenue": 16865.2}
    prior = {"inventory": 1642.2, "accounts_receivable": 1684.2, "accounts_payable": 2746.2}
    assert round(F.compute("cash_conversion_cycle", current, prior).value, 1) == -3.7


def test_growth_cagr_average():
    assert round(F.growth(177866, 135987).value * 100, 1) == 30.8
    assert round(F.cagr(65398, 65984, 2).value * 100, 1) == 0.4
    assert F.growth(-50, -100).value == pytest.approx(0.5)  # from a loss of 100 to a loss of 50: +50 %
    with pytest.raises(F.FormulaError):
        F.cagr(0, 10, 2)
    avg = F.average([0.02, 0.03, 0.04], "percent")
    assert avg.value == pytest.approx(0.03)
    assert "2.00% + 3.00% + 4.00%" in avg.formula


def test_gross_margin_from_cost_when_gross_profit_is_not_printed():
    r = F.gross_margin(revenue=177866, cost_of_revenue=111934)
    assert r.value == pytest.approx((177866 - 111934) / 177866)
    assert r.formula.startswith("(revenue - cost of revenue) / revenue = (177,866 - 111,934) / 177,866")


@pytest.mark.parametrize("question, scale, decimals, percent", [
    ("What is the FY2018 capital expenditure amount (in USD millions) for 3M?", "millions", None, None),
    ("what is the year end FY2018 net PPNE for 3M? Answer in USD billions.", "billions", None, None),
    ("Round your answer to two decimal places.", None, 2, None),
    ("Answer in units of percents and round to one decimal place.", None, 1, True),
    ("3 year average net profit margin (as a %) for Best Buy", None, None, True),
    ("capex as a % of revenue", None, None, None),
    ("in thousands of dollars, to the nearest whole number", "thousands", 0, None),
])
def test_requested_format(question, scale, decimals, percent):
    fmt = requested_format(question)
    assert (fmt.scale, fmt.decimals, fmt.percent) == (scale, decimals, percent)


def test_convert_and_render():
    assert F.convert(1577, "millions", "billions") == pytest.approx(1.577)
    assert F.convert(5466312, "thousands", "millions") == pytest.approx(5466.312)
    assert F.convert(12, None, "millions") == 12
    assert F.render(1577, "currency", F.Format(scale="billions"), "millions") == "$1.58 billion"
    assert F.render(1577, "currency", F.Format(), "millions") == "$1,577 million"
    assert F.render(0.0481, "percent", F.Format(decimals=2)) == "4.81%"
    assert F.render(0.6639, "ratio", F.Format(decimals=2)) == "0.66"
    assert F.render(93.857, "days", F.Format()) == "93.86 days"
    assert F.render(-1.5, "currency", F.Format(decimals=1), "millions") == "-$1.5 million"


def test_a_debt_ratio_without_any_debt_line_read_is_unknown_not_zero():
    # The filer's debt lines were not read (another name, a note): 0 / equity would be a wrong answer.
    with pytest.raises(F.FormulaError, match="no debt line"):
        F.compute("debt_to_equity", {"total_equity": 2798.0})
    with pytest.raises(F.FormulaError, match="no debt line"):
        F.compute("total_debt", {})
    assert F.compute("debt_to_equity", {"long_term_debt": 100.0, "total_equity": 50.0}).value == 2.0
