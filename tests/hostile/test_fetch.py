"""`docqa fetch` against a hostile or broken EDGAR: each test makes its bad answer with the fake EDGAR
server of tests/sources/test_edgar.py (on 127.0.0.1) and checks that fetch stays inside its cache
folder, stops at its size caps and its deadline, follows redirects only within the SEC hosts, and says
what was wrong in one line instead of a traceback.
"""

from __future__ import annotations

import gzip
import json
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docqa.sources.edgar import EdgarError, fetch_filings
from tests.sources.test_edgar import FIXTURES, FakeEdgar

TICKERS = "/files/company_tickers.json"
SUBMISSIONS = "/submissions/CIK0000078003.json"
GOOD = ("0000078003-23-000164", "10-Q", "2023-08-09", "2023-07-02", "pfe-20230702.htm")
FILING_HTML = b"<html><body><p>PFIZER INC quarterly report</p></body></html>"


@pytest.fixture()
def edgar():
    servers: list[FakeEdgar] = []

    def start() -> FakeEdgar:
        fake = FakeEdgar()
        fake.thread.start()
        servers.append(fake)
        return fake

    yield start
    for fake in servers:
        fake.server.shutdown()
        fake.server.server_close()
        fake.thread.join(5)


# --------------------------------------------------------------------------- hostile answers


def answer(body: bytes, status: int = 200, headers: dict | None = None):
    def route(handler: BaseHTTPRequestHandler) -> None:
        handler._send(status, body, headers)
    return route


def answer_json(data) -> object:
    return answer(json.dumps(data).encode())


def submissions(*rows) -> dict:
    """EDGAR's columnar submissions JSON for Pfizer with these (accession, form, filed, report, document) rows."""
    names = ("accessionNumber", "form", "filingDate", "reportDate", "primaryDocument")
    columns = {name: [row[i] for row in rows] for i, name in enumerate(names)}
    return {"cik": "78003", "name": "PFIZER INC", "filings": {"recent": columns, "files": []}}


def stream(head: bytes, size: int, length: bool):
    """A 200 answer of ``size`` bytes of valid JSON (``head`` then spaces), with or without Content-Length."""
    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        if length:
            handler.send_header("Content-Length", str(size))
        handler.end_headers()
        block = b" " * 65536
        try:
            handler.wfile.write(head)
            sent = len(head)
            while sent < size:
                piece = block[: size - sent]
                handler.wfile.write(piece)
                sent += len(piece)
        except OSError:  # the client stopped reading
            pass
    return route


def drip(raw: bytes, pieces: int = 40, every: float = 0.25):
    """Writes ``raw`` in ``pieces`` a quarter second apart (10 s in all)."""
    def write(handler: BaseHTTPRequestHandler) -> None:
        step = -(-len(raw) // pieces)
        for i in range(0, len(raw), step):
            handler.wfile.write(raw[i:i + step])
            handler.wfile.flush()
            time.sleep(every)
    return write


def slow_answer(head: bytes, body: bytes, where: str):
    """An HTTP answer whose status line and headers (``where="headers"``) or body drip in."""
    def route(handler: BaseHTTPRequestHandler) -> None:
        try:
            if where == "headers":
                drip(head)(handler)
                handler.wfile.write(body)
            else:
                handler.wfile.write(head)
                drip(body)(handler)
        except OSError:  # the client gave up
            pass
        handler.close_connection = True
    return route


def http_answer(body: bytes) -> tuple[bytes, bytes]:
    head = f"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    return head, body


def files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()]


# ------------------------------------------------------------------------------ paths from the network


def test_an_accession_that_is_a_path_is_skipped_and_nothing_is_written_outside(edgar, tmp_path):
    fake = edgar()
    fake.fallback = answer(FILING_HTML)  # every archive path answers: only the checks keep fetch inside
    outside_abs = tmp_path / "absolute-escape"
    fake.routes[SUBMISSIONS] = answer_json(submissions(
        ("../../../../escaped", "10-Q", "2023-05-10", "2023-04-02", "evil-a.htm"),
        (str(outside_abs), "10-Q", "2023-05-11", "2023-04-02", "evil-b.htm"),
        GOOD))
    fake.documents.pop("78003/000007800323000164/pfe-20230702.htm", None)  # the good one gets FILING_HTML too
    index = tmp_path / "index"
    report = fetch_filings(fake.settings(index), "PFE", ["10-Q"], "2023")

    assert [f.filing.accession for f in report.filings] == [GOOD[0]]
    assert report.filings[0].downloaded and Path(report.filings[0].path).read_bytes() == FILING_HTML
    outside = [p for p in files_under(tmp_path) if not p.is_relative_to(index / "edgar")]
    assert outside == [] and not outside_abs.exists()
    skipped = [w for w in report.warnings if "accession" in w]
    assert len(skipped) == 2 and all("\n" not in w for w in skipped), report.warnings
    assert any("../../../../escaped" in w for w in skipped) and any(str(outside_abs) in w for w in skipped)
    assert not any("evil" in path for path, _, _ in fake.requests)  # never asked for


@pytest.mark.parametrize("field, value", [
    ("primaryDocument", "../../../../escaped.htm"),
    ("primaryDocument", "/etc/passwd"),
    ("form", "10-Q/../../x"),
    ("reportDate", "2023-07-02/../../x"),
])
def test_other_fields_of_the_wrong_shape_skip_their_filing(edgar, tmp_path, field, value):
    fake = edgar()
    fake.fallback = answer(FILING_HTML)
    bad = dict(zip(("accessionNumber", "form", "filingDate", "reportDate", "primaryDocument"),
                   ("0000078003-23-000120", "10-Q", "2023-05-10", "2023-04-02", "pfe-20230402.htm")))
    bad[field] = value
    fake.routes[SUBMISSIONS] = answer_json(submissions(tuple(bad.values()), GOOD))
    index = tmp_path / "index"
    report = fetch_filings(fake.settings(index), "PFE", ["10-Q"], "2023")
    assert [f.filing.accession for f in report.filings] == [GOOD[0]]
    assert len(report.warnings) == 1 and value in report.warnings[0], report.warnings
    assert [p for p in files_under(tmp_path) if not p.is_relative_to(index / "edgar")] == []


# ------------------------------------------------------------------------------ sizes and time


@pytest.mark.parametrize("length", [True, False], ids=["content-length", "until-close"])
def test_an_oversized_ticker_map_stops_at_the_listing_cap(edgar, tmp_path, length):
    fake = edgar()
    fake.routes[TICKERS] = stream((FIXTURES / "company_tickers.json").read_bytes(), 3 << 20, length)
    with pytest.raises(EdgarError, match=r"larger than 1 MB \(DOCQA_SEC_MAX_LISTING_MB\)"):
        fetch_filings(fake.settings(tmp_path, sec_max_listing_mb=1), "PFE", ["10-Q"])
    assert not (tmp_path / "edgar" / "company_tickers.json").exists()


def test_a_compressed_ticker_map_is_capped_as_it_unpacks(edgar, tmp_path):
    fake = edgar()
    bomb = gzip.compress((FIXTURES / "company_tickers.json").read_bytes() + b" " * (30 << 20))
    fake.routes[TICKERS] = answer(bomb, headers={"Content-Encoding": "gzip"})
    assert len(bomb) < 1 << 20  # small on the wire, 30 MB unpacked
    with pytest.raises(EdgarError, match=r"larger than 1 MB \(DOCQA_SEC_MAX_LISTING_MB\)"):
        fetch_filings(fake.settings(tmp_path, sec_max_listing_mb=1), "PFE", ["10-Q"])


def test_an_oversized_document_fails_alone(edgar, tmp_path):
    fake = edgar()
    fake.routes[SUBMISSIONS] = answer_json(submissions(GOOD, ("0000078003-23-000120", "10-Q", "2023-05-10",
                                                              "2023-04-02", "pfe-20230402.htm")))
    fake.routes["/Archives/edgar/data/78003/000007800323000164/pfe-20230702.htm"] = stream(b"<html>", 3 << 20, False)
    fake.routes["/Archives/edgar/data/78003/000007800323000120/pfe-20230402.htm"] = answer(FILING_HTML)
    report = fetch_filings(fake.settings(tmp_path, sec_max_document_mb=1), "PFE", ["10-Q"], "2023")
    errors = {f.filing.primary_document: f.error for f in report.filings}
    assert errors == {"pfe-20230402.htm": None,
                      "pfe-20230702.htm": "larger than 1 MB (DOCQA_SEC_MAX_DOCUMENT_MB)"}


@pytest.mark.parametrize("where", ["body", "headers"])
def test_a_slow_drip_ends_at_the_deadline(edgar, tmp_path, where):
    """One piece every 0.25 s: no single read waits 1 s, but the whole answer would take 10 s."""
    fake = edgar()
    head, body = http_answer((FIXTURES / "company_tickers.json").read_bytes())
    fake.routes[TICKERS] = slow_answer(head, body, where)
    with pytest.raises(EdgarError, match=r"did not finish answering within 1 s"):
        fetch_filings(fake.settings(tmp_path, sec_timeout_s=1.0), "PFE", ["10-Q"])


# ------------------------------------------------------------------------------------ redirects


def test_a_redirect_loop_is_an_error(edgar, tmp_path):
    fake = edgar()
    fake.routes[TICKERS] = answer(b"", 302, {"Location": TICKERS})
    with pytest.raises(EdgarError, match=r"redirected more than \d+ times"):
        fetch_filings(fake.settings(tmp_path), "PFE", ["10-Q"])


def test_a_redirect_to_another_host_is_not_followed(edgar, tmp_path):
    fake, other = edgar(), edgar()
    fake.routes[TICKERS] = answer(b"", 302, {"Location": f"{other.url}{TICKERS}"})
    with pytest.raises(EdgarError, match=r"redirected .* outside the SEC hosts"):
        fetch_filings(fake.settings(tmp_path), "PFE", ["10-Q"])
    assert other.requests == []


def test_a_redirect_within_the_sec_hosts_is_followed(edgar, tmp_path):
    fake = edgar()
    fake.routes[TICKERS] = answer(b"", 301, {"Location": "/files/moved.json"})
    fake.routes["/files/moved.json"] = answer((FIXTURES / "company_tickers.json").read_bytes())
    fake.routes[SUBMISSIONS] = answer_json(submissions(GOOD))
    fake.fallback = answer(FILING_HTML)
    report = fetch_filings(fake.settings(tmp_path), "PFE", ["10-Q"])
    assert report.cik == 78003 and [f.downloaded for f in report.filings] == [True]
    assert [p for p, _, _ in fake.requests][:2] == [TICKERS, "/files/moved.json"]


# ------------------------------------------------------------------------------ malformed JSON


@pytest.mark.parametrize("reply, says", [
    ([1, 2, 3], "the top level should be an object, not an array"),
    ({"filings": "none"}, "filings should be an object, not a string"),
    ({"filings": {"recent": {"accessionNumber": "0000078003-23-000164"}}},
     "filings.recent.accessionNumber should be an array, not a string"),
    ({"filings": {"recent": {}, "files": [7]}}, "filings.files.0 should be an object, not a number"),
    ({"name": 5, "filings": {}}, "name should be a string, not a number"),
])
def test_submissions_of_the_wrong_shape_are_one_error(edgar, tmp_path, reply, says):
    fake = edgar()
    fake.routes[SUBMISSIONS] = answer_json(reply)
    with pytest.raises(EdgarError) as caught:
        fetch_filings(fake.settings(tmp_path), "PFE", ["10-Q"])
    message = str(caught.value)
    assert "is not EDGAR's submissions JSON" in message and says in message and "\n" not in message, message
    assert not (tmp_path / "edgar" / "submissions" / "CIK0000078003.json").exists()  # not cached either


@pytest.mark.parametrize("reply, says", [
    ("tickers", "the top level should be an object or an array, not a string"),
    ({"0": {"cik_str": "../../x", "ticker": "PFE", "title": "PFIZER INC"}}, "1 malformed row"),
    ({"0": {"cik_str": 10 ** 30, "ticker": "PFE", "title": "PFIZER INC"}}, "1 malformed row"),
    ({"0": {"cik_str": 78003, "ticker": ["PFE"], "title": "PFIZER INC"}}, "1 malformed row"),
])
def test_a_ticker_map_of_the_wrong_shape_is_one_error(edgar, tmp_path, reply, says):
    fake = edgar()
    fake.routes[TICKERS] = answer_json(reply)
    with pytest.raises(EdgarError) as caught:
        fetch_filings(fake.settings(tmp_path), "PFE", ["10-Q"])
    assert says in str(caught.value) and "\n" not in str(caught.value), caught.value


def test_an_integer_filing_date_skips_that_filing(edgar, tmp_path):
    fake = edgar()
    fake.fallback = answer(FILING_HTML)
    fake.routes[SUBMISSIONS] = answer_json(submissions(
        ("0000078003-23-000120", "10-Q", 20230510, "2023-04-02", "pfe-20230402.htm"), GOOD))
    report = fetch_filings(fake.settings(tmp_path), "PFE", ["10-Q"], "2023")
    assert [f.filing.accession for f in report.filings] == [GOOD[0]]
    (warning,) = report.warnings
    assert "filingDate 20230510" in warning and "YYYY-MM-DD" in warning, warning


# ---------------------------------------------------------------------------------------- the CLI


def test_cli_says_what_was_wrong_in_one_line(edgar, tmp_path):
    from docqa.faces.cli import app as cli

    fake = edgar()
    fake.routes[SUBMISSIONS] = answer_json([1, 2, 3])
    index = tmp_path / "index"
    result = CliRunner().invoke(cli, ["fetch", "PFE", "--form", "10-Q", "--index", str(index)], env=fake.env(index))
    assert result.exit_code == 2, (result.output, result.exception)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error ") and "submissions JSON" in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_cli_prints_a_hostile_value_as_text(edgar, tmp_path):
    """A value from the server is shown as it is, not read as rich markup (an unmatched [/x] used to crash)."""
    from docqa.faces.cli import app as cli

    fake = edgar()
    fake.routes[SUBMISSIONS] = answer_json(submissions(
        ("../../../[/x]", "10-Q", "2023-08-09", "2023-07-02", "evil.htm"),
        ("0000078003-23-000120", "10-Q", "2023-05-10", "2023-04-02", "pfe-20230402.htm")))
    index = tmp_path / "index"
    result = CliRunner().invoke(cli, ["fetch", "PFE", "--form", "10-Q", "--years", "2023", "--index", str(index)],
                                env=fake.env(index))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    warning = [line for line in result.output.splitlines() if line.startswith("warning")]
    assert len(warning) == 1 and "'../../../[/x]'" in warning[0], result.output
    assert "not on EDGAR (404)" in result.output and result.exit_code == 1
    assert [p for p in files_under(tmp_path) if not p.is_relative_to(index)] == []


def test_a_retry_after_that_is_not_a_number_is_waited_as_a_default(edgar, tmp_path):
    """Retry-After: nan parses as a float, and time.sleep(nan) raises: it is waited as no Retry-After."""
    fake = edgar()
    answers = [answer(b"busy", 503, {"Retry-After": "nan"}), answer((FIXTURES / "company_tickers.json").read_bytes())]
    fake.routes[TICKERS] = lambda handler: answers.pop(0)(handler)
    fake.routes[SUBMISSIONS] = answer_json(submissions(GOOD))
    fake.fallback = answer(FILING_HTML)
    report = fetch_filings(fake.settings(tmp_path), "PFE", ["10-Q"])
    assert [f.downloaded for f in report.filings] == [True] and answers == []
