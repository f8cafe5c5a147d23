"""Follow-up questions made whole from their conversation, and the printed page numbers, on real filings."""

from __future__ import annotations

import fitz
import pytest

from docqa.config import Settings
from docqa.engine import Engine
from docqa.pagelabels import printed_label
from docqa.app.conversation import ask_in_thread
from docqa.app.threads import Scope, label_for, understand
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
    asked = ask_in_thread(engine, "and in 2016?", context="What was Netflix's operating income in 2017?",
                                 origin="mcp", log=False)
    assert asked.record is None and asked.answer.question == "What was Netflix's operating income in 2016?"
    assert asked.answer.verification == "verified" and "379,793" in asked.answer.text


def test_printed_page_numbers_are_read_from_the_footer():
    with fitz.open(NETFLIX) as doc:
        assert printed_label(doc[41]) == "40" and printed_label(doc[22]) == "21"
        assert printed_label(doc[0]) is None  # the cover prints none
    with fitz.open(AMAZON) as doc:
        assert printed_label(doc[22]) == "23"


def test_a_question_that_names_an_unheld_company_never_inherits_the_thread_company(tmp_path):
    from docqa.types import DocType, Document, DocumentMeta

    docs = [Document(id="amzn", file_name="amzn.pdf", path="amzn.pdf", sha256="0" * 64, pages=80,
                     meta=DocumentMeta(company="Amazon.com, Inc.", fiscal_year=2017, doc_type=DocType.ANNUAL))]
    before = QuestionRecord(answer=Answer(question="Did Amazon pay a dividend in 2017?", text="", found=True))
    understood = understand("What was Tesla's revenue in 2022?", before, docs, Scope())
    assert "Amazon" not in understood.question
    assert "company" not in understood.inherited
    follow = understand("and Tesla?", QuestionRecord(answer=Answer(question="What was Amazon's revenue in 2017?",
                                                                   text="", found=True)), docs, Scope())
    assert "Tesla" in follow.question and "Amazon" not in follow.question
