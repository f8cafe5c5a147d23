"""A quarter or a year to date asked by its end date: the quarterly filing that closes on it, or the one
a year later that prints it as the prior year's column; never the annual report's year."""

from __future__ import annotations

import pytest

from docqa.plan.choice import choose_documents
from docqa.plan.periods import quarter_span
from docqa.types import DocType, Document, DocumentMeta


def _doc(id: str, doc_type: DocType, year: int, quarter: int | None, end: str) -> Document:
    return Document(id=id, file_name=f"{id}.pdf", path=f"{id}.pdf", sha256=id, pages=1,
                    meta=DocumentMeta(company="Amcor plc", doc_type=doc_type, fiscal_year=year, fiscal_quarter=quarter,
                                      period_end=end))


AMCOR = [_doc("10k23", DocType.ANNUAL, 2023, None, "2023-06-30"), _doc("10q23", DocType.QUARTERLY, 2023, 2, "2022-12-31")]


@pytest.mark.parametrize("question, span", [
    ("What were net sales for the three months ended December 31, 2021?", True),
    ("What was revenue in the 13 weeks ended April 29, 2023?", True),
    ("What was revenue for the quarter ended July 1, 2023?", True),
    ("What were net sales for the six months ended December 31, 2021?", False),
    ("What were net sales for the fiscal year ended June 30, 2022?", False),
])
def test_a_quarter_asked_by_its_end_date(question, span):
    assert quarter_span(question) is span


def test_an_interim_period_a_year_before_a_quarterly_filing_is_read_from_it():
    chosen, _ = choose_documents(AMCOR, [2021], None, [], period_end="2021-12-31", interim=True)
    assert [d.id for d in chosen] == ["10q23"]


def test_the_filing_that_closes_on_the_date_comes_first():
    chosen, _ = choose_documents(AMCOR, [2022], None, [], period_end="2022-12-31", interim=True)
    assert [d.id for d in chosen] == ["10q23"]


def test_a_filing_closing_on_the_very_day_comes_before_those_within_the_slack():
    pfizer = _doc("pfe", DocType.QUARTERLY, 2023, 2, "2023-07-02").model_copy(
        update={"meta": DocumentMeta(company="Pfizer Inc.", doc_type=DocType.QUARTERLY, fiscal_year=2023,
                                     fiscal_quarter=2, period_end="2023-07-02")})
    annual = _doc("amcor10k", DocType.ANNUAL, 2023, None, "2023-06-30")
    jpm = _doc("jpm", DocType.QUARTERLY, 2023, 2, "2023-06-30")
    chosen, _ = choose_documents([annual, jpm, pfizer], [2023], None, [], period_end="2023-07-02", interim=True)
    assert [d.id for d in chosen] == ["pfe"]
    chosen, _ = choose_documents([annual, jpm], [2023], None, [], period_end="2023-07-02", interim=True)
    assert [d.id for d in chosen] == ["jpm"]       # a quarter asked: the quarterly filing within the slack


def test_a_date_several_companies_close_on_is_no_company_and_the_reason_names_them():
    from dataclasses import replace

    from docqa.answer.ask import whose_filing
    from docqa.plan.model import QuestionPlan
    from docqa.types import SearchFilters

    mgm = _doc("mgm", DocType.EARNINGS, 2022, 4, "2022-12-31").model_copy(
        update={"meta": DocumentMeta(company="MGM Resorts International", doc_type=DocType.EARNINGS,
                                     fiscal_year=2022, fiscal_quarter=4, period_end="2022-12-31")})
    plan = replace(QuestionPlan(question="What were net sales for the three months ended December 31, 2022?",
                                period_end="2022-12-31"),
                   groups=(SearchFilters(document_ids=("10q23", "mgm")),))
    reason = whose_filing(plan, [*AMCOR, mgm], 62)
    assert "2 companies close on 2022-12-31" in reason and "Amcor plc" in reason and "MGM Resorts" in reason
