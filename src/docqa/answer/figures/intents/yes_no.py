"""Yes/no about a measure: its direction, sign, level, stability, a threshold, another measure, or what it marks."""

from __future__ import annotations

import re
from dataclasses import replace

from docqa.answer.figures.reading.asked import Asked, asked_measures
from docqa.answer.figures.reading.composition import compose_measures
from docqa.answer.figures.reading.drafts import judged_draft
from docqa.answer.figures.reading.evaluated import Evaluated, Measure, growth_expression, show, wrap
from docqa.answer.figures.reading.measures import Combined, FormulaMeasure, MetricMeasure
from docqa.answer.figures.reading.scoped import scoped_kinds, scoped_measures
from docqa.answer.figures.reading.sources import Source
from docqa.plan import QuestionPlan, build_plan
from docqa.plan.composition import without_period
from docqa.plan.line_text import leaf_text
from docqa.plan.scope import scope_asked
from docqa.finance import formulas as F
from docqa.finance.lexicon import load_lexicon
from docqa.finance.periods import Period
from docqa.types import Draft

# Ratio levels analysts read as healthy: a liquidity ratio of 1 covers current liabilities.
HEALTHY_FLOOR = {"current_ratio": 1.0, "quick_ratio": 1.0}
# Capital intensity: capex of a tenth of revenue or more (telecoms, utilities, manufacturing),
# or two dollars of assets or more per dollar of revenue (Investopedia's capital intensity ratio).
CAPITAL_INTENSIVE = {"capex_to_revenue": 0.10, "assets_to_revenue": 2.0}
# In words: figures an answer states must be printed on the cited pages, and these are not.
CAPITAL_INTENSIVE_WORDS = {"capex_to_revenue": "the tenth of revenue that marks a capital-intensive business",
                           "assets_to_revenue": "the two dollars of assets per dollar of revenue that marks one"}
HIGH_GROWTH = 0.15           # revenue growth a year that reads as a high-growth company
HIGH_GROWTH_WORDS = "the fifteen percent a year that marks a high-growth company"



def yes_no(judged: str, plan: QuestionPlan, asked: Asked, sources: list[Source], periods: list[Period],
           company_words: frozenset[str] = frozenset()) -> Draft | None:
    """The verdict ``judged`` (see judgement()) on the first measure asked that reads for the periods."""
    lexicon = load_lexicon()
    last = periods[-1]
    if judged == "capital_intensive":
        return _capital_intensive(sources, last)
    if judged == "high_growth":
        # A high-growth company is one whose sales grow fast, whatever else the question names.
        return _high_growth(MetricMeasure(lexicon.metric("revenue")), sources, last)
    if judged == "compare":
        sides = plan.sides
        assert sides is not None
        if side_measures(sides.right, company_words):
            # Another measure is the other side: both are read, or there is no answer (the
            # direction of one of them is not what was asked).
            return _compare(plan, sources, last, company_words)
        # "Was revenue higher than the year before?": one measure, against itself over time.
        judged = "up" if sides.above else "down"
    for measure in asked.measures:
        draft = _judge(judged, plan, measure, sources, periods)
        if draft is not None:
            return draft
    return None


def _judge(judged: str, plan: QuestionPlan, measure: Measure, sources: list[Source], periods: list[Period]) -> Draft | None:
    last = periods[-1]
    if judged == "stable":
        return _stable(plan, measure, sources, periods)
    if judged == "threshold":
        return _threshold(plan, measure, sources, periods)
    now = measure.evaluate(sources, last)
    if now is None and judged == "exists" and last.quarter:
        # A quarter the filing does not break out: the fiscal year that holds it.
        last = Period(last.fiscal_year)
        now = measure.evaluate(sources, last)
    if now is None:
        return None
    label = measure.label
    shown = show(now.value, now.kind, now.unit)
    printed = "" if now.computed else f" (as printed: {now.used[0].cell.raw})"
    if judged == "exists":
        if plan.tied:
            return None  # the year's total does not say what one program or level saw
        answer = abs(now.value) > 0
        text = f"{'Yes' if answer else 'No'}. {label} for {last.label}: {shown}{printed}."
        return judged_draft([now], text)
    if judged == "healthy":
        key = measure.formula.key if isinstance(measure, FormulaMeasure) else ""
        floor = HEALTHY_FLOOR.get(key)
        if floor is None:
            return None
        answer = now.value >= floor
        text = (f"{'Yes' if answer else 'No'}. {label} for {last.label} was {shown}, "
                f"{'at or above' if answer else 'below'} {floor:g}, the level usually read as healthy.")
        return judged_draft([now], text)
    if judged in ("positive", "negative"):
        answer = (now.value > 0) == (judged == "positive")
        text = f"{'Yes' if answer else 'No'}. {label} for {last.label} was {shown}{printed}."
        return judged_draft([now], text)
    first = periods[0] if len(periods) >= 2 else last.prior()
    before = measure.evaluate(sources, first)
    if before is None:
        return None
    if plan.loss_named and now.value <= 0 and before.value <= 0:
        # "Did the net loss shrink?": a loss is the income line's amount below zero; it shrinks as
        # the income line rises. Judge and show the loss itself.
        label = re.sub(r"\b(?:income|earnings|profit)\b", "loss", label, count=1, flags=re.I)
        now, before = _negated(now), _negated(before)
        shown = show(now.value, now.kind, now.unit)
    rose = now.value > before.value
    answer = rose if judged == "up" else not rose
    verb = "rose" if rose else ("fell" if now.value < before.value else "was unchanged")
    then = show(before.value, before.kind, before.unit)
    if then == shown and now.value != before.value:  # one more decimal, so the move shows
        fine = F.Format(decimals=2 if now.kind == "percent" else 4)
        then, shown = (show(before.value, before.kind, before.unit, fine), show(now.value, now.kind, now.unit, fine))
    text = (f"{'Yes' if answer else 'No'}. {label} {verb} from {then} "
            f"in {first.label} to {shown} in {last.label}.")
    return judged_draft([before, now], text)


def _negated(value):
    return replace(value, value=-value.value)


def side_measures(words: str, company_words: frozenset[str]) -> list[Measure]:
    """What one side of a comparison names, read as a figure question reads it: a line item the
    lexicon knows, or the printed row its words name ("its Digital Experience segment revenue")."""
    # the side's own words, planned as the figure question they ask ("what was PBNA's net revenue")
    side = replace(build_plan(f"What was {without_period(words)}?", []), composition=None)
    asked = asked_measures(side.reading)
    subject = leaf_text(side.line_clause or side.main_clause, company_words)
    compose_measures(side, asked, company_words, subject)
    scope = scope_asked(side.asked, side.measures, company_words)
    if scope and asked.measures:
        # "PBNA's net revenue" against "Frito-Lay North America's": each side's part of the company
        return scoped_measures(asked.measures, scope, subject, scoped_kinds(side), company_words)
    return asked.measures


def _compare(plan: QuestionPlan, sources: list[Source], period: Period, company_words: frozenset[str]) -> Draft | None:
    """"Was cash from operations larger than net income?": each side's measure for the period,
    compared in the same units. None when a side names no measure, or they are not alike."""
    sides = plan.sides
    if sides is None:
        return None
    left = side_measures(sides.left, company_words)
    right = side_measures(sides.right, company_words)
    if not left or not right:
        return None
    a = next((v for m in left if (v := m.evaluate(sources, period)) is not None), None)
    b = next((v for m in right if (v := m.evaluate(sources, period)) is not None), None)
    if a is None or b is None or a.kind != b.kind or a.label == b.label:
        return None
    x, y = _in_units(a), _in_units(b)
    answer = x > y if sides.above else x < y
    relation = "larger than" if x > y else "smaller than" if x < y else "equal to"
    text = (f"{'Yes' if answer else 'No'}. {a.label} for {period.label} ({show(a.value, a.kind, a.unit)}) was "
            f"{relation} {_in_sentence(b.label)} ({show(b.value, b.kind, b.unit)}).")
    return judged_draft([a, b], text)


def _in_sentence(label: str) -> str:
    """A label inside a sentence: "net income", but "FLNA" and "U.S. revenue" as printed."""
    words = label.split()
    named = len(words) > 1 and words[1][:1].isupper()   # "Digital Experience (revenue)": a name
    return label if named or label[1:2].isupper() or label[1:2] in (".", "&") else label[:1].lower() + label[1:]


def _in_units(value: Evaluated) -> float:
    """An amount in currency units (its table's scale applied), so two tables' figures compare."""
    if value.kind != "currency" or not value.used:
        return value.value
    return value.value * (value.used[0].table.scale or 1.0)


def _threshold(plan: QuestionPlan, measure: Measure, sources: list[Source], periods: list[Period]) -> Draft | None:
    """"Was capex more than 10% of revenue?", "Did revenue exceed $50 billion?", "Did sales grow
    by more than 5%?": the measure against the level the question names."""
    threshold = plan.threshold
    if threshold is None:
        return None
    above, level, unit = threshold.above, threshold.level, threshold.unit
    last = periods[-1]
    now = measure.evaluate(sources, last)
    if now is None:
        return None
    values = [now]
    if unit == "%":
        if now.kind == "percent":
            value = now.value * 100
        elif now.kind == "percent_points":
            value = now.value
        elif now.kind == "currency" and plan.moves is not None:
            first = periods[0] if len(periods) >= 2 else last.prior()
            before = measure.evaluate(sources, first)
            if before is None or before.value == 0:
                return None
            rate = (now.value - before.value) / abs(before.value)
            values = [before, now, Evaluated(f"{measure.label} growth", rate, "percent", [], "(current - prior) / prior",
                                             growth_expression(now, before),
                                             True, last)]
            value = rate * 100
        else:
            return None
    elif unit == "$":
        if now.kind != "currency" or threshold.noun:
            return None  # "more than 15 million shares": a count of the noun, not an amount of money
        scale = now.used[0].table.scale or 1.0 if now.used else 1.0
        value = now.value * scale
    else:
        if now.kind not in ("ratio", "times", "days", "per_share", "shares"):
            return None
        value = now.value
    answer = value > level if above else value < level
    if threshold.words.startswith("at least"):
        answer = value >= level
    shown = (f"{value:.1f}%" if unit == "%" else show(now.value, now.kind, now.unit))
    subject = values[-1].label if len(values) == 3 else measure.label
    text = (f"{'Yes' if answer else 'No'}. {subject} for {last.label} was {shown}, "
            f"{'above' if value > level else 'below' if value < level else 'equal to'} the level asked about.")
    return judged_draft(values, text)


def _stable(plan: QuestionPlan, measure: Measure, sources: list[Source], periods: list[Period]) -> Draft | None:
    """"Historically consistent (not fluctuating more than roughly 2% each year)": every
    year-over-year move within the band, over the years the filing reports."""
    last = periods[-1]
    values: list[Evaluated] = []
    for back in range(0, 5):
        p = Period(last.fiscal_year - back, last.quarter)
        v = measure.evaluate(sources, p)
        if v is None:
            break
        values.insert(0, v)
    if len(values) < 3 and not (len(values) == 2 and len(periods) >= 2):
        return None
    band = plan.band
    points = values[0].kind in ("percent", "percent_points")
    moves: list[tuple[float, str]] = []
    for a, b in zip(values, values[1:]):
        if values[0].kind == "percent":   # a share: the move in percentage points
            moves.append((abs(b.value - a.value) * 100, f"({wrap(b.expression)} - {wrap(a.expression)}) x 100"))
        elif values[0].kind == "percent_points":
            moves.append((abs(b.value - a.value), f"{wrap(b.expression)} - {wrap(a.expression)}"))
        elif a.value:
            moves.append((abs(b.value - a.value) / abs(a.value) * 100,
                          f"{growth_expression(b, a)} x 100"))
    if not moves:
        return None
    largest, arithmetic = max(moves, key=lambda m: m[0])
    answer = largest <= band
    unit = "percentage points" if points else "%"
    series = ", ".join(f"{show(v.value, v.kind, v.unit)} in {v.period.label}" for v in values)
    text = (f"{'Yes' if answer else 'No'}. {measure.label} was {series}: the largest year-over-year move "
            f"is {largest:.1f} {unit}, {'within' if answer else 'more than'} {band:g} {unit}.")
    move = Evaluated("largest year-over-year move", largest, "ratio", [], "largest year-over-year move",
                     arithmetic, True, periods[-1])
    return judged_draft(values + [move], text)


def _capital_intensive(sources: list[Source], period: Period) -> Draft | None:
    """Capital intensity as analysts read it: capex / revenue, and total assets / revenue
    (the assets it takes to earn a dollar of sales)."""
    lexicon = load_lexicon()
    capex = FormulaMeasure(lexicon.formula("capex_to_revenue")).evaluate(sources, period)
    assets = Combined("Total assets / revenue", MetricMeasure(lexicon.metric("total_assets")), "/",
                      MetricMeasure(lexicon.metric("revenue"))).evaluate(sources, period)
    if capex is None and assets is None:
        return None
    signs = []
    shown = []
    if capex is not None:
        signs.append(capex.value >= CAPITAL_INTENSIVE["capex_to_revenue"])
        shown.append(f"capex was {show(capex.value, 'percent')} of revenue "
                     f"({'at or above' if signs[-1] else 'below'} {CAPITAL_INTENSIVE_WORDS['capex_to_revenue']})")
    if assets is not None:
        signs.append(assets.value >= CAPITAL_INTENSIVE["assets_to_revenue"])
        shown.append(f"total assets were {show(assets.value, 'ratio')} times revenue "
                     f"({'at or above' if signs[-1] else 'below'} {CAPITAL_INTENSIVE_WORDS['assets_to_revenue']})")
    answer = any(signs)
    text = f"{'Yes' if answer else 'No'}. In {period.label}, " + "; ".join(shown) + "."
    return judged_draft([v for v in (capex, assets) if v is not None], text)


def _high_growth(measure: Measure, sources: list[Source], period: Period) -> Draft | None:
    """Growth over the year before against the rate that marks a high-growth company."""
    now, before = measure.evaluate(sources, period), measure.evaluate(sources, period.prior())
    if now is None or before is None or before.value == 0:
        return None
    rate = (now.value - before.value) / abs(before.value)
    answer = rate >= HIGH_GROWTH
    label = measure.label
    growth = Evaluated(f"{label} growth", rate, "percent", before.used + now.used, "(current - prior) / prior",
                       growth_expression(now, before),
                       True, period, now.unit)
    text = (f"{'Yes' if answer else 'No'}. {label} grew {show(rate, 'percent')} in {period.label} "
            f"(from {show(before.value, before.kind, before.unit)} to {show(now.value, now.kind, now.unit)}); "
            f"{'at or above' if answer else 'below'} {HIGH_GROWTH_WORDS}.")
    return judged_draft([growth], text)
