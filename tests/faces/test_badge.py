"""One badge on every face: an answer's badge comes from its verification alone (app/badge.py), so
an answer whose quotes only mention the topic ("passages") is never shown as Verified by the CLI,
the REST API (and so the page), MCP or the Markdown export."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from docqa.app import asking
from docqa.app.badge import WORDS, badge
from docqa.app.conversation import Asked
from docqa.app.history import HistoryEntry, to_markdown
from docqa.app.questionlog import record_answer
from docqa.app.threads import THREAD_KEY, Understood
from docqa.config import Settings
from docqa.engine import Engine
from docqa.faces.cli import app as cli
from docqa.faces.mcp.replies import answer_out
from docqa.faces.web import api as web_api
from docqa.faces.web.app import create_app
from docqa.types import Answer, Citation
from tests.faces.web_helpers import small_pdf

QUESTION = "What was Apple's total revenue in 2023?"
# What the review saw: three quotes about deferred revenue, no figure of the revenue asked.
PASSAGES = Answer(
    id="0a1b2c3d4e5f", question=QUESTION, found=True, verification="passages", answerer="text",
    text="The filing mentions revenue: “the Company had total deferred revenue of $12.2 billion”",
    citations=(Citation(document="aapl-10-q-2023-07-01.html", document_id="abc", page=12,
                        quote="the Company had total deferred revenue of $12.2 billion"),),
)


@pytest.fixture
def engine(tmp_path):
    engine = Engine.open(Settings(index=tmp_path / "index", dense=False))
    yield engine
    engine.close()


def test_badge_words_come_from_verification_only():
    assert badge(PASSAGES).words == "Passages found — not an answer" and badge(PASSAGES).key == "passages"
    assert badge(PASSAGES.model_copy(update={"verification": "verified"})).words == "Verified"
    # a record that says verified but not found never reads as Verified
    assert badge(PASSAGES.model_copy(update={"verification": "verified", "found": False})).key == "not_found"
    assert badge(PASSAGES.model_copy(update={"verification": "verified"}), document_deleted=True).words == \
        "Document deleted"
    assert set(WORDS) == {"verified", "partial", "passages", "not_found", "deleted"}


def test_the_cli_shows_a_passages_answer_as_passages(engine, monkeypatch):
    monkeypatch.setattr(asking, "ask", lambda *a, **k: PASSAGES)
    index = str(engine.settings.index)
    plain = CliRunner().invoke(cli, ["ask", QUESTION, "--index", index])
    first = plain.stdout.splitlines()[0]
    assert first.startswith("Passages found — not an answer · ") and "Verified" not in plain.stdout
    as_json = CliRunner().invoke(cli, ["ask", QUESTION, "--json", "--index", index])
    body = json.loads(as_json.stdout)
    assert body["badge"] == "Passages found — not an answer" and body["verification"] == "passages"


def test_rest_and_its_history_show_a_passages_answer_as_passages(engine, monkeypatch, tmp_path):
    engine.ingest([small_pdf(tmp_path / "filing.pdf")])
    doc = engine.documents()[0]
    cited = Citation(document=doc.file_name, document_id=doc.id, page=1, quote="Total revenue")
    passages = PASSAGES.model_copy(update={"citations": (cited,)})

    def answered(engine_, question, scope, **kwargs):
        record = record_answer(engine_.store, passages, {THREAD_KEY: "00112233aabb", "origin": "web"})
        return Asked(answer=passages, understood=Understood(asked=question, question=question, label=question),
                     record=record)

    monkeypatch.setattr(web_api, "ask_in_thread", answered)
    with TestClient(create_app(engine=engine, worker=False), base_url="http://127.0.0.1:8000") as client:
        asked = client.post("/api/ask", json={"question": QUESTION}).json()
        assert (asked["badge"], asked["badge_key"]) == ("Passages found — not an answer", "passages")
        logged = client.get("/api/questions").json()["questions"][0]["answer"]
        assert logged["badge"] == "Passages found — not an answer"
        thread = client.get("/api/threads/00112233aabb").json()["questions"][0]["answer"]
        assert thread["badge_key"] == "passages"
        exported = client.get(f"/api/questions/{PASSAGES.id}/export").text
        assert "*Passages found — not an answer*" in exported and "Verified" not in exported


def test_mcp_and_the_markdown_export_show_a_passages_answer_as_passages():
    out = answer_out(PASSAGES)
    assert out.badge == "Passages found — not an answer" and out.verification == "passages"
    md = to_markdown([HistoryEntry(record=record_answer_free(PASSAGES))])
    assert "Passages found — not an answer" in md and "Verified" not in md


def record_answer_free(answer: Answer):
    from docqa.types import QuestionRecord

    return QuestionRecord(answer=answer, created_at="2026-01-01T00:00:00+00:00")


# --- the badge of real answers: a figure asked and not printed is never Verified --------------------

AMCOR_Q = ("In Amcor's fiscal 2023 fourth-quarter results release, what quarterly dividend will holders of CDIs on "
           "the ASX receive, in Australian cents per share?")


@pytest.fixture(scope="module")
def filings(tmp_path_factory):
    """Apple's Q3 fiscal 2023 10-Q and Amcor's fiscal 2023 fourth-quarter release, as filed."""
    from tests.filings import filing_html, filing_pdf

    index = tmp_path_factory.mktemp("apple-amcor")
    with Engine.open(Settings(index=index, dense=False)) as engine:
        report = engine.ingest([filing_html("aapl-10-q-2023-07-01.html"), filing_pdf("AMCOR_2023Q4_EARNINGS.pdf")])
        assert [f.status for f in report.files] == ["indexed", "indexed"], report
    return index


def _mcp_ask(index, question: str) -> dict:
    import anyio
    from mcp import Client

    from docqa.faces.mcp import build_server

    async def scenario(server):
        async with Client(server) as client:
            return await client.call_tool("ask", {"question": question})

    with Engine.open(Settings(index=index, dense=False)) as engine:
        result = anyio.run(scenario, build_server(engine))
    return json.loads(result.content[0].text)


def _faces(index, question: str) -> dict[str, dict]:
    """The question's answer as the CLI (--json), the REST API and MCP give it."""
    cli_out = CliRunner().invoke(cli, ["ask", question, "--json", "--index", str(index)])
    with TestClient(create_app(Settings(index=index, dense=False), worker=False),
                    base_url="http://127.0.0.1:8000") as client:
        rest = client.post("/api/ask", json={"question": question}).json()
    return {"cli": json.loads(cli_out.stdout), "rest": rest, "mcp": _mcp_ask(index, question)}


def test_a_years_revenue_asked_of_a_quarterly_report_is_not_found_on_any_face(filings):
    # the quarterly report prints quarters and nine months; the lines that name net sales beside an
    # amount are no figure of the fiscal year asked
    for face, answer in _faces(filings, QUESTION).items():
        assert answer["badge"] == "Not found" and answer["found"] is False, (face, answer["text"])
        assert "quarterly report" in answer["reason"] and "fiscal 2023 total is not printed" in answer["reason"], face


def test_a_dividend_a_sentence_states_is_a_figure_found_on_every_face(filings):
    for face, answer in _faces(filings, AMCOR_Q).items():
        assert answer["badge"] == "Verified" and "18.77 Australian cents per share" in answer["text"], (face, answer)
