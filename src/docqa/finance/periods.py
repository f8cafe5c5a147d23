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
_NUMERIC_DATE = re.compile(r"\b(0?[1-9]|1[0-2])/(0?[1-9]|[12]\d|3[01])/((?:19|20)\d\d|\d\d)\b")
_FISCAL = re.compile(r"\b(?:fiscal(?:\s+year)?|fy)\s*'?\s*((?:19|20)\d\d|\d{2})\b")
_QUARTER = re.compile(r"\b(?:q([1-4])|([1-4])q)\s*'?\s*(?:fy)?\s*((?:19|20)\d\d|\d{2})?\b")
_YEAR = re.compile(r"\b((?:19[5-9]|20\d)\d)\b")
_MONTHS_SPAN = (
    (re.compile(r"\b(three|3)[\s-]+months?\b|\b1[23][\s-]+weeks?\b|\bquarter\b|\bqtr\b"), 3),
    (re.compile(r"\b(six|6)[\s-]+months?\b|\b2[456][\s-]+weeks?\b|\bhalf\b|\bh[12]\b"), 6),
    (re.compile(r"\b(nine|9)[\s-]+months?\b|\b3[6-9][\s-]+weeks?\b"), 9),
    (re.compile(r"\b(twelve|12)[\s-]+months?\b|\b5[23][\s-]+weeks?\b|\byears?\b|\bfiscal\b|\bannual\b|\bfy\b"), 12),
)
_WHOLE_YEAR = re.compile(r"\b(?:fiscal|full|total|whole)\s+year\b")
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
    numeric = _last(_NUMERIC_DATE, text) if not date else None
    if numeric and not (year_match and year_match.end() > numeric.end()):
        month, day, year = int(numeric.group(1)), int(numeric.group(2)), _four_digit(numeric.group(3))
        period_end = f"{year:04d}-{month:02d}-{day:02d}"
        fiscal_year = year - 1 if month == 1 and day <= 7 else year
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
    if months == 3 and not quarter and _WHOLE_YEAR.search(text) and header_quarter(text) is None:
        months = 12  # "Quarter | 1st ... 4th | Fiscal Year": the year's column beside its quarters
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


_MONTH_WORDS = {6: "six", 9: "nine"}


# ------------------------------------------------------------------------ periods a question asks
@dataclass(frozen=True)
class Period:
    """A fiscal period a question asks about: a fiscal year (``quarter`` None: the year, or its
    year-end for a balance) or one quarter of it (a quarter's three months, or its end date), or the
    year to date at a quarter's end (``months`` 6 or 9: "the six months ended June 30, 2023")."""

    fiscal_year: int
    quarter: int | None = None
    months: int | None = None     # 6 or 9: the year to date at the quarter's end; None: the quarter or the year

    @property
    def year_to_date(self) -> bool:
        return self.quarter is not None and self.months in (6, 9)

    @property
    def label(self) -> str:
        if self.year_to_date:
            return f"the {_MONTH_WORDS[self.months]} months to Q{self.quarter} fiscal {self.fiscal_year}"
        return f"Q{self.quarter} fiscal {self.fiscal_year}" if self.quarter else f"fiscal {self.fiscal_year}"

    @property
    def short(self) -> str:
        """"2023", "2024 Q2" or "2023 9M": how a figure records its period."""
        if self.year_to_date:
            return f"{self.fiscal_year} {self.months}M"
        return f"{self.fiscal_year} Q{self.quarter}" if self.quarter else str(self.fiscal_year)

    @property
    def order(self) -> tuple[int, int]:
        return self.fiscal_year, self.quarter or 4

    def prior(self) -> "Period":
        """The same period a year earlier (the comparative column of a filing)."""
        return Period(self.fiscal_year - 1, self.quarter, self.months)


# ------------------------------------------------------------------------ a company's fiscal calendar
@dataclass(frozen=True)
class FiscalCalendar:
    """When a company's fiscal year ends, and how it names its years.

    Retailers end their year in late January (Best Buy's fiscal 2024 ends 3 February 2024), so a
    quarter's calendar year is not its fiscal year: "three months ended July 29, 2023" is Q2 of
    fiscal 2024. Built from a filing's own metadata (the period it closes and its fiscal year and
    quarter), it tells the fiscal year and quarter of any printed date.
    """

    end_month: int
    end_day: int
    offset: int = 0  # fiscal year = calendar year of the year's last day + offset

    TOLERANCE_DAYS = 15  # 52/53-week years end on a weekday near the date, not on it

    @classmethod
    def from_period_end(cls, period_end: str, fiscal_year: int | None, quarter: int | None = None) -> "FiscalCalendar":
        """``period_end`` closes fiscal ``quarter`` (None or 4: the year) of ``fiscal_year``."""
        end = _date(period_end)
        months = 3 * (4 - quarter) if quarter and 1 <= quarter < 4 else 0
        year_end = _add_months(end, months)
        offset = (fiscal_year - year_end[0]) if fiscal_year is not None else 0
        if fiscal_year is None and year_end[1] == 1 and year_end[2] <= 7:
            offset = -1  # a year closing in the first days of January is the year before's
        return cls(year_end[1], year_end[2], offset)

    def period_of(self, iso: str) -> tuple[int, int]:
        """(fiscal year, quarter 1-4) that a printed date closes; a year-end is quarter 4."""
        import datetime as dt

        d = dt.date(*_date(iso))
        earliest = d - dt.timedelta(days=self.TOLERANCE_DAYS)
        for year in (d.year - 1, d.year, d.year + 1):
            end = dt.date(year, self.end_month, min(self.end_day, _days_in_month(year, self.end_month)))
            if end >= earliest:
                break
        quarters_left = round((end - d).days / 91.3)
        return end.year + self.offset, max(1, min(4, 4 - quarters_left))


def _date(iso: str) -> tuple[int, int, int]:
    y, m, d = (int(p) for p in iso[:10].split("-"))
    return y, m, d


def _days_in_month(year: int, month: int) -> int:
    import calendar

    return calendar.monthrange(year, month)[1]


def _add_months(date: tuple[int, int, int], months: int) -> tuple[int, int, int]:
    y, m, d = date
    total = y * 12 + (m - 1) + months
    y, m = divmod(total, 12)
    m += 1
    return y, m, min(d, _days_in_month(y, m))


_HEADER_QUARTER = re.compile(r"\b(?:q([1-4])|([1-4])q|(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+(?:fiscal[\s-]+)?quarter"
                             r"|quarter\s+(1st|2nd|3rd|4th))\b", re.I)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}


def header_quarter(header: str) -> int | None:
    """The quarter a column header names ("Q2 2023", "Second Quarter"), if any."""
    m = _HEADER_QUARTER.search(header)
    return _quarter_of(m) if m else None


def quarters_named(text: str) -> set[int]:
    """Every quarter a text names ("a first-quarter 2019 dividend", "Q4")."""
    return {_quarter_of(m) for m in _HEADER_QUARTER.finditer(text)}


def _quarter_of(m: re.Match[str]) -> int:
    return int(m.group(1) or m.group(2)) if (m.group(1) or m.group(2)) else _ORDINAL[(m.group(3) or m.group(4)).lower()]
