"""Numbers as an answer or a page writes them, and whether two of them agree.

``numbers_in`` reads "$1,577 million", "4.8%", "(459)" with their scale; with ``claims_only`` it
leaves out what is a reference, not a claim (years, item/note/page numbers, quarters, form names,
dates). ``matches`` says whether a claim, as rounded, agrees with a value across a unit shift
($1,577 million = $1.577 billion = 1577.00).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from docqa.text import fold

SCALES = {
    "thousand": 1e3, "thousands": 1e3, "k": 1e3,
    "million": 1e6, "millions": 1e6, "mn": 1e6, "mm": 1e6, "m": 1e6,
    "billion": 1e9, "billions": 1e9, "bn": 1e9, "b": 1e9,
    "trillion": 1e12, "trillions": 1e12, "tn": 1e12,
}

_NUMBER = re.compile(
    r"""
    (?P<open>\()?
    (?P<sign>[-+])?
    (?:(?P<cur>[$\u20ac\u00a3\u00a5])[ ]?)?
    (?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)
    (?P<close>\))?
    (?:[ ]?(?P<pct>%|percent\b|per[ ]?cent\b|pct\b))?
    (?:(?P<sp>[ ]?)(?P<scale>thousands?|millions?|billions?|trillions?|mn|mm|bn|tn|[kmb])(?![a-z]))?
    """,
    re.X | re.I,
)

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_REFERENCE_BEFORE = re.compile(
    r"(?:\b(?:items?|parts?|notes?|pages?|p\.|pp\.|sections?|exhibits?|schedules?|forms?|rules?|articles?"
    r"|chapters?|tables?|figures?|footnotes?|lines?|steps?|levels?|tiers?|phases?|no\.|nos\.|#)"
    r"|\b(?:" + _MONTHS + r")\.?)\s*$",
    re.I,
)
_MONTH_AFTER = re.compile(r"^,?\s*(?:" + _MONTHS + r")\b", re.I)
_FORM_AFTER = re.compile(r"^-[a-z]\b", re.I)
_DATE = re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b")

# Constants of arithmetic that a formula may use without a page printing them.
CONSTANTS = {1.0, 2.0, 4.0, 12.0, 100.0, 360.0, 365.0, 1000.0}


@dataclass(frozen=True)
class Number:
    """A number as written: ``magnitude`` is unsigned and already multiplied by its scale word."""

    raw: str
    magnitude: float
    decimals: int      # significant digits after the point: sets the rounding tolerance
    scale: float       # 1e6 for "million"; the tolerance is in these units
    percent: bool
    explicit: bool     # has a currency sign, % or scale word: never a year or a reference

    @property
    def tolerance(self) -> float:
        # Half a unit of the last digit written: "4.8%" stands for anything in [4.75, 4.85].
        return 0.5 * 10 ** (-self.decimals) * self.scale * (1 + 1e-9) + 1e-12 * self.magnitude


def _to_number(match: re.Match) -> Number | None:
    num = match.group("num").replace(",", "")
    try:
        value = float(num)
    except ValueError:
        return None
    # Trailing zeros are formatting, not precision: "$4.60" and "1577.00" claim what "$4.6" and "1577" do.
    decimals = len(num.split(".", 1)[1].rstrip("0")) if "." in num else 0
    scale_word = (match.group("scale") or "").lower()
    # A lone letter (k, m, b) is a scale only glued to an amount ("$5m"; not "5 m", "3M", "10K").
    # A decimal is no name: "3.8m shares" is 3.8 million of them.
    if scale_word in {"k", "m", "b"} and (match.group("sp") or (not match.group("cur") and "." not in match.group("num"))):
        scale_word = ""
    scale = SCALES.get(scale_word, 1.0)
    raw = match.group(0).strip()
    if not scale_word and match.group("scale"):
        raw = raw[: len(raw) - len(match.group("scale"))].strip()
    return Number(
        raw=raw,
        magnitude=abs(value) * scale,
        decimals=decimals,
        scale=scale,
        percent=bool(match.group("pct")),
        explicit=bool(match.group("cur") or match.group("pct") or scale_word),
    )


def _is_reference(text: str, match: re.Match, number: Number) -> bool:
    """Years, item numbers, quarters, form names and dates: references, not claims."""
    if number.explicit:
        return False
    start, end = match.start("num"), match.end("num")
    before = text[max(0, start - 14) : start]
    after = text[end : end + 12]
    if before[-1:].isalpha() or before[-1:] in {"'", "\u2019"}:
        return True  # Q2, P1, FY2018, H1, '18
    if len(before) >= 2 and before[-1] == "-" and before[-2].isalpha():
        return True  # COVID-19, S-1
    if after[:1].isalpha() and not (after[:1].lower() == "x" and not after[1:2].isalpha()) \
            and not (match.group("scale") and "." in match.group("num")):
        return True  # 10K, 7A, 2nd, 3rd, 3M (but "3.8m shares" is 3.8 million)
    if _FORM_AFTER.match(after):
        return True  # 10-K, 8-K, 20-F
    if _REFERENCE_BEFORE.search(before):
        return True  # Item 7, Note 5, page 38, December 31
    if _MONTH_AFTER.match(after):
        return True  # 31 December
    if number.decimals == 0 and "," not in match.group("num") and 1900 <= number.magnitude <= 2100:
        return True  # a year
    return False


def numbers_in(text: str, claims_only: bool = False) -> list[Number]:
    """Numbers written in ``text``; with ``claims_only`` years and references are left out."""
    return [number for _, _, number in numbers_at(text, claims_only)]


def numbers_at(text: str, claims_only: bool = False) -> list[tuple[int, int, Number]]:
    """``numbers_in`` with where each is written: (start, end, number), offsets into ``fold(text)``
    (a rule that asks which words stand next to an amount reads them there)."""
    text = fold(text)
    if claims_only:  # dates (12/31/2017, 2017-12-31) are references: blank them out, keep offsets
        text = _DATE.sub(lambda m: " " * len(m.group(0)), text)
    out = []
    for match in _NUMBER.finditer(text):
        # A bare number glued to a preceding digit or point is the tail of a longer token ("1.2.3").
        start = match.start("num")
        if match.start() == start and start > 0 and (text[start - 1].isdigit() or text[start - 1] == "."):
            continue
        number = _to_number(match)
        if number is None:
            continue
        if claims_only and _is_reference(text, match, number):
            continue
        out.append((match.start(), match.end(), number))
    return out


def _shifts(claim: Number) -> tuple[int, ...]:
    # Unit shifts ($1,577 million = $1.577 billion = 1577.00) apply to amounts, not to percentages.
    return (0,) if claim.percent else (-4, -3, -2, -1, 0, 1, 2, 3, 4)


def matches(claim: Number, values: Iterable[float], percent_of_ratio: bool = False) -> bool:
    """Does ``claim`` (as rounded) agree with any of ``values`` across a unit shift?

    With ``percent_of_ratio`` a percentage claim also matches a ratio (37.1% ~ 0.3707).
    """
    tol = claim.tolerance
    for value in values:
        value = abs(value)
        candidates = [value]
        if percent_of_ratio and claim.percent:
            candidates.append(value * 100)
        for candidate in candidates:
            for k in _shifts(claim):
                if abs(claim.magnitude - candidate * 1000.0**k) <= tol:
                    return True
    return False
