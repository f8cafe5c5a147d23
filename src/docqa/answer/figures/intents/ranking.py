"""Which of the items a question names is the largest or smallest, read for one period."""

from __future__ import annotations


from docqa.answer.figures.reading.drafts import ANSWERER, citations_of
from docqa.answer.figures.reading.located import Located, locate
from docqa.answer.figures.reading.sources import Source
from docqa.finance import formulas as F
from docqa.finance.lexicon import load_lexicon
from docqa.finance.periods import Period
from docqa.types import Draft

def most_named(largest: bool, keys: list[str], sources: list[Source], period: Period) -> Draft | None:
    """"Among operating, investing and financing activities, which brought in the most cash?",
    "Which was larger in 2017, capex or D&A?": each item the question names, read for the
    period and compared as printed: a net outflow of cash is less than any inflow."""
    lexicon = load_lexicon()
    values: list[Located] = []
    for key in keys:
        found = locate(lexicon.metric(key), sources, period)
        if found is not None:
            values.append(found)  # an outflow line item (capex) by its size
    if len(values) < 2 or len(values) < len(keys) or len({v.metric.kind for v in values}) != 1:
        return None  # every item named must be read, in one kind of unit, for the comparison to hold
    values.sort(key=lambda v: v.value, reverse=largest)
    shown = [F.render(v.value, v.metric.kind, F.Format(), v.table.unit) for v in values]  # type: ignore[arg-type]
    others = "; ".join(f"{v.metric.label.lower()} {text}" for v, text in zip(values[1:], shown[1:]))
    best = values[0]
    word = "largest" if largest else "smallest"
    text = (f"{best.metric.label}: {shown[0]} in {period.label}, "
            f"the {word} of the {len(values)} (as printed: {best.cell.raw}); against {others}.")
    return Draft(text=text, found=True, citations=citations_of(values), figures=tuple(v.figure() for v in values),
                 answerer=ANSWERER)
