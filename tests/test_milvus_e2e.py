"""End to end on Milvus Lite: the engine, unchanged, ingests a real filing into a Milvus store,
answers a question with a verified citation, and agrees with the SQLite store."""

from __future__ import annotations

import pytest

pytest.importorskip("pymilvus")
pytest.importorskip("milvus_lite")

from docqa import Engine  # noqa: E402
from docqa.config import Settings  # noqa: E402
from tests.conftest import SAMPLES  # noqa: E402

NETFLIX = SAMPLES / "NETFLIX_2017_10K.pdf"
QUESTION = "What was Netflix's net income in 2017?"


@pytest.fixture
def engines(tmp_path):
    milvus = Engine.open(Settings(index=tmp_path / "mv", store=f"milvus-lite://{tmp_path}/mv/index.db", dense=False))
    lite = Engine.open(Settings(index=tmp_path / "lite", dense=False))
    yield milvus, lite
    milvus.close()
    lite.close()


def test_ingest_ask_and_verify_on_milvus_lite(engines):
    from docqa.store.milvus import MilvusStore

    milvus, lite = engines
    assert isinstance(milvus.store, MilvusStore)
    report = milvus.ingest([NETFLIX])
    assert [f.status for f in report.files] == ["indexed"]
    again = milvus.ingest([NETFLIX])  # idempotent: unchanged files are skipped
    assert [f.status for f in again.files] == ["skipped"]
    doc = milvus.documents()[0]
    assert doc.file_name == "NETFLIX_2017_10K.pdf" and doc.chunks == report.files[0].chunks

    answer = milvus.ask(QUESTION)
    assert answer.found and answer.verification == "verified"
    assert "558,929" in answer.text
    citation = answer.citations[0]
    assert citation.document == "NETFLIX_2017_10K.pdf"
    page_text = milvus.store.page(citation.document_id, citation.page).text
    assert "558,929" in citation.quote and citation.quote.split()[0] in page_text
    assert citation.boxes  # the quote was found on the page and boxed
    assert milvus.evidence(citation)[:8] == b"\x89PNG\r\n\x1a\n"

    # the same filing in the embedded store gives the same answer from the same page
    lite.ingest([NETFLIX])
    same = lite.ask(QUESTION)
    assert (same.text, [(c.document, c.page) for c in same.citations]) == (
        answer.text, [(c.document, c.page) for c in answer.citations])
    query = "streaming revenues and paid memberships"
    top_milvus = [(h.document, h.page) for h in milvus.search(query, k=5)]
    top_lite = [(h.document, h.page) for h in lite.search(query, k=5)]
    assert len(set(top_milvus) & set(top_lite)) >= 3
