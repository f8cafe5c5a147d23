"""Line slot: "the largest current liability", "the biggest expense": a statement's largest or
smallest line of a kind, not a named line item."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ASKED = re.compile(
    r"\b(?P<word>largest|biggest|greatest|highest|smallest|lowest)\s+"
    r"(?P<scope>current\s+|non-?current\s+|long[\s-]term\s+)?(?:single\s+)?"
    r"(?P<what>liabilit(?:y|ies)|assets?|expenses?|costs?)\b",
    re.I,
)


@dataclass(frozen=True)
class LineAsked:
    largest: bool
    kind: str            # liabilities | assets | expenses
    scope: str | None    # current | noncurrent


def line_asked(question: str) -> LineAsked | None:
    m = _ASKED.search(question)
    if m is None:
        return None
    what = m.group("what").lower()
    kind = "liabilities" if what.startswith("liabilit") else "assets" if what.startswith("asset") else "expenses"
    scope_word = (m.group("scope") or "").strip().lower()
    scope = None if not scope_word else "current" if scope_word == "current" else "noncurrent"
    return LineAsked(m.group("word").lower() not in ("smallest", "lowest"), kind, scope)
