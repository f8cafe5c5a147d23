"""Follow-up questions made whole from their conversation, and the printed page numbers, on real filings."""

from __future__ import annotations

import fitz
import pytest

from docqa.config import Settings
from docqa.engine import Engine
from docqa.pagelabels import printed_label
from docqa.threads import Scope, label_for, understand
from docqa.types import Answer, QuestionRecord
from tests.conftest import SAMPLES

NETFLIX = SAMPLES / "NETFLIX_2017_10K.pdf"
AMAZON = SAMPLES / "AMAZON_2017_10K.pdf"


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    with Engine.open(Settings(index=tmp_path_factory.mktemp("threads"), dense=False)) as e:
        e.ingest([NETFLIX, AMAZON])
        yield e


def previous(question: str, **filters) -> QuestionRecord:
    return QuestionRecord(answer=Answer(question=question, text="", found=True), filters=filters)


@pytest.mark.parametrize("follow_up, whole, inherited", [
    ("and in 2016?", "What was Netflix's operating income in FY2016?", {"company", "metric"}),
    ("and its revenue?", "Netflix's revenue in FY2017?", {"company", "period"}),
    ("What about Amazon?", "What was operating income in FY2017 for Amazon.com?", {"period", "metric"}),
    ("What was Amazon's total net sales in 2017?", "What was Amazon's total net sales in 2017?", set()),
])
def test_a_follow_up_takes_what_it_omits_from_the_last_question(engine, follow_up, whole, inherited):
    u = understand(follow_up, previous("What was Netflix's operating income in FY2017?"), engine.documents(), Scope())
    assert u.question == whole and set(u.inherited) == inherited


def test_the_scope_is_inherited_only_when_the_follow_up_names_none(engine):
    prior = previous("What was Netflix's operating income in FY2017?", document="981a69bba010dd17")
    assert understand("and in 2016?", prior, engine.documents(), Scope()).scope.documents == ("981a69bba010dd17",)
    mine = Scope(company="Amazon")
    assert understand("and in 2016?", prior, engine.documents(), mine).scope == mine


def test_the_label_says_company_metric_and_period(engine):
    assert label_for("What was Netflix's operating income in FY2017?", engine.documents()) == \
        "Netflix operating income, FY2017"
    counting = "How many times does 'streaming' appear in NETFLIX_2017_10K.pdf?"
    assert label_for(counting, engine.documents()) == counting  # no metric: the question says it best


def test_a_context_makes_a_follow_up_for_callers_that_keep_the_conversation(engine):
    asked = engine.ask_in_thread("and in 2016?", context="What was Netflix's operating income in 2017?",
                                 origin="mcp", log=False)
    assert asked.record is None and asked.answer.question == "What was Netflix's operating income in 2016?"
    assert asked.answer.verification == "verified" and "379,793" in asked.answer.text


def test_printed_page_numbers_are_read_from_the_footer():
    with fitz.open(NETFLIX) as doc:
        assert printed_label(doc[41]) == "40" and printed_label(doc[22]) == "21"
        assert printed_label(doc[0]) is None  # the cover prints none
    with fitz.open(AMAZON) as doc:
        assert printed_label(doc[22]) == "23"
