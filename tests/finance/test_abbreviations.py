"""Short forms and the words they stand for, read from a filing's own sentences and labels (the
sentences below are printed in Kraft Heinz's, PepsiCo's and Boeing's 10-Ks)."""

from __future__ import annotations

import pytest

from docqa.finance.abbreviations import abbreviates, definitions, is_short_form, windows_spelling


@pytest.mark.parametrize("short, long", [
    ("EMEA", "Europe, Middle East and Africa"),
    ("CWIP", "Construction work in progress"),
    ("APAC", "Asia Pacific"),
    ("PP&E", "property, plant and equipment"),
    ("PBNA", "PepsiCo Beverages North America"),
    ("AMESA", "Africa, Middle East and South Asia"),
])
def test_initials_of_every_content_word_spell_the_short_form(short, long):
    assert abbreviates(short, long)


@pytest.mark.parametrize("short, long", [
    ("EMEA", "Europe"),                        # words it does not spell
    ("BDS", "Defense, Space & Security"),      # its B stands for a word not printed here
    ("CAP", "capital expenditures"),           # letters inside words, not each word's start
    ("ODR", "Customer relationships"),
])
def test_a_short_form_never_stands_for_words_it_skips(short, long):
    assert not abbreviates(short, long)


def test_a_filing_defines_its_short_forms_in_brackets():
    text = ["We manage our business in three segments: United States, Canada, and Europe, Middle East and "
            "Africa (EMEA), and Rest of World.",
            "include Frito-Lay North America (\u201cFLNA\u201d); Quaker Foods North America (QFNA); "
            "3) PepsiCo Beverages North America (PBNA)",
            "and includes PepsiCo Beverages North America\u2019s (PBNA) contract manufacturing",
            "Our segments are Commercial Airplanes (BCA); Defense, Space & Security (BDS).",
            "the Treadway Commission (COSO) in 2013"]
    found = definitions(text)
    assert found["EMEA"] == "Europe Middle East and Africa"
    assert found["FLNA"] == "Frito-Lay North America"
    assert found["PBNA"] == "PepsiCo Beverages North America"   # the possessive is the same name
    assert "BDS" not in found and "BCA" not in found               # no word starts with B
    assert "COSO" not in found                                      # one word read for four letters


def test_a_short_form_defined_two_ways_takes_the_way_printed_most():
    assert definitions(["Asia Pacific (AP) a", "Asia Pacific (AP) b", "Accounts Payable (AP) c"]) == {"AP": "Asia Pacific"}
    assert definitions(["Asia Pacific (AP) a", "Accounts Payable (AP) c"]) == {}


def test_words_of_a_question_that_spell_a_printed_short_form():
    words = "capex Europe Middle East and Africa segment".split()
    assert (1, 6) in windows_spelling("EMEA", words)
    assert windows_spelling("BSS", "R&D BDS segment".split()) == []   # a short form asked spells nothing else


@pytest.mark.parametrize("token, short", [("EMEA", True), ("PP&E", True), ("RevPAR", True), ("Europe", False),
                                          ("A", False), ("US", True)])
def test_what_reads_as_a_short_form(token, short):
    assert is_short_form(token) is short
