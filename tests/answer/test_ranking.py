"""Ranking answers on real filings: "which segment had the highest operating income?" names the member
of the group the filing prints (as rows, as columns, or as headings over their own totals) that
ranks first, with its figure and those it was ranked against; never the company's total, nor a
"Total" or "Corporate" line."""

from __future__ import annotations

import pytest

from docqa.engine import Engine
from tests.filings import filing_pdf


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    engine = Engine.open(tmp_path_factory.mktemp("ranking") / "idx")
    engine.ingest([filing_pdf("LOCKHEEDMARTIN_2022_10K.pdf")])
    yield engine
    engine.close()


def _ranked(engine, question):
    answer = engine.ask(question)
    assert answer.found and answer.answerer == "ranking", answer
    assert answer.verification == "verified", answer  # every figure is printed on a cited page
    return answer


@pytest.mark.parametrize("question, first, figure, not_a_member", [
    # a table of its own, the measure its title ("Intersegment Sales"), its total no member
    ("Which Lockheed Martin segment had the most intersegment sales in 2022?", "Rotary and Mission Systems", "1,930",
     "Total intersegment sales"),
    ("Lockheed Martin 2022: which segment had the least intersegment sales?", "Aeronautics", "249", "Total"),
])
def test_the_member_that_ranks_first_is_named_with_its_figure(engine, question, first, figure, not_a_member):
    answer = _ranked(engine, question)
    assert answer.text.startswith(first), answer.text
    assert figure in answer.text
    assert not_a_member not in answer.text
    assert answer.citations[0].quote and figure in answer.citations[0].quote  # the member's own row, quoted


def test_a_move_is_computed_from_the_period_and_the_year_before_with_its_formula(engine):
    # Rotary and Mission Systems 1,930 vs 1,895 (+35); Aeronautics 249 vs 219 (+30); Space +21; MFC +9
    answer = _ranked(engine, "Which Lockheed Martin segment's intersegment sales grew the most in 2022?")
    assert answer.text.startswith("Rotary and Mission Systems"), answer.text
    assert "+35" in answer.text and "current - prior" in (answer.formula or "")


@pytest.mark.parametrize("question, first, figure", [
    # Best Buy fiscal 2019, the segment note: blocks under the heading that names the measure
    ("Which Best Buy segment had the lowest capital expenditures in fiscal 2019?", "International", "49"),
    # the block the group's qualifier heads ("Domestic"), named by its own total ("Total Domestic revenue")
    ("Which Domestic revenue category brought in the most revenue for Best Buy in fiscal 2019?",
     "Computing and Mobile Phones", "17,439"),
])
def test_rows_under_the_heading_that_names_the_measure_or_the_group_are_ranked(segment_engine, question, first, figure):
    answer = _ranked(segment_engine, question)
    assert answer.text.startswith(first), answer.text
    assert figure in answer.text and "Total" not in answer.text.split("The others")[0]


def test_members_printed_as_columns_are_ranked_by_the_row_that_names_the_measure(segment_engine):
    # Walmart fiscal 2018, Note 15: "Walmart U.S. | Walmart International | Sam's Club | Corporate and support |
    # Consolidated" columns; capital expenditures 5,680 | 2,607 | 626 | 1,138 | 10,051
    answer = _ranked(segment_engine, "Which Walmart segment had the lowest capital expenditures in fiscal 2018?")
    assert answer.text.startswith("Sam's Club") or answer.text.startswith("Sam’s Club"), answer.text
    assert "626" in answer.text and "Corporate" not in answer.text


def test_a_question_that_compares_measures_is_no_ranking(engine):
    plan = engine.searcher().plan("Which is larger for Lockheed Martin in 2022, net sales or operating profit?",
                                  engine.documents())
    assert plan.ranked is None


def test_a_kind_of_the_measure_is_a_member_a_sum_named_by_it_is_not():
    # Block 2016 p. 50: "Transaction-based revenue ... Hardware revenue | Total net revenue"; MGM 2020
    # p. 102: "Las Vegas Strip Resorts ... MGM China | Reportable segment capital expenditures"
    from docqa.answer.ranking import _a_line_item, _a_member, _only_the_measure
    from docqa.finance.lexicon import load_lexicon
    from docqa.finance.text import stems

    revenue = (tuple(stems("revenue")), [tuple(stems("total revenues")), tuple(stems("net sales"))])
    assert _a_member("Hardware revenue", *revenue) and not _a_line_item("Hardware revenue", load_lexicon())
    assert not _a_member("Total net revenue", *revenue) and _only_the_measure("Total net revenue", *revenue)
    capex = (tuple(stems("capital expenditures")), [])
    assert _only_the_measure("Reportable segment capital expenditures", *capex)
    assert _a_member("MGM China", *capex) and not _a_member("Corporate and other", *capex)
    assert _a_line_item("Cost of sales", load_lexicon())
