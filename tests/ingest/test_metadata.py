"""Metadata read from the document itself: real filings, plus small pages for the edge rules."""

from __future__ import annotations

import shutil

import pytest

from docqa.ingest.metadata import detect_document, detect_pages, is_generic_name, short_name, statement_kind
from docqa.ingest.parse import parse_pdf
from docqa.types import DocType, Line, Page, StatementKind
from tests.conftest import SAMPLES
from tests.filings import filing_pdf


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


# --------------------------------------------------------------------------- corpus filings


def test_quarterly_report_with_retail_calendar(parsed):
    """Best Buy's Q2 of fiscal 2024 ended July 29, 2023: the year is the one the fiscal year ends in."""
    pages = parsed("bby-10q", filing_pdf("BESTBUY_2024Q2_10Q.pdf"))
    meta = detect_document(pages)
    assert meta.doc_type is DocType.QUARTERLY
    assert (meta.fiscal_year, meta.fiscal_quarter, meta.period_end) == (2024, 2, "2023-07-29")
    assert "best buy" in _names(meta) and meta.ticker == "BBY"
    sections = {i.section for i in detect_pages(pages)}
    assert {"Part I, Item 2", "Part II, Item 1A"} & sections  # 10-Q Items restart in Part II


def test_current_report(parsed):
    pages = parsed("fl-8k", filing_pdf("FOOTLOCKER_2022_8K_dated-2022-05-20.pdf"))
    meta = detect_document(pages)
    assert meta.doc_type is DocType.CURRENT
    assert meta.company == "Foot Locker, Inc." and meta.ticker == "FL"
    assert meta.fiscal_year == 2022
    assert any(i.section and i.section.startswith("Item 5.07") for i in detect_pages(pages))


def test_earnings_release(parsed):
    pages = parsed("ulta-release", filing_pdf("ULTABEAUTY_2023Q4_EARNINGS.pdf"))
    meta = detect_document(pages)
    assert meta.doc_type is DocType.EARNINGS
    assert meta.company == "Ulta Beauty, Inc." and meta.ticker == "ULTA"
    # "fourth quarter fiscal 2022" ended January 28, 2023: held by the year it ends in, and the
    # year the filer's title names it by kept beside it
    assert (meta.fiscal_year, meta.fiscal_quarter, meta.period_end) == (2023, 4, "2023-01-28")
    assert meta.named_year == 2022
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
    assert meta.doc_type is DocType.ANNUAL_REPORT  # no SEC cover: an annual report, not a 10-K
    assert (meta.fiscal_year, meta.period_end) == (2022, "2022-12-31")
    assert meta.company == "Unilever PLC" and "unilever" in _names(meta)


def test_a_report_without_a_title_block_takes_the_year_its_statements_report():
    """A shareholder letter, then the 10-K's items without the SEC cover: the year is the one its
    statements keep naming; a year named twice, or a half year's periods, is no annual report."""
    letter = make_page(1, "Dear shareholders, colleagues, customers, and partners:",
                       "The world in 2022 looks nothing like the world in 2019.")

    def statements(*periods: str) -> list[Page]:
        return [make_page(i + 2, "Microsoft Corporation", f"Revenue for the {when}  198,270  168,088")
                for i, when in enumerate(periods)]

    meta = detect_document([letter, *statements(*["year ended June 30, 2022"] * 3, "year ended June 30, 2021")])
    assert meta.doc_type is DocType.ANNUAL_REPORT
    assert (meta.fiscal_year, meta.period_end) == (2022, "2022-06-30")
    twice = detect_document([letter, *statements("year ended June 30, 2022", "year ended June 30, 2022")])
    assert (twice.doc_type, twice.fiscal_year) == (DocType.OTHER, None)
    interim = detect_document([letter, *statements(*["six months ended June 30, 2022"] * 4)])
    assert (interim.doc_type, interim.fiscal_year) == (DocType.OTHER, None)


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
    assert (meta.doc_type, meta.fiscal_year, meta.period_end) == (DocType.F20, 2023, "2023-03-31")  # a 20-F is its own type
    assert meta.company == "Toyota Motor Corporation"
    assert {"toyota motor", "toyota jidosha kabushiki kaisha"} <= _names(meta)


def test_report_date_printed_above_its_label():
    cover = make_page(
        1, "FORM 8-K", "CURRENT REPORT", "February 1, 2024", "Date of Report (Date of earliest event reported)",
        "Acme Widgets, Inc.", "(Exact name of registrant as specified in its charter)",
    )
    meta = detect_document([cover])
    assert (meta.doc_type, meta.fiscal_year, meta.company) == (DocType.CURRENT, 2024, "Acme Widgets, Inc.")


# --------------------------------------------------------------------------- non-US reports (issue 10)


def test_uk_plc_read_from_its_title_page_and_auditors_report():
    pages = [
        make_page(1, "Northwind Logistics plc", "Annual Report", "For the Year Ended 31 December 2022"),
        make_page(2, "The Group has had a strong year.", "The Company grew revenue in every region."),
        make_page(3, "Consolidated statement of financial position", "£'000  2022  2021", "Total assets  5,575  9,965"),
        make_page(4, "Independent Auditor’s Report to the members of Northwind Logistics plc",
                  "We have audited the financial statements of Northwind Logistics plc (the ‘Company’) for the year "
                  "ended 31 December 2022."),
    ]
    meta = detect_document(pages)
    assert meta.company == "Northwind Logistics plc"
    assert meta.doc_type is DocType.ANNUAL_REPORT
    assert (meta.fiscal_year, meta.period_end) == (2022, "2022-12-31")
    assert meta.currency == "GBP"
    assert meta.company_confidence and meta.company_confidence >= 0.5
    assert "Northwind Logistics plc" in (meta.company_evidence or "")


def test_australian_report_directors_report_ticker_and_former_name():
    pages = [
        make_page(1, "ANNUAL", "REPORT", "ASX:KOP"),
        make_page(2, "Corporate Directory", "The Group and the Company are listed on the ASX."),
        make_page(3, "The Directors present their report on Kestrel Gold Limited (formerly Kopore Metals Limited) "
                     "and its controlled entities for the financial year ended 30 June 2022.",
                  "The financial report is presented in Australian dollars."),
        make_page(4, "TO THE MEMBERS OF KESTREL GOLD LIMITED", "Opinion",
                  "We have audited the financial report of Kestrel Gold Ltd (the Company and its subsidiaries)."),
    ]
    meta = detect_document(pages)
    assert meta.company and meta.company.lower().startswith("kestrel gold")
    assert (meta.ticker, meta.exchange, meta.currency) == ("KOP", "ASX", "AUD")
    assert meta.doc_type is DocType.ANNUAL_REPORT
    assert (meta.fiscal_year, meta.period_end) == (2022, "2022-06-30")
    assert "kopore metals limited" in _names(meta)


@pytest.mark.parametrize("phrase", ["The Group", "the Company", "N/a", "Investment Company",
                                    "German Stock Corporation", "Co., Ltd.", "The Registrant", "Holdings Limited"])
def test_generic_phrases_name_no_one(phrase):
    assert is_generic_name(phrase)


@pytest.mark.parametrize("name", ["Starvest plc", "EPI (Holdings) Limited", "3M Company", "TransUnion", "Odyssey Gold Ltd"])
def test_real_names_are_not_generic(name):
    assert not is_generic_name(name)


def test_a_report_that_names_no_one_is_company_unknown_with_a_reason():
    pages = [
        make_page(1, "Annual Report 2022", "For the year ended 31 December 2022"),
        make_page(2, "The Company (the “Company”) and its subsidiaries (the “Group”) had a good year.",
                  "To the members of the Company", "The Group and its subsidiaries reported growth."),
    ]
    meta = detect_document(pages)
    assert meta.company is None
    assert meta.company_evidence and "no registrant" in meta.company_evidence
    assert meta.doc_type is DocType.ANNUAL_REPORT and meta.fiscal_year == 2022


def test_cover_translation_of_n_a_is_not_the_company():
    cover = make_page(
        1, "FORM 20-F", "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
        "For the fiscal year ended December 31, 2022", "Commission file number 001-36896",
        "Mercurity Fintech Holding Inc.", "(Exact name of Registrant as specified in its charter)", "N/A",
        "(Translation of Registrant’s name into English)", "Cayman Islands",
    )
    later = make_page(2, "To the Board of Directors and Shareholders of Mercurity Fintech Holding Inc. "
                         "(formerly known as JMU Limited):")
    meta = detect_document([cover, later])
    assert meta.company == "Mercurity Fintech Holding Inc."
    assert meta.doc_type is DocType.F20
    assert (meta.fiscal_year, meta.period_end) == (2022, "2022-12-31")
    assert "jmu limited" in _names(meta)


def test_glossy_report_with_the_10k_cover_inside_is_a_10k():
    pages = [
        make_page(1, "2022 annual report"),
        make_page(2, "Dear fellow shareholders,", "It was a year of growth for Bridgewater."),
        make_page(3, "UNITED STATES", "SECURITIES AND EXCHANGE COMMISSION", "FORM 10-K",
                  "For the fiscal year ended December 31, 2022", "Commission file number 001-38412",
                  "BRIDGEWATER BANCSHARES, INC.", "(Exact name of registrant as specified in its charter)"),
    ]
    meta = detect_document(pages)
    assert meta.doc_type is DocType.ANNUAL
    assert meta.company == "Bridgewater Bancshares, Inc."
    assert (meta.fiscal_year, meta.period_end) == (2022, "2022-12-31")


def test_audited_statements_alone():
    pages = [
        make_page(1, "CONSOLIDATED FINANCIAL STATEMENTS", "ODYSSEY GROUP HOLDINGS, INC.", "AND SUBSIDIARIES",
                  "AS OF DECEMBER 31, 2022 AND 2021", "FOR THE YEARS ENDED DECEMBER 31, 2022 AND 2021"),
        make_page(2, "Report of Independent Auditors", "To the Board of Directors of Odyssey Group Holdings, Inc.",
                  "We have audited the accompanying consolidated financial statements of Odyssey Group Holdings, Inc. "
                  "and its subsidiaries (the \"Company\")"),
    ]
    meta = detect_document(pages)
    assert meta.doc_type is DocType.FINANCIAL_STATEMENTS
    assert meta.company == "Odyssey Group Holdings, Inc."
    assert meta.fiscal_year == 2022


@pytest.mark.parametrize(
    "wording, year, end",
    [
        ("Consolidated statement of profit or loss for the year ended 30 June 2022", 2022, "2022-06-30"),
        ("Results for the 52 weeks ended January 29, 2022", 2022, "2022-01-29"),
        ("Results for the 52 weeks ended January 2, 2022", 2021, "2022-01-02"),  # early January: the year before
        ("Trading update: FY to 31 Mar 2022", 2022, "2022-03-31"),
        ("Report for the financial year ended 31 March 2022", 2022, "2022-03-31"),
        ("Statement of financial position as at 31 December 2022", 2022, "2022-12-31"),
    ],
)
def test_period_wordings_of_annual_reports(wording, year, end):
    meta = detect_document([make_page(1, "Annual Report", wording)])
    assert meta.doc_type is DocType.ANNUAL_REPORT
    assert (meta.fiscal_year, meta.period_end) == (year, end)


def test_a_later_year_named_as_guidance_is_not_the_period():
    meta = detect_document([make_page(
        1, "Annual Report", "for the year ended 31 December 2022", "Statement of financial position as at 31 December 2022",
        "Outlook for the year ending 31 December 2023")])
    assert meta.period_end == "2022-12-31"


def test_currency_from_unit_lines():
    def currency(*rows):
        return detect_document([make_page(1, "Annual Report 2022", *rows)]).currency

    assert currency("In thousands of US dollars", "Revenue  $ 1,200  $ 1,100") == "USD"
    assert currency("HK$'000  2022  2021", "Revenue  1,200  1,100") == "HKD"
    assert currency("The financial statements are presented in Canadian dollars.", "Revenue  $1,200") == "CAD"
    assert currency("€ million  2022  2021", "Revenue  1,200  1,100") == "EUR"
