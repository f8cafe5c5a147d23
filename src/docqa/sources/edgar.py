"""Fetch a company's filings from SEC EDGAR by ticker: `docqa fetch PFE --form 10-Q --years 2023`.

1. ticker -> CIK from the SEC's company-ticker map (``Settings.edgar.sec_tickers_url``);
2. the filing list from the submissions API (``sec_submissions_url``/CIK##########.json; older
   filings are in the extra pages it lists under ``filings.files``, read only when needed);
3. each chosen filing's primary document from the archives
   (``sec_archives_url``/<cik>/<accession without dashes>/<primaryDocument>).

The SEC's fair-access rules are kept: every request names its sender (``DOCQA_SEC_USER_AGENT``,
required: "Name email@example.com"), and requests start at most ``sec_requests_per_second`` (<= 10)
a second. Everything downloaded is kept under ``<index>/edgar/``: filings for good (EDGAR never changes
a filed document), the ticker map and filing lists for ``sec_listing_max_age_h`` hours, so a second
fetch downloads nothing, and a fetch without a network still works from what is cached.

A broken or hostile server is held to limits (edgar_http.py): each download stops at its cap
(``sec_max_listing_mb``, ``sec_max_document_mb``) and at ``sec_timeout_s`` for the whole download, and
redirects are followed only within the configured SEC hosts. Every value the listings give is checked
against its documented shape before it is used (edgar_listings.py), and every cache path is checked to
lie under ``<index>/edgar/``.
"""

from __future__ import annotations

import difflib
import json
import logging
import os
import re
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict

from docqa.config import Settings
from docqa.sources.edgar_http import (
    Cap,
    EdgarError,
    EdgarHttp,
    RateLimiter,
    TooLarge,
    show,
    user_agent,
)
from docqa.sources.edgar_listings import (
    FORMS,
    Columns,
    Filing,
    Malformed,
    Page,
    Submissions,
    TickerMap,
    filings_of,
    page_name_ok,
    parse_page,
    parse_submissions,
    parse_tickers,
)
from docqa.types import IngestReport

log = logging.getLogger(__name__)

ANNUAL_FORMS = ("10-K", "20-F", "40-F")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class FetchedFiling(_Model):
    filing: Filing
    url: str
    path: str | None = None      # the local copy, when there is one
    downloaded: bool = False     # False: it came from the cache
    error: str | None = None


class FetchReport(_Model):
    ticker: str
    cik: int
    company: str
    filings: tuple[FetchedFiling, ...] = ()
    requests: int = 0            # HTTP requests made to the SEC
    warnings: tuple[str, ...] = ()
    ingest: IngestReport | None = None


# --- arguments ----------------------------------------------------------------------------------


def parse_forms(forms: Iterable[str] | None) -> tuple[str, ...]:
    """Forms as the SEC writes them (10-K, 10-Q, 8-K, 20-F, 40-F; their /A amendments too)."""
    out: list[str] = []
    for raw in forms or ():
        for part in str(raw).split(","):
            form = part.strip().upper().replace(" ", "")
            if not form:
                continue
            form = re.sub(r"^(10|20|40)(K|Q|F)", r"\1-\2", form).replace("8K", "8-K")
            base = form.removesuffix("/A")
            if base not in FORMS:
                raise ValueError(f"form must be one of {', '.join(FORMS)} (or an amendment such as 10-K/A), "
                                 f"not {part.strip()!r}")
            out.append(form)
    return tuple(dict.fromkeys(out))


def parse_years(years: str | None) -> tuple[int, int] | None:
    """'2021-2024' -> (2021, 2024); '2023' -> (2023, 2023); None -> None."""
    if years is None or not str(years).strip():
        return None
    match = re.fullmatch(r"\s*(\d{4})\s*(?:[-–:]\s*(\d{4})\s*)?", str(years))
    if not match:
        raise ValueError(f"years must look like 2023 or 2021-2024, not {years!r}")
    first, last = int(match.group(1)), int(match.group(2) or match.group(1))
    if first > last:
        first, last = last, first
    if first < 1993 or last > 2200:
        raise ValueError(f"years must be between 1993 (EDGAR's first filings) and 2200, not {years!r}")
    return first, last


# --- the client ---------------------------------------------------------------------------------


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


@dataclass(frozen=True)
class _Listing:
    """One kind of JSON listing: what it is called in messages, the setting whose URL serves it, its parser."""
    what: str
    setting: str
    parse: Callable[[Any], Any]


TICKER_MAP = _Listing("the SEC's company-ticker map", "DOCQA_SEC_TICKERS_URL", parse_tickers)
SUBMISSIONS = _Listing("EDGAR's submissions JSON", "DOCQA_SEC_SUBMISSIONS_URL", parse_submissions)
OLDER_PAGE = _Listing("an EDGAR submissions page", "DOCQA_SEC_SUBMISSIONS_URL", parse_page)


def _json(body: bytes) -> object:
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as exc:  # not JSON, not UTF-8, nested too deep
        raise Malformed(f"it is not JSON ({type(exc).__name__}: {str(exc)[:100]})") from None


class EdgarClient(EdgarHttp):
    """EDGAR's listings and documents, kept in the cache under ``cache_dir``; nothing is written outside it."""

    def __init__(self, settings: Settings, cache_dir: Path | None = None, transport: httpx.BaseTransport | None = None):
        super().__init__(settings, transport)
        self.cache_dir = Path(cache_dir) if cache_dir is not None else settings.index / "edgar"
        self.warnings: list[str] = []

    def _inside(self, path: Path) -> Path:
        """``path`` if it lies in the cache folder once resolved (symbolic links too); EdgarError if not."""
        root = self.cache_dir.resolve()
        real = path.resolve()
        if not real.is_relative_to(root):
            raise EdgarError(f"refused to write {path}: it lies outside the cache folder {root}")
        return real

    def _listing(self, url: str, path: Path, refresh: bool, kind: _Listing) -> Any:
        """A JSON listing, checked, from the cache while it is younger than sec_listing_max_age_h; a stale
        copy stands in (with a warning) when EDGAR cannot be reached or answers something malformed."""
        path = self._inside(path)
        fresh = False
        if path.is_file():
            age_h = (time.time() - path.stat().st_mtime) / 3600
            fresh = not refresh and age_h < self.settings.edgar.sec_listing_max_age_h
        if not fresh:
            try:
                body = self.get(url, Cap(self.settings.edgar.sec_max_listing_mb, "DOCQA_SEC_MAX_LISTING_MB"))
                try:
                    data = kind.parse(_json(body))
                except Malformed as exc:
                    raise EdgarError(f"{url} is not {kind.what}: {exc}; check {kind.setting}, or try again "
                                     "later") from None
                _write_atomically(path, body)  # only a listing that passed the checks is kept
                return data
            except EdgarError as exc:
                if not path.is_file():
                    raise
                self.warnings.append(f"{exc}; used the copy cached on "
                                     f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(path.stat().st_mtime))}")
        try:
            return kind.parse(_json(path.read_bytes()))
        except Malformed as exc:
            raise EdgarError(f"the cached copy {path} is not {kind.what}: {exc}; fetch again with --refresh") from None

    # -- companies
    def company(self, ticker: str, refresh: bool = False) -> tuple[int, str, str]:
        """(CIK, company name, ticker) for a ticker (or a CIK number); EdgarError for an unknown one."""
        key = ticker.strip().upper()
        if not key:
            raise EdgarError("give a ticker, e.g. docqa fetch PFE")
        url = self.settings.edgar.sec_tickers_url
        try:
            tickers: TickerMap = self._listing(url, self.cache_dir / "company_tickers.json", refresh, TICKER_MAP)
        except FileNotFoundError as exc:
            raise EdgarError(f"the SEC's company-ticker map is not at {url} (404); "
                             "check DOCQA_SEC_TICKERS_URL") from exc
        odd = (f"; the map has {tickers.malformed} malformed row(s), left out" if tickers.malformed else "")
        if odd:
            self.warnings.append(f"the SEC's company-ticker map has {tickers.malformed} malformed row(s); left out")
        if re.fullmatch(r"[0-9]{1,10}", key) and int(key):
            for row in tickers.rows:
                if row.cik_str == int(key):
                    return int(key), row.title, row.ticker
            return int(key), "", key  # a CIK without a listed ticker: its submissions name it
        by_ticker = {row.ticker.upper(): row for row in tickers.rows}
        for candidate in (key, key.replace(".", "-"), key.replace("-", ".")):
            row = by_ticker.get(candidate)
            if row is not None:
                return row.cik_str, row.title, candidate
        close = difflib.get_close_matches(key, list(by_ticker), n=5, cutoff=0.6)
        hint = f"; close tickers: {', '.join(close)}" if close else ""
        raise EdgarError(f"no ticker {show(key)} in the SEC's company-ticker map{hint}{odd}. Companies that file "
                         "with the SEC only (no listed shares) can be fetched by CIK number: docqa fetch 78003")

    def submissions(self, cik: int, refresh: bool = False) -> Submissions:
        url = f"{self.settings.edgar.sec_submissions_url.rstrip('/')}/CIK{cik:010d}.json"
        try:
            return self._listing(url, self.cache_dir / "submissions" / f"CIK{cik:010d}.json", refresh, SUBMISSIONS)
        except FileNotFoundError as exc:
            raise EdgarError(f"EDGAR has no filings for CIK {cik}") from exc

    def older_page(self, name: str, refresh: bool = False) -> Columns:
        if not page_name_ok(name):
            raise EdgarError(f"EDGAR listed a submissions page whose name is not a plain file name, {show(name)}")
        url = f"{self.settings.edgar.sec_submissions_url.rstrip('/')}/{name}"
        try:
            return self._listing(url, self.cache_dir / "submissions" / name, refresh, OLDER_PAGE)
        except FileNotFoundError as exc:
            raise EdgarError(f"EDGAR lists the submissions page {name} but does not serve it (404)") from exc

    # -- documents
    def document_url(self, filing: Filing) -> str:
        return (f"{self.settings.edgar.sec_archives_url.rstrip('/')}/{filing.cik}/{filing.accession.replace('-', '')}/"
                f"{filing.primary_document}")

    def document_path(self, filing: Filing) -> Path:
        """Where the filing's copy goes: built from the checked CIK, accession and file name, and then
        checked again to lie in the cache folder."""
        return self._inside(self.cache_dir / "filings" / str(filing.cik) / filing.accession.replace("-", "")
                            / filing.primary_document)

    def download(self, filing: Filing) -> FetchedFiling:
        """The filing's primary document, from the cache or EDGAR; a failure is this filing's error alone."""
        url = self.document_url(filing)
        try:
            path = self.document_path(filing)
            if path.is_file() and path.stat().st_size > 0:
                return FetchedFiling(filing=filing, url=url, path=str(path))
            body = self.get(url, Cap(self.settings.edgar.sec_max_document_mb, "DOCQA_SEC_MAX_DOCUMENT_MB"))
        except FileNotFoundError:
            return FetchedFiling(filing=filing, url=url, error="not on EDGAR (404)")
        except TooLarge as exc:
            return FetchedFiling(filing=filing, url=url, error=exc.limit)
        except EdgarError as exc:
            return FetchedFiling(filing=filing, url=url, error=str(exc))
        _write_atomically(path, body)
        return FetchedFiling(filing=filing, url=url, path=str(path), downloaded=True)


# --- choosing filings -----------------------------------------------------------------------------


def choose(filings: list[Filing], forms: tuple[str, ...], years: tuple[int, int] | None) -> list[Filing]:
    """The filings of ``forms`` whose fiscal year is in ``years``; without years, the latest of each form."""
    chosen = [f for f in filings if f.form.upper() in forms]
    if years is None:
        latest: dict[str, Filing] = {}
        for f in sorted(chosen, key=lambda f: (f.filing_date, f.accession), reverse=True):
            latest.setdefault(f.form.upper(), f)
        chosen = list(latest.values())
    else:
        chosen = [f for f in chosen if years[0] <= f.fiscal_year <= years[1]]
    return sorted({f.accession: f for f in chosen}.values(), key=lambda f: (f.filing_date, f.accession))


def _years_text(years: tuple[int, int]) -> str:
    return str(years[0]) if years[0] == years[1] else f"{years[0]}-{years[1]}"


@dataclass
class _Found:
    """The filings read so far, and how many filings of each form (any form) the listings hold."""
    filings: list[Filing]
    forms: Counter

    @property
    def filed(self) -> set[str]:
        return {f.form.upper() for f in self.filings}

    def add(self, client: EdgarClient, block: Columns, cik: int, source: str) -> None:
        filings, forms, warnings = filings_of(block, cik, source)
        self.filings += filings
        self.forms.update(forms)
        client.warnings += warnings


def _page_needed(page: Page, filed: set[str], wanted: tuple[str, ...], span: tuple[int, int] | None) -> bool:
    """Older filings sit in extra pages: read one when a form asked for is not among the filings read
    so far, or when it was filed in the years asked (a fiscal year is filed in it or the next)."""
    if not all(f in filed for f in wanted):
        return True
    if span is None:
        return False
    first, last = (page.filingFrom or "0000")[:4], (page.filingTo or "9999")[:4]
    return last >= str(span[0]) and first <= str(span[1] + 1)


def _read_filings(client: EdgarClient, cik: int, subs: Submissions, wanted: tuple[str, ...],
                  span: tuple[int, int] | None, refresh: bool) -> tuple[_Found, tuple[str, ...]]:
    """The company's filings (the recent ones, and older pages as needed), and the forms to fetch."""
    found = _Found([], Counter())
    found.add(client, subs.recent, cik, f"CIK{cik:010d}.json")
    if not wanted:
        wanted = next(((form,) for form in ANNUAL_FORMS if form in found.filed), ("10-K",))
    for page in subs.pages:
        if not page_name_ok(page.name):
            client.warnings.append(f"skipped a submissions page CIK{cik:010d}.json lists: its name {show(page.name)} "
                                   "is not a plain file name")
        elif _page_needed(page, found.filed, wanted, span):
            found.add(client, client.older_page(page.name, refresh), cik, page.name)
    return found, wanted


def fetch_filings(
    settings: Settings,
    ticker: str,
    forms: Iterable[str] | None = None,
    years: str | tuple[int, int] | None = None,
    refresh: bool = False,
    on_filing: Callable[[FetchedFiling], None] | None = None,
    transport: httpx.BaseTransport | None = None,
) -> FetchReport:
    """Download (or find in the cache) the primary documents of a company's filings.

    ``forms`` default to the annual report (10-K; 20-F or 40-F for a foreign filer); ``years`` are fiscal
    years ("2021-2024"); without them the latest filing of each form is fetched. EdgarError for an unknown
    ticker, a form the company does not file, no filing in those years, no network and nothing cached, or
    a listing of the wrong shape; a filing listed with a value of the wrong shape is skipped with a warning.
    """
    wanted = parse_forms(forms)
    span = parse_years(years) if not isinstance(years, tuple) else years
    with EdgarClient(settings, transport=transport) as client:
        cik, name, symbol = client.company(ticker, refresh)
        subs = client.submissions(cik, refresh)
        name = name or subs.name or f"CIK {cik}"
        found, wanted = _read_filings(client, cik, subs, wanted, span, refresh)
        missing = [f for f in wanted if f not in found.filed]
        if missing:
            files = ", ".join(f"{form} ({n})" for form, n in found.forms.most_common(8)) or "none"
            usable = [form for form in FORMS if form in found.filed]
            hint = f"; try --form {usable[0]}" if usable else ""
            raise EdgarError(f"{name} ({symbol}) files no {' or '.join(missing)} on EDGAR: its filings are "
                             f"{files}{hint}")
        chosen = choose(found.filings, wanted, span)
        if not chosen:
            assert span is not None
            have = sorted({f.fiscal_year for f in found.filings if f.form.upper() in wanted})
            covered = f"{have[0]}-{have[-1]}" if have else "none"
            raise EdgarError(f"{name} ({symbol}) filed no {' or '.join(wanted)} for fiscal year(s) "
                             f"{_years_text(span)}; its {' and '.join(wanted)} filings cover fiscal years {covered}")
        fetched = []
        for filing in chosen:
            result = client.download(filing)
            fetched.append(result)
            if on_filing:
                on_filing(result)
        return FetchReport(ticker=symbol, cik=cik, company=name, filings=tuple(fetched), requests=client.requests,
                           warnings=tuple(client.warnings))


__all__ = ["EdgarClient", "EdgarError", "FetchReport", "FetchedFiling", "Filing", "RateLimiter", "TooLarge",
           "fetch_filings", "parse_forms", "parse_years", "user_agent"]
