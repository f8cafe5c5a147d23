"""Asking, as every face asks: a question answered by the engine and, when the face keeps a log,
logged with the filters it was asked with and the face it came from. One place decides what a
logged question records; the faces only say whether they log."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docqa.answer.wording import how_answered
from docqa.app.examples import Suggestions, suggested
from docqa.app.questionlog import record_answer
from docqa.app.threads import ORIGIN_KEY
from docqa.types import Answer, DocType, QuestionRecord

if TYPE_CHECKING:
    from docqa.engine import Engine

__all__ = ["ask", "examples", "how_answered", "log_answer"]


def ask(engine: "Engine", question: str, *, origin: str, log: bool, document: str | None = None,
        company: str | None = None, year: int | None = None, doc_type: str | DocType | None = None) -> Answer:
    answer = engine.ask(question, document=document, company=company, year=year, doc_type=doc_type)
    if log:
        log_answer(engine, answer, {"document": document, "company": company, "year": year,
                                    "doc_type": getattr(doc_type, "value", doc_type)}, origin)
    return answer


def log_answer(engine: "Engine", answer: Answer, filters: dict | None = None, origin: str = "cli") -> QuestionRecord:
    """Keep a face's answer in the question log (history, ``export-log``) with the filters it was
    asked with and the face it came from (cli, mcp, web)."""
    return record_answer(engine.store, answer, {**{k: v for k, v in (filters or {}).items() if v}, ORIGIN_KEY: origin})


def examples(engine: "Engine", limit: int = 6, wait_s: float | None = None) -> Suggestions:
    """Questions the indexed filings answer, found and Verified, checked by asking them (examples.py)."""
    return suggested(engine, limit, wait_s)
