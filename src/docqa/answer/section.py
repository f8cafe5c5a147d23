"""Section answers: an open question about a topic a filing discusses as a whole ("what are the main
risk factors?", "describe the legal proceedings", "how is liquidity managed?") is answered by the
Item that discusses it, read in full, with its key sentences quoted and cited.

The quotes speak to the topic; they are not a verdict or a figure, so the answer is badged as
passages, never verified. The sentences are chosen by the question's own words first, spread over
the section's pages so that one paragraph does not stand for the whole Item.
"""

from __future__ import annotations

import re

from docqa.answer.contract import Evidence, Filings
from docqa.answer.extractive import units
from docqa.answer.outline import Section, find_section, in_items, roots, same_root
from docqa.finance.text import stems
from docqa.plan import Intent, QuestionPlan
from docqa.plan.companies import company_names
from docqa.types import Citation, Document, Draft
from docqa.verify import quote_on_page

MAX_QUOTES = 5
MIN_WORDS = 8          # a heading or a footer is no key sentence
MAX_WORDS = 90         # nor is a whole paragraph run together
# Lines that point elsewhere or say how to read the filing, not what it says about the topic.
_NOT_CONTENT = re.compile(
    r"forward[\s-]looking\s+statements?|safe\s+harbor|\bsee\s+(?:item|note|part)\b|\b(?:is|are)\s+(?:discussed|described|"
    r"included|set\s+forth)\s+(?:in|under)\b|\bincorporated\s+(?:herein\s+)?by\s+reference\b|\btable\s+of\s+contents\b"
    r"|\(in\s+(?:millions|thousands|billions)", re.I)
# A sentence opens with a capital, a figure or a quote; one in lower case continues the page before.
_OPENS = re.compile(r"^[\W_]*[A-Z0-9$“\"'(]")
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
        headed = _headed(plan, document, every_page, list(plan.discussed))
        if headed is not None:
            return headed
        pages = _where_discussed(every_page, plan)
        chosen = _specific_sentences(pages, specific) if specific and pages else []
        if not chosen and specific and topic:
            # the topic's Item does not speak to it ("opioid lawsuits" under an Item 3 that points elsewhere):
            # the heading anywhere in the filing that names what the question adds
            headed = _headed(plan, document, every_page, specific, alternates=False)
            # nor any heading: the lines that speak to it, wherever they are, are the text answerer's
            return headed
        if not pages:
            return None
        skip = {w for n in company_names(document) for w in stems(n)} | _PLAIN
        wanted = {s for s in stems(plan.content) if s not in skip and not s.isdigit()}
        wanted |= {s for phrase in plan.section_words for s in stems(phrase)} - _PLAIN
        in_item = {p.number for p in pages if p.info is not None and in_items(p.info.section, plan.section_items)}
        chosen = chosen or _key_sentences(pages, wanted, in_item)
        if not chosen:
            return None
        section = " and ".join(dict.fromkeys(p.info.section for p in pages if p.info and p.info.section)) or "The filing"
        lines = "\n".join(f"• “{quote}” (p. {number})" for number, quote in chosen)
        return Draft(
            text=f"{section} of {document.file_name} discusses it; its key lines:\n{lines}",
            found=True, answerer=self.name, decisive=False,
            citations=tuple(Citation(document=document.file_name, document_id=document.id, page=n, quote=q)
                            for n, q in chosen))


ITEM_HEADING = re.compile(r"^item\s+\d", re.I)
LEAD_BONUS = (0.3, 0.15)   # a section's first sentences say what it is about


def _headed(plan: QuestionPlan, document: Document, pages: list, words: list[str], alternates: bool = True) -> Draft | None:
    """The section whose printed heading names ``words``, its key sentences quoted (``alternates``: a
    known topic's usual headings may name it when the words name no heading). An Item's own heading
    ("Item 1A. Risk Factors") is read as a whole Item instead (``_where_discussed``)."""
    if not words:
        return None
    section = find_section(pages, words, (plan.discussed_as or plan.section_words) if alternates else (),
                           prefer=frozenset(plan.section_items))
    if section is None:
        return None
    head_page = pages[section.heading.page]
    if ITEM_HEADING.match(section.heading.text) and head_page.info is not None and in_items(head_page.info.section,
                                                                                           plan.section_items):
        return None  # the topic's own Item ("Item 1A. Risk Factors"): read whole, its sentences spread over it
    chosen = _lines_quoted(section, pages, plan.discussed)
    if not chosen:
        return None
    where = ", ".join(x for x in (head_page.info.section if head_page.info else None, f"p. {head_page.number}") if x)
    lines = "\n".join(f"• “{quote}” (p. {number})" for number, quote in chosen)
    return Draft(
        text=f"“{section.heading.text}” ({where}) of {document.file_name} discusses it; its key lines:\n{lines}",
        found=True, answerer="section", decisive=False,
        citations=tuple(Citation(document=document.file_name, document_id=document.id, page=n, quote=q)
                        for n, q in chosen))


class _Lines:
    def __init__(self, lines: tuple[str, ...]):
        self.text = "\n".join(lines)


def _lines_quoted(section: Section, pages: list, words: tuple[str, ...]) -> list[tuple[int, str]]:
    """Up to MAX_QUOTES sentences under the heading: its first ones, and those that hold the most of
    the question's words, in reading order."""
    wanted = [w for w in roots(" ".join(words))]
    candidates: list[tuple[float, int, int, str]] = []
    order = 0
    for index, lines in section.lines:
        page = pages[index]
        for unit in units(_Lines(lines)):
            n_words = len(unit.split())
            if (not MIN_WORDS <= n_words <= MAX_WORDS or _NOT_CONTENT.search(unit) or "  " in unit
                    or unit.endswith(":") or not _OPENS.match(unit)):  # "... are as follows:" leads into a table, says nothing itself
                continue
            if not quote_on_page(unit, page.text):
                continue
            printed = roots(unit)
            hits = sum(any(same_root(w, p) for p in printed) for w in wanted)
            lead = LEAD_BONUS[order] if order < len(LEAD_BONUS) else 0.0
            candidates.append((hits / (len(wanted) or 1) + lead, order, page.number, unit))
            order += 1
    best = sorted(candidates, key=lambda c: (-c[0], c[1]))[:MAX_QUOTES]
    return [(number, unit) for _, _, number, unit in sorted(best, key=lambda c: c[1])]


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


def _specific_sentences(pages, words: list[str]) -> list[tuple[int, str]]:
    """The Item's sentences that hold the most of the words the question adds to its topic (at least
    one), wherever they are in the Item, in reading order."""
    candidates: list[tuple[float, int, int, str]] = []
    order = 0
    for page in pages:
        for unit in units(page):
            if (not MIN_WORDS <= len(unit.split()) <= MAX_WORDS or _NOT_CONTENT.search(unit) or "  " in unit
                    or not _OPENS.match(unit) or not quote_on_page(unit, page.text)):
                continue
            printed = roots(unit)
            hits = sum(any(same_root(w, p) for p in printed) for w in words)
            if hits:
                candidates.append((hits / len(words), order, page.number, unit))
            order += 1
    best = sorted(candidates, key=lambda c: (-c[0], c[1]))[:MAX_QUOTES]
    return [(number, unit) for _, _, number, unit in sorted(best, key=lambda c: c[1])]


def _key_sentences(pages, wanted: set[str], in_item: set[int]) -> list[tuple[int, str]]:
    """Up to MAX_QUOTES sentences spread over the pages (a page's share of them, at least one),
    the best by the question's words (the first of a page breaks ties), in page order."""
    share = max(1, -(-MAX_QUOTES // max(1, len(pages))))
    best: list[tuple[float, int, str]] = []
    for page in pages:
        candidates = []
        for position, unit in enumerate(units(page)):
            words = unit.split()
            if not MIN_WORDS <= len(words) <= MAX_WORDS or _NOT_CONTENT.search(unit) or "  " in unit or not _OPENS.match(unit):
                continue
            if not quote_on_page(unit, page.text):
                continue  # a sentence joined across a hyphenated line break is not quoted as printed
            overlap = len(set(stems(unit)) & wanted) / (len(wanted) or 1)
            if overlap == 0 and page.number not in in_item:
                continue  # outside the Item, a sentence must speak to the question
            candidates.append((overlap + (0.3 if position == 0 else 0.0), page.number, unit))
        best.extend(sorted(candidates, key=lambda c: -c[0])[:share])
    best.sort(key=lambda c: -c[0])
    return sorted(((n, u) for _, n, u in best[:MAX_QUOTES]), key=lambda c: c[0])  # stable: page order, then as read

