"""Fetch a company's filings from SEC EDGAR by ticker: `docqa fetch PFE --form 10-Q --years 2023`.

1. ticker -> CIK from the SEC's company-ticker map (``Settings.sec_tickers_url``);
2. the filing list from the submissions API (``sec_submissions_url``/CIK##########.json; older
   filings are in the extra pages it lists under ``filings.files``, read only when needed);
3. each chosen filing's primary document from the archives
   (``sec_archives_url``/<cik>/<accession without dashes>/<primaryDocument>).

The SEC's fair-access rules are kept: every request names its sender (``DOCQA_SEC_USER_AGENT``,
required: "Name email@example.com"), and requests start at most ``sec_requests_per_second`` (<= 10)
a second. Everything downloaded is kept under ``<index>/edgar/``: filings for good (EDGAR never changes
a filed document), the ticker map and filing lists for ``sec_listing_max_age_h`` hours, so a second
fetch downloads nothing, and a fetch without a network still works from what is cached.
"""

from __future__ import annotations

import difflib
import json
import logging
import os
import re
import threading
import time
import uuid
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ConfigDict

from docqa.config import Settings
from docqa.ingest.ixbrl import fiscal_year_of
from docqa.types import IngestReport

log = logging.getLogger(__name__)

FORMS = ("10-K", "10-Q", "8-K", "20-F", "40-F")
ANNUAL_FORMS = ("10-K", "20-F", "40-F")
RETRIES = 3                    # for 429 / 5xx answers, waiting Retry-After (at most MAX_RETRY_WAIT s)
MAX_RETRY_WAIT = 10.0
_DOCUMENT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_USER_AGENT_HELP = ("set DOCQA_SEC_USER_AGENT to your name and e-mail, e.g. DOCQA_SEC_USER_AGENT=\"Jane Doe "
                    "jane@example.com\": the SEC asks every automated client to say who it is "
                    "(https://www.sec.gov/os/accessing-edgar-data) and refuses those that do not")


class EdgarError(RuntimeError):
    """A fetch that cannot go on; the message says what to do."""


class TooLarge(EdgarError):
    """One document over the size limit: that filing fails, the others go on."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class Filing(_Model):
    cik: int
    accession: str               # 0000078003-23-000123
    form: str                    # 10-Q
    filing_date: str             # 2023-08-09
    report_date: str | None      # the period the filing reports, 2023-07-02
    primary_document: str        # pfe-20230702.htm
    description: str = ""

    @property
    def fiscal_year(self) -> int:
        """As docqa names fiscal years: the year the reported period ends in (a 52/53-week year that
        ends in the first week of January belongs to the year before); the filing date without one."""
        return fiscal_year_of(date.fromisoformat(self.report_date or self.filing_date))


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


class RateLimiter:
    """Requests start at least 1/rate seconds apart, measured from when each really started (a late
    wake-up does not let the next one in early); threads wait their turn."""

    def __init__(self, per_second: float):
        self.interval = 1.0 / per_second
        self._next = 0.0
        self._lock = threading.Lock()

    def wait(self) -> None:
        with self._lock:
            delay = self._next - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self._next = time.monotonic() + self.interval


def user_agent(settings: Settings) -> str:
    agent = (settings.sec_user_agent or "").strip()
    if not agent:
        raise EdgarError(f"DOCQA_SEC_USER_AGENT is not set: {_USER_AGENT_HELP}")
    if "@" not in agent or len(agent.split()) < 2:
        raise EdgarError(f"DOCQA_SEC_USER_AGENT={agent!r} does not name a person and an e-mail: {_USER_AGENT_HELP}")
    return agent


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


class EdgarClient:
    """HTTP to EDGAR with the User-Agent, the rate limit, retries and the cache under ``cache_dir``."""

    def __init__(self, settings: Settings, cache_dir: Path | None = None, transport: httpx.BaseTransport | None = None):
        self.settings = settings
        self.cache_dir = Path(cache_dir) if cache_dir is not None else settings.index / "edgar"
        self.limiter = RateLimiter(min(settings.sec_requests_per_second, 10.0))
        self.http = httpx.Client(headers={"User-Agent": user_agent(settings), "Accept-Encoding": "gzip, deflate"},
                                 timeout=settings.sec_timeout_s, follow_redirects=True, transport=transport)
        self.requests = 0
        self.warnings: list[str] = []

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> "EdgarClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- HTTP
    def get(self, url: str, max_bytes: int | None = None) -> bytes:
        """The body of a 200 answer; EdgarError with what to do otherwise (404 -> FileNotFoundError)."""
        host = urlsplit(url).netloc or url
        for attempt in range(RETRIES + 1):
            self.limiter.wait()
            self.requests += 1
            try:
                with self.http.stream("GET", url) as response:
                    if response.status_code == 200:
                        body = bytearray()
                        for block in response.iter_bytes():
                            body += block
                            if max_bytes is not None and len(body) > max_bytes:
                                raise TooLarge(f"larger than {max_bytes // (1 << 20)} MB "
                                                 "(DOCQA_MAX_UPLOAD_MB)")
                        return bytes(body)
                    status = response.status_code
                    retry_after = response.headers.get("Retry-After")
            except httpx.TimeoutException as exc:
                raise EdgarError(f"{host} did not answer within {self.settings.sec_timeout_s:g} s ({url}); "
                                 "try again later, or raise DOCQA_SEC_TIMEOUT_S") from exc
            except httpx.TransportError as exc:
                raise EdgarError(f"cannot reach {host} ({type(exc).__name__}: {exc}): docqa fetch needs the "
                                 "network (www.sec.gov and data.sec.gov); what was fetched before is used from "
                                 "the cache") from exc
            if status == 404:
                raise FileNotFoundError(url)
            if status == 403:
                raise EdgarError(f"the SEC refused {url} (403): it refuses clients whose User-Agent does not name "
                                 "a person and an e-mail, and clients over 10 requests a second; check "
                                 "DOCQA_SEC_USER_AGENT")
            if status in (429, 500, 502, 503, 504) and attempt < RETRIES:
                try:
                    wait = float(retry_after) if retry_after else 1.0 + attempt
                except ValueError:
                    wait = 1.0 + attempt
                time.sleep(min(max(wait, 0.0), MAX_RETRY_WAIT))
                continue
            raise EdgarError(f"{host} answered {status} for {url}; try again later")
        raise AssertionError("unreachable")

    def _listing(self, url: str, path: Path, refresh: bool) -> dict:
        """A JSON listing, from the cache while it is younger than sec_listing_max_age_h; a stale copy
        stands in (with a warning) when EDGAR cannot be reached."""
        fresh = False
        if path.is_file():
            age_h = (time.time() - path.stat().st_mtime) / 3600
            fresh = not refresh and age_h < self.settings.sec_listing_max_age_h
        if not fresh:
            try:
                body = self.get(url)
                data = json.loads(body)
                _write_atomically(path, body)
                return data
            except EdgarError as exc:
                if not path.is_file():
                    raise
                self.warnings.append(f"{exc}; used the copy cached on "
                                     f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(path.stat().st_mtime))}")
            except json.JSONDecodeError as exc:
                raise EdgarError(f"{url} did not answer JSON ({exc}); try again later") from exc
        return json.loads(path.read_bytes())

    # -- companies
    def company(self, ticker: str, refresh: bool = False) -> tuple[int, str, str]:
        """(CIK, company name, ticker) for a ticker (or a CIK number); EdgarError for an unknown one."""
        key = ticker.strip().upper()
        if not key:
            raise EdgarError("give a ticker, e.g. docqa fetch PFE")
        try:
            data = self._listing(self.settings.sec_tickers_url, self.cache_dir / "company_tickers.json", refresh)
        except FileNotFoundError as exc:
            raise EdgarError(f"the SEC's company-ticker map is not at {self.settings.sec_tickers_url} (404); "
                             "check DOCQA_SEC_TICKERS_URL") from exc
        rows = list(data.values()) if isinstance(data, dict) else list(data)
        by_ticker = {str(r.get("ticker", "")).upper(): r for r in rows if isinstance(r, dict)}
        if key.isdigit():
            for row in rows:
                if int(row.get("cik_str", -1)) == int(key):
                    return int(key), str(row.get("title", "")), str(row.get("ticker", key))
            return int(key), "", key  # a CIK without a listed ticker: its submissions name it
        for candidate in (key, key.replace(".", "-"), key.replace("-", ".")):
            row = by_ticker.get(candidate)
            if row is not None:
                return int(row["cik_str"]), str(row.get("title", "")), candidate
        close = difflib.get_close_matches(key, list(by_ticker), n=5, cutoff=0.6)
        hint = f"; close tickers: {', '.join(close)}" if close else ""
        raise EdgarError(f"no ticker {key!r} in the SEC's company-ticker map{hint}. Companies that file with the "
                         "SEC only (no listed shares) can be fetched by CIK number: docqa fetch 78003")

    def submissions(self, cik: int, refresh: bool = False) -> dict:
        url = f"{self.settings.sec_submissions_url.rstrip('/')}/CIK{cik:010d}.json"
        try:
            return self._listing(url, self.cache_dir / "submissions" / f"CIK{cik:010d}.json", refresh)
        except FileNotFoundError as exc:
            raise EdgarError(f"EDGAR has no filings for CIK {cik}") from exc

    def older_page(self, name: str, refresh: bool = False) -> dict:
        if not _DOCUMENT_NAME.match(name):
            raise EdgarError(f"EDGAR listed an odd submissions page name {name!r}")
        url = f"{self.settings.sec_submissions_url.rstrip('/')}/{name}"
        try:
            return self._listing(url, self.cache_dir / "submissions" / name, refresh)
        except FileNotFoundError as exc:
            raise EdgarError(f"EDGAR lists the submissions page {name} but does not serve it (404)") from exc

    # -- documents
    def document_url(self, filing: Filing) -> str:
        return (f"{self.settings.sec_archives_url.rstrip('/')}/{filing.cik}/{filing.accession.replace('-', '')}/"
                f"{filing.primary_document}")

    def document_path(self, filing: Filing) -> Path:
        return self.cache_dir / "filings" / str(filing.cik) / filing.accession.replace("-", "") / filing.primary_document

    def download(self, filing: Filing) -> FetchedFiling:
        url = self.document_url(filing)
        if not _DOCUMENT_NAME.match(filing.primary_document):
            return FetchedFiling(filing=filing, url=url, error=f"odd primary document name {filing.primary_document!r}")
        path = self.document_path(filing)
        if path.is_file() and path.stat().st_size > 0:
            return FetchedFiling(filing=filing, url=url, path=str(path))
        try:
            body = self.get(url, max_bytes=self.settings.max_upload_mb << 20)
        except FileNotFoundError:
            return FetchedFiling(filing=filing, url=url, error="not on EDGAR (404)")
        except TooLarge as exc:
            return FetchedFiling(filing=filing, url=url, error=str(exc))
        _write_atomically(path, body)
        return FetchedFiling(filing=filing, url=url, path=str(path), downloaded=True)


# --- choosing filings -----------------------------------------------------------------------------


def _filings_of(block: dict, cik: int) -> list[Filing]:
    """The columnar lists EDGAR gives ({"accessionNumber": [...], "form": [...], ...}) as Filings."""
    accession = block.get("accessionNumber") or []
    column = lambda name: (block.get(name) or [""] * len(accession))  # noqa: E731
    out = []
    for acc, form, filed, report, doc, desc in zip(accession, column("form"), column("filingDate"),
                                                   column("reportDate"), column("primaryDocument"),
                                                   column("primaryDocDescription")):
        if not acc or not form or not filed or not doc:
            continue
        try:
            date.fromisoformat(filed)
            report = report if report and date.fromisoformat(report) else None
        except ValueError:
            continue
        out.append(Filing(cik=cik, accession=acc, form=form, filing_date=filed, report_date=report,
                          primary_document=doc, description=desc or ""))
    return out


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
    ticker, a form the company does not file, no filing in those years, or no network and nothing cached.
    """
    wanted = parse_forms(forms)
    span = parse_years(years) if not isinstance(years, tuple) else years
    with EdgarClient(settings, transport=transport) as client:
        cik, name, symbol = client.company(ticker, refresh)
        subs = client.submissions(cik, refresh)
        name = name or str(subs.get("name") or f"CIK {cik}")
        block = (subs.get("filings") or {})
        filings = _filings_of(block.get("recent") or {}, cik)
        pages = [p for p in block.get("files") or [] if isinstance(p, dict) and p.get("name")]
        filed = {f.form.upper() for f in filings}
        if not wanted:
            wanted = next(((form,) for form in ANNUAL_FORMS if form in filed), ("10-K",))

        def needed(page: dict) -> bool:
            """Older filings sit in extra pages: read one when a form asked for is not among the filings
            read so far, or when it was filed in the years asked (a fiscal year is filed in it or the next)."""
            if not all(f in filed for f in wanted):
                return True
            if span is None:
                return False
            first, last = str(page.get("filingFrom") or "0000")[:4], str(page.get("filingTo") or "9999")[:4]
            return last >= str(span[0]) and first <= str(span[1] + 1)

        for page in pages:
            if needed(page):
                filings += _filings_of(client.older_page(str(page["name"]), refresh), cik)
                filed = {f.form.upper() for f in filings}
        missing = [f for f in wanted if f not in filed]
        if missing:
            counts = Counter(f.form for f in filings)
            files = ", ".join(f"{form} ({n})" for form, n in counts.most_common(8)) or "none"
            usable = [form for form in FORMS if form in filed]
            hint = f"; try --form {usable[0]}" if usable else ""
            raise EdgarError(f"{name} ({symbol}) files no {' or '.join(missing)} on EDGAR: its filings are "
                             f"{files}{hint}")
        chosen = choose(filings, wanted, span)
        if not chosen:
            assert span is not None
            have = sorted({f.fiscal_year for f in filings if f.form.upper() in wanted})
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


__all__ = ["EdgarClient", "EdgarError", "FetchReport", "FetchedFiling", "Filing", "fetch_filings", "parse_forms",
           "parse_years"]
