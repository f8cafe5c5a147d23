"""Narrative lists: "What are X's reportable segments?" is answered by the sentence in which the
filing counts and names them ("we operate in four business segments: Aeronautics, ..."), read
from the filing's full text, not by whichever line shares the most words with the question.

The mechanism needs no list of what can be enumerated: the question names a plural noun, and a
filing sentence that states a count of that noun and then names its members (a colon, or a run
of commas ending in "and") is the answer. Sentences that count the noun without naming anything
("two segments were combined") are not.
"""

from __future__ import annotations

import re

from docqa.answer.contract import Filings, ReadsFilings
from docqa.plan import QuestionPlan
from docqa.types import Citation, Draft, EvidencePage

MAX_DOCUMENTS = 2
MAX_QUOTES = 2
MAX_SENTENCE = 600

_COUNT = r"(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})"
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z])")
def _enumerates(sentence: str, noun: str) -> re.Match | None:
    m = re.search(rf"\b{_COUNT}\s+(?:[\w-]+\s+){{0,2}}?{re.escape(noun)}\b", sentence, re.I)
    if not m:
        return None
    rest = sentence[m.end():]
    named = ":" in rest[:80] or (rest.count(",") >= 1 and re.search(r"\band\b", rest))
    return m if named else None


class ListAnswerer(ReadsFilings):
    name = "lists"

    def _read(self, question: str, evidence: list[EvidencePage], plan: QuestionPlan, store: Filings) -> Draft | None:
        asked = plan.list_noun
        if asked is None or plan.measures:
            return None  # "what were net sales" names a figure, not a list
        noun, qualifiers = asked
        ids = [i for g in plan.groups for i in g.document_ids] or [e.document_id for e in evidence[:1]]
        docs = [d for d in (store.document(i) for i in dict.fromkeys(ids)) if d is not None]
        # the annual filing describes the business whole; a quarter's report describes changes
        docs.sort(key=lambda d: (not (d.meta.doc_type and d.meta.doc_type.is_annual), -(d.meta.fiscal_year or 0)))
        found: list[tuple[int, Citation]] = []
        for doc in docs[:MAX_DOCUMENTS]:
            doc_id = doc.id
            for page in store.pages(doc_id):
                text = " ".join(row.strip() for row in page.text.split("\n") if row.strip())
                for sentence in _SENTENCE.split(text):
                    if len(sentence) > MAX_SENTENCE or not _enumerates(sentence, noun):
                        continue
                    score = sum(q in sentence.lower() for q in qualifiers) * 2 - page.number / 1000
                    found.append((score, Citation(document=doc.file_name, document_id=doc_id, page=page.number,
                                                  quote=sentence.strip())))
            if found:
                break  # one filing answers: the first (annual, latest) that names the members
        if not found:
            return None
        found.sort(key=lambda f: -f[0])
        quotes: list[Citation] = []
        for _score, citation in found:
            if all(c.quote != citation.quote for c in quotes):
                quotes.append(citation)
            if len(quotes) == MAX_QUOTES:
                break
        text = " … ".join(f"“{c.quote}” (p. {c.page})" for c in quotes)
        return Draft(text=text, found=True, citations=tuple(quotes), answerer=self.name, measure=None)
