"""A scanned page (an image, no text layer) is read through tesseract when it is installed."""

from __future__ import annotations

from docqa import Engine
from docqa.ingest.parse import parse_pdf, tesseract_available
from tests.conftest import require, scanned_copy


def test_scanned_page_is_read_by_ocr(tmp_path):
    require(tesseract_available(), "tesseract-ocr")
    parsed = parse_pdf(scanned_copy(tmp_path))
    page = parsed.pages[0]
    assert page.ocr and not page.no_text
    assert "ANNUAL REPORT" in page.text.upper()
    assert "2017" in page.text


def test_scanned_filing_is_searchable(tmp_path):
    require(tesseract_available(), "tesseract-ocr")
    engine = Engine.open(tmp_path / "index", dense=False)
    report = engine.ingest([scanned_copy(tmp_path)])
    assert report.indexed and engine.documents()[0].ocr_pages == 1
    hits = engine.search("annual report fiscal year ended December 31, 2017", k=1)
    assert hits and hits[0].page == 1
