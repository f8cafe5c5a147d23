"""The kind of number a question asks: a per-share amount is not a total, a count not a percentage."""

from __future__ import annotations

import re

from docqa.answer.figures.evaluated import Evaluated

_PER_SHARE = re.compile(r"\bper\s+(?:share|cdi|ads|unit)\b|\bcents\b", re.I)
COUNT = re.compile(r"^\s*(?:(?:in|from|according\s+to)\b[^,?]{0,120},\s*)?how\s+many\b(?!\s+times\b|\s+(?:percentage\s+|basis\s+)?points\b|\s+days\b)", re.I)


# "What percentage of revenue was spent on R&D?", "R&D as a share of revenue": a part of a whole.
_SHARE_ASKED = re.compile(
    r"\bwhat\s+(?:share|percent(?:age)?|%|proportion|fraction)\s+of\b|\bas\s+an?\s+(?:%|percent(?:age)?|share|proportion)\s+of\b",
    re.I)


def kind_answers(question: str, value: Evaluated) -> bool:
    """The kind of number asked is the kind answered: a per-share amount is not a total, a count
    ("how many stores") is not a percentage or a dollar amount, and an amount is no share of a
    whole (the R&D expense is no answer to what share of revenue it was)."""
    if _PER_SHARE.search(question) and value.kind in ("currency", "shares"):
        return False
    if _SHARE_ASKED.search(question) and value.kind in ("currency", "shares", "per_share", "count"):
        return False
    if COUNT.search(question) and value.kind in ("percent", "percent_points", "per_share"):
        return False
    return True
