"""Company grounding through the engine: an answer about one company stands on that company's filings only.

The rule itself (verify.grounding) is tested in tests/verify/test_grounding.py.
"""

from __future__ import annotations

from docqa.types import Citation, Draft, Figure

# on the bundled samples (Amazon, Netflix, Adobe)


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
    from docqa.plan import build_plan
    from docqa.verify.stated import amount_missing

    def quoted(*quotes):
        return tuple(Citation(document="w.pdf", document_id="w", page=1, quote=q) for q in quotes)

    question = build_plan("How many stores did Walmart operate at the end of fiscal 2018?", [])
    # a plan is not a count, and a count of something else is not a count of stores
    assert amount_missing(question, quoted("In fiscal 2019 we expect to add approximately 280 stores.",
                                           "We grew Online Grocery to over 1,100 pickup locations.")) is not None
    assert amount_missing(question, quoted("At January 31, 2018 we operated 11,718 retail stores.")) is None
    assert amount_missing(build_plan("What was Coca-Cola's research and development expense in 2017, in dollars?", []),
                          quoted("In October 2007 he moved to Japan to lead research and development.")) is not None


def test_a_figure_asked_and_answered_by_passages_is_not_found():
    from docqa.answer.ask import Asker
    from docqa.plan import build_plan
    from docqa.types import Answer

    passages = Answer(question="q", text="t", found=True, verification="passages",
                      citations=(Citation(document="p.pdf", document_id="p", page=3, quote="Costs of the Upjohn spin-off rose by 12 percent."),))
    asked = Asker._text_checked(None, passages, build_plan("How much does Pfizer expect to pay for the spin-off in USD million?", []))
    assert not asked.found and "only mention its topic" in asked.reason
    text = Asker._text_checked(None, passages, build_plan("What drove Pfizer's decision to spin off Upjohn?", []))
    assert text.found and text.verification == "passages"  # an explanation may be passages

