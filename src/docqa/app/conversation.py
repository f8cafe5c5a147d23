"""Asking within a conversation: the use case every face calls (web ``POST /api/ask`` with a thread,
MCP ``ask`` with a context). The follow-up is made whole (threads.py), answered and verified on its
own by ``Engine.ask``, checked against its scope, and logged with its thread, its words as typed,
the question as understood and where it came from.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docqa.app.questionlog import record_answer
from docqa.app.threads import (
    ASKED_KEY,
    INHERITED_KEY,
    ORIGIN_KEY,
    THREAD_ID,
    THREAD_KEY,
    UNDERSTOOD_KEY,
    Scope,
    Understood,
    new_thread_id,
    subject_of,
    thread_records,
    understand,
)
from docqa.types import Answer, QuestionRecord

if TYPE_CHECKING:
    from docqa.engine import Engine
    from docqa.progress import StageReporter

NOT_FOUND = "Not found in the documents."  # the one wording (answer/wording.py says it the same way)
RECENT = 50
THREAD_LOOKBACK = 5000  # log records searched for a thread's last question (newest first)


@dataclass(frozen=True)
class Asked:
    answer: Answer
    understood: Understood
    record: QuestionRecord | None   # None when not logged


class UnknownThread(KeyError):
    def __init__(self, thread_id: str):
        self.thread_id = thread_id
        super().__init__(thread_id)

    def __str__(self) -> str:
        return f"no conversation with id {self.thread_id!r}; leave the thread out to start a new one"


def last_in_thread(engine: "Engine", thread_id: str) -> QuestionRecord | None:
    # A follow-up usually comes right after its question: the newest few records first, then further back.
    for depth in (RECENT, THREAD_LOOKBACK):
        records = thread_records(engine.store.questions(depth), thread_id)
        if records:
            return records[-1]
    return None


def scope_note(engine: "Engine", question: str, scope: Scope) -> str | None:
    """When the scope leaves out every company the question names, say so (else None)."""
    if scope.is_empty():
        return None
    documents = engine.documents()
    named = subject_of(question, documents).companies
    if not named:
        return None
    from docqa.plan.companies import canonical_companies

    canonical = canonical_companies(documents)
    in_scope = [d for d in documents if (not scope.documents or d.id in scope.documents)]
    if scope.company:
        from docqa.plan.companies import company_names, normalize_name

        in_scope = [d for d in in_scope if normalize_name(scope.company) in company_names(d)]
    held = {canonical.get(d.id) for d in in_scope}
    missing = [c for c in named if c not in held]
    if len(missing) < len(named):  # the scope holds a company it names ("Netflix's rivalry with Amazon")
        return None
    where = ", ".join(d.file_name for d in documents if d.id in scope.documents) or f"company {scope.company}"
    return (f"the search was limited to {where}, which does not cover {' or '.join(missing)}; "
            "ask across all documents or add that company's filing to the scope")


def ask_in_thread(engine: "Engine", question: str, scope: Scope | None = None, thread: str | None = None,
                  context: str | None = None, origin: str = "web", log: bool = True,
                  progress: "StageReporter | None" = None) -> Asked:
    from docqa.question import check_length, clean_question

    if not isinstance(question, str) or not clean_question(question):
        raise ValueError("question must be a non-empty string")
    check_length(question, engine.settings.limits.max_question_chars)  # the words as typed, before a thread adds any
    scope = scope or Scope()
    if scope.documents:  # names or ids in, ids kept: the log and the scope check speak ids
        scope = Scope(documents=tuple(dict.fromkeys(engine.document(d).id for d in scope.documents)),
                      company=scope.company, year=scope.year, doc_type=scope.doc_type)
    previous: QuestionRecord | None = None
    if thread:
        if not THREAD_ID.match(thread):
            raise ValueError(f"thread must be the 12-character id an earlier answer gave, not {thread!r}")
        previous = last_in_thread(engine, thread)
        if previous is None:
            raise UnknownThread(thread)
    elif context and context.strip():  # a caller that keeps the conversation itself (MCP)
        previous = QuestionRecord(answer=Answer(question=context.strip(), text="", found=False))
    thread_id = thread or new_thread_id()
    if progress is not None:  # said once the question is accepted: what was refused never started
        progress("understanding", "following the conversation" if previous else "reading the question")
    understood = understand(question, previous, engine.documents(), scope, thread_id)
    s = understood.scope
    note = scope_note(engine, understood.question, s)
    if note:  # answering from the scope would answer about another company: say why not instead
        answer = Answer(id=uuid.uuid4().hex[:12], question=understood.question, text=NOT_FOUND, found=False,
                        reason=note, answerer="scope", verification="not_found")
    else:
        answer = engine.ask(understood.question, company=s.company, year=s.year, doc_type=s.doc_type,
                            documents=s.documents, progress=progress)
    record = None
    if log and answer.id:
        filters = {**s.as_filters(), THREAD_KEY: thread_id, ORIGIN_KEY: origin}
        if understood.label != understood.question:  # a label that only repeats the question says nothing
            filters[UNDERSTOOD_KEY] = understood.label
        if understood.asked != understood.question:
            filters[ASKED_KEY] = understood.asked
        if understood.inherited:
            filters[INHERITED_KEY] = ",".join(understood.inherited)
        record = record_answer(engine.store, answer, filters)
    return Asked(answer=answer, understood=understood, record=record)


__all__ = ["Asked", "UnknownThread", "ask_in_thread", "last_in_thread", "scope_note"]
