"""Identical uploads sent at once resolve to one document: one is queued, every other is told it
duplicates that one, by id and name, and every id and name any of them was given leads to that
document. Against a real `docqa serve` (two answering processes and the indexing one), and against
the app on a real socket whose store is made slow to answer (a pause injected after each read of a
job or a document), which widens the moments in which two uploads, or an upload and the worker
finishing, could cross."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from docqa.config import Settings
from docqa.faces.web.app import create_app
from tests.faces.web_helpers import Server, small_pdf
from tests.hostile.live import serving

SENDERS = 24
READY_POLLS = 600  # x 0.2 s
PAUSE_S = 0.15  # after each read of a job or a document by sha: long enough for others to read meanwhile
STAGGER_S = 0.04  # the slow-store senders start one after another, over the time the first is indexed


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("race")
    env = {"DOCQA_WEB_WORKERS": "2", "DOCQA_QUOTE_BY_MEANING": "false"}
    with Server(folder / "index", folder / "server.log", env=env) as s:
        yield s


def send_all(url: str, data: bytes, stagger_s: float = 0.0) -> list[httpx.Response]:
    start = threading.Barrier(SENDERS)

    def send(n: int) -> httpx.Response:
        with httpx.Client(base_url=url, timeout=120) as client:
            start.wait()  # every sender posts at the same moment, or ``stagger_s`` after the one before
            time.sleep(n * stagger_s)
            return client.post("/api/documents", files=[("files", ("report.pdf", data, "application/pdf"))])

    with ThreadPoolExecutor(SENDERS) as pool:
        return list(pool.map(send, range(SENDERS)))


def test_identical_uploads_at_once_resolve_to_one_document(server, tmp_path):
    data = small_pdf(tmp_path / "report.pdf", "Race Corp Annual Report 2022", pages=3).read_bytes()
    assert_one_document(server.url, send_all(server.url, data))


def test_identical_uploads_resolve_to_one_document_on_a_slow_store(tmp_path):
    app = create_app(Settings(index=tmp_path / "index", dense=False, quote_by_meaning=False))
    store = app.state.engine.store
    for method in ("job", "document_by_sha"):
        setattr(store, method, paused(getattr(store, method)))
    data = small_pdf(tmp_path / "report.pdf", "Slow Corp Annual Report 2022", pages=3).read_bytes()
    with serving(app) as url:
        assert_one_document(url, send_all(url, data, STAGGER_S))


def paused(read):
    def slow(*args, **kwargs):
        found = read(*args, **kwargs)
        time.sleep(PAUSE_S)
        return found

    return slow


def assert_one_document(url: str, answers: list[httpx.Response]) -> None:
    results = [r.json()["files"][0] for r in answers]
    accepted = [f for f in results if f["accepted"]]
    assert len(accepted) == 1, [(r.status_code, f["status"], f["file_name"], f["reason"]) for r, f in zip(answers, results, strict=True)]
    (queued,) = accepted
    assert answers[results.index(queued)].status_code == 202
    for r, f in zip(answers, results, strict=True):
        if f is not queued:
            assert r.status_code == 422 and f["code"] == "duplicate", f
            assert f["id"] == queued["id"] and f["duplicate_of"] == queued["file_name"], f

    doc = wait_ready(url, queued["id"])
    assert doc["file_name"] == queued["file_name"]
    with httpx.Client(base_url=url, timeout=30) as client:
        for f in results:  # every id and every name given resolves to the one document
            assert client.get(f"/api/documents/{f['id']}").json()["id"] == doc["id"]
            name = f["file_name"] if f["accepted"] else f["duplicate_of"]
            assert client.get(f"/api/documents/{name}").json()["id"] == doc["id"]
        listed = client.get("/api/documents").json()["documents"]
    assert [d["id"] for d in listed] == [doc["id"]], listed


def wait_ready(url: str, doc_id: str) -> dict:
    with httpx.Client(base_url=url, timeout=30) as client:
        for _ in range(READY_POLLS):
            body = client.get(f"/api/documents/{doc_id}").json()
            if body["status"] in ("ready", "failed"):
                assert body["status"] == "ready", body
                return body
            time.sleep(0.2)
    raise AssertionError(f"{doc_id} is still {body['status']}")
