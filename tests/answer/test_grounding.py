"""Company grounding: an answer about one company stands on that company's filings only."""

from __future__ import annotations

from docqa.answer.verify import Grounding, verify
from docqa.types import Citation, Draft, Figure

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


# --- through the engine, on the bundled samples (Amazon, Netflix, Adobe) --------------------------

def test_an_unheld_company_is_not_found_although_another_companys_page_matches_best(lexical_engine):
    # Netflix's pages match "streaming revenues" best; the question is about a company not held.
    answer = lexical_engine.ask("What were Hulu's streaming revenues in 2017?")
    assert not answer.found
    assert "Hulu" in answer.reason and "no filing by" in answer.reason
    assert answer.citations == ()


def test_a_misspelt_company_is_recognised_and_its_own_filing_cited(lexical_engine):
    answer = lexical_engine.ask("What was Amazn's total net sales in 2017?")
    assert answer.found
    assert {c.document for c in answer.citations} == {"AMAZON_2017_10K.pdf"}
    assert "177,866" in answer.text
    assert "Amazon.com, Inc., 10-K fiscal 2017" in answer.text  # the answer names whose filing it read


def test_a_figure_without_a_company_is_not_answered_from_whichever_filing_matches(lexical_engine):
    answer = lexical_engine.ask("What was operating income in 2017?")
    assert not answer.found
    assert "names none of the" in answer.reason


def test_a_currency_the_filing_neither_reports_nor_prints_is_not_found(lexical_engine):
    answer = lexical_engine.ask("What were Amazon's total net sales in 2017 in euros?")
    assert not answer.found
    assert "EUR" in answer.reason and "USD" in answer.reason


def test_amounts_are_written_in_the_filings_own_currency():
    from docqa.answer.figures import in_reporting_currency
    from docqa.types import Document, DocumentMeta

    class OneDoc:
        def document(self, _id):
            return Document(id="ca", file_name="ca.pdf", path="", sha256="ca", pages=1,
                            meta=DocumentMeta(company="Swiss Water Decaffeinated Coffee Inc.", currency="CAD"))

    draft = Draft(text="Revenue for fiscal 2022: $43,998 thousand (as printed: $ 43,998 thousands, ca.pdf p. 4).",
                  found=True, citations=(Citation(document="ca.pdf", document_id="ca", page=4, quote="Revenue $ 43,998"),),
                  figures=(Figure(name="Revenue", value=43998, text="$ 43,998", unit="USD"),), answerer="figures")
    shown = in_reporting_currency(draft, OneDoc())
    assert shown.text.startswith("Revenue for fiscal 2022: CAD 43,998 thousand")
    assert "(as printed: $ 43,998 thousands" in shown.text  # the printed cell keeps its own sign
    assert shown.figures[0].unit == "CAD"


def test_quotes_answer_an_amount_only_when_they_state_it():
    from docqa.answer.ask import amount_missing
    from docqa.plan import build_plan
    from docqa.types import Answer

    def quoted(*quotes):
        return Answer(question="q", text="t", found=True,
                      citations=tuple(Citation(document="w.pdf", document_id="w", page=1, quote=q) for q in quotes))

    question = build_plan("How many stores did Walmart operate at the end of fiscal 2018?", [])
    # a plan is not a count, and a count of something else is not a count of stores
    assert amount_missing(question, quoted("In fiscal 2019 we expect to add approximately 280 stores.",
                                           "We grew Online Grocery to over 1,100 pickup locations.")) is not None
    assert amount_missing(question, quoted("At January 31, 2018 we operated 11,718 retail stores.")) is None
    assert amount_missing(build_plan("What was Coca-Cola's research and development expense in 2017, in dollars?", []),
                          quoted("In October 2007 he moved to Japan to lead research and development.")) is not None
