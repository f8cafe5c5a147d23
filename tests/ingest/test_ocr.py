"""Scanned pages (an image, no text layer) and garbled text layers are read by OCR: page by page on a
process pool sized to the cores, at a resolution chosen from the page's text size."""

from __future__ import annotations

import logging
import os
import socket
import threading

import fitz
import pytest

from docqa import Engine
from docqa.ingest import ocr
from docqa.ingest.ocr import OcrOptions, OcrRun, page_dpi
from docqa.ingest.parse import parse_pdf, tesseract_available
from tests.conftest import require, scanned_copy


def make_scan(path, pages: int = 4, fontsize: float = 14, dpi: int = 150):
    """An image-only PDF whose page i prints "Page i" and a figure of its own: what a scanner makes."""
    text = fitz.open()
    for i in range(1, pages + 1):
        page = text.new_page(width=612, height=792)
        page.insert_text((72, 120), f"Page {i} of the annual report", fontsize=fontsize)
        page.insert_text((72, 160), f"Total revenue {i * 1111:,} million", fontsize=fontsize)
    scan = fitz.open()
    for page in text:
        image = scan.new_page(width=612, height=792)
        image.insert_image(image.rect, pixmap=page.get_pixmap(dpi=dpi, colorspace=fitz.csGRAY))
    scan.save(path)
    return path


class Recorder:
    """A progress that also takes notes, as the CLI's bar does."""

    def __init__(self):
        self.calls: list[tuple[str, int, int]] = []
        self.notes: list[str] = []

    def __call__(self, name: str, done: int, total: int) -> None:
        self.calls.append((name, done, total))

    def note(self, name: str, text: str) -> None:
        self.notes.append(text)


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


def test_the_pages_of_a_scan_are_read_on_a_pool_of_one_process_per_core(tmp_path):
    require(tesseract_available(), "tesseract-ocr")
    pdf = make_scan(tmp_path / "scan.pdf", pages=4)
    options = OcrOptions(workers=2)
    with OcrRun(str(pdf), options, pages=4) as run:
        for index in range(4):
            run.submit(index)
        assert run.pool is not None and run.size == 2
        results = list(run.results())
    assert sorted(r.index for r in results) == [0, 1, 2, 3]
    assert all(r.error is None for r in results)
    assert os.getpid() not in {r.worker for r in results}  # read by the pool's processes, not here


def test_a_scan_comes_back_in_page_order_with_ocr_progress(tmp_path):
    require(tesseract_available(), "tesseract-ocr")
    pdf = make_scan(tmp_path / "scan.pdf", pages=4)
    progress = Recorder()
    with Engine.open(tmp_path / "index", dense=False) as engine:
        (outcome,) = engine.ingest([pdf], progress=progress).files
        assert outcome.status == "indexed" and engine.documents()[0].ocr_pages == 4
    assert progress.notes == [f"OCR page {i} of 4" for i in range(1, 5)]
    assert progress.calls[-1] == ("scan.pdf", 4, 4)
    parsed = parse_pdf(pdf)
    for number, page in enumerate(parsed.pages, 1):
        assert page.number == number and page.ocr
        assert f"Page {number}" in page.text and f"{number * 1111:,}" in page.text


def test_a_page_the_engine_fails_on_is_lost_alone_with_a_warning(tmp_path, monkeypatch, caplog):
    require(tesseract_available(), "tesseract-ocr")
    pdf = make_scan(tmp_path / "scan.pdf", pages=4)
    real = ocr.ocr_page

    def fails_on_page_two(page, options):  # the forked workers inherit it
        if page.number == 1:
            raise RuntimeError("engine crashed on this image")
        return real(page, options)

    monkeypatch.setattr(ocr, "ocr_page", fails_on_page_two)
    with caplog.at_level(logging.WARNING, logger="docqa.ingest.parse"):
        parsed = parse_pdf(pdf, ocr_options=OcrOptions(workers=2))
    assert [p.no_text for p in parsed.pages] == [False, True, False, False]
    assert "Page 3" in parsed.pages[2].text and "4,444" in parsed.pages[3].text
    assert parsed.ocr_failures == {2: "engine crashed on this image"}
    assert any("OCR failed on 1 page(s) (engine crashed on this image): 2" in w for w in parsed.warnings)
    assert "OCR failed on page 2" in caplog.text


def test_a_scan_indexed_from_a_thread_is_read_on_the_pool_too(tmp_path):
    """The web server indexes uploads on a thread: its pool forks from a clean server process."""
    require(tesseract_available(), "tesseract-ocr")
    pdf = make_scan(tmp_path / "scan.pdf", pages=3)
    got = {}
    thread = threading.Thread(target=lambda: got.update(parsed=parse_pdf(pdf, ocr_options=OcrOptions(workers=2))))
    thread.start()
    thread.join()
    assert [f"Page {n}" in p.text for n, p in enumerate(got["parsed"].pages, 1)] == [True] * 3


def test_the_dpi_follows_the_text_size_of_a_scan(tmp_path):
    small = make_scan(tmp_path / "small.pdf", pages=1, fontsize=7, dpi=200)
    large = make_scan(tmp_path / "large.pdf", pages=1, fontsize=16, dpi=200)
    options = OcrOptions(text_px=36, min_dpi=50, max_dpi=1000)
    with fitz.open(small) as s, fitz.open(large) as l:
        (small_dpi, _), (large_dpi, _) = page_dpi(s[0], options), page_dpi(l[0], options)
    # the font size seen in the image is within a quarter of the printed one
    assert 36 * 72 / 7 * 0.75 < small_dpi < 36 * 72 / 7 * 1.25
    assert 36 * 72 / 16 * 0.75 < large_dpi < 36 * 72 / 16 * 1.25


GARBLED = "=F97HCFG 5B8 C: H<9 7CAD5BM 5B8 =HG GI6G=8=5F=9G"  # a broken font encoding's "words"


def garbled_prose(lines: int = 30, fontsize: float = 8):
    """A page of running text whose layer is garbled: rows of words, single spaces between them."""
    doc = fitz.open()
    page = doc.new_page()
    for row in range(lines):
        page.insert_text((72, 80 + row * fontsize * 1.4), GARBLED, fontsize=fontsize)
    return doc


def garbled_table(rows: int = 20, fontsize: float = 8):
    """A page of a statement whose layer is garbled: a label and two columns of figures a row."""
    doc = fitz.open()
    page = doc.new_page()
    for row in range(rows):
        y = 80 + row * fontsize * 1.6
        page.insert_text((72, y), "+8I8AH8 ,H5F6E<CG<BA", fontsize=fontsize)
        page.insert_text((380, y), "#\"'#(", fontsize=fontsize)
        page.insert_text((480, y), "'(!\"(", fontsize=fontsize)
    return doc


def test_the_dpi_of_a_garbled_layer_is_its_printed_size():
    options = OcrOptions(sharp_text_px=24, sharp_prose_text_px=20)
    assert page_dpi(garbled_table()[0], options)[0] == 216  # 24 px per point of 8-pt text
    assert page_dpi(garbled_prose()[0], options)[0] == 180  # plain prose: 20 px per point


def test_plain_prose_is_told_from_tables_bullets_and_pictures():
    assert ocr.plain_prose(garbled_prose()[0])
    assert not ocr.plain_prose(garbled_table()[0])
    bullets = garbled_prose(lines=10)
    for row in range(10):  # a list: the bullet, a gap, then the item's words
        bullets[0].insert_text((30, 80 + row * 8 * 1.4), "*", fontsize=8)
    assert ocr.plain_prose(bullets[0])
    chart = garbled_prose(lines=10)
    chart[0].draw_rect(fitz.Rect(72, 300, 400, 600), color=(0, 0, 0), fill=(0, 0, 0))
    assert not ocr.plain_prose(chart[0])
    assert not ocr.plain_prose(fitz.open().new_page())  # a blank page: nothing says it is prose


def test_tesseract_is_loaded_once_per_worker_and_the_command_reads_the_same(tmp_path, monkeypatch):
    require(tesseract_available(), "tesseract-ocr")
    pdf = make_scan(tmp_path / "scan.pdf", pages=1, fontsize=16)
    options = OcrOptions()
    with fitz.open(pdf) as doc:
        if ocr._tesseract_api(options) is not None:
            assert ocr._tesseract_api(options) is ocr._tesseract_api(options)
            assert "tesserocr" in ocr.tesseract_runs(options)
            library = " ".join(w[4] for w in ocr.ocr_page(doc[0], options)[0])
            assert "1,111" in library and "revenue" in library.lower()
        monkeypatch.setattr(ocr, "_tesseract_api", lambda options: None)  # no tesserocr, or no model folder
        assert ocr.tesseract_runs(options) == "the tesseract command, one per page"
        command = " ".join(w[4] for w in ocr.ocr_page(doc[0], options)[0])
    assert "1,111" in command and "revenue" in command.lower()


def test_the_model_folder_is_tesseracts_own_variable_first(tmp_path, monkeypatch):
    (tmp_path / "eng.traineddata").write_bytes(b"")
    ocr.tessdata.cache_clear()
    monkeypatch.setenv("TESSDATA_PREFIX", str(tmp_path))
    try:
        assert ocr.tessdata("eng") == str(tmp_path)
        assert ocr.tessdata("eng+xyz") != str(tmp_path)  # every language's model must be there
    finally:
        ocr.tessdata.cache_clear()


@pytest.mark.skipif(not ocr.available("rapidocr"), reason="rapidocr-onnxruntime not installed")
def test_rapidocr_reads_a_page_with_no_network(tmp_path, monkeypatch):
    """Its models are inside its wheel: nothing is fetched when it runs."""
    def no_network(*args, **kwargs):
        raise OSError("no network in this test")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    pdf = make_scan(tmp_path / "scan.pdf", pages=1, fontsize=16)
    with fitz.open(pdf) as doc:
        words, _, _ = ocr.ocr_page(doc[0], OcrOptions(engine="rapidocr"))
    text = " ".join(w[4] for w in words)
    assert "1,111" in text and "revenue" in text.lower()


@pytest.mark.parametrize("workers", [None, 2], ids=["serial", "parallel"])
def test_a_scan_indexed_while_ocr_was_off_is_read_once_ocr_is_on(tmp_path, monkeypatch, workers):
    """The flagged page says "turn it on and ingest the file again": doing so
    reads it (under the name it has), instead of skipping it as unchanged."""
    require(tesseract_available(), "tesseract-ocr")
    text = tmp_path / "text.pdf"
    with fitz.open() as doc:
        doc.new_page().insert_text((72, 72), "Total revenue 5,555 million in fiscal 2021", fontsize=12)
        doc.save(text)
    scan = tmp_path / "scan.pdf"  # a cover with a text layer, then two scanned pages
    with fitz.open(text) as doc, fitz.open(make_scan(tmp_path / "pages.pdf", pages=2)) as pages:
        doc.insert_pdf(pages)
        doc.save(scan)

    def ingest(paths):
        engine = Engine.open(tmp_path / "index", dense=False)
        return engine, (engine.ingest_parallel(paths, workers=workers) if workers else engine.ingest(paths))

    monkeypatch.setenv("DOCQA_OCR", "false")
    engine, first = ingest([scan, text])
    assert [f.status for f in first.files] == ["indexed", "indexed"]
    assert any("turn it on and ingest the file again" in w for w in first.files[0].warnings)
    stored = {d.file_name: d for d in engine.documents()}
    assert stored["scan.pdf"].no_text_pages == 2 and stored["scan.pdf"].ocr_pages == 0

    engine, off_again = ingest([scan])  # OCR still off: nothing new to read
    assert off_again.files[0].status == "skipped"

    monkeypatch.setenv("DOCQA_OCR", "true")
    engine, again = ingest([scan, text])
    outcome, unchanged = again.files
    assert outcome.status == "indexed", outcome
    assert outcome.warnings[0] == "indexed again: 2 page(s) stored without text are read by OCR now"
    assert unchanged.status == "skipped"  # a file with a text layer is not read again
    stored = {d.file_name: d for d in engine.documents()}
    assert sorted(stored) == ["scan.pdf", "text.pdf"]  # the same name, one document each
    assert stored["scan.pdf"].ocr_pages == 2 and stored["scan.pdf"].no_text_pages == 0
    assert "2,222" in engine.store.page(stored["scan.pdf"].id, 3).text

    engine, last = ingest([scan])  # read by OCR now: unchanged from here on
    assert last.files[0].status == "skipped"
