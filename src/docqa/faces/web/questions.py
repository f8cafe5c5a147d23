"""The question history under /api: feedback, asked questions, threads, their export.

Whose: with several tokens (DOCQA_API_TOKENS) each request reads and changes only the questions
asked with its own token (threads.visible); another token's answer or thread is "not found", as one
that never was. With one token or none the history is one user's, the CLI's and MCP's included.
"""

from __future__ import annotations

import json
from typing import Literal

from fastapi import APIRouter, Query, Request, Security
from fastapi.responses import Response
from fastapi.security import HTTPBearer
from pydantic import BaseModel, Field, StrictBool

from docqa.app import history
from docqa.engine import Engine
from docqa.faces.web.api import ERRORS, SERVER_ERRORS, AnswerOut, ApiError, Deleted, _answer_out, _engine
from docqa.app.history import HistoryEntry
from docqa.limits import shown
from docqa.app.questionlog import EXPORT_LIMIT
from docqa.app.threads import OWNER_KEY, THREAD_KEY, current_owner, visible


class FeedbackIn(BaseModel):
    answer_id: str = Field(..., min_length=1, max_length=64)
    helpful: StrictBool = Field(..., description="true or false (not 0, 1 or a string)")
    note: str | None = Field(None, max_length=2000)


class FeedbackOut(BaseModel):
    answer_id: str
    helpful: bool
    note: str | None = None


class QuestionOut(BaseModel):
    id: str
    question: str
    created_at: str
    filters: dict[str, str | int | None] = Field(default_factory=dict)
    helpful: bool | None = None
    note: str | None = None
    origin: str = Field("cli", description="where it was asked: web, cli or mcp")
    thread_id: str | None = None
    document_deleted: bool = Field(False, description="a cited document was deleted since: no longer verified")
    deleted_documents: list[str] = Field(default_factory=list)
    answer: AnswerOut


class QuestionList(BaseModel):
    questions: list[QuestionOut]


class ThreadOut(BaseModel):
    thread_id: str
    questions: list[QuestionOut] = Field(description="oldest first")


class Cleared(BaseModel):
    deleted: int


def _question_out(entry: HistoryEntry, engine: Engine) -> QuestionOut:
    record = entry.record
    filters = {k: v for k, v in record.filters.items() if k != OWNER_KEY}  # whose it is is not shown
    return QuestionOut(
        id=record.answer.id or "", question=record.answer.question, created_at=record.created_at,
        filters=filters, helpful=record.helpful, note=record.note, origin=entry.origin,
        thread_id=record.filters.get(THREAD_KEY), document_deleted=entry.document_deleted,  # type: ignore[arg-type]
        deleted_documents=list(entry.deleted_documents),
        answer=_answer_out(record.answer, engine, record.filters, entry.document_deleted),
    )


def _no_answer(answer_id: str) -> ApiError:
    return ApiError(404, "answer_not_found", f"no answer with id {shown(answer_id)}")


def _own_entry(engine: Engine, answer_id: str) -> HistoryEntry:
    """The logged answer, when the caller may see it; 404 otherwise (another token's is not found)."""
    entry = history.entry(engine, answer_id)
    if entry is None or not visible(entry.record):
        raise _no_answer(answer_id)
    return entry


def _own_history(engine: Engine, q: str | None, limit: int, origin: str | None) -> list[HistoryEntry]:
    if current_owner() is None:
        return history.search(engine, q, limit, origin)
    return [e for e in history.search(engine, q, history.SEARCH_DEPTH, origin) if visible(e.record)][:limit]


def _own_thread(engine: Engine, thread_id: str) -> list[HistoryEntry]:
    entries = history.thread(engine, thread_id)  # threads.thread_records keeps the caller's own only
    if not entries:
        raise ApiError(404, "thread_not_found", f"no conversation with id {shown(thread_id)}")
    return entries


# The token itself is checked by the middleware (guard.py) for every /api path; this only documents it.
router = APIRouter(prefix="/api", dependencies=[Security(HTTPBearer(auto_error=False))], responses=ERRORS)


@router.post("/feedback", response_model=FeedbackOut, summary="Say whether an answer helped",
             responses=SERVER_ERRORS)
def feedback(request: Request, body: FeedbackIn) -> FeedbackOut:
    engine = _engine(request)
    note = (body.note or "").strip() or None
    if current_owner() is not None:
        _own_entry(engine, body.answer_id)
    if not engine.feedback(body.answer_id, body.helpful, note):
        raise _no_answer(body.answer_id)
    return FeedbackOut(answer_id=body.answer_id, helpful=body.helpful, note=note)


@router.get("/questions", response_model=QuestionList, summary="Questions asked, newest first; searchable")
def questions(request: Request, limit: int = Query(50, ge=1, le=1000),
              q: str | None = Query(None, max_length=200, description="words that must all occur in the question, "
                                                                      "the answer or a cited file name"),
              origin: Literal["web", "cli", "mcp"] | None = Query(None, description="only questions asked there"),
              ) -> QuestionList:
    engine = _engine(request)
    return QuestionList(questions=[_question_out(e, engine) for e in _own_history(engine, q, limit, origin)])


# `all` is declared by hand as for DELETE /api/documents: required and true.
@router.delete("/questions", response_model=Cleared, summary="Clear the whole history (needs ?all=true)",
               openapi_extra={"parameters": [{
                   "name": "all", "in": "query", "required": True, "schema": {"type": "boolean", "enum": [True]},
                   "description": "must be true: deletes every logged question (with several tokens: the "
                                  "caller's own)"}]})
def clear_questions(request: Request, all: bool = Query(False, include_in_schema=False)) -> Cleared:
    if not all:
        raise ApiError(400, "confirm_clear_history", "this deletes the whole history; add ?all=true to confirm")
    engine = _engine(request)
    if current_owner() is None:
        return Cleared(deleted=history.clear(engine))
    own = [r.answer.id for r in engine.store.questions(EXPORT_LIMIT) if visible(r) and r.answer.id]
    return Cleared(deleted=engine.store.delete_questions(own) if own else 0)


@router.get("/questions/{answer_id}", response_model=QuestionOut, summary="One asked question and its answer")
def question(request: Request, answer_id: str) -> QuestionOut:
    engine = _engine(request)
    return _question_out(_own_entry(engine, answer_id), engine)


@router.delete("/questions/{answer_id}", response_model=Deleted, summary="Delete one question from the history")
def delete_question(request: Request, answer_id: str) -> Deleted:
    engine = _engine(request)
    if current_owner() is not None:
        _own_entry(engine, answer_id)
    if not history.delete(engine, answer_id):
        raise _no_answer(answer_id)
    return Deleted(deleted=[answer_id])


@router.get("/threads/{thread_id}", response_model=ThreadOut, summary="A conversation: its questions, oldest first")
def thread(request: Request, thread_id: str) -> ThreadOut:
    engine = _engine(request)
    return ThreadOut(thread_id=thread_id, questions=[_question_out(e, engine) for e in _own_thread(engine, thread_id)])


EXPORT_RESPONSES = {200: {"content": {"text/markdown": {}, "application/json": {}},
                          "description": "the answer(s) with their citations"}}


def _export(engine: Engine, entries: list[HistoryEntry], fmt: str, title: str, stem: str) -> Response:
    if fmt == "json":
        body = json.dumps({"title": title, "questions": [_question_out(e, engine).model_dump(mode="json")
                                                         for e in entries]}, ensure_ascii=False)
        media, suffix = "application/json", "json"
    else:
        names = {d.id: d.file_name for d in engine.documents()}
        body = history.to_markdown(entries, label=lambda d, p: _label_or_none(engine, d, p), title=title, names=names)
        media, suffix = "text/markdown; charset=utf-8", "md"
    return Response(body, media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{stem}.{suffix}"'})


def _label_or_none(engine: Engine, doc_id: str, page: int) -> str | None:
    try:
        return engine.page_label(doc_id, page)
    except Exception:  # the document was deleted since, or its kept copy is gone: no printed number to show
        return None


@router.get("/questions/{answer_id}/export", summary="One answer as Markdown or JSON, with its citations",
            response_class=Response, responses=EXPORT_RESPONSES)
def export_question(request: Request, answer_id: str,
                    format: Literal["markdown", "json"] = Query("markdown")) -> Response:
    engine = _engine(request)
    entry = _own_entry(engine, answer_id)
    return _export(engine, [entry], format, entry.record.answer.question, f"docqa-answer-{entry.record.answer.id}")


@router.get("/threads/{thread_id}/export", summary="A conversation as Markdown or JSON, with its citations",
            response_class=Response, responses=EXPORT_RESPONSES)
def export_thread(request: Request, thread_id: str, format: Literal["markdown", "json"] = Query("markdown")) -> Response:
    engine = _engine(request)
    entries = _own_thread(engine, thread_id)
    return _export(engine, entries, format, f"Conversation: {entries[0].record.answer.question}",
                   f"docqa-thread-{entries[0].record.filters.get(THREAD_KEY)}")
