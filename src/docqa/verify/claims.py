"""Rule: numbers on the page. Every number the answer states is printed on a cited page, follows
from the draft's grounded figures and arithmetic, or is given in the question.

Years, item/note/page numbers, quarters and form names are references, not claims, and are not
checked; a constant of the shown formula's arithmetic ("365 *", "/ 2") is not a claim either.
"""

from __future__ import annotations

from dataclasses import dataclass

from docqa.types import Draft
from docqa.verify.figures import Support
from docqa.verify.numbers import CONSTANTS, Number, matches, numbers_in

REASON_NUMBERS = "none of the answer's figures ({}) are printed on the cited pages or follow from them"


@dataclass(frozen=True)
class Claims:
    """The answer's numbers and figures nothing grounds, and a reason to refuse the answer: it
    states numbers and none of them is grounded."""

    unverified: tuple[str, ...]
    refused: str | None


def _grounded(claim: Number, support: Support) -> bool:
    return (matches(claim, support.page_values)
            or matches(claim, support.input_values + support.trusted, percent_of_ratio=True))


def _excused(claim: Number, draft: Draft, question_values: list[float]) -> bool:
    if any(abs(claim.magnitude - q) <= claim.tolerance for q in question_values):
        return True  # the user's own number, restated
    # "365 *" or "/ 2" restating the shown formula's arithmetic
    return bool(draft.formula) and claim.magnitude in CONSTANTS and not claim.explicit


def check_claims(draft: Draft, question: str, support: Support) -> Claims:
    """Which of the answer's numbers and figures are grounded nowhere."""
    question_values = [n.magnitude for n in numbers_in(question)]
    claims = numbers_in(draft.text, claims_only=True)
    unverified: list[str] = []
    grounded = 0
    for claim in claims:
        if _grounded(claim, support):
            grounded += 1
        elif not _excused(claim, draft, question_values) and claim.raw not in unverified:
            unverified.append(claim.raw)
    for figure in draft.figures:
        if not support.stands(figure) and figure.text not in unverified:
            unverified.append(figure.text)
    refused = None
    if claims and grounded == 0 and len(unverified) > 0:
        refused = REASON_NUMBERS.format(", ".join(unverified[:5]))
    return Claims(tuple(unverified), refused)
