"""ask(): route the question, gather evidence pages, let answerers draft, verify, cite with boxes.

Order of answerers: document statistics (exact counts), then the figures answerer (statement
lookups and formulas, computed in code), then the configured text answerer (extractive offline,
or a language model). Every draft goes through ``verify``; "not found" is a normal Answer.
"""

from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass
from typing import Protocol

from docqa.answer.verify import verify
from docqa.finance.lexicon import load_lexicon
from docqa.search.hybrid import HybridSearcher
from docqa.search.query import QueryPlan, canonical_companies, normalize_name
from docqa.stats import document_stats, stats_question
from docqa.store.base import Store, StoredPage
from docqa.text import normalize_for_match
from docqa.types import Answer, BBox, Citation, Document, Draft, EvidencePage, Figure, SearchFilters

EVIDENCE_PAGES = 6


class TextAnswerer(Protocol):
    name: str

    def answer(self, question: str, evidence: list[EvidencePage]) -> Draft: ...


class FigureAnswerer(Protocol):
    name: str

    def answer(self, question: str, evidence: list[EvidencePage], plan: QueryPlan, store: Store) -> Draft | None:
        """A draft when the question asks for a figure or formula it can compute; None otherwise."""


@dataclass
class AskRequest:
    question: str
    filters: SearchFilters
    k: int = EVIDENCE_PAGES


class Asker:
    def __init__(self, store: Store, searcher: HybridSearcher, text_answerer: TextAnswerer,
                 figure_answerer: FigureAnswerer | None = None):
        self.store = store
        self.searcher = searcher
        self.text_answerer = text_answerer
        self.figure_answerer = figure_answerer

    def ask(self, request: AskRequest) -> Answer:
        started = time.perf_counter()
        question = request.question
        documents = self.store.documents()
        if not documents:
            return self._not_found(question, "the index holds no documents yet; ingest some filings first", started)

        routed = stats_question(question)
        if routed:
            answer = self._stats(question, routed, request.filters, documents, started)
            if answer:
                return answer

        result = self.searcher.search(question, documents, k=max(request.k, EVIDENCE_PAGES), filters=request.filters)
        plan = result.plan
        timings = {"search_ms": round(result.timings.get("total_ms", 0.0), 1)}
        missing = missing_subject(question, plan, documents, request.filters)
        if missing:
            return self._not_found(question, missing, started, timings)
        if not result.hits:
            return self._not_found(question, "no page in the filings matches the question", started, timings)

        evidence = self._evidence(result.hits[: request.k])
        pages = {(p.document_id, p.page): p.text for p in evidence}

        drafts: list[Draft] = []
        companies = set(canonical_companies(documents).values())
        if not plan.companies and request.filters.is_empty() and len(companies) > 1:
            # A company's figure needs the company: without one, any number found would be a guess.
            if load_lexicon().match(question):
                return self._not_found(
                    question, f"the question names none of the {len(companies)} companies in the index; "
                    "name the company (or pass company=/document=)", started, timings)
        if self.figure_answerer is not None:
            t = time.perf_counter()
            draft = self.figure_answerer.answer(question, evidence, plan, self.store)
            timings["figures_ms"] = round((time.perf_counter() - t) * 1000, 1)
            if draft is not None:
                drafts.append(draft)
        best: Answer | None = None
        for draft in drafts:
            best = self._verified(draft, question, pages)
            if best.found:
                break
        if best is None or not best.found:
            t = time.perf_counter()
            draft = self.text_answerer.answer(question, evidence)
            timings["answer_ms"] = round((time.perf_counter() - t) * 1000, 1)
            candidate = self._verified(draft, question, pages)
            if candidate.found or best is None:
                best = candidate
        timings["total_ms"] = round((time.perf_counter() - started) * 1000, 1)
        return best.model_copy(update={"id": uuid.uuid4().hex[:12], "timings": timings})

    # --- pieces --------------------------------------------------------------------------
    def _evidence(self, hits) -> list[EvidencePage]:
        out = []
        for i, hit in enumerate(hits, start=1):
            page = self.store.page(hit.document_id, hit.page)
            if page is None:
                continue
            out.append(EvidencePage(
                label=f"P{i}", document=hit.document, document_id=hit.document_id, page=hit.page,
                text=page.text, company=hit.company, year=hit.year, statement=hit.statement,
            ))
        return out

    def _verified(self, draft: Draft, question: str, pages: dict[tuple[str, int], str]) -> Answer:
        # Verification reads whole cited pages, also ones the answerer fetched beyond the evidence.
        for c in draft.citations:
            key = (c.document_id, c.page)
            if key not in pages:
                stored = self.store.page(c.document_id, c.page)
                if stored is not None:
                    pages[key] = stored.text
        answer = verify(draft, question, pages)
        citations = tuple(self._with_boxes(c) for c in answer.citations)
        return answer.model_copy(update={"citations": citations})

    def _with_boxes(self, citation: Citation) -> Citation:
        if citation.boxes:
            return citation
        page = self.store.page(citation.document_id, citation.page)
        return citation.model_copy(update={"boxes": tuple(quote_boxes(page, citation.quote))}) if page else citation

    def _stats(self, question, routed, filters: SearchFilters, documents: list[Document], started) -> Answer | None:
        kind, term = routed
        doc = _single_document(question, filters, documents)
        if doc is None:
            return None
        stored = self.store.pages(doc.id)
        stats = document_stats([p.text for p in stored], doc.file_name, term)
        if kind == "count" and term:
            pages_list = ", ".join(map(str, stats.pages_with_term[:30])) or "none"
            text = (f"“{term}” appears {stats.count} time(s) in {doc.file_name}, on {len(stats.pages_with_term)} "
                    f"page(s): {pages_list}.")
            formula = f"count of “{term}” over the full text of pages 1–{stats.pages} (whole words, any case)"
            citations = tuple(
                Citation(document=doc.file_name, document_id=doc.id, page=n, quote=_line_with(stored[n - 1], term),
                         boxes=tuple(quote_boxes(stored[n - 1], _line_with(stored[n - 1], term))))
                for n in stats.pages_with_term[:5]
            )
            figures = (Figure(name=f"occurrences of {term}", value=float(stats.count), text=str(stats.count),
                              document=doc.file_name, computed=True),)
        elif kind == "words":
            text = f"{doc.file_name} has {stats.words:,} words over {stats.pages} pages."
            formula = f"whitespace-separated words over pages 1–{stats.pages}"
            citations, figures = (), (Figure(name="words", value=float(stats.words), text=f"{stats.words:,}", computed=True),)
        else:
            text = f"{doc.file_name} has {stats.pages} pages."
            formula = "physical pages in the PDF"
            citations, figures = (), (Figure(name="pages", value=float(stats.pages), text=str(stats.pages), computed=True),)
        return Answer(
            id=uuid.uuid4().hex[:12], question=question, text=text, found=True, citations=citations,
            figures=figures, formula=formula, answerer="stats", verification="verified",
            timings={"total_ms": round((time.perf_counter() - started) * 1000, 1)},
        )

    def _not_found(self, question: str, reason: str, started: float, timings: dict | None = None) -> Answer:
        timings = dict(timings or {})
        timings["total_ms"] = round((time.perf_counter() - started) * 1000, 1)
        return Answer(id=uuid.uuid4().hex[:12], question=question, text="Not found in the documents.", found=False,
                      reason=reason, answerer="router", verification="not_found", timings=timings)


def _single_document(question: str, filters: SearchFilters, documents: list[Document]) -> Document | None:
    from docqa.search.query import canonical_companies, choose_documents, detect_companies, detect_doc_types, detect_quarter, detect_years

    if filters.document_ids:
        return next((d for d in documents if d.id in filters.document_ids), None)
    companies = list(filters.companies) or detect_companies(question, documents)
    canonical = canonical_companies(documents)
    pool = [d for d in documents if not companies or canonical.get(d.id) in companies or d.meta.company in companies]
    chosen, _ = choose_documents(pool, list(filters.years) or detect_years(question), detect_quarter(question),
                                 list(filters.doc_types) or detect_doc_types(question))
    return chosen[0] if len(chosen) == 1 or (chosen and companies) else None


def _line_with(page: StoredPage, term: str) -> str:
    needle = term.lower()
    for line in page.lines:
        if needle in line.text.lower():
            return line.text.strip()
    return term


def quote_boxes(page: StoredPage, quote: str) -> list[BBox]:
    """Boxes of the stored lines that make up a quote (a quote may span several rows)."""
    target = normalize_for_match(quote)
    if not target:
        return []
    boxes = []
    for line in page.lines:
        text = normalize_for_match(line.text)
        if len(text) >= 4 and (text in target or target in text):
            boxes.append(line.bbox)
    return boxes


_NAME_CUE = re.compile(
    r"(?:\b(?:for|of|at|by|did|does|do|has|have|had|is|was|were|about)\s+)?"
    r"((?:[A-Z][A-Za-z0-9&.\-]*)(?:\s+(?:[A-Z][A-Za-z0-9&.\-]*|&|and|of))*?)(?:'s|’s|(?<=s)'|(?<=s)’|\s+(?:in|for|during)\s+(?:FY|fiscal|Q\d|\d{4}))",
)
_NOT_NAMES = frozenset(
    "what which how when where who why does did is was were are the a an in fy q1 q2 q3 q4 us usd gaap non "
    "total net gross operating adjusted fiscal year quarter based cash free".split()
)


def missing_subject(question: str, plan: QueryPlan, documents: list[Document], filters: SearchFilters) -> str | None:
    """Why the filings cannot answer: a company or period the index does not hold. None if fine."""
    if not filters.is_empty() and not plan.groups:
        return "no indexed document matches the filters given"
    if not plan.companies and not filters.companies and not filters.document_ids:
        known = set().union(*({normalize_name(n) for n in (d.meta.company, *d.meta.aliases) if n} for d in documents))
        for match in _NAME_CUE.finditer(question):
            name = match.group(1).strip()
            words = [w for w in normalize_name(name).split() if w not in _NOT_NAMES]
            if not words or normalize_name(name) in known:
                continue
            if any(w in known or any(w in k.split() for k in known) for w in words):
                continue
            held = sorted(set(canonical_companies(documents).values()))
            return (f"the index holds no filing by {name!r}; it holds {len(held)} companies "
                    f"({', '.join(held[:6])}{'…' if len(held) > 6 else ''})")
    if plan.years and plan.companies:
        canonical = canonical_companies(documents)
        for company in plan.companies:
            years = sorted({d.meta.fiscal_year for d in documents if canonical.get(d.id) == company and d.meta.fiscal_year})
            wanted = max(plan.years)
            if years and all(wanted > y for y in years):
                return (f"the index holds no filing of {company} for {wanted}; "
                        f"it holds fiscal years {', '.join(map(str, years))}")
            if years and all(y > wanted + 2 for y in years):
                return (f"the index holds no filing of {company} covering {wanted}; "
                        f"it holds fiscal years {', '.join(map(str, years))}")
    return None
