from __future__ import annotations

import pytest

from docqa.finance import formulas as F
from docqa.finance.lexicon import load_lexicon, parse_lexicon
from docqa.types import StatementKind


@pytest.fixture(scope="module")
def lx():
    return load_lexicon()


def keys(lx, question: str) -> list[str]:
    return [m.key for m in lx.match(question)]


def test_loads_versioned_data_and_covers_the_basics(lx):
    assert lx.version == 1
    metric_keys = {m.key for m in lx.metrics}
    for key in ("revenue", "cost_of_revenue", "gross_profit", "operating_income", "net_income",
                "net_income_attributable", "depreciation_amortization", "interest_expense", "income_tax",
                "capex", "operating_cash_flow", "dividends_paid", "share_repurchases", "total_assets",
                "total_liabilities", "current_assets", "current_liabilities", "cash_and_equivalents",
                "inventory", "accounts_receivable", "accounts_payable", "ppe_net", "short_term_debt",
                "long_term_debt", "current_portion_long_term_debt", "total_equity", "shares_outstanding",
                "eps_basic", "eps_diluted", "research_development", "sga", "effective_tax_rate",
                "restructuring", "goodwill", "intangible_assets"):
        assert key in metric_keys
    formula_keys = {f.key for f in lx.formulas}
    assert {"gross_margin", "operating_margin", "net_margin", "growth", "current_ratio", "quick_ratio",
            "debt_to_equity", "asset_turnover", "fixed_asset_turnover", "inventory_turnover", "dso", "dio",
            "dpo", "roa", "roe", "operating_cash_flow_ratio", "free_cash_flow", "capex_to_revenue", "ebitda",
            "dividend_payout_ratio", "working_capital", "interest_coverage", "effective_tax_rate_calc"} <= formula_keys


def test_every_formula_can_be_computed(lx):
    from docqa.finance.compose import parse_formula

    composed = {f.key for f in lx.formulas if f.compose}
    for f in lx.formulas:
        for text in (f.compose, f.alternative):
            if text:
                parse_formula(text)  # formulas as data parse
    missing = {f.key for f in lx.formulas} - F.supported() - composed
    assert not missing, f"formulas in lexicon.yaml without a function or a compose expression: {missing}"


def test_averaged_inputs_are_declared(lx):
    assert lx.formula("roa").average == ("total_assets",)
    assert lx.formula("fixed_asset_turnover").uses_average
    assert not lx.formula("current_ratio").uses_average
    assert lx.formula("growth").needs_subject


@pytest.mark.parametrize("question, expected", [
    ("What is the FY2018 capital expenditure amount (in USD millions) for 3M?", ["capex"]),
    ("what is the year end FY2018 net PPNE for 3M?", ["ppe_net"]),
    ("What is 3M's PP&E net at year end?", ["ppe_net"]),
    ("How much D&A did Netflix report?", ["depreciation_amortization"]),
    ("What is the COGS for Microsoft?", ["cost_of_revenue"]),
    ("What were dividends paid in FY2020?", ["dividends_paid"]),
    ("What was the diluted EPS in 2022?", ["eps_diluted"]),
    ("What is the top line of Amazon?", ["revenue"]),
])
def test_matches_analyst_terms(lx, question, expected):
    assert keys(lx, question) == expected


def test_longest_match_wins_and_spans_point_into_the_question(lx):
    q = "What is Amazon's year-over-year change in revenue from FY2016 to FY2017?"
    matches = lx.match(q)
    assert [m.key for m in matches] == ["growth", "revenue"]
    growth = matches[0]
    assert q[growth.span[0]:growth.span[1]] == growth.text == "year-over-year change"
    # "net income attributable to shareholders" is one metric, not net income + something
    assert keys(lx, "what is Amazon's FY2019 net income attributable to shareholders?") == ["net_income_attributable"]


def test_case_punctuation_and_plurals_do_not_matter(lx):
    assert keys(lx, "CAPITAL EXPENDITURES") == ["capex"]
    assert keys(lx, "Year over year growth") == ["growth"]
    assert keys(lx, "net property, plant, and equipment") == ["ppe_net"]
    assert keys(lx, "PP & E") == ["ppe_net"]


def test_formula_named_once_even_when_repeated(lx):
    q = ("What is Amazon's FY2017 days payable outstanding (DPO)? DPO is defined as: 365 * (average accounts "
         "payable between FY2016 and FY2017) / (FY2017 COGS + change in inventory between FY2016 and FY2017).")
    assert keys(lx, q) == ["dpo", "accounts_payable", "cost_of_revenue", "inventory"]


def test_repeated_formula_name_does_not_leak_a_shorter_formula(lx):
    q = ("What is the FY2019 fixed asset turnover ratio for Activision Blizzard? Fixed asset turnover ratio is "
         "defined as: FY2019 revenue / (average PP&E between FY2018 and FY2019).")
    assert "asset_turnover" not in keys(lx, q)


def test_ordinary_words_are_not_metrics(lx):
    assert keys(lx, "Assume that you are a public equities analyst.") == []
    assert keys(lx, "Which segment dragged down growth?") == ["growth"]


def test_expansion_terms_include_formula_inputs(lx):
    terms = lx.expansion_terms(lx.match("What is the FY2018 capex as a % of revenue for 3M?"))
    assert "purchases of property plant and equipment" in terms
    assert "total net sales" in terms or "total revenues" in terms
    assert len(terms) == len(set(terms))


def test_statements_for(lx):
    assert lx.statements_for("What is the FY2018 capital expenditure for 3M?", lx.match("What is the FY2018 capital expenditure for 3M?")) == {StatementKind.CASH_FLOW}
    assert lx.statements_for("What is the FY2019 fixed asset turnover ratio?", lx.match("What is the FY2019 fixed asset turnover ratio?")) == {StatementKind.INCOME, StatementKind.BALANCE}
    # a statement the question names counts too
    assert StatementKind.BALANCE in lx.statements_for("Using the statement of financial position, what is revenue?", lx.match("Using the statement of financial position, what is revenue?"))
    assert lx.statements_for("Who is the CEO?", lx.match("Who is the CEO?")) == set()


def test_rejects_unknown_version_and_dangling_inputs():
    with pytest.raises(ValueError, match="version"):
        parse_lexicon({"version": 99, "metrics": [], "formulas": []})
    with pytest.raises(ValueError, match="unknown metrics"):
        parse_lexicon({"version": 1, "metrics": [], "formulas": [{"key": "x", "label": "X", "inputs": ["nope"]}]})


def test_routes_name_known_metrics_and_never_loop():
    a, b = {"key": "a", "label": "A"}, {"key": "b", "label": "B", "routes": ["a - c"]}
    with pytest.raises(ValueError, match="unknown metrics"):
        parse_lexicon({"version": 1, "metrics": [a, b], "formulas": []})
    loop = [{"key": "a", "label": "A", "routes": ["b"]}, {"key": "b", "label": "B", "routes": ["a"]}]
    with pytest.raises(ValueError, match="routes back to itself"):
        parse_lexicon({"version": 1, "metrics": loop, "formulas": []})


def test_declared_routes_and_parts(lx):
    assert lx.metric("gross_profit").routes == ("sales_revenue - cost_of_revenue",)
    assert [m.key for m in lx.match("What were net sales?")] == ["revenue"]  # sales_revenue: an input only
    assert lx.metric("cost_of_revenue").parts == ("cost of *",)


def test_unknown_keys_say_what_exists(lx):
    with pytest.raises(KeyError, match="known"):
        lx.metric("ebitdar")
