"""What every answerer is given and gives back: ``answer(plan, evidence) -> Draft | None``.

An answerer reads what was asked from the plan (never the question's words) and what the filings
print from the evidence: the retrieved pages, and a read-only view of the filings for the pages it
reads in full (a statement, a cover page). It returns None when the plan asks something it does
not answer; the asker's route table says which answerers each intent tries, in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from docqa.plan import QuestionPlan
from docqa.store.base import StoredPage
from docqa.types import Document, Draft, EvidencePage


class Filings(Protocol):
    """The read-only part of a store an answerer may use."""

    def document(self, document_id: str) -> Document | None: ...

    def documents(self) -> list[Document]: ...

    def page(self, document_id: str, number: int) -> StoredPage | None: ...

    def pages(self, document_id: str) -> list[StoredPage]: ...


@dataclass(frozen=True)
class Evidence:
    pages: tuple[EvidencePage, ...]
    filings: Filings | None = None   # None: the answerer reads the retrieved pages only

    @classmethod
    def of(cls, pages: list[EvidencePage] | tuple[EvidencePage, ...], filings: Filings | None = None) -> "Evidence":
        return cls(tuple(pages), filings)


class Answerer(Protocol):
    name: str

    def answer(self, plan: QuestionPlan, evidence: Evidence) -> Draft | None: ...


class ReadsFilings:
    """An answerer that reads whole filings (a cover page, every sentence of a filing): it answers
    only when given the read-only view of the store, and reads the question as the plan spells it."""

    def answer(self, plan: QuestionPlan, evidence: Evidence) -> Draft | None:
        if evidence.filings is None:
            return None  # reads whole filings, not only the retrieved pages
        return self._read(plan.asked, list(evidence.pages), plan, evidence.filings)

    def _read(self, question: str, evidence: list[EvidencePage], plan: QuestionPlan, store: Filings) -> Draft | None:
        raise NotImplementedError
