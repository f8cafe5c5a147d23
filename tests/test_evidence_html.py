"""Evidence for EDGAR HTML filings: the cited page laid out at its stored coordinates, the quote boxed.

The Pfizer 10-Q is EDGAR's own (tests/fixtures/filings/html); the small filing is made here.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import fitz
import numpy as np
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from docqa import Engine
from docqa.config import Settings
from docqa.evidence import HIGHLIGHT_RGB, html_page, is_html_file, render_evidence
from docqa.ingest.html import CHAR_WIDTH, LINE_HEIGHT, MARGIN
from tests.filings import filing_html

PFIZER = "pfe-10-q-2023-07-02.html"
LOCAL = "http://127.0.0.1:8000"
QUESTION = "What was Pfizer's total revenue for the quarter ended July 2, 2023?"

FILING = """<html><body>
<p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p><p>FORM 10-K</p><p>ACME WIDGETS INC.</p>
<p>Revenue grew because customers bought more widgets in every region.</p>
<div style="page-break-before:always"></div>
<p>CONSOLIDATED STATEMENTS OF OPERATIONS</p>
<table>
<tr><td>(in millions)</td><td>2023</td><td>2022</td></tr>
<tr><td>Total revenue</td><td>$</td><td>1,234</td><td>$</td><td>1,000</td></tr>
<tr><td>Cost of revenue</td><td></td><td>(600</td><td>)</td><td>(550</td><td>)</td></tr>
<tr><td>Net income</td><td></td><td>321</td><td></td><td>280</td></tr>
</table>
</body></html>"""


def highlight(png: bytes) -> np.ndarray:
    pix = fitz.Pixmap(png)
    rgb = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]
    return np.all(rgb == np.array(HIGHLIGHT_RGB, dtype=np.uint8), axis=2)


def extent(png: bytes, zoom: float = 2.0) -> tuple[float, float, float, float]:
    """x0, y0, x1, y1 (points) of the highlight colour in the image."""
    mask = highlight(png)
    ys, xs = np.nonzero(mask.any(axis=1))[0], np.nonzero(mask.any(axis=0))[0]
    return xs.min() / zoom, ys.min() / zoom, xs.max() / zoom, ys.max() / zoom


@pytest.fixture()
def small(tmp_path) -> Path:
    path = tmp_path / "acme-10-k.htm"
    path.write_text(FILING, encoding="utf-8")
    return path


def test_html_page_is_laid_out_at_the_stored_coordinates(small):
    doc, lines = html_page(small, 2)
    try:
        words = doc[0].get_text("words")
        row = next(line for line in lines if line.text.startswith("Total revenue"))
        # every parsed word is written at its own box: x at 5 pt per character, on its line's y
        for word in row.words:
            drawn = [w for w in words if w[4] == word.text and abs(w[0] - word.bbox[0]) < 0.5]
            assert drawn, word
            assert drawn[0][2] - drawn[0][0] == pytest.approx(CHAR_WIDTH * len(word.text), abs=0.1)
            assert word.bbox[1] - 1 <= (drawn[0][1] + drawn[0][3]) / 2 <= word.bbox[3] + 1
        assert all((line.bbox[1] - MARGIN) % LINE_HEIGHT == 0 for line in lines)
    finally:
        doc.close()


def test_small_filing_quote_boxed_on_its_row(small):
    image = render_evidence(small, 2, ["Total revenue  $ 1,234  $ 1,000"])
    assert image.used == "quote" and len(image.boxes) == 1
    doc, lines = html_page(small, 2)
    doc.close()
    row = next(line for line in lines if line.text.startswith("Total revenue"))
    x0, y0, x1, y1 = extent(image.png)
    assert row.bbox[1] - 4 <= y0 <= row.bbox[1] and row.bbox[3] <= y1 <= row.bbox[3] + 4
    assert row.bbox[0] - 4 <= x0 <= row.bbox[0] and row.bbox[2] <= x1 <= row.bbox[2] + 4
    # no quote: the page alone; a page that does not exist: a reason
    assert highlight(render_evidence(small, 1, []).png).sum() == 0
    with pytest.raises(ValueError, match="pages 1-2"):
        render_evidence(small, 3, [])


def test_kept_copies_keep_their_suffix_and_old_pdf_named_copies_still_render(tmp_path, small):
    with Engine.open(tmp_path / "index", dense=False) as engine:
        outcome = engine.ingest([small]).files[0]
        assert outcome.status == "indexed", outcome.reason
        kept = engine.settings.files_dir / f"{outcome.document_id}.htm"
        assert kept.is_file() and is_html_file(kept)
        doc = engine.document("acme-10-k.htm")
        assert engine.pdf_path(doc) == kept
        # an index written before kept copies had their suffix: the HTML sits in {id}.pdf
        legacy = kept.with_suffix(".pdf")
        shutil.move(kept, legacy)
        assert engine.pdf_path(doc) == legacy and is_html_file(legacy)
        image = engine.evidence_image(doc.file_name, 2, ["Net income  321  280"])
        assert image.used == "quote" and highlight(image.png).sum() > 200
        engine.delete(doc.id)
        assert not legacy.exists()


@pytest.fixture(scope="module")
def pfizer_index(tmp_path_factory):
    index = tmp_path_factory.mktemp("pfe-html")
    with Engine.open(index, dense=False) as engine:
        outcome = engine.ingest([filing_html(PFIZER)]).files[0]
        assert outcome.status == "indexed", outcome.reason
        answer = engine.ask(QUESTION)
    return index, answer


def test_pfizer_figure_citation_renders_with_its_box(pfizer_index):
    index, answer = pfizer_index
    assert answer.found and answer.verification == "verified", answer.text
    cited = answer.citations[0]
    assert cited.document == PFIZER and cited.quote
    with Engine.open(index, dense=False) as engine:
        png = engine.evidence(cited, answer.figures)
        page = engine.page(cited.document, cited.page)
    assert png.startswith(b"\x89PNG")
    assert highlight(png).sum() > 200
    # the box is the cited row, where the store says it is
    line = next(line for line in page.lines if line.text == cited.quote)
    x0, y0, x1, y1 = extent(png)
    assert line.bbox[1] - 4 <= y0 <= line.bbox[1] and line.bbox[3] <= y1 <= line.bbox[3] + 4
    assert line.bbox[0] - 4 <= x0 <= line.bbox[0] and line.bbox[2] <= x1 <= line.bbox[2] + 4
    pix = fitz.Pixmap(png)
    assert (pix.width, pix.height) == (round(2 * page.width), round(2 * page.height))


def test_pfizer_figure_boxed_by_its_fact_box(pfizer_index):
    index, answer = pfizer_index
    figure = next(f for f in answer.figures if f.bbox is not None)
    with Engine.open(index, dense=False) as engine:
        image = engine.evidence_image(figure.document or PFIZER, figure.page, [], [figure])
    assert image.used == "figures"
    x0, y0, x1, y1 = extent(image.png)
    fx0, fy0, fx1, fy1 = figure.bbox
    assert fx0 - 4 <= x0 <= fx0 and fx1 <= x1 <= fx1 + 4 and fy0 - 4 <= y0 <= fy0 and fy1 <= y1 <= fy1 + 4


def test_pfizer_show_through_the_cli_and_rest(pfizer_index, tmp_path):
    from docqa.faces.cli import app as cli
    from docqa.faces.web.app import create_app

    index, answer = pfizer_index
    cited = answer.citations[0]
    out = tmp_path / "page.png"
    result = CliRunner().invoke(cli, ["show", cited.document, str(cited.page), "--quote", cited.quote,
                                      "--out", str(out), "--index", str(index)])
    assert result.exit_code == 0, result.output
    assert "boxed: quote" in result.output and highlight(out.read_bytes()).sum() > 200

    app = create_app(Settings(index=index, dense=False), worker=False)
    with TestClient(app, base_url=LOCAL) as client:
        asked = client.post("/api/ask", json={"question": QUESTION})
        assert asked.status_code == 200, asked.text
        response = client.get(f"/api/documents/{cited.document_id}/pages/{cited.page}.png",
                              params={"answer": asked.json()["id"]})
    assert response.status_code == 200, response.text
    # the cited figure's cell is boxed where its box is known, else the quoted row
    assert response.headers["X-Evidence"] in ("figures", "quote") and highlight(response.content).sum() > 200
