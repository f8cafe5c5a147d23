"""The figures answerer: a question's measures and periods, read and computed, or no answer."""

from __future__ import annotations


from docqa.answer.figures.asked import Asked, asked_measures
from docqa.answer.figures.asked_kind import kind_answers
from docqa.answer.figures.composition import compose_measures, names_no_line_item
from docqa.answer.figures.drafts import ANSWERER, value_draft
from docqa.answer.figures.evaluated import Evaluated, show, wrap
from docqa.answer.figures.line_item_words import company_name_words, leaf_text
from docqa.answer.figures.scoped import scoped_measures
from docqa.answer.figures.measures import FormulaMeasure, MetricMeasure
from docqa.answer.figures.over_time import over_time
from docqa.answer.figures.ranking import most_named
from docqa.answer.figures.reporting_currency import in_reporting_currency
from docqa.answer.figures.sources import Source, annual_report, dated_quarter, filing_sources
from docqa.answer.figures.yes_no import yes_no
from docqa.answer.statement_lines import largest_line
from docqa.finance import formulas as F
from docqa.finance.lexicon import load_lexicon
from docqa.finance.periods import Period
from docqa.answer.contract import Evidence
from docqa.plan import QuestionPlan
from docqa.store.base import Store
from docqa.types import DocType, Draft, EvidencePage



class FiguresAnswerer:
    """Answers a question that names a metric, a formula or arithmetic from the statement tables."""

    name = ANSWERER

    def answer(self, plan: QuestionPlan, evidence: Evidence) -> Draft | None:
        if evidence.filings is None or not evidence.pages:
            return None  # reads the statements of the retrieved pages' filings
        question, store = plan.asked, evidence.filings
        draft = self._answer(question, list(evidence.pages), plan, store)
        return in_reporting_currency(draft, store) if draft is not None and draft.found else draft

    def _answer(self, question: str, evidence: list[EvidencePage], plan: QuestionPlan, store: Store) -> Draft | None:
        lexicon = load_lexicon()
        matches = list(plan.measures)
        named = list(dict.fromkeys([m.key for m in matches if m.kind == "metric"] + list(plan.listed)))
        pick = plan.pick if len(named) >= 2 else None
        line = plan.line
        composition = plan.composition
        free = names_no_line_item(matches) and plan.asks_figure and not plan.why
        if not matches and pick is None and line is None and composition is None and not free \
                and not plan.bottom_line:
            return None
        asked = asked_measures(plan.reading)
        judged = plan.judgement
        bottom_line = plan.bottom_line
        qualified = bool(plan.reading.qualified)  # "revenue of the International segment": the row it names
        if (not asked.measures and not qualified and judged not in ("capital_intensive", "high_growth")
                and not bottom_line and pick is None and line is None and composition is None and not free):
            return None
        if plan.day and not plan.balance_day and not plan.period_end:
            # "the dividend Best Buy announced on March 1, 2017": what happened on a day, which no
            # column of a year or a quarter states (a balance "as of" a day, a period "ended" on one do).
            return None
        sources = filing_sources(evidence, store)
        if not sources:
            return None
        company_words = company_name_words(store, sources, plan)
        compose_measures(plan, asked, company_words)
        if plan.scope and plan.composition is None and "share_of" not in plan.kinds:
            # (A share of the company's total names the part in its own words: "AWS as a share of net sales".)
            # "Operating margin of the Domestic segment": the segment's lines, never the company's total.
            asked.measures = scoped_measures(asked.measures, plan.scope, leaf_text(plan.main_clause, company_words),
                                             plan.kinds, company_words)
        if not asked.measures and bottom_line and judged in ("positive", "negative"):
            asked.measures = [MetricMeasure(lexicon.metric("net_income"))]  # profitable: the bottom line
        if not asked.measures and not (judged or pick is not None or line is not None):
            return None
        periods = _periods_asked(question, evidence, plan, sources, store)
        if periods is None:
            return None
        fmt = plan.format
        if line is not None:
            return largest_line(line, sources, periods[-1])
        if judged is not None:
            draft = yes_no(judged, plan, asked, sources, periods, company_words)
            if draft is not None:
                return draft
        if plan.verdict:
            return None  # a yes/no question a figure alone does not answer
        target = periods[-1]
        whole = next((p for p in periods if p.quarter is None), None)
        part = next((p for p in periods if p.quarter is not None), None)
        if whole and part and whole.fiscal_year == part.fiscal_year and plan.part_of_whole:
            return _share_of_year(asked, sources, part, whole, fmt)
        if pick is not None:
            draft = most_named(pick, named, sources, target)
            if draft is not None:
                return draft
        if plan.why or plan.which:
            # "What drove the margin change?", "Which segment had the lowest revenue?": the
            # company's figure is not the answer; the filing's words (or a breakdown) are.
            return None
        if asked.over_time and asked.measures:
            # Growth, averages and changes are what is asked: the bare figure is no answer.
            return over_time(asked, sources, periods, fmt)
        return _figure(plan.kinds, asked, sources, target, fmt, plan.convention)


def _periods_asked(question: str, evidence: list[EvidencePage], plan: QuestionPlan, sources: list[Source],
                   store: Store) -> list[Period] | None:
    """The periods the question asks, by the filings' own calendars; None when no year is known.
    Years asked of quarterly filings put the company's annual report first in ``sources``."""
    default_year = max(plan.years) if plan.years else evidence[0].year
    periods = plan.asked_periods(default_year)
    dated = dated_quarter(plan, sources, store) if not any(p.quarter for p in periods) else None
    if dated is not None:
        # "the three months ended December 31, 2022": the quarter of the filing that closes on
        # that date, by the filer's own fiscal calendar (Amcor's Q2 of fiscal 2023), not a year.
        periods = [dated]
    own = sources[0]
    if (not periods and own.quarterly and own.fiscal_quarter and own.fiscal_year
            and (plan.latest or DocType.QUARTERLY in plan.doc_types)):
        # "in its most recent 10-Q": the filing asked for, read for its own quarter, not the
        # annual report's year.
        periods = [Period(own.fiscal_year, own.fiscal_quarter)]
    if not any(p.quarter for p in periods) and all(s.quarterly for s in sources):
        # Years asked of quarterly filings: the company's annual report holds the years.
        annual = annual_report(store, sources[0].document_id, max((p.fiscal_year for p in periods), default=None))
        if annual is not None:
            sources.insert(0, annual)
            if not periods:
                default_year = annual.fiscal_year
    if not periods:
        if default_year is None:
            return None
        periods = [Period(default_year)]
    return _year_to_date(periods, plan.ytd_months)


def _year_to_date(periods: list[Period], months: int | None) -> list[Period]:
    """"The six months ended June 30": the year to date at that quarter's end, not its three months
    ("the first half of 2023": to the second quarter)."""
    if months is None:
        return periods
    out = []
    for p in periods:
        quarter = p.quarter or (months // 3 if months else None)
        span = months or (quarter * 3 if quarter else None)
        out.append(Period(p.fiscal_year, quarter, span) if quarter and span in (6, 9) and quarter * 3 == span else p)
    return out


def _share_of_year(asked: Asked, sources: list[Source], part: Period, whole: Period, fmt: F.Format) -> Draft | None:
    """"What percent of FY2023 buybacks occurred in Q4 of FY2023?": the quarter over the year.
    The year's total alone does not answer it."""
    for measure in asked.measures:
        a, b = measure.evaluate(sources, part), measure.evaluate(sources, whole)
        if a is not None and b is not None and b.value and a.kind == b.kind == "currency":
            value = Evaluated(f"Share of {whole.label} {measure.label.lower()} in Q{part.quarter}", a.value / b.value,
                              "percent", a.used + b.used, f"{part.label} / {whole.label}",
                              f"{wrap(a.expression)} / {wrap(b.expression)}", True, part, a.unit, titled=True)
            return value_draft(value, fmt)
    return None


def _figure(kinds: frozenset[str], asked: Asked, sources: list[Source], target: Period, fmt: F.Format,
            convention: str | None = None) -> Draft | None:
    """The first measure that reads for the period in the kind of number asked; a formula's other
    convention is stated beside it when the question names none."""
    for measure in asked.measures:
        value = measure.evaluate(sources, target)
        if value is not None and not kind_answers(kinds, value):
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
