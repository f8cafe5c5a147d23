"""verify.figures: figures read off pages must be printed there; computed ones must follow from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from docqa.types import Citation, Draft, Figure
from docqa.verify import verify
from docqa.verify.figures import supported
from tests.verify.pages import MARGIN_Q, PAGES, ROWS, cite, draft

SALES = Figure(name="Total net sales", value=177866, text="177,866", scale=1e6, unit="USD", period="2017")
COST = Figure(name="Cost of sales", value=111934, text="111,934", scale=1e6, unit="USD", period="2017")
MARGIN = Figure(name="Gross margin", value=37.07, text="37.07%", unit="%", computed=True)


def test_supported_figures_are_the_grounded_inputs_and_the_outputs_they_yield():
    d = draft("Gross margin was 37.07%.", *ROWS, figures=(SALES, COST, MARGIN))
    support = supported(d, ROWS, PAGES)
    assert support.inputs == [SALES, COST] and support.outputs == [MARGIN]
    assert support.figures(d) == (SALES, COST, MARGIN)


def test_an_output_is_not_trusted_when_one_input_is_not_printed():
    made_up = Figure(name="Total net sales", value=180000, text="180,000", scale=1e6, unit="USD")
    d = draft("Gross margin was 37.81%.", *ROWS, figures=(made_up, COST, MARGIN))
    support = supported(d, ROWS, PAGES)
    assert support.inputs == [COST] and support.outputs == [] and support.trusted == []
    assert support.figures(d) == (COST,)


def test_formula_output_is_verified_when_inputs_are_on_cited_pages():
    d = draft("Gross margin was 37.1% in FY2017.", *ROWS, formula="(177,866 - 111,934) / 177,866 = 37.07%")
    answer = verify(d, MARGIN_Q, PAGES)
    assert answer.verification == "verified" and answer.formula == d.formula


def test_formula_ratio_output_matches_percent_in_text():
    d = draft("Gross margin was 37.07%.", *ROWS, formula="gross margin = (177,866 - 111,934) / 177,866")
    assert verify(d, MARGIN_Q, PAGES).verification == "verified"


def test_formula_with_an_input_not_on_the_page():
    d = draft("Gross margin was 40.0%.", *ROWS, formula="(177,866 - 106,720) / 177,866 = 40.0%")
    assert verify(d, MARGIN_Q, PAGES).verification == "not_found"


def test_formula_whose_arithmetic_is_wrong():
    d = draft("Gross margin was 42.0%.", *ROWS, formula="(177,866 - 111,934) / 177,866 = 42.0%")
    answer = verify(d, MARGIN_Q, PAGES)
    assert answer.verification == "not_found" and "42.0%" in answer.numbers_unverified


def test_computed_figure_with_grounded_inputs():
    figures = (SALES, COST, MARGIN)
    d = draft("Gross margin was 37.07% (net sales $177.9 billion).", *ROWS, figures=figures)
    answer = verify(d, MARGIN_Q, PAGES)
    assert answer.verification == "verified" and answer.figures == figures


def test_computed_figure_with_an_ungrounded_input():
    figures = (
        Figure(name="Total net sales", value=180000, text="180,000", scale=1e6, unit="USD"),
        Figure(name="Cost of sales", value=111934, text="111,934", scale=1e6, unit="USD"),
        Figure(name="Gross margin", value=37.81, text="37.81%", unit="%", computed=True),
    )
    d = draft("Gross margin was 37.81%.", *ROWS, figures=figures)
    answer = verify(d, MARGIN_Q, PAGES)
    assert answer.verification == "not_found"
    assert "37.81%" in answer.numbers_unverified and "180,000" in answer.numbers_unverified


def test_on_a_real_page():
    fitz = pytest.importorskip("fitz")
    from docqa.ingest.parse import parse_page

    pdf = Path(__file__).resolve().parents[2] / "samples" / "AMAZON_2017_10K.pdf"
    with fitz.open(pdf) as doc:
        text = parse_page(doc[37], 38, ocr=False).text
    pages = {("amzn", 38): text}
    d = Draft(
        text="Amazon's FY2017 operating income was $4,106 million, an operating margin of 2.3%.",
        found=True,
        citations=(Citation(document="AMAZON_2017_10K.pdf", document_id="amzn", page=38,
                            quote="Operating income 2,233 4,186 4,106"),
                   Citation(document="AMAZON_2017_10K.pdf", document_id="amzn", page=38,
                            quote="Total net sales $ 107,006 $ 135,987 $ 177,866")),
        formula="4,106 / 177,866 = 2.31%",
    )
    assert verify(d, "What was Amazon's FY2017 operating margin?", pages).verification == "verified"


@pytest.mark.parametrize(
    "formula, text",
    [
        ("capex / revenue = 1,577 / 32,765 = 4.81%", "Capex was 4.81% of revenue."),
        ("365 / (cost of sales / average inventory) = 365 / (111,934 / ((11,461 + 16,047) / 2)) = 44.85 days",
         "Days inventory outstanding were 44.85 days."),
        ("operating income + D&A = 4,106 + 11,478 = 15,584", "EBITDA was $15,584 million."),
    ],
)
def test_formula_strings_as_finance_formulas_writes_them(formula, text):
    page = ("Total net sales  32,765  Purchases of property, plant and equipment  (1,577)\n"
            "Cost of sales  111,934  Inventories  11,461  16,047\n"
            "Operating income  4,106  Depreciation and amortization  11,478")
    d = draft(text, cite(page.splitlines()[0], page=1, doc="z"), cite(page.splitlines()[1], page=1, doc="z"),
              formula=formula)
    assert verify(d, "q?", {("z", 1): page}).verification == "verified"
