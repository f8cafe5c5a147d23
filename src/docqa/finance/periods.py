"""What period a column header names: "2018", "Fiscal 2023", "January 28, 2023",
"Three Months Ended July 29, 2023", "Q4 2023", "December 31, 2018" (an instant).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

PeriodKind = Literal["year", "quarter", "ytd", "instant"]

_MONTH_NUM = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "oct": 10, "nov": 11, "dec": 12,
}
_DATE = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})\s*,?\s*((?:19|20)\d\d)\b"
)
_FISCAL = re.compile(r"\b(?:fiscal(?:\s+year)?|fy)\s*'?\s*((?:19|20)\d\d|\d{2})\b")
_QUARTER = re.compile(r"\b(?:q([1-4])|([1-4])q)\s*'?\s*(?:fy)?\s*((?:19|20)\d\d|\d{2})?\b")
_YEAR = re.compile(r"\b((?:19[5-9]|20\d)\d)\b")
_MONTHS_SPAN = (
    (re.compile(r"\b(three|3)[\s-]+months?\b|\b1[23][\s-]+weeks?\b|\bquarter\b|\bqtr\b"), 3),
    (re.compile(r"\b(six|6)[\s-]+months?\b|\b2[456][\s-]+weeks?\b|\bhalf\b|\bh[12]\b"), 6),
    (re.compile(r"\b(nine|9)[\s-]+months?\b|\b3[6-9][\s-]+weeks?\b"), 9),
    (re.compile(r"\b(twelve|12)[\s-]+months?\b|\b5[23][\s-]+weeks?\b|\byears?\b|\bfiscal\b|\bannual\b|\bfy\b"), 12),
)
_INSTANT = re.compile(r"\bas of\b|\bat\b|\bbalance\b|\bended\b")
_DERIVED = re.compile(r"%|\bpercent|\bchange\b|\bincrease\b|\bdecrease\b|\bvariance\b|\bbps\b|\bgrowth\b|\bto sales\b|\bmix\b")


@dataclass(frozen=True)
class PeriodInfo:
    fiscal_year: int | None
    period: PeriodKind | None
    period_end: str | None  # ISO date when the header prints one
    months: int | None
    derived: bool           # a %-of-sales, change or growth column, not a period's own figure


def parse_period(header: str, context: str = "", balance_sheet: bool = False) -> PeriodInfo:
    """Read one column's header; ``context`` is text above/left of the columns ("Year Ended ...")."""
    text = " ".join(header.lower().split())
    ctx = " ".join(context.lower().split())
    derived = bool(_DERIVED.search(text))

    period_end = None
    fiscal_year = None
    date = _last(_DATE, text)
    year_match = _last(_YEAR, text)
    if date and year_match and year_match.end() > date.end():
        date = None  # a bare year printed below a date line is the more specific header
    if date:
        month, day, year = _MONTH_NUM[date.group(1)], int(date.group(2)), int(date.group(3))
        period_end = f"{year:04d}-{month:02d}-{day:02d}"
        # A 52/53-week year that ends in the first days of January belongs to the year before
        # ("January 2, 2021" closes fiscal 2020); later January ends keep their own year, as
        # retailers (Walmart, Best Buy) and FinanceBench count them.
        fiscal_year = year - 1 if month == 1 and day <= 7 else year
    fiscal = _last(_FISCAL, text)
    if fiscal:
        fiscal_year = _four_digit(fiscal.group(1))
    quarter = _last(_QUARTER, text)
    if fiscal_year is None and quarter and quarter.group(3):
        fiscal_year = _four_digit(quarter.group(3))
    if fiscal_year is None and year_match:
        fiscal_year = int(year_match.group(1))

    months = _months(text) or (3 if quarter else None) or _months(ctx)
    if months is None and quarter is None and _QUARTER.search(ctx):
        months = 3
    if months == 3:
        period: PeriodKind | None = "quarter"
    elif months in (6, 9):
        period = "ytd"
    elif months == 12:
        period = "year"
    elif balance_sheet or (period_end and _INSTANT.search(text + " " + ctx) and "ended" not in text + ctx):
        period = "instant"
    elif fiscal_year is not None:
        period = "year"
    else:
        period = None
    if balance_sheet and period in ("year", None) and not _months(text):
        period = "instant"  # balance sheets are at a date, whatever "fiscal 2023" says
    return PeriodInfo(fiscal_year, period, period_end, months, derived)


def _months(text: str) -> int | None:
    for pattern, months in _MONTHS_SPAN:
        if pattern.search(text):
            return months
    return None


def _last(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    found = None
    for found in pattern.finditer(text):
        pass
    return found


def _four_digit(text: str) -> int:
    value = int(text)
    return value + 2000 if value < 100 else value
