"""Filing-type slot: "10-K", "quarterly report", "8-K", "earnings release"."""

from __future__ import annotations

import re

from docqa.types import DocType

_DOC_TYPES = [
    (re.compile(r"\b10-?k\b|annual report", re.I), DocType.ANNUAL),
    (re.compile(r"\b10-?q\b|quarterly report", re.I), DocType.QUARTERLY),
    (re.compile(r"\b8-?k\b|current report", re.I), DocType.CURRENT),
    (re.compile(r"earnings (?:release|report|call)|press release|results (?:announcement|release)", re.I), DocType.EARNINGS),
]



def detect_doc_types(question: str) -> list[DocType]:
    return [dt for pattern, dt in _DOC_TYPES if pattern.search(question)]
