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

from docqa.finance.lexicon import load_lexicon
from docqa.plan import QuestionPlan
from docqa.store.base import Store
from docqa.types import Citation, Draft, EvidencePage

MAX_DOCUMENTS = 2
MAX_QUOTES = 2
MAX_SENTENCE = 600

_ASK = re.compile(
    r"^\W*(?:what|which|list|name)\s+(?:are|were)\s+(?P<head>.+?)"
    r"(?=\s+(?:as|per|in|of|that|which|according|described|for|from|during|at|does|did|do|has|have)\b|\s*[?.]|$)",
    re.I,
)
_COUNT = r"(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})"
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z])")
_NOT_LIST_NOUN = frozenset("years figures numbers amounts items results risks factors terms details drivers reasons "
                           "changes effects impacts trends".split())


def asked_noun(question: str) -> tuple[str, list[str]] | None:
    """The plural noun a list question asks for and the words qualifying it ("business")."""
    m = _ASK.match(question.strip())
    if not m:
        return None
    words = re.findall(r"[A-Za-z’']+", m.group("head"))
    if not words:
        return None
    noun = words[-1].lower()
    if not noun.endswith("s") or noun.endswith(("'s", "’s")) or noun in _NOT_LIST_NOUN or len(noun) < 5:
        return None
    qualifiers: list[str] = []
    for w in reversed(words[:-1]):
        if w.endswith(("'s", "’s")) or w.lower() in {"the", "its", "their", "our"}:
            break
        qualifiers.insert(0, w.lower())
    return noun, qualifiers[-2:]


def _enumerates(sentence: str, noun: str) -> re.Match | None:
    m = re.search(rf"\b{_COUNT}\s+(?:[\w-]+\s+){{0,2}}?{re.escape(noun)}\b", sentence, re.I)
    if not m:
        return None
    rest = sentence[m.end():]
    named = ":" in rest[:80] or (rest.count(",") >= 1 and re.search(r"\band\b", rest))
    return m if named else None


class ListAnswerer:
    name = "lists"

    def answer(self, question: str, evidence: list[EvidencePage], plan: QuestionPlan, store: Store) -> Draft | None:
        asked = asked_noun(question)
        if asked is None or load_lexicon().match(question):
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
