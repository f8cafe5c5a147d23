"""The arithmetic a question states, as data: "A to B" is the ratio of A to B, each a line item."""

from __future__ import annotations

import pytest

from docqa.finance.compose import show
from docqa.plan import build_plan


@pytest.mark.parametrize("question, shown", [
    ("What is 3M's capital expenditure to depreciation for 2018?", "capital expenditure / depreciation"),
    ("What was Amazon's net income to revenue in 2017?", "net income / revenue"),
    ("Compute the R&D-to-revenue for AMD in FY2022.", "R&D / revenue"),
    ("What was the ratio of inventory to total assets for Best Buy in FY2023?", "inventory / total assets"),
    ("Give Nike's cost of sales to revenue for fiscal 2023, rounded to two decimals.", "cost of sales / revenue"),
])
def test_a_to_b_is_the_ratio_of_the_two(question, shown):
    composition = build_plan(question, []).composition
    assert composition is not None and composition.kind == "ratio"
    assert show(composition.expr).lower() == shown.lower()


@pytest.mark.parametrize("question", [
    "What is 3M's debt to equity ratio in 2018?",            # a ratio the lexicon names keeps its definition
    "What was 3M's revenue in 2018 compared to 2017?",       # "to" between years
    "What was the change in net income from 2017 to 2018 for Amazon?",
    "How much cash did Amazon pay to acquire businesses in 2017?",
])
def test_to_between_other_words_is_no_ratio(question):
    composition = build_plan(question, []).composition
    assert composition is None or composition.kind != "ratio"


@pytest.mark.parametrize("question, shown, kind", [
    # a definition in brackets, arithmetic inside arithmetic
    ("What was Costco's quick ratio at August 29, 2021 ((cash and cash equivalents + receivables) / total current "
     "liabilities)?", "(cash and cash equivalents + receivables) / total current liabilities", None),
    ("Verizon's leverage in 2022 (long-term debt over total equity)?", "long-term debt / total equity", None),
    # "relative to", "A/B" between words
    ("Amazon 2019: fulfillment expense relative to net product sales?", "fulfillment expense / net product sales", "ratio"),
    ("What was Boeing's opex/revenue in 2018?", "opex / revenue", "ratio"),
    # coverage in times
    ("How many times did Corning's 2022 operating income cover its interest expense?",
     "operating income / interest expense", "times"),
    # "how much of B came from A", asked in percent; a member that names no measure takes the whole's
    ("How much of Nike's fiscal 2019 revenues came from the Greater China segment, in percent?",
     "Greater China segment revenues / revenues", "percent"),
    ("How much of Pfizer's 2021 operating cash flow went to dividends paid (percent)?",
     "dividends paid / operating cash flow", "percent"),
    ("Kraft Heinz 2019: cost of products sold as % of net sales?", "cost of products sold / net sales", "percent"),
    ("Adobe FY2022: sales and marketing % of total revenue?", "sales and marketing / total revenue", "percent"),
    # "intensity": a line as a share of revenue, unless the lexicon names the phrase ("capex intensity")
    ("What was AMD's R&D intensity in 2015?", "R&D / revenue", "percent"),
])
def test_ratios_in_analysts_words(question, shown, kind):
    composition = build_plan(question, []).composition
    assert composition is not None and composition.kind == kind
    assert show(composition.expr).lower() == shown.lower()


@pytest.mark.parametrize("question", [
    "How did Amazon's 2019 net sales change relative to 2018?",            # a period, not a line item
    "How much of Nike's fiscal 2019 revenue came from Greater China?",     # an amount: no percent asked
    "What share of MGM's 2022 rooms revenue was earned in the fourth quarter?",  # a period is no part
    "What was Adobe's revenue in fiscal 2022 (in millions)?",             # brackets without arithmetic
    "Did Boeing's revenue and/or backlog grow in 2018?",
])
def test_other_words_state_no_ratio(question):
    assert build_plan(question, []).composition is None


@pytest.mark.parametrize("question", [
    "CVS Health 2018 Retail/LTC segment revenues by line?",
    "How much did 3M sell to customers in China/Hong Kong in 2018?",
])
def test_a_slash_inside_a_name_is_no_ratio(question):
    assert build_plan(question, []).composition is None
