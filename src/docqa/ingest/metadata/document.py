"""What a filing is, read from its own pages: company, ticker and exchange, filing type, fiscal
period, currency. Document fields come from the first pages (the SEC cover, or a press release's
headline), so detection costs a few regexes per document."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from docqa.ingest.metadata.currency import reporting_currency
from docqa.ingest.metadata.filing_type import filing_type, find_cover
from docqa.ingest.metadata.former_names import former_names
from docqa.ingest.metadata.listing import listing
from docqa.ingest.metadata.names import (
    HEADLINE_SUBJECT,
    LEGAL_FORM,
    aliases,
    defined_names,
    is_generic_name,
    name_in_release,
    names_on_cover,
    readable,
)
from docqa.ingest.metadata.period import named_year, period, report_date
from docqa.ingest.metadata.registrant import acceptable, choose, legal_names, registrant_candidates, tidy
from docqa.ingest.metadata.text import flat_text
from docqa.types import DocType, DocumentMeta, Page

HEAD_PAGES = 3      # the cover and the headline live here
NAME_PAGES = 40     # pages read to learn the short name a filer uses for itself


def detect_document(pages: Sequence[Page]) -> DocumentMeta:
    """Company, ticker, filing type and fiscal period, from the document's own pages."""
    first = [p for p in pages[: HEAD_PAGES + 2] if p.lines][:HEAD_PAGES]  # skip blank covers
    cover_at = find_cover(pages)
    head_pages = [p for p in pages[cover_at : cover_at + HEAD_PAGES + 2] if p.lines][:HEAD_PAGES] if cover_at is not None else first
    lines = [line.text.strip() for p in head_pages for line in p.lines if line.text.strip()]
    head = flat_text(" ".join(lines))
    headline = flat_text(" ".join(lines[:120]))
    # Each page's text, and its words on one line, made once: the detectors read every page's
    # (flat_text of pages joined is their flat texts joined, the empty ones left out)
    texts = [p.text for p in pages]
    flats = [flat_text(t) for t in texts]
    body = " ".join(f for f in flats[:NAME_PAGES] if f)

    doc_type = filing_type(lines, headline)
    if doc_type is DocType.OTHER and cover_at is None:
        doc_type = filing_type([line.text.strip() for p in first for line in p.lines], headline)
    fiscal_year, quarter, end = period(doc_type, head, headline, body)
    if doc_type is DocType.OTHER and end is not None:
        # no title block, yet its statements report one year: an annual report whose cover is a
        # picture or a letter (the 10-K's items follow without the SEC cover)
        doc_type = DocType.ANNUAL_REPORT

    # who filed it: every source that names the filer, weighed together
    cover_page = head_pages[0].number if cover_at is not None and head_pages else None
    title_pages = [p for p in pages[: cover_at if cover_at else 2] if p.lines][:2]
    found = registrant_candidates(pages, lines if cover_page else [], cover_page, title_pages, flats)
    release_name, release_ticker = name_in_release(head)
    found.add(release_name, "release", release_name or "", head_pages[0].number if head_pages else 1)
    if subject := HEADLINE_SUBJECT.match(headline):
        stem = subject.group(1).strip()
        # "Amcor reports ..." -> the registered name that starts with it: "Amcor plc"
        legal = Counter(re.findall(rf"\b{re.escape(stem)}\s*,?\s+(?:{LEGAL_FORM})(?![\w])", body))
        found.add(legal.most_common(1)[0][0] if legal else stem, "headline", headline[:120], 1)
    whole = " ".join(f for f in flats if f)
    frequent = Counter(n for n in legal_names(whole) if acceptable(tidy(n)))
    if frequent:
        name, count = frequent.most_common(1)[0]
        if count >= 3:
            found.add(name, "frequent", f"{name} ({count} times)", 1)
    name, confidence, evidence, spellings = choose(found, whole)

    ticker, exchange = listing(lines, head if cover_at is not None else " ".join(f for f in flats[:3] if f))
    ticker = ticker or release_ticker
    currency = reporting_currency(pages, texts)
    common = dict(
        ticker=ticker, doc_type=doc_type, fiscal_year=fiscal_year, fiscal_quarter=quarter,
        period_end=end.isoformat() if end else None, company_confidence=confidence,
        company_evidence=evidence, exchange=exchange, currency=currency, report_date=report_date(doc_type, head),
        named_year=named_year(doc_type, headline, fiscal_year),
    )
    if not name:
        return DocumentMeta(**common)

    company = readable(name)
    cover_names = names_on_cover(lines) if cover_page else []
    extra = [readable(n) for n in spellings]
    extra += [readable(n) for n in cover_names if acceptable(tidy(n))]
    extra += [release_name] if release_name and not is_generic_name(release_name) else []
    extra += defined_names(company, head) + defined_names(name, head)
    extra += [readable(n) for n in former_names(company, pages, lines if cover_page else [], flats)]
    return DocumentMeta(company=company, aliases=aliases(company, body, extra), **common)
