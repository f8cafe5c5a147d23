"""Text answers quote whole sentences, and quotes that only relate to the question are "passages",
not "verified": on 3M's 2018 10-K, where "what drove operating income" finds segment bullets that
pull opposite ways."""

from __future__ import annotations

from docqa.answer.extractive import decides, units
from docqa.ingest.parse import parse_page
from docqa.types import EvidencePage
from tests.filings import filing_pages, filing_pdf

QUESTION = "What drove 3M's operating income change in 2018?"


def evidence(pages: list[int]) -> list[EvidencePage]:
    with filing_pages("3M_2018_10K.pdf") as page:
        return [EvidencePage(label=f"P{i + 1}", document="3M_2018_10K.pdf", document_id="3m2018", page=n,
                             text=parse_page(page(n), n, ocr=False).text, company="3M Company", year=2018)
                for i, n in enumerate(pages)]


def test_a_bullet_with_figures_is_a_sentence_not_a_table_row_cut_at_the_line_end():
    quoted = units(evidence([37])[0])
    whole = [u for u in quoted if u.startswith("Operating income margins increased 1.8 percentage points")]
    assert whole and whole[0].endswith("year-on-year divestiture impacts."), whole


def test_segment_bullets_that_pull_opposite_ways_are_passages_not_an_answer(tmp_path):
    from docqa.config import Settings
    from docqa.engine import Engine

    with Engine.open(Settings(index=tmp_path / "index", dense=False, quote_by_meaning=False)) as engine:
        engine.ingest([filing_pdf("3M_2018_10K.pdf")])  # its cut: MD&A, statements, notes
        answer = engine.ask(QUESTION)
    assert answer.found and answer.verification == "passages", answer  # every quote is on its page; none decides
    assert all(c.quote.rstrip().endswith((".", ";", ":")) for c in answer.citations)  # whole sentences


def test_a_quote_that_holds_the_question_decides_it():
    assert decides(False, ["Our dividend policy is to pay quarterly."], 0.9, 0.0)
    assert not decides(False, ["Dividends were paid."], 0.3, 0.2)
    assert not decides(True, ["Margins fell 2 points in 2018."], 0.9, 0.0)  # a "why" and no cause given
    assert not decides(False, ["Margins increased in A.", "Margins decreased in B."], 0.9, 0.0)
