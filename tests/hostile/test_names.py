"""A display name resolves to one document or is an error naming each (item 8); reasons say what
is wrong with the file (item 9): truncated, too large by its real size, OCR failing though installed."""

from __future__ import annotations

import json

import anyio
import fitz
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from docqa import Engine
from docqa.config import Settings
from docqa.faces.cli import app as cli
from docqa.faces.web.app import create_app
from docqa.ingest import pipeline
from docqa.ingest.pipeline import unique_name
from docqa.store import AmbiguousDocument
from tests.conftest import SAMPLES
from tests.faces.web_helpers import small_pdf
from tests.hostile.conftest import LOCAL, make_giant_page


def two_reports(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    return (small_pdf(tmp_path / "a" / "report.pdf", title="Alpha Corp Annual Report 2021"),
            small_pdf(tmp_path / "b" / "report.pdf", title="Beta Corp Annual Report 2021"))


def test_unique_name():
    assert unique_name("report.pdf", []) == "report.pdf"
    assert unique_name("report.pdf", ["Report.PDF"]) == "report (2).pdf"
    assert unique_name("report.pdf", ["report.pdf", "report (2).pdf"]) == "report (3).pdf"
    assert unique_name("notes", ["notes"]) == "notes (2)"


def test_cli_ingest_suffixes_a_second_name(tmp_path):
    a, b = two_reports(tmp_path)
    with Engine.open(tmp_path / "index", dense=False) as engine:
        report = engine.ingest([a, b])
        assert len(report.indexed) == 2
        assert sorted(d.file_name for d in engine.documents()) == ["report (2).pdf", "report.pdf"]
        renamed = [f for f in report.files if f.warnings and "indexed as report (2).pdf" in f.warnings[0]]
        assert len(renamed) == 1
        assert engine.document("report (2).pdf").id != engine.document("report.pdf").id


@pytest.fixture()
def ambiguous_index(tmp_path, monkeypatch):
    """An index where two documents share a name (as one built before names were made unique)."""
    monkeypatch.setattr(pipeline, "unique_name", lambda name, taken: name)
    a, b = two_reports(tmp_path)
    index = tmp_path / "index"
    with Engine.open(index, dense=False) as engine:
        assert len(engine.ingest([a, b]).indexed) == 2
        ids = sorted(d.id for d in engine.documents())
    return index, ids


def test_engine_refuses_an_ambiguous_name_and_ids_work(ambiguous_index):
    index, ids = ambiguous_index
    with Engine.open(index, dense=False) as engine:
        for name in ("report.pdf", "REPORT.PDF", "report"):
            with pytest.raises(AmbiguousDocument) as raised:
                engine.document(name)
            assert all(i in str(raised.value) for i in ids), str(raised.value)
        assert [engine.document(i).id for i in ids] == ids
        with pytest.raises(AmbiguousDocument):
            engine.ask("What was total revenue?", document="report.pdf")


def test_rest_ambiguous_name_is_409_with_the_ids(ambiguous_index):
    index, ids = ambiguous_index
    with TestClient(create_app(Settings(index=index, dense=False), worker=False), base_url=LOCAL) as c:
        r = c.get("/api/documents/report.pdf")
        assert r.status_code == 409, r.text
        body = r.json()
        assert body["error"]["code"] == "ambiguous_document"
        assert sorted(m["id"] for m in body["matches"]) == ids
        assert c.get(f"/api/documents/{ids[0]}").json()["id"] == ids[0]
        r = c.post("/api/ask", json={"question": "What was total revenue?", "document": "report.pdf"})
        assert r.status_code == 409 and all(i in r.text for i in ids)


def test_cli_ambiguous_name_is_an_error_with_the_ids(ambiguous_index):
    index, ids = ambiguous_index
    result = CliRunner().invoke(cli, ["ask", "What was total revenue?", "--document", "report.pdf", "--index", str(index)])
    assert result.exit_code == 2, result.output
    assert all(i in result.output for i in ids) and "pass the id" in result.output
    ok = CliRunner().invoke(cli, ["search", "total revenue", "--document", ids[0], "--index", str(index), "--json"])
    assert ok.exit_code == 0, ok.output


def test_mcp_ambiguous_name_is_a_tool_error_with_the_ids(ambiguous_index):
    from mcp import Client

    from docqa.faces.mcp import build_server

    index, ids = ambiguous_index

    async def scenario(server):
        async with Client(server) as client:
            bad = await client.call_tool("ask", {"question": "What was total revenue?", "document": "report.pdf"})
            good = await client.call_tool("ask", {"question": "What was total revenue?", "document": ids[1]})
            return bad, good

    with Engine.open(index, dense=False) as engine:
        bad, good = anyio.run(scenario, build_server(engine))
    text = " ".join(getattr(c, "text", "") for c in bad.content)
    assert bad.is_error and all(i in text for i in ids), text
    assert not good.is_error


def test_upload_of_a_second_name_is_suffixed(tmp_path):
    a, b = two_reports(tmp_path)
    with TestClient(create_app(Settings(index=tmp_path / "index", dense=False), worker=False), base_url=LOCAL) as c:
        first = c.post("/api/documents", files=[("files", ("report.pdf", a.read_bytes(), "application/pdf"))])
        second = c.post("/api/documents", files=[("files", ("report.pdf", b.read_bytes(), "application/pdf")),
                                                 ("files", ("REPORT.pdf", a.read_bytes() + b"\n", "application/pdf"))])
        assert first.json()["files"][0]["file_name"] == "report.pdf"
        names = [f["file_name"] for f in second.json()["files"]]
        assert names == ["report (2).pdf", "REPORT (3).pdf"], second.json()
        assert "already in the index" in second.json()["files"][0]["reason"]
        listed = sorted(d["file_name"] for d in c.get("/api/documents").json()["documents"])
        assert listed == ["REPORT (3).pdf", "report (2).pdf", "report.pdf"]


# --- item 9: reasons ------------------------------------------------------------------------------


def test_a_truncated_pdf_says_truncated_on_the_cli(tmp_path):
    src = (SAMPLES / "NETFLIX_2017_10K.pdf").read_bytes()
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(src[: len(src) // 10])
    result = CliRunner().invoke(cli, ["ingest", str(cut), "--index", str(tmp_path / "index")])
    assert "looks truncated" in result.output and "every page is blank" in result.output, result.output
    with Engine.open(tmp_path / "index2", dense=False) as engine:  # and the reason the upload path uses is this one
        (outcome,) = engine.ingest([cut]).files
    assert outcome.status == "failed" and outcome.reason.startswith("the file looks truncated")


def test_a_too_large_upload_reports_its_own_size(tmp_path):
    big = (SAMPLES / "NETFLIX_2017_10K.pdf").read_bytes() + b"\n%" + b"0" * (3 * 1024 * 1024 + 12345)
    settings = Settings(index=tmp_path / "index", dense=False, max_upload_mb=1)
    with TestClient(create_app(settings, worker=False), base_url=LOCAL) as c:
        r = c.post("/api/documents", files=[("files", ("big.pdf", big, "application/pdf"))])
    (result,) = r.json()["files"]
    assert result["code"] == "too_large" and result["size"] == len(big)
    assert f"{len(big):,} bytes" in result["reason"] and "limit of 1 MB" in result["reason"]


def test_ocr_failure_on_a_huge_page_does_not_say_install_tesseract(tmp_path, monkeypatch):
    from docqa.ingest import ocr, parse

    pdf = make_giant_page(tmp_path / "giant-scan.pdf", scanned=True)

    def failing_ocr(gray, dpi, options):
        raise RuntimeError("OCR engine error")

    monkeypatch.setattr(parse, "tesseract_available", lambda: True)
    monkeypatch.setattr(ocr, "engine_words", failing_ocr)
    with Engine.open(tmp_path / "index", dense=False) as engine:
        (outcome,) = engine.ingest([pdf]).files
    assert outcome.status == "failed"
    assert "install tesseract" not in outcome.reason
    assert "OCR failed on page 1: OCR engine error" in outcome.reason and "dpi" in outcome.reason, outcome.reason

    monkeypatch.setattr(parse, "tesseract_available", lambda: False)  # really missing: then say install it
    with Engine.open(tmp_path / "index2", dense=False) as engine:
        (outcome,) = engine.ingest([pdf]).files
    assert "install tesseract-ocr" in outcome.reason
