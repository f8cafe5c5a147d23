"""Figures a filing schedules for a later year, on Boeing's 2022 10-K (pages of its notes): the year's
cell of the table that prints debt, amortization or benefit payments by year, read off the filing
before that year; a figure for a later year that no schedule or sentence prints is not found, and
a later year asked with no word of a schedule is still a filing the index does not hold."""

from __future__ import annotations

import pytest

from docqa.engine import Engine
from tests.filings import filing, filing_pdf


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    engine = Engine.open(tmp_path_factory.mktemp("scheduled") / "idx")
    engine.ingest([filing_pdf("BOEING_2022_10K.pdf")])
    yield engine
    engine.close()


@pytest.mark.parametrize("question, figure, page", [
    # the years across a table's columns, the thing scheduled its rows
    ("How much of Boeing's debt matures in 2024?", "5,081", 94),
    ("What minimum finance lease obligations is Boeing scheduled to pay in 2025?", "41", 94),
    ("What amortization expense does Boeing estimate for 2026?", "190", 74),
    ("What pension benefit payments does Boeing expect to make in 2027?", "4,221", 103),
    # the years down a table's rows, the bucket past them "Thereafter"
    ("How much in operating lease payments does Boeing owe after 2027?", "1,039", 86),
    # what the question leaves out is no row read ("excluding ... finance lease obligations")
    ("How much debt, excluding minimum finance lease obligations, is Boeing due to repay in 2026?", "7,966", 94),
])
def test_the_years_cell_of_the_schedule_that_names_what_is_asked(engine, question, figure, page):
    answer = engine.ask(question)
    assert answer.found and answer.answerer == "scheduled", answer
    assert answer.verification == "verified", answer
    assert figure in answer.text and answer.citations[0].page == filing("BOEING_2022_10K.pdf").index(page) + 1
    assert figure in answer.citations[0].quote  # the row that prints it, quoted


def test_a_later_years_figure_no_schedule_prints_is_not_found(engine):
    answer = engine.ask("What net income does Boeing expect for 2026?")
    assert not answer.found
    assert answer.answerer != "router"  # read in the filing, not refused as a filing the index lacks


def test_a_later_year_asked_without_a_word_of_a_schedule_is_a_filing_not_held(engine):
    answer = engine.ask("What was Boeing's revenue in 2026?")
    assert not answer.found and "2026" in (answer.reason or "")


def test_after_a_year_the_table_does_not_close_on_is_no_thereafter_bucket(engine):
    # the lease table prints 2027 on its own row: "after 2026" is 2027 and the bucket, summed nowhere
    answer = engine.ask("How much in operating lease payments does Boeing owe after 2026?")
    assert not answer.found or "1,039" not in answer.text
