"""ask(): route the question, gather evidence pages, let answerers draft, verify, cite with boxes.

Order of answerers: document statistics (exact counts), then the figures answerer (statement
lookups and formulas, computed in code), then the configured text answerer (extractive offline,
or a language model). Every draft goes through ``verify``; "not found" is a normal Answer.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from docqa.answer.contract import Answerer, Evidence
from docqa.answer.scheduled import quotes_the_year
from docqa.finance.currency import printed_in
from docqa.plan import Intent, QuestionPlan
from docqa.plan.choice import choose_documents
from docqa.plan.companies import canonical_companies
from docqa.plan.periods import days_apart
from docqa.progress import StageReporter, plural
from docqa.search.hybrid import HybridSearcher
from docqa.stats import document_stats
from docqa.store.base import Store, StoredPage
from docqa.text import normalize_for_match
from docqa.types import Answer, BBox, Citation, Document, Draft, EvidencePage, Figure, SearchFilters
from docqa.verify import Grounding, verify
from docqa.verify.stated import amount_missing

EVIDENCE_PAGES = 6
ANNUAL_FILED_WITHIN = 120  # days: an annual report is filed within four months of its year's close


@dataclass
class AskRequest:
    question: str
    filters: SearchFilters
    k: int = EVIDENCE_PAGES
    plan: QuestionPlan | None = None  # made before (a conversation's turn); planned here when None
    progress: StageReporter = field(default_factory=StageReporter)  # told as each stage of the work begins


@dataclass(frozen=True)
class Step:
    """One step of a route: the answerers it runs ("facts", "disclosure", "figures", "text"), and
    whether it only runs when nothing before found an answer and keeps an earlier reason if it fails."""

    answerer: str
    fallback: bool = False
    timing: str | None = None     # the key its time is reported under


# Which answerers answer which intent, in order; the first verified answer wins.
DEFAULT_ROUTE = (Step("facts"), Step("figures", timing="figures_ms"), Step("disclosure", fallback=True),
                 Step("text", fallback=True, timing="answer_ms"))
ROUTES: dict[Intent, tuple[Step, ...]] = {
    # An event asked of the filing ("did X report a goodwill impairment") is answered by what the
    # filing says; the figures answerer would answer the balance instead.
    Intent.EVENT: (Step("facts"), Step("disclosure"), Step("figures", timing="figures_ms"),
                   Step("text", fallback=True, timing="answer_ms")),
    # "What are the main risks?": the Item that discusses the topic, read whole (answer/section.py).
    Intent.SECTION: (Step("facts"), Step("section", timing="answer_ms"), Step("text", fallback=True, timing="answer_ms")),
    # "Which segment had the highest operating income?": the group's table, its members ranked (answer/ranking.py);
    # the figures answerer would answer the company's total.
    Intent.RANK: (Step("facts"), Step("ranking", timing="figures_ms"), Step("text", fallback=True, timing="answer_ms")),
    # "How much debt matures in 2025?" of a 2022 10-K: the year's cell of the filing's schedules (answer/scheduled.py),
    # then the figures answerer (a sentence that states what is expected for the year).
    Intent.SCHEDULED: (Step("scheduled", timing="figures_ms"), Step("figures", timing="figures_ms"),
                       Step("text", fallback=True, timing="answer_ms")),
}


class Asker:
    """``answerers`` names each step's answerers: "facts" (cover facts, enumerated lists), "figures",
    "disclosure" (a verdict from the filing's full text), "section", "text" (the lines that answer);
    a step with none is skipped."""

    def __init__(self, store: Store, searcher: HybridSearcher, answerers: Mapping[str, Sequence[Answerer]]):
        self.store = store
        self.searcher = searcher
        self.answerers = {name: tuple(a for a in group if a is not None) for name, group in answerers.items()}

    def ask(self, request: AskRequest) -> Answer:
        started = time.perf_counter()
        question = request.question
        progress = request.progress
        documents = self.store.documents()
        if not documents:
            return self._not_found(question, "the index holds no documents yet; ingest some filings first", started)
        t = time.perf_counter()
        plan = request.plan or self.searcher.plan(question, documents, request.filters)
        plan_ms = (time.perf_counter() - t) * 1000
        if plan.intent is Intent.STATISTIC:
            answer = self._stats(plan, request.filters, documents, started, progress)
            if answer:
                return answer
        if plan.intent is Intent.PARTS:
            return self._parts(plan, request, started)

        scoped = in_scope(documents, request.filters)
        progress("searching", f"searching {plural(sum(d.pages for d in scoped), 'page')} of "
                              f"{plural(len(scoped), 'filing')}")
        result = self.searcher.search(plan, documents, k=max(request.k, EVIDENCE_PAGES), filters=request.filters)
        timings = {"search_ms": round(result.timings.get("total_ms", 0.0) + plan_ms, 1)}
        missing = missing_subject(plan, documents, request.filters)
        if missing:
            return self._not_found(question, missing, started, timings)
        if not result.hits:
            return self._not_found(question, "no page in the filings matches the question", started, timings)

        evidence = self._evidence(result.hits[: request.k])
        pages = {(p.document_id, p.page): p.text for p in evidence}
        grounding = grounding_for(plan, request.filters, documents)
        companies = set(canonical_companies(documents).values())
        if not plan.companies and request.filters.is_empty() and len(companies) > 1 and not singled_out(plan, documents):
            # Whose filing? Without a company (or a date that singles one filing out), any answer
            # would come from whichever company's page happened to match best.
            return self._not_found(question, whose_filing(plan, documents, len(companies)), started, timings)
        progress("reading", f"reading statements and tables on {plural(len(evidence), 'page')} of "
                            f"{', '.join(dict.fromkeys(p.document for p in evidence))}")
        best: Answer | None = None
        for step in ROUTES.get(plan.intent, DEFAULT_ROUTE):
            if best is not None and best.found:
                break
            t = time.perf_counter()
            for candidate in self._run(step.answerer, plan, evidence, pages, grounding, progress):
                if step.fallback:
                    best = candidate if candidate.found or best is None else best
                else:
                    best = candidate
                if best.found:
                    break
            if step.timing:
                timings[step.timing] = round((time.perf_counter() - t) * 1000, 1)
        if best is None:
            return self._not_found(question, "no answerer could read the question", started, timings)
        if best.found and (mismatch := currency_mismatch(plan, best, pages, documents)):
            return self._not_found(question, mismatch, started, timings)
        timings["total_ms"] = round((time.perf_counter() - started) * 1000, 1)
        if best.found:
            best = best.model_copy(update={"text": with_source(best, documents)})
        return best.model_copy(update={"id": uuid.uuid4().hex[:12], "timings": timings})

    def _parts(self, plan: QuestionPlan, request: AskRequest, started: float) -> Answer:
        """Each part of a question that asks several measures, asked on its own (with the same
        filters), given back as one answer: the parts found, and for the others why not."""
        answers = [self.ask(self._part_request(part, plan, request)) for part in plan.parts]
        found = [a for a in answers if a.found]
        if not found:
            reasons = "; ".join(dict.fromkeys(a.reason for a in answers if a.reason))
            return self._not_found(plan.question, reasons or "no part of the question is answered by the filings",
                                   started)
        lines = [a.text if a.found else f"{part.rstrip(' ?')}: not found ({a.reason})"
                 for part, a in zip(plan.parts, answers)]
        states = {a.verification for a in found}
        verification = "verified" if states == {"verified"} and len(found) == len(answers) else \
            "passages" if states == {"passages"} else "partial"
        timings = {"total_ms": round((time.perf_counter() - started) * 1000, 1)}
        return Answer(
            id=uuid.uuid4().hex[:12], question=plan.question, text="\n".join(lines), found=True,
            # two parts read off one printed line ("the three and six months ended ...") cite it once
            citations=tuple({(c.document_id, c.page, c.quote): c for a in found for c in a.citations}.values()),
            figures=tuple(f for a in found for f in a.figures),
            formula="; ".join(a.formula for a in found if a.formula) or None, answerer="parts",
            verification=verification, timings=timings,
            reason=None if len(found) == len(answers) else f"{len(answers) - len(found)} of {len(answers)} parts not found")

    def _part_request(self, part: str, plan: QuestionPlan, request: AskRequest) -> AskRequest:
        """One part, planned once. A part that names no company is about the company the whole question
        names ("What was Frito-Lay North America's net revenue in 2021, and what was PepsiCo's total net
        revenue?")."""
        filters, documents = request.filters, self.store.documents()
        part_plan = self.searcher.plan(part, documents, filters)
        if (not part_plan.companies and len(plan.companies) == 1 and not filters.companies
                and not filters.document_ids):
            filters = filters.model_copy(update={"companies": plan.companies})
            part_plan = self.searcher.plan(part, documents, filters)
        return AskRequest(question=part, filters=filters, k=request.k, plan=part_plan, progress=request.progress)

    def _run(self, name: str, plan: QuestionPlan, evidence: list[EvidencePage], pages: dict[tuple[str, int], str],
             grounding: Grounding, progress: StageReporter):
        """The verified answers of one step of a route, in order (a step may hold several answerers)."""
        if name == "text":
            progress("composing", f"composing an answer from the lines printed on {plural(len(evidence), 'page')}")
            for answerer in self.answerers.get(name, ()):
                # the text answerer reads the retrieved pages only
                draft = answerer.answer(plan, Evidence.of(evidence))
                if draft is not None:
                    yield self._text_checked(self._verified(draft, plan, pages, grounding, progress), plan)
            return
        if name == "section":
            progress("composing", "quoting the section of the filing that discusses it")
        given = Evidence.of(evidence, self.store)
        for answerer in self.answerers.get(name, ()):
            draft = answerer.answer(plan, given)
            if draft is not None:
                yield self._verified(draft, plan, pages, grounding, progress)

    def _text_checked(self, candidate: Answer, plan: QuestionPlan) -> Answer:
        """Lines quoted for a question that asks an amount must state it; passages are no verdict
        on a comparison of two figures."""
        reason = None
        if candidate.found and plan.amount and (missing := amount_missing(plan, candidate.citations)):
            reason = missing
        elif candidate.found and plan.scheduled and (candidate.verification == "passages"
                                                     or not quotes_the_year(plan.scheduled, candidate.citations)):
            # "debt maturing in 2025": lines of the filing's own years state no figure for the year asked
            reason = f"no line of the filing states a figure for {plan.scheduled.year} of what is asked"
        elif candidate.found and candidate.verification == "passages" and plan.amount and not plan.verdict:
            # A figure asked and lines that only mention its topic: no figure was found.
            reason = "the question asks for a figure; the closest lines in the filing only mention its topic"
        elif candidate.found and candidate.verification == "passages" and plan.judgement == "compare":
            # "Was cash from operations larger than net income?" is two figures set side by
            # side; passages that mention either are no verdict.
            reason = "the filings' statements did not give both sides of the comparison for the period asked"
        if reason is None:
            return candidate
        return candidate.model_copy(update={
            "found": False, "text": "Not found in the documents.", "verification": "not_found", "citations": (),
            "reason": reason})

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

    def _verified(self, draft: Draft, plan: QuestionPlan, pages: dict[tuple[str, int], str],
                  grounding: Grounding | None = None, progress: StageReporter | None = None) -> Answer:
        if progress is not None:
            progress("verifying", f"checking {plural(len(draft.citations), 'quoted line')} and "
                                  f"{plural(len(draft.figures), 'figure')} against the pages"
                     if draft.citations or draft.figures else "checking the draft against the question")
        # Verification reads whole cited pages, also ones the answerer fetched beyond the evidence.
        for c in draft.citations:
            key = (c.document_id, c.page)
            if key not in pages:
                stored = self.store.page(c.document_id, c.page)
                if stored is not None:
                    pages[key] = stored.text
        answer = verify(draft, plan, pages, grounding)
        citations = tuple(self._with_boxes(c) for c in answer.citations)
        return answer.model_copy(update={"citations": citations})

    def _with_boxes(self, citation: Citation) -> Citation:
        if citation.boxes:
            return citation
        page = self.store.page(citation.document_id, citation.page)
        return citation.model_copy(update={"boxes": tuple(quote_boxes(page, citation.quote))}) if page else citation

    def _stats(self, plan: QuestionPlan, filters: SearchFilters, documents: list[Document], started,
               progress: StageReporter) -> Answer | None:
        question = plan.question
        kind, term = plan.statistic.kind, plan.statistic.term
        doc = _single_document(plan, filters, documents)
        if doc is None:
            return None
        progress("reading", f"counting over the full text of {doc.file_name} ({plural(doc.pages, 'page')})")
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


def currency_mismatch(plan: QuestionPlan, answer: Answer, pages: dict[tuple[str, int], str],
                      documents: list[Document]) -> str | None:
    """A figure asked "in euros" of a filing that reports and prints none: the filing has no such
    figure (and an exchange rate is not ours to supply)."""
    currency = plan.currency
    if currency is None:
        return None
    by_id = {d.id: d for d in documents}
    for c in answer.citations:
        reported = by_id[c.document_id].meta.currency if c.document_id in by_id else None
        page = pages.get((c.document_id, c.page), "")
        if reported == currency.code:
            return None
        # a "$" on a Canadian report is C$: another currency counts only when named outright
        if (printed_in(currency, page) if reported is None else currency.asked.search(page) is not None):
            return None
    reported = {getattr(by_id[c.document_id].meta, "currency", None) for c in answer.citations if c.document_id in by_id}
    said = ", ".join(sorted(r for r in reported if r)) or "another currency"
    return (f"the question asks for the figure in {currency.code}; the cited filing reports in {said} "
            f"and its cited pages print no {currency.code} amounts")


def in_scope(documents: list[Document], filters: SearchFilters) -> list[Document]:
    """The filings a search with these filters reads (for saying how much is searched, not for searching)."""
    from docqa.plan.companies import company_names, normalize_name

    wanted = {normalize_name(c) for c in filters.companies}
    return [d for d in documents
            if (not filters.document_ids or d.id in filters.document_ids or d.file_name in filters.document_ids)
            and (not filters.years or d.meta.fiscal_year in filters.years)
            and (not filters.doc_types or d.meta.doc_type in {k for t in filters.doc_types for k in t.family})
            and (not wanted or bool(wanted & company_names(d)))]


def whose_filing(plan: QuestionPlan, documents: list[Document], held: int) -> str:
    """Why a question that names no company is not answered: the companies whose filings its date
    fits, when it gives one, else how many companies the index holds."""
    ids = {i for g in plan.groups for i in g.document_ids}
    canonical = canonical_companies(documents)
    dated = sorted({canonical.get(d.id) or d.meta.company or d.file_name for d in documents if d.id in ids})
    if plan.dated and len(dated) > 1:
        named = ", ".join(dated[:4]) + (f" and {len(dated) - 4} more" if len(dated) > 4 else "")
        return (f"filings of {len(dated)} companies close on {plan.dated} ({named}); name the company "
                "(or pass company=/document=)")
    return f"the question names none of the {held} companies in the index; name the company (or pass company=/document=)"


def singled_out(plan: QuestionPlan, documents: list[Document]) -> list[Document]:
    """The filings of one company that the question's details (a printed period end) point at."""
    ids = {i for g in plan.groups for i in g.document_ids}
    chosen = [d for d in documents if d.id in ids]
    canonical = canonical_companies(documents)
    return chosen if chosen and len({canonical.get(d.id) for d in chosen}) == 1 else []


def grounding_for(plan: QuestionPlan, filters: SearchFilters, documents: list[Document]) -> Grounding:
    """The filings an answer to this question may cite: the named companies', or the scope given."""
    canonical = canonical_companies(documents)
    company_of: dict[str, str | None] = {}
    for d in documents:
        company_of[d.id] = company_of[d.file_name] = canonical.get(d.id, d.meta.company)
    if filters.document_ids:
        allowed = [d for d in documents if d.id in filters.document_ids or d.file_name in filters.document_ids]
    elif plan.companies:
        allowed = [d for d in documents if canonical.get(d.id) in plan.companies]
    else:
        allowed = singled_out(plan, documents)
    return Grounding(allowed=frozenset([d.id for d in allowed] + [d.file_name for d in allowed]),
                     company_of=company_of, companies_asked=len(plan.companies), filings={d.id: d for d in documents})


def with_source(answer: Answer, documents: list[Document]) -> str:
    """The answer, closed by whose filing it read: "(Source: 3M Company, 10-K fiscal 2018.)"."""
    by_id = {d.id: d for d in documents}
    shown: list[str] = []
    for c in answer.citations:
        d = by_id.get(c.document_id)
        if d is None:
            continue
        label = f"{d.meta.company or 'company unknown'}, {filing_label(d)}"
        if label not in shown:
            shown.append(label)
    if not shown:
        return answer.text
    return f"{answer.text.rstrip()} (Source: {'; '.join(shown[:3])}.)"


_KIND_LABEL = {"10k": "10-K", "10q": "10-Q", "8k": "8-K", "20f": "20-F", "40f": "40-F", "earnings": "earnings release",
               "annual_report": "annual report", "financial_statements": "financial statements", "other": "filing"}


def filing_label(d: Document) -> str:
    kind = _KIND_LABEL.get(d.meta.doc_type.value if d.meta.doc_type else "other", "filing")
    # a filer that names its year by the calendar year it starts in: both names ("Q4 fiscal 2023, the
    # filer's fiscal 2022, ended 2023-01-28")
    named = f", the filer's fiscal {d.meta.named_year}, ended {d.meta.period_end}" if d.meta.named_year else ""
    if d.meta.fiscal_quarter and d.meta.fiscal_year:
        return f"{kind} Q{d.meta.fiscal_quarter} fiscal {d.meta.fiscal_year}{named}"
    return f"{kind} fiscal {d.meta.fiscal_year}" if d.meta.fiscal_year else kind


def _single_document(plan: QuestionPlan, filters: SearchFilters, documents: list[Document]) -> Document | None:
    if filters.document_ids:
        return next((d for d in documents if d.id in filters.document_ids), None)
    companies = list(filters.companies) or list(plan.companies)
    canonical = canonical_companies(documents)
    pool = [d for d in documents if not companies or canonical.get(d.id) in companies or d.meta.company in companies]
    chosen, _ = choose_documents(pool, list(filters.years) or list(plan.years), plan.quarter,
                                 list(filters.doc_types) or list(plan.doc_types))
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


def _reported_after(held: list[Document], day: str) -> bool:
    """An annual report, filed months after its year closes, states what was so on a later day ("As of
    January 31, 2023, we held ... applicators"; the shares outstanding on its cover)."""
    return any(d.meta.period_end and d.meta.doc_type is not None and d.meta.doc_type.is_annual
               and d.meta.period_end < day and days_apart(d.meta.period_end, day) <= ANNUAL_FILED_WITHIN for d in held)


def missing_subject(plan: QuestionPlan, documents: list[Document], filters: SearchFilters) -> str | None:
    """Why the filings cannot answer: a company or period the index does not hold. None if fine."""
    if not filters.is_empty() and not plan.groups:
        return "no indexed document matches the filters given"
    if plan.unheld:
        held = sorted(set(canonical_companies(documents).values()))
        near = (f"the closest names are {', '.join(plan.closest)}" if plan.closest
                else f"none has a similar name (they include {', '.join(held[:4])}{'…' if len(held) > 4 else ''})")
        return f"the index holds no filing by {plan.unheld[0]!r}; of the {len(held)} companies it holds, {near}"
    if plan.balance_day and not plan.period_end and plan.companies:
        canonical = canonical_companies(documents)
        for company in plan.companies:
            held = [d for d in documents if canonical.get(d.id) == company]
            ends = sorted(d.meta.period_end for d in held if d.meta.period_end)
            dated = [d.meta.report_date for d in held if d.meta.report_date]
            if (ends and ends[-1] < plan.balance_day and not any(days_apart(e, plan.balance_day) <= 7 for e in ends)
                    and not any(days_apart(r, plan.balance_day) <= 7 for r in dated)
                    and not _reported_after(held, plan.balance_day)):
                return (f"the index holds no filing of {company} as of {plan.balance_day}; "
                        f"its latest filing closes on {ends[-1]}")
    if plan.period_end and plan.companies:
        canonical = canonical_companies(documents)
        for company in plan.companies:
            ends = sorted(d.meta.period_end for d in documents if canonical.get(d.id) == company and d.meta.period_end)
            if ends and ends[-1] < plan.period_end and not any(days_apart(e, plan.period_end) <= 7 for e in ends):
                return (f"the index holds no filing of {company} for the period ended {plan.period_end}; "
                        f"its latest filing closes on {ends[-1]}")
    if plan.years and plan.companies:
        canonical = canonical_companies(documents)
        for company in plan.companies:
            years = sorted({d.meta.fiscal_year for d in documents if canonical.get(d.id) == company and d.meta.fiscal_year})
            wanted = max(plan.years)
            if plan.balance_day and _reported_after([d for d in documents if canonical.get(d.id) == company],
                                                    plan.balance_day):
                continue
            named_filing = set(plan.periods.filings) & set(years)
            if years and all(wanted > y for y in years) and not named_filing:
                # (a later year asked of a filing the question names, held: "the fiscal 2024 dividend, as
                # reported in its fiscal 2023 annual report" is the filing's to state)
                return (f"the index holds no filing of {company} for {wanted}; "
                        f"it holds fiscal years {', '.join(map(str, years))}")
            if years and all(y > wanted + 2 for y in years):
                return (f"the index holds no filing of {company} covering {wanted}; "
                        f"it holds fiscal years {', '.join(map(str, years))}")
    return None
