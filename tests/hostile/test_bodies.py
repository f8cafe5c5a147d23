"""Request bodies have limits, checked before they are read: a JSON request (a question, feedback) and
an upload each have their own (DOCQA_MAX_JSON_KB, DOCQA_MAX_UPLOAD_REQUEST_MB), by Content-Length up
front and by counting a chunked body as it arrives; an answer never sends a long input back whole."""

from __future__ import annotations

import json

import pytest

from docqa import Engine
from docqa.config import Settings
from docqa.faces.web.app import create_app
from tests.faces.web_helpers import small_pdf
from tests.hostile.live import chunked, raw_request, serving

BIG = 400 * 1024 * 1024  # promised, never sent


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bodies")
    index = folder / "index"
    with Engine.open(index, dense=False) as engine:
        assert engine.ingest([small_pdf(folder / "report.pdf")]).indexed
    settings = Settings(index=index, dense=False, quote_by_meaning=False, max_json_kb=64, max_upload_mb=2,
                        max_upload_request_mb=4)
    with serving(create_app(settings, worker=False)) as url:
        yield url


def post_head(path: str, content_type: str, length: int | None) -> str:
    size = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    return f"POST {path} HTTP/1.1\nHost: 127.0.0.1\nContent-Type: {content_type}\n{size}\nConnection: close"


def assert_too_large(status: int, body: dict, setting: str) -> str:
    assert status == 413, body
    assert body["error"]["code"] == "too_large", body
    message = body["error"]["message"]
    assert setting in message, message
    return message


def test_a_json_body_promised_over_the_limit_is_refused_before_it_is_read(live):
    status, body = raw_request(live, post_head("/api/ask", "application/json", BIG))
    message = assert_too_large(status, body, "DOCQA_MAX_JSON_KB")
    assert "64 KB" in message


def test_a_chunked_json_body_is_counted_as_it_arrives(live):
    question = json.dumps({"question": "What was total revenue " + "revenue " * 20_000}).encode()  # ~160 KB
    assert len(question) > 64 * 1024
    parts = (question[i:i + 8192] for i in range(0, len(question), 8192))
    status, body = raw_request(live, post_head("/api/ask", "application/json", None), chunked(parts))
    assert_too_large(status, body, "DOCQA_MAX_JSON_KB")


def test_an_upload_promised_over_the_request_limit_is_refused_before_it_is_spooled(live):
    status, body = raw_request(live, post_head("/api/documents", "multipart/form-data; boundary=B", BIG))
    message = assert_too_large(status, body, "DOCQA_MAX_UPLOAD_REQUEST_MB")
    assert "4 MB" in message and "DOCQA_MAX_UPLOAD_MB" in message


def test_a_chunked_upload_over_the_request_limit_is_cut_off(live):
    def parts():
        yield b'--B\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\n\r\n%PDF-1.7\n'
        for _ in range(8):  # 8 MB, twice the request limit
            yield b"0" * (1 << 20)
        yield b"\r\n--B--\r\n"

    status, body = raw_request(live, post_head("/api/documents", "multipart/form-data; boundary=B", None),
                               chunked(parts()))
    assert_too_large(status, body, "DOCQA_MAX_UPLOAD_REQUEST_MB")


def test_an_ordinary_question_and_upload_still_go_through(live, tmp_path):
    import httpx

    answer = httpx.post(live + "/api/ask", json={"question": "What was total revenue?"}, timeout=60)
    assert answer.status_code == 200, answer.text
    pdf = small_pdf(tmp_path / "other.pdf", "Other Corp Annual Report 2020")
    up = httpx.post(live + "/api/documents", files=[("files", ("other.pdf", pdf.read_bytes(), "application/pdf"))],
                    timeout=60)
    assert up.status_code == 202, up.text


def test_a_long_document_name_is_not_sent_back_whole(live):
    import httpx

    name = "x" * 20_000
    r = httpx.post(live + "/api/ask", json={"question": "What was total revenue?", "document": name}, timeout=60)
    assert r.status_code in (404, 422), r.text
    assert len(r.text) < 2000 and name[:200] not in r.text, r.text[:300]
    r = httpx.get(live + "/api/documents/" + "y" * 8000, timeout=60)
    assert r.status_code == 404 and len(r.text) < 2000, r.text[:300]
    r = httpx.get(live + "/api/questions/" + "z" * 8000, timeout=60)
    assert r.status_code == 404 and len(r.text) < 2000, r.text[:300]
