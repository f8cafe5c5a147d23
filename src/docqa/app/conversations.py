"""Conversations as a list: the question log grouped by thread, newest activity first, named by the
first question (or the name given it), searchable, paged, renamed and deleted.

Nothing is kept beside the log: a conversation is the log's records that share a thread id
(``THREAD_KEY``); a question asked outside a thread (the CLI, MCP without context) is a
conversation of one, known by its answer id. A name is kept in the filters of the conversation's
records (``TITLE_KEY``), written back with the store's own ``log_question``, which replaces a record
by its answer id: so a rename lasts as the log does, on every store, across restarts. Whose: only
the current owner's records are seen or changed (threads.visible).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docqa.app.history import SEARCH_DEPTH, HistoryEntry, entry_for, matches
from docqa.app.threads import THREAD_KEY, visible
from docqa.types import QuestionRecord

if TYPE_CHECKING:
    from docqa.engine import Engine

TITLE_KEY = "title"
MAX_TITLE_CHARS = 200
MAX_PAGE = 100


@dataclass(frozen=True)
class Conversation:
    id: str                              # the thread id; a lone question's answer id
    thread_id: str | None                # None: a question asked outside a thread
    entries: tuple[HistoryEntry, ...]    # oldest first

    @property
    def title(self) -> str:
        return self.name or self.first.record.answer.question

    @property
    def name(self) -> str | None:
        """The name given it, newest first (every record of a renamed conversation carries it)."""
        for e in reversed(self.entries):
            named = e.record.filters.get(TITLE_KEY)
            if named:
                return str(named)
        return None

    @property
    def first(self) -> HistoryEntry:
        return self.entries[0]

    @property
    def last(self) -> HistoryEntry:
        return self.entries[-1]


@dataclass(frozen=True)
class ConversationPage:
    conversations: list[Conversation]
    total: int                           # conversations that match, on every page
    offset: int
    limit: int


def key_of(record: QuestionRecord) -> str:
    return str(record.filters.get(THREAD_KEY) or record.answer.id or "")


def _grouped(engine: "Engine") -> list[Conversation]:
    """Every conversation the caller may see, newest activity first."""
    documents = engine.documents()
    groups: dict[str, list[QuestionRecord]] = {}
    for record in engine.store.questions(SEARCH_DEPTH):  # newest first: a group's order is its newest question's
        if visible(record) and key_of(record):
            groups.setdefault(key_of(record), []).append(record)
    return [Conversation(id=key, thread_id=records[0].filters.get(THREAD_KEY),  # type: ignore[arg-type]
                         entries=tuple(entry_for(r, documents) for r in reversed(records)))
            for key, records in groups.items()]


def _matches(conversation: Conversation, words: list[str]) -> bool:
    name = (conversation.name or "").lower()
    return any(matches(e.record, words) for e in conversation.entries) or all(w in name for w in words)


def listing(engine: "Engine", query: str | None = None, offset: int = 0, limit: int = 20,
            origin: str | None = None) -> ConversationPage:
    """One page of the conversations, newest activity first; ``query``: every word must occur in one
    of its questions, answers or cited file names, or in its name; ``origin``: begun there."""
    words = (query or "").lower().split()
    found = [c for c in _grouped(engine)
             if (not words or _matches(c, words)) and (origin is None or c.first.origin == origin)]
    offset, limit = max(0, offset), max(1, min(limit, MAX_PAGE))
    return ConversationPage(conversations=found[offset:offset + limit], total=len(found), offset=offset,
                            limit=limit)


def conversation(engine: "Engine", conversation_id: str) -> Conversation | None:
    """One conversation with its questions, oldest first; None when the caller has none by that id."""
    for c in _grouped(engine):
        if c.id == conversation_id:
            return c
    return None


def clean_title(title: str | None) -> str | None:
    """A name as typed, on one line, at most MAX_TITLE_CHARS; None for a blank one (the first question again)."""
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in (title or "")).split())
    if len(text) > MAX_TITLE_CHARS:
        raise ValueError(f"a conversation's name is at most {MAX_TITLE_CHARS} characters, not {len(text)}")
    return text or None


def rename(engine: "Engine", conversation_id: str, title: str | None) -> Conversation | None:
    """Name a conversation (a blank name: named by its first question again); None when there is none."""
    found = conversation(engine, conversation_id)
    if found is None:
        return None
    name = clean_title(title)
    for e in found.entries:
        current = engine.store.question(e.record.answer.id or "") or e.record  # feedback given meanwhile kept
        filters = {k: v for k, v in current.filters.items() if k != TITLE_KEY}
        if name:
            filters[TITLE_KEY] = name
        engine.store.log_question(current.model_copy(update={"filters": filters}))
    return conversation(engine, conversation_id)


def delete(engine: "Engine", conversation_id: str) -> int:
    """Forget every question of a conversation; how many (0: none by that id)."""
    found = conversation(engine, conversation_id)
    if found is None:
        return 0
    return engine.store.delete_questions([e.record.answer.id for e in found.entries if e.record.answer.id])


__all__ = ["Conversation", "ConversationPage", "MAX_TITLE_CHARS", "TITLE_KEY", "clean_title", "conversation",
           "delete", "key_of", "listing", "rename"]
