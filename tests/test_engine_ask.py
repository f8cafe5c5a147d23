"""engine.ask end to end on the bundled 10-Ks: figures, formulas, quotes, abstention, stats."""

from __future__ import annotations

import pytest

from docqa.verify import quote_on_page


def _page_text(engine, citation):
    return engine.page(citation.document, citation.page).text


def test_figure_is_read_from_the_cash_flow_statement_and_cited(lexical_engine):
    answer = lexical_engine.ask("What is Amazon's FY2017 capital expenditure in USD millions?")
    assert answer.found and answer.verification == "verified"
    assert answer.answerer == "figures"
    assert "11,955" in answer.text  # purchases of property and equipment, 2017
    citation = answer.citations[0]
    assert citation.document == "AMAZON_2017_10K.pdf"
    assert quote_on_page(citation.quote, _page_text(lexical_engine, citation))
    assert citation.boxes
    figure = answer.figures[0]
    assert figure.page == citation.page and figure.bbox and figure.period == "2017"


def test_formula_shows_its_inputs(lexical_engine):
    answer = lexical_engine.ask(
        "What is Amazon's year-over-year change in revenue from FY2016 to FY2017 "
        "(in units of percents and round to one decimal place)?")
    assert answer.found and answer.verification == "verified"
    assert "30.8%" in answer.text
    assert answer.formula and "177,866" in answer.formula and "135,987" in answer.formula
    assert any(f.computed for f in answer.figures)
    assert {f.period for f in answer.figures if not f.computed} == {"2016", "2017"}


def test_averaged_days_payable_uses_two_year_ends(lexical_engine):
    answer = lexical_engine.ask(
        "What is Amazon's FY2017 days payable outstanding (DPO)? DPO is defined as: 365 * (average accounts "
        "payable between FY2016 and FY2017) / (FY2017 COGS + change in inventory between FY2016 and FY2017). "
        "Round your answer to two decimal places.")
    assert answer.found and "93.86" in answer.text
    assert answer.verification == "verified"


@pytest.mark.parametrize("question, reason", [
    ("What was Tesla's total revenue in FY2019?", "Tesla"),
    ("What is Amazon's FY2030 capital expenditure?", "2030"),
    ("What was the total revenue in FY2017?", "names none of the"),
])
def test_not_found_says_why(lexical_engine, question, reason):
    answer = lexical_engine.ask(question)
    assert answer.found is False
    assert answer.verification == "not_found"
    assert reason in answer.reason
    assert not answer.citations


def test_text_question_quotes_the_filing(lexical_engine):
    answer = lexical_engine.ask("What are Amazon's three reportable segments?")
    assert answer.found, answer.reason
    assert any("North America" in c.quote for c in answer.citations)
    for c in answer.citations:
        assert quote_on_page(c.quote, _page_text(lexical_engine, c))


def test_page_count_and_term_count_are_exact(lexical_engine):
    answer = lexical_engine.ask("How many pages does the Netflix 2017 10-K have?")
    assert answer.answerer == "stats" and "73 pages" in answer.text
    stats = lexical_engine.stats("NETFLIX_2017_10K.pdf", "streaming")
    full = "\n".join(p.text.lower() for p in lexical_engine.store.pages(lexical_engine.document("NETFLIX_2017_10K.pdf").id))
    assert stats.count >= len(stats.pages_with_term) > 10
    assert stats.count <= full.count("streaming")


def test_bad_arguments_are_errors_not_answers(lexical_engine):
    with pytest.raises(ValueError):
        lexical_engine.ask("   ")
    with pytest.raises(ValueError, match="doc_type"):
        lexical_engine.ask("revenue", doc_type="annual")
    with pytest.raises(KeyError):
        lexical_engine.ask("revenue", document="nope.pdf")
