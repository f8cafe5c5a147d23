"""One member's figure of a breakdown, where the filing prints the measure apart from the member: a
heading row over the regions ("Capital expenditures:" over "EMEA"), segments as columns of a row, a
"Foreign" row under "Deferred", a lead-in sentence over "United States / International". The member
is found in the filing's own spelling, the measure by the label the filing gives the company's line
(on real filings: Kraft Heinz 2019, Corning 2020, Nike fiscal 2021, Netflix 2017, Lockheed Martin 2021)."""

from __future__ import annotations

import pytest

from tests.filings import filing_pdf


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    from docqa.engine import Engine

    engine = Engine.open(tmp_path_factory.mktemp("breakdown") / "idx")
    engine.ingest([filing_pdf(name) for name in ("KRAFTHEINZ_2019_10K.pdf", "CORNING_2020_10K.pdf",
                                                 "NIKE_2021_10K.pdf", "NETFLIX_2017_10K.pdf",
                                                 "LOCKHEEDMARTIN_2021_10K.pdf")])
    yield engine
    engine.close()


@pytest.mark.parametrize("question, printed, not_printed", [
    # a heading row over the regions; the region asked by the words the short form stands for
    ("What were Kraft Heinz's capital expenditures in its Europe, Middle East and Africa segment in fiscal 2019?",
     "134", ("768", "2,551")),
    # "capex" is the cash-flow statement's line, which the segment note heads with its own label
    ("How much did Nike spend on capex in its Greater China segment in fiscal 2021?", "94", ("695", "791", "8,290")),
    # segments as columns; "R&D" is the line the income statement labels "Research, development and engineering"
    ("What was Corning's Optical Communications segment R&D in 2020?", "204", ("1,154", "754", "99")),
])
def test_a_members_figure_is_read_under_the_measures_printed_label(engine, question, printed, not_printed):
    answer = engine.ask(question)
    assert answer.found, answer.reason
    assert f"${printed} million" in answer.text, answer.text
    assert not any(f"${x} million" in answer.text for x in not_printed), answer.text


def test_the_rest_of_the_world_is_the_foreign_row_never_the_home_countrys(engine):
    # "Foreign" is printed under "Current" and again under "Deferred": the measure decides which
    answer = engine.ask("What deferred income tax expense did Nike record for jurisdictions outside the United "
                        "States in fiscal 2021?")
    assert answer.found, answer.reason
    assert "$20 million" in answer.text, answer.text


def test_a_lead_in_sentence_names_the_measure_of_the_rows_below(engine):
    answer = engine.ask("What were Netflix's long-lived tangible assets located outside the United States as of "
                        "December 31, 2017?")
    assert answer.found, answer.reason
    assert "29,529" in answer.text and "289,875" not in answer.text, answer.text


def test_a_member_the_filing_breaks_no_such_figure_out_for_is_not_the_total(engine):
    # Kraft Heinz prints capital expenditures by segment, but no segment called "Latin America"
    answer = engine.ask("What were Kraft Heinz's capital expenditures in its Latin America segment in fiscal 2019?")
    assert "768" not in answer.text and "134" not in answer.text, answer.text


def test_two_names_a_segments_column_and_a_regions_row_are_both_honoured(engine):
    # "Net sales by geographic region": regions as rows, segments as columns printed as "RMS"
    answer = engine.ask("How much of Lockheed Martin's Rotary and Mission Systems net sales in 2021 came from the Asia "
                        "Pacific region?")
    assert answer.found, answer.reason
    assert "$2,178 million" in answer.text, answer.text
    assert not any(x in answer.text for x in ("3,644", "6,108", "67,044")), answer.text


def test_a_name_the_filing_gives_a_short_form_is_one_name_however_it_is_listed(engine):
    # "Rotary and Mission Systems (RMS)" in Lockheed Martin's text: one segment, not two parts of a question
    searcher = engine.searcher()
    assert searcher.prints_label("Rotary and Mission Systems")
    assert searcher.prints_label("Rotary, and the Mission Systems")   # commas and articles aside
    assert not searcher.prints_label("net sales and operating income")
    assert not searcher.prints_label("revenue and operating income")   # "(GAAP)" after it would be no name of it


def test_a_qualifier_no_table_prints_is_not_dropped_for_the_parts_total(engine):
    # "digital" revenue of Greater China: the cut prints only the segment's total revenue (8,290)
    answer = engine.ask("What was Nike's Greater China digital revenue in fiscal 2021?")
    assert "8,290" not in answer.text, answer.text
