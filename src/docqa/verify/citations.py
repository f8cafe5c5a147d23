"""Rule: a citation survives only if its quote is on the page it names.

A quote that instructs the reader (an instruction planted in a filing) is never evidence, a
citation of a page that is not held is dropped, and the same quote of the same page counts once.
"""

from __future__ import annotations

from dataclasses import dataclass

from docqa.injection import looks_like_instruction
from docqa.text import normalize_for_match
from docqa.types import Citation
from docqa.verify.quotes import quote_on_page

REASON_NO_CITATIONS = "the answer cites no evidence"
REASON_CITATIONS_NOT_FOUND = "the answer's citations could not be found on the cited pages"

CitationKey = tuple[str, int, str]


def citation_key(citation: Citation) -> CitationKey:
    """One quote of one page, however it is spaced or cased."""
    return (citation.document_id, citation.page, normalize_for_match(citation.quote))


@dataclass(frozen=True)
class Cited:
    """The citations that survive (each once, in order), how many were dropped, and their keys."""

    kept: tuple[Citation, ...]
    dropped: int
    seen: frozenset[CitationKey]

    def reason(self, offered: tuple[Citation, ...]) -> str | None:
        """Why nothing is left: no citation offered, or none found on its page."""
        if self.kept:
            return None
        return REASON_CITATIONS_NOT_FOUND if offered else REASON_NO_CITATIONS


def on_their_pages(citations: tuple[Citation, ...], pages: dict[tuple[str, int], str]) -> Cited:
    """Keep the citations whose quote is printed on the page they name."""
    kept: list[Citation] = []
    seen: set[CitationKey] = set()
    dropped = 0
    for citation in citations:
        text = pages.get((citation.document_id, citation.page))
        ok = (
            text is not None
            and not looks_like_instruction(citation.quote)
            and quote_on_page(citation.quote, text)
        )
        if not ok:
            dropped += 1
            continue
        key = citation_key(citation)
        if key not in seen:
            seen.add(key)
            kept.append(citation)
    return Cited(tuple(kept), dropped, frozenset(seen))
