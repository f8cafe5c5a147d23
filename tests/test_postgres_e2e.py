"""End to end on PostgreSQL: the engine, unchanged, ingests a real filing into a PostgreSQL store,
answers a question with a verified citation, and agrees with the SQLite store."""

from __future__ import annotations

import pytest

from docqa import Engine
from docqa.config import Settings
from tests.conftest import SAMPLES
from tests.pgserver import postgres_server, postgres_url  # noqa: F401  (fixtures)

NETFLIX = SAMPLES / "NETFLIX_2017_10K.pdf"
QUESTION = "What was Netflix's net income in 2017?"


@pytest.fixture
def engines(tmp_path, postgres_url):
    pg = Engine.open(Settings(index=tmp_path / "pg", store=postgres_url, dense=False))
    lite = Engine.open(Settings(index=tmp_path / "lite", dense=False))
    yield pg, lite
    pg.close()
    lite.close()


def test_ingest_ask_and_verify_on_postgresql(engines):
    from docqa.store.postgres import PostgresStore

    pg, lite = engines
    assert isinstance(pg.store, PostgresStore)
    report = pg.ingest([NETFLIX])
    assert [f.status for f in report.files] == ["indexed"]
    again = pg.ingest([NETFLIX])  # idempotent: unchanged files are skipped
    assert [f.status for f in again.files] == ["skipped"]
    doc = pg.documents()[0]
    assert doc.file_name == "NETFLIX_2017_10K.pdf" and doc.chunks == report.files[0].chunks

    answer = pg.ask(QUESTION)
    assert answer.found and answer.verification == "verified"
    assert "558,929" in answer.text
    citation = answer.citations[0]
    assert citation.document == "NETFLIX_2017_10K.pdf"
    page_text = pg.store.page(citation.document_id, citation.page).text
    assert "558,929" in citation.quote and citation.quote.split()[0] in page_text
    assert citation.boxes  # the quote was found on the page and boxed
    assert pg.evidence(citation)[:8] == b"\x89PNG\r\n\x1a\n"

    # the same filing in the embedded store gives the same answer from the same page
    lite.ingest([NETFLIX])
    same = lite.ask(QUESTION)
    assert (same.text, [(c.document, c.page) for c in same.citations]) == (
        answer.text, [(c.document, c.page) for c in answer.citations])
    top_pg = [(h.document, h.page) for h in pg.search("streaming revenues and paid memberships", k=5)]
    top_lite = [(h.document, h.page) for h in lite.search("streaming revenues and paid memberships", k=5)]
    assert len(set(top_pg) & set(top_lite)) >= 3
