"""verify.check: a draft through every rule, in order; the first rule that refuses it decides."""

from __future__ import annotations

from docqa.types import Citation, Draft, Figure
from docqa.verify import REASON_NO_CITATIONS, Grounding, verify
from tests.verify.pages import NET_INCOME_ROW, PAGES, Q, cite, draft


def test_verified_answer():
    d = draft("Net income was $3,033 million in 2017 (Item 8).", cite(NET_INCOME_ROW))
    answer = verify(d, Q, PAGES)
    assert answer.verification == "verified" and answer.found
    assert answer.citations == d.citations and answer.citations_dropped == 0
    assert answer.numbers_unverified == () and answer.question == Q and answer.answerer == "test"


def test_whose_filing_is_judged_before_the_measure():
    other = Citation(document="OTHER.pdf", document_id="other", page=38, quote=NET_INCOME_ROW)
    d = draft("Net income was $3,033 million.", other,
              figures=(Figure(name="Net income", value=3033, text="3,033", document="other", page=38),),
              measure="Operating margin")
    grounding = Grounding(allowed=frozenset({"d1"}), company_of={"d1": "Amazon.com, Inc.", "other": "Other Inc."},
                          companies_asked=1)
    answer = verify(d, Q, {**PAGES, ("other", 38): PAGES[("d1", 38)]}, grounding)
    assert not answer.found and "not a filing of the company asked about" in answer.reason


def test_with_a_grounding_an_answer_citing_nothing_is_about_other_companies():
    # as before the rules were modules: the grounding speaks first, even of a draft with no citation
    answer = verify(draft("Net income was $3,033 million."), Q, PAGES, Grounding(allowed=frozenset({"d1"})))
    assert not answer.found and "other companies" in answer.reason
    assert verify(draft("Net income was $3,033 million."), Q, PAGES).reason == REASON_NO_CITATIONS


def test_dropped_citations_count_across_the_rules():
    other = Citation(document="OTHER.pdf", document_id="other", page=1, quote="anything at all here")
    d = draft("Net income was $3,033 million.", cite(NET_INCOME_ROW), cite("not on the page at all"), other)
    answer = verify(d, Q, PAGES, Grounding(allowed=frozenset({"d1"})))
    assert answer.found and answer.verification == "partial" and answer.citations_dropped == 2


def test_a_draft_that_found_nothing_is_not_checked_further():
    d = Draft(text="", found=False, answerer="test", citations=(cite("not on the page at all"),))
    answer = verify(d, Q, PAGES)
    assert answer.citations_dropped == 0 and answer.reason == "the documents do not support an answer"
