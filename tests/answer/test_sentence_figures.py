"""Figures printed only in a sentence: read when no table gives them, never the change in a figure."""

from __future__ import annotations

import fitz
import pytest

from docqa.engine import Engine

COVER = ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)\n"
         "For the fiscal year ended December 31, 2023\nExample Stores Corporation\n"
         "(Exact name of registrant as specified in its charter)")
BODY = ("Item 1. Business\nStore Development\nWe had 1,138 stores at the end of fiscal 2023 across our two segments.\n"
        "In 2021 we had 1,001 stores.\n"
        "Payments for content licensing increased $2.3 billion in 2023 as we added new titles.\n"
        "We repurchased $1.5 billion of our common stock in 2023 under the program.")


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sentences")
    pdf = fitz.open()
    for text in (COVER, BODY):
        pdf.new_page().insert_text((72, 72), text, fontsize=10)
    pdf.save(folder / "stores-10k.pdf")
    engine = Engine.open(folder / "idx")
    assert [f.status for f in engine.ingest([folder / "stores-10k.pdf"]).files] == ["indexed"]
    return engine


def test_a_count_printed_in_a_sentence_answers_a_how_many_question(engine):
    answer = engine.ask("How many stores did Example Stores operate at the end of fiscal 2023?")
    assert answer.found and answer.answerer == "sentence_figures", answer
    assert "1,138" in answer.text and answer.figures[0].value == 1138
    assert answer.verification == "verified"


def test_a_sentence_dated_in_another_year_does_not_answer(engine):
    answer = engine.ask("How many stores did Example Stores operate at the end of fiscal 2022?")
    assert answer.answerer != "sentence_figures", answer.text


def test_an_amount_a_figure_moved_by_is_not_the_figure(engine):
    answer = engine.ask("How much did Example Stores spend on payments for content licensing in 2023?")
    assert not (answer.found and answer.answerer == "sentence_figures" and "2.3" in answer.text)


def test_an_amount_a_sentence_states_is_read_with_its_scale(engine):
    answer = engine.ask("How much common stock did Example Stores repurchase in 2023, in USD?")
    if answer.answerer == "sentence_figures":
        assert answer.figures[0].value == 1.5e9
