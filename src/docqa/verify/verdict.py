"""The verdict: what the answer is once the rules have run.

``verified`` when everything was checked, ``partial`` when something was dropped but a cited,
grounded answer is left, ``passages`` when the quotes are proven but none is a line that answers,
``not_found`` when nothing verifiable is left (``found=False``, with a reason).
"""

from __future__ import annotations

from typing import Literal

from docqa.types import Answer, Citation, Draft, Figure

NOT_FOUND_TEXT = "Not found in the documents."
REASON_UNSUPPORTED = "the documents do not support an answer"

Status = Literal["verified", "partial", "passages"]


def _base(draft: Draft, question: str) -> dict:
    return dict(question=question, answerer=draft.answerer, formula=draft.formula, measure=draft.measure)


def not_found(draft: Draft, question: str, reason: str, dropped: int = 0, unverified: tuple[str, ...] = (),
              text: str = NOT_FOUND_TEXT) -> Answer:
    """The draft refused: nothing verifiable is left, for ``reason``."""
    return Answer(text=text, found=False, reason=reason, verification="not_found",
                  citations_dropped=dropped, numbers_unverified=unverified, **_base(draft, question))


def passed_through(draft: Draft, question: str) -> Answer:
    """A draft that found nothing is a not-found answer with the answerer's own reason and text."""
    return not_found(draft, question, draft.reason or REASON_UNSUPPORTED, text=draft.text or NOT_FOUND_TEXT)


def status(draft: Draft, dropped: int, unverified: tuple[str, ...]) -> Status:
    """Everything checked, something dropped, or proven quotes with no line that answers."""
    if not draft.decisive and not draft.figures:  # proven quotes, but no line that answers: say so
        return "passages"
    return "verified" if not dropped and not unverified else "partial"


def found(draft: Draft, question: str, citations: tuple[Citation, ...], figures: tuple[Figure, ...],
          dropped: int, unverified: tuple[str, ...]) -> Answer:
    """The answer the rules leave: the kept citations and the figures that stand."""
    return Answer(
        text=draft.text,
        found=True,
        reason=draft.reason,
        citations=citations,
        figures=figures,
        verification=status(draft, dropped, unverified),
        citations_dropped=dropped,
        numbers_unverified=unverified,
        **_base(draft, question),
    )
