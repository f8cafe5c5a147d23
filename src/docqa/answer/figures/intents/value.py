"""The figure itself: a measure's value for the period asked, read or computed."""

from __future__ import annotations

from docqa.answer.figures.reading.asked import Asked
from docqa.answer.figures.reading.asked_kind import kind_answers, rate_answers
from docqa.answer.figures.reading.drafts import value_draft
from docqa.answer.figures.reading.evaluated import show
from docqa.answer.figures.reading.measures import FormulaMeasure
from docqa.answer.figures.reading.sources import Source
from docqa.finance import formulas as F
from docqa.finance.periods import Period
from docqa.types import Draft


def figure(kinds: frozenset[str], asked: Asked, sources: list[Source], target: Period, fmt: F.Format,
           convention: str | None = None) -> Draft | None:
    """The first measure that reads for the period in the kind of number asked; a formula's other
    convention is stated beside it when the question names none."""
    for measure in asked.measures:
        value = measure.evaluate(sources, target)
        if value is not None and not (kind_answers(kinds, value) and rate_answers(kinds, value)):
            continue  # a total where a per-share amount is asked, a percentage where a count is
        if value is not None:
            alternative = (measure.alternative(target) if isinstance(measure, FormulaMeasure) and convention is None
                           else None)
            if alternative is not None:
                other = alternative.measure.evaluate(sources, target)
                if other is not None and other.kind == value.kind:
                    return value_draft(value, fmt, parts=[other],
                                       also=f"{show(other.value, other.kind, other.unit, fmt)} {alternative.label}")
            return value_draft(value, fmt)
    return None
