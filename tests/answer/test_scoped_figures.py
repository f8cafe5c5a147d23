"""A figure of the part of the company asked about (a segment, a region), never the company's total
in its place: the scope slot of the plan and the figures read under it, on real filings."""

from __future__ import annotations

import pytest

from docqa.types import SearchFilters


@pytest.fixture()
def engine(segment_engine):
    return segment_engine


def _scope(engine, question):
    return engine.searcher().plan(question, engine.documents(), SearchFilters()).scope


@pytest.mark.parametrize("question, scope", [
    ("What was the operating margin of the Walmart International segment in fiscal 2018?", ("International",)),
    ("What was the operating margin of the Walmart U.S. segment in fiscal 2018?", ("U.S.",)),
    ("What operating income did Walmart's Sam's Club segment earn in fiscal 2018?", ("Sam's Club",)),
    ("How much revenue did Best Buy's Domestic segment generate in fiscal 2019?", ("Domestic",)),
    ("How much net revenue did Walmart generate in Mexico in fiscal 2018?", ("Mexico",)),
])
def test_the_part_of_the_company_asked_is_read_into_the_plan(engine, question, scope):
    assert _scope(engine, question) == scope


@pytest.mark.parametrize("question", [
    "What was Walmart's operating income in fiscal 2018?",                  # the company itself
    "What was Walmart's Adjusted EBITDA in fiscal 2018?",                   # how a measure is stated
    "What was Best Buy's total revenue in FY2019, per the Income Statement?",  # a statement's name
])
def test_the_company_its_measures_and_statements_are_no_scope(engine, question):
    assert _scope(engine, question) == ()


def test_a_segment_margin_is_computed_from_the_segments_own_lines(engine):
    answer = engine.ask("What was the operating margin of the Walmart International segment in fiscal 2018?")
    assert answer.found, answer.reason
    assert "5,352" in answer.text and "118,068" in answer.text, answer.text
    assert "20,437" not in answer.text  # the company's operating income is no segment's


def test_a_segment_line_is_the_segments_never_the_company_total(engine):
    answer = engine.ask("What operating income did Walmart's Sam's Club segment earn in fiscal 2018?")
    assert answer.found, answer.reason
    assert "982" in answer.text and "20,437" not in answer.text, answer.text


def test_a_part_the_filing_prints_no_figure_for_is_not_found_rather_than_the_total(engine):
    answer = engine.ask("What was the operating margin of Walmart's Flipkart division in fiscal 2018?")
    assert not answer.found or "4.1%" not in answer.text, answer.text
    assert "20,437" not in answer.text


def test_a_line_printed_under_the_words_asked_is_read_there(engine):
    # "Excluding Fuel" heads Sam's Club's second block of lines: "excluding fuel" is that block's figure,
    # not the one "Including Fuel" heads
    answer = engine.ask("What was Walmart's Sam's Club operating income excluding fuel in fiscal 2018?")
    assert answer.found, answer.reason
    assert "864" in answer.text and "982" not in answer.text, answer.text


def test_a_row_under_a_part_heading_is_read_in_the_block_its_total_closes(engine):
    # "Appliances" under "International", closed by "Total International revenue", in an untitled table
    answer = engine.ask("How much Appliances revenue did Best Buy's International segment report in fiscal 2019?")
    assert answer.found, answer.reason
    assert "324" in answer.text and "4,020" not in answer.text, answer.text


def test_a_quarter_of_a_year_with_no_quarterly_filing_is_read_from_the_annual_reports_quarterly_note(engine):
    answer = engine.ask("What was Best Buy's operating income in the fourth quarter of fiscal 2019?")
    assert answer.found, answer.reason
    assert "978" in answer.text and "1,900" not in answer.text, answer.text


def test_of_the_filers_and_a_subsidiarys_columns_the_filers_is_read():
    from docqa.answer.figures.reading.sources import Source, the_filers_column
    from docqa.finance.tables import Column

    columns = [Column(index=0, header="PG&E Corporation 2022", fiscal_year=2022, x0=300, x1=330),
               Column(index=3, header="Utility 2022", fiscal_year=2022, x0=480, x1=510)]
    source = Source("PG_E_2022_10K.pdf", "pge", [], {}, names=("PG&E Corporation", "PG&E"))
    assert the_filers_column(columns, source).index == 0
    assert the_filers_column(columns, Source("x", "x", [], {}, names=("Utility Holdings Inc",))) is None


@pytest.fixture(scope="module")
def verizon(tmp_path_factory):
    """Verizon's 2022 10-K, the pages of its two segment sections: each prints a table titled
    "Operating Revenues and Selected Operating Statistics" under its own section heading ("Verizon
    Consumer Group" on the table's page, "Verizon Business Group" on the page before the table)."""
    from docqa.engine import Engine
    from tests.filings import filing_pdf

    engine = Engine.open(tmp_path_factory.mktemp("verizon") / "idx", dense=False)
    engine.ingest([filing_pdf("VERIZON_2022_10K.pdf")])
    yield engine
    engine.close()


def test_a_segments_table_is_read_under_its_section_heading(verizon):
    # the Business table's page prints no heading above it: "Verizon Business Group" is on the page before
    answer = verizon.ask("How many Fios video connections did Verizon's Business segment have at the end of 2022?")
    assert answer.found and "67 thousand" in answer.text, answer.text
    assert "3,234" not in answer.text
    # the Consumer segment's row is never read as the Business segment's
    consumer = verizon.ask("How many Fios video connections did Verizon's Consumer segment have at the end of 2022?")
    assert "67 thousand" not in consumer.text, consumer.text


def test_a_row_each_segment_prints_is_no_answer_for_the_whole_company(verizon):
    answer = verizon.ask("How many Fios video connections did Verizon have at the end of 2022?")
    assert "3,234 thousand" not in answer.text and "67 thousand" not in answer.text, answer.text
