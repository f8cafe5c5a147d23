"""The question's words that say what is asked, apart from those that say how to answer."""

from __future__ import annotations

import re

_PROVISO = re.compile(r"(?:^|(?<=[.;?]))\s*if\b[^.;?]*\b(?:state|explain|say)\b[^.;?]*[.;?]?", re.I)


def without_provisos(question: str) -> str:
    """The question without "If X is not a useful metric ..., state that and explain why": a
    caveat about the answer's form, not what is asked."""
    return _PROVISO.sub(" ", question)


_SENTENCES = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")
_INSTRUCTION = re.compile(
    r"^(?:please\s+)?(?:answer|round|give|calculate|compute|provide|base|basing|use|using|assume|respond|reply|"
    r"express|report|show|state|explain|do not|don't|address|utilize|you are|if\b.*\b(?:not|isn't)\b.*"
    r"\b(?:useful|relevant|meaningful|applicable)\b)",
    re.I,
)


def content_text(question: str) -> str:
    """The question without the instructions around it ("Round to two decimals.", "Assume you are
    an analyst.", "If X is not a useful metric, say so."): they say how to answer, not where."""
    kept = []
    for sentence in _SENTENCES.split(question.strip()):
        sentence = sentence.strip()
        if not _INSTRUCTION.match(sentence):
            kept.append(sentence)
        elif ":" in sentence:  # "Answer the following question ...: what is the FY2018 net PPNE?"
            kept.append(sentence.rsplit(":", 1)[1].strip())
    return " ".join(kept) if kept else question


_BOILERPLATE = re.compile(r"forward[\s-]looking\s+statements?|safe\s+harbor|cautionary\s+(?:note|statement)", re.I)


def asks_about_boilerplate(question: str) -> bool:
    """"What do the forward-looking statements cover?": the boilerplate is what is asked."""
    return _BOILERPLATE.search(question) is not None
