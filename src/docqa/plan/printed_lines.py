"""A line item's whole phrase, when a filing prints it as a row's label, is that line.

"Interest paid on debenture with warrants", "intangible assets with indefinite lives", "operating
cash flows paid for operating leases", "cash and cash equivalents and short-term investments": the
lexicon names a line inside each ("interest paid", "intangible assets"), and a preposition or a
conjunction would end the item's own words (plan/measures.py reads those). Whether the words that
follow belong to the line is decided by the filings, not by a list: the plan asks the index whether
a stored table prints the question's whole phrase as a row's label, and where one does, the item runs
on (only a row printing those words answers it).
"""

from __future__ import annotations

import re

from docqa.finance.lexicon import MetricMatch
from docqa.plan.names import LabelCheck

# where the line's phrase starts: after the owner's possessive, the question's frame or a label's colon
_START = re.compile(r"['\u2019]s?\s+|^\W*(?:what|how\s+much|how\s+many)\s+(?:was|were|is|are|did|does)\s+(?:the\s+)?"
                    r"|(?<!\d),\s+|[:;?]\s+|\b(?:what|how\s+much)\s+(?:was|were|is|are)\s+(?:the\s+)?", re.I)
# where it ends: the period, a clause's punctuation, the question's next verb
_END = re.compile(r"\s+(?:in|for|during|at|as\s+of|on|over|through|from|by)\s+(?:the\s+)?(?:(?:first|second|third|fourth|"
                  r"full|whole|latest|most\s+recent|last|prior|previous|current)\s+)?(?:fiscal|fy|calendar|(?:19|20)\d\d\b|"
                  r"q[1-4]\b|years?\b|quarters?\b|half\b|three|six|nine|twelve|end\b|close\b|period|"
                  r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)"
                  r"|\s*[?,;:!]|\s+(?:and|or)\s+(?:what|how|which|its|their)\b|\s+(?:was|were|is|are|did|does)\b|$", re.I)
_MIN_EXTRA_WORDS = 1
_MAX_WORDS = 10


def printed_line(question: str, matches: tuple[MetricMatch, ...] | list[MetricMatch], printed: LabelCheck | None,
                 companies: tuple[str, ...] = ()) -> tuple[str, frozenset[tuple[int, int]]]:
    """The question's line phrase, when a stored table (of the companies' filings) prints it as a row's
    label and it says more than a lexicon item in it, with the spans of the items it holds; else ("", {})."""
    if printed is None:
        return "", frozenset()
    metrics = [m for m in matches if m.kind == "metric"]
    found = _phrase(question, metrics[0].span if metrics else None)
    if found is None:
        return "", frozenset()
    for phrase, (start, end) in _with_comma_qualifier(question, *found):
        inside = [m for m in metrics if start <= m.span[0] and m.span[1] <= end]
        if all(_more_than(phrase, m.text) for m in inside) and printed(phrase, companies):
            return phrase, frozenset(m.span for m in inside)
    return "", frozenset()


# "deferred revenue, non-current", "long-term debt, net of current portion": a qualifier a label prints
# after a comma, one to four words in lower case before the period or the question's end
_COMMA_QUALIFIER = re.compile(r",\s+((?:[a-z][\w-]*\s+){0,3}[a-z][\w-]*)(?=\s+(?:in|for|at|as\s+of|during|on)\s+"
                              r"(?:the\s+)?(?:fiscal|fy|calendar|year|quarter|end|(?:19|20)\d\d)\b|\s*[?.]?\s*$)")


def _with_comma_qualifier(question: str, phrase: str, at: tuple[int, int]) -> list[tuple[str, tuple[int, int]]]:
    """The phrase with the qualifier after its comma; the phrase alone only when no qualifier follows it
    ("receivables, at amortized cost for billed" is not the receivables the bare words print)."""
    after = _COMMA_QUALIFIER.match(question, at[1])
    if after is not None:
        return [(question[at[0]:after.end(1)], (at[0], after.end(1)))]
    if _QUALIFIED_AFTER.match(question, at[1]):
        return []
    return [(phrase, at)]


# a comma, then words that are no new clause's: the phrase before it is qualified
_QUALIFIED_AFTER = re.compile(r",\s+(?!(?:and|or|but|what|how|which|its|their|respectively|as\s+well|in\s+(?:fiscal|(?:19|20)\d\d))\b)"
                              r"[a-z]", re.I)


def _phrase(question: str, anchor: tuple[int, int] | None) -> tuple[str, tuple[int, int]] | None:
    """The words from the owner (or the frame) to the period around a line item, or after the owner
    when the lexicon names none: "interest paid on debenture with warrants", and where they are."""
    if anchor is None:  # the line runs from the frame or the owner (or the question's start) to the period
        first = _START.search(question)
        begin = first.end() if first is not None else 0
        end_at = _END.search(question, begin)
        anchor = (begin, begin) if end_at is None else (end_at.start(), end_at.start())
    starts = list(_START.finditer(question[:anchor[0]]))
    start = starts[-1].end() if starts else 0
    end_at = _END.search(question, anchor[1])
    end = end_at.start() if end_at else len(question)
    text = question[start:end]
    lead = re.match(r"\s*(?:(?:the|its|their)\s+)?", text)
    phrase = text[lead.end():].strip()
    if not 2 <= len(re.findall(r"[A-Za-z]+", phrase)) <= _MAX_WORDS:
        return None  # a line is named in words: not a date's year, nor a sentence
    return phrase, (start + lead.end(), start + lead.end() + len(phrase))


def _more_than(phrase: str, item: str) -> bool:
    own = {w.lower() for w in re.findall(r"[A-Za-z]+", item)}
    return len([w for w in re.findall(r"[A-Za-z]+", phrase) if w.lower() not in own and w.lower() != "total"]) >= _MIN_EXTRA_WORDS
