"""The filings a question's period and filing type point at, among one company's filings."""

from __future__ import annotations

from docqa.plan.periods import days_apart
from docqa.types import DocType, Document

def choose_documents(
    candidates: list[Document], years: list[int], quarter: int | None, doc_types: list[DocType],
    forward_looking: bool = False, latest: bool = False, period_end: str | None = None, annual_first: bool = False,
    day: str | None = None, interim: bool = False,
) -> tuple[list[Document], str | None]:
    """Narrow one company's filings to the ones the question's period points at.

    The latest year named decides: a filing for that year also prints the earlier years as
    comparatives, while an older filing cannot know the later year. When no filing of that year
    exists, a filing of the next two years (which reports it as a comparative) is used. A quarter
    asked picks the filing of that fiscal quarter (by the filer's own calendar, as its filings
    state it); "the most recent" picks the latest filing; a printed period end picks the filing
    that closes on that date.
    """
    docs = candidates
    if period_end:
        dated = [d for d in docs if d.meta.period_end and days_apart(d.meta.period_end, period_end) <= 7]
        # The days of slack are for a 52/53-week year's end; a filing closing on the very day comes
        # first, and a quarter asked is a quarterly filing's ("the quarter ended July 2, 2023").
        dated = [d for d in dated if d.meta.period_end == period_end] or dated
        if interim:
            dated = [d for d in dated if d.meta.doc_type in (DocType.QUARTERLY, DocType.EARNINGS)] or dated
        else:  # "the year ended June 30, 2023": the annual report of that year before its fourth-quarter release
            dated = sorted(dated, key=lambda d: not (d.meta.doc_type and d.meta.doc_type.is_annual))
        if dated:
            return dated, None  # the filing that closes on the date asked
        if interim:
            # "the six months ended December 31, 2021" when no filing closes on it: the quarterly
            # filing a year later prints it beside its own period, as the prior year's column.
            later = [d for d in docs if d.meta.period_end and d.meta.doc_type in (DocType.QUARTERLY, DocType.EARNINGS)
                     and 358 <= days_apart(d.meta.period_end, period_end) <= 372 and d.meta.period_end > period_end]
            if later:
                return later, None
    if day:
        reports = [d for d in docs if d.meta.report_date and days_apart(d.meta.report_date, day) <= 7]
        if reports:
            return reports, None  # the current report of (or just after) the day asked
    if doc_types:
        accepted = {k for t in doc_types for k in t.family}
        typed = [d for d in docs if d.meta.doc_type in accepted]
        if typed:
            docs = typed
    elif quarter is not None:
        # a quarter asked is a quarterly filing's, of the year asked; with none of that year, the
        # year's annual report (its quarterly results) answers, never another year's 10-Q
        quarterly = [d for d in docs if d.meta.doc_type in (DocType.QUARTERLY, DocType.EARNINGS)
                     and (not years or d.meta.fiscal_year in (max(years), max(years) + 1))]
        if quarterly:
            docs = quarterly
    if latest and not years:
        newest = max(docs, key=_recency, default=None)
        return ([d for d in docs if _recency(d) == _recency(newest)] if newest else docs), None
    if quarter is not None:
        same = [d for d in docs if d.meta.fiscal_quarter == quarter
                and (not years or d.meta.fiscal_year in (max(years), max(years) + 1))]
        exact = [d for d in same if not years or d.meta.fiscal_year == max(years)]
        if exact or same:
            return exact or same, None
    if not years:
        # No period named: the latest filings speak for the company ("historically" is answered
        # by the latest 10-K's comparatives, "what industry" by the latest description).
        latest = max((d.meta.fiscal_year for d in docs if d.meta.fiscal_year), default=None)
        return ([d for d in docs if d.meta.fiscal_year == latest] if latest else docs), None
    return _of_the_year(docs, years, forward_looking, annual_first)


def _of_the_year(docs: list[Document], years: list[int], forward_looking: bool,
                 annual_first: bool) -> tuple[list[Document], str | None]:
    """The filings of the latest year named, else of the years named, else of the two years after
    (which print it as their comparatives)."""
    target = max(years)
    # Expectations for a year are published in the filings of the year before it.
    ahead = [target, target - 1] if forward_looking else [target]
    for wanted in (ahead, years, [target + 1, target + 2]):
        chosen = [d for d in docs if d.meta.fiscal_year in wanted]
        annual = [d for d in chosen if d.meta.doc_type is not None and d.meta.doc_type.is_annual
                  and d.meta.fiscal_year in years + [target + 1, target + 2]]
        if annual_first and annual and not forward_looking:
            # A year's figure is the annual filing's: a quarter's release or a 10-Q of that year
            # reports other periods, unless the question asks for one.
            return annual, None
        if annual_first and chosen and all(d.meta.doc_type in (DocType.CURRENT, DocType.OTHER, None) for d in chosen):
            # a current report of the year (an 8-K) prints no year's statements: the next annual
            # report prints them as its comparatives
            later = [d for d in docs if d.meta.doc_type is not None and d.meta.doc_type.is_annual
                     and d.meta.fiscal_year in (target + 1, target + 2)]
            if later:
                return later + chosen, None
        if chosen:
            return chosen, None
    return docs, f"no filing for {target} found; searched every period"


def _recency(d: Document) -> tuple:
    return (d.meta.period_end or "", d.meta.fiscal_year or 0, d.meta.fiscal_quarter or 5)
