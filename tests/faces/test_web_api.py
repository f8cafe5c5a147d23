"""The REST API end to end, in process: real PDFs up, poll to ready or failed, ask, see the boxed page, delete."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

import fitz
import pytest
from fastapi.testclient import TestClient

from docqa.config import Settings
from docqa.faces.web.app import create_app
from tests.conftest import SAMPLES
from tests.filings import FINANCEBENCH
from tests.faces.web_helpers import highlight_pixels, small_pdf

NETFLIX = SAMPLES / "NETFLIX_2017_10K.pdf"
AMAZON = SAMPLES / "AMAZON_2017_10K.pdf"
COUNT_QUESTION = "How many times does 'streaming' appear in NETFLIX_2017_10K.pdf?"


def doc_id(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def pdf_part(path: Path, name: str | None = None) -> tuple:
    return ("files", (name or path.name, path.read_bytes(), "application/pdf"))


LOCAL = "http://127.0.0.1:8000"  # the server refuses Hosts that are not its own (faces/origin.py)


def wait_for(client: TestClient, ident: str, timeout: float = 180.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = client.get(f"/api/documents/{ident}")
        assert r.status_code == 200, r.text
        body = r.json()
        if body["status"] in ("ready", "failed"):
            return body
        time.sleep(0.2)
    raise AssertionError(f"{ident} still {body['status']} after {timeout}s")


def assert_error(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body["error"]) == {"code", "message"} and body["error"]["code"] == code, body
    assert body["error"]["message"]
    return body


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("web-index")


@pytest.fixture(scope="module")
def client(index):
    app = create_app(Settings(index=index, dense=False, max_upload_mb=5))
    with TestClient(app, base_url=LOCAL) as c:
        yield c


@pytest.fixture(scope="module")
def uploaded(client):
    """Two filings uploaded in one request, indexed in the background."""
    r = client.post("/api/documents", files=[pdf_part(NETFLIX), pdf_part(AMAZON)])
    assert r.status_code == 202, r.text
    return r.json()["files"]


@pytest.fixture(scope="module")
def ready(client, uploaded):
    return {f["file_name"]: wait_for(client, f["id"]) for f in uploaded}


# --- upload ---------------------------------------------------------------------------------------


def test_several_files_each_get_a_result(uploaded):
    assert [(f["file_name"], f["accepted"], f["status"]) for f in uploaded] == [
        ("NETFLIX_2017_10K.pdf", True, "queued"), ("AMAZON_2017_10K.pdf", True, "queued")]
    assert uploaded[0]["id"] == doc_id(NETFLIX)  # the id the document keeps once indexed
    assert uploaded[0]["size"] == NETFLIX.stat().st_size


def test_documents_reach_ready_with_metadata_and_progress(client, ready):
    netflix = ready["NETFLIX_2017_10K.pdf"]
    assert netflix["status"] == "ready" and netflix["reason"] is None
    assert netflix["pages"] == netflix["pages_total"] == netflix["pages_done"] == 73
    assert netflix["chunks"] > 0 and netflix["attempts"] == 1
    assert "Netflix" in netflix["meta"]["company"]
    assert netflix["meta"]["fiscal_year"] == 2017 and netflix["meta"]["doc_type"] == "10k"
    listed = client.get("/api/documents").json()["documents"]
    assert {d["id"]: d["status"] for d in listed} == {doc_id(NETFLIX): "ready", doc_id(AMAZON): "ready"}
    # by file name too
    assert client.get("/api/documents/NETFLIX_2017_10K.pdf").json()["id"] == doc_id(NETFLIX)


def test_the_same_bytes_under_another_name_are_refused(client, ready):
    r = client.post("/api/documents", files=[pdf_part(NETFLIX, "netflix-copy.pdf")])
    body = assert_error(r, 422, "nothing_accepted")
    [result] = body["files"]
    assert result["code"] == "duplicate" and result["id"] == doc_id(NETFLIX)
    assert "already indexed as NETFLIX_2017_10K.pdf" in result["reason"]


def test_bad_files_are_refused_or_fail_with_a_reason(client, bad_files, tmp_path):
    truncated = tmp_path / "cut.pdf"
    truncated.write_bytes(NETFLIX.read_bytes()[: NETFLIX.stat().st_size // 10])
    renamed = small_pdf(tmp_path / "scan.txt", "Renamed Corp Annual Report 2020")  # a PDF whatever its name
    r = client.post("/api/documents", files=[
        pdf_part(bad_files["not_pdf"]),            # text named .pdf
        pdf_part(bad_files["empty"]),
        pdf_part(bad_files["encrypted"]),
        pdf_part(truncated),
        ("files", ("scan.txt", renamed.read_bytes(), "text/plain")),
    ])
    assert r.status_code == 202, r.text
    results = {f["file_name"]: f for f in r.json()["files"]}
    assert results["notes.pdf"]["code"] == "not_pdf" and not results["notes.pdf"]["accepted"]
    assert "not a PDF" in results["notes.pdf"]["reason"]
    assert results["empty.pdf"]["code"] == "empty"
    assert all(results[n]["accepted"] for n in ("locked.pdf", "cut.pdf", "scan.txt"))

    locked = wait_for(client, results["locked.pdf"]["id"])
    assert locked["status"] == "failed" and "password" in locked["reason"]
    cut = wait_for(client, results["cut.pdf"]["id"])
    assert cut["status"] == "failed" and "truncated" in cut["reason"]
    assert wait_for(client, results["scan.txt"]["id"])["status"] == "ready"

    listed = {d["file_name"]: d for d in client.get("/api/documents").json()["documents"]}
    assert listed["locked.pdf"]["status"] == "failed" and listed["locked.pdf"]["reason"]
    assert "notes.pdf" not in listed  # refused files never became documents

    # a failed file can be sent again (it fails again, with its reason, rather than being called a duplicate)
    again = client.post("/api/documents", files=[pdf_part(bad_files["encrypted"])])
    assert again.status_code == 202 and again.json()["files"][0]["accepted"]
    assert wait_for(client, results["locked.pdf"]["id"])["status"] == "failed"
    assert client.delete(f"/api/documents/{results['locked.pdf']['id']}").status_code == 200


def test_oversize_and_too_many_pages_are_refused(tmp_path):
    big = NETFLIX.read_bytes() + b"\n%" + b"0" * (1024 * 1024)  # a PDF just over 1 MB
    settings = Settings(index=tmp_path / "small-limits", dense=False, max_upload_mb=1, max_upload_request_mb=20,
                        max_pages=50)
    with TestClient(create_app(settings, worker=False), base_url=LOCAL) as c:
        r = c.post("/api/documents", files=[("files", ("big.pdf", big, "application/pdf")), pdf_part(AMAZON)])
        body = assert_error(r, 422, "nothing_accepted")
        codes = {f["file_name"]: f["code"] for f in body["files"]}
        assert codes == {"big.pdf": "too_large", "AMAZON_2017_10K.pdf": "too_many_pages"}
        assert "1 MB" in body["files"][0]["reason"]
        # a request over the upload request limit (DOCQA_MAX_UPLOAD_REQUEST_MB) is cut off before it is read
        huge = c.post("/api/documents", files=[("files", ("huge.pdf", b"%PDF-1.7\n" + b"0" * (22 << 20), "application/pdf"))])
        assert_error(huge, 413, "too_large")

        def chunks():  # no Content-Length: the body is counted as it arrives
            yield b'--B\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\n\r\n%PDF-1.7\n'
            for _ in range(22):
                yield b"0" * (1 << 20)
            yield b"\r\n--B--\r\n"

        streamed = c.post("/api/documents", content=chunks(), headers={"content-type": "multipart/form-data; boundary=B"})
        assert "content-length" not in streamed.request.headers
        assert_error(streamed, 413, "too_large")
        assert not list((tmp_path / "small-limits" / "uploads").glob("*"))  # nothing left behind


def test_uploaded_names_never_become_paths(client, index, tmp_path):
    pdf = small_pdf(tmp_path / "x.pdf", "Path Test Inc Annual Report 2019")
    r = client.post("/api/documents", files=[
        ("files", ("../../../../tmp/evil name.pdf", pdf.read_bytes(), "application/pdf"))])
    [result] = r.json()["files"]
    assert result["accepted"] and result["file_name"] == "evil name.pdf"
    assert wait_for(client, result["id"])["file_name"] == "evil name.pdf"
    assert not Path("/tmp/evil name.pdf").exists()
    stored = [p.name for p in index.rglob("*") if p.is_file()]
    assert not any("evil" in name for name in stored)
    assert f"{result['id']}.pdf" in stored  # kept under a name the server chose


def test_deleting_a_document_while_it_waits_or_indexes(client, tmp_path):
    pdf = small_pdf(tmp_path / "gone.pdf", "Gone Ltd Annual Report 2018", pages=3)
    [result] = client.post("/api/documents", files=[pdf_part(pdf)]).json()["files"]
    assert client.delete(f"/api/documents/{result['id']}").json() == {"deleted": [result["id"]]}
    worker = client.app.state.worker
    deadline = time.monotonic() + 60
    while worker.current == result["id"] and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.3)
    assert client.get(f"/api/documents/{result['id']}").status_code == 404
    assert client.app.state.engine.store.document(result["id"]) is None


# --- asking and the evidence -----------------------------------------------------------------------


def test_ask_returns_a_verified_answer_with_citations_and_an_id(client, ready):
    r = client.post("/api/ask", json={"question": COUNT_QUESTION})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["id"] and answer["verification"] == "verified" and answer["found"] is True
    assert answer["citations"] and answer["citations"][0]["document_id"] == doc_id(NETFLIX)
    assert answer["citations"][0]["quote"] and answer["formula"] and "total_ms" in answer["timings"]
    link = answer["pages"][0]
    assert link["image_url"] == f"/api/documents/{doc_id(NETFLIX)}/pages/{link['page']}.png?answer={answer['id']}"


def test_any_question_gets_an_answer_or_a_reason(client, ready):
    for body in ({"question": "What was Amazon's total net sales in 2017?", "company": "Amazon.com, Inc."},
                 {"question": "What is the airspeed of an unladen swallow?", "document": doc_id(NETFLIX)}):
        r = client.post("/api/ask", json=body)
        assert r.status_code == 200, r.text
        answer = r.json()
        assert answer["verification"] in ("verified", "partial", "not_found") and answer["id"]
        assert answer["found"] or answer["reason"]


def test_highlighted_page_has_the_evidence_boxed(client, ready):
    answer = client.post("/api/ask", json={"question": COUNT_QUESTION}).json()
    url = answer["pages"][0]["image_url"]
    r = client.get(url)
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    assert r.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert r.headers["x-evidence"] == "quote" and int(r.headers["x-evidence-boxes"]) >= 1
    pix = fitz.Pixmap(r.content)
    assert pix.width > 1000 and pix.height > 1000  # a whole page at zoom 2
    boxed = highlight_pixels(r.content)
    assert boxed > 200, "no highlight outline drawn"
    plain = client.get(url.split("?")[0])
    assert plain.headers["x-evidence"] == "none"
    assert highlight_pixels(plain.content) < boxed / 20  # the colour comes from the boxes, not the page


def test_ask_and_page_errors_have_one_shape(client, ready):
    assert_error(client.post("/api/ask", json={}), 422, "invalid_request")
    # refused by the schema's own rules (a letter or digit; doc_type's enum), as /openapi.json says (issue 15)
    assert_error(client.post("/api/ask", json={"question": "   "}), 422, "invalid_request")
    assert_error(client.post("/api/ask", json={"question": "revenue?", "document": "NOPE.pdf"}), 404,
                 "document_not_found")
    assert_error(client.post("/api/ask", json={"question": "revenue?", "doc_type": "novel"}), 422, "invalid_request")
    assert_error(client.post("/api/ask", content=b"not json", headers={"content-type": "application/json"}), 422,
                 "invalid_request")
    nid = doc_id(NETFLIX)
    assert_error(client.get(f"/api/documents/{nid}/pages/999.png"), 404, "page_not_found")
    assert_error(client.get(f"/api/documents/{nid}/pages/0.png"), 404, "page_not_found")
    assert_error(client.get(f"/api/documents/{nid}/pages/1.png?answer=nope"), 404, "answer_not_found")
    assert_error(client.get("/api/documents/nope"), 404, "document_not_found")
    assert_error(client.get("/api/nothing-here"), 404, "not_found")
    assert_error(client.put("/api/ask", json={}), 405, "method_not_allowed")


def stream_events(client: TestClient, body: dict) -> list[tuple[str, dict]]:
    """POST /api/ask/stream, read as a browser reads Server-Sent Events: (event, data) in order."""
    events: list[tuple[str, dict]] = []
    with client.stream("POST", "/api/ask/stream", json=body) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"].startswith("text/event-stream")
        fields: dict[str, str] = {}
        for line in r.iter_lines():
            if line:
                name, _, value = line.partition(": ")
                fields[name] = value
            elif fields:
                events.append((fields["event"], json.loads(fields["data"])))
                fields = {}
    return events


def same_answer(streamed: dict, plain: dict) -> tuple[dict, dict]:
    """Both answers without what differs from one asking to the next: ids, times, the thread."""
    def strip(answer: dict) -> dict:
        kept = {k: v for k, v in answer.items() if k not in ("id", "timings", "thread_id")}
        kept["pages"] = [{**p, "image_url": p["image_url"].split("?")[0]} for p in answer["pages"]]
        return kept
    return strip(streamed), strip(plain)


FIGURE_QUESTION = "What was Netflix's operating income in 2017?"


def test_streamed_ask_says_each_stage_then_the_answer_the_plain_endpoint_gives(client, ready):
    events = stream_events(client, {"question": FIGURE_QUESTION})
    kinds = [kind for kind, _ in events]
    assert kinds[-1] == "answer" and kinds.count("answer") == 1 and "error" not in kinds
    stages = [data for kind, data in events if kind == "stage"]
    # the figures answer it: no quotes to compose, so no composing stage
    assert [s["name"] for s in stages] == ["understanding", "searching", "reading", "verifying"]
    assert [s["title"] for s in stages][:2] == ["Understanding the question", "Searching"]
    held = [d for d in client.get("/api/documents").json()["documents"] if d["status"] == "ready"]
    assert len(held) >= 2  # Netflix and Amazon, and whatever earlier tests indexed
    assert stages[1]["detail"] == f"searching {sum(d['pages'] for d in held):,} pages of {len(held)} filings"
    assert NETFLIX.name in stages[2]["detail"]
    elapsed = [s["elapsed_s"] for s in stages]
    assert elapsed == sorted(elapsed) and elapsed[0] < 5

    streamed = events[-1][1]
    assert streamed["verification"] == "verified" and streamed["id"] and streamed["thread_id"]
    plain = client.post("/api/ask", json={"question": FIGURE_QUESTION})
    assert plain.status_code == 200
    got, want = same_answer(streamed, plain.json())
    assert got == want
    logged = client.get(f"/api/questions/{streamed['id']}").json()  # logged like any web question
    assert logged["origin"] == "web" and logged["answer"]["text"] == streamed["text"]


def test_a_question_answered_from_quotes_is_composed_then_verified(client, ready):
    question = "How does Netflix describe its competition?"
    events = stream_events(client, {"question": question, "document": doc_id(NETFLIX)})
    names = [data["name"] for kind, data in events if kind == "stage"]
    assert names[:3] == ["understanding", "searching", "reading"], names
    assert "composing" in names and names[-1] == "verifying", names
    assert names.index("composing") < len(names) - 1
    stages = [data for kind, data in events if kind == "stage"]
    assert stages[1]["detail"] == "searching 73 pages of 1 filing"  # the scope, not the whole index
    plain = client.post("/api/ask", json={"question": question, "document": doc_id(NETFLIX)}).json()
    got, want = same_answer(events[-1][1], plain)
    assert got == want


def test_a_follow_up_streams_from_its_thread(client, ready):
    first = client.post("/api/ask", json={"question": FIGURE_QUESTION}).json()
    events = stream_events(client, {"question": "and in 2016?", "thread": first["thread_id"]})
    assert events[0] == ("stage", {**events[0][1], "name": "understanding", "detail": "following the conversation"})
    answer = events[-1][1]
    assert answer["thread_id"] == first["thread_id"] and "company" in answer["inherited"]


def test_streamed_ask_refuses_what_the_plain_one_refuses_before_any_event(client, ready):
    for body, status, code in [
        ({}, 422, "invalid_request"),
        ({"question": "   "}, 422, "invalid_request"),
        ({"question": "revenue?", "document": "NOPE.pdf"}, 404, "document_not_found"),
        ({"question": "revenue?", "thread": "0123456789ab"}, 404, "thread_not_found"),
    ]:
        plain = assert_error(client.post("/api/ask", json=body), status, code)
        streamed = assert_error(client.post("/api/ask/stream", json=body), status, code)
        assert streamed == plain


def test_examples_come_from_what_is_indexed(client, ready):
    deadline = time.monotonic() + 300
    while (body := client.get("/api/examples").json())["pending"] and time.monotonic() < deadline:
        time.sleep(0.5)  # each candidate is asked in the background before it is suggested
    examples = body["examples"]
    assert examples and any("Netflix" in q for q in examples) and any("Amazon" in q for q in examples)
    for question in examples:  # every suggestion answers: found and Verified
        answer = client.post("/api/ask", json={"question": question}).json()
        assert answer["found"] and answer["badge"] == "Verified", (question, answer["text"])


def test_feedback_and_history_newest_first(client, ready):
    first = client.post("/api/ask", json={"question": "How many pages does AMAZON_2017_10K.pdf have?"}).json()
    second = client.post("/api/ask", json={"question": COUNT_QUESTION, "document": doc_id(NETFLIX)}).json()
    r = client.post("/api/feedback", json={"answer_id": first["id"], "helpful": False, "note": "wanted 10-K pages"})
    assert r.json() == {"answer_id": first["id"], "helpful": False, "note": "wanted 10-K pages"}
    assert_error(client.post("/api/feedback", json={"answer_id": "nope", "helpful": True}), 404, "answer_not_found")
    assert_error(client.post("/api/feedback", json={"answer_id": first["id"]}), 422, "invalid_request")

    history = client.get("/api/questions?limit=2").json()["questions"]
    assert [q["id"] for q in history] == [second["id"], first["id"]]
    assert history[1]["helpful"] is False and history[1]["note"] == "wanted 10-K pages"
    assert history[0]["filters"]["document"] == doc_id(NETFLIX) and history[0]["helpful"] is None
    assert history[0]["origin"] == "web" and history[0]["thread_id"] == second["thread_id"]
    assert history[0]["answer"]["scope"]["document_names"] == [NETFLIX.name]
    assert history[0]["answer"]["citations"] == second["citations"]
    assert client.get(f"/api/questions/{first['id']}").json()["answer"]["text"] == first["text"]


def test_export_log_in_the_dev_question_format(client, ready, tmp_path):
    from typer.testing import CliRunner

    from docqa.faces.cli import app as cli
    from docqa.app.questionlog import export_jsonl

    asked = client.post("/api/ask", json={"question": COUNT_QUESTION}).json()
    client.post("/api/feedback", json={"answer_id": asked["id"], "helpful": True})
    out = tmp_path / "log.jsonl"
    n = export_jsonl(client.app.state.engine, out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert n == len(rows) == len(client.get("/api/questions?limit=1000").json()["questions"])
    row = next(r for r in rows if r["id"] == f"log-{asked['id']}")
    dev_keys = set(json.loads(FINANCEBENCH.read_text().splitlines()[0]))  # the same keys as the dev questions
    assert dev_keys <= set(row)
    assert row["question"] == COUNT_QUESTION and row["answer"] == asked["text"]
    assert row["answer_type"] == "numeric" and row["documents"] == ["NETFLIX_2017_10K.pdf"]
    assert row["evidence"][0] == {"document": "NETFLIX_2017_10K.pdf", "page": asked["citations"][0]["page"]}
    assert row["helpful"] is True and row["verification"] == "verified"
    assert rows == sorted(rows, key=lambda r: r["asked_at"])  # oldest first, like an eval set grows

    cli_out = tmp_path / "cli-log.jsonl"
    result = CliRunner().invoke(cli, ["export-log", "--out", str(cli_out), "--index", str(client.app.state.settings.index)])
    assert result.exit_code == 0, result.output
    assert f"wrote {n} question(s)" in result.output and len(cli_out.read_text().splitlines()) == n


# --- deleting (last: it empties the module's index) ---------------------------------------------------


def test_delete_one_then_all(client, index, ready):
    aid = doc_id(AMAZON)
    assert client.delete(f"/api/documents/{aid}").json() == {"deleted": [aid]}
    assert_error(client.get(f"/api/documents/{aid}"), 404, "document_not_found")
    assert not (index / "files" / f"{aid}.pdf").exists()
    assert_error(client.delete(f"/api/documents/{aid}"), 404, "document_not_found")
    assert_error(client.delete("/api/documents"), 400, "confirm_delete_all")
    assert client.get("/api/documents").json()["documents"]
    r = client.delete("/api/documents?all=true")
    assert doc_id(NETFLIX) in r.json()["deleted"]
    assert client.get("/api/documents").json() == {"documents": []}
    assert client.get("/api/questions").json()["questions"]  # the log outlives the documents


# --- safe defaults ---------------------------------------------------------------------------------------


def test_token_guards_every_api_call(tmp_path):
    settings = Settings(index=tmp_path / "guarded", dense=False, api_token="s3cret-token")
    with TestClient(create_app(settings, worker=False)) as c:
        for method, path in [("GET", "/api/documents"), ("POST", "/api/ask"), ("GET", "/api/questions"),
                             ("GET", "/api/no-such-thing"), ("DELETE", "/api/documents?all=true")]:
            r = c.request(method, path)
            assert_error(r, 401, "unauthorized")
            assert r.headers["www-authenticate"] == "Bearer"
        assert_error(c.get("/api/documents", headers={"Authorization": "Bearer wrong"}), 401, "unauthorized")
        assert_error(c.get("/api/documents", headers={"Authorization": "s3cret-token"}), 401, "unauthorized")
        ok = c.get("/api/documents", headers={"Authorization": "Bearer s3cret-token"})
        assert ok.status_code == 200 and ok.json() == {"documents": []}
        page = c.get("/")  # the page itself loads, then asks for the token
        assert page.status_code == 200 and "docqa" in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert c.get("/static/app.js").status_code == 200


def test_defaults_are_local_and_limited():
    settings = Settings(_env_file=None)
    assert settings.web.host == "127.0.0.1"
    assert settings.limits.max_upload_mb > 0 and settings.limits.max_pages > 0


def test_openapi_document_is_valid(client):
    from openapi_spec_validator import validate

    spec = client.get("/openapi.json").json()
    validate(spec)
    paths = spec["paths"]
    for path in ["/api/documents", "/api/documents/{doc_id}", "/api/documents/{doc_id}/pages/{page}.png",
                 "/api/ask", "/api/feedback", "/api/questions"]:
        assert path in paths, path
    assert set(paths["/api/documents"]) == {"get", "post", "delete"}


def test_a_file_stored_with_pages_ocr_can_read_now_is_read_again_on_upload(tmp_path):
    """Indexed while OCR was off, uploaded again once it is on: accepted under its name and read."""
    from docqa import Engine
    from docqa.ingest.parse import tesseract_available
    from tests.conftest import require
    from tests.ingest.test_ocr import make_scan

    require(tesseract_available(), "tesseract-ocr")
    mixed = tmp_path / "mixed.pdf"  # a cover with a text layer, then two scanned pages
    with fitz.open() as doc, fitz.open(make_scan(tmp_path / "pages.pdf", pages=2)) as pages:
        doc.new_page().insert_text((72, 72), "Orbit Widgets annual report, fiscal 2021", fontsize=12)
        doc.insert_pdf(pages)
        doc.save(mixed)
    index = tmp_path / "index"
    Engine.open(Settings(index=index, dense=False, ingest={"ocr": False})).ingest([mixed])
    app = create_app(Settings(index=index, dense=False))
    with TestClient(app, base_url=LOCAL) as c:
        r = c.post("/api/documents", files=[pdf_part(mixed, "mixed-again.pdf")])
        assert r.status_code == 202, r.text
        [result] = r.json()["files"]
        assert result["accepted"] and result["file_name"] == "mixed.pdf"
        assert result["reason"] == "indexed again: 2 page(s) stored without text are read by OCR now"
        assert wait_for(c, result["id"])["status"] == "ready"
        assert [d["file_name"] for d in c.get("/api/documents").json()["documents"]] == ["mixed.pdf"]
        again = c.post("/api/documents", files=[pdf_part(mixed)])  # read now: a duplicate from here on
        assert assert_error(again, 422, "nothing_accepted")["files"][0]["code"] == "duplicate"
