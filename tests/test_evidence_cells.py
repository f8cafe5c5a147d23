"""Every face boxes a figure's cell, not its row: the CLI's ``ask --evidence`` and ``show --figure``,
MCP's ``show_evidence`` and the web page image draw the cell of the figure read (its stored word
box), one function for all of them (app/pageview.py), over Apple's Q3 fiscal 2023 10-Q."""

from __future__ import annotations

import base64
import json

import anyio
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from docqa.app import pageview
from docqa.config import Settings
from docqa.engine import Engine
from docqa.evidence import HIGHLIGHT_PADDING, HIGHLIGHT_WIDTH
from docqa.faces.cli import app as cli
from tests.filings import filing_html
from tests.test_evidence_html import extent, highlight

FILING = "aapl-10-q-2023-07-01.html"
QUESTION = "What was Apple's total net sales in the third quarter of fiscal 2023?"
ROW = "Total net sales  81,797  82,959  293,787  304,182"
LOCAL = "http://127.0.0.1:8000"
# around the text's box: the outline's padding, half its stroke, and a pixel's rounding at zoom 2
PAD = HIGHLIGHT_PADDING + HIGHLIGHT_WIDTH / 2 + 0.5


@pytest.fixture(scope="module")
def apple(tmp_path_factory):
    index = tmp_path_factory.mktemp("apple-q3")
    with Engine.open(index, dense=False) as engine:
        outcome = engine.ingest([filing_html(FILING)]).files[0]
        assert outcome.status == "indexed", outcome.reason
        answer = engine.ask(QUESTION)
        assert answer.found and answer.verification == "verified", answer.text
        figure = answer.figures[0]
        assert figure.text == "81,797" and figure.bbox is not None
        words = pageview.page_words(engine, figure.document, figure.page)  # the words the page image draws
        row = next(line for line in words.lines if [t for t, _ in line[:3]] == ["Total", "net", "sales"])
    # the label's extent: "Total" to "sales"
    return {"index": index, "figure": figure, "label": (*row[0][1][:2], *row[2][1][2:])}


def covers_the_cell_only(box, apple) -> None:
    """The drawn box holds the figure's word box and stops short of the row's label."""
    fx0, fy0, fx1, fy1 = apple["figure"].bbox
    x0, y0, x1, y1 = box
    assert x0 <= fx0 and y0 <= fy0 and fx1 <= x1 and fy1 <= y1, (box, apple["figure"].bbox)
    assert x1 - x0 <= fx1 - fx0 + 2 * PAD and x0 > apple["label"][2], (box, apple["label"])


def test_the_cli_ask_evidence_boxes_the_cell(apple, tmp_path):
    out = tmp_path / "evidence.png"
    result = CliRunner().invoke(cli, ["ask", QUESTION, "--evidence", str(out), "--json", "--index", str(apple["index"])])
    assert result.exit_code == 0, result.output
    drawn = json.loads(result.stdout)["evidence"]
    assert drawn["boxed"] == "figures" and len(drawn["boxes"]) == 1
    covers_the_cell_only(drawn["boxes"][0], apple)
    covers_the_cell_only(extent(out.read_bytes()), apple)  # as drawn in the PNG
    plain = CliRunner().invoke(cli, ["ask", QUESTION, "--evidence", str(out), "--index", str(apple["index"])])
    assert f"evidence: wrote {out}" in plain.stdout and "boxed: figures, 1 box(es)" in plain.stdout


def test_the_cli_show_boxes_the_figure_given_on_the_quoted_row(apple, tmp_path):
    figure, out = apple["figure"], tmp_path / "page.png"
    args = ["show", figure.document, str(figure.page), "--quote", ROW, "--out", str(out), "--json",
            "--index", str(apple["index"])]
    cell = json.loads(CliRunner().invoke(cli, [*args, "--figure", "81,797"]).stdout)
    assert cell["boxed"] == "figures" and len(cell["boxes"]) == 1
    covers_the_cell_only(cell["boxes"][0], apple)
    covers_the_cell_only(extent(out.read_bytes()), apple)
    # a quote of the row's label alone names the row
    label = json.loads(CliRunner().invoke(cli, ["show", figure.document, str(figure.page), "--quote", "Total net sales",
                                                "--figure", "81,797", "--out", str(out), "--json",
                                                "--index", str(apple["index"])]).stdout)
    assert label["boxed"] == "figures" and len(label["boxes"]) == 1
    covers_the_cell_only(label["boxes"][0], apple)
    # without a figure, or with one the row does not print, the row is boxed as before
    for extra in ([], ["--figure", "99,999"]):
        row = json.loads(CliRunner().invoke(cli, [*args, *extra]).stdout)
        assert row["boxed"] == "quote" and row["boxes"][0][0] <= apple["label"][0] < apple["label"][2] <= row["boxes"][0][2]


def test_mcp_show_evidence_boxes_the_figure_given_on_the_quoted_row(apple):
    from mcp import Client

    from docqa.faces.mcp import build_server

    figure = apple["figure"]
    # cropped to the boxed row at the page's full width, not scaled: x in the image is x on the page
    arguments = {"document": figure.document, "page": figure.page, "quote": ROW, "figure": "81,797", "width": 2000}

    async def scenario(server):
        async with Client(server) as client:
            return await client.call_tool("show_evidence", arguments)

    with Engine.open(apple["index"], dense=False) as engine:
        result = anyio.run(scenario, build_server(engine))
    image, caption = result.content
    assert "boxed: the cell printing 81,797 (1 box)" in caption.text and "cropped" in caption.text
    png = base64.b64decode(image.data)
    assert image.mime_type == "image/png" and highlight(png).sum() > 50
    x0, _, x1, _ = extent(png)
    fx0, fy0, fx1, fy1 = figure.bbox
    covers_the_cell_only((x0, fy0 - PAD, x1, fy1 + PAD), apple)


def test_the_web_page_image_boxes_the_cell(apple):
    from docqa.faces.web.app import create_app

    figure = apple["figure"]
    app = create_app(Settings(index=apple["index"], dense=False), worker=False)
    with TestClient(app, base_url=LOCAL) as client:
        asked = client.post("/api/ask", json={"question": QUESTION}).json()
        cited = asked["citations"][0]
        response = client.get(f"/api/documents/{cited['document_id']}/pages/{figure.page}.png",
                              params={"answer": asked["id"]})
    assert response.status_code == 200 and response.headers["X-Evidence"] == "figures"
    covers_the_cell_only(extent(response.content), apple)
