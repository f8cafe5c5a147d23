"""How questions join the members of a list and name a month: shared by the readings of parts."""

from __future__ import annotations

import re

MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
# "A, B and C", "A & B"
LIST_JOIN = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)"
# Joiners of a list's items, each item's article after it dropped: "A vs B", "A and its B", "A, as well as B"
VERSUS = r"\s+(?:vs\.?|versus)\s+"
VS_JOIN = re.compile(VERSUS, re.I)
AND_JOIN = re.compile(r"\s+(?:and|&)\s+(?:(?:the|its|their)\s+)?", re.I)
ALONG_JOIN = re.compile(r",?\s+(?:as\s+well\s+as|along\s+with|together\s+with)\s+(?:(?:the|its|their)\s+)?", re.I)
# A period that closes a side: "at June 30, 2023", "in fiscal 2023", "in the 2021 cash flow statement".
CLOSING_PERIOD = re.compile(rf"\b(?:in|for|during|at|as\s+of|on|over|by)\s+(?:the\s+)?(?:end\s+of\s+)?(?:(?:fiscal|financial|calendar)\s+)?"
                     rf"(?:year\s+)?(?:fy\s?\d{{2,4}}\b|q[1-4]\b|(?:19|20)\d\d\b|{MONTH}\s+\d{{1,2}},?\s+(?:19|20)\d\d\b|"
                     rf"\d{{1,2}}\s+{MONTH}\s+(?:19|20)\d\d\b)", re.I)

# "its Europe, Middle East and Africa segment": places listed before a singular noun name one part
# (a plural one, "the Domestic and International segments", hands out several)
_CAPITALISED = r"[A-Z][\w.&-]*(?:\s+[A-Z][\w.&-]*)*"
ONE_NAMED_PART = re.compile(rf"(?<![\w'\u2019.&-])(?P<name>{_CAPITALISED}(?:,\s*{_CAPITALISED})+,?\s+(?:and|&)\s+{_CAPITALISED})\s+"
                            r"(?:segment|region|division|business|unit|market|area|sector|group)\b(?!s)")


def of_one_kind(items) -> bool:
    """Phrases of two words or more that all start with the same word: "Fios internet connections and
    Fios video connections" are two things of one kind, not one line's name."""
    return all(len(i.split()) >= 2 for i in items) and len({i.split()[0].lower() for i in items}) == 1
