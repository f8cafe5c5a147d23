"""A quarter's share of its fiscal year: "What percent of FY2023 buybacks occurred in Q4 of FY2023?"."""

from __future__ import annotations

from docqa.answer.figures.reading.asked import Asked
from docqa.answer.figures.reading.drafts import value_draft
from docqa.answer.figures.reading.evaluated import Evaluated, wrap
from docqa.answer.figures.reading.sources import Source
from docqa.finance import formulas as F
from docqa.finance.periods import Period
from docqa.types import Draft


def quarter_and_year(periods: list[Period]) -> tuple[Period, Period] | None:
    """The first quarter and the first whole year asked, when the quarter is of that fiscal year."""
    whole = next((p for p in periods if p.quarter is None), None)
    part = next((p for p in periods if p.quarter is not None), None)
    if whole and part and whole.fiscal_year == part.fiscal_year:
        return part, whole
    return None


def share_of_year(asked: Asked, sources: list[Source], part: Period, whole: Period, fmt: F.Format) -> Draft | None:
    """The quarter over the year, for the first measure that reads for both in currency.
    The year's total alone does not answer it."""
    for measure in asked.measures:
        a, b = measure.evaluate(sources, part), measure.evaluate(sources, whole)
        if a is not None and b is not None and b.value and a.kind == b.kind == "currency":
            value = Evaluated(f"Share of {whole.label} {measure.label.lower()} in Q{part.quarter}", a.value / b.value,
                              "percent", a.used + b.used, f"{part.label} / {whole.label}",
                              f"{wrap(a.expression)} / {wrap(b.expression)}", True, part, a.unit, titled=True)
            return value_draft(value, fmt)
    return None
