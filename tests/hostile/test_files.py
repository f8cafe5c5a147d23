"""Kept copies are whole or absent; failed jobs leave no upload; the page limit is checked before parsing."""

from __future__ import annotations

import fitz
import pytest

from docqa import Engine
from docqa.config import Settings
from docqa.faces.web.jobs import MAX_ATTEMPTS, IngestWorker
from docqa.ingest.pipeline import file_sha256, keep_copy
from docqa.types import Job
from tests.faces.web_helpers import small_pdf


def test_a_partial_kept_copy_is_replaced_on_ingest(tmp_path):
    pdf = small_pdf(tmp_path / "report.pdf", pages=3)
    sha = file_sha256(pdf)
    index = tmp_path / "index"
    files = index / "files"
    files.mkdir(parents=True)
    kept = files / f"{sha[:16]}.pdf"
    kept.write_bytes(pdf.read_bytes()[: pdf.stat().st_size // 2])  # a copy cut short by a crash
    with Engine.open(index, dense=False) as engine:
        report = engine.ingest([pdf])
        assert report.indexed, report.files
        assert file_sha256(kept) == sha
        assert engine.evidence_image("report.pdf", 2).png.startswith(b"\x89PNG")
    assert [p.name for p in files.iterdir()] == [kept.name]  # no temporary file left behind


def test_a_damaged_kept_copy_is_repaired_from_the_original(tmp_path):
    pdf = small_pdf(tmp_path / "report.pdf", pages=2)
    with Engine.open(tmp_path / "index", dense=False) as engine:
        engine.ingest([pdf])
        doc = engine.document("report.pdf")
        kept = engine.settings.files_dir / f"{doc.id}.pdf"
        kept.write_bytes(kept.read_bytes()[:300])
        assert engine.evidence_image("report.pdf", 1).png.startswith(b"\x89PNG")
        assert file_sha256(kept) == doc.sha256
        # damaged again and the original gone: a reason, not "corrupt PDF"
        kept.write_bytes(b"%PDF-1.7 truncated")
        pdf.unlink()
        from docqa.ingest.parse import ParseError

        with pytest.raises(ParseError, match="kept copy of report.pdf is damaged"):
            engine.evidence_image("report.pdf", 1)


def test_keep_copy_refuses_a_source_that_changed(tmp_path):
    from docqa.ingest.parse import ParseError

    src = small_pdf(tmp_path / "a.pdf")
    with pytest.raises(ParseError, match="changed while"):
        keep_copy(src, tmp_path / "files" / "x.pdf", "0" * 64)
    assert not (tmp_path / "files" / "x.pdf").exists() and not list((tmp_path / "files").iterdir())


def test_a_job_given_up_after_interruptions_removes_its_upload(tmp_path):
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    engine = Engine.open(Settings(index=tmp_path / "index", dense=False))
    try:
        stamp = "2025-01-01T00:00:00+00:00"
        doomed, retried = uploads / ("a" * 16 + ".pdf"), uploads / ("b" * 16 + ".pdf")
        doomed.write_bytes(b"%PDF-1.7 ...")
        retried.write_bytes(b"%PDF-1.7 ...")
        engine.store.put_job(Job(id="a" * 16, file_name="a.pdf", stored_path=str(doomed), sha256="a" * 64,
                                 status="processing", attempts=MAX_ATTEMPTS, created_at=stamp))
        engine.store.put_job(Job(id="b" * 16, file_name="b.pdf", stored_path=str(retried), sha256="b" * 64,
                                 status="processing", attempts=1, created_at=stamp))
        IngestWorker(engine, uploads).recover()
        assert engine.store.job("a" * 16).status == "failed" and not doomed.exists()
        assert engine.store.job("b" * 16).status == "queued" and retried.exists()
    finally:
        engine.close()


def test_the_page_limit_is_checked_before_parsing(tmp_path, monkeypatch):
    from docqa.ingest import pipeline

    doc = fitz.open()
    for _ in range(30):
        doc.new_page().insert_text((72, 72), "Example Corp annual report page", fontsize=11)
    pdf = tmp_path / "long.pdf"
    doc.save(pdf)

    def no_parsing(*args, **kwargs):
        raise AssertionError("parsed a file that is over the page limit")

    monkeypatch.setattr(pipeline, "parse_pdf", no_parsing)
    with Engine.open(tmp_path / "index", dense=False, max_pages=20) as engine:
        outcome = engine.ingest([pdf]).files[0]
    assert outcome.status == "failed" and outcome.reason.startswith("30 pages is over the limit of 20")
