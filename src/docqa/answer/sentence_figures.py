"""Figures printed only in a sentence: "we repurchased $2.5 billion of common stock", "3M employed
93,516 people", "dividends declared were $0.45 per share".

When no statement or note table gives the figure asked, the chosen filing's sentences are read: a
sentence answers when it names every content word of what is asked and states an amount close to
those words, in the period asked (a sentence dated only in other years does not speak of it). The
sentence is quoted and its amount is the answer's figure, printed on the cited page.
"""

from __future__ import annotations

import re

from docqa.answer.contract import Evidence, Filings
from docqa.answer.extractive import units
from docqa.answer.figures.line_item_words import SCAFFOLD, leaf_text
from docqa.finance.text import stems
from docqa.plan import Intent, QuestionPlan
from docqa.plan.companies import company_names
from docqa.types import Citation, Document, Draft, Figure
from docqa.verify import quote_on_page

NEAR = 8              # words between the asked words and the amount, at most
MAX_WORDS = 70        # a sentence longer than this is a paragraph run together
MAX_DOCUMENTS = 2
_AMOUNT = re.compile(
    r"(?P<cur>[$€£])\s?(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<scale>trillion|billion|million|thousand|bn|mn|m\b)?"
    r"|(?P<pnum>\d[\d,]*(?:\.\d+)?)\s?(?P<pct>%|percent\b)"
    r"|(?P<cnum>\d{1,3}(?:,\d{3})+|\d{2,})\s+(?P<noun>[a-z][a-z-]+)", re.I)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
# The amount that follows is how much the figure moved, not the figure.
_CHANGE = re.compile(r"\b(?:increas\w*|decreas\w*|up|down|grew|rose|fell|declin\w*|by|higher|lower|change\w*)\s+"
                     r"(?:\w+\s+){0,2}$", re.I)
_SCALES = {"trillion": 1e12, "billion": 1e9, "bn": 1e9, "million": 1e6, "mn": 1e6, "m": 1e6, "thousand": 1e3}
# Words that make the sentence's amount a plan or a possibility, not what was.
_PROSPECT = re.compile(r"\b(?:expect\w*|anticipat\w*|plan(?:s|ned)?\s+to|intend\w*|will|may|could|would|target\w*|"
                       r"up\s+to|authori[sz]\w*\s+(?:to|the\s+repurchase))\b", re.I)


class SentenceFigures:
    name = "sentence_figures"

    def answer(self, plan: QuestionPlan, evidence: Evidence) -> Draft | None:
        if (evidence.filings is None or not plan.amount or plan.verdict or plan.why
                or plan.intent not in (Intent.VALUE, Intent.TEXT) or plan.composition is not None):
            return None
        for document in _filings(plan, evidence, evidence.filings)[:MAX_DOCUMENTS]:
            skip = {w for n in company_names(document) for w in stems(n)}
            wanted = [s for s in stems(leaf_text(plan.main_clause or plan.asked, frozenset(skip)))
                      if s not in SCAFFOLD and s not in skip]
            counted = stems(plan.counted.split()[-1])[:1] if plan.counted else []
            if not counted and len(set(wanted)) < 2:
                return None  # one word ("content") names too much to read a sentence's amount as it
            years = set(plan.years) or ({document.meta.fiscal_year} if document.meta.fiscal_year else set())
            # a count is of its noun, whatever verb the question frames it with ("operate", "have")
            found = _best(evidence.filings.pages(document.id), counted or wanted, years, plan.forward_looking, counted)
            if found is not None:
                return _draft(plan, document, skip, *found)
        return None


def _filings(plan: QuestionPlan, evidence: Evidence, filings: Filings) -> list[Document]:
    ids = [i for g in plan.groups[:1] for i in g.document_ids] or [p.document_id for p in evidence.pages[:1]]
    documents = [d for d in (filings.document(i) for i in dict.fromkeys(ids)) if d is not None]
    return sorted(documents, key=lambda d: (not (d.meta.doc_type and d.meta.doc_type.is_annual),
                                            -(d.meta.fiscal_year or 0)))


def _best(pages, wanted: list[str], years: set[int], prospects_ok: bool, counted: list[str]):
    """(page, sentence, amount match) of the sentence that states the asked words closest to an amount."""
    best: tuple[int, int, str, re.Match] | None = None
    for page in pages:
        for sentence in units(page):
            words = sentence.split()
            if len(words) > MAX_WORDS or "  " in sentence or not any(c.isdigit() for c in sentence):
                continue
            if not prospects_ok and _PROSPECT.search(sentence):
                continue
            printed = {int(y) for y in _YEAR.findall(sentence)}
            if printed and years and not printed & years:
                continue  # dated only in other years
            distance = _distance(sentence, wanted, counted)
            if distance is None or not quote_on_page(sentence, page.text):
                continue
            gap, amount = distance
            if best is None or gap < best[0]:
                best = (gap, page.number, sentence, amount)
    return None if best is None else best[1:]


def _distance(sentence: str, wanted: list[str], counted: list[str]) -> tuple[int, re.Match] | None:
    """Words between the asked words (all of them, in any order) and the nearest amount: a count
    of the noun counted ("1,138 stores"), or an amount the sentence states as the figure (not the
    change in it: "increased $2.3 billion")."""
    tokens = [(m.start(), s) for m in re.finditer(r"[A-Za-z][A-Za-z'’-]*", sentence) for s in stems(m.group(0))[:1]]
    at = {s: [i for i, (_, t) in enumerate(tokens) if t == s] for s in set(wanted)}
    if not all(at.values()):
        return None
    span = (min(min(v) for v in at.values()), max(max(v) for v in at.values()))
    if span[1] - span[0] > len(set(wanted)) + 3:
        return None  # the words are scattered over the sentence, not one phrase
    best: tuple[int, re.Match] | None = None
    for m in _AMOUNT.finditer(sentence):
        if counted:
            if not (m.group("cnum") and stems(m.group("noun"))[:1] == counted and not _YEAR.fullmatch(m.group("cnum"))):
                continue
        elif not m.group("cur") or _CHANGE.search(sentence[max(0, m.start() - 40):m.start()]):
            continue
        index = sum(1 for start, _ in tokens if start < m.start())
        gap = max(0, span[0] - index, index - span[1] - 1)
        if gap <= NEAR and (best is None or gap < best[0]):
            best = (gap, m)
    return best


def _draft(plan: QuestionPlan, document: Document, skip: set[str], number: int, sentence: str,
           amount: re.Match) -> Draft:
    text = amount.group(0).strip()
    if amount.group("cur"):
        value = float(amount.group("num").replace(",", "")) * _SCALES.get((amount.group("scale") or "").lower(), 1.0)
        unit = {"$": "USD", "€": "EUR", "£": "GBP"}[amount.group("cur")]
    elif amount.group("pct"):
        value, unit = float(amount.group("pnum").replace(",", "")), "%"
    else:
        value, unit = float(amount.group("cnum").replace(",", "")), amount.group("noun")
    label = (f"number of {plan.counted}" if plan.counted
             else leaf_text(plan.main_clause or plan.asked, frozenset(skip)) or "figure")
    return Draft(
        text=f"{label[:1].upper() + label[1:]}: {text}, as the filing states: “{sentence}” (p. {number})",
        found=True, answerer="sentence_figures", decisive=True, measure=plan.counted or label,
        citations=(Citation(document=document.file_name, document_id=document.id, page=number, quote=sentence),),
        figures=(Figure(name=label, value=value, text=text, unit=unit, document=document.file_name, page=number),))
