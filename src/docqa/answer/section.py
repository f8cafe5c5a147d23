"""Section answers: an open question about what a filing says ("what does X say about competition?",
"how does X recognize revenue?", "what are the main risk factors?", "describe the legal
proceedings") is answered by the section that discusses it, its key sentences quoted and cited.

The section is the one whose printed heading names the topic (``outline.py``); a known topic's own
Item ("Item 1A. Risk Factors") is read whole, its sentences spread over its pages, or, when the
question adds words to the topic ("risks around cybersecurity"), the Item's sentences that hold them
(``key_sentences.py``). The quotes speak to the topic; they are not a verdict or a figure, so the
answer is badged as passages, never verified.
"""

from __future__ import annotations

import re

from docqa.answer.contract import Evidence, Filings
from docqa.answer.key_sentences import holding, spread, under_heading
from docqa.answer.outline import Heading, Section, find_section, heads_under, in_items, outline, roots, same_root
from docqa.finance.text import stems
from docqa.plan import Intent, QuestionPlan
from docqa.plan.companies import company_names
from docqa.types import Citation, Document, Draft

_PLAIN = frozenset(stems("what are is the main key principal primary describe summarize discuss explain outline "
                         "tell give provide list how does do did company company's its their in of for fiscal year "
                         "report annual 10-k filing"))


class SectionAnswerer:
    name = "section"

    def answer(self, plan: QuestionPlan, evidence: Evidence) -> Draft | None:
        if plan.intent is not Intent.SECTION or evidence.filings is None:
            return None
        document = _filing(plan, evidence, evidence.filings)
        if document is None:
            return None
        every_page = evidence.filings.pages(document.id)
        # words the question adds to its topic ("risks around cybersecurity"): what is quoted must speak to them
        topic = {r for phrase in plan.section_words for r in roots(phrase)}
        specific = [w for w in roots(" ".join(plan.discussed)) if not any(same_root(w, t) for t in topic)]
        # the heading that names what the question asks ("Foreign Currency Risk"), else a known topic's own
        heads = outline(every_page)  # read once: a second heading may be looked for below
        named = _in_named_section(plan, document, every_page, heads)
        if named is not None:
            return named
        headed = _headed(plan, document, every_page, heads, list(plan.discussed))
        pages = _where_discussed(every_page, plan)
        if headed is not None:
            # "the main risks of Boeing's fixed-price contracts": a note headed "Fixed-Price Contracts" states
            # the facts; the Item the topic names (the risk factors) speaks to what is asked when several of
            # its sentences hold every word the question adds
            if specific and pages and _outside_items(headed, every_page, plan):
                chosen = holding(pages, specific, every=True)
                if len(chosen) >= ITEM_SENTENCES:
                    return _quoted(document, _sections_of(pages), chosen)
            return headed
        chosen = holding(pages, specific) if specific and pages else []
        if not chosen and specific and topic:
            # the topic's Item does not speak to it ("opioid lawsuits" under an Item 3 that points elsewhere):
            # the heading anywhere in the filing that names what the question adds
            headed = _headed(plan, document, every_page, heads, specific, alternates=False)
            # nor any heading: the lines that speak to it, wherever they are, are the text answerer's
            return headed
        if not pages:
            return None
        skip = {w for n in company_names(document) for w in stems(n)} | _PLAIN
        wanted = {s for s in stems(plan.content) if s not in skip and not s.isdigit()}
        wanted |= {s for phrase in plan.section_words for s in stems(phrase)} - _PLAIN
        in_item = {p.number for p in pages if p.info is not None and in_items(p.info.section, plan.section_items)}
        chosen = chosen or spread(pages, wanted, in_item)
        if not chosen:
            return None
        return _quoted(document, _sections_of(pages), chosen)


ITEM_SENTENCES = 2   # sentences of the topic's Item that hold every word asked, to be read before a heading elsewhere


def _sections_of(pages: list) -> str:
    return " and ".join(dict.fromkeys(p.info.section for p in pages if p.info and p.info.section)) or "The filing"


def _outside_items(draft: Draft, pages: list, plan: QuestionPlan) -> bool:
    """Is the section a draft quotes outside the Items where its topic sits?"""
    if not plan.section_items or not draft.citations:
        return False
    page = next((p for p in pages if p.number == draft.citations[0].page), None)
    return page is not None and page.info is not None and not in_items(page.info.section, plan.section_items)


ITEM_HEADING = re.compile(r"^item\s+\d", re.I)


def _headed(plan: QuestionPlan, document: Document, pages: list, heads: list[Heading], words: list[str],
            alternates: bool = True) -> Draft | None:
    """The section whose printed heading names ``words``, its key sentences quoted (``alternates``: a
    known topic's usual headings may name it when the words name no heading). An Item's own heading
    ("Item 1A. Risk Factors") is read as a whole Item instead (``_where_discussed``)."""
    if not words:
        return None
    section = find_section(pages, words, (plan.discussed_as or plan.section_words) if alternates else (),
                           prefer=frozenset(plan.section_items), heads=heads)
    if section is None:
        return None
    head_page = pages[section.heading.page]
    if ITEM_HEADING.match(section.heading.text) and head_page.info is not None and in_items(head_page.info.section,
                                                                                           plan.section_items):
        return None  # the topic's own Item ("Item 1A. Risk Factors"): read whole, its sentences spread over it
    return _under(document, section, pages, plan.discussed, plan.lines_hold)


NAMED_PAGES = 8   # a section named as where to read is searched this far for the sub-section that answers


def _in_named_section(plan: QuestionPlan, document: Document, pages: list, heads: list[Heading]) -> Draft | None:
    """Where the question says to read ("per the market risk section", "(critical accounting policy)", a
    label that leads it: "netflix 2017 liquidity - how does it plan to fund ..."): the sub-section
    inside it that names the question's topic, else the named section's own key sentences."""
    if not plan.section_named:
        return None
    named = find_section(pages, plan.section_named, heads=heads)
    if named is None:
        return None
    inside = heads_under(pages, heads, named, NAMED_PAGES)
    rest = [w for w in plan.discussed if w not in plan.section_named]
    if inside and rest:
        headed = _headed(plan, document, pages, inside, rest, alternates=False)
        if headed is not None:
            return headed
    return _under(document, named, pages, plan.discussed, plan.lines_hold)


def _under(document: Document, section: Section, pages: list, words: tuple[str, ...], kind: str | None) -> Draft | None:
    """The key sentences under a section's heading, quoted, the heading and its page named."""
    chosen = under_heading(section, pages, words, kind)
    if not chosen:
        return None
    head_page = pages[section.heading.page]
    where = ", ".join(x for x in (head_page.info.section if head_page.info else None, f"p. {head_page.number}") if x)
    return _quoted(document, f"“{section.heading.text}” ({where})", chosen)


def _quoted(document: Document, section: str, chosen: list[tuple[int, str]]) -> Draft:
    """"<section> of <filing> discusses it", and its key lines, each cited to its page."""
    lines = "\n".join(f"• “{quote}” (p. {number})" for number, quote in chosen)
    return Draft(
        text=f"{section} of {document.file_name} discusses it; its key lines:\n{lines}",
        found=True, answerer=SectionAnswerer.name, decisive=False,
        citations=tuple(Citation(document=document.file_name, document_id=document.id, page=n, quote=q)
                        for n, q in chosen))


def _filing(plan: QuestionPlan, evidence: Evidence, filings: Filings) -> Document | None:
    """The filing whose section answers: the plan's first company's chosen filings, the annual
    report first (a 10-Q's Item 1A only lists changes); else the best retrieved page's filing."""
    ids = [i for g in plan.groups[:1] for i in g.document_ids] or [p.document_id for p in evidence.pages[:1]]
    documents = [d for d in (filings.document(i) for i in dict.fromkeys(ids)) if d is not None]
    documents.sort(key=lambda d: (not (d.meta.doc_type and d.meta.doc_type.is_annual), -(d.meta.fiscal_year or 0)))
    return documents[0] if documents else None


HEADING_WORDS = 8     # a line this short that names the topic is a heading
FOLLOWING = 2         # pages read after a heading that names the topic


def _where_discussed(pages, plan: QuestionPlan) -> list:
    """The pages that discuss the topic: within its Item, from the heading that names it (Item 7's
    "Liquidity and Capital Resources") and the pages after; with a note whose heading names it
    ("Legal Proceedings" under Commitments and Contingencies), wherever it is. The whole Item when
    no heading names the topic."""
    phrases = [tuple(stems(p)) for p in plan.section_words if stems(p)]

    def names_topic(page) -> bool:
        for line in page.lines:
            text = line.text.strip()
            words = stems(text)
            if (len(words) <= HEADING_WORDS and text[:1].isupper() and not re.search(r"\d|[.;,]$", text)
                    and any(_holds(words, ph) for ph in phrases)):
                return True
        return False

    in_item = [p for p in pages if p.info is not None and in_items(p.info.section, plan.section_items)]
    headed = [i for i, p in enumerate(pages) if names_topic(p)]
    item_numbers = {p.number for p in in_item}
    starts = [i for i in headed if pages[i].number in item_numbers]
    if starts:
        chosen = {pages[j].number for i in starts for j in range(i, min(i + 1 + FOLLOWING, len(pages)))
                  if pages[j].number in item_numbers}
    else:
        chosen = set(item_numbers)
    # a note headed by the topic, outside the Item: the Item often only points at it ("see Note 7")
    if len(in_item) <= 1:
        chosen |= {pages[i].number for i in headed if pages[i].number not in item_numbers
                   and pages[i].info is not None and pages[i].info.section == "Item 8"}
    return [p for p in pages if p.number in chosen]


def _holds(words: list[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(tuple(words[i:i + n]) == phrase for i in range(len(words) - n + 1))


