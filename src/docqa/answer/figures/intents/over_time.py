"""A measure over periods: its growth, CAGR, change, or average over the years asked."""

from __future__ import annotations

from docqa.answer.figures.reading.asked import Asked
from docqa.answer.figures.reading.drafts import value_draft
from docqa.answer.figures.reading.evaluated import Evaluated, growth_expression, show, wrap
from docqa.answer.figures.reading.sources import Source
from docqa.finance import formulas as F
from docqa.finance.periods import Period
from docqa.types import Draft


def over_time(asked: Asked, sources: list[Source], periods: list[Period], fmt: F.Format) -> Draft | None:
    """The first measure that reads for the periods, grown, compounded, changed or averaged over them."""
    first, last = periods[0], periods[-1]
    if asked.over_time == "multi_year_average":
        if len(periods) < 2:
            return None
        span = [Period(y, last.quarter) for y in range(first.fiscal_year, last.fiscal_year + 1)]
        for measure in asked.measures:
            values = [measure.evaluate(sources, p) for p in span]
            if all(v is not None for v in values):
                return value_draft(average(values, measure.label), fmt)  # type: ignore[arg-type]
        return None
    if len(periods) < 2:
        first = last.prior()
    for measure in asked.measures:
        a, b = measure.evaluate(sources, first), measure.evaluate(sources, last)
        if a is None or b is None:
            continue
        if asked.over_time == "change":
            if a.kind != b.kind:
                return None
            points = a.kind in ("percent", "percent_points")  # a rate's change is in percentage points
            then, now = show(a.value, a.kind, a.unit), show(b.value, b.kind, b.unit)
            change = Evaluated(
                f"Change in {measure.label.lower()} from {first.label} ({then}) to {last.label} ({now})",
                b.value - a.value, a.kind, a.used + b.used, "current - prior",
                f"{wrap(b.expression)} - {wrap(a.expression)}", True, last, a.unit or b.unit, titled=True,
                points=points)
            return value_draft(change, fmt, parts=[a, b])
        try:
            if asked.over_time == "cagr":
                if len(periods) < 2:
                    return None
                years = last.fiscal_year - first.fiscal_year
                result = F.cagr(a.value, b.value, years)
                symbolic = f"(last / first)^(1/{years}) - 1"
                expression = f"({wrap(b.expression)} / {wrap(a.expression)})^(1/{years}) - 1"
                label = f"{measure.label} CAGR {first.fiscal_year}–{last.fiscal_year}"
            else:
                result = F.growth(b.value, a.value)
                symbolic = "(current - prior) / prior"
                expression = growth_expression(b, a)
                label = f"{measure.label} growth"
        except (F.FormulaError, ZeroDivisionError):
            return None
        value = Evaluated(label, result.value, "percent", a.used + b.used, symbolic, expression, True, last,
                          a.unit or b.unit)
        return value_draft(value, fmt)
    return None


def average(values: list[Evaluated], label: str) -> Evaluated:
    """The mean of a measure's yearly values, each shown in the sum."""
    first, last = values[0], values[-1]
    mean = sum(v.value for v in values) / len(values)
    terms = " + ".join(wrap(v.expression) for v in values)
    used = [u for v in values for u in v.used]
    symbolic = f"mean of ({first.symbolic}) over {first.period.fiscal_year}–{last.period.fiscal_year}"
    return Evaluated(f"{first.period.fiscal_year}–{last.period.fiscal_year} average {label.lower()}", mean, first.kind,
                     used, symbolic, f"({terms}) / {len(values)}", True, last.period, first.unit)
