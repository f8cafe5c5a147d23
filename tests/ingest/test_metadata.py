"""Metadata read from the document itself: real filings, plus small pages for the edge rules."""

from __future__ import annotations

import shutil

import pytest

from docqa.ingest.metadata import detect_document, detect_pages, short_name, statement_kind
from docqa.ingest.parse import parse_pdf
from docqa.types import DocType, Line, Page, StatementKind
from tests.conftest import SAMPLES, shared_pdf


def make_page(number: int, *rows: str) -> Page:
    lines = tuple(Line(text=row, bbox=(0, 0, 0, 0)) for row in rows)
    return Page(number=number, width=612, height=792, lines=lines)


def _names(meta) -> set[str]:
    return {n.lower() for n in (meta.company, *meta.aliases) if n}


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    """Parse each sample once. The copies get neutral names: detection must not need the file name."""
    folder = tmp_path_factory.mktemp("renamed")
    cache: dict[str, list[Page]] = {}

    def get(name: str, path=None) -> list[Page]:
        if name not in cache:
            source = path or SAMPLES / name
            copy = folder / f"upload-{len(cache)}.pdf"
            shutil.copy(source, copy)
            cache[name] = parse_pdf(copy, ocr=False).pages
        return cache[name]

    return get


# --------------------------------------------------------------------------- bundled samples


@pytest.mark.parametrize(
    "name, company, alias, ticker, year, end",
    [
        ("AMAZON_2017_10K.pdf", "Amazon.com, Inc.", "amazon", None, 2017, "2017-12-31"),
        ("NETFLIX_2017_10K.pdf", "Netflix, Inc.", "netflix", None, 2017, "2017-12-31"),
        ("ADOBE_2022_10K.pdf", "Adobe Inc.", "adobe", "ADBE", 2022, "2022-12-02"),
    ],
)
def test_annual_report_fields(parsed, name, company, alias, ticker, year, end):
    meta = detect_document(parsed(name))
    assert meta.company == company
    assert alias in _names(meta)
    assert meta.ticker == ticker
    assert meta.doc_type is DocType.ANNUAL
    assert (meta.fiscal_year, meta.fiscal_quarter, meta.period_end) == (year, None, end)


@pytest.mark.parametrize(
    "name, page, kind",
    [
        ("AMAZON_2017_10K.pdf", 38, StatementKind.INCOME),       # FinanceBench evidence page
        ("AMAZON_2017_10K.pdf", 40, StatementKind.BALANCE),
        ("AMAZON_2017_10K.pdf", 37, StatementKind.CASH_FLOW),
        ("NETFLIX_2017_10K.pdf", 45, StatementKind.BALANCE),     # FinanceBench evidence page
        ("ADOBE_2022_10K.pdf", 57, StatementKind.CASH_FLOW),
        ("ADOBE_2022_10K.pdf", 56, StatementKind.EQUITY),
    ],
)
def test_statement_pages(parsed, name, page, kind):
    infos = detect_pages(parsed(name))
    assert infos[page - 1].number == page
    assert infos[page - 1].statement is kind


def test_one_statement_page_per_kind_and_sections(parsed):
    pages = parsed("AMAZON_2017_10K.pdf")
    infos = detect_pages(pages)
    assert len(infos) == len(pages)
    kinds = [i.statement for i in infos if i.statement]
    # each primary statement found exactly once: no notes, MD&A tables or contents pages
    assert sorted(k.value for k in kinds) == sorted(k.value for k in StatementKind)
    assert all(i.section == "Item 8" for i in infos if i.statement)
    assert infos[1].section is None  # the contents page lists every Item but starts none
    assert infos[19].section == "Item 7"  # MD&A


# --------------------------------------------------------------------------- shared corpus


def test_quarterly_report_with_retail_calendar(parsed):
    """Best Buy's Q2 of fiscal 2024 ended July 29, 2023: the year is the one the fiscal year ends in."""
    pages = parsed("bby-10q", shared_pdf("BESTBUY_2024Q2_10Q.pdf"))
    meta = detect_document(pages)
    assert meta.doc_type is DocType.QUARTERLY
    assert (meta.fiscal_year, meta.fiscal_quarter, meta.period_end) == (2024, 2, "2023-07-29")
    assert "best buy" in _names(meta) and meta.ticker == "BBY"
    sections = {i.section for i in detect_pages(pages)}
    assert {"Part I, Item 2", "Part II, Item 1A"} & sections  # 10-Q Items restart in Part II


def test_current_report(parsed):
    pages = parsed("fl-8k", shared_pdf("FOOTLOCKER_2022_8K_dated-2022-05-20.pdf"))
    meta = detect_document(pages)
    assert meta.doc_type is DocType.CURRENT
    assert meta.company == "Foot Locker, Inc." and meta.ticker == "FL"
    assert meta.fiscal_year == 2022
    assert any(i.section and i.section.startswith("Item 5.07") for i in detect_pages(pages))


def test_earnings_release(parsed):
    pages = parsed("ulta-release", shared_pdf("ULTABEAUTY_2023Q4_EARNINGS.pdf"))
    meta = detect_document(pages)
    assert meta.doc_type is DocType.EARNINGS
    assert meta.company == "Ulta Beauty, Inc." and meta.ticker == "ULTA"
    # "fourth quarter fiscal 2022" ended January 28, 2023: named by the year it ends in
    assert (meta.fiscal_year, meta.fiscal_quarter, meta.period_end) == (2023, 4, "2023-01-28")
    kinds = {i.statement for i in detect_pages(pages)}
    assert {StatementKind.INCOME, StatementKind.BALANCE, StatementKind.CASH_FLOW} <= kinds


# --------------------------------------------------------------------------- rules, on small pages

COVER_10K = (
    "UNITED STATES",
    "SECURITIES AND EXCHANGE COMMISSION",
    "FORM 10-K",
    "☒ ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
    "For the fiscal year ended January 1, 2023",
    "Commission file number 1-3215",
    "JOHNSON & JOHNSON",
    "(Exact name of registrant as specified in its charter)",
    "Title of each class  Trading Symbol(s)  Name of each exchange on which registered",
    "Common Stock, Par Value $1.00  JNJ  New York Stock Exchange",
)


def test_52_week_year_ending_in_early_january_belongs_to_the_year_before():
    meta = detect_document([make_page(1, *COVER_10K)])
    assert meta.company == "Johnson & Johnson" and meta.ticker == "JNJ"
    assert (meta.doc_type, meta.fiscal_year, meta.period_end) == (DocType.ANNUAL, 2022, "2023-01-01")


def test_press_release_is_earnings_and_the_8k_cover_is_not():
    release = make_page(
        1,
        "PepsiCo Reports First-Quarter 2023 Results; Raises Full-Year Guidance",
        "PURCHASE, N.Y. - April 25, 2023 - PepsiCo, Inc. (NASDAQ: PEP) today reported results for",
        "the first quarter 2023. Please refer to PepsiCo's Quarterly Report on Form 10-Q for the 12 weeks ended",
        "March 25, 2023 (Q1 2023",
        "Form 10-Q) filed with the Securities and Exchange Commission (SEC).",
    )
    meta = detect_document([release])
    assert meta.doc_type is DocType.EARNINGS
    assert (meta.company, meta.ticker) == ("PepsiCo, Inc.", "PEP")
    assert (meta.fiscal_year, meta.fiscal_quarter, meta.period_end) == (2023, 1, "2023-03-25")

    cover = make_page(
        1,
        "FORM 8-K",
        "CURRENT REPORT",
        "Date of Report (Date of earliest event reported): May 3, 2023",
        "PepsiCo, Inc.",
        "(Exact name of registrant as specified in its charter)",
    )
    exhibit = make_page(2, "Item 2.02  Results of Operations and Financial Condition", *release.text.split("\n"))
    meta = detect_document([cover, exhibit])
    assert (meta.doc_type, meta.fiscal_year, meta.period_end) == (DocType.CURRENT, 2023, None)


def test_non_us_annual_report():
    """No SEC cover, a logo for a name: the title line, a UK date and the legal name printed most."""
    cover = make_page(1, "Annual Report and Accounts 2022", "Strategic Report for the year ended 31 December 2022")
    body = make_page(
        2,
        "Unilever PLC (the Company) and its subsidiaries (the Group) make consumer goods.",
        "The auditor, KPMG LLP, audited the accounts of Unilever PLC.",
        "Registered office: Unilever PLC, Port Sunlight, Wirral.",
    )
    meta = detect_document([cover, body])
    assert meta.doc_type is DocType.ANNUAL
    assert (meta.fiscal_year, meta.period_end) == (2022, "2022-12-31")
    assert meta.company == "Unilever PLC" and "unilever" in _names(meta)


def _statement_page(*title: str) -> Page:
    rows = [f"Line item {i}  {i},{i:03d}  ({i + 1},{i:03d})" for i in range(1, 12)]
    return make_page(1, *title, "(In millions)  2023  2022", *rows)


def test_a_statement_page_needs_its_title_on_top_and_a_table():
    assert statement_kind(_statement_page("Consolidated Balance Shee t")) is StatementKind.BALANCE
    assert statement_kind(_statement_page("NIKE, Inc. Consolidated Statements of Income")) is StatementKind.INCOME
    assert (
        statement_kind(_statement_page("CONSOLIDATED STATEMENTS OF COMPREHENSIVE", "INCOME"))
        is StatementKind.COMPREHENSIVE
    )
    assert statement_kind(_statement_page("Consolidated Statements of Income and Comprehensive Income")) is (
        StatementKind.INCOME
    )
    # prose that names a statement, a notes page, an MD&A summary, a contents page: not statements
    assert statement_kind(_statement_page("see the consolidated balance sheets for details")) is None
    assert statement_kind(_statement_page("Note 2 - Revenue", "Consolidated Statements of Operations")) is None
    assert statement_kind(_statement_page("Consolidated Statement of Operations Data:")) is None
    contents = make_page(
        1,
        "Consolidated Statements of Income  45",
        "Consolidated Balance Sheets  46",
        "Consolidated Statements of Cash Flows  47",
    )
    assert statement_kind(contents) is None
    assert statement_kind(make_page(1, "Consolidated Balance Sheets", "We discuss our balance sheet below.")) is None


def test_sections_carry_forward_and_skip_the_contents_page():
    pages = [
        make_page(1, "FORM 10-K"),
        make_page(2, *(f"Item {n}.  Heading  {3 + i}" for i, n in enumerate(("1", "1A", "2", "7", "8", "9")))),
        make_page(3, "Item 1. Business", "We make things."),
        make_page(4, "More on the business."),
        make_page(5, "as described in", "Item 7 of this report, margins grew."),
        make_page(6, "Item 7. Management's Discussion and Analysis"),
    ]
    assert [i.section for i in detect_pages(pages)] == [None, None, "Item 1", "Item 1", "Item 1", "Item 7"]


def test_short_names():
    assert short_name("Best Buy Co., Inc.") == "Best Buy"
    assert short_name("JPMorgan Chase & Co.") == "JPMorgan Chase"
    assert short_name("The Boeing Company") == "Boeing"
    assert short_name("Amazon.com, Inc.") == "Amazon"
    assert short_name("MGM Resorts International") == "MGM Resorts"


def test_nothing_to_read_is_not_an_error():
    assert detect_document([]).doc_type is DocType.OTHER
    assert detect_document([make_page(1)]).company is None
    assert detect_pages([]) == []


def test_foreign_filer_cover_uses_the_english_name():
    cover = make_page(
        1,
        "FORM 20-F",
        "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
        "For the fiscal year ended 31st March 2023",
        "Commission file number 001-14948",
        "TOYOTA JIDOSHA KABUSHIKI KAISHA",
        "(Exact name of registrant as specified in its charter)",
        "TOYOTA MOTOR CORPORATION",
        "(Translation of registrant's name into English)",
    )
    meta = detect_document([cover])
    assert (meta.doc_type, meta.fiscal_year, meta.period_end) == (DocType.ANNUAL, 2023, "2023-03-31")
    assert meta.company == "Toyota Motor Corporation"
    assert {"toyota motor", "toyota jidosha kabushiki kaisha"} <= _names(meta)


def test_report_date_printed_above_its_label():
    cover = make_page(
        1, "FORM 8-K", "CURRENT REPORT", "February 1, 2024", "Date of Report (Date of earliest event reported)",
        "Acme Widgets, Inc.", "(Exact name of registrant as specified in its charter)",
    )
    meta = detect_document([cover])
    assert (meta.doc_type, meta.fiscal_year, meta.company) == (DocType.CURRENT, 2024, "Acme Widgets, Inc.")
