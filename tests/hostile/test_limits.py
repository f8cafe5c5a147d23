"""One question length limit on every face; a time budget for drawing a page; the OpenAPI document
says what the code does (item 10, and .ci/schemathesis.sh runs Schemathesis over it)."""

from __future__ import annotations

import random
import time

import anyio
import fitz
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from docqa import Engine
from docqa.config import Settings
from docqa.faces.cli import app as cli
from docqa.faces.web.app import create_app
from tests.faces.web_helpers import small_pdf
from tests.hostile.conftest import LOCAL

LIMIT = 100
MESSAGE = "characters long; the limit is 100 (DOCQA_MAX_QUESTION_CHARS)"
LONG = "What was total revenue " + "and revenue " * 20  # 263 characters


@pytest.fixture(scope="module")
def small_index(tmp_path_factory):
    folder = tmp_path_factory.mktemp("limits")
    index = folder / "index"
    with Engine.open(index, dense=False) as engine:
        assert engine.ingest([small_pdf(folder / "report.pdf")]).indexed
    return index


def test_engine_question_limit(small_index):
    with Engine.open(small_index, dense=False, max_question_chars=LIMIT) as engine:
        with pytest.raises(ValueError, match=MESSAGE.replace("(", r"\(").replace(")", r"\)")):
            engine.ask(LONG)
        with pytest.raises(ValueError, match="the query is 263 characters"):
            engine.search(LONG)
        assert engine.ask("What was total revenue?", document="report.pdf").question


def test_rest_question_limit(small_index):
    app = create_app(Settings(index=small_index, dense=False, max_question_chars=LIMIT), worker=False)
    with TestClient(app, base_url=LOCAL) as c:
        r = c.post("/api/ask", json={"question": LONG})
        assert r.status_code == 400 and MESSAGE in r.json()["error"]["message"], r.text
        schema = c.get("/openapi.json").json()
        assert schema["components"]["schemas"]["AskIn"]["properties"]["question"]["maxLength"] == LIMIT


def test_cli_question_limit(small_index, monkeypatch):
    monkeypatch.setenv("DOCQA_MAX_QUESTION_CHARS", str(LIMIT))
    result = CliRunner().invoke(cli, ["ask", LONG, "--index", str(small_index)])
    assert result.exit_code == 2 and MESSAGE in " ".join(result.output.split()), result.output


def test_mcp_question_limit(small_index):
    from mcp import Client

    from docqa.faces.mcp import build_server

    async def scenario(server):
        async with Client(server) as client:
            return await client.call_tool("ask", {"question": "x" * 50 + LONG})

    with Engine.open(small_index, dense=False, max_question_chars=LIMIT) as engine:
        result = anyio.run(scenario, build_server(engine))
    assert result.is_error and MESSAGE in " ".join(getattr(c, "text", "") for c in result.content)


def test_the_default_limit_is_2000_everywhere():
    assert Settings().limits.max_question_chars == 2000


# --- rendering time budget --------------------------------------------------------------------------


def slow_page(path, strokes: int = 3000):
    """A page of many long strokes: slow to draw at any zoom (60,000 took 39 s at zoom 2)."""
    doc = fitz.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Heavy Corp revenue was $5 million.", fontsize=11)
    shape = page.new_shape()
    rng = random.Random(1)
    for _ in range(strokes):
        x, y = rng.uniform(0, 612), rng.uniform(0, 792)
        shape.draw_line((x, y), (x + rng.uniform(-300, 300), y + rng.uniform(-300, 300)))
    shape.finish(width=0.3, color=(0, 0, 0))
    shape.commit()
    doc.save(path, deflate=True)
    return path


def test_a_page_slow_to_draw_is_drawn_smaller_within_the_budget(tmp_path):
    from docqa.evidence import render_evidence

    pdf = slow_page(tmp_path / "heavy.pdf")
    started = time.monotonic()
    full = render_evidence(pdf, 1, ["revenue was"])
    full_s = time.monotonic() - started
    budget = full_s / 4
    started = time.monotonic()
    fast = render_evidence(pdf, 1, ["revenue was"], time_budget_s=budget)
    fast_s = time.monotonic() - started
    assert full.zoom == 2.0 and fast.zoom < 2.0 and fast.used == "quote"
    assert fast_s < max(2 * budget, budget + 0.2), (full_s, fast_s)
    assert fitz.Pixmap(fast.png).width < fitz.Pixmap(full.png).width


def test_an_ordinary_page_keeps_its_zoom_within_the_default_budget(small_index):
    with Engine.open(small_index, dense=False) as engine:
        assert engine.settings.limits.render_timeout_s == 10.0
        assert engine.evidence_image("report.pdf", 1, ["Total revenue"]).zoom == 2.0


# --- the OpenAPI document and the code agree ----------------------------------------------------------


@pytest.fixture(scope="module")
def api(small_index):
    with TestClient(create_app(Settings(index=small_index, dense=False), worker=False), base_url=LOCAL) as c:
        yield c


def test_feedback_helpful_is_a_strict_boolean(api):
    for helpful in (0, 1, "true", None):
        r = api.post("/api/feedback", json={"answer_id": "nope", "helpful": helpful})
        assert r.status_code == 422, (helpful, r.text)
    assert api.post("/api/feedback", json={"answer_id": "nope", "helpful": True}).status_code == 404


def test_doc_type_is_an_enum_in_the_schema_and_the_code(api):
    schema = api.get("/openapi.json").json()
    doc_type = schema["components"]["schemas"]["AskIn"]["properties"]["doc_type"]
    assert "$ref" in str(doc_type) or "enum" in str(doc_type), doc_type
    assert api.post("/api/ask", json={"question": "revenue", "doc_type": ""}).status_code == 422
    assert api.post("/api/ask", json={"question": "total revenue", "doc_type": "10k"}).status_code == 200


def test_a_question_with_no_letter_or_digit_is_refused_by_the_schema(api):
    for question in ("\u0002", "\u200b", "???", "   "):
        assert api.post("/api/ask", json={"question": question}).status_code == 422, repr(question)


def test_delete_all_needs_all_true_as_documented(api):
    schema = api.get("/openapi.json").json()
    (param,) = schema["paths"]["/api/documents"]["delete"]["parameters"]
    assert param["required"] is True and param["schema"]["enum"] == [True]
    assert api.delete("/api/documents?all=false").status_code == 400
    assert api.delete("/api/documents").json()["error"]["code"] == "confirm_delete_all"


def test_a_405_lists_every_method_of_the_path(api):
    r = api.options("/api/documents/abc")
    assert r.status_code == 405 and r.headers["allow"] == "GET, DELETE"
    assert api.request("PUT", "/api/documents").headers["allow"] == "GET, POST, DELETE"


def test_bearer_auth_is_in_the_schema_only_with_a_token(small_index):
    with TestClient(create_app(Settings(index=small_index, dense=False), worker=False), base_url=LOCAL) as c:
        open_schema = c.get("/openapi.json").json()
    assert "securitySchemes" not in open_schema.get("components", {})
    assert not any("security" in op for ops in open_schema["paths"].values() for op in ops.values())
    settings = Settings(index=small_index, dense=False, api_token="s3cret")
    with TestClient(create_app(settings, worker=False), base_url=LOCAL) as c:
        schema = c.get("/openapi.json").json()
        assert "HTTPBearer" in schema["components"]["securitySchemes"]
        assert schema["paths"]["/api/ask"]["post"]["security"]
        # the scheme's case and spaces around the token do not matter (docs/web.md)
        assert c.get("/api/health", headers={"Authorization": "bearer   s3cret  "}).status_code == 200
