"""Disclosure yes/no: "Did X mention / disclose / announce / report / record / outline Y?"

The verdict is decided by evidence in X's own filings for the period asked, read in full (every
page of the chosen filings, not only the retrieved ones):

* **Yes** when sentences speak to Y: every content word of Y (or, for the part of Y that names a
  known topic, one of the topic's printed forms from ``finance/topics.yaml``) occurs in one
  sentence, the sentence is not negated ("no goodwill impairment was recorded", "we did not ..."),
  and, for verbs that ask whether something happened (report, record, announce, disclose, approve,
  pay ...), the sentence states it rather than supposes it ("may", "could", "in the event of").
  The sentences are quoted as printed, each cited to its page.
* **No** otherwise, with the scope: which words were searched over which pages of which filing;
  a sentence that says Y did not happen is quoted as the reason.

A quote that does not speak to Y is never an answer. Questions about a figure's direction ("did
gross margin improve") are the figures answerer's; this one only takes the disclosure verbs.
"""

from __future__ import annotations

import re

from docqa.answer.contract import Filings, ReadsFilings
from docqa.answer.disclosure_sentences import (ADDRESSED, Found, after_the_period, dated_found, done_in_another_year,
                                               other_years, said_of_the_day, scan)
from docqa.plan import QuestionPlan
from docqa.plan.topic import Topic_, _words
from docqa.store.base import Store, StoredPage
from docqa.types import Citation, Document, Draft, EvidencePage

MAX_DOCUMENTS = 4      # the filings of the period asked; beyond them the question is elsewhere
MAX_QUOTES = 3
MAX_STATE_SLOTS = 3    # "is X subject to Y": a Y of more parts is a judgement, not a sentence to find

# --- the answerer ------------------------------------------------------------------------------------

class DisclosureAnswerer(ReadsFilings):
    """Yes with the passages that speak to the topic, or No with the scope that was searched."""

    name = "disclosure"

    def _read(self, question: str, evidence: list[EvidencePage], plan: QuestionPlan, store: Filings) -> Draft | None:
        if plan.sign or not plan.discloses or plan.on_a_figure:
            # a line's sign ("did X report a net loss") is its statement's, not a sentence's; a figure's
            # direction or level ("did paid memberships increase") is the figures', and a sentence that
            # merely names its words says nothing of it
            return None
        documents = self._documents(plan, evidence, store)
        if not documents:
            return None
        topic = plan.topic
        if topic is None or len(topic.slots) > MAX_STATE_SLOTS and topic.state and not topic.existential:
            return None
        found: list[Found] = []
        scope: list[tuple[Document, int]] = []
        first_pages: dict[str, StoredPage] = {}
        for doc in documents:
            pages = store.pages(doc.id)
            if not pages:
                continue
            scope.append((doc, len(pages)))
            first_pages[doc.id] = pages[0]
            found.extend(scan(pages, doc, topic))
        if not scope:
            return None
        said = [f for f in found if not f.negated and not (topic.event and f.supposed)]
        later: list[Found] = []   # stated, but after the period asked closed
        if topic.event and not topic.state:
            # That it happened, in the period asked: a past-tense verb or an amount ("we paid",
            # "dividends paid (3,369)"), not an infinitive in a list of what the company may do
            # ("opportunities to ... pay dividends"), nor a sentence dated only in other years
            # (Netflix's 2015 stock dividend, asked of 2017), nor an agreement addressed to "you".
            kept = [f for f in said if f.stated and not other_years(f.sentence, plan.years) and not ADDRESSED.search(f.sentence)
                    and not done_in_another_year(f.sentence, topic, plan.years)
                    and not after_the_period(f.sentence, plan.period_end)]
            later = [f for f in said if f.stated and after_the_period(f.sentence, plan.period_end)]
            supposed_too = [f for f in said if f not in kept and f not in later]
            said = kept
        elif topic.state and topic.topics:
            # "Did X have a stock split in 2017?": a known event asked as a state is still dated;
            # a sentence about the 2015 split does not speak of 2017.
            kept = [f for f in said if not other_years(f.sentence, plan.years)]
            supposed_too = [f for f in said if f not in kept]
            said = kept
        else:
            supposed_too = []
        denied = [f for f in found if f.negated]
        if topic.material:
            # A matter of some weight is one the filing reports as happening, with a date or an amount;
            # "we are party to various claims ... not material" is the filing's own word against it.
            said = [f for f in said if f.stated and not f.immaterial]
            denied += [f for f in found if f.immaterial and f not in denied]
        supposed = [f for f in found if not f.negated and f.supposed] + supposed_too
        if said and denied and plan.years and dated_found(denied, plan.years) and not dated_found(said, plan.years, amounts=True):
            # "None of our reporting units incurred any goodwill impairment charges in 2020" against
            # undated lines that only name the words: the filing's dated word decides
            said = []
        if said and denied and plan.balance_day and said_of_the_day(denied, plan.balance_day) \
                and not said_of_the_day(said, plan.balance_day):
            # "Was anything drawn on the revolver at December 31, 2022?": "(with zero drawn)" as of that
            # day answers it, not "the maximum borrowings during the year ended December 31, 2022"
            said = []
        if said:
            return self._yes(topic, said)
        if topic.state and not denied:
            return None  # nothing says so, and nothing says not: no verdict from absence for a state
        return self._no(topic, scope, denied, supposed, first_pages, later, plan.balance_day)

    def _documents(self, plan: QuestionPlan, evidence: list[EvidencePage], store: Store) -> list[Document]:
        ids: list[str] = []
        if plan.companies or any(g.document_ids for g in plan.groups):
            for group in plan.groups:
                ids.extend(i for i in group.document_ids if i not in ids)
        if not ids and evidence:
            ids = [evidence[0].document_id]
        docs = [d for d in (store.document(i) for i in ids[:MAX_DOCUMENTS]) if d is not None]
        return docs

    def _yes(self, topic: Topic_, said: list[Found]) -> Draft:
        said.sort(key=lambda f: -f.score)
        chosen: list[Found] = []
        for f in said:
            if any(f.sentence == c.sentence for c in chosen):
                continue
            # Spread over pages: a second quote from the same page only when nothing else is left.
            if any(c.page == f.page and c.document.id == f.document.id for c in chosen) and \
                    any(g.page != f.page for g in said if g not in chosen and g.sentence not in {c.sentence for c in chosen}):
                continue
            chosen.append(f)
            if len(chosen) == MAX_QUOTES:
                break
        doc_names = ", ".join(dict.fromkeys(f.document.file_name for f in chosen))
        quotes = " … ".join(f"“{f.sentence}” (p. {f.page})" for f in chosen)
        verb = "speak" if len({f.document.id for f in chosen}) > 1 else "speaks"
        text = f"Yes. {doc_names} {verb} to {topic.text}: {quotes}"
        citations = tuple(Citation(document=f.document.file_name, document_id=f.document.id, page=f.page,
                                   quote=f.sentence) for f in chosen)
        return Draft(text=text, found=True, citations=citations, answerer="disclosure",
                     reason=f"sentences printing {self._searched(topic)}")

    def _no(self, topic: Topic_, scope: list[tuple[Document, int]], denied: list[Found], supposed: list[Found],
            first_pages: dict[str, StoredPage], later: list[Found] = (), day: str | None = None) -> Draft:
        where = "; ".join(f"{doc.file_name}, every page (p. 1–p. {n})" for doc, n in scope)
        searched = self._searched(topic)
        citations: list[Citation] = []
        if denied:
            # a balance asked on a day: the denial of that day first ("As of December 2, 2022, there were no ...")
            denied.sort(key=lambda f: (not (day and said_of_the_day([f], day)), -f.score))
            f = denied[0]
            text = (f"No. {f.document.file_name} says the opposite: “{f.sentence}” (p. {f.page}). "
                    f"No sentence in {where} states {topic.text}; searched for {searched}.")
            citations.append(Citation(document=f.document.file_name, document_id=f.document.id, page=f.page,
                                      quote=f.sentence))
        else:
            extra = ""
            if later:
                f = max(later, key=lambda f: f.score)
                extra = f" It tells of it after the period asked: “{f.sentence}” (p. {f.page})."
                citations.append(Citation(document=f.document.file_name, document_id=f.document.id, page=f.page,
                                          quote=f.sentence))
            elif supposed:
                supposed.sort(key=lambda f: -f.score)
                f = supposed[0]
                extra = f" It speaks of it only as a possibility or a policy (p. {f.page})."
                citations.append(Citation(document=f.document.file_name, document_id=f.document.id, page=f.page,
                                          quote=f.sentence))
            text = f"No. Nothing in {where} states {topic.text}; searched for {searched}.{extra}"
        for doc, _n in scope:
            line = _cover_line(first_pages.get(doc.id))
            if line:
                citations.append(Citation(document=doc.file_name, document_id=doc.id, page=1, quote=line))
        return Draft(text=text, found=True, citations=tuple(citations), answerer="disclosure",
                     reason=f"no sentence of the filing's full text prints {searched} and says it happened")

    @staticmethod
    def _searched(topic: Topic_) -> str:
        parts = []
        for slot in topic.slots:
            others = [s for s in slot.shown if s.lower() != slot.label.lower()][:8]
            parts.append(f"“{slot.label}”" + (f" (or {', '.join(others)})" if others else ""))
        return " with ".join(parts)


def _cover_line(page: StoredPage | None) -> str | None:
    """The cover page's line naming the filing and its period: the scope a "No" speaks for."""
    if page is None:
        return None
    lines = [l.text.strip() for l in page.lines if len(_words(l.text)) >= 3]
    for pattern in (r"fiscal\s+year\s+ended|for\s+the\s+(?:fiscal\s+)?(?:year|quarter|period)", r"annual\s+report|form\s+10|8-k|report"):
        for line in lines:
            if re.search(pattern, line, re.I):
                return line
    return lines[0] if lines else None
