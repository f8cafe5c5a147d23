"""The nouns of docqa. Every face, store and answerer speaks these.

Page numbers are 1-based physical pages everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

BBox = tuple[float, float, float, float]  # x0, y0, x1, y1 in PDF points, origin top-left


def enclosing(boxes: Iterable[BBox]) -> BBox:
    """The smallest box around ``boxes`` (at least one)."""
    x0, y0, x1, y1 = zip(*boxes)
    return (min(x0), min(y0), max(x1), max(y1))


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class DocType(str, Enum):
    ANNUAL = "10k"                  # an SEC Form 10-K
    F20 = "20f"                     # a foreign private issuer's SEC annual report
    F40 = "40f"                     # a Canadian issuer's SEC annual report
    ANNUAL_REPORT = "annual_report"  # an annual report without an SEC cover (UK plc, ASX, glossy US reports)
    FINANCIAL_STATEMENTS = "financial_statements"  # audited statements alone, no report around them
    QUARTERLY = "10q"               # a 10-Q, or a half-year / interim report
    CURRENT = "8k"
    EARNINGS = "earnings"           # earnings release / results announcement
    OTHER = "other"

    @property
    def is_annual(self) -> bool:
        """Covers a whole fiscal year: any of the annual kinds answers a question about "the annual report"."""
        return self in ANNUAL_TYPES

    @property
    def family(self) -> tuple["DocType", ...]:
        """The kinds a filter on this kind accepts: "10-K" / "annual report" means any annual kind."""
        return ANNUAL_TYPES if self.is_annual else (self,)


ANNUAL_TYPES: tuple[DocType, ...] = (
    DocType.ANNUAL, DocType.F20, DocType.F40, DocType.ANNUAL_REPORT, DocType.FINANCIAL_STATEMENTS)


class StatementKind(str, Enum):
    INCOME = "income"
    BALANCE = "balance"
    CASH_FLOW = "cash_flow"
    EQUITY = "equity"
    COMPREHENSIVE = "comprehensive"


class Word(Frozen):
    text: str
    bbox: BBox


class Line(Frozen):
    """One visual row: words that share a baseline, in reading order.

    A statement row keeps its label and all of its figures on one Line.
    """

    text: str
    bbox: BBox
    words: tuple[Word, ...] = ()
    is_table: bool = False  # row has two or more numeric cells


class Page(Frozen):
    number: int  # 1-based
    width: float
    height: float
    lines: tuple[Line, ...]
    ocr: bool = False         # text came from OCR
    no_text: bool = False     # no text layer and OCR unavailable: flagged, not fatal

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


class DocumentMeta(Frozen):
    company: str | None = None
    ticker: str | None = None
    doc_type: DocType | None = None
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None
    period_end: str | None = None      # ISO date of the fiscal period end, when printed
    aliases: tuple[str, ...] = ()      # other names the company goes by (former names, short names)
    company_confidence: float | None = None  # 0..1: how well the sources agree on the company
    company_evidence: str | None = None  # the line the company was read from; or why it is unknown
    exchange: str | None = None        # where the ticker trades, as printed ("NYSE", "Nasdaq", "ASX", "LSE")
    currency: str | None = None        # reporting currency, ISO code ("USD", "GBP", "AUD")
    report_date: str | None = None     # an 8-K's date of report (ISO): "as of May 26, 2023" picks it
    # the year the filer's own title names its period by, when it is the year before the one the period
    # ends in: Ulta's "Fourth Quarter Fiscal 2022 Results" for the quarter ended January 28, 2023
    named_year: int | None = None


class PageInfo(Frozen):
    """What metadata detection learnt about one page."""

    number: int
    section: str | None = None                 # e.g. "Item 7" or "Item 8"
    statement: StatementKind | None = None     # a primary statement printed on this page


class Document(Frozen):
    id: str                 # content hash prefix: the same bytes are the same document
    file_name: str
    path: str
    sha256: str
    pages: int
    chunks: int = 0
    meta: DocumentMeta = DocumentMeta()
    ocr_pages: int = 0
    no_text_pages: int = 0
    embedded: bool = False


class Chunk(Frozen):
    """A piece of one page. Never crosses a page; a table region is never split."""

    id: str
    document_id: str
    document: str           # file name
    page: int               # 1-based
    ordinal: int            # position on the page
    text: str
    kind: Literal["text", "table"] = "text"
    bbox: BBox | None = None
    section: str | None = None
    statement: StatementKind | None = None
    company: str | None = None
    fiscal_year: int | None = None
    doc_type: DocType | None = None


class SearchFilters(Frozen):
    companies: tuple[str, ...] = ()
    years: tuple[int, ...] = ()
    doc_types: tuple[DocType, ...] = ()
    document_ids: tuple[str, ...] = ()

    def is_empty(self) -> bool:
        return not (self.companies or self.years or self.doc_types or self.document_ids)


SearchMode = Literal["hybrid", "lexical", "vector"]


class FilingPage(Frozen):
    """A page of an indexed filing with a text of it, and the company, year and statement the index
    gives it: what search finds (Hit) and what an answerer reads (EvidencePage)."""

    document: str
    document_id: str
    page: int
    text: str
    company: str | None = None
    year: int | None = None
    statement: StatementKind | None = None


class Hit(FilingPage):
    """One page that search found: the best chunk on that page speaks for it (``text`` is the chunk's)."""

    score: float
    chunk_id: str
    doc_type: DocType | None = None
    section: str | None = None
    scores: dict[str, float] = Field(default_factory=dict)


class FileOutcome(Frozen):
    path: str
    status: Literal["indexed", "skipped", "failed"]
    reason: str | None = None
    document_id: str | None = None
    pages: int = 0
    chunks: int = 0
    seconds: float = 0.0
    warnings: tuple[str, ...] = ()


class IngestReport(Frozen):
    files: tuple[FileOutcome, ...] = ()
    stage_seconds: dict[str, float] = Field(default_factory=dict)

    @property
    def indexed(self) -> list[FileOutcome]:
        return [f for f in self.files if f.status == "indexed"]

    @property
    def failed(self) -> list[FileOutcome]:
        return [f for f in self.files if f.status == "failed"]

    @property
    def skipped(self) -> list[FileOutcome]:
        return [f for f in self.files if f.status == "skipped"]


# --- answers ----------------------------------------------------------------------------------


class EvidencePage(FilingPage):
    """A page handed to an answerer (``text`` is the whole page's), labelled P1..Pn. Answerers may
    only cite these labels."""

    label: str


class Citation(Frozen):
    document: str
    document_id: str
    page: int                       # 1-based
    quote: str                      # occurs on the page (checked by docqa.verify)
    boxes: tuple[BBox, ...] = ()    # where the quote sits on the page, PDF points
    # what the quote is about, read off the page ("Safety and Graphics Business (2018)"): set when
    # an answer's quotes sit under different headings or pull opposite ways; shown beside the quote
    about: str | None = None


class Figure(Frozen):
    """One number an answer used: printed on a cited page (or the output of its formula)."""

    name: str                       # what it is: the line item or the computed metric
    value: float                    # in units of `scale` (1577 with scale 1e6 = $1.577bn)
    text: str                       # as printed ("(1,577)") or as computed ("4.81%")
    unit: str | None = None         # "USD", "%", "x", "shares", "USD/share", "days"
    scale: float = 1.0
    period: str | None = None       # the column it was read from ("2018", "Q2 2023")
    document: str | None = None
    page: int | None = None
    bbox: BBox | None = None
    computed: bool = False
    # read off an inline XBRL fact (HTML filings): "us-gaap:Revenues, Q2 2023, USD"
    concept: str | None = None


class Reply(Frozen):
    """What an answer says and what carries it: a Draft as an answerer proposes it, an Answer as
    verification leaves it."""

    text: str
    found: bool
    reason: str | None = None
    citations: tuple[Citation, ...] = ()
    figures: tuple[Figure, ...] = ()
    formula: str | None = None
    answerer: str = ""
    # what the figure answers ("Current ratio", "Goodwill"): the answerer's reading of the question,
    # checked against the question's measure
    measure: str | None = None


class Draft(Reply):
    """What an answerer proposes; docqa.verify decides what survives."""

    # False: the quotes are the closest passages, not lines that decide the question (the answer is then
    # "passages", never "verified", however exactly the quotes are printed)
    decisive: bool = True


class Answer(Reply):
    id: str | None = None
    question: str
    # passages: every quote is printed on its page, but the quotes do not decide the question
    verification: Literal["verified", "partial", "passages", "not_found"] = "not_found"
    citations_dropped: int = 0
    numbers_unverified: tuple[str, ...] = ()
    timings: dict[str, float] = Field(default_factory=dict)
    # Set when the answer was made without a step that was not ready (the sentence model loading).
    notice: str | None = None


class DocStats(Frozen):
    document: str
    pages: int
    words: int
    term: str | None = None
    count: int | None = None            # occurrences of the term over the full text
    pages_with_term: tuple[int, ...] = ()


# --- service state: background ingest jobs and the question log --------------------------------

JobStatus = Literal["queued", "processing", "ready", "failed"]


class Job(Frozen):
    """One uploaded file on its way into the index; survives a server restart."""

    id: str
    file_name: str               # as the user named it (display only, never a path)
    stored_path: str             # where the server keeps the bytes (a name it chose)
    sha256: str
    status: JobStatus = "queued"
    pages_done: int = 0
    pages_total: int = 0
    reason: str | None = None    # why it failed
    document_id: str | None = None
    attempts: int = 0
    created_at: str = ""
    updated_at: str = ""


class QuestionRecord(Frozen):
    """A question asked, the answer given, and what the asker thought of it."""

    answer: Answer
    filters: dict[str, str | int | None] = Field(default_factory=dict)
    created_at: str = ""
    helpful: bool | None = None
    note: str | None = None
