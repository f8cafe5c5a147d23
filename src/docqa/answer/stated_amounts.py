"""A yes/no question that states an amount ("raise its quarterly dividend to $0.28 a share", "buy
$170 million of bitcoin during 2020"): the answer is Yes only where a sentence prints that amount for
the period asked, and No where the filing prints it for another period."""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.plan.judgement import StatedAmount
from docqa.verify.numbers import numbers_at

_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_BEFORE = 80     # characters before the amount a date that carries it may stand ("On February 9, 2023, we ...")
_AFTER = 40      # ... and after it ("another $170 million in February 2021")
_SHARE_CAPITAL_LIKE = re.compile(r"\bpar\s+value\b|\bauthori[sz]ed\b", re.I)


@dataclass(frozen=True)
class AmountRead:
    states: bool          # the sentence prints the amount
    year: int | None      # the year printed nearest the amount, if any


def read_amount(sentence: str, stated: StatedAmount) -> AmountRead:
    """Does ``sentence`` print the amount asked (within the rounding of either), and which year
    stands nearest it?"""
    for start, end, number in numbers_at(sentence, claims_only=True):
        if number.percent or not number.explicit:
            continue
        if abs(number.magnitude - stated.value) > max(number.tolerance, 0.01 * stated.value):
            continue
        if _SHARE_CAPITAL_LIKE.search(sentence[max(0, start - 40):end + 40]):
            continue  # "$0.01 par value": no payment
        return AmountRead(True, _nearest_year(sentence, start, end))
    return AmountRead(False, None)


_MONTHS = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
# The amount's own date right after it: "$170 million in February 2021", "$0.28 per share on July 1, 2022"
_ITS_DATE = re.compile(rf"^\W*(?:[\w$.,%-]+\s+){{0,3}}?(?:on|in|during|effective|for)\s+(?:fiscal\s+)?"
                       rf"(?:{_MONTHS}\s+(?:\d{{1,2}},?\s+)?)?(?P<year>(?:19|20)\d\d)\b", re.I)


def _nearest_year(sentence: str, start: int, end: int) -> int | None:
    own = _ITS_DATE.match(sentence[end:])
    if own is not None:
        return int(own.group("year"))
    best: tuple[int, int] | None = None
    for m in _YEAR.finditer(sentence):
        if m.end() <= start and start - m.end() <= _BEFORE:
            gap = start - m.end()
        elif m.start() >= end and m.start() - end <= _AFTER:
            gap = m.start() - end
        else:
            continue
        if best is None or gap < best[0]:
            best = (gap, int(m.group(0)))
    return best[1] if best else None


def in_period(read: AmountRead, years: tuple[int, ...] | list[int], own_year: int | None) -> bool:
    """The amount is the period asked's: the year beside it is one asked (or, with none printed,
    the filing's own year is)."""
    if not years:
        return True
    year = read.year if read.year is not None else own_year
    return year is None or year in years
