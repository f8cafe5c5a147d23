"""verify.grounding: an answer about one company stands on that company's filings only."""

from __future__ import annotations

from docqa.types import Citation, Draft, Figure
from docqa.verify import Grounding, verify
from docqa.verify.grounding import REASON_OTHER_COMPANIES, ground

AMAZON = """CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
Year Ended December 31,  2016  2017
Total net sales  135,987  177,866
Operating income  4,186  4,106"""

NETFLIX = """CONSOLIDATED STATEMENTS OF OPERATIONS
(in thousands)
Year ended December 31,  2016  2017
Revenues  8,830,669  11,692,713
Operating income  379,793  838,679"""

PAGES = {("amzn", 38): AMAZON, ("nflx", 40): NETFLIX}
COMPANY_OF = {"amzn": "Amazon.com, Inc.", "AMAZON_2017_10K.pdf": "Amazon.com, Inc.",
              "nflx": "Netflix, Inc.", "NETFLIX_2017_10K.pdf": "Netflix, Inc."}
AMAZON_ONLY = Grounding(allowed=frozenset({"amzn", "AMAZON_2017_10K.pdf"}), company_of=COMPANY_OF, companies_asked=1)


def amazon(quote: str) -> Citation:
    return Citation(document="AMAZON_2017_10K.pdf", document_id="amzn", page=38, quote=quote)


def netflix(quote: str) -> Citation:
    return Citation(document="NETFLIX_2017_10K.pdf", document_id="nflx", page=40, quote=quote)


def figure(name: str, value: float, text: str, document: str, page: int) -> Figure:
    return Figure(name=name, value=value, text=text, document=document, page=page, period="2017")


def test_a_figure_read_from_another_companys_filing_is_refused():
    draft = Draft(text="Operating income for fiscal 2017: $838,679 thousand.", found=True,
                  citations=(netflix("Operating income  379,793  838,679"),),
                  figures=(figure("Operating income", 838679, "838,679", "NETFLIX_2017_10K.pdf", 40),), answerer="t")
    answer = verify(draft, "What was Amazon's operating income in 2017?", PAGES, AMAZON_ONLY)
    assert not answer.found
    assert "NETFLIX_2017_10K.pdf" in answer.reason and "not a filing of the company asked about" in answer.reason


def test_a_formula_fed_by_two_companies_figures_is_refused_even_without_a_named_company():
    # Amazon's sales over Netflix's operating income: each input is printed, the arithmetic adds
    # up, and the answer is still about no company at all.
    draft = Draft(
        text="Operating margin for fiscal 2017: 0.47%.", found=True,
        citations=(amazon("Total net sales  135,987  177,866"), netflix("Operating income  379,793  838,679")),
        figures=(figure("Revenue", 177866, "177,866", "AMAZON_2017_10K.pdf", 38),
                 figure("Operating income", 838679, "838,679", "NETFLIX_2017_10K.pdf", 40),
                 Figure(name="Operating margin", value=0.4715, text="0.47%", computed=True)),
        formula="operating income / revenue = 838,679 / 177,866 = 471.53%", answerer="t")
    unscoped = Grounding(company_of=COMPANY_OF, companies_asked=0)
    answer = verify(draft, "What was the operating margin in 2017?", PAGES, unscoped)
    assert not answer.found
    assert "more than one company" in answer.reason
    assert "Amazon.com, Inc." in answer.reason and "Netflix, Inc." in answer.reason


def test_citations_of_another_company_are_dropped_and_the_rest_stands():
    draft = Draft(text="Total net sales were $177,866 million in 2017.", found=True,
                  citations=(amazon("Total net sales  135,987  177,866"), netflix("Revenues  8,830,669  11,692,713")),
                  answerer="t")
    answer = verify(draft, "What were Amazon's 2017 net sales?", PAGES, AMAZON_ONLY)
    assert answer.found
    assert [c.document_id for c in answer.citations] == ["amzn"]
    assert answer.citations_dropped == 1


def test_an_answer_citing_only_other_companies_is_not_found():
    draft = Draft(text="Revenues were $11,692,713 thousand.", found=True,
                  citations=(netflix("Revenues  8,830,669  11,692,713"),), answerer="t")
    answer = verify(draft, "What were Amazon's 2017 net sales?", PAGES, AMAZON_ONLY)
    assert not answer.found and "other companies" in answer.reason


def test_a_comparison_may_cite_each_company_it_names():
    both = Grounding(allowed=frozenset(COMPANY_OF), company_of=COMPANY_OF, companies_asked=2)
    draft = Draft(text="Amazon 4,106; Netflix 838,679.", found=True,
                  citations=(amazon("Operating income  4,186  4,106"), netflix("Operating income  379,793  838,679")),
                  figures=(figure("Operating income", 4106, "4,106", "AMAZON_2017_10K.pdf", 38),
                           figure("Operating income", 838679, "838,679", "NETFLIX_2017_10K.pdf", 40)), answerer="t")
    answer = verify(draft, "Compare Amazon's and Netflix's 2017 operating income.", PAGES, both)
    assert answer.found and len(answer.citations) == 2


def test_without_a_grounding_every_filing_stands():
    draft = Draft(text="t", found=True, citations=(netflix("Revenues  8,830,669  11,692,713"),), answerer="t")
    assert ground(draft, None) == (draft, 0, None)


def test_ground_drops_other_companies_citations_and_says_when_none_is_left():
    draft = Draft(text="t", found=True, citations=(amazon("Total net sales  135,987  177,866"),
                                                   netflix("Revenues  8,830,669  11,692,713")), answerer="t")
    kept, dropped, refused = ground(draft, AMAZON_ONLY)
    assert [c.document_id for c in kept.citations] == ["amzn"] and dropped == 1 and refused is None
    only_netflix = draft.model_copy(update={"citations": draft.citations[1:]})
    assert ground(only_netflix, AMAZON_ONLY)[1:] == (1, REASON_OTHER_COMPANIES)


def test_a_figure_of_an_unknown_company_is_named_so():
    draft = Draft(text="t", found=True, citations=(amazon("Total net sales  135,987  177,866"),),
                  figures=(figure("Revenue", 1, "1", "stray.pdf", 1),), answerer="t")
    _, _, refused = ground(draft, AMAZON_ONLY)
    assert "stray.pdf (company unknown)" in refused
