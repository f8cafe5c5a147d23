"""Suggested questions are ones the filings answer: each candidate is asked, and only a found, Verified
answer that states a figure of the period asked is suggested; checked once per set of documents."""

from __future__ import annotations

import threading

from fastapi.testclient import TestClient

from docqa.app.examples import answers_it, candidates, suggested
from docqa.types import Answer, Citation, DocType, Document, DocumentMeta, Figure

APPLE_Q3 = Document(id="a" * 16, file_name="aapl-10-q-2023-07-01.html", path="x", sha256="1" * 64, pages=25,
                    meta=DocumentMeta(company="Apple Inc.", aliases=("Apple",), doc_type=DocType.QUARTERLY,
                                      fiscal_year=2023, fiscal_quarter=3))
NETFLIX = Document(id="b" * 16, file_name="NETFLIX_2017_10K.pdf", path="y", sha256="2" * 64, pages=73,
                   meta=DocumentMeta(company="Netflix, Inc.", aliases=("Netflix",), doc_type=DocType.ANNUAL,
                                     fiscal_year=2017))
QUOTE = Citation(document="f", document_id="a" * 16, page=3, quote="q")


def figure(period: str | None) -> Figure:
    return Figure(name="Revenue", value=1.0, text="1", period=period, document="f", page=3)


class FakeEngine:
    """Answers as the review saw: a revenue question of the 10-Q drew deferred revenue (no period)
    unless asked for the quarter; passages for net income; not found for capital expenditures."""

    def __init__(self, documents):
        self._documents = documents
        self.asked: list[str] = []
        self.lock = threading.Lock()

    def documents(self):
        return list(self._documents)

    def ask(self, question: str) -> Answer:
        with self.lock:
            self.asked.append(question)
        base = dict(question=question, text="…", citations=(QUOTE,))
        if "net income" in question:
            return Answer(found=True, verification="passages", **base)
        if "capital expenditures" in question:
            return Answer(found=False, verification="not_found", **base)
        if "revenue" in question:
            period = "2023 Q3" if "Q3 2023" in question else ("2017" if "Netflix" in question else None)
            return Answer(found=True, verification="verified", figures=(figure(period),), **base)
        if "operating income" in question:
            return Answer(found=True, verification="partial", figures=(figure("2017"),), **base)
        return Answer(found=True, verification="verified", **base)  # pages, word counts: exact


def test_a_10q_is_asked_for_its_quarter():
    asked = [c.question for c in candidates([APPLE_Q3])]
    assert asked[0] == "What was Apple's total revenue in Q3 2023?"
    assert all("in 2023?" not in q for q in asked)


def test_an_answer_without_the_period_asked_is_no_suggestion():
    [revenue, *_] = candidates([APPLE_Q3])
    deferred = Answer(question=revenue.question, text="total deferred revenue of $12.2 billion", found=True,
                      verification="verified", figures=(figure(None),), citations=(QUOTE,))
    assert not answers_it(revenue, deferred)
    assert answers_it(revenue, deferred.model_copy(update={"figures": (figure("2023 Q3"),)}))
    assert not answers_it(revenue, deferred.model_copy(update={"verification": "passages",
                                                               "figures": (figure("2023 Q3"),)}))


def test_only_found_and_verified_questions_are_suggested_and_checked_once():
    engine = FakeEngine([APPLE_Q3, NETFLIX])
    first = suggested(engine, limit=6, wait_s=30)
    assert first.pending is False
    assert first.questions[:2] == ["What was Apple's total revenue in Q3 2023?",
                                   "What was Netflix's total revenue in 2017?"]
    assert not any("net income" in q or "capital expenditures" in q or "operating income" in q
                   for q in first.questions)
    assert len(first.questions) == 6  # the counts fill the rest
    asked = len(engine.asked)
    again = suggested(engine, limit=6, wait_s=30)
    assert again == first and len(engine.asked) == asked  # the same documents: nothing asked again
    engine._documents = [NETFLIX]
    assert suggested(engine, limit=6, wait_s=30).questions[0] == "What was Netflix's total revenue in 2017?"
    assert len(engine.asked) > asked  # another set of documents is checked afresh


def test_the_api_says_when_more_are_coming(tmp_path):
    from docqa.config import Settings
    from docqa.engine import Engine
    from docqa.faces.web.app import create_app

    engine = Engine.open(Settings(index=tmp_path / "index", dense=False))
    gate = threading.Event()
    real_ask = engine.ask
    engine.ask = lambda q, **k: (gate.wait(30), real_ask(q, **k))[1]  # held until the first reply is read
    from tests.faces.web_helpers import small_pdf

    engine.ingest([small_pdf(tmp_path / "filing.pdf")])
    with TestClient(create_app(engine=engine, worker=False), base_url="http://127.0.0.1:8000") as client:
        body = client.get("/api/examples").json()
        assert body == {"examples": [], "pending": True}
        gate.set()
        for _ in range(300):
            body = client.get("/api/examples").json()
            if not body["pending"]:
                break
            threading.Event().wait(0.1)
        assert body["pending"] is False
        assert "How many pages does filing.pdf have?" in body["examples"]
    engine.close()
