"""A question put about a statement, asked as the statement's own question: "Is it true that
Square acquired Credit Karma Tax in 2020?" is "Did Square acquire Credit Karma Tax in 2020?", and
"Can you confirm that KPMG was ratified as auditor?" is "Was KPMG ratified as auditor?". Every
reader of the plan then reads the question the statement asks, not "it" and "true"."""

from __future__ import annotations

import re

from docqa.plan.topic import verb_base

_ABOUT_A_STATEMENT = re.compile(
    r"^(?P<lead>[^?]{0,80}?[,:\u2013\u2014-]\s*)?(?:(?:is|was)\s+it\s+(?:really\s+)?(?:true|correct|accurate|right|"
    r"the\s+case)\s+(?:to\s+say\s+)?that|(?:can|could)\s+you\s+confirm\s+(?:that|whether|if)|"
    r"(?:please\s+)?confirm\s+(?:that|whether|if)|true\s+or\s+false\s*[:,\u2013\u2014-]|"
    r"do(?:es)?\s+(?:the\s+(?:filing|report|10-?k|10-?q)|it)\s+(?:show|confirm|state|say)\s+that)\s+(?P<said>[^?]+?)\s*"
    r"(?P<end>\?|\.(?!\d)|$)\s*(?P<after>.*)$", re.I | re.S)  # "$3.5 billion": no full stop
# "..., yes or no?", "(Y/N)": how to answer, not what is asked
_ANSWER_FORM = re.compile(r"\s*[,;:(\u2013\u2014-]*\s*\(?\b(?:yes\s+or\s+no|yes/no|y/n|true\s+or\s+false)\b\)?\s*[?.]?\s*$",
                          re.I)
_MAX_SUBJECT_WORDS = 8


# "Yes or no: did ...", "Y/N - was ...": the same, first
_ANSWER_FORM_FIRST = re.compile(r"^\s*\(?\b(?:yes\s+or\s+no|yes/no|y/n)\b\)?\s*[:,;\u2013\u2014-]+\s*", re.I)


def without_answer_form(question: str) -> str:
    """"did the board declare a higher dividend? yes or no" without its last words ("Yes or no: did
    ..." without its first)."""
    question = _ANSWER_FORM_FIRST.sub("", question) or question
    trimmed = _ANSWER_FORM.sub("", question)
    return trimmed + ("?" if trimmed and not trimmed.endswith(("?", ".")) and question.rstrip().endswith("?") else "") \
        if trimmed != question and trimmed.strip() else question


# "How large an impairment of plant and equipment did X record", "how big was the buyback": an amount
_HOW_LARGE = re.compile(r"\bhow\s+(?:large|big|sizable|sizeable|high|substantial)\s+(?:(?:an?|the)\s+)?", re.I)


# "Even though net income fell, did EPS rise?": a premise the question grants, not what it asks
_PREMISE = re.compile(r"^\s*(?:even\s+though|even\s+if|although|though|despite|given\s+that)\b[^?]{2,120}?,\s*"
                      r"(?=(?:is|are|was|were|does|do|did|has|have|had|can|will|what|how|which)\b)", re.I)


def asked_directly(question: str) -> str:
    """``question`` as the yes/no question its statement asks, without a premise it grants, and an
    amount asked by its size ("how large an impairment") asked as "how much"; unchanged when it is
    none of these."""
    granted = _PREMISE.match(question)
    if granted is not None:
        question = question[granted.end():]
        question = question[:1].upper() + question[1:]
    question = _HOW_LARGE.sub(lambda m: "How much " if m.group(0)[:1].isupper() else "how much ",
                              without_answer_form(question))
    found = _ABOUT_A_STATEMENT.match(question.strip())
    if found is None:
        return question
    said = found.group("said").strip()
    direct = _as_question(said)
    if direct is None:
        return question
    lead = (found.group("lead") or "")
    after = found.group("after").strip()
    return f"{lead}{direct}?" + (f" {after}" if after else "")


def _as_question(said: str) -> str | None:
    """"KPMG was ratified as auditor" -> "Was KPMG ratified as auditor"; "Square acquired Credit
    Karma Tax" -> "Did Square acquire Credit Karma Tax"."""
    words = said.split()
    for i, word in enumerate(words[1:_MAX_SUBJECT_WORDS + 1], start=1):
        plain = word.lower().strip(",;:")
        if plain in {"was", "were", "is", "are", "has", "have", "had"}:
            subject = " ".join(words[:i])
            return f"{plain.capitalize()} {_lower_first(subject)} {' '.join(words[i + 1:])}".rstrip()
        base = verb_base(word.strip(",;:"), past=True)
        if base is not None:
            subject = " ".join(words[:i])
            return f"Did {_lower_first(subject)} {base} {' '.join(words[i + 1:])}".rstrip()
    return None


def _lower_first(text: str) -> str:
    """"The company" reads "the company" after the new first word; a name keeps its capital."""
    first = text.split(maxsplit=1)[0] if text else ""
    if first in {"The", "A", "An", "It", "Its", "Their", "Our", "We", "They"}:
        return first.lower() + text[len(first):]
    return text
