"""The extractive answerer: which lines it quotes, and when it says nothing."""

from __future__ import annotations

from docqa.answer.extractive import ExtractiveAnswerer
from docqa.types import EvidencePage

PAGE = EvidencePage(
    label="P1", document="acme.pdf", document_id="d1", page=27, company="Acme Corp", year=2022,
    text=(
        "Gross margin was 41.2% in 2022 compared with 43.0% in 2021.\n"
        "The decrease in gross margin was primarily due to higher freight costs and unfavorable product mix.\n"
        "Our stores sell hardware, garden supplies and paint across North America.\n"
    ),
)


def test_a_why_question_quotes_the_line_that_gives_the_cause():
    draft = ExtractiveAnswerer().answer("What drove the gross margin change for Acme in FY2022?", [PAGE])
    assert draft.found
    assert draft.citations[0].quote.startswith("The decrease in gross margin was primarily due to")


def test_a_what_question_quotes_the_line_that_names_it():
    draft = ExtractiveAnswerer().answer("What was Acme's gross margin in 2022?", [PAGE])
    assert draft.found and draft.citations[0].quote.startswith("Gross margin was 41.2%")


def test_lines_that_share_too_little_with_the_question_are_not_an_answer():
    draft = ExtractiveAnswerer().answer("Who audits Acme's pension plan assets?", [PAGE])
    assert not draft.found and "share too little" in draft.reason
