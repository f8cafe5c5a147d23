"""An upload's result says what is the matter with the file: a truncated PDF that still indexes is
ready with the CLI's warning, a PDF whose page tree loops says so (not "OCR read nothing"), an empty
or non-PDF file is called that (not "looks truncated"), and no reason shows the server's own paths."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from docqa.config import Settings
from docqa.faces.web.app import create_app
from docqa.app.ingestjobs import IngestWorker, job_id_for, now
from docqa.types import Job
from tests.filings import filing_pdf
from tests.hostile.conftest import LOCAL

FILING = filing_pdf("FOOTLOCKER_2022_8K_dated-2022-05-20.pdf")  # a real filing, from the committed cuts

CYCLIC = b"""%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Pages /Kids [2 0 R] /Count 1 /Parent 2 0 R >> endobj
trailer << /Root 1 0 R >>
%%EOF
"""  # the page tree's only child is a list whose only child is the tree again


def cut(data: bytes) -> bytes:
    """The file cut short of its end-of-file marker, as an interrupted download leaves it."""
    return data[: len(data) * 99 // 100]


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("messages") / "index"


@pytest.fixture(scope="module")
def client(index):
    app = create_app(Settings(index=index, dense=False, quote_by_meaning=False))
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def upload(client, name: str, data: bytes) -> dict:
    r = client.post("/api/documents", files=[("files", (name, data, "application/pdf"))])
    return r.json()["files"][0]


def settled(client, doc_id: str) -> dict:
    for _ in range(1200):
        body = client.get(f"/api/documents/{doc_id}").json()
        if body["status"] in ("ready", "failed"):
            return body
        time.sleep(0.1)
    raise AssertionError(f"{doc_id} is still {body['status']}")


@pytest.mark.skipif(not FILING.exists(), reason="the shared filings are not here")
def test_a_truncated_pdf_that_indexes_is_ready_with_a_warning(client):
    sent = upload(client, "cut-8k.pdf", cut(FILING.read_bytes()))
    assert sent["accepted"], sent
    doc = settled(client, sent["id"])
    assert doc["status"] == "ready" and doc["pages"] > 0, doc
    assert any("looks truncated" in w for w in doc["warnings"]), doc
    listed = {d["id"]: d for d in client.get("/api/documents").json()["documents"]}
    assert listed[sent["id"]]["warnings"] == doc["warnings"]


def test_a_looping_page_tree_is_said_to_be_broken(client):
    sent = upload(client, "loop.pdf", CYCLIC)
    doc = settled(client, sent["id"]) if sent["accepted"] else sent
    assert "page tree is broken" in doc["reason"] and "OCR" not in doc["reason"], doc


def test_a_damaged_pdf_names_no_server_path(client, index):
    sent = upload(client, "junk.pdf", b"%PDF-1.7\n" + os.urandom(4000))
    doc = settled(client, sent["id"])
    assert doc["status"] == "failed" and str(index) not in doc["reason"] and "junk.pdf" in doc["reason"], doc


def test_empty_and_random_files_are_called_what_they_are(client):
    empty = upload(client, "empty.pdf", b"")
    assert empty["code"] == "empty" and empty["reason"].startswith("empty file"), empty
    noise = upload(client, "noise.pdf", os.urandom(4000).replace(b"%PDF", b"%PDX"))
    assert noise["code"] == "not_pdf" and noise["reason"].startswith("not a PDF"), noise


@pytest.mark.parametrize("data, starts", [(b"", "empty file"), (os.urandom(4000).replace(b"%PDF", b"%PDX"), "not a PDF")],
                         ids=["empty", "random-bytes"])
def test_a_queued_file_that_turns_out_empty_or_not_a_pdf_says_so(tmp_path, data, starts):
    """The worker's reason for a stored upload (replaced or cut after it was queued) names what it is."""
    app = create_app(Settings(index=tmp_path / "index", dense=False, quote_by_meaning=False), worker=False)
    engine = app.state.engine
    uploads = tmp_path / "index" / "uploads"
    uploads.mkdir(parents=True)
    stored = uploads / "0123456789abcdef.pdf"
    stored.write_bytes(data)
    worker = IngestWorker(engine, uploads)
    job = Job(id=job_id_for("0123456789abcdef" * 4), file_name="report.pdf", stored_path=str(stored),
              sha256="0123456789abcdef" * 4, created_at=now(), updated_at=now())
    with TestClient(app, base_url=LOCAL) as c:
        worker.submit(job)
        worker.start()
        try:
            doc = settled(c, job.id)
        finally:
            worker.stop()
    assert doc["status"] == "failed" and doc["reason"].startswith(starts), doc
