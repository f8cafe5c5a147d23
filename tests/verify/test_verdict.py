"""verify.verdict: verified, partial, passages or not found, and what each answer carries."""

from __future__ import annotations

from docqa.types import Draft
from docqa.verify import NOT_FOUND_TEXT, verify
from docqa.verify.verdict import found, not_found, passed_through, status
from tests.verify.pages import NET_INCOME_ROW, PAGES, Q, cite, draft


def test_status_follows_what_was_dropped():
    d = draft("t", cite(NET_INCOME_ROW))
    assert status(d, 0, ()) == "verified"
    assert status(d, 1, ()) == "partial"
    assert status(d, 0, ("42%",)) == "partial"


def test_quotes_that_decide_nothing_are_passages():
    d = draft("t", cite(NET_INCOME_ROW), decisive=False)
    assert status(d, 0, ()) == "passages" and status(d, 1, ("x",)) == "passages"


def test_not_found_keeps_the_draft_s_answerer_formula_and_measure():
    d = draft("t", formula="1 + 1 = 2", measure="Net income")
    answer = not_found(d, Q, "why", dropped=2, unverified=("9",))
    assert (answer.found, answer.verification, answer.reason, answer.text) == (False, "not_found", "why", NOT_FOUND_TEXT)
    assert (answer.answerer, answer.formula, answer.measure, answer.question) == ("test", "1 + 1 = 2", "Net income", Q)
    assert answer.citations_dropped == 2 and answer.numbers_unverified == ("9",)


def test_found_carries_the_kept_citations_and_figures():
    c = cite(NET_INCOME_ROW)
    answer = found(draft("t", c), Q, (c,), (), 0, ())
    assert answer.found and answer.citations == (c,) and answer.verification == "verified"


def test_a_draft_without_an_answer_passes_through_with_its_reason():
    d = Draft(text="", found=False, reason="no page states it", answerer="test")
    answer = passed_through(d, Q)
    assert (answer.reason, answer.text) == ("no page states it", NOT_FOUND_TEXT)
    assert passed_through(Draft(text="None held.", found=False), Q).reason == "the documents do not support an answer"
    assert passed_through(Draft(text="None held.", found=False), Q).text == "None held."


def test_draft_not_found_passes_through():
    d = Draft(text="", found=False, reason="no page states it", answerer="test")
    answer = verify(d, Q, PAGES)
    assert (answer.found, answer.verification, answer.reason, answer.text) == (False, "not_found", "no page states it",
                                                                                NOT_FOUND_TEXT)
