"""Two tables one after the other on a page: the second's line of years starts a table of its own,
even when a heading word carries its footnote's mark ("Other(1)"), and the sentence that leads into
it ("... was as follows:") is its title, not a header over every column."""

from __future__ import annotations

from docqa.finance.statements import read_tables
from tests.finance.conftest import line, num, page


def _two_tables():
    # After Adobe's 2022 10-K, p. 75: property and equipment by geographic area, then goodwill by segment.
    return page(
        line(60, ("(in millions)", 20), num("2022", 470), num("2021", 540)),
        line(72, ("United States", 30), ("$", 420), num("1,690", 470), ("$", 500), num("1,480", 540)),
        line(84, ("EMEA", 30), num("69", 470), num("63", 540)),
        line(96, ("APAC", 30), num("148", 470), num("129", 540)),
        line(108, ("Property and equipment, net", 20), ("$", 420), num("1,908", 470), ("$", 500), num("1,673", 540)),
        line(140, ("Goodwill by reportable segment and activity for fiscal 2022 and 2021 was as follows:", 20)),
        line(156, ("(in millions)", 20), num("2020", 300), num("Acquisitions", 360), num("Other(1)", 410),
             num("2021", 450), num("Acquisitions", 505), num("Other(1)", 545), num("2022", 580)),
        line(168, ("Digital Media", 20), num("2,868", 300), num("865", 360), num("(2)", 410), num("3,731", 450),
             num("161", 505), num("(3)", 545), num("3,889", 580)),
        line(180, ("Digital Experience", 20), num("7,476", 300), num("1,095", 360), num("(32)", 410),
             num("8,539", 450), num("—", 505), num("(39)", 545), num("8,500", 580)),
        line(192, ("Goodwill", 20), num("10,742", 300), num("1,960", 360), num("(34)", 410), num("12,668", 450),
             num("161", 505), num("(42)", 545), num("12,787", 580)),
    )


def test_a_line_of_years_with_footnoted_headings_starts_the_next_table():
    tables = read_tables(_two_tables())
    assert len(tables) == 2
    geography, goodwill = tables
    assert [r.label for r in geography.rows][-1] == "Property and equipment, net"
    assert [c.fiscal_year for c in geography.columns] == [2022, 2021]
    assert [r.label for r in goodwill.rows] == ["Digital Media", "Digital Experience", "Goodwill"]
    # each column is headed by its own words, not by the sentence above
    assert [c.header for c in goodwill.columns][:3] == ["2020", "Acquisitions", "Other(1)"]
    assert [c.fiscal_year for c in goodwill.columns if c.fiscal_year] == [2020, 2021, 2022]
    assert "was as follows" in goodwill.title
    experience = goodwill.rows[1]
    assert experience.cells[-1].value == 8500


def test_a_name_stacked_over_one_middle_column_heads_that_column_only():
    # Amcor's 2023 10-K, note 10: "Rigid Packaging" printed over "Segment" in the middle of three columns.
    tables = read_tables(page(
        line(60, ("Rigid Packaging", 445)),
        line(72, ("($ in millions)", 20), ("Flexibles Segment", 362), ("Segment", 460), ("Total", 548)),
        line(86, ("Balance as of June 30, 2023", 20), num("4,391", 410), num("975", 490), num("5,366", 570)),
        line(98, ("Acquisitions", 20), num("98", 410), num("—", 490), num("98", 570)),
        line(110, ("Disposals", 20), num("(30)", 410), num("—", 490), num("(30)", 570)),
        line(122, ("Foreign currency translation", 20), num("16", 410), num("(3)", 490), num("13", 570)),
        line(134, ("Balance as of June 30, 2024", 20), num("4,475", 410), num("972", 490), num("5,447", 570)),
    ))
    assert [c.header for c in tables[0].columns] == ["Flexibles Segment", "Rigid Packaging Segment", "Total"]


def test_a_heading_printed_on_its_first_rows_line_heads_the_block_its_total_names():
    # Best Buy's FY2023 10-K, geographic information: "Property and equipment, net  U.S.  2,243", "Canada 107".
    (table,) = read_tables(page(
        line(60, ("($ in millions)", 20), num("2023", 470), num("2022", 540)),
        line(72, ("Revenue from external customers", 20)),
        line(84, ("U.S.", 30), num("42,794", 470), num("47,830", 540)),
        line(96, ("Canada", 30), num("3,504", 470), num("3,911", 540)),
        line(108, ("Total revenue from external customers", 20), num("46,298", 470), num("51,761", 540)),
        line(120, ("Property and equipment, net U.S.", 20), num("2,243", 470), num("2,128", 540)),
        line(132, ("Canada", 30), num("107", 470), num("120", 540)),
        line(144, ("Total property and equipment, net", 20), num("2,352", 470), num("2,250", 540)),
    ))
    canada = [r for r in table.rows if r.label == "Canada"]
    assert [r.section for r in canada] == ["Revenue from external customers", "Property and equipment, net"]
    assert any(r.label == "U.S." and r.section == "Property and equipment, net" for r in table.rows)
