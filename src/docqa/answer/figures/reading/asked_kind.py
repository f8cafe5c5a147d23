"""The kind of number a question asks is the kind answered: a per-share amount is not a total, a
count not a percentage (the kinds are read into the plan: plan/format.py ``kinds_asked``)."""

from __future__ import annotations

from docqa.answer.figures.reading.evaluated import Evaluated


def kind_answers(kinds: frozenset[str], value: Evaluated) -> bool:
    """The kind of number asked is the kind answered: a per-share amount is not a total, a count
    ("how many stores") is not a percentage or a dollar amount, and an amount is no share of a
    whole (the R&D expense is no answer to what share of revenue it was)."""
    if "per_share" in kinds and value.kind in ("currency", "shares"):
        return False
    if "share_of" in kinds and value.kind in ("currency", "shares", "per_share", "count"):
        return False
    if "count" in kinds and value.kind in ("percent", "percent_points", "per_share", "currency"):
        return False
    if "amount" in kinds and value.kind in ("percent", "percent_points", "ratio"):
        return False  # a line item's amount (a formula's input), not a change in it printed as a percentage
    return True


def rate_answers(kinds: frozenset[str], value: Evaluated) -> bool:
    """A percentage asked ("gross margin percentage") is not answered by an amount (the gross
    margin's dollars). Checked on the answer only: a growth rate is computed from amounts."""
    return "percentage" not in kinds or value.kind not in ("currency", "shares", "per_share", "count")
