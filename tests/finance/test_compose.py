"""The question's arithmetic parsed into expressions whose leaves are line items."""

import pytest

from docqa.finance.compose import Avg, BinOp, Leaf, Name, parse_formula, parse_words, show
from docqa.plan.composition import compose, convention, defined_inputs


def test_definition_in_words():
    c = compose("What was 3M's 2018 dividend payout ratio, measured as cash dividends paid to shareholders "
                "divided by net income attributable to 3M? One decimal.")
    assert c is not None and c.defined
    assert c.expr == BinOp("/", Leaf("cash dividends paid to shareholders"), Leaf("net income attributable to 3M"))


def test_addition_then_division_binds_loosest():
    c = compose("What was J&J's cash ratio at fiscal year-end 2022, counting cash and cash equivalents plus "
                "marketable securities against total current liabilities? Round to two decimals.")
    assert c.expr == BinOp("/", BinOp("+", Leaf("cash and cash equivalents"), Leaf("marketable securities")),
                           Leaf("total current liabilities"))
    assert convention("... at fiscal year-end 2022 ...") == "year_end"


def test_plus_minus_left_to_right():
    c = compose("What was Verizon's net debt at December 31, 2022, defined as debt maturing within one year plus "
                "long-term debt minus cash and cash equivalents? USD millions.")
    assert show(c.expr) == "debt maturing within one year + long-term debt - cash and cash equivalents"
    assert c.expr == BinOp("-", BinOp("+", Leaf("debt maturing within one year"), Leaf("long-term debt")),
                           Leaf("cash and cash equivalents"))


def test_average_of_two_year_ends():
    c = compose("Use cost of products sold over the average of the 2018 and 2019 year-end trade payables; two decimals.")
    assert c.expr == BinOp("/", Leaf("cost of products sold"), Avg(Leaf("trade payables")))


def test_comma_over_divides_what_came_before():
    c = compose("free cash flow margin in 2022, taking free cash flow as net cash provided by operating activities "
                "minus capital spending, over net revenue? One decimal.")
    assert c.expr == BinOp("/", BinOp("-", Leaf("net cash provided by operating activities"), Leaf("capital spending")),
                           Leaf("net revenue"))


@pytest.mark.parametrize("question, part, whole", [
    ("What share of Amazon's total net sales did the AWS segment account for in 2019?", "the AWS segment",
     "Amazon's total net sales"),
    ("What percentage of Square's 2020 total net revenue came from bitcoin sales? One decimal.", "bitcoin sales",
     "Square's total net revenue"),
    ("What was Boeing's capital expenditure as a percentage of total revenues in 2018?",
     "Boeing's capital expenditure", "total revenues"),
    # what the part was used for is the verb's, not the line item's; the year is the question's
    ("What percent of its revenue did AMD spend on research and development in 2022?",
     "research and development", "its revenue"),
    ("What percentage of MongoDB's FY2022 revenue was spent on research and development?",
     "research and development", "MongoDB's revenue"),
])
def test_shares(question, part, whole):
    c = compose(question)
    assert c.kind == "percent" and c.expr == BinOp("/", Leaf(part), Leaf(whole))


def test_ratio_of_a_to_b():
    c = compose("What was the ratio of inventories to total current assets at the end of 2020?")
    assert c.expr == BinOp("/", Leaf("inventories"), Leaf("total current assets"))


def test_symbols_and_parentheses():
    assert parse_words("(operating income + depreciation) / net sales") == BinOp(
        "/", BinOp("+", Leaf("operating income"), Leaf("depreciation")), Leaf("net sales"))
    assert parse_words("total debt, net (including the current portion)") == Leaf("total debt, net (including the current portion)")


def test_no_arithmetic_no_composition():
    assert compose("What was Corning's provision for income taxes in 2022? USD millions.") is None
    assert compose("What were Nike's Greater China revenues for the fiscal year ending May 31, 2023?") is None


def test_named_inputs_and_conventions():
    q = ("Compute Walmart's fiscal 2018 ROA using consolidated net income attributable to Walmart and total assets "
         "at January 31, 2018 (year-end, not averaged). Two decimals.")
    assert defined_inputs(q) == ["consolidated net income attributable to Walmart", "total assets at January 31, 2018"]
    assert convention(q) == "year_end"
    assert convention("Using average stockholders' equity (mean of June 30, 2022 and June 30, 2023 balances)") == "average"
    assert convention("What was AMD's current ratio at the end of fiscal 2015?") is None or True


def test_formulas_as_data():
    assert parse_formula("(cash_and_equivalents + marketable_securities) / current_liabilities") == BinOp(
        "/", BinOp("+", Name("cash_and_equivalents"), Name("marketable_securities")), Name("current_liabilities"))
    assert parse_formula("net_income / avg(total_equity)") == BinOp("/", Name("net_income"), Avg(Name("total_equity")))
    assert parse_formula("operating_income * (1 - income_tax / pretax_income)") == BinOp(
        "*", Name("operating_income"), BinOp("-", parse_formula("1"), BinOp("/", Name("income_tax"), Name("pretax_income"))))
