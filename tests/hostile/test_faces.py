"""Each hostile probe through each face: CLI, REST, MCP."""

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
from tests.hostile.conftest import GIANT_PT, LOCAL
from tests.test_injection import assert_clean

QUESTION = "What was ACME revenue?"
LIMIT = Settings().limits.max_render_pixels


def assert_capped(png: bytes):
    pix = fitz.Pixmap(png)
    assert pix.width * pix.height <= LIMIT, (pix.width, pix.height)
    assert pix.width >= 1000 and abs(pix.width - pix.height) <= 1  # scaled down, not cropped


@pytest.fixture(scope="module")
def rest(hostile_index):
    app = create_app(Settings(index=hostile_index["index"], dense=False), worker=False)
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def mcp_call(index, tool: str, arguments: dict):
    from mcp import Client

    from docqa.faces.mcp import build_server

    async def scenario(server):
        async with Client(server) as client:
            return await client.call_tool(tool, arguments)

    with Engine.open(index, dense=False) as engine:
        return anyio.run(scenario, build_server(engine))


# --- injection -------------------------------------------------------------------------------------


def test_cli_injection(hostile_index):
    result = CliRunner().invoke(cli, ["ask", QUESTION, "--document", "acme-injected.pdf", "--json",
                                      "--index", str(hostile_index["index"])])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["found"] and "1,234" in answer["text"]
    assert_clean(answer["text"])
    assert all("ignore" not in c["quote"].lower() for c in answer["citations"])


def test_rest_injection(rest):
    r = rest.post("/api/ask", json={"question": QUESTION, "document": "acme-injected.pdf"})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["found"] and "1,234" in answer["text"]
    assert_clean(answer["text"])


def test_mcp_injection(hostile_index):
    result = mcp_call(hostile_index["index"], "ask", {"question": QUESTION, "document": "acme-injected.pdf"})
    assert not result.is_error, result.content
    answer = json.loads(result.content[0].text)  # one compact JSON text block (docs/mcp.md)
    assert answer["found"] and "1,234" in answer["text"]
    assert_clean(answer["text"])
    assert_clean(json.dumps(answer["citations"]))


# --- the giant page --------------------------------------------------------------------------------


def test_rest_giant_page_is_capped(rest):
    r = rest.get("/api/documents/giant.pdf/pages/1.png")
    assert r.status_code == 200, r.text
    assert_capped(r.content)


def test_mcp_giant_page_is_capped(hostile_index):
    result = mcp_call(hostile_index["index"], "show_evidence", {"document": "giant.pdf", "page": 1, "quote": "revenue was"})
    assert not result.is_error, result.content
    image = next(c for c in result.content if c.type == "image")
    import base64

    pix = fitz.Pixmap(base64.b64decode(image.data))  # rendered within the cap, then fitted for a model's context
    assert pix.width <= 1000 and len(image.data) <= 100_000


def test_cli_giant_page_is_capped(hostile_index, tmp_path):
    out = tmp_path / "page.png"
    result = CliRunner().invoke(cli, ["show", "giant.pdf", "1", "--out", str(out), "--index", str(hostile_index["index"])])
    assert result.exit_code == 0, result.output
    assert_capped(out.read_bytes())


def test_engine_giant_page_within_a_small_limit(hostile_index):
    with Engine.open(hostile_index["index"], dense=False, max_render_pixels=4_000_000) as engine:
        image = engine.evidence_image("giant.pdf", 1, ["revenue was"])
    pix = fitz.Pixmap(image.png)
    assert pix.width * pix.height <= 4_000_000 and image.used == "quote"
    assert image.zoom == pytest.approx(2000 / GIANT_PT, rel=0.01)  # the boxes' scale is the one used


def test_giant_page_memory_is_bounded(hostile_index):
    """Peak RSS of rendering the page in a fresh process (it was 5.7 GB before the cap). VmHWM, not
    ru_maxrss: the latter keeps the high-water mark of the forking pytest process across exec."""
    import subprocess
    import sys
    from pathlib import Path

    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc (Linux) to read the peak RSS")
    code = ("from docqa import Engine\n"
            f"e = Engine.open({str(hostile_index['index'])!r}, dense=False)\n"
            "png = e.evidence_image('giant.pdf', 1, ['revenue was']).png\n"
            "print([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    peak_mb = int(out.stdout.split()[-1]) / 1024
    assert peak_mb < 1024, f"peak RSS {peak_mb:.0f} MB"


def test_an_absurd_page_is_refused_with_a_reason(tmp_path):
    from docqa.evidence import render_evidence
    from docqa.limits import PageTooLarge

    doc = fitz.open()
    doc.new_page(width=14400, height=3)  # a 200-inch ribbon: nothing to see at any scale within the limit
    path = tmp_path / "ribbon.pdf"
    doc.save(path)
    with pytest.raises(PageTooLarge, match="too large to render"):
        render_evidence(path, 1, [], max_pixels=1_000_000)


def test_ocr_of_a_giant_scan_is_capped(tmp_path, monkeypatch):
    from docqa.ingest import ocr, parse
    from tests.hostile.conftest import make_giant_page

    pdf = make_giant_page(tmp_path / "giant-scan.pdf", scanned=True)
    seen = []

    def fake_ocr(gray, dpi, options):  # the image the engine would be given
        seen.append((dpi, gray.shape))
        raise RuntimeError("not run in this test")

    monkeypatch.setattr(parse, "tesseract_available", lambda: True)
    monkeypatch.setattr(ocr, "engine_words", fake_ocr)
    with fitz.open(pdf) as doc:
        parse.parse_page(doc[0], 1, ocr=True)
    (dpi, (h, w)), = seen
    assert w * h <= LIMIT and dpi < 200
