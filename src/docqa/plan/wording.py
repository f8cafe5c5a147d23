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


# "Corning FY22: did net income go up vs 2021?", "Nike fiscal 2023 — was gross margin above 40%?",
# "During 2022, did Lockheed raise its dividend?", "MGM Q2 2023: for the six months ended June 30,
# 2023, did ...": a label before the question proper.
_LABEL_FIRST = re.compile(
    r"^\s*(?P<label>(?:[^?:;\u2013\u2014]{2,80}?\s*(?::|\s[\u2013\u2014-]+)\s*)?"
    # "for the six months ended June 30, 2023, did ...": the period's own comma is no label's end
    r"(?:during|in|for|over|as\s+of|at|from)\s[^?:;]{2,60}?,|"
    r"[^?:;\u2013\u2014]{2,80}?\s*(?::|\s[\u2013\u2014-]+))\s*"
    r"(?P<asked>(?:is|are|was|were|does|do|did|has|have|had|can|will)\b[^?]*)(?P<end>\??)\s*$", re.I)


def question_first(question: str) -> str:
    """A yes/no question proper first and its label after it ("did net income go up vs 2021, Corning
    FY22?"), so that what reads how a question opens reads its own first word. (A figure's
    question reads a label before "what" already: "In FY2022, what ...".)"""
    found = _LABEL_FIRST.match(question)
    if found is None:
        return question
    label = found.group("label").strip().rstrip(":,-\u2013\u2014 ")
    label = label[:1].lower() + label[1:] if re.match(r"(?:During|In|For|Over|As|At|From)\b", label) else label
    asked = found.group("asked").strip()
    return f"{asked[:1].upper()}{asked[1:]}, {label}{found.group('end') or '?'}"
