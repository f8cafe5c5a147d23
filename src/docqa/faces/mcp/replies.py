"""What the MCP tools return: typed models (so each tool publishes an output schema) and the
shaping of the engine's documents, pages and answers into them, for a calling model to read."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from docqa.app.badge import badge
from docqa.types import Answer, Document


class DocumentInfo(BaseModel):
    document: str = Field(description="file name: pass it as `document` to the other tools")
    id: str
    company: str | None = None
    ticker: str | None = None
    doc_type: str | None = Field(None, description="10k, 10q, 8k, earnings or other")
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None
    period_end: str | None = Field(None, description="ISO date the fiscal period ends, when printed")
    pages: int
    chunks: int
    dense: bool = Field(description="whether the document has embeddings for vector search")


class DocumentList(BaseModel):
    count: int
    documents: list[DocumentInfo]
    hint: str | None = None


class SearchHit(BaseModel):
    rank: int
    document: str
    company: str | None = None
    year: int | None = None
    doc_type: str | None = None
    page: int = Field(description="1-based physical page")
    section: str | None = Field(None, description="e.g. 'Item 7' or 'Item 8'")
    statement: str | None = Field(None, description="the primary statement printed on the page, if any")
    snippet: str = Field(description="the best-matching passage on the page")
    score: float
    scores: dict[str, float] = Field(default_factory=dict, description="per-retriever scores")


class SearchResults(BaseModel):
    query: str
    mode: str
    companies: list[str] = Field(default_factory=list, description="companies the query was read as naming")
    years: list[int] = Field(default_factory=list, description="years the query was read as naming")
    notes: list[str] = Field(default_factory=list)
    hits: list[SearchHit]


class TableInfo(BaseModel):
    title: str | None = None
    unit: str | None = Field(None, description="e.g. 'in millions'")
    columns: list[str] = Field(default_factory=list)


class PageText(BaseModel):
    document: str
    page: int = Field(description="1-based physical page")
    pages: int = Field(description="pages in the document")
    previous_page: int | None = None
    next_page: int | None = None
    section: str | None = None
    statement: str | None = None
    tables: list[TableInfo] = Field(default_factory=list, description="statement tables read on this page")
    ocr: bool = Field(False, description="the text came from OCR")
    no_text: bool = Field(False, description="the page has no text layer and could not be read")
    text: str = Field(description="the page text, one visual row per line; table rows keep their figures")


class CitationOut(BaseModel):
    document: str
    page: int = Field(description="1-based physical page")
    quote: str = Field(description="verbatim from the page (checked)")
    about: str | None = Field(None, description="what the quote is about, read off the page (its heading and "
                                                "period, e.g. 'Safety and Graphics Business (2018)'): set when "
                                                "the quotes sit under different headings or pull opposite ways")


class FigureOut(BaseModel):
    name: str
    text: str = Field(description="as printed, or as computed")
    value: float
    unit: str | None = None
    scale: float = Field(1.0, description="value x scale = the amount (scale 1e6: in millions)")
    period: str | None = None
    document: str | None = None
    page: int | None = None
    computed: bool = False
    concept: str | None = Field(None, description="the inline XBRL fact it was read from (HTML filings), e.g. "
                                                  "'us-gaap:Revenues, Q2 2023, USD'")


class AnswerOut(BaseModel):
    question: str
    found: bool = Field(description="false: the filings do not support an answer (see reason)")
    text: str
    reason: str | None = None
    verification: Literal["verified", "partial", "passages", "not_found"]
    badge: str = Field("", description="the verification in the words every face shows (Verified, Partially "
                                       "verified, Passages found — not an answer, Not found)")
    citations: list[CitationOut] = Field(default_factory=list)
    figures: list[FigureOut] = Field(default_factory=list)
    formula: str | None = None
    answerer: str = ""
    citations_dropped: int = Field(0, description="citations removed because their quote was not on the page")
    numbers_unverified: list[str] = Field(default_factory=list)
    notice: str | None = Field(None, description="set when the answer was made while the sentence model was "
                                                 "still loading: by words alone; asking again gives the full answer")


class StatsOut(BaseModel):
    document: str
    pages: int
    words: int
    term: str | None = None
    count: int | None = Field(
        None, description="whole-word, case-insensitive occurrences of the term over the full text")
    pages_with_term: list[int] = Field(default_factory=list)


# --- shaping engine results ----------------------------------------------------------------------


def document_info(doc: Document) -> DocumentInfo:
    m = doc.meta
    return DocumentInfo(
        document=doc.file_name, id=doc.id, company=m.company, ticker=m.ticker,
        doc_type=m.doc_type.value if m.doc_type else None, fiscal_year=m.fiscal_year,
        fiscal_quarter=m.fiscal_quarter, period_end=m.period_end, pages=doc.pages, chunks=doc.chunks,
        dense=doc.embedded,
    )


def answer_out(answer: Answer) -> AnswerOut:
    return AnswerOut(
        question=answer.question, found=answer.found, text=answer.text, reason=answer.reason,
        verification=answer.verification, badge=badge(answer).words,
        citations=[CitationOut(document=c.document, page=c.page, quote=c.quote, about=c.about) for c in answer.citations],
        figures=[
            FigureOut(name=f.name, text=f.text, value=f.value, unit=f.unit, scale=f.scale, period=f.period,
                      document=f.document, page=f.page, computed=f.computed, concept=f.concept)
            for f in answer.figures
        ],
        formula=answer.formula, answerer=answer.answerer, citations_dropped=answer.citations_dropped,
        numbers_unverified=list(answer.numbers_unverified), notice=answer.notice,
    )


def table_info(table: "StatementTable") -> TableInfo:
    """One of a page's statement tables (finance's StatementTable, as the engine's pages carry them:
    a face reads them and never imports finance)."""
    return TableInfo(title=table.title, unit=table.unit_text or table.unit, columns=[c.header for c in table.columns])
