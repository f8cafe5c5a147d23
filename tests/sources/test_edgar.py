"""`docqa fetch TICKER` against a fake EDGAR server on 127.0.0.1 (no test touches the internet).

The server serves the recorded responses in tests/sources/fixtures (the SEC's ticker map, submissions
JSON) and, as the primary documents, the real filings of tests/fixtures/filings/html; it refuses (403) any
request whose User-Agent is not the configured one, as the SEC does.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docqa import Engine
from docqa.config import Settings
from docqa.sources.edgar import (
    EdgarClient,
    EdgarError,
    choose,
    fetch_filings,
    parse_forms,
    parse_years,
)
from tests.filings import filing_html

FIXTURES = Path(__file__).resolve().parent / "fixtures"
AGENT = "docqa tests tests@example.com"


class FakeEdgar:
    """A threaded HTTP server with EDGAR's three URL families; records every request."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str | None, float]] = []  # (path, User-Agent, monotonic time)
        self.fail: dict[str, list[int]] = {}                       # path -> statuses to answer first
        # path -> a function that answers that path itself (hostile answers: drips, redirects, floods)
        self.routes: dict[str, Callable[[BaseHTTPRequestHandler], None]] = {}
        self.fallback: Callable[[BaseHTTPRequestHandler], None] | None = None  # any other path, instead of 404
        documents = json.loads((FIXTURES / "documents.json").read_text())
        self.documents = {k: filing_html(v) for k, v in documents.items() if not k.startswith("_")}
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                fake.requests.append((self.path, self.headers.get("User-Agent"), time.monotonic()))
                if self.headers.get("User-Agent") != AGENT:
                    return self._send(403, b"Your Request Originates from an Undeclared Automated Tool")
                if fake.fail.get(self.path):
                    return self._send(fake.fail[self.path].pop(0), b"slow down", {"Retry-After": "0"})
                if self.path in fake.routes:
                    return fake.routes[self.path](self)
                body = fake.body(self.path)
                if body is None and fake.fallback is not None:
                    return fake.fallback(self)
                self._send(200, body) if body is not None else self._send(404, b"Not Found")

            def _send(self, status: int, body: bytes, headers: dict | None = None) -> None:
                self.send_response(status)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def body(self, path: str) -> bytes | None:
        if path == "/files/company_tickers.json":
            return (FIXTURES / "company_tickers.json").read_bytes()
        if path.startswith("/submissions/"):
            file = FIXTURES / "submissions" / path.removeprefix("/submissions/")
            return file.read_bytes() if file.is_file() else None
        if path.startswith("/Archives/edgar/data/"):
            file = self.documents.get(path.removeprefix("/Archives/edgar/data/"))
            return file.read_bytes() if file is not None and file.is_file() else None
        return None

    def settings(self, index: Path, **overrides) -> Settings:
        return Settings(**{
            "index": index, "dense": False, "sec_user_agent": AGENT,
            "sec_tickers_url": f"{self.url}/files/company_tickers.json",
            "sec_submissions_url": f"{self.url}/submissions", "sec_archives_url": f"{self.url}/Archives/edgar/data",
            **overrides})

    def env(self, index: Path) -> dict[str, str]:
        return {"DOCQA_INDEX": str(index), "DOCQA_DENSE": "false", "DOCQA_SEC_USER_AGENT": AGENT,
                "DOCQA_SEC_TICKERS_URL": f"{self.url}/files/company_tickers.json",
                "DOCQA_SEC_SUBMISSIONS_URL": f"{self.url}/submissions",
                "DOCQA_SEC_ARCHIVES_URL": f"{self.url}/Archives/edgar/data"}


@pytest.fixture()
def edgar():
    fake = FakeEdgar()
    fake.thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()
    fake.thread.join(5)


def dead_url() -> str:
    """A 127.0.0.1 address nothing listens on: what a missing network looks like."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


# ---------------------------------------------------------------------------- end to end


def test_fetch_by_ticker_downloads_ingests_and_then_uses_the_cache(edgar, tmp_path):
    with Engine.open(edgar.settings(tmp_path / "index")) as engine:
        report = engine.fetch("pfe", ["10-Q"], "2023-2023")
        # the two 2023 10-Qs of the submissions; the first quarter's document is not on the server
        assert (report.ticker, report.cik, report.company) == ("PFE", 78003, "PFIZER INC")
        by_doc = {f.filing.primary_document: f for f in report.filings}
        assert sorted(by_doc) == ["pfe-20230402.htm", "pfe-20230702.htm"]
        assert by_doc["pfe-20230702.htm"].downloaded and by_doc["pfe-20230402.htm"].error == "not on EDGAR (404)"
        assert [f.status for f in report.ingest.files] == ["indexed"], report.ingest.files
        paths = [p for p, _, _ in edgar.requests]
        assert paths == ["/files/company_tickers.json", "/submissions/CIK0000078003.json",
                         "/Archives/edgar/data/78003/000007800323000120/pfe-20230402.htm",
                         "/Archives/edgar/data/78003/000007800323000164/pfe-20230702.htm"]
        assert {agent for _, agent, _ in edgar.requests} == {AGENT}
        assert report.requests == 4
        doc = engine.document("pfe-20230702.htm")
        assert doc.meta.company == "Pfizer Inc" and doc.meta.doc_type.value == "10q" and doc.meta.fiscal_year == 2023
        assert (tmp_path / "index" / "edgar" / "filings" / "78003" / "000007800323000164" / "pfe-20230702.htm").is_file()
        answer = engine.ask("What was Pfizer's total revenue for the quarter ended July 2, 2023?")
        assert answer.found and any(round(f.value) == 12734 for f in answer.figures), answer.text

        # a second fetch downloads nothing (only the document EDGAR does not have is asked again)
        before = len(edgar.requests)
        again = engine.fetch("PFE", ["10-Q"], "2023")
        assert [p for p, _, _ in edgar.requests[before:]] == [
            "/Archives/edgar/data/78003/000007800323000120/pfe-20230402.htm"]
        assert not any(f.downloaded for f in again.filings)
        assert [f.status for f in again.ingest.files] == ["skipped"]

        # the latest filing of the form when no years are given: nothing is fetched at all
        before = len(edgar.requests)
        latest = engine.fetch("PFE", ["10-Q"])
        assert [f.filing.primary_document for f in latest.filings] == ["pfe-20230702.htm"]
        assert len(edgar.requests) == before and latest.requests == 0


def test_cli_fetch_two_companies(edgar, tmp_path):
    from docqa.faces.cli import app as cli

    index = tmp_path / "index"
    result = CliRunner().invoke(cli, ["fetch", "MMM", "--form", "10q", "--index", str(index)], env=edgar.env(index))
    assert result.exit_code == 0, result.output
    assert "indexed" in result.output and "mmm-20230630.htm" in result.output and "1 downloaded" in result.output
    again = CliRunner().invoke(cli, ["fetch", "MMM", "--form", "10-Q", "--index", str(index), "--json"],
                               env=edgar.env(index))
    assert again.exit_code == 0, again.output
    report = json.loads(again.stdout)
    assert report["requests"] == 0 and report["ingest"]["files"][0]["status"] == "skipped"
    with Engine.open(index, dense=False) as engine:
        (doc,) = engine.documents()
        assert "3M" in doc.meta.company and doc.meta.doc_type.value == "10q" and doc.meta.fiscal_year == 2023


def test_older_filings_come_from_the_extra_submissions_page(edgar, tmp_path):
    report = fetch_filings(edgar.settings(tmp_path), "PFE", ["10-K"], "2015-2016")
    assert [f.filing.primary_document for f in report.filings] == ["pfe-12312015x10k.htm", "pfe-12312016x10k.htm"]
    assert all(f.error == "not on EDGAR (404)" for f in report.filings)
    assert "/submissions/CIK0000078003-submissions-001.json" in [p for p, _, _ in edgar.requests]
    # recent years do not read that page
    edgar.requests.clear()
    fetch_filings(edgar.settings(tmp_path / "other"), "PFE", ["10-K"], "2022")
    assert "/submissions/CIK0000078003-submissions-001.json" not in [p for p, _, _ in edgar.requests]


# -------------------------------------------------------------------------------- errors


def test_unknown_ticker_names_close_ones(edgar, tmp_path):
    with pytest.raises(EdgarError, match=r"no ticker 'PFEE'.*close tickers: PFE"):
        fetch_filings(edgar.settings(tmp_path), "PFEE")


def test_a_form_the_company_does_not_file(edgar, tmp_path):
    with pytest.raises(EdgarError, match=r"PFIZER INC \(PFE\) files no 20-F on EDGAR: its filings are .*10-K.*"
                                         r"try --form 10-K"):
        fetch_filings(edgar.settings(tmp_path), "PFE", ["20-F"])
    # to say so, the older filings were read too
    assert "/submissions/CIK0000078003-submissions-001.json" in [p for p, _, _ in edgar.requests]


def test_no_filing_in_the_years_asked(edgar, tmp_path):
    with pytest.raises(EdgarError, match=r"filed no 10-Q for fiscal year\(s\) 2019-2020; its 10-Q filings cover "
                                         r"fiscal years 2023-2023"):
        fetch_filings(edgar.settings(tmp_path), "PFE", ["10-Q"], "2019-2020")


def test_the_user_agent_is_required(edgar, tmp_path):
    with pytest.raises(EdgarError, match="DOCQA_SEC_USER_AGENT is not set"):
        fetch_filings(edgar.settings(tmp_path, sec_user_agent=None), "PFE")
    with pytest.raises(EdgarError, match="does not name a person and an e-mail"):
        fetch_filings(edgar.settings(tmp_path, sec_user_agent="python-requests"), "PFE")
    assert edgar.requests == []  # refused before any request
    # the SEC refuses an agent it does not accept: the error says what to check
    with pytest.raises(EdgarError, match=r"refused .*403.*DOCQA_SEC_USER_AGENT"):
        fetch_filings(edgar.settings(tmp_path, sec_user_agent="Someone Else else@example.com"), "PFE")


def test_cli_without_a_user_agent_explains(tmp_path, monkeypatch):
    from docqa.faces.cli import app as cli

    monkeypatch.delenv("DOCQA_SEC_USER_AGENT", raising=False)
    result = CliRunner().invoke(cli, ["fetch", "PFE", "--index", str(tmp_path)], env={"DOCQA_SEC_USER_AGENT": ""})
    assert result.exit_code == 2
    assert "DOCQA_SEC_USER_AGENT" in result.output and "e-mail" in result.output


def test_no_network(tmp_path):
    dead = dead_url()
    settings = Settings(index=tmp_path, dense=False, sec_user_agent=AGENT, sec_tickers_url=f"{dead}/t.json",
                        sec_submissions_url=f"{dead}/s", sec_archives_url=f"{dead}/a")
    with pytest.raises(EdgarError, match=r"cannot reach 127\.0\.0\.1:\d+ .*needs the network"):
        fetch_filings(settings, "PFE")


def test_no_network_after_a_fetch_works_from_the_cache(edgar, tmp_path):
    settings = edgar.settings(tmp_path)
    first = fetch_filings(settings, "PFE", ["10-Q"])
    assert [f.downloaded for f in first.filings] == [True]
    dead = dead_url()
    offline = settings.with_(sec_tickers_url=f"{dead}/files/company_tickers.json",
                             sec_submissions_url=f"{dead}/submissions", sec_archives_url=f"{dead}/Archives/edgar/data")
    report = fetch_filings(offline, "PFE", ["10-Q"], refresh=True)  # refresh: the listings are asked for again
    assert [f.path for f in report.filings] == [f.path for f in first.filings]
    assert len(report.warnings) == 2 and all("cannot reach" in w and "cached" in w for w in report.warnings)


def test_a_busy_answer_is_retried(edgar, tmp_path):
    edgar.fail["/files/company_tickers.json"] = [429, 503]
    with EdgarClient(edgar.settings(tmp_path)) as client:
        assert client.company("MMM") == (66740, "3M CO", "MMM")
        assert client.requests == 3


def test_requests_are_at_most_ten_a_second(edgar, tmp_path):
    released: list[float] = []
    with EdgarClient(edgar.settings(tmp_path)) as client:
        wait = client.limiter.wait

        def recorded() -> None:
            wait()
            released.append(time.monotonic())  # the moment the limiter lets a request go

        client.limiter.wait = recorded
        for _ in range(12):
            client.get(f"{edgar.url}/files/company_tickers.json")
    assert len(released) == 12 and len(edgar.requests) == 12
    # each request goes >= 0.1 s after the one before really went (a late wake-up gains nothing)
    gaps = [b - a for a, b in zip(released, released[1:])]
    assert min(gaps) >= 0.095, gaps
    arrived = [t for _, _, t in edgar.requests]  # as the server saw them, with the machine's jitter
    assert arrived[-1] - arrived[0] >= 1.0


# --------------------------------------------------------------------------------- arguments


def test_forms_and_years_arguments():
    assert parse_forms(["10-K", "10q", "8-K,20-F", "10-K/A"]) == ("10-K", "10-Q", "8-K", "20-F", "10-K/A")
    assert parse_forms(None) == ()
    with pytest.raises(ValueError, match="form must be one of"):
        parse_forms(["S-1"])
    assert parse_years("2021-2024") == (2021, 2024) and parse_years("2023") == (2023, 2023)
    assert parse_years("2024-2021") == (2021, 2024) and parse_years(None) is None
    for bad in ("last year", "21-24", "1900"):
        with pytest.raises(ValueError):
            parse_years(bad)


def test_choose_by_fiscal_year():
    from docqa.sources.edgar import Filing

    def filing(n: str, form: str, filed: str, report: str) -> Filing:
        return Filing(cik=1, accession=f"0000000001-23-00000{n}", form=form, filing_date=filed, report_date=report,
                      primary_document="a.htm")

    filings = [filing("3", "10-K", "2024-03-20", "2024-02-03"),   # ends in February 2024: FY2024
               filing("2", "10-K", "2023-02-20", "2022-01-01"),   # a 52/53-week year ending Jan 1: FY2021
               filing("1", "10-Q", "2023-06-01", "2023-04-29")]
    def last(chosen: list[Filing]) -> list[str]:
        return [f.accession[-1] for f in chosen]

    assert last(choose(filings, ("10-K",), (2024, 2024))) == ["3"]
    assert last(choose(filings, ("10-K",), (2021, 2021))) == ["2"]
    assert last(choose(filings, ("10-K", "10-Q"), None)) == ["1", "3"]


def test_a_filing_holds_only_values_of_edgars_shapes():
    from pydantic import ValidationError

    from docqa.sources.edgar import Filing

    good = {"cik": 78003, "accession": "0000078003-23-000164", "form": "10-Q", "filing_date": "2023-08-09",
            "report_date": "2023-07-02", "primary_document": "pfe-20230702.htm"}
    assert Filing(**good).fiscal_year == 2023
    for field, bad in [("accession", "../../x"), ("accession", "0000078003-23-000164/.."), ("cik", 10 ** 10),
                       ("form", "10-K/../x"), ("filing_date", "2023-02-30"), ("filing_date", 20230809),
                       ("report_date", "20230702"), ("primary_document", ".."), ("primary_document", "a/b.htm")]:
        with pytest.raises(ValidationError):
            Filing(**{**good, field: bad})


def test_a_document_over_the_size_limit_fails_alone(edgar, tmp_path):
    report = fetch_filings(edgar.settings(tmp_path, sec_max_document_mb=1), "PFE", ["10-Q"])
    (only,) = report.filings
    assert only.path is None and only.error == "larger than 1 MB (DOCQA_SEC_MAX_DOCUMENT_MB)"
    assert not (tmp_path / "edgar" / "filings" / "78003" / "000007800323000164").exists()


def test_forms_docqa_does_not_fetch_are_counted_not_warned_about():
    """Real listings hold Form 4s whose primary document sits in a folder (xslF345X05/wk-form4.xml):
    they are counted for the messages, never checked as a path, and raise no warning."""
    from docqa.sources.edgar_listings import Columns, filings_of

    block = Columns(accessionNumber=["0000078003-23-000200", "0000078003-23-000164", "0000078003-23-000100"],
                    form=["4", "10-Q", "8-K"], filingDate=["2023-08-10", "2023-08-09", "2023-05-01"],
                    reportDate=["2023-08-08", "2023-07-02", ""],
                    primaryDocument=["xslF345X05/wk-form4_1.xml", "pfe-20230702.htm", ""])
    filings, forms, warnings = filings_of(block, 78003, "CIK0000078003.json")
    assert [f.primary_document for f in filings] == ["pfe-20230702.htm"]  # the 8-K has no document: left out
    assert forms == {"4": 1, "10-Q": 1} and warnings == []
