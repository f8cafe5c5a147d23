"""The figures answerer: which periods and measures a question asks, which column reports them,
and end to end on real filings (the bundled samples, and quarterly filings in tests/fixtures/filings)."""

from __future__ import annotations

import re

import pytest

from docqa.plan import build_plan as _plan
from docqa.answer.figures import Combined, FormulaMeasure, MetricMeasure, asked_measures, judgement
from docqa.finance.periods import FiscalCalendar, Period
from docqa.plan.periods import asked_periods
from docqa.finance.tables import Cell, Column, Row, StatementTable

from tests.filings import filing_pdf


# ------------------------------------------------------------------------ periods a question names
@pytest.mark.parametrize("question, expected", [
    ("Did JnJ's net earnings as a percent of sales increase in Q2 of FY2023 compared to Q2 of FY2022?",
     [Period(2022, 2), Period(2023, 2)]),
    ("Was there any drop in Cash & Cash equivalents between FY 2023 and Q2 of FY2024?",
     [Period(2023), Period(2024, 2)]),
    ("As of Q2'2023, is Pfizer spinning off any large business segments?", [Period(2023, 2)]),
    ("Revenue in the second fiscal quarter of 2023 compared to the same period in the prior year?",
     [Period(2022, 2), Period(2023, 2)]),
    ("What is the FY2017 - FY2019 3 year average of capex as a % of revenue?", [Period(2017), Period(2019)]),
    ("Compare FY2024 Q2 revenue with 2Q23", [Period(2023, 2), Period(2024, 2)]),
    ("What was Q3 revenue in 2022?", [Period(2022, 3)]),
    ("What was MGM's FY2022 revenue according to its Q4 earnings release?", [Period(2022)]),
    ("In the Q2 2023 10-Q, what was revenue?", [Period(2023, 2)]),
    # A quarter's end date beside the quarter dates it; its year is not a fiscal year asked.
    ("What effective tax rate did PepsiCo record in Q1 2023 (12 weeks ended March 25, 2023)?", [Period(2023, 1)]),
    ("What was revenue in Q2 of FY2024 (three months ended July 29, 2023)?", [Period(2024, 2)]),
    # With no quarter named, the date is all there is: the answerer maps it to the filing's quarter.
    ("What were net sales in the three months ended December 31, 2022?", [Period(2022)]),
])
def test_asked_periods(question, expected):
    assert asked_periods(question) == expected


def test_a_quarter_without_a_year_takes_the_default():
    assert asked_periods("What was revenue in the first quarter?", default_year=2021) == [Period(2021, 1)]


def test_fiscal_calendar_maps_printed_dates_to_fiscal_quarters():
    # Best Buy: the 10-Q for Q2 of fiscal 2024 closes on 29 July 2023; the year ends in late January.
    best_buy = FiscalCalendar.from_period_end("2023-07-29", 2024, 2)
    assert best_buy.period_of("2023-07-29") == (2024, 2)
    assert best_buy.period_of("2023-01-28") == (2023, 4)   # the fiscal 2023 year-end balance
    assert best_buy.period_of("2022-07-30") == (2023, 2)   # the year-ago quarter
    # A 52/53-week year closing on 1 January belongs to the year before (J&J's fiscal 2022).
    jnj = FiscalCalendar.from_period_end("2023-01-01", 2022)
    assert jnj.period_of("2022-01-02") == (2021, 4)
    assert jnj.period_of("2023-07-02") == (2023, 2)
    # Amcor's year ends in June: December is the second quarter of the next fiscal year.
    amcor = FiscalCalendar.from_period_end("2022-12-31", 2023, 2)
    assert amcor.period_of("2022-12-31") == (2023, 2)
    assert amcor.period_of("2022-06-30") == (2022, 4)


# ------------------------------------------------------------------------ columns of a quarterly filing
def _column(index: int, header: str, year: int | None, period, end: str | None, months: int | None) -> Column:
    return Column(index=index, header=header, fiscal_year=year, period=period, period_end=end, months=months,
                  x0=100.0 * index, x1=100.0 * index + 50)


def _table(columns: list[Column], statement=None) -> StatementTable:
    cells = tuple(Cell(value=float(c.index + 1), raw=str(c.index + 1), column=c.index, bbox=(0, 0, 1, 1))
                  for c in columns)
    row = Row(label="Revenue", cells=cells, bbox=(0, 0, 1, 1), indent=0)
    return StatementTable(page=1, statement=statement, columns=tuple(columns), rows=(row,), bbox=(0, 0, 1, 1))


def test_a_quarter_reads_the_three_months_not_the_year_to_date():
    calendar = FiscalCalendar.from_period_end("2023-07-29", 2024, 2)
    table = _table([
        _column(0, "Three Months Ended July 29, 2023", 2023, "quarter", "2023-07-29", 3),
        # "Three Months Ended" printed once over the pair: the second column lost it.
        _column(1, "July 30, 2022", 2022, "year", "2022-07-30", None),
        _column(2, "Six Months Ended July 29, 2023", 2023, "ytd", "2023-07-29", 6),
        _column(3, "July 30, 2022", 2022, "year", "2022-07-30", None),
    ])
    assert table.column_for_period(Period(2024, 2), calendar).index == 0
    assert table.column_for_period(Period(2023, 2), calendar).index == 1
    assert table.column_for_period(Period(2023), calendar) is None  # no column reports a whole year


def test_a_year_end_balance_in_a_quarterly_balance_sheet():
    calendar = FiscalCalendar.from_period_end("2023-07-29", 2024, 2)
    table = _table([
        _column(0, "July 29, 2023", 2023, "instant", "2023-07-29", None),
        _column(1, "January 28, 2023", 2023, "instant", "2023-01-28", None),
        _column(2, "July 30, 2022", 2022, "instant", "2022-07-30", None),
    ])
    assert table.column_for_period(Period(2023), calendar, stock=True).index == 1
    assert table.column_for_period(Period(2024, 2), calendar, stock=True).index == 0
    assert table.column_for_period(Period(2023, 2), calendar, stock=True).index == 2


def test_undated_quarter_columns_take_the_filings_quarter():
    table = _table([
        _column(0, "SECOND QUARTER 2023 Amount", 2023, "quarter", None, 3),
        _column(1, "SECOND QUARTER 2022 Amount", 2022, "quarter", None, 3),
    ])
    assert table.column_for_period(Period(2022, 2), None, quarter_hint=2).index == 1
    assert table.column_for_period(Period(2022), None, quarter_hint=2) is None


# ------------------------------------------------------------------------ what is asked
def test_a_combination_in_the_questions_words():
    asked = _asked("What is the FY2022 unadjusted EBITDA less capex for PepsiCo? Define unadjusted EBITDA "
                           "as unadjusted operating income + depreciation and amortization [from cash flow statement].")
    first = asked.measures[0]
    assert isinstance(first, Combined) and first.op == "-"
    assert isinstance(first.left, FormulaMeasure) and first.left.formula.key == "ebitda"
    assert isinstance(first.right, MetricMeasure) and first.right.metric.key == "capex"
    # A part of what is asked is never offered as the answer to it.
    assert not any(isinstance(m, MetricMeasure) and m.metric.key == "capex" for m in asked.measures)


def test_a_line_as_a_share_of_sales():
    asked = _asked("Did JnJ's net earnings as a percent of sales increase in Q2 of FY2023?")
    assert len(asked.measures) == 1
    share = asked.measures[0]
    assert isinstance(share, Combined) and share.op == "%"
    assert share.left.metric.key == "net_income" and share.right.metric.key == "revenue"


def test_a_qualified_line_item_is_not_the_total():
    assert _asked("What was Adobe's FY2022 revenue from the sale of physical retail stores?").measures == []
    assert _asked("What was revenue of the Americas segment in 2022?").measures == []
    assert [m.label for m in _asked("What is Amazon's revenue from FY2016 to FY2017?").measures] == ["Revenue"]


@pytest.mark.parametrize("question, expected", [
    ("Is 3M a capital-intensive business based on FY2022 data?", "capital_intensive"),
    ("Are JnJ's FY2022 financials that of a high growth company?", "high_growth"),
    ("Are Best Buy's gross margins historically consistent (not fluctuating more than roughly 2% each year)?", "stable"),
    ("Was Netflix's FY2017 revenue more than $10 billion?", "threshold"),
    ("Did JnJ's net earnings as a percent of sales increase in Q2 of FY2023?", "up"),
    ("Has CVS Health paid dividends to common shareholders in Q2 of FY2022?", "exists"),
    ("Does Verizon have a reasonably healthy liquidity profile based on its quick ratio?", "healthy"),
    ("What is the FY2018 capex for 3M?", None),
])
def test_judgement(question, expected):
    assert judgement(question) == expected


# ------------------------------------------------------------------------ end to end on the samples
def _numbers(text: str) -> list[float]:
    return [float(n.replace(",", "")) for n in re.findall(r"-?\d[\d,]*\.?\d*", text)]


def test_composite_definition_is_computed_and_verified(lexical_engine):
    # Amazon FY2017: operating income 4,106 + D&A 11,478 (cash flow) - capex 11,955 = 3,629.
    answer = lexical_engine.ask("What is Amazon's FY2017 unadjusted EBITDA less capex? Define unadjusted EBITDA as "
                                "unadjusted operating income + depreciation and amortization from the cash flow statement.")
    assert answer.found and answer.verification == "verified" and answer.answerer == "figures"
    assert "3,629" in answer.text
    assert answer.formula and "(4,106 + 11,478) - 11,955" in answer.formula


def test_share_of_revenue(lexical_engine):
    answer = lexical_engine.ask("What was Netflix's FY2017 net income as a percent of revenue?")
    assert answer.found and answer.verification == "verified"
    assert "4.8%" in answer.text and "558,929 / 11,692,713" in answer.formula


def test_yes_no_on_a_share_of_revenue(lexical_engine):
    answer = lexical_engine.ask("Did Adobe's operating income as a % of revenue increase in FY2022 compared to FY2021?")
    assert answer.found and answer.verification == "verified"
    assert answer.text.startswith("No.") and "36.8%" in answer.text and "34.6%" in answer.text


def test_capital_intensity(lexical_engine):
    # Amazon FY2017: capex 11,955 of 177,866 revenue (6.7%), assets 0.74x revenue.
    answer = lexical_engine.ask("Is Amazon a capital-intensive business based on FY2017 data?")
    assert answer.found and answer.verification == "verified"
    assert answer.text.startswith("No.") and "6.7%" in answer.text


def test_margin_stability_over_the_reported_years(lexical_engine):
    answer = lexical_engine.ask("Are Adobe's gross margins consistent (not fluctuating more than 2% each year) as of FY2022?")
    assert answer.found and answer.verification == "verified"
    assert answer.text.startswith("Yes.")
    assert "fiscal 2020" in answer.text and "fiscal 2022" in answer.text


def test_threshold_and_high_growth(lexical_engine):
    answer = lexical_engine.ask("Was Netflix's FY2017 revenue more than $10 billion?")
    assert answer.found and answer.verification == "verified" and answer.text.startswith("Yes.")
    answer = lexical_engine.ask("Is Netflix a high growth company based on FY2017?")
    assert answer.found and answer.verification == "verified" and answer.text.startswith("Yes.")
    assert "32.4%" in answer.text


def test_change_between_years(lexical_engine):
    answer = lexical_engine.ask("By how much did Amazon's revenue increase from FY2016 to FY2017?")
    assert answer.found and answer.verification == "verified"
    assert "41,879" in answer.text


@pytest.mark.parametrize("question", [
    "How much has Adobe's operating margin changed between FY2021 and FY2022?",
    "How does Adobe's operating margin in FY2022 compare to FY2021?",
])
def test_a_rates_change_states_both_ends_in_percentage_points(question):
    assert _asked(question).over_time == "change"


def test_a_rates_change_is_computed_and_each_end_verified(lexical_engine):
    # Adobe: operating margin 36.8% (FY2021) and 34.6% (FY2022).
    answer = lexical_engine.ask("How much has Adobe's operating margin changed between FY2021 and FY2022?")
    assert answer.found and answer.verification == "verified", answer.numbers_unverified
    assert "36.8%" in answer.text and "34.6%" in answer.text
    assert "-2.1 percentage points" in answer.text  # 6,098 / 17,606 - 5,802 / 15,785, unrounded
    assert answer.formula.count("=") >= 6  # each end's formula, then the difference


def test_which_of_the_named_items_is_largest(lexical_engine):
    # Amazon FY2017 cash flow statement: capex (11,955) against D&A 11,478, both on p. 37.
    answer = lexical_engine.ask("Which was larger for Amazon in 2017: capital expenditures or depreciation and amortization?")
    assert answer.found and answer.verification == "verified" and answer.answerer == "figures"
    assert answer.text.startswith("Capital expenditures: $11,955 million") and "11,478" in answer.text
    smaller = lexical_engine.ask("Which was smaller for Amazon in 2017: capital expenditures or depreciation and amortization?")
    assert smaller.text.startswith("Depreciation and amortization")


def test_operating_investing_and_financing_named_together(lexical_engine):
    answer = lexical_engine.ask("Among operations, investing, and financing activities, which brought in the most "
                                "(or lost the least) cash flow for Netflix in FY2017?")
    assert answer.found and answer.verification == "verified" and answer.answerer == "figures"
    # Netflix 2017: operating (1,785,948), investing (34,329), financing 3,076,990: financing brought in the most.
    assert answer.text.startswith("Cash from financing activities") and "of the 3" in answer.text


@pytest.mark.parametrize("question", [
    "Which of Amazon's segments had the highest net sales in 2017?",
    "What drove the change in Amazon's operating income in FY2017?",
])
def test_a_company_total_is_not_the_answer_to_which_or_why(lexical_engine, question):
    assert lexical_engine.ask(question).answerer != "figures"


def test_a_proviso_about_the_metric_is_not_a_why_question():
    from docqa.plan.intent import asks_why

    assert not asks_why("What is the FY2022 inventory turnover? If inventory turnover is not meaningful for the "
                        "company then state that and explain why.")
    assert asks_why("What drove operating margin change as of FY2022? If operating margin is not a useful metric, "
                    "then please state that and explain why.")
    assert not asks_why("What is Amazon's FY2019 net income attributable to shareholders?")


def test_the_largest_line_of_a_balance_sheet_block(lexical_engine):
    # Adobe FY2022 current liabilities: deferred revenue 5,297, accrued expenses 1,790, debt 500, ...
    answer = lexical_engine.ask("What is Adobe's largest current liability in FY2022?")
    assert answer.found and answer.verification == "verified" and answer.answerer == "figures"
    assert answer.text.startswith("Deferred revenue: $5,297 million") and "Accrued expenses $1,790 million" in answer.text
    # Amazon 2017 current assets: cash and cash equivalents 20,522 ahead of inventories 16,047.
    answer = lexical_engine.ask("What was Amazon's largest current asset at the end of 2017?")
    assert answer.text.startswith("Cash and cash equivalents: $20,522 million") and "16,047" in answer.text
    smallest = lexical_engine.ask("What was Amazon's smallest current asset at the end of 2017?")
    assert "20,522" not in smallest.text.split(";")[0]


def test_line_superlatives_are_read_from_the_question():
    from docqa.plan.lines import line_asked

    asked = line_asked("What was the largest liability in American Express's Balance Sheet in 2022?")
    assert asked.kind == "liabilities" and asked.largest and asked.scope is None
    assert line_asked("Which is the smallest non-current asset?").scope == "noncurrent"
    assert line_asked("What was the largest increase in revenue?") is None


def test_net_change_in_cash_is_a_line_item_not_a_difference():
    assert _asked("What was Netflix's net change in cash in FY2017?").over_time is None


def test_a_sub_item_is_not_answered_with_the_total(lexical_engine):
    answer = lexical_engine.ask("What was Adobe's FY2022 revenue from the sale of physical retail stores?")
    assert answer.answerer != "figures"
    assert "17,606" not in answer.text


def test_three_year_average_of_a_share(lexical_engine):
    # Amazon: cost of sales / net sales over FY2015-FY2017, averaged.
    answer = lexical_engine.ask("What is Amazon's FY2015 - FY2017 3 year average of cost of sales as a % of revenue? "
                                "Answer in units of percents and round to one decimal place.")
    assert answer.found and answer.verification == "verified"
    assert "71,651 / 107,006" in answer.formula and "111,934 / 177,866" in answer.formula


# --------------------------------------------------------------- quarterly filings (tests/fixtures)
@pytest.fixture(scope="session")
def quarterly_engine(tmp_path_factory):
    from docqa import Engine

    pdfs = [filing_pdf(name) for name in
            ("BESTBUY_2024Q2_10Q.pdf", "JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf", "PEPSICO_2023Q1_EARNINGS.pdf")]
    engine = Engine.open(tmp_path_factory.mktemp("quarterly-index"), dense=False)
    engine.ingest(pdfs)
    yield engine
    engine.close()


def test_quarter_of_a_fiscal_year_ending_in_january(quarterly_engine):
    # "Three Months Ended July 29, 2023" is Q2 of Best Buy's fiscal 2024.
    answer = quarterly_engine.ask("What was Best Buy's revenue in Q2 of FY2024?")
    assert answer.found and answer.verification == "verified"
    assert "9,583" in answer.text and "10,329" not in answer.text


def test_year_end_against_a_quarter_end(quarterly_engine):
    answer = quarterly_engine.ask("Was there any drop in Best Buy's cash and cash equivalents between FY2023 "
                                  "and Q2 of FY2024?")
    assert answer.found and answer.verification == "verified"
    assert answer.text.startswith("Yes.") and "1,874" in answer.text and "1,093" in answer.text


def test_quarter_against_the_same_quarter_a_year_before(quarterly_engine):
    answer = quarterly_engine.ask("Did JnJ's net earnings as a percent of sales increase in Q2 of FY2023 compared "
                                  "to Q2 of FY2022?")
    assert answer.found and answer.verification == "verified"
    assert answer.text.startswith("Yes.")
    assert "5,144 / 25,530" in answer.formula and "4,814 / 24,020" in answer.formula  # not the six months


def test_year_asked_of_a_quarterly_filing_is_not_answered_with_a_quarter(quarterly_engine):
    answer = quarterly_engine.ask("What was Johnson & Johnson's net earnings in FY2023?")
    assert "5,144" not in answer.text and "5,076" not in answer.text


def test_earnings_release_with_numeric_dates(quarterly_engine):
    # PepsiCo's release heads its columns "12 Weeks Ended / 3/25/2023  3/19/2022".
    answer = quarterly_engine.ask("What was PepsiCo's net revenue in Q1 2023?")
    assert answer.found and answer.answerer == "figures"
    assert "17,846" in answer.text


def test_a_quarter_dated_by_its_weeks_ended_is_the_quarter(quarterly_engine):
    answer = quarterly_engine.ask("What effective tax rate did PepsiCo record in Q1 2023 (12 weeks ended March 25, "
                                  "2023)? One decimal.")
    assert answer.found and answer.answerer == "figures", answer.text
    assert "21.9%" in answer.text and "546" in answer.formula and "2,490" in answer.formula


# ------------------------------------------------------------------------ the statement reader's part
def _at(text: str, right: float) -> tuple[str, float]:
    """A right-aligned cell (filings right-align figures): its x0 for a given right edge."""
    from tests.finance.conftest import line  # noqa: F401  (same geometry: 4.4 pt a char, 2 pt gaps)

    width = sum(4.4 * len(t) for t in text.split(" ")) + 2.0 * (len(text.split(" ")) - 1)
    return text, right - width


def test_unlabeled_totals_are_named():
    # MGM prints its balance sheet totals with no label: "$ 36,494,934" under the assets.
    from docqa.finance.statements import read_tables
    from tests.finance.conftest import line, page

    rows = [
        ("Cash and cash equivalents", "100", "90"), ("Other current assets", "50", "40"),
        ("Total current assets", "150", "130"), ("Property and equipment, net", "350", "300"),
        (None, "500", "430"), ("Total current liabilities", "200", "180"),
        ("Total stockholders' equity", "300", "250"), (None, "500", "430"),
    ]
    lines = [line(50, ("CONSOLIDATED BALANCE SHEETS", 200)), line(70, _at("December 31, 2022", 460),
                                                                   _at("December 31, 2021", 540))]
    for k, (label, a, b) in enumerate(rows):
        y = 90 + 12 * k
        cells = [_at("$", 420), _at(a, 460), _at("$", 500), _at(b, 540)] if label is None else [_at(a, 460), _at(b, 540)]
        lines.append(line(y, *([(label, 40)] if label else []), *cells))
    tables = read_tables(page(*lines))
    labels = [r.label for t in tables for r in t.rows]
    assert "Total assets" in labels and "Total liabilities and equity" in labels
    total = next(r for t in tables for r in t.rows if r.label == "Total assets")
    assert [c.value for c in total.cells] == [500.0, 430.0]


def test_numeric_date_headers():
    # PepsiCo's earnings release: "12 Weeks Ended" over "3/25/2023  3/19/2022".
    from docqa.finance.statements import read_tables
    from tests.finance.conftest import line, page

    tables = read_tables(page(
        line(50, ("Condensed Consolidated Statement of Income", 150)),
        line(70, _at("12 Weeks Ended", 520)),
        line(82, _at("3/25/2023", 460), _at("3/19/2022", 540)),
        line(96, ("Net Revenue", 40), _at("17,846", 460), _at("16,200", 540)),
        line(108, ("Cost of sales", 40), _at("7,988", 460), _at("7,433", 540)),
        line(120, ("Gross profit", 40), _at("9,858", 460), _at("8,767", 540)),
    ))
    columns = tables[0].columns
    assert [(c.fiscal_year, c.period_end, c.months) for c in columns] == [(2023, "2023-03-25", 3), (2022, "2022-03-19", 3)]


def test_years_set_left_of_their_figures_still_head_them():
    # Amcor's release prints "2022" a little left of the figures below it.
    from docqa.finance.statements import read_tables
    from tests.finance.conftest import line, page

    tables = read_tables(page(
        line(50, ("Condensed Consolidated Statements of Income", 150)),
        line(70, _at("Twelve Months Ended June 30,", 560)),
        line(82, ("($ million)", 40), _at("2022", 434), _at("2023", 526)),
        line(96, ("Net sales", 40), _at("14,544", 470), _at("14,694", 560)),
        line(108, ("Cost of sales", 40), _at("(11,724)", 470), _at("(11,969)", 560)),
        line(120, ("Gross profit", 40), _at("2,820", 470), _at("2,725", 560)),
    ))
    assert [c.fiscal_year for c in tables[0].columns] == [2022, 2023]



def _asked(question: str):
    """The measures a question asks, as the figures answerer reads them from its plan."""
    return asked_measures(_plan(question, []).reading)
