"""A year that names the filing to read ("According to 3M's 2018 10-K") is not the period asked
when the question names another; "the prior year" and "the year before 2021" are the year before."""

from __future__ import annotations

import pytest

from docqa.finance.periods import Period
from docqa.plan.periods import read_periods


@pytest.mark.parametrize("question, year", [
    ("According to 3M's 2018 10-K, what were 3M's total inventories as of December 31, 2017?", 2017),
    ("According to Corning's 2020 10-K, what net income did Corning report for 2019?", 2019),
    ("In its 2021 10-K, what total operating revenues did Verizon report for the prior year?", 2020),
    ("In its 2021 10-K, what operating revenues did American Water Works report for the year before 2021?", 2020),
    ("What was Walmart's revenue according to its fiscal 2018 annual report?", 2018),   # only the filing's year
    ("What was Verizon's revenue in 2021 compared with the prior year?", 2021),          # a year of its own
])
def test_the_period_asked_is_not_the_year_that_names_the_filing(question, year):
    assert read_periods(question).resolve(None) == [Period(year)]


def test_a_period_set_aside_in_the_question_is_not_asked():
    from docqa.plan import build_plan

    plan = build_plan("amcor fiscal Q2 2023 - rigid packaging adjusted EBIT for the three months ended dec 31 2022 "
                      "(the quarter, not the six month number)?", [])
    assert plan.quarter_span and plan.ytd_months is None
    assert build_plan("Did sales not grow in the six months ended June 30, 2023?", []).ytd_months == 6


def test_a_year_named_as_the_filer_names_it_is_read_as_the_index_holds_it():
    from docqa.plan import build_plan
    from docqa.types import DocType, Document, DocumentMeta

    # Ulta's release "Fourth Quarter Fiscal 2022 Results" reports the quarter ended January 28, 2023,
    # held as fiscal 2023
    ulta = Document(id="u23", file_name="u23.pdf", path="", sha256="u23", pages=1, meta=DocumentMeta(
        company="Ulta Beauty, Inc.", aliases=("Ulta Beauty", "Ulta"), fiscal_year=2023, fiscal_quarter=4,
        doc_type=DocType.EARNINGS, period_end="2023-01-28", named_year=2022))
    plan = build_plan("Did Ulta's tax rate go up in the fourth quarter of fiscal 2022 compared to the fourth quarter "
                      "of fiscal 2021?", [ulta])
    assert plan.renamed == ((2021, 2022), (2022, 2023))
    assert set(plan.periods.quarters) == {(4, 2023), (4, 2022)}
    assert plan.as_the_filer_names(2023) == 2022
    # a year the filer does not name that way keeps its number: "FY2023" ends in January 2023
    plan = build_plan("What were Ulta Beauty's net sales in FY2023?", [ulta])
    assert plan.renamed == () and plan.years == (2023,)
