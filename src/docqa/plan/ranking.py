"""Ranking slots: "which ... the most / least", the items a question lists to compare, and
whether an entity (a segment, a region) is asked for rather than the company's figure."""

from __future__ import annotations

import re

from docqa.finance.lexicon import MetricMatch

_WHICH_MOST = re.compile(
    r"\b(?:which|what)\b(?:(?!\?).){0,200}?\b(?P<word>most|least|highest|lowest|largest|smallest|biggest|greatest|"
    r"larger|smaller|higher|lower|bigger|greater)\b", re.I)
_ACTIVITIES = re.compile(
    r"\b(operat\w*)\s*,\s*(investing)\s*,?\s*(?:and|or|&)\s*(financing)\b(?:\s+activities)?", re.I)


def asks_which(question: str, matches: list[MetricMatch]) -> bool:
    """"Which (of the segments / debt securities / regions) ... <metric>": an entity is asked for."""
    first = min((m.span[0] for m in matches), default=len(question))
    return re.search(r"\bwhich\b", question[:first], re.I) is not None


def which_is_most(question: str) -> bool | None:
    """True for "which ... the most / largest", False for "the least / smallest", None otherwise."""
    m = _WHICH_MOST.search(question)
    if m is None:
        return None
    return m.group("word").lower() not in ("least", "lowest", "smallest", "smaller", "lower")


def listed_activities(question: str) -> list[str]:
    """"operations, investing and financing activities": the three cash flow totals, named once."""
    if _ACTIVITIES.search(question):
        return ["operating_cash_flow", "investing_cash_flow", "financing_cash_flow"]
    return []
