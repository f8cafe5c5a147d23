"""Quotes that pull opposite ways say which segment and period each is about, read off the page:
on 3M's 2018 10-K, where the segments' "Operating income:" bullets sit a page below the segment's
name and under "Year 2018 results:" / "Year 2017 results:"."""

from __future__ import annotations

import pytest

from docqa.answer.extractive import ExtractiveAnswerer, pull_opposite_ways
from docqa.answer.quote_labels import headings, label, labelled
from docqa.verify import quoted_text, verify
from docqa.ingest.parse import parse_page
from docqa.types import Citation, EvidencePage
from tests.filings import filing_pages

DOC = "3m2018"
INDUSTRIAL_2017 = "Operating income margins decreased 1.5 percentage points"  # p. 34; "Industrial Business" is on p. 33
HEALTH_CARE_2018 = "Operating income margins decreased 0.2 percentage points"  # p. 36; its segment name on p. 35
ELECTRONICS_2018 = ("Operating income margins increased 12.6 percentage points, primarily driven by the "
                    "Communication Markets Division divestiture gain.")  # p. 37, under "Year 2018 results:"


@pytest.fixture(scope="module")
def pages() -> dict[int, str]:
    with filing_pages("3M_2018_10K.pdf") as page:
        return {n: parse_page(page(n), n, ocr=False).text for n in range(31, 39)}


def page_text(pages):
    return lambda document_id, n: pages.get(n) if document_id == DOC else None


def test_a_segment_bullet_is_labelled_with_the_segment_and_the_year_its_heading_names(pages):
    # the segment's name is on the page before; the year is the heading's, not the quote's
    assert label(INDUSTRIAL_2017, pages[34], [pages[33], pages[32]]) == "Industrial Business (2017)"
    assert label(HEALTH_CARE_2018, pages[36], [pages[35], pages[34]]) == "Health Care Business (2018)"
    assert label(ELECTRONICS_2018, pages[37], [pages[36], pages[35]]) == "Electronics and Energy Business (2018)"
    # without the earlier pages the nearest heading on the page still tells the years apart
    assert label(INDUSTRIAL_2017, pages[34]) == "Operating income (2017)"
    # the quote names two years and compares them: both, as it says
    corporate = ("Corporate and Unallocated operating expenses increased by $1.1 billion in full year 2018 when "
                 "compared to full year 2017.")
    assert label(corporate, pages[32], [pages[31]]) == "Corporate and Unallocated (2018 vs 2017)"


def test_the_answer_to_what_drove_operating_income_names_each_quotes_segment_and_year(pages):
    evidence = [EvidencePage(label=f"P{i + 1}", document="3M_2018_10K.pdf", document_id=DOC, page=n, text=pages[n],
                             company="3M Company", year=2018) for i, n in enumerate((34, 36, 37))]
    question = "What drove 3M's operating income change in 2018?"
    draft = ExtractiveAnswerer(page_text=page_text(pages)).answer_text(question, evidence)
    quotes = [c.quote for c in draft.citations]
    assert draft.found and not draft.decisive and pull_opposite_ways(quotes), draft  # margins up in one, down in another
    assert all(c.about for c in draft.citations), draft.citations
    assert len({c.about for c in draft.citations}) == len(quotes)  # no two quotes without saying which is which
    for c in draft.citations:
        assert f"{c.about}: \u201c{c.quote}\u201d (p. {c.page})" in draft.text
        assert "Business (201" in c.about, c.about  # a segment and a year, read from the filing
    # the labels change no quote and no verdict: each quote is still verbatim on its page
    answer = verify(draft, question, {(DOC, n): pages[n] for n in pages})
    assert answer.verification == "passages" and [c.quote for c in answer.citations] == quotes
    assert answer.text == draft.text and not answer.numbers_unverified


def test_quotes_under_one_heading_that_agree_are_not_labelled():
    page = ("Results of Operations\n"
            "Revenue increased 12% in 2022, driven by higher subscription volumes across all regions.\n"
            "The increase in revenue was primarily due to price changes in our premium plans.\n")
    cites = [Citation(document="a.pdf", document_id="a", page=3, quote=q) for q in page.split("\n")[1:3]]
    assert labelled(cites, lambda d, n: page if n == 3 else None) == tuple(cites)
    # quotes that pull opposite ways (`always`) are labelled even under one heading
    forced = labelled(cites, lambda d, n: page if n == 3 else None, always=True)
    assert [c.about for c in forced] == ["Results of Operations (2022)", "Results of Operations"]
    assert quoted_text(forced).startswith("Results of Operations (2022): \u201cRevenue increased 12%")


def test_headings_are_short_lines_that_head_text_not_running_headers_rows_or_wrapped_lines():
    page = "\n".join([
        "Table of Contents",                                   # a link printed atop every page
        "SEGMENT RESULTS",                                      # upper case: a section
        "Widgets Division (41.0% of sales):",                   # title case: a section, figures dropped
        "Year 2023 results:",                                   # sentence case: a lead-in
        "Sales in Widgets totaled $2.1 billion, up 4 percent, as volumes",
        "Increased in Europe",                                  # a wrapped line of that sentence
        "and prices held.",
        "·  Operating Income Rose In Asia",                     # a bullet is prose
        "Operating income (millions)  $  410  $  380",          # a table row
        "Fiscal 2023 Outlook",
        "We expect growth to continue next year in all divisions.",
        "Acme Corp Annual Report",                              # a running footer: no text below it
        "41",
    ])
    found = headings(page)
    assert [(h.text, h.section) for h in found] == [
        ("SEGMENT RESULTS", True), ("Widgets Division (41.0% of sales)", True), ("Year 2023 results", False),
        ("Fiscal 2023 Outlook", True)]
    assert label("Sales in Widgets totaled $2.1 billion", page) == "Widgets Division (2023)"
    assert label("We expect growth to continue next year", page) == "Fiscal 2023 Outlook"
    not_titles = "\n\nEach of the lines above follows a sentence's end.\n".join([
        "Emerging growth company \u2610",                           # a cover page's checkbox
        "Securities Lending Litigation. JPMorgan Chase",            # a run-in title and its paragraph's start
        "The Firm has established reserves for several of its",     # a column's wrapped line
        "330 West 34th Street",                                     # a letterhead's address: a figure in it
        "NOTE 19. Business Segments",                               # numbered: a title
        "Segment results are reported on a managed basis.",
    ])
    assert [h.text for h in headings(not_titles)] == ["NOTE 19. Business Segments"]


def test_a_page_with_its_own_heading_is_read_alone_and_many_years_name_no_period():
    earlier = "Widgets Division\nWidgets are sold worldwide to industrial customers.\n"
    continued = "Operating income:\nMargins rose 2 points on higher volumes in Europe.\n"
    assert label("Margins rose 2 points", continued, [earlier]) == "Widgets Division"  # a lead-in: the section goes on
    own = "Liquidity and Capital Resources\nMargins rose 2 points on higher volumes in Europe.\n"
    assert label("Margins rose 2 points", own, [earlier]) == "Liquidity and Capital Resources"
    assert label("Margins rose 2 points", "Margins rose 2 points on higher volumes.\n", [earlier]) is None
    notes = "Long-term Debt\nThe 2016 indenture governs notes due 2026, 2028 and 2030 issued in 2019.\n"
    assert label(notes.split("\n")[1], notes) == "Long-term Debt"


def test_an_item_title_or_a_company_name_closed_by_a_period_is_a_heading_a_sentence_is_not():
    page = "\n".join([
        "Refer to Item 7A for further discussion.",
        "Item 7A. Quantitative and Qualitative Disclosures About Market Risk.",   # 3M 2018 p. 51
        "The Company is exposed to market risk from changes in exchange rates.",
        "Activision Blizzard, Inc.",                                              # Microsoft 2023 p. 79
        "On January 18, 2022, we entered into a definitive agreement to acquire it.",
        "We sold the business to Acme Industries Inc.",                           # a sentence ending in a name
        "The sale closed in March.",
    ])
    assert [h.text for h in headings(page)] == [
        "Item 7A. Quantitative and Qualitative Disclosures About Market Risk", "Activision Blizzard, Inc"]


def test_a_british_spelling_is_the_root_of_the_heading_that_names_it():
    from docqa.answer.outline import same_root

    assert same_root("recognise", "recognition") and same_root("amortisation", "amortization")
    assert not same_root("recognise", "revenue")
