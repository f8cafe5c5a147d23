"""Open questions are answered from the section whose printed heading names the topic: no list of
topics is needed for "seasonality" or "competition", an Item that only points to a note is followed
into it, and the section ends where the filing's next heading of its level begins."""

from __future__ import annotations

import pytest

from docqa.answer.outline import match
from docqa.engine import Engine
from docqa.plan import Intent, build_plan
from docqa.plan.discussion import asks_discussion, discussed_words
from tests.filings import filing_pdf


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    engine = Engine.open(tmp_path_factory.mktemp("outline") / "idx")
    engine.ingest([filing_pdf("BESTBUY_2019_10K.pdf"), filing_pdf("MGMRESORTS_2020_10K.pdf")])
    yield engine
    engine.close()


@pytest.mark.parametrize("question, discussed", [
    ("What does Best Buy's fiscal 2019 10-K say about seasonality?", ("seasonality",)),
    ("How does Adobe recognize subscription revenue?", ("recognize", "subscription", "revenue")),
    ("Walk me through Corning's liquidity position in 2020", ("liquidity",)),
    ("describe MGM's legal proceedings in its 2020 annual report", ("legal", "proceedings")),
    ("Explain how General Mills tests goodwill for impairment", ("tests", "goodwill", "impairment")),
])
def test_an_open_question_names_its_topic(question, discussed):
    assert asks_discussion(question)
    assert discussed_words(question, ("Best Buy", "Adobe", "Corning", "MGM", "General Mills")) == discussed


@pytest.mark.parametrize("question", [
    "What was Best Buy's revenue in fiscal 2019?",
    "How much did Adobe spend on research and development in 2015?",
    "Explain the reasons for the change in Walmart's operating income in fiscal 2018.",
    "What drove the increase in MGM's operating expenses?",
])
def test_a_figure_or_a_why_is_no_open_question(question):
    assert not asks_discussion(question)


def test_a_heading_names_a_topic_by_its_word_roots():
    assert match("Competition and Related Trends", ["competition"]) >= 0.5
    assert match("Revenue Recognition", ["recognize", "subscription", "revenue"]) >= 0.5
    assert match("Item 3. Legal Proceedings", ["lawsuits"], ["legal proceedings"]) >= 0.5
    assert match("Distribution", ["competition"]) == 0.0


def test_a_topic_no_list_names_is_answered_from_its_heading(engine):
    answer = engine.ask("What does Best Buy's fiscal 2019 10-K say about seasonality?")
    assert answer.found and answer.answerer == "section", answer
    assert answer.verification == "passages"
    assert "“Seasonality”" in answer.text
    quotes = " ".join(c.quote for c in answer.citations)
    assert "seasonal" in quotes
    # the section ends where the next heading of its size begins ("Working Capital")
    assert "working capital" not in quotes.lower()


def test_an_item_that_points_to_a_note_is_answered_from_the_note(engine):
    answer = engine.ask("Summarize the legal proceedings in MGM Resorts' 2020 10-K")
    assert answer.found and answer.answerer == "section", answer
    assert "NOTE 12" in answer.text  # the note Item 3 points to, not the pointer itself
    assert not any("See discussion" in c.quote for c in answer.citations)
    assert any("lawsuits" in c.quote or "legal proceedings" in c.quote for c in answer.citations)


def test_an_open_question_is_planned_as_a_section_question(engine):
    plan = engine.searcher().plan("What does Best Buy say about competition in its fiscal 2019 10-K?", engine.documents())
    assert plan.intent is Intent.SECTION and plan.discussed == ("competition",)


@pytest.mark.parametrize("question", [
    "How does 3M prioritize capital deployment between reinvestment, acquisitions, dividends and buybacks?",
    "What is PepsiCo's Juice Transaction described in the FY2021 10-K?",
    "who does adobe say it competes with? 2015 10-K",
    "What strategy and fiscal 2020 priorities does Best Buy lay out in its FY19 10-K?",
])
def test_open_wordings_ask_for_the_discussion_not_figures(question):
    plan = build_plan(question, [])
    assert plan.intent is Intent.SECTION and plan.parts == () and not plan.amount

