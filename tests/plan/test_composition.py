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
