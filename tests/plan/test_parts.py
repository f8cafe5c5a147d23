"""Several measures asked at once are several questions: the parts slot, as data, and the reply."""

from __future__ import annotations

from pathlib import Path

import pytest

from docqa.plan import Intent, build_plan

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


@pytest.mark.parametrize("question, parts", [
    ("What were 3M's revenue and operating income in FY2018?",
     ("What were 3M's revenue in FY2018?", "What were 3M's operating income in FY2018?")),
    ("What was Amazon's net income, total assets and free cash flow in 2017?",
     ("What was Amazon's net income in 2017?", "What was Amazon's total assets in 2017?",
      "What was Amazon's free cash flow in 2017?")),
    ("Report Netflix's net income as well as its total assets for FY2017.",
     ("Report Netflix's net income for FY2017.", "Report Netflix's total assets for FY2017.")),
    ("What were 3M's cash from operations and capital expenditures in 2018?",
     ("What were 3M's cash from operations in 2018?", "What were 3M's capital expenditures in 2018?")),
    ("Give Adobe's gross profit, and operating income for fiscal 2022.",
     ("Give Adobe's gross profit for fiscal 2022.", "Give Adobe's operating income for fiscal 2022.")),
])
def test_a_list_of_measures_is_one_question_per_measure(question, parts):
    plan = build_plan(question, [])
    assert plan.parts == parts
    assert plan.intent is Intent.PARTS


@pytest.mark.parametrize("question", [
    "What is the FY2018 capital expenditure amount (in USD millions) for 3M?",           # one measure
    "What is the ratio of capital expenditure to depreciation for 3M in 2018?",          # arithmetic over both
    "What was R&D as a share of revenue for AMD in 2022?",                                # a share
    "Was 3M's operating income larger than its net income in 2018?",                      # a comparison
    "Did 3M's revenue and operating income both increase in 2018?",                       # a verdict
    "Which was larger in 2017 for Amazon, capital expenditures or depreciation?",        # a ranking
    "What drove the change in revenue and operating income for 3M in 2018?",              # an explanation
    "What was 3M's revenue in 2018 and how does it compare with net income?",            # not side by side
])
def test_one_question_about_several_measures_is_not_split(question):
    assert build_plan(question, []).parts == ()


def test_each_part_is_answered_and_the_reply_holds_them_all(tmp_path):
    from docqa.engine import Engine

    engine = Engine.open(tmp_path / "idx")
    engine.ingest([SAMPLES / "AMAZON_2017_10K.pdf"])
    answer = engine.ask("What were Amazon's net income and total assets in 2017?")
    assert answer.found and answer.answerer == "parts", answer
    assert "3,033" in answer.text and "131,310" in answer.text
    assert answer.verification == "verified"
    assert {c.page for c in answer.citations} >= {38, 40}


def test_a_part_the_filing_does_not_answer_is_said_not_found_beside_the_others(tmp_path):
    from docqa.engine import Engine

    engine = Engine.open(tmp_path / "idx")
    engine.ingest([SAMPLES / "AMAZON_2017_10K.pdf"])
    answer = engine.ask("What were Amazon's net income and deposits from customers in fiscal 2025?")
    assert not answer.found  # no filing of fiscal 2025: no part is answered
    partly = engine.ask("What were Amazon's total assets and goodwill impairment charges in 2017?")
    assert partly.found and "131,310" in partly.text


def test_measures_listed_as_the_inputs_of_another_are_not_parts():
    question = ("What is the FY2022 unadjusted EBITDA % margin for PepsiCo? Calculate unadjusted EBITDA using "
                "unadjusted operating income and D&A (from cash flow statement).")
    assert build_plan(question, []).parts == ()
