"""A direction a filing states only in a sentence (the sentences are copied from the filings named)."""

from __future__ import annotations

import pytest

from docqa.answer.contract import Evidence
from docqa.answer.sentence_moves import SentenceMoveAnswerer
from docqa.plan import build_plan
from docqa.types import EvidencePage

# AMCOR_2023Q4_EARNINGS.pdf p. 5 and its outlook; JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf p. 1
AMCOR_FCF = "Adjusted Free Cash Flow for fiscal 2023 was $848 million and compares with $1,066 million last year."
AMCOR_OUTLOOK = ("Fiscal 2024 guidance: Adjusted Free Cash Flow of approximately $850 million to $950 million, "
                 "representing solid growth.")
JNJ_YEAR = ("2022 Full-Year earnings per share (EPS) of $6.73 decreasing 13.8% and adjusted EPS of $10.15 "
            "increasing by 3.6%")
JNJ_QUARTER = ("2022 Fourth-Quarter earnings per share (EPS) of $1.33 decreasing 24.9% and adjusted EPS of $2.35 "
               "increasing by 10.3%")


def _page(text: str, year: int = 2023) -> EvidencePage:
    return EvidencePage(label="P1", document="X_EARNINGS.pdf", document_id="x", page=5, text=text, year=year)


def _answer(question: str, *texts: str, year: int = 2023):
    return SentenceMoveAnswerer().answer(build_plan(question, []), Evidence.of([_page(t, year) for t in texts]))


@pytest.mark.parametrize("question, verdict", [
    ("Did Amcor's adjusted free cash flow go up in fiscal 2023 vs fiscal 2022?", "No"),
    ("Did adjusted free cash flow decline in fiscal 2023?", "Yes"),
])
def test_two_amounts_set_against_each_other_say_the_direction(question, verdict):
    draft = _answer(question, AMCOR_FCF, AMCOR_OUTLOOK)
    assert draft is not None and draft.text.startswith(verdict), draft
    assert draft.citations[0].quote == AMCOR_FCF


def test_the_verb_after_the_measure_asked_is_its_move_not_the_one_before():
    draft = _answer("J&J full year 2022 - did adjusted diluted EPS increase versus 2021?", JNJ_YEAR, year=2022)
    assert draft is not None and draft.text.startswith("Yes")
    draft = _answer("Did J&J's EPS increase in 2022?", JNJ_YEAR, year=2022)
    assert draft is not None and draft.text.startswith("No")   # "EPS of $6.73 decreasing 13.8%"


def test_a_quarter_is_no_answer_for_the_year_and_an_outlook_is_no_move():
    assert _answer("Did adjusted EPS increase in 2022?", JNJ_QUARTER, year=2022) is None
    assert _answer("Did adjusted free cash flow go up in fiscal 2024?", AMCOR_OUTLOOK, year=2024) is None


def test_another_year_is_no_answer():
    assert _answer("Did adjusted free cash flow go up in fiscal 2022?", AMCOR_FCF, year=2023) is None


# BESTBUY_2019_10K.pdf p. 33
BEST_BUY_RATE = ("Our Domestic segment experienced a decrease in gross profit rate to 23.3% in fiscal 2019 from 23.4% "
                 "in fiscal 2018.")


@pytest.mark.parametrize("question, verdict", [
    ("Did the Domestic segment's gross profit rate improve in fiscal 2019 compared with fiscal 2018?", "No"),
    ("Did the Domestic segment's gross profit rate decline in fiscal 2019?", "Yes"),
])
def test_a_move_named_before_the_measure_says_its_direction(question, verdict):
    # "a decrease in gross profit rate": the noun of moving stands before what moved, and the
    # segment's name opens the sentence
    draft = _answer(question, BEST_BUY_RATE, year=2019)
    assert draft is not None and draft.text.startswith(verdict), draft


def test_a_move_named_before_another_measure_is_not_its_move():
    text = "Our Domestic segment experienced a decrease in SG&A while gross profit rate was flat at 23.4%."
    assert _answer("Did the Domestic segment's gross profit rate decline in fiscal 2019?", text, year=2019) is None


def test_a_sentence_names_the_year_as_the_filer_does():
    from docqa.types import DocType, Document, DocumentMeta

    # ULTABEAUTY_2023Q4_EARNINGS.pdf p. 2: the release of the quarter ended January 28, 2023 (held as
    # fiscal 2023) says "fiscal 2021" of the year-ago quarter, as Ulta names its years
    ulta = Document(id="x", file_name="X_EARNINGS.pdf", path="", sha256="x", pages=1, meta=DocumentMeta(
        company="Ulta Beauty, Inc.", aliases=("Ulta Beauty", "Ulta"), fiscal_year=2023, fiscal_quarter=4,
        doc_type=DocType.EARNINGS, period_end="2023-01-28", named_year=2022))
    text = "The tax rate increased to 24.6% compared to 22.9% in the fourth quarter of fiscal 2021."
    plan = build_plan("Did Ulta's tax rate go down in the fourth quarter of fiscal 2022 compared with the fourth "
                      "quarter of fiscal 2021?", [ulta])
    draft = SentenceMoveAnswerer().answer(plan, Evidence.of([_page(text, 2023)]))
    assert draft is not None and draft.text.startswith("No.")
