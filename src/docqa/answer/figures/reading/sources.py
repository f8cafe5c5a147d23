"""Which filings a figure is read from: their statement tables, pages and fiscal calendars.

The evidence's leading filings (their primary statements first, then the evidence pages), the
same company's annual report when years are asked of quarterly filings, and every table of a
filing for a line item no statement prints.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from docqa.finance.periods import FiscalCalendar, Period
from docqa.finance.periods import header_quarter
from docqa.finance.table_scale import INFERRED, scaled_like_statements
from docqa.finance.tables import (Chooser, Column, StatementTable, with_centred_years, with_own_year_filled, with_spanning_year,
                                  without_parent_only)
from docqa.plan import QuestionPlan
from docqa.plan.companies import canonical_companies
from docqa.plan.periods import days_apart
from docqa.store.base import Store, StoredPage
from docqa.types import DocType, DocumentMeta, EvidencePage

MAX_DOCUMENTS = 2     # the evidence's leading filings; beyond them the question is elsewhere


@dataclass
class Source:
    """One filing's statement tables, and how to read its columns as fiscal periods."""

    document: str
    document_id: str
    tables: list[StatementTable]
    pages: dict[int, StoredPage]
    calendar: FiscalCalendar | None = None
    quarterly: bool = False          # a 10-Q or an earnings release: quarter and year-to-date columns
    fiscal_quarter: int | None = None
    fiscal_year: int | None = None
    names: tuple[str, ...] = ()      # the filer's names (its own columns beside a subsidiary's: "PG&E Corporation | Utility")
    # The part of the company asked (a segment, a region): of columns split by part, the one that
    # names it (scoped.py sets it); else the whole company's.
    part: Callable[[Column], bool] | None = None
    # ... and the section heading naming that part a table is printed under, if any ("Verizon
    # Consumer Group" over pages of tables whose titles name no segment)
    section: Callable[[StatementTable], str] | None = None

    @cached_property
    def tagged(self) -> bool:
        """An inline XBRL filing: its tables' cells carry tagged facts."""
        return any(has_tags(t) for t in self.tables)

    def column(self, table: StatementTable, period: Period, stock: bool | None,
               choose: Chooser | None = None) -> Column | None:
        if period.quarter is None and not self.quarterly:
            # An annual report: the year's column as the statement reader dated it; never a
            # quarter's (its quarterly-data note prints four columns per year).
            column = table.column_for(period.fiscal_year, part=self.part, choose=choose)
            if column is not None and (column.period in ("quarter", "ytd") or (column.months or 12) < 12
                                       or header_quarter(column.header) is not None):
                return None
            return column
        return table.column_for_period(period, self.calendar, self.fiscal_quarter, stock, part=self.part, choose=choose)


def the_filers_column(columns: list[Column], source: Source) -> Column | None:
    """Of columns of one period split by entity ("PG&E Corporation | Utility"), the one the filer's
    own name heads: the company asked, not its subsidiary."""
    names = [re.sub(r"[^a-z0-9]", "", n.lower()) for n in source.names]
    headed = [c for c in columns if any(n and n in re.sub(r"[^a-z0-9]", "", c.header.lower()) for n in names)]
    return headed[0] if len(headed) == 1 else None


def filing_sources(evidence: list[EvidencePage], store: Store) -> list[Source]:
    """Tables of the leading filings: their primary statements first, then the evidence pages."""
    order: list[tuple[str, str]] = []
    for page in evidence:
        if (page.document_id, page.document) not in order:
            order.append((page.document_id, page.document))
    out = []
    for document_id, document in order[:MAX_DOCUMENTS]:
        pages = {p.number: p for p in store.pages(document_id)}
        statement_pages = [n for n, p in pages.items() if p.info and p.info.statement and p.tables]
        evidence_pages = [e.page for e in evidence if e.document_id == document_id and pages.get(e.page) and pages[e.page].tables]
        seen: list[int] = []
        for n in statement_pages + evidence_pages:
            if n not in seen:
                seen.append(n)
        tables = [t for n in seen for t in pages[n].tables]
        if tables:
            doc = store.document(document_id)
            out.append(_source(document, document_id, tables, pages, doc.meta if doc else None))
    return out


def annual_report(store: Store, document_id: str, year: int | None) -> Source | None:
    """The same company's annual report for ``year`` (or the one just after, which prints it as a
    comparative); with no year, its latest."""
    documents = store.documents()
    canonical = canonical_companies(documents)
    company = canonical.get(document_id)
    if company is None:
        return None
    annuals = [d for d in documents if canonical.get(d.id) == company and d.meta.doc_type is not None and d.meta.doc_type.is_annual
               and d.meta.fiscal_year is not None]
    if year is not None:
        annuals = [d for d in annuals if year <= d.meta.fiscal_year <= year + 1]  # type: ignore[operator]
    if not annuals:
        return None
    doc = min(annuals, key=lambda d: d.meta.fiscal_year - year) if year is not None else max(  # type: ignore[operator]
        annuals, key=lambda d: d.meta.fiscal_year or 0)
    pages = {p.number: p for p in store.pages(doc.id)}
    tables = [t for n, p in sorted(pages.items()) if p.info and p.info.statement for t in p.tables]
    if not tables:
        return None
    return _source(doc.file_name, doc.id, tables, pages, doc.meta)


def dated_quarter(plan: QuestionPlan, sources: list[Source], store: Store) -> Period | None:
    """The fiscal quarter a question names by its end date, when a quarterly source closes on it, or
    closes a year after it (the same quarter of the year before, printed beside its own)."""
    if not plan.dated or plan.year_ended:
        return None  # "the year ended June 30, 2023" is a year, though a fourth-quarter release closes on it
    for source in sources:
        doc = store.document(source.document_id)
        meta = doc.meta if doc else None
        if not (meta and source.quarterly and meta.fiscal_quarter and meta.fiscal_year and meta.period_end):
            continue
        apart = days_apart(meta.period_end, plan.dated)
        if apart <= 7 and meta.fiscal_quarter == 4 and not plan.quarter_span and plan.quarter is None:
            return None  # "as of June 30, 2023", the fiscal year's last day: the year's balance, not a quarter's
        if apart <= 7:
            return Period(meta.fiscal_year, meta.fiscal_quarter)
        if 358 <= apart <= 372 and meta.period_end > plan.dated:
            return Period(meta.fiscal_year - 1, meta.fiscal_quarter)
    return None


def _source(document: str, document_id: str, tables: list[StatementTable], pages: dict[int, StoredPage],
            meta: DocumentMeta | None) -> Source:
    quarterly = bool(meta and (meta.doc_type in (DocType.QUARTERLY, DocType.EARNINGS) or meta.fiscal_quarter))
    quarter = meta.fiscal_quarter if meta and quarterly else None
    calendar = None
    if meta is not None:
        anchor = meta.period_end
        if quarterly and anchor is None:
            # No period in the metadata: the latest quarter column closes the filing's quarter.
            ends = [c.period_end for t in tables for c in t.period_columns() if c.period_end and c.months == 3]
            anchor = max(ends) if ends and quarter else None
        if anchor:
            try:
                calendar = FiscalCalendar.from_period_end(anchor, meta.fiscal_year, quarter)
            except ValueError:
                calendar = None
    tables = [with_centred_years(with_spanning_year(t)) for t in tables]
    if not quarterly and meta is not None:
        tables = [with_own_year_filled(t, meta.fiscal_year) for t in tables]
    names = tuple(n for n in ((meta.company,) + tuple(meta.aliases) if meta is not None and meta.company else ()) if n)
    return Source(document, document_id, without_parent_only(tables), pages, calendar, quarterly, quarter,
                  meta.fiscal_year if meta is not None else None, names=names)


def has_tags(table: StatementTable) -> bool:
    return any(c.fact is not None for r in table.rows for c in r.cells)


_TABLE_CACHE: dict[str, list[StatementTable]] = {}
_TABLE_CACHE_SIZE = 8


def all_tables(source: Source) -> list[StatementTable]:
    """Every table of the filing (statements and evidence pages first, then notes, MD&A, segments)."""
    cached = _TABLE_CACHE.get(source.document_id)
    if cached is None:
        cached = [with_centred_years(with_spanning_year(t)) for n, p in sorted(source.pages.items()) for t in p.tables]
        if not source.quarterly:
            cached = [with_own_year_filled(t, source.fiscal_year) for t in cached]
        cached = scaled_like_statements(cached)
        if len(_TABLE_CACHE) >= _TABLE_CACHE_SIZE:
            _TABLE_CACHE.pop(next(iter(_TABLE_CACHE)))
        _TABLE_CACHE[source.document_id] = cached
    # (the tables this question reads first differ by question: they are left out of the rest here,
    # not in what is kept for the next question)
    seen = {(t.page, t.bbox) for t in source.tables}
    first = list(source.tables)
    if any(t.unit is None for t in first):  # the evidence tables' scale, as the whole filing's reading gave it
        scaled = {(t.page, t.bbox): t for t in cached if t.unit_text == INFERRED}
        first = [scaled.get((t.page, t.bbox), t) if t.unit is None else t for t in first]
    return without_parent_only(first + [t for t in cached if (t.page, t.bbox) not in seen])
