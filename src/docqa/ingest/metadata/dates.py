"""Dates as filings print them ("December 31, 2022", "31 December 2022") and the fiscal year a period belongs to.

Fiscal year convention (matches the labelled corpus): a fiscal year is named by the calendar
year in which it ends, so Best Buy's year ended January 28, 2023 is 2023, and a 52/53-week year
that ends in the first days of January (J&J: January 1, 2023) belongs to the year before.
"""

from __future__ import annotations

import re
from datetime import date

MONTHS = {
    m[:3].lower(): i
    for i, m in enumerate(
        "January February March April May June July August September October November December".split(), 1
    )
}
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
# "December 31, 2022" (US) or "31 December 2022" (UK / non-US annual reports)
DATE = rf"(?:{_MONTH}\s+\d{{1,2}}\s*,?\s*(?:19|20)\d\d|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}\s+(?:19|20)\d\d)"


def parse_date(text: str) -> date | None:
    m = re.match(r"([A-Za-z]+)\.?\s+(\d{1,2})\s*,?\s*(\d{4})", text)
    if m:
        month, day, year = m.group(1), m.group(2), m.group(3)
    else:
        m = re.match(r"(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+)\.?\s+(\d{4})", text)
        if not m:
            return None
        day, month, year = m.group(1), m.group(2), m.group(3)
    number = MONTHS.get(month[:3].lower())
    try:
        return date(int(year), number, int(day)) if number else None
    except ValueError:
        return None


def fiscal_year_ending(end: date, quarter: int | None = None) -> int:
    """Year of the fiscal year that a period ending on ``end`` (quarter ``quarter``) belongs to."""
    month, year = end.month + 3 * (4 - (quarter or 4)), end.year
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    # a 52/53-week year ending January 1-7 is the previous calendar year's fiscal year
    return year - 1 if month == 1 and end.day <= 7 else year
