"""What kind of answer a question's words ask for, shared by the answerers."""

from __future__ import annotations

import re

WHY = re.compile(r"\b(?:why|drove|drive[sn]?|drivers?|reasons?|caus\w*|explain\w*|due\s+to)\b", re.I)
_PROVISO = re.compile(r"(?:^|(?<=[.;?]))\s*if\b[^.;?]*\b(?:state|explain|say)\b[^.;?]*[.;?]?", re.I)


def without_provisos(question: str) -> str:
    """The question without "If X is not a useful metric ..., state that and explain why": a
    caveat about the answer's form, not what is asked."""
    return _PROVISO.sub(" ", question)


def asks_why(question: str) -> bool:
    """"What drove ...", "why did ...": the filing's explanation is the answer, not a figure."""
    return WHY.search(without_provisos(question)) is not None


_VERDICT = re.compile(r"^\W*(?:is|are|does|do|did|has|have|had|was|were|can|will)\b", re.I)


def asks_verdict(question: str) -> bool:
    """"Is / did / has X ...?": a yes or no is asked, with the figures or lines that decide it."""
    return _VERDICT.match(question) is not None
