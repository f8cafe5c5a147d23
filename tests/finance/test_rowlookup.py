"""Row lookup over table fixtures (JSON dumped from real filings' stored tables): no PDFs."""

import json
from pathlib import Path

import pytest

from docqa.finance.rowlookup import entity_column, find_rows, score_row
from docqa.finance.tables import StatementTable

FIXTURES = Path(__file__).with_name("fixtures")


def tables(name: str) -> list[StatementTable]:
    data = json.loads((FIXTURES / f"{name}.json").read_text())
    return [StatementTable.model_validate(t) for t in data["tables"]]


def best(name: str, phrase: str):
    found = find_rows(tables(name), phrase)
    return found[0] if found else None


def test_a_line_item_outside_the_lexicon_is_found_by_its_label():
    match = best("pfizer_balance_sheet", "treasury stock")
    assert match is not None and match.row.label.startswith("Treasury stock")
    assert match.row.cells[0].raw == "(111,361)"


def test_short_term_means_the_current_section():
    match = best("microsoft_balance_sheet", "short-term unearned revenue")
    assert match is not None and match.row.label.lower().startswith("short-term unearned revenue") or (
        match.row.section and "current" in match.row.section.lower())
    assert match.row.cells[0].raw.replace(",", "").lstrip("$ ").startswith("50901")


def test_goodwill_beats_a_longer_label():
    match = best("microsoft_balance_sheet", "goodwill")
    assert match is not None and match.row.label.lower() == "goodwill"


def test_weak_matches_stay_not_found():
    assert best("microsoft_balance_sheet", "number of patents granted") is None
    assert best("pfizer_balance_sheet", "marketing expense") is None


def test_a_segment_named_in_a_column_header():
    segs = tables("activision_segments")
    match = find_rows(segs, "King segment net revenues")[0]
    assert match.row.label == "Segment net revenues"
    columns = [c for c in match.table.period_columns() if c.fiscal_year == 2019]
    column = entity_column("King segment net revenues", match.row, match.table, columns)
    assert column is not None and "King" in column.header
    assert match.row.cell(column.index).raw == "$ 2,031"


def test_counts_rows_found_under_their_heading():
    rows = find_rows(tables("walmart_five_year_summary"), "Sams Club units")
    assert any(r.row.section and "unit" in r.row.section.lower() and r.row.cells[0].raw == "599" for r in rows)


@pytest.mark.parametrize("phrase", ["", "the total"])
def test_no_words_no_match(phrase):
    t = tables("pfizer_balance_sheet")[0]
    assert all(score_row(phrase, r, t) == 0 for r in t.rows)


def test_other_x_is_what_is_left_of_x_not_x():
    # AES 2021, revenue by type: "Other regulated revenue" and "Total regulated revenue" both print
    # every word of "regulated revenue"; the residual line is not the one asked
    match = best("aes_regulated_revenue", "regulated revenue")
    assert match is not None and match.row.label == "Total regulated revenue"
    assert match.row.cells[0].raw == "2,868"


def test_a_segments_rows_are_told_apart_by_the_measure_heading_them():
    # Microsoft FY2022: "Intelligent Cloud" is printed under "Revenue" and again under "Operating Income"
    match = best("microsoft_segments_2022", "intelligent cloud segment operating income")
    assert match is not None and match.row.section == "Operating Income" and match.row.cells[0].raw == "32,721"
    match = best("microsoft_segments_2022", "intelligent cloud revenue")
    assert match is not None and match.row.section == "Revenue" and match.row.cells[0].raw == "75,251"


def test_a_block_whose_total_narrows_the_measure_holds_a_part_of_it():
    # Adobe FY2022 p. 41: "Digital Media" closes to "Total subscription revenue" in one table and to
    # "Total revenue" in the next; its revenue is the second's, its subscription revenue the first's
    match = best("adobe_segment_revenue_2022", "digital media revenue")
    assert match is not None and match.row.cells[0].raw == "$ 12,842"
    match = best("adobe_segment_revenue_2022", "digital media subscription revenue")
    assert match is not None and match.row.cells[0].raw == "$ 12,385"


def test_a_bare_total_under_a_heading_is_the_headings_total():
    # CVS 2018 p. 272: "Pharmacy claims processed:" heads a block whose first row is a bare "Total"
    match = best("cvs_pharmacy_services_2018", "pharmacy claims")
    assert match is not None and match.row.label == "Total" and match.row.cells[0].raw == "1,889.8"


def test_a_label_that_leaves_out_the_noun_asked_is_that_row():
    # McDonald's 2022 p. 14: "Developmental licensed" under "Ownership type" in the franchised sales table,
    # asked as "franchised sales from developmental licensed restaurants"
    match = best("mcdonalds_franchised_sales_2022", "franchised sales developmental licensed restaurants")
    assert match is not None and match.row.label == "Developmental licensed"
    # only the last noun may go unprinted, and only when the label is the words right before it
    assert best("mcdonalds_franchised_sales_2022", "franchised restaurants") is None
    assert best("mcdonalds_franchised_sales_2022", "franchised sales licensed developmental restaurants") is None


def test_a_column_right_of_a_change_that_repeats_a_year_is_no_period_column():
    # "Amount 2022 | ... | Increase/(decrease) 2022 | ... | Excluding currency translation 2022"
    table = tables("mcdonalds_franchised_sales_2022")[0]
    assert [c.header for c in table.period_columns()] == ["Amount 2022", "Amount 2021", "Amount 2020"]
    assert table.column_for(2022).header == "Amount 2022"


def test_a_roll_forwards_opening_line_is_not_the_years_balance_whichever_words_match():
    # Walmart FY2018, p. 81: "Unrecognized tax benefits, beginning of year 1,050" above "..., end of year 1,010";
    # the label's head alone ("Unrecognized tax benefits") matches both
    match = best("walmart_2018_unrecognized_tax", "unrecognized tax benefits")
    assert match is not None and match.row.label.endswith("end of year")
    opening = best("walmart_2018_unrecognized_tax", "unrecognized tax benefits at the beginning of the year")
    assert opening is not None and "beginning" in opening.row.label
