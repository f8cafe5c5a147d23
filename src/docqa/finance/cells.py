"""Figures as filings print them: "(1,577)", "$(594)", "3.6 %", "—", "NM".

Statement rows put ``$`` signs, closing parentheses and ``%`` in separate words; this module
classifies words and turns a cell's words into a number.
"""

from __future__ import annotations

import re

_NUMBER = re.compile(r"^\(?[-\u2212]?\$?\(?\d[\d,]*(\.\d+)?\)?%?\)?\*?$|^\(?[-\u2212]?\$?\.\d+\)?%?$")
_DASH = re.compile(r"^\(?[\u2014\u2013\-\u2212]+\)?%?$")  # —, –, -, "-%" : nothing to report
_NOT_MEANINGFUL = {"nm", "n/m", "n/a", "na", "nmf", "*", "**", "***"}
_AFFIX = {"$", "(", ")", "%", ")%", "%)", "*"}
_YEAR = re.compile(r"^(19[5-9]\d|20\d\d)[,.;:]?$")
_DAY = re.compile(r"^([1-9]|[12]\d|3[01]),?$")
_SHORT_PERIOD = re.compile(r"^(?:q[1-4]|[1-4]q|fy|h[12])'?(?:\d{2}|\d{4})?[,.]?$|^(?:fy|q[1-4])-?\d{2}$", re.I)

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
          "sept", "oct", "nov", "dec")


def is_number(text: str) -> bool:
    return bool(_NUMBER.match(text))


def is_dash(text: str) -> bool:
    return bool(_DASH.match(text))


def is_affix(text: str) -> bool:
    return text in _AFFIX


def is_not_meaningful(text: str) -> bool:
    return text.lower() in _NOT_MEANINGFUL


def is_cell_word(text: str) -> bool:
    """A word that can be (part of) a figure cell."""
    return is_number(text) or is_dash(text) or is_affix(text) or is_not_meaningful(text)


_MARK = re.compile(r"(\*+|\([a-z0-9]\)|[(),])$", re.I)


def is_year(text: str) -> bool:
    """"2018", "2018,", and headers with a footnote mark: "2018*", "2018(a)"."""
    if _YEAR.match(text):
        return True
    text = text.lstrip("(")
    # the mark comes off the end only, so a year is left only where one starts the word (the table
    # reader asks this of every word of every row: most are not)
    return text.startswith(("19", "20")) and bool(_YEAR.match(_MARK.sub("", text)))


_NUMERIC_DATE = re.compile(r"^\(?(0?[1-9]|1[0-2])/(0?[1-9]|[12]\d|3[01])/((?:19|20)\d\d|\d\d)\)?,?$")


def is_numeric_date(text: str) -> bool:
    """"3/25/2023", "12/31/22": a column header in many earnings releases."""
    return bool(_NUMERIC_DATE.match(text))


def is_day(text: str) -> bool:
    return bool(_DAY.match(text))


def is_short_period(text: str) -> bool:
    """"Q4", "4Q23", "FY23", "FY2023", "H1" (headers of quarterly tables and earnings releases)."""
    return bool(_SHORT_PERIOD.match(text))


def is_month(text: str) -> bool:
    return text.lower().rstrip(".,") in MONTHS


def parse_value(raw: str) -> float | None:
    """The number a cell shows: parentheses or a leading minus make it negative; a dash is zero.

    Returns None for cells that state no number ("NM", "n/a").
    """
    text = raw.replace(" ", "").replace("\u2212", "-")
    if is_dash(text):
        return 0.0
    digits = re.sub(r"[^\d.]", "", text)
    if not digits or digits == ".":
        return None
    try:
        value = float(digits)
    except ValueError:
        return None
    negative = "(" in text or text.lstrip("$").startswith("-")
    return -value if negative else value
