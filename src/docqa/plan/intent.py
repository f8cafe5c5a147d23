"""What kind of answer a question's words ask for, shared by the answerers."""

from __future__ import annotations

import re

from typing import TYPE_CHECKING

from docqa.plan.wording import without_provisos

if TYPE_CHECKING:
    from docqa.plan.model import Intent, QuestionPlan

# "due to" a cause, not "due to pay" / "due to be repaid" (an amount falling due)
WHY = re.compile(r"\b(?:why|drove|drive[sn]?|drivers?|reasons?|caus\w*|explain\w*|due\s+to(?!\s+(?:be\s+)?"
                 r"(?:pay|paid|repa\w*|settle\w*|mature|matures|expire|fund\w*|be\s+paid)\b))\b", re.I)


def asks_why(question: str) -> bool:
    """"What drove ...", "why did ...": the filing's explanation is the answer, not a figure."""
    return WHY.search(without_provisos(question)) is not None


# An open question ("what are ...", "describe ...", "how does ... manage ..."): one a passage answers.
_OPEN = re.compile(r"^\W*(?:what|how|describe|summari[sz]e|discuss|explain|outline|tell|give|provide|list|"
                   r"which|can\s+you|please)\b", re.I)


# One pattern for "is / did / has X ...?" questions, wherever a verdict is told apart.
YES_NO = re.compile(r"^\W*(?:is|are|does|do|did|has|have|had|was|were|can|will)\b", re.I)


_WORDED_YES_NO = re.compile(
    r"^\s*(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|shall|may|might|must)\b", re.I
)


def worded_as_yes_no(question: str) -> bool:
    """Worded as a yes/no question, modal verbs included ("should", "might"): how a labeller files
    it, a wider net than the verdicts the answerers give (``asks_verdict``)."""
    return _WORDED_YES_NO.match(question) is not None


def asks_verdict(question: str) -> bool:
    """"Is / did / has X ...?": a yes or no is asked, with the figures or lines that decide it."""
    return YES_NO.match(question) is not None


def classify(plan: "QuestionPlan") -> "Intent":
    """The plan's intent, from its slots: a count, an event the filing reports, a verdict on a
    figure, an explanation, a figure, or the lines that answer."""
    from docqa.plan.model import Intent
    from docqa.plan.topic import asks_deal, asks_event, asks_passive_event, topic_is_a_line

    if plan.statistic is not None:
        return Intent.STATISTIC
    if plan.parts:
        return Intent.PARTS
    if plan.ranked is not None:
        return Intent.RANK  # "which segment had the highest operating income": a member of a group, never the total
    question = plan.asked
    # "Did X pay dividends in 2022?" names a statement line: its printed figure answers first
    # ("a goodwill impairment" is an event that a goodwill balance does not answer).
    # a figure's direction or level ("did paid memberships increase", "did X pay more than $1 billion in
    # dividends") is read from the figure, whatever verb of an event the question holds
    on_a_line = (plan.sign or (plan.on_a_figure and plan.judgement != "compare")
                 or (plan.judgement == "exists" and topic_is_a_line(question)))
    if asks_event(question) and not on_a_line:
        return Intent.EVENT
    if plan.judgement is None and not plan.measures and asks_passive_event(question):
        return Intent.EVENT  # "was an impairment recorded on X?", "were the notes issued in June?"
    if plan.fact is not None:
        return Intent.FILING_FACT
    if plan.list_noun is not None and not plan.measures:
        return Intent.LIST
    if plan.judgement is not None:
        return Intent.YES_NO
    if plan.discussed and not plan.verdict:
        return Intent.SECTION  # "what does X say about competition", "how does X recognize revenue"
    if plan.why:
        return Intent.WHY
    if plan.measures:
        return Intent.VALUE
    if plan.verdict and asks_deal(question):
        return Intent.EVENT  # "did X sell Y": the filing states it happened, or it says nothing of it
    if plan.section_items and not plan.verdict and _OPEN.match(question):
        return Intent.SECTION
    return Intent.TEXT
