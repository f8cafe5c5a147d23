"""Rule: whose filing. An answer about one company stands on that company's filings only.

Citations of other companies' filings are dropped; a figure read from one, or one formula fed by
two companies' figures, refuses the answer outright.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from docqa.types import Document, Draft

REASON_OTHER_COMPANIES = "the answer cited only other companies' filings than the one asked about"


@dataclass(frozen=True)
class Grounding:
    """Whose filings an answer may stand on.

    ``allowed`` holds the document ids and file names of the question's company (or companies, or
    the documents it was scoped to); empty means the question named none and the index holds one company or
    the caller scoped nothing. ``company_of`` maps document ids and file names to their company.
    Whatever ``allowed`` says, one answer's figures come from one company's filings unless the
    question compares companies. ``filings`` are the documents by id, for the period each reports
    (verify.stated: a quarterly report prints no total of the year it is part of).
    """

    allowed: frozenset[str] = frozenset()
    company_of: Mapping[str, str | None] = field(default_factory=dict)
    companies_asked: int = 0
    filings: Mapping[str, Document] = field(default_factory=dict)

    def company(self, document: str | None) -> str | None:
        return self.company_of.get(document or "")


def _ground(draft: Draft, grounding: Grounding) -> tuple[Draft, int, str | None]:
    """The draft with citations of other companies' filings removed, how many were, and a reason
    to refuse it outright: a figure read from another company's filing, or one formula fed by two
    companies' figures."""
    dropped = 0
    if grounding.allowed:
        foreign = [f for f in draft.figures if not f.computed and f.document and f.document not in grounding.allowed]
        if foreign:
            f = foreign[0]
            return draft, 0, (f"the figure {f.text!r} was read from {f.document} "
                              f"({grounding.company(f.document) or 'company unknown'}), not a filing of the company asked about")
        kept = tuple(c for c in draft.citations if c.document_id in grounding.allowed)
        dropped = len(draft.citations) - len(kept)
        draft = draft.model_copy(update={"citations": kept})
    if grounding.companies_asked <= 1 and draft.figures:
        sources = {grounding.company(f.document) for f in draft.figures if not f.computed and f.document}
        sources |= {grounding.company(c.document_id) for c in draft.citations}
        if len(sources) > 1:
            shown = ", ".join(sorted(s or "company unknown" for s in sources))
            return draft, dropped, f"the answer's figures come from more than one company's filings ({shown})"
    return draft, dropped, None


def ground(draft: Draft, grounding: Grounding | None) -> tuple[Draft, int, str | None]:
    """The draft on the asked company's filings, the citations dropped, and a reason to refuse it
    (also when no citation is left). Without a grounding every filing may stand."""
    if grounding is None:
        return draft, 0, None
    draft, dropped, refused = _ground(draft, grounding)
    if refused is None and not draft.citations:
        refused = REASON_OTHER_COMPANIES
    return draft, dropped, refused
