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
    # two parts read off one printed row cite it once
    years = engine.ask("What were Amazon's total net sales in 2017 and 2016?")
    assert years.found and "177,866" in years.text and "135,987" in years.text, years
    quoted = [(c.document_id, c.page, c.quote) for c in years.citations]
    assert len(quoted) == len(set(quoted))


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


@pytest.mark.parametrize("question, parts", [
    ("What was Corning's net income in 2019 and 2020?",
     ("What was Corning's net income in 2019?", "What was Corning's net income in 2020?")),
    ("What were CVS's cash and cash equivalents as of December 31, 2018 and 2017?",
     ("What were CVS's cash and cash equivalents as of December 31, 2018?",
      "What were CVS's cash and cash equivalents as of December 31, 2017?")),
    ("What were Corning's net income and total assets in fiscal 2019 and 2020?",
     ("What were Corning's net income in fiscal 2019?", "What were Corning's net income in fiscal 2020?",
      "What were Corning's total assets in fiscal 2019?", "What were Corning's total assets in fiscal 2020?")),
])
def test_a_list_of_years_is_one_question_per_year(question, parts):
    assert build_plan(question, []).parts == parts


@pytest.mark.parametrize("question, parts", [
    ("What were Best Buy's revenues of the Domestic and International segments in fiscal 2019?",
     ("What were Best Buy's revenues of the Domestic segment in fiscal 2019?",
      "What were Best Buy's revenues of the International segment in fiscal 2019?")),
    ("What was Walmart's revenue in the Walmart U.S., Walmart International and Sam's Club segments in fiscal 2018?",
     ("What was Walmart's revenue in the Walmart U.S. segment in fiscal 2018?",
      "What was Walmart's revenue in the Walmart International segment in fiscal 2018?",
      "What was Walmart's revenue in the Sam's Club segment in fiscal 2018?")),
    ("What were Apple's Americas and Europe regions' net sales in 2023?",
     ("What were Apple's Americas region's net sales in 2023?", "What were Apple's Europe region's net sales in 2023?")),
])
def test_named_segments_listed_are_one_question_per_segment(question, parts):
    assert build_plan(question, []).parts == parts


@pytest.mark.parametrize("question", [
    "How much did Corning's net income change between 2019 and 2020?",     # a change over the years
    "What was Corning's net income growth from 2019 to 2020?",             # growth
    "What was Verizon's combined revenue in 2020 and 2021?",               # one total of both
    "What was the average revenue of Verizon in 2020 and 2021?",           # one average of both
    "Was Verizon's revenue higher in 2021 than in 2020?",                  # a verdict
    "What was operating income of 3M's Safety and Industrial segment in 2018?",  # one segment's name
])
def test_a_question_about_the_years_or_one_segment_together_is_not_split(question):
    assert build_plan(question, []).parts == ()


@pytest.fixture()
def walmart(segment_engine):
    return segment_engine


def test_a_segment_figure_is_the_segment_row_and_says_which_segment(walmart):
    answer = walmart.ask("What was Walmart's revenue in the Walmart International segment in fiscal 2018?")
    assert answer.found and "118,068" in answer.text and "495,761" not in answer.text, answer.text
    assert "International" in answer.text  # the answer states what was asked, not "Net sales" alone


def test_each_segment_listed_is_answered_by_its_own_row(walmart):
    answer = walmart.ask("What was Walmart's revenue in the Walmart U.S., Walmart International and Sam's Club "
                         "segments in fiscal 2018?")
    assert answer.answerer == "parts" and answer.found, answer
    for figure in ("318,477", "118,068", "59,216"):
        assert figure in answer.text, answer.text
    assert "495,761" not in answer.text  # never the consolidated total for a segment
    domestic = walmart.ask("What were Best Buy's revenues of the Domestic and International segments in fiscal 2019?")
    assert "39,304" in domestic.text and "3,575" in domestic.text, domestic.text


@pytest.mark.parametrize("question, parts", [
    ("What net earnings did Best Buy report for fiscal 2019 and for fiscal 2018?",
     ("What net earnings did Best Buy report for fiscal 2019?", "What net earnings did Best Buy report for fiscal 2018?")),
    ("What was Verizon's long-term debt at December 31, 2021 and at December 31, 2020?",
     ("What was Verizon's long-term debt at December 31, 2021?", "What was Verizon's long-term debt at December 31, 2020?")),
])
def test_each_year_may_repeat_its_preposition_and_date(question, parts):
    assert build_plan(question, []).parts == parts


@pytest.mark.parametrize("question, parts", [
    ("In 2021, what were American Water Works' operating revenues from its Regulated Businesses segment, and its "
     "consolidated operating revenues?",
     ("In 2021, what were American Water Works' operating revenues from its Regulated Businesses segment?",
      "In 2021, what were American Water Works' consolidated operating revenues?")),
    ("For 2020, what were MGM Resorts' casino revenues and its total revenues?",
     ("For 2020, what were MGM Resorts' casino revenues?", "For 2020, what were MGM Resorts' total revenues?")),
    ("What was Frito-Lay North America's net revenue in 2021, and what was PepsiCo's total net revenue that year?",
     ("What was Frito-Lay North America's net revenue in 2021?", "What was PepsiCo's total net revenue in 2021?")),
    ("What were General Mills' net sales, and what was its net earnings attributable to General Mills, in fiscal 2019?",
     ("What were General Mills' net sales in fiscal 2019?",
      "What was General Mills' net earnings attributable to General Mills, in fiscal 2019?")),
])
def test_a_second_clause_is_a_second_question_in_the_first_ones_frame(question, parts):
    assert build_plan(question, []).parts == parts


def test_a_clause_about_something_other_than_a_figure_is_not_a_part():
    assert build_plan("What was Walmart's revenue and the reason for its growth in 2018?", []).parts == ()


@pytest.mark.parametrize("question, parts", [
    ("What were Costco's membership fees and its merchandise costs for fiscal 2021?",
     ("What were Costco's membership fees for fiscal 2021?", "What were Costco's merchandise costs for fiscal 2021?")),
    ("What were Boeing's current and non-current deferred tax liabilities at December 31, 2022?",
     ("What were Boeing's current deferred tax liabilities at December 31, 2022?",
      "What were Boeing's non-current deferred tax liabilities at December 31, 2022?")),
    ("What did Nike report for apparel revenues and for footwear revenues in fiscal 2023?",
     ("What did Nike report for apparel revenues in fiscal 2023?", "What did Nike report for footwear revenues in fiscal 2023?")),
    ("What long-lived assets did Amcor hold in the United States and in Switzerland as of June 30, 2023?",
     ("What long-lived assets did Amcor hold in the United States as of June 30, 2023?",
      "What long-lived assets did Amcor hold in Switzerland as of June 30, 2023?")),
    ("What were Netflix's streaming content obligations, content assets and deferred revenue at December 31, 2017?",
     ("What were Netflix's streaming content obligations at December 31, 2017?",
      "What were Netflix's content assets at December 31, 2017?", "What were Netflix's deferred revenue at December 31, 2017?")),
])
def test_things_the_lexicon_does_not_name_listed_side_by_side_are_parts(question, parts):
    assert build_plan(question, []).parts == parts


@pytest.mark.parametrize("question", [
    "What were Amazon's accrued expenses and other at December 31, 2017?",                   # one printed line
    "What were Walmart's deferred tax assets, net of valuation allowance, at January 31, 2018?",  # a qualifier
    "What was the carrying amount of Pfizer's treasury stock on its December 31, 2021 balance sheet?",  # a date
    "What was MGM's coverage using Adjusted EBIT as the numerator and interest expense as the denominator?",
    "What were Lockheed Martin's exploration and evaluation assets in 2022?",                # the first names no figure
    "How much did Best Buy spend on buybacks between the end of fiscal 2019 and March 26, 2019?",  # a span
    "According to ARCA's 2022 10-K, did the trial meet its endpoint and its secondary endpoint?",  # a verdict
])
def test_words_joined_inside_one_figure_are_not_parts(question):
    assert build_plan(question, []).parts == ()


@pytest.mark.parametrize("question, qualified", [
    ("What were EPI Holdings' sales of petroleum for 2022?", True),        # what was sold: a line of its own
    ("What was the revenue of Walmart in 2022?", False),                  # whose revenue
    ("What was Walmart's cost of sales in 2022?", False),                 # the lexicon's own line
    ("What was the revenue of continuing operations in 2022?", False),
])
def test_a_measure_of_what_was_sold_is_a_qualified_line(question, qualified):
    assert bool(build_plan(question, []).reading.qualified) is qualified


@pytest.mark.parametrize("question, parts", [
    ("What were the cash and cash equivalents and the long-term debt of Boeing at year-end 2022?",
     ("What were the cash and cash equivalents of Boeing at year-end 2022?",
      "What were the long-term debt of Boeing at year-end 2022?")),
    ("State Verizon's total debt and its total equity at December 31, 2022.",
     ("State Verizon's total debt at December 31, 2022.", "State Verizon's total equity at December 31, 2022.")),
    ("Give the revenue and the operating income of the Intelligent Cloud segment of Microsoft for fiscal 2023.",
     ("Give the revenue of the Intelligent Cloud segment of Microsoft for fiscal 2023.",
      "Give the operating income of the Intelligent Cloud segment of Microsoft for fiscal 2023.")),
    ("What were Coca-Cola's revenues from North America and from EMEA in 2017?",
     ("What were Coca-Cola's revenues from North America in 2017?", "What were Coca-Cola's revenues from EMEA in 2017?")),
])
def test_what_follows_the_last_item_is_every_items(question, parts):
    assert build_plan(question, []).parts == parts


def test_a_second_clause_may_ask_a_figure_the_lexicon_does_not_name_first():
    parts = build_plan("In fiscal 2021, what were Costco's membership fees, and what was its net income?", []).parts
    assert len(parts) == 2 and "membership fees" in parts[0] and "Costco's net income" in parts[1]


def test_a_company_and_its_affiliates_is_one_counterparty_not_a_list():
    question = ("How much did TD SYNNEX spend buying inventories and services from MiTAC Holdings and its affiliates "
                "in fiscal 2022?")
    assert build_plan(question, []).parts == ()


def test_a_period_given_by_its_end_date_is_every_clauses():
    from docqa.plan import build_plan

    plan = build_plan("During the six months ended December 31, 2022, how much did Amcor spend buying back ordinary "
                      "shares and CDIs, and how many shares was that?", [])
    assert plan.parts[1] == "How many shares was that during the six months ended December 31, 2022?"
