"""A level asked of a figure a filing states only in a sentence: "did Adobe repurchase more than 15
million shares in fiscal 2022" against "we repurchased a total of 15.7 million shares", "was the CET1
ratio above 14%" against "the Standardized CET1 capital ratio was 13.8%".

Runs after the tables found no figure. The figure is read as ``sentence_figures`` reads one (every
word of what the level is a level of, ``plan.judged``; an amount of the kind the level names: a
percentage, money, or a count of the noun after it; the period asked); sentences whose figures
fall on both sides of the level give no verdict.
"""

from __future__ import annotations

from docqa.answer.contract import Evidence
from docqa.answer.sentence_figures import Stated, asked_words, stated_for
from docqa.plan import QuestionPlan
from docqa.types import Citation, Draft

ANSWERER = "sentence level"


class SentenceThresholdAnswerer:
    name = ANSWERER

    def answer(self, plan: QuestionPlan, evidence: Evidence) -> Draft | None:
        level = plan.threshold
        if plan.judgement != "threshold" or level is None or not plan.judged or plan.moves is not None:
            return None
        subject, hard = asked_words(plan, plan.judged)
        kind = "percent" if level.unit == "%" else "count" if level.noun else "currency" if level.unit == "$" else ""
        if not hard or not kind:
            return None
        found = stated_for(plan, evidence, hard, kind, level.noun)
        if not found:
            return None
        verdicts = {_above(s, level.level) for s in found}
        if len(verdicts) > 1:
            return None  # figures on both sides of the level: which one is asked is not clear
        best = min(found, key=lambda s: (s.gap, s.rank))
        return _draft(best, subject, plan)


def _above(found: Stated, level: float) -> bool | None:
    value = found.number.magnitude
    return None if value == level else value > level


def _draft(found: Stated, subject: str, plan: QuestionPlan) -> Draft:
    level = plan.threshold
    assert level is not None
    value = found.number.magnitude
    holds = value >= level.level if level.words.startswith("at least") else \
        value <= level.level if level.words.startswith("at most") else \
        (value > level.level) == level.above
    side = "above" if value > level.level else "below" if value < level.level else "equal to"
    label = subject[:1].upper() + subject[1:]
    page = found.page
    return Draft(
        text=(f"{'Yes' if holds else 'No'}. {label} was {found.number.raw}, {side} the level asked about "
              f"(as stated: “{found.sentence}”, {page.document} p. {page.page})."),
        found=True, answerer=ANSWERER, measure=label,
        citations=(Citation(document=page.document, document_id=page.document_id, page=page.page, quote=found.sentence),))
