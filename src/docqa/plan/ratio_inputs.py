"""Parts that are the inputs of a ratio the question names: "operating expenses as a % of net sales
— give the two inputs: operating, selling, general and administrative expenses and net sales",
"REVPAR was $88 in 2020. What were the hotel occupancy and the average daily rate behind it?".
The ratio is the context; what is asked is each input, a figure of its own, for the owner and the
period the question gives the ratio.
"""

from __future__ import annotations

import re

from docqa.finance.lexicon import MetricMatch
from docqa.plan.list_words import MONTH

# "the two inputs: A and B", "its components - A, B", "the numerator and denominator: A and B"
_NAMED_INPUTS = re.compile(r"\b(?:the\s+|its\s+|their\s+)?(?:two\s+|three\s+)?(?:inputs|components|numerator\s+and\s+"
                           r"(?:the\s+)?denominator)\s*(?:\?\s*)?(?:[:\u2013\u2014]|\s-\s|,)\s*(?P<list>[^?]+?)\s*[?.]?\s*$", re.I)
# "What were A and B behind it?": the figures a stated ratio is made of
_BEHIND = re.compile(r"(?:^|[.?]\s+)(?P<ask>what\s+(?:were|was|are|is)\s+(?:the\s+)?)(?P<list>[^?]+?)\s+(?:behind|underlying|"
                     r"that\s+(?:make|made)\s+up|used\s+to\s+(?:compute|calculate)|going\s+into)\s+(?:it|that|this|them)\s*[?.]?\s*$",
                     re.I)
_AND = re.compile(r"\s*,?\s+(?:and|&)\s+(?:(?:the|its|their)\s+)?", re.I)
_PERIOD = re.compile(rf"\b(?:in|for|during|at|as\s+of)\s+(?:the\s+)?(?:(?:fiscal|financial)\s+(?:year\s+)?|fy\s?)?"
                     rf"(?:{MONTH}\s+\d{{1,2}},?\s+)?(?:19|20)\d\d\b|\b(?:fiscal\s+(?:year\s+)?|fy\s?)(?:19|20)?\d\d\b", re.I)


def by_inputs(question: str, measures: tuple[MetricMatch, ...]) -> tuple[str, ...]:
    """Each input asked of a ratio the question names, or () when it asks none."""
    named = _NAMED_INPUTS.search(question)
    behind = _BEHIND.search(question) if named is None else None
    found = named or behind
    if found is None:
        return ()
    items = _two_or_more(found.group("list"), [m.span for m in measures], found.start("list"))
    if len(items) < 2:
        return ()
    context = question[:found.start()]
    first = min((m.span[0] for m in measures if m.span[0] < found.start()), default=None)
    owner = context[:first] if first is not None else _owner_of(context)
    owner = re.sub(r"^\W*(?:for|of|at)\s+", "", owner.strip(" ,:;-\u2013\u2014"), flags=re.I)
    period = _PERIOD.search(question)
    when = f" {period.group(0)}" if period and period.group(0) not in f"{owner} {items[-1]}" else ""
    frame = f"{owner} " if owner else ""
    return tuple(f"{frame}{item}{when}?" for item in items)


def _two_or_more(text: str, protected: list[tuple[int, int]], offset: int) -> list[str]:
    """The listed inputs: cut at the last "and" outside a measure's words (an input's own commas and
    "and" stay: "operating, selling, general and administrative expenses"), and at commas before it
    only where each piece is no bare modifier."""
    free = [m for m in _AND.finditer(text)
            if not any(a < m.start() + offset < b for a, b in protected)]
    if not free:
        return []
    last = free[-1]
    left, right = text[:last.start()].strip(" ,"), text[last.end():].strip(" ,")
    return [item for item in (left, right) if item]


# The owner a ratio's context names: its leading run of capitalised words ("American Express's U.S.
# Consumer Services", "MGM's Las Vegas Strip Resorts"), less a short name that is the ratio's ("REVPAR").
_CAPITALISED = re.compile(r"^(?:(?:for|of|at|in)\s+)?(?P<owner>(?:[A-Z0-9][\w.&/'\u2019-]*\s+)*[A-Z0-9][\w.&/'\u2019-]*)")


def _owner_of(context: str) -> str:
    found = _CAPITALISED.match(context.strip())
    words = found.group("owner").split() if found else []
    if len(words) > 1 and len(words[-1]) > 1 and words[-1].isupper():
        words = words[:-1]
    return " ".join(words)
