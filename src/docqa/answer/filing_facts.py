"""Facts a filing states in fixed places: where the registrant's offices are, where it is
incorporated, which firm signed the auditor's report, who signed as principal executive officer.

SEC forms print them by convention: the cover puts the address above "(Address of principal
executive offices)" and the state above "(State or other jurisdiction of incorporation)"; the
auditor's report is signed "/s/ <firm> LLP" with the city below; the signature page and the
certifications sign "/s/ <name>" with "(Principal Executive Officer)" or "Chief Executive Officer"
beside or below. Reading those places beats quoting whichever sentence shares the question's
words ("principal executive officer" appears in a hundred exhibit lines). When a filing does not
print the fact in its place, this answerer has nothing to say and the others try.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.answer.contract import Filings, ReadsFilings
from docqa.plan import QuestionPlan
from docqa.store.base import Store, StoredPage
from docqa.types import Citation, Document, Draft, EvidencePage

MAX_DOCUMENTS = 3

_ADDRESS_LABEL = re.compile(r"\(\s*address\b[^)]{0,40}?\bprincipal\s+executive\s+offices?", re.I)
_STATE_LABEL = re.compile(r"\(\s*state\s+or\s+other\s+jurisdiction", re.I)
_FIRM = re.compile(r"^/s/\s*(?P<firm>[A-Z][\w&.,' -]*?\b(?:LLP|L\.L\.P\.|LLC|P\.C\.|PLLC|Ltd\.?|Limited|AG|GmbH))\s*\.?$")
# UK and Commonwealth reports: "For and on behalf of PKF Littlejohn LLP, Statutory Auditor"
_ON_BEHALF = re.compile(r"\bfor\s+and\s+on\s+behalf\s+of\s+(?P<firm>[A-Z][\w&.' -]*?\b(?:LLP|L\.L\.P\.|LLC|Limited|Ltd\.?|PLC|AG|GmbH|"
                        r"(?:Chartered|Registered)\s+Accountants))(?=\s*(?:,|\s{2,}|$))", re.I)
_SIGNED = re.compile(r"^/s/\s*(?P<name>[A-Z][A-Za-z.'\- ]{2,60}?)(?=\s{2,}|\s+(?:President|Chief|Chair|Director|Date)|$)")
_CEO = re.compile(r"principal\s+executive\s+officer|chief\s+executive\s+officer", re.I)
_STREET_OR_CITY = re.compile(r"\d|,", re.I)


@dataclass(frozen=True)
class Fact:
    value: str
    quote: tuple[str, ...]      # the printed lines that state it
    page: int


def _lines(page: StoredPage) -> list[str]:
    return [row.strip() for row in page.text.split("\n") if row.strip()]


def _cover_value(pages: list[StoredPage], label: re.Pattern, need: re.Pattern | None) -> Fact | None:
    """The printed lines just above a cover label (an address may take two)."""
    for page in pages[:3]:
        lines = _lines(page)
        for i, line in enumerate(lines):
            if not label.search(line):
                continue
            above: list[str] = []
            for prev in reversed(lines[max(0, i - 3):i]):
                if prev.startswith("(") or re.search(r"incorporation|identification|organization\)", prev, re.I):
                    break
                above.insert(0, prev)
                if need is None or len(above) >= 2:
                    break
            if above and (need is None or need.search(" ".join(above))):
                return Fact(" ".join(above), tuple(above), page.number)
    return None


def _state(pages: list[StoredPage]) -> Fact | None:
    fact = _cover_value(pages, _STATE_LABEL, None)
    if fact is None:
        return None
    # "Delaware  91-0425694": the state's cell, not the employer number beside it
    state = re.split(r"\s{2,}", fact.value)[0].strip()
    return Fact(state, fact.quote, fact.page)


def _auditor(pages: list[StoredPage]) -> Fact | None:
    for page in pages:
        lines = _lines(page)
        for i, line in enumerate(lines):
            m = _FIRM.match(line) or _ON_BEHALF.search(line)
            if m:
                city = lines[i + 1] if i + 1 < len(lines) and re.fullmatch(r"[A-Z][\w .'-]+,\s*[A-Z][\w .'-]+", lines[i + 1]) else None
                value = m.group("firm").strip() + (f" ({city})" if city else "")
                return Fact(value, (line,) + ((city,) if city else ()), page.number)
    return None


def _signer(pages: list[StoredPage]) -> Fact | None:
    """The signature page's "/s/ Name" whose title (same row or the next two) is the principal
    executive officer's; the signature page comes before the certifications, so the first wins."""
    for page in pages:
        lines = _lines(page)
        for i, line in enumerate(lines):
            m = _SIGNED.match(line)
            if not m or _FIRM.match(line):
                continue
            title = " ".join(lines[i:i + 3])
            if _CEO.search(title):
                name = " ".join(m.group("name").split())
                if name.isupper():
                    name = name.title()
                return Fact(name, tuple(lines[i:i + 3]), page.number)
    return None


class FilingFactsAnswerer(ReadsFilings):
    name = "filing_facts"

    def _read(self, question: str, evidence: list[EvidencePage], plan: QuestionPlan, store: Filings) -> Draft | None:
        kind = plan.fact
        if kind is None:
            return None
        for doc in self._documents(plan, evidence, store):
            pages = store.pages(doc.id)
            fact = {
                "address": lambda: _cover_value(pages, _ADDRESS_LABEL, _STREET_OR_CITY),
                "incorporation": lambda: _state(pages),
                "auditor": lambda: _auditor(pages),
                "signer": lambda: _signer(pages),
            }[kind]()
            if fact is not None:
                return self._draft(kind, fact, doc)
        return None

    def _documents(self, plan: QuestionPlan, evidence: list[EvidencePage], store: Store) -> list[Document]:
        ids = [i for g in plan.groups for i in g.document_ids] or [e.document_id for e in evidence[:1]]
        docs = [d for d in (store.document(i) for i in dict.fromkeys(ids)) if d is not None]
        # the annual filing carries the cover, the audit report and the signatures
        docs.sort(key=lambda d: (not (d.meta.doc_type and d.meta.doc_type.is_annual), -(d.meta.fiscal_year or 0)))
        return docs[:MAX_DOCUMENTS]

    def _draft(self, kind: str, fact: Fact, doc: Document) -> Draft:
        said = {
            "address": f"Principal executive offices: {fact.value}",
            "incorporation": f"Incorporated in {fact.value}",
            "auditor": f"{fact.value} signed the independent auditor's report",
            "signer": f"{fact.value} signed as principal executive officer",
        }[kind]
        quoted = " / ".join(f"“{q}”" for q in fact.quote)
        citations = tuple(Citation(document=doc.file_name, document_id=doc.id, page=fact.page, quote=q) for q in fact.quote)
        return Draft(text=f"{said} — {quoted} ({doc.file_name} p. {fact.page}).", found=True, citations=citations,
                     answerer=self.name)
