"""What a question asks to compute, as candidate measures in order of preference (built from the
plan's reading of its measures: plan/measures.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from docqa.answer.figures.reading.evaluated import Measure
from docqa.answer.figures.reading.measures import Combined, FormulaMeasure, MetricMeasure
from docqa.finance import formulas as F
from docqa.finance.lexicon import MetricMatch, load_lexicon
from docqa.plan.measures import MeasureReading


@dataclass
class Asked:
    """The measures a question asks for, and what it asks of them over periods."""

    measures: list[Measure] = field(default_factory=list)   # candidates, best first
    over_time: str | None = None                             # growth | cagr | multi_year_average | change


def asked_measures(reading: MeasureReading) -> Asked:
    """What the question asks to compute, as candidate measures in order of preference."""
    lexicon = load_lexicon()
    asked = list(reading.asked)
    by_position = sorted(asked, key=lambda m: (m.span[0], -(m.span[1] - m.span[0])))
    out = Asked(over_time=reading.over_time)

    def single(m: MetricMatch) -> Measure | None:
        if m.kind == "metric":
            return None if m.span in reading.qualified else MetricMeasure(lexicon.metric(m.key), m.text)
        if m.key in F.SUBJECT_FORMULAS:
            return None
        return FormulaMeasure(lexicon.formula(m.key))

    combined: list[tuple[int, int]] = []
    # 1. Two things joined by an operator in the question's words: "EBITDA less capex".
    for joined in reading.joined:
        a, b = joined.left, joined.right
        left, right = single(a), single(b)
        if left is not None and right is not None:
            out.measures.append(Combined(joined.label[:1].upper() + joined.label[1:], left, joined.op, right))
            combined.append((a.span[0], b.span[1]))
    # 2. A share of revenue ("net earnings as a percent of sales", "COGS % margin").
    share = next((m for m in by_position if m.kind == "formula" and m.key == "margin"), None)
    if share is not None:
        subjects = [m for m in by_position if m.kind == "metric" and m.key != "revenue"]
        before = [m for m in subjects if m.span[1] <= share.span[0]]
        subject = (before[-1] if before else subjects[0]) if subjects else None
        if subject is not None:
            part = MetricMeasure(lexicon.metric(subject.key))
            out.measures.append(Combined(f"{part.label} as a % of revenue", part, "%",
                                         MetricMeasure(lexicon.metric("revenue"))))
            combined.append((min(subject.span[0], share.span[0]), max(subject.span[1], share.span[1])))
    # 3. Named formulas, then line items, as the lexicon ranks them (longest mention first). A
    # part of a combination asked for is not an answer to it: "EBITDA less capex" is not capex.
    def inside(m: MetricMatch) -> bool:
        return any(a <= m.span[0] and m.span[1] <= b for a, b in combined)

    for m in asked:
        if m.kind == "formula" and m.key not in F.SUBJECT_FORMULAS and not inside(m):
            out.measures.append(FormulaMeasure(lexicon.formula(m.key)))
    for m in asked:
        if m.kind == "metric" and not inside(m) and m.span not in reading.qualified:
            out.measures.append(MetricMeasure(lexicon.metric(m.key), m.text))
    return out
