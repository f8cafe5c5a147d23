"""Conversations under /api: the list (searchable, paged), one conversation with its questions and
evidence, renaming and deleting. Built on the question log (app/conversations.py): what is listed
here is what /api/questions holds, grouped by thread."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Request, Security
from fastapi.security import HTTPBearer
from pydantic import BaseModel, Field

from docqa.app import conversations
from docqa.app.badge import BadgeKey, badge
from docqa.app.conversations import MAX_TITLE_CHARS, Conversation
from docqa.engine import Engine
from docqa.faces.web.api import ERRORS, SERVER_ERRORS, ApiError, _engine
from docqa.faces.web.questions import QuestionOut, _question_out
from docqa.limits import shown


class ConversationSummary(BaseModel):
    id: str = Field(description="the thread id (send it as 'thread' to ask a follow-up); for a question asked "
                                "outside a thread, its answer id")
    thread_id: str | None = Field(None, description="null: one question asked outside a thread (CLI, MCP)")
    title: str = Field(description="the name given it, else its first question")
    named: bool = Field(False, description="whether it was given a name")
    first_question: str
    questions: int = Field(description="how many questions it holds")
    created_at: str = Field(description="when its first question was asked")
    updated_at: str = Field(description="when its last question was asked")
    origin: str = Field("cli", description="where its first question was asked: web, cli or mcp")
    last_question: str = Field(description="its newest question, as typed")
    last_answer_id: str
    badge: str = Field(description="the newest answer's badge, as every face shows it")
    badge_key: BadgeKey
    document_deleted: bool = Field(False, description="a document one of its answers cites was deleted since")


class ConversationList(BaseModel):
    conversations: list[ConversationSummary]
    total: int = Field(description="conversations that match, on every page")
    offset: int
    limit: int


class ConversationOut(ConversationSummary):
    turns: list[QuestionOut] = Field(description="its questions with their answers and cited pages, oldest first")


class RenameIn(BaseModel):
    title: str | None = Field(None, max_length=MAX_TITLE_CHARS * 2,
                              description=f"its new name, at most {MAX_TITLE_CHARS} characters once spaces are "
                                          "folded; empty or null: named by its first question again")


class ConversationDeleted(BaseModel):
    deleted: int = Field(description="questions removed")


def _summary(c: Conversation) -> dict:
    last = c.last
    shown_badge = badge(last.record.answer, last.document_deleted)
    return dict(
        id=c.id, thread_id=c.thread_id, title=c.title, named=c.name is not None,
        first_question=c.first.record.answer.question, questions=len(c.entries), created_at=c.first.record.created_at,
        updated_at=last.record.created_at, origin=c.first.origin,
        last_question=str(last.record.filters.get("asked") or last.record.answer.question),
        last_answer_id=last.record.answer.id or "", badge=shown_badge.words, badge_key=shown_badge.key,
        document_deleted=any(e.document_deleted for e in c.entries),
    )


def _full(c: Conversation, engine: Engine) -> ConversationOut:
    return ConversationOut(**_summary(c), turns=[_question_out(e, engine) for e in c.entries])


def _not_found(conversation_id: str) -> ApiError:
    return ApiError(404, "conversation_not_found", f"no conversation with id {shown(conversation_id)}")


router = APIRouter(prefix="/api", dependencies=[Security(HTTPBearer(auto_error=False))], responses=ERRORS)


@router.get("/conversations", response_model=ConversationList,
            summary="Conversations, newest activity first: named, counted, searchable, paged")
def list_conversations(request: Request, offset: int = Query(0, ge=0), limit: int = Query(20, ge=1, le=100),
                       q: str | None = Query(None, max_length=200, description="words that must all occur in one "
                                             "of its questions, answers or cited file names, or in its name"),
                       origin: Literal["web", "cli", "mcp"] | None = Query(None, description="only those begun "
                                                                                             "there"),
                       ) -> ConversationList:
    page = conversations.listing(_engine(request), q, offset, limit, origin)
    return ConversationList(conversations=[ConversationSummary(**_summary(c)) for c in page.conversations],
                            total=page.total, offset=page.offset, limit=page.limit)


@router.get("/conversations/{conversation_id}", response_model=ConversationOut,
            summary="One conversation: its questions with their answers and cited pages, oldest first")
def get_conversation(request: Request, conversation_id: str) -> ConversationOut:
    engine = _engine(request)
    found = conversations.conversation(engine, conversation_id)
    if found is None:
        raise _not_found(conversation_id)
    return _full(found, engine)


@router.patch("/conversations/{conversation_id}", response_model=ConversationSummary, responses=SERVER_ERRORS,
              summary="Rename a conversation (an empty name: named by its first question again)")
def rename_conversation(request: Request, conversation_id: str, body: RenameIn) -> ConversationSummary:
    try:
        renamed = conversations.rename(_engine(request), conversation_id, body.title)
    except ValueError as exc:
        raise ApiError(400, "bad_request", str(exc)) from exc
    if renamed is None:
        raise _not_found(conversation_id)
    return ConversationSummary(**_summary(renamed))


@router.delete("/conversations/{conversation_id}", response_model=ConversationDeleted,
               summary="Delete a conversation: every question of it")
def delete_conversation(request: Request, conversation_id: str) -> ConversationDeleted:
    removed = conversations.delete(_engine(request), conversation_id)
    if not removed:
        raise _not_found(conversation_id)
    return ConversationDeleted(deleted=removed)
