"""verify.claims: every number an answer states is printed on a cited page, follows from it, or is the asker's."""

from __future__ import annotations

from docqa.verify import verify
from docqa.verify.claims import check_claims
from docqa.verify.figures import Support
from tests.verify.pages import NET_INCOME_ROW, PAGES, Q, cite, draft

NOTHING = Support(page_values=[], inputs=[], outputs=[], input_values=[], trusted=[])


def test_a_number_on_the_page_is_grounded_and_one_elsewhere_is_not():
    support = Support(page_values=[3033.0], inputs=[], outputs=[], input_values=[], trusted=[])
    claims = check_claims(draft("Net income was $3,033 million, up 42%."), Q, support)
    assert claims.unverified == ("42%",) and claims.refused is None


def test_an_answer_of_ungrounded_numbers_only_is_refused():
    claims = check_claims(draft("Net income was $4,000 million."), Q, NOTHING)
    assert claims.unverified == ("$4,000 million",) and "$4,000 million" in claims.refused


def test_the_constants_of_a_shown_formula_are_not_claims():
    d = draft("365 days over 2 halves", formula="365 / 2")
    assert check_claims(d, "q?", NOTHING).unverified == ()
    assert check_claims(draft("365 days over 2 halves"), "q?", NOTHING).unverified == ("365", "2")


def test_unsupported_number_makes_partial_when_another_is_grounded():
    d = draft("Net income was $3,033 million, up 42% on 2016.", cite(NET_INCOME_ROW))
    answer = verify(d, Q, PAGES)
    assert answer.verification == "partial" and answer.numbers_unverified == ("42%",)


def test_only_unsupported_numbers_is_not_found():
    d = draft("Net income was $4,000 million.", cite(NET_INCOME_ROW))
    answer = verify(d, Q, PAGES)
    assert not answer.found and answer.verification == "not_found"
    assert "$4,000 million" in answer.reason and answer.numbers_unverified == ("$4,000 million",)


def test_numbers_must_be_on_a_surviving_citation_page():
    # 1,577 is printed on page 20, but only page 38 is (validly) cited.
    d = draft("Capital expenditures were $1,577 million.", cite(NET_INCOME_ROW))
    assert verify(d, Q, PAGES).verification == "not_found"


def test_text_answer_without_numbers():
    d = draft("Yes. Managing inventory significantly affects results.",
              cite("our future results of operations will be significantly affected", page=20))
    assert verify(d, "Does inventory matter?", PAGES).verification == "verified"


def test_number_given_in_the_question_is_not_a_claim():
    d = draft("Yes, net income of $3,033 million exceeded $3,000 million.", cite(NET_INCOME_ROW))
    answer = verify(d, "Did 2017 net income exceed $3,000 million?", PAGES)
    assert answer.verification == "verified"


def test_number_from_another_unit_and_rounding():
    d = draft("Net income was $3.0 billion; diluted EPS $6.15.", cite(NET_INCOME_ROW))
    assert verify(d, Q, PAGES).verification == "verified"


def test_negative_in_parentheses_matches_magnitude():
    d = draft("Interest expense was -$848 million.", cite("Interest expense  (459)  (484)  (848)"))
    assert verify(d, "What was interest expense in 2017?", PAGES).verification == "verified"
