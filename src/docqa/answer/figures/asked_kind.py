"""The kind of number a question asks: a per-share amount is not a total, a count not a percentage."""

from __future__ import annotations

import re

from docqa.answer.figures.evaluated import Evaluated

_PER_SHARE = re.compile(r"\bper\s+(?:share|cdi|ads|unit)\b|\bcents\b", re.I)
COUNT = re.compile(r"^\s*(?:(?:in|from|according\s+to)\b[^,?]{0,120},\s*)?how\s+many\b(?!\s+times\b|\s+(?:percentage\s+|basis\s+)?points\b|\s+days\b)", re.I)


def kind_answers(question: str, value: Evaluated) -> bool:
    """The kind of number asked is the kind answered: a per-share amount is not a total, a count
    ("how many stores") is not a percentage or a dollar amount."""
    if _PER_SHARE.search(question) and value.kind in ("currency", "shares"):
        return False
    if COUNT.search(question) and value.kind in ("percent", "percent_points", "per_share"):
        return False
    return True
