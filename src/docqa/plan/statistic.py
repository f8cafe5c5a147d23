"""Statistic slot: "how many pages / words", "how many times is 'cloud' mentioned": a count over
a whole document, which search would only see in part."""

from __future__ import annotations

import re
from typing import Literal

from docqa.text import fold

StatsKind = Literal["pages", "words", "count"]
_QUOTES = "\"'`\u201c\u201d\u2018\u2019"

_PAGES = re.compile(
    r"\bhow\s+many\s+pages\b|\b(?:number|count)\s+of\s+pages\b|\bpage\s+count\b|\bhow\s+long\s+is\b.*\bin\s+pages\b",
    re.I,
)
_WORDS = re.compile(r"\bhow\s+many\s+words\b|\b(?:number|count)\s+of\s+words\b|\bword\s+count\b", re.I)

_VERB = r"(?:mentioned|mention|mentions|appear|appears|appeared|occur|occurs|occurred|used|cited|referenced|found|show\s+up|shows\s+up)"
_TAIL = r"(?:\s+(?:in|within|throughout|across|on)\b.*)?\s*[?.!]*\s*$"
_THE_TERM = r"(?:(?:the\s+)?(?:word|term|phrase|name|string|keyword)\s+)?"

_COUNT_PATTERNS = [
    # how many times is/does/do 'Y' mentioned/appear (in X)?
    re.compile(r"\bhow\s+(?:many\s+times|often)\s+(?:is|are|was|were|does|do|did|has|have)\s+" + _THE_TERM
               + r"(?P<term>.+?)\s+(?:been\s+)?" + _VERB + _TAIL, re.I),
    # how many times does X mention Y?
    re.compile(r"\bhow\s+(?:many\s+times|often)\s+(?:does|do|did)\s+[^?]+?\s+(?:mention|use|cite|reference|say)\s+"
               + _THE_TERM + r"(?P<term>.+?)" + _TAIL, re.I),
    # how many mentions/occurrences of Y (are there) (in X)?
    re.compile(r"\b(?:how\s+many|number\s+of|count\s+(?:the\s+)?)\s*(?:mentions|occurrences|instances|references|uses)\s+of\s+"
               + _THE_TERM + r"(?P<term>.+?)(?:\s+(?:are|is)\s+there)?" + _TAIL, re.I),
    # (the) number of times Y is mentioned / appears
    re.compile(r"\bnumber\s+of\s+times\s+" + _THE_TERM + r"(?P<term>.+?)\s+(?:is\s+|are\s+|was\s+)?" + _VERB + _TAIL, re.I),
    # how many pages mention/contain Y? (the answer is the pages_with_term)
    re.compile(r"\bhow\s+many\s+pages\s+(?:mention|contain|include|use|cite|reference|refer\s+to|discuss)\s+"
               + _THE_TERM + r"(?P<term>.+?)" + _TAIL, re.I),
    # count 'Y' in X
    re.compile(r"^\s*count\s+" + _THE_TERM + r"(?P<term>.+?)" + _TAIL, re.I),
]

# A quoted term: the opening mark starts a word and the closing one ends it ("Amazon's" is no quote).
_QUOTED = re.compile(r"(?<!\w)[\"'`]([^\"'`]{1,80}?)[\"'`](?!\w)")


def _clean_term(term: str) -> str | None:
    term = term.strip().strip(_QUOTES + " ,;:").strip()
    return term or None


def stats_question(question: str) -> tuple[StatsKind, str | None] | None:
    """("pages", None), ("words", None) or ("count", term) when the question asks for one; else None.

    Which document is meant is left to the caller (its filters or the names in the question).
    """
    # The question proper: what follows its "?" says how to answer ("Use cost of products sold ..."),
    # never what to count.
    text = fold(question).strip()
    text = text.split("?", 1)[0] + ("?" if "?" in text else "")
    for pattern in _COUNT_PATTERNS:
        match = pattern.search(text)
        if not match:
            continue
        # A quoted term is exact ("how many times does 'cloud computing' appear in Amazon's 10-K").
        quoted = _QUOTED.search(match.group(0))
        term = _clean_term(quoted.group(1)) if quoted else _clean_term(match.group("term"))
        if term:
            return ("count", term)
    if _PAGES.search(text):
        return ("pages", None)
    if _WORDS.search(text):
        return ("words", None)
    return None


__all__ = ["StatsKind", "stats_question"]
