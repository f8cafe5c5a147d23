"""A line item the filer does not print as one row, read another way: summed from its printed parts
("Cost of products" + "Cost of services"), or computed by a route the lexicon declares (gross
profit = revenue - cost of sales); and a growth question whose line item only the question names.

Real pages of corpus filings (cover and statement pages cut from the PDFs, so the index builds
in seconds): Boeing's FY2022 income statement prints no cost-of-revenue line and no labelled gross
profit, Walmart's FY2020 one no gross profit, JPMorgan's Q2 2023 one both interest income and net
interest income.
"""

from __future__ import annotations

import pytest

from docqa.answer.figures.reading.measures import FormulaMeasure, MetricMeasure
from docqa.answer.figures.reading.sources import filing_sources
from docqa.answer.figures.reading.summed_parts import part_blocks
from docqa.finance.lexicon import load_lexicon
from docqa.finance.periods import Period
from docqa.finance.rowlookup import find_rows
from docqa.types import EvidencePage

from tests.filings import cut_filing

PAGES = {"BOEING_2022_10K.pdf": (1, 55), "VERIZON_2022_10K.pdf": (1, 54), "WALMART_2020_10K.pdf": (1, 51), "JPMORGAN_2023Q2_10Q.pdf": (1, 2, 3, 96)}


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    from docqa import Engine

    folder = tmp_path_factory.mktemp("route-pdfs")
    pdfs = []
    for name, pages in PAGES.items():
        pdfs.append(cut_filing(name, pages, folder / name))
    engine = Engine.open(tmp_path_factory.mktemp("route-index"), dense=False)
    engine.ingest(pdfs)
    yield engine
    engine.close()


def _sources(engine, name: str):
    store = engine.store
    doc = next(d for d in store.documents() if d.file_name == name)
    page = next(p for p in store.pages(doc.id) if p.info and p.info.statement)
    evidence = [EvidencePage(label="P1", document=name, document_id=doc.id, page=page.number, text="",
                             year=doc.meta.fiscal_year)]
    return filing_sources(evidence, store)


def test_a_cost_printed_in_parts_is_their_sum(engine):
    sources = _sources(engine, "BOEING_2022_10K.pdf")
    value = MetricMeasure(load_lexicon().metric("cost_of_revenue")).evaluate(sources, Period(2022))
    assert value is not None and value.computed and round(value.value) == 53969 + 9109
    assert [u.row.label for u in value.used] == ["Cost of products", "Cost of services"]
    assert value.formula == "cost of products + cost of services = 53,969 + 9,109 = 63,078"


def test_another_filers_split_cost_is_summed_the_same_way(engine):
    sources = _sources(engine, "VERIZON_2022_10K.pdf")
    value = MetricMeasure(load_lexicon().metric("cost_of_revenue")).evaluate(sources, Period(2022))
    assert value is not None and value.computed and len(value.used) == 2
    assert [u.row.label.split(" (")[0] for u in value.used] == ["Cost of services", "Cost of wireless equipment"]
    assert value.value == sum(u.value for u in value.used) > 0


def test_parts_stop_at_a_row_that_is_not_one(engine):
    (source,) = _sources(engine, "BOEING_2022_10K.pdf")
    blocks = part_blocks(source.tables, load_lexicon().metric("cost_of_revenue"))
    labels = [[r.label for r in rows] for _, rows in blocks]
    # "Boeing Capital interest expense" and "Total costs and expenses" are no cost of products or services.
    assert labels == [["Cost of products", "Cost of services"]]


def test_a_printed_line_is_read_as_printed_not_summed(engine):
    sources = _sources(engine, "WALMART_2020_10K.pdf")
    value = MetricMeasure(load_lexicon().metric("cost_of_revenue")).evaluate(sources, Period(2020))
    assert value is not None and not value.computed and round(value.value) == 394605
    assert not part_blocks(sources[0].tables, load_lexicon().metric("revenue"))  # no parts declared: none summed


def test_gross_margin_from_the_parts_names_the_inputs_used(engine):
    sources = _sources(engine, "BOEING_2022_10K.pdf")
    value = FormulaMeasure(load_lexicon().formula("gross_margin")).evaluate(sources, Period(2022))
    assert value is not None and round(value.value, 4) == round((66608 - 63078) / 66608, 4)
    assert value.formula == ("(revenue - (cost of products + cost of services)) / revenue = "
                             "(66,608 - (53,969 + 9,109)) / 66,608 = 5.30%")
    assert "gross profit" not in value.formula


def test_gross_profit_not_printed_is_revenue_less_cost_of_sales(engine):
    sources = _sources(engine, "WALMART_2020_10K.pdf")
    value = MetricMeasure(load_lexicon().metric("gross_profit")).evaluate(sources, Period(2020))
    # Cost of sales is matched against the net sales it is the cost of, not total revenues
    # (523,964, membership income included): Walmart's own 24.1% gross profit rate.
    assert value is not None and value.computed and round(value.value) == 519926 - 394605
    assert [u.row.label for u in value.used] == ["Net sales", "Cost of sales"]
    assert value.symbolic.startswith("net sales - cost of revenue")
    margin = FormulaMeasure(load_lexicon().formula("gross_margin")).evaluate(sources, Period(2020))
    assert margin is not None and margin.formula.endswith("(519,926 - 394,605) / 519,926 = 24.10%")


def test_yes_no_on_a_margin_read_by_another_route(engine):
    boeing = engine.ask("Does Boeing have an improving gross margin profile as of FY2022?")
    assert boeing.found and boeing.verification == "verified" and boeing.text.startswith("Yes.")
    assert "4.9%" in boeing.text and "5.3%" in boeing.text
    walmart = engine.ask("Did Walmart's gross profit margin improve in fiscal 2020 versus fiscal 2019?")
    assert walmart.found and walmart.verification == "verified" and walmart.text.startswith("No.")
    assert "24.5%" in walmart.text and "24.1%" in walmart.text
    assert {c.page for c in walmart.citations} == {2}  # the cut's income statement page


def test_growth_of_a_line_item_only_the_question_names(engine):
    answer = engine.ask("What was the year-over-year growth in JPMorgan's net interest income for the second "
                        "quarter of 2023? One decimal.")
    assert answer.found and answer.verification == "verified"
    assert "44.0%" in answer.text and "21,779" in answer.text and "15,128" in answer.text
    assert "41,644" not in answer.text  # interest income is another line


def test_a_soft_word_asked_and_printed_tells_two_rows_apart(engine):
    (source,) = _sources(engine, "JPMORGAN_2023Q2_10Q.pdf")
    best = find_rows(source.tables, "net interest income")
    assert best and best[0].row.label == "Net interest income"
    assert any(m.row.label == "Interest income" for m in best[1:])  # a match too, ranked below
