"""A full disk during an upload is 507 "no space left on the index's disk", not 500 internal_error:
the store's write raises OSError(ENOSPC) (the store's DiskFull is one), injected here."""

from __future__ import annotations

import errno
import time

import pytest
from fastapi.testclient import TestClient

from docqa.config import Settings
from docqa.faces.web.app import create_app
from docqa.app.ingestjobs import IngestWorker
from tests.faces.web_helpers import small_pdf
from tests.hostile.conftest import LOCAL


def no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def part(path, name=None):
    return ("files", (name or path.name, path.read_bytes(), "application/pdf"))


@pytest.fixture()
def app(tmp_path):
    return create_app(Settings(index=tmp_path / "index", dense=False, quote_by_meaning=False), worker=False)


def disk_full_store(*args, **kwargs):
    from docqa.store import DiskFull

    raise DiskFull("/somewhere")


@pytest.mark.parametrize("write", [no_space, disk_full_store], ids=["ENOSPC", "DiskFull"])
def test_a_full_disk_on_the_store_write_is_507(app, tmp_path, monkeypatch, write):
    pdf = small_pdf(tmp_path / "report.pdf")
    monkeypatch.setattr(app.state.engine.store, "put_job", write)
    with TestClient(app, base_url=LOCAL) as c:
        r = c.post("/api/documents", files=[part(pdf)])
    assert r.status_code == 507, r.text
    error = r.json()["error"]
    assert error["code"] == "disk_full" and "no space left on the index's disk" in error["message"]
    assert not list((tmp_path / "index" / "uploads").glob("*.pdf"))  # nothing left behind for it


def test_a_full_disk_while_logging_a_question_is_507(app, monkeypatch):
    monkeypatch.setattr(app.state.engine.store, "log_question", no_space)
    with TestClient(app, base_url=LOCAL) as c:
        r = c.post("/api/ask", json={"question": "What was total revenue?"})
    assert r.status_code == 507 and r.json()["error"]["code"] == "disk_full", r.text


def test_what_the_same_upload_queued_before_the_disk_filled_is_listed(app, tmp_path, monkeypatch):
    first = small_pdf(tmp_path / "first.pdf", "First Corp Annual Report 2021")
    second = small_pdf(tmp_path / "second.pdf", "Second Corp Annual Report 2021")
    store = app.state.engine.store
    put_job = store.put_job
    calls = []

    def fills_up(job):
        calls.append(job.id)
        if len(calls) > 1:
            no_space()
        put_job(job)

    monkeypatch.setattr(store, "put_job", fills_up)
    with TestClient(app, base_url=LOCAL) as c:
        r = c.post("/api/documents", files=[part(first), part(second)])
    assert r.status_code == 507, r.text
    assert [f["file_name"] for f in r.json()["files"]] == ["first.pdf"]  # queued, and said so


def test_a_full_disk_while_indexing_fails_the_job_with_that_reason(tmp_path, monkeypatch):
    app = create_app(Settings(index=tmp_path / "index", dense=False, quote_by_meaning=False), worker=False)
    engine = app.state.engine
    monkeypatch.setattr(engine, "ingest_file", no_space)
    with TestClient(app, base_url=LOCAL) as c:
        r = c.post("/api/documents", files=[part(small_pdf(tmp_path / "report.pdf"))])
        assert r.status_code == 202, r.text
        doc_id = r.json()["files"][0]["id"]
        worker = IngestWorker(engine, tmp_path / "index" / "uploads")
        worker.start()
        try:
            for _ in range(300):
                body = c.get(f"/api/documents/{doc_id}").json()
                if body["status"] == "failed":
                    break
                time.sleep(0.1)
        finally:
            worker.stop()
    assert body["status"] == "failed" and body["reason"].startswith("no space left on the index's disk"), body
