"""A figure as a person reads it (app/figures.py) and the Markdown export: a computed margin given as a
fraction is a percentage, a printed figure keeps its unit and scale, one answer's question is said once."""

from __future__ import annotations

from docqa.app.figures import figure_value
from docqa.app.history import HistoryEntry, to_markdown
from docqa.types import Answer, Citation, Figure, QuestionRecord

MARGIN = Figure(name="Gross margin", value=0.8818, text="0.8818", computed=True, period="2022")
REVENUE = Figure(name="Revenue", value=11692713, text="$ 11,692,713", unit="USD", scale=1000, period="2017",
                 document="NETFLIX_2017_10K.pdf", page=42)


def test_a_margin_given_as_a_fraction_reads_as_a_percentage():
    assert figure_value(MARGIN) == "88.2 %"
    assert figure_value(MARGIN.model_copy(update={"text": "34.5%", "value": 34.5, "unit": "%"})) == "34.5%"
    ratio = Figure(name="Current ratio", value=1.40, text="1.40", computed=True)
    assert figure_value(ratio) == "1.40"  # a ratio is no share of a whole


def test_a_printed_figure_keeps_its_unit_and_scale():
    assert figure_value(REVENUE) == "$ 11,692,713 (USD thousands)"
    eps = Figure(name="Diluted EPS", value=1.26, text="1.26", unit="USD/share")
    assert figure_value(eps) == "1.26 (USD per share)"
    shares = Figure(name="Shares", value=431, text="431", unit="shares", scale=1e6)
    assert figure_value(shares) == "431 (shares millions)"


def test_one_answer_exported_says_its_question_once_with_units():
    answer = Answer(id="0a1b2c3d4e5f", question="What was Netflix's gross margin in 2017?", text="34.5%",
                    found=True, verification="verified", figures=(REVENUE, MARGIN),
                    citations=(Citation(document="NETFLIX_2017_10K.pdf", document_id="x", page=42, quote="Revenues"),))
    entry = HistoryEntry(record=QuestionRecord(answer=answer, created_at="2026-01-01T00:00:00+00:00"))
    md = to_markdown([entry], title=answer.question)
    assert md.count(answer.question) == 1, md
    assert "$ 11,692,713 (USD thousands)" in md and "88.2 % (computed)" in md
    thread = to_markdown([entry, entry], title=f"Conversation: {answer.question}")
    assert thread.count(f"## {answer.question}") == 2  # a conversation keeps a heading per question
