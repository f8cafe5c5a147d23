"""Which periods the held filings can speak to: a period after every held filing is refused before any
search, but an annual report states what was so on a day after its year closed, and a filing the
question names states what it says of a later year."""

from __future__ import annotations

from docqa.answer.ask import missing_subject
from docqa.plan import build_plan
from docqa.types import DocType, Document, DocumentMeta, SearchFilters


def _doc(id_: str, company: str, year: int, end: str, doc_type: DocType = DocType.ANNUAL) -> Document:
    return Document(id=id_, file_name=f"{id_}.pdf", path="", sha256=id_, pages=1,
                    meta=DocumentMeta(company=company, fiscal_year=year, doc_type=doc_type, period_end=end,
                                      aliases=(company.split()[0],)))


VERRICA = [_doc("v22", "Verrica Pharmaceuticals Inc.", 2022, "2022-12-31")]
WALMART = [_doc("w23", "Walmart Inc.", 2023, "2023-01-31"), _doc("w20", "Walmart Inc.", 2020, "2020-01-31")]


def _missing(question: str, documents: list[Document]) -> str | None:
    return missing_subject(build_plan(question, documents), documents, SearchFilters())


def test_a_day_within_months_of_an_annual_reports_year_is_its_to_state():
    # "As of January 31, 2023, we held inventories of approximately 120,000 ... applicators" (10-K for 2022)
    assert _missing("As of January 31, 2023, how many applicators did Verrica hold in inventory?", VERRICA) is None
    # a year later, no held filing speaks of it
    reason = _missing("As of January 31, 2024, how many applicators did Verrica hold in inventory?", VERRICA)
    assert reason is not None and "2022-12-31" in reason


def test_a_later_year_asked_of_a_named_held_filing_is_its_to_state():
    # "the fiscal 2024 annual dividend of $2.28 per share", approved and reported in the fiscal 2023 report
    question = "What annual dividend per share did Walmart approve for fiscal 2024, as reported in its fiscal 2023 annual report?"
    assert _missing(question, WALMART) is None
    reason = _missing("What was Walmart's revenue in fiscal 2024?", WALMART)
    assert reason is not None and "2024" in reason
