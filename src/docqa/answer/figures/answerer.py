"""The figures answerer: a question's measures and periods, read and computed, or no answer.

What the plan asks is answered by the first entry of ``INTENTS`` whose predicate holds: a
statement's largest line, a verdict, a quarter's share of its year, the largest of the items
named, a change or growth over periods, or the figure itself (``intents/``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from docqa.answer.figures.intents.over_time import over_time
from docqa.answer.figures.intents.ranking import most_named
from docqa.answer.figures.intents.share_of_year import quarter_and_year, share_of_year
from docqa.answer.figures.intents.value import figure
from docqa.answer.figures.intents.yes_no import yes_no
from docqa.answer.figures.reading.asked import Asked, asked_measures
from docqa.answer.figures.reading.composition import compose_measures, names_no_line_item
from docqa.answer.figures.reading.drafts import ANSWERER
from docqa.answer.figures.reading.line_item_words import company_name_words, line_words
from docqa.answer.figures.reading.measures import MetricMeasure
from docqa.answer.figures.reading.reporting_currency import in_reporting_currency
from docqa.answer.figures.reading.scoped import scoped_kinds, scoped_measures
from docqa.answer.figures.reading.sources import Source, annual_report, dated_quarter, filing_sources
from docqa.answer.statement_lines import largest_line
from docqa.finance.lexicon import load_lexicon
from docqa.finance.periods import Period
from docqa.answer.contract import Evidence
from docqa.plan import QuestionPlan
from docqa.store.base import Store
from docqa.types import DocType, Draft, EvidencePage


@dataclass
class Asking:
    """A figure question made ready for the intents: its plan, the measures built for it, the
    filings read and the periods asked (the last is the one a single figure is read for)."""

    plan: QuestionPlan
    asked: Asked
    sources: list[Source]
    periods: list[Period]
    named: list[str]                 # the line items the question names, for a pick among them
    pick: bool | None                # "which ... the most" (True) / "the least" (False), of two or more named
    company_words: frozenset[str]

    @property
    def target(self) -> Period:
        return self.periods[-1]


@dataclass(frozen=True)
class FigureIntent:
    """An entry of the dispatch table: what the plan asks, and the component that answers it."""

    asks: Callable[[Asking], bool]
    answer: Callable[[Asking], Draft | None]
    or_next: bool = False            # its None tries the next entry (otherwise None is the reply)


def _largest_line(a: Asking) -> Draft | None:
    assert a.plan.line is not None
    return largest_line(a.plan.line, a.sources, a.target)


def _yes_no(a: Asking) -> Draft | None:
    assert a.plan.judgement is not None
    return yes_no(a.plan.judgement, a.plan, a.asked, a.sources, a.periods, a.company_words)


def _share_of_year(a: Asking) -> Draft | None:
    found = quarter_and_year(a.periods)
    assert found is not None
    part, whole = found
    return share_of_year(a.asked, a.sources, part, whole, a.plan.format)


def _most_named(a: Asking) -> Draft | None:
    assert a.pick is not None
    return most_named(a.pick, a.named, a.sources, a.target)


def _over_time(a: Asking) -> Draft | None:
    return over_time(a.asked, a.sources, a.periods, a.plan.format)


def _figure(a: Asking) -> Draft | None:
    return figure(a.plan.kinds, a.asked, a.sources, a.target, a.plan.format, a.plan.convention)


def _no_answer(a: Asking) -> Draft | None:
    return None


# Tried in order; the first whose predicate holds answers (an ``or_next`` entry's None goes on).
INTENTS: tuple[FigureIntent, ...] = (
    # "What was the largest liability on the balance sheet?": the statement's own lines.
    FigureIntent(lambda a: a.plan.line is not None, _largest_line),
    FigureIntent(lambda a: a.plan.judgement is not None, _yes_no, or_next=True),
    # A yes/no question a figure alone does not answer.
    FigureIntent(lambda a: a.plan.verdict, _no_answer),
    # "What percent of FY2023 buybacks occurred in Q4 of FY2023?": the year's total alone is no answer.
    FigureIntent(lambda a: quarter_and_year(a.periods) is not None and a.plan.part_of_whole, _share_of_year),
    FigureIntent(lambda a: a.pick is not None, _most_named, or_next=True),
    # "What drove the margin change?", "Which segment had the lowest revenue?": the company's
    # figure is not the answer; the filing's words (or a breakdown) are.
    FigureIntent(lambda a: a.plan.why or a.plan.which, _no_answer),
    # Growth, averages and changes are what is asked: the bare figure is no answer.
    FigureIntent(lambda a: bool(a.asked.over_time and a.asked.measures), _over_time),
    FigureIntent(lambda a: True, _figure),
)


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
        free = names_no_line_item(matches) and (plan.asks_figure or bool(plan.judged)) and not plan.why
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
        subject = line_words(plan, sources, company_words)
        compose_measures(plan, asked, company_words, subject)
        if plan.scope and plan.composition is None and "share_of" not in plan.kinds:
            # (A share of the company's total names the part in its own words: "AWS as a share of net sales".)
            # "Operating margin of the Domestic segment": the segment's lines, never the company's total.
            asked.measures = scoped_measures(asked.measures, plan.scope, subject, scoped_kinds(plan), company_words,
                                             plan.gross_of, plan.expansions)
        if not asked.measures and bottom_line and judged in ("positive", "negative"):
            asked.measures = [MetricMeasure(lexicon.metric("net_income"))]  # profitable: the bottom line
        if not asked.measures and not (judged or pick is not None or line is not None):
            return None
        periods = periods_asked(question, evidence, plan, sources, store)
        if periods is None:
            return None
        asking = Asking(plan, asked, sources, periods, named, pick, company_words)
        for intent in INTENTS:
            if intent.asks(asking):
                draft = intent.answer(asking)
                if draft is not None or not intent.or_next:
                    return draft
        return None


def periods_asked(question: str, evidence: list[EvidencePage], plan: QuestionPlan, sources: list[Source],
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
    elif plan.quarter_span and not any(p.quarter for p in periods):
        return None  # a quarter asked by its end date, and no quarterly filing closes near it: no year's figure
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

