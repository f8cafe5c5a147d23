"""``verify``: a draft through every rule, in order; the first rule that refuses it decides."""

from __future__ import annotations

from docqa.plan import QuestionPlan, build_plan
from docqa.types import Answer, Draft
from docqa.verify.citations import on_their_pages
from docqa.verify.claims import check_claims
from docqa.verify.figures import supported
from docqa.verify.grounding import Grounding, ground
from docqa.verify.measure import measure_refusal
from docqa.verify.repeats import without_dropped_quotes
from docqa.verify.stated import not_stated
from docqa.verify.verdict import found, not_found, passed_through


def verify(draft: Draft, asked: QuestionPlan | str, pages: dict[tuple[str, int], str],
           grounding: Grounding | None = None) -> Answer:
    """Keep what the cited pages support; say "not found" when nothing verifiable is left. ``asked``
    is the question's plan (a bare question is planned here, against no documents)."""
    plan = asked if isinstance(asked, QuestionPlan) else build_plan(asked, [])
    question = plan.question
    if not draft.found:
        return passed_through(draft, question)
    offered = draft.citations
    draft, dropped, refused = ground(draft, grounding)  # whose filing
    if refused:
        return not_found(draft, question, refused, dropped)
    if refused := measure_refusal(draft, plan):  # the asked measure
        return not_found(draft, question, refused, dropped)
    cited = on_their_pages(draft.citations, pages)  # quotes on the page
    dropped += cited.dropped
    if refused := cited.reason(draft.citations):
        return not_found(draft, question, refused, dropped)
    draft, refused = without_dropped_quotes(draft, offered, cited)
    if refused:
        return not_found(draft, question, refused, dropped)
    # a figure asked, answered by sentences: one states the measure's amount for the period asked
    # (a formula computes it from the lines it quotes, which the arithmetic rule checks)
    if not draft.formula and (refused := not_stated(cited.kept, plan, grounding.filings if grounding else None,
                                                    draft.figures)):
        return not_found(draft, question, refused, dropped)
    support = supported(draft, cited.kept, pages)  # figures on the page, arithmetic that adds up
    claims = check_claims(draft, question, support)  # numbers on the page
    if claims.refused:
        return not_found(draft, question, claims.refused, dropped, claims.unverified)
    return found(draft, question, cited.kept, support.figures(draft), dropped, claims.unverified)
