"""MCP arguments have the limits REST has: `ask.context` is a question and `document_stats.term` a
search query (DOCQA_MAX_QUESTION_CHARS), a document name is at most limits.MAX_NAME_CHARS; and no
error or result sends a long argument back whole."""

from __future__ import annotations

import json

import anyio
import pytest

from docqa import Engine
from tests.faces.web_helpers import small_pdf

LIMIT = 100
HUGE = 1_000_000  # a megabyte of argument


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mcp-limits")
    with Engine.open(folder / "index", dense=False) as engine:
        assert engine.ingest([small_pdf(folder / "report.pdf")]).indexed
    return folder / "index"


def call(index, tool: str, arguments: dict, **settings):
    from mcp import Client

    from docqa.faces.mcp import build_server

    async def scenario(server):
        async with Client(server) as client:
            return await client.call_tool(tool, arguments)

    with Engine.open(index, dense=False, quote_by_meaning=False, **settings) as engine:
        return anyio.run(scenario, build_server(engine))


def text_of(result) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


def test_a_megabyte_of_context_is_refused_as_a_question_would_be(index):
    result = call(index, "ask", {"question": "and in 2020?", "context": "What was total revenue " * (HUGE // 23)},
                  max_question_chars=LIMIT)
    message = text_of(result)
    assert result.is_error and "the context is" in message and "DOCQA_MAX_QUESTION_CHARS" in message, message[:300]
    assert len(message) < 1000


def test_a_megabyte_term_is_refused_and_not_sent_back(index):
    term = "revenue " * (HUGE // 8)
    result = call(index, "document_stats", {"document": "report.pdf", "term": term}, max_question_chars=LIMIT)
    message = text_of(result)
    assert result.is_error and "the term is" in message and "DOCQA_MAX_QUESTION_CHARS" in message, message[:300]
    assert len(message) < 1000


def test_a_term_within_the_limit_is_counted_and_sent_back_short(index):
    term = "revenue " + "x" * 1500  # within the default limit of 2,000
    result = call(index, "document_stats", {"document": "report.pdf", "term": term})
    assert not result.is_error, text_of(result)[:300]
    out = json.loads(text_of(result))
    assert out["count"] == 0 and len(out["term"]) < 300
    ordinary = json.loads(text_of(call(index, "document_stats", {"document": "report.pdf", "term": "revenue"})))
    assert ordinary["term"] == "revenue" and ordinary["count"] >= 1


def test_a_megabyte_document_name_is_refused_without_being_echoed(index):
    result = call(index, "read_page", {"document": "r" * HUGE, "page": 1})
    message = text_of(result)
    assert result.is_error and len(message) < 1000, message[:300]
    result = call(index, "read_page", {"document": "q" * 300, "page": 1})  # unknown, within the limit
    message = text_of(result)
    assert result.is_error and "Unknown document" in message and "q" * 100 not in message, message[:300]


@pytest.mark.parametrize("token", [None, "s3cret"])
def test_mcp_over_http_refuses_a_body_over_the_json_limit_before_reading_it(tmp_path, token):
    from starlette.testclient import TestClient

    from docqa import Engine
    from docqa.config import Settings
    from docqa.faces.mcp import build_server, http_app

    engine = Engine.open(tmp_path / "mcp-index", dense=False)
    try:
        app = http_app(build_server(engine), token=token, host="127.0.0.1", allowed_hosts="",
                       settings=Settings(index=tmp_path / "mcp-index", max_json_kb=16))
        c = TestClient(app, base_url="http://127.0.0.1:8765")
        big = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "ask", "arguments": {"question": "x" * 40_000}}}
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = c.post("/mcp", json=big, headers=headers)
        assert r.status_code == 413, r.text
        assert "DOCQA_MAX_JSON_KB" in r.text and "x" * 100 not in r.text  # says the limit, echoes nothing
    finally:
        engine.close()
