"""Note and segment tables as filings print them: a heading's footnote mark, a part's name stacked over
one column, a column of dashes, a roll-forward set off by its lead-in sentence, blocks named by their
totals, and the sentence that ends a paragraph as the table's title. Real pages of the dev filings."""

from __future__ import annotations

from docqa.finance.statements import read_tables
from docqa.finance.table_rows import named_by_their_total
from docqa.finance.tables import Row

from .conftest import filing_page, practice_page


def _with_row(tables, label):
    return next(t for t in tables if any(r.label == label for r in t.rows))


def test_a_footnote_mark_after_a_group_heading_keeps_it_a_heading():
    # "Sales to Customers | Long-Lived Assets (6)" over "2022 2021 2020 | 2022 2021"
    table = _with_row(read_tables(filing_page("JOHNSON_JOHNSON_2022_10K.pdf", 87)), "Europe")
    assert [c.header for c in table.columns] == [
        "Sales to Customers 2022", "Sales to Customers 2021", "Sales to Customers 2020",
        "Long-Lived Assets (6) 2022", "Long-Lived Assets (6) 2021"]


def test_a_table_of_names_after_a_lead_in_sentence_is_a_table_of_its_own():
    tables = read_tables(filing_page("JOHNSON_JOHNSON_2022_10K.pdf", 59))
    goodwill = _with_row(tables, "Goodwill at January 1, 2023")
    assert [c.header for c in goodwill.columns] == ["Consumer Health", "Pharmaceutical", "MedTech", "Total"]
    assert goodwill.title.startswith("Goodwill as of January 1, 2023")
    row = next(r for r in goodwill.rows if r.label == "Goodwill at January 1, 2023")
    assert [c.raw for c in row.cells] == ["$ 9,184", "10,184", "25,863", "45,231"]
    intangibles = _with_row(tables, "Total intangible assets — net")
    assert not any(r.label.startswith("Goodwill at") for r in intangibles.rows)


def test_a_word_stacked_over_one_name_heads_that_column_only():
    # "Rigid" over "($ in millions)  Flexibles  Packaging  Total", under "Year Ended June 30, 2023"
    table = _with_row(read_tables(filing_page("AMCOR_2023_10K.pdf", 103)), "Latin America")
    assert [c.header for c in table.columns] == [
        "Year Ended June 30, 2023 Flexibles", "Year Ended June 30, 2023 Rigid Packaging", "Year Ended June 30, 2023 Total"]
    assert next(r for r in table.rows if r.label == "Latin America").section in (None, "")


def test_a_column_of_dashes_is_a_column_and_the_names_over_the_columns_head_no_rows():
    table = _with_row(read_tables(practice_page("MCDONALDS_2022_10K.pdf", 43)), "Balance at December 31, 2022")
    assert [c.header for c in table.columns] == [
        "U.S.", "International Operated Markets", "International Developmental Licensed Markets & Corporate",
        "Consolidated"]
    row = next(r for r in table.rows if r.label == "Balance at December 31, 2022")
    assert [c.raw for c in row.cells] == ["$ 1,815.2", "$ 1,085.2", "$ —", "$ 2,900.4"]
    assert not row.section
    assert "goodwill by segment" in table.title


def test_blocks_of_the_same_parts_are_named_by_their_totals():
    table = _with_row(read_tables(practice_page("MCDONALDS_2022_10K.pdf", 48)), "Total capital expenditures")
    sections = {(r.section, r.cells[0].raw) for r in table.rows if r.label == "International Operated Markets"}
    assert ("Revenues", "11,297.0") in sections
    assert ("Capital expenditures", "1,015.2") in sections


def test_one_block_over_its_total_is_no_sign_the_total_names_it():
    rows = [Row(label=label, cells=(), bbox=(0, 0, 1, 1), indent=0) for label in ("Product", "Services", "Total revenues", "Net income")]
    assert [r.section for r in named_by_their_total(rows)] == [None, None, None, None]


def test_the_sentence_ending_a_paragraph_introduces_the_table_below():
    table = _with_row(read_tables(filing_page("AMAZON_2019_10K.pdf", 68)), "Germany")
    assert table.title.startswith("Net sales attributed to countries")


def test_a_year_printed_over_each_block_heads_its_rows_and_is_no_column():
    # Costco's segment note: "2021" on a line of its own over "Total revenue  $ 141,398  $ 27,298 ..."
    tables = read_tables(filing_page("COSTCO_2021_10K.pdf", 64))
    by_year = {t.columns[0].fiscal_year: t for t in tables if any(r.label == "Total revenue" for r in t.rows)}
    assert set(by_year) == {2019, 2020, 2021}
    latest = by_year[2021]
    assert [c.header for c in latest.columns] == ["2021 United States Operations", "2021 Canadian Operations",
                                                  "2021 Other International Operations", "2021 Total"]
    row = next(r for r in latest.rows if r.label == "Operating income")
    assert [c.raw for c in row.cells] == ["4,262", "1,176", "1,270", "6,708"]
    assert not any(not r.label for r in latest.rows)
