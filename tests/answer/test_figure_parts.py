"""The figures package's parts at their boundaries: the filings read, a cell located and quoted,
a value's arithmetic written out, a threshold and a formula's other convention as typed values."""

from __future__ import annotations

import pytest

from docqa.answer.figures.reading.evaluated import Evaluated, growth_expression, joined, units_clash
from docqa.plan.judgement import Threshold, parse_threshold
from docqa.answer.figures.reading.located import locate
from docqa.answer.figures.reading.measures import Alternative, ExprMeasure, FormulaMeasure, MetricMeasure
from docqa.answer.figures.intents.ranking import most_named
from docqa.answer.figures.reading.sources import filing_sources
from docqa.finance.lexicon import load_lexicon
from docqa.finance.periods import Period
from docqa.types import EvidencePage


@pytest.fixture(scope="module")
def amazon(lexical_engine):
    """The Amazon 10-K's sources, as the answerer reads them from one evidence page."""
    store = lexical_engine.store
    doc = next(d for d in store.documents() if d.file_name == "AMAZON_2017_10K.pdf")
    page = next(p for p in store.pages(doc.id) if p.info and p.info.statement)
    evidence = [EvidencePage(label="P1", document=doc.file_name, document_id=doc.id, page=page.number, text="",
                             year=2017)]
    return filing_sources(evidence, store)


def test_sources_are_the_evidence_filings_statement_tables(amazon):
    (source,) = amazon
    assert source.document == "AMAZON_2017_10K.pdf" and source.fiscal_year == 2017 and not source.quarterly
    assert source.tables and all(source.pages[t.page].info.statement for t in source.tables[:3])


def test_a_located_cell_is_quoted_by_the_line_that_prints_it(amazon):
    found = locate(load_lexicon().metric("revenue"), amazon, 2017)
    assert found is not None and found.period == Period(2017)
    assert round(found.value) == 177866  # "Total net sales 177,866" (in millions)
    assert "177,866" in found.quote and found.citation().quote == found.quote
    value = Evaluated.printed(found, "currency")
    assert not value.computed and value.expression == "177,866" and value.used == [found]


def test_a_measure_missing_for_a_period_is_none(amazon):
    assert MetricMeasure(load_lexicon().metric("revenue")).evaluate(amazon, Period(1990)) is None


def test_the_largest_of_the_named_items(amazon):
    draft = most_named(True, ["capex", "depreciation_amortization"], amazon, Period(2017))
    assert draft is not None and draft.text.startswith("Capital expenditures")
    assert len(draft.figures) == 2 and len(draft.citations) >= 1


def _value(v: float, expression: str, unit: str | None = "millions") -> Evaluated:
    return Evaluated("x", v, "currency", [], "x", expression, False, Period(2017), unit)


def test_growth_divides_by_the_prior_magnitude():
    assert growth_expression(_value(10, "10"), _value(-4, "-4")) == "(10 - (-4)) / 4"
    assert growth_expression(_value(12, "12"), _value(10, "4 + 6")) == "(12 - (4 + 6)) / (4 + 6)"


def test_thousands_and_millions_do_not_combine():
    assert units_clash(_value(1, "1", "millions"), _value(1, "1", "thousands"))
    assert not units_clash(_value(1, "1", "millions"), _value(1, "1", None))
    both = joined("a - b", _value(5, "5"), "-", _value(2, "2"), 3, "currency", Period(2017))
    assert both.computed and both.expression == "5 - 2" and both.formula == "x - x = 5 - 2 = 3"


@pytest.mark.parametrize("question, expected", [
    ("Was capex more than 10% of revenue in FY2017?", Threshold(True, 10.0, "%", "more than")),
    ("Did revenue stay below $5 billion?", Threshold(False, 5e9, "$", "below")),
    ("Is the current ratio at least 1.5x?", Threshold(True, 1.5, "", "at least")),
    ("Did revenue grow over 2022?", None),
])
def test_threshold_asked(question, expected):
    assert parse_threshold(question) == expected


def test_a_formulas_other_convention():
    turnover = FormulaMeasure(load_lexicon().formula("asset_turnover"))
    alternative = turnover.alternative()
    assert isinstance(alternative, Alternative) and isinstance(alternative.measure, ExprMeasure)
    assert alternative.label == "on year-end total assets"
    assert FormulaMeasure(load_lexicon().formula("asset_turnover"), year_end=True).alternative() is None
