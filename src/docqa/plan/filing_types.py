"""Filing-type slot: "10-K", "quarterly report", "8-K", "earnings release"."""

from __future__ import annotations

import re

from docqa.types import DocType

# "annual and quarterly reports" names two types with one noun, so each type's words may stand
# before or after the other's ("quarterly and annual reports").
_OTHER = r"(?:(?:annual|quarterly)\s+(?:and|or|&)\s+)?"
_AND_OTHER = r"(?:\s+(?:and|or|&)\s+(?:annual|quarterly))?"

_DOC_TYPES = [
    (re.compile(rf"\b10-?k\b|(?<!semi-)(?<!semi){_OTHER}annual{_AND_OTHER}\s+reports?\b", re.I), DocType.ANNUAL),
    (re.compile(r"\b20-?f\b", re.I), DocType.F20),
    (re.compile(r"\b40-?f\b", re.I), DocType.F40),
    (re.compile(rf"\b10-?q\b|{_OTHER}quarterly{_AND_OTHER}\s+reports?\b"
                r"|\b(?:half[- ]?year(?:ly)?|interim|semi-?annual)\s+(?:financial\s+)?reports?\b", re.I),
     DocType.QUARTERLY),
    (re.compile(r"\b8-?k\b|current report", re.I), DocType.CURRENT),
    (re.compile(r"earnings (?:release|report|call)|press release|results (?:announcement|release)", re.I), DocType.EARNINGS),
]


def detect_doc_types(question: str) -> list[DocType]:
    return [dt for pattern, dt in _DOC_TYPES if pattern.search(question)]
