"""The question history as people use it: search it, open a thread, delete one entry or all, see
which answers lost their document, export an answer or a thread as Markdown or JSON.

The history is the question log (questionlog.py); an entry whose cited document was deleted since
is marked so (its badge no longer says Verified: the pages that proved it are gone).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from docqa.app.badge import badge
from docqa.app.figures import figure_value
from docqa.app.threads import ASKED_KEY, ORIGIN_KEY, THREAD_KEY, UNDERSTOOD_KEY, Scope, thread_records
from docqa.types import Document, QuestionRecord

if TYPE_CHECKING:
    from docqa.engine import Engine

SEARCH_DEPTH = 5000  # newest log records searched by a history query
ORIGINS = ("web", "cli", "mcp")


@dataclass(frozen=True)
class HistoryEntry:
    record: QuestionRecord
    deleted_documents: tuple[str, ...] = ()   # cited documents no longer in the index (file names)

    @property
    def document_deleted(self) -> bool:
        return bool(self.deleted_documents)

    @property
    def origin(self) -> str:
        return str(self.record.filters.get(ORIGIN_KEY) or "cli")  # logged before origins were kept: the CLI's


def cited_documents(record: QuestionRecord) -> dict[str, str]:
    """Document id (or file name when only that is known) -> file name, for what the answer cites."""
    out: dict[str, str] = {c.document_id: c.document for c in record.answer.citations}
    for f in record.answer.figures:
        if f.document and f.document not in out.values():
            out[f.document] = f.document
    return out


def entry_for(record: QuestionRecord, documents: list[Document]) -> HistoryEntry:
    ids = {d.id for d in documents}
    names = {d.file_name for d in documents}
    gone = tuple(sorted({name for key, name in cited_documents(record).items() if key not in ids and name not in names}))
    return HistoryEntry(record=record, deleted_documents=gone)


def matches(record: QuestionRecord, words: list[str]) -> bool:
    """Whether every word occurs in the question, the answer, the words as typed or understood, or a
    cited file name."""
    f = record.filters
    hay = " ".join(str(x) for x in (record.answer.question, record.answer.text, f.get(ASKED_KEY), f.get(UNDERSTOOD_KEY),
                                    *(c.document for c in record.answer.citations)) if x).lower()
    return all(w in hay for w in words)


def search(engine: "Engine", query: str | None = None, limit: int = 50, origin: str | None = None) -> list[HistoryEntry]:
    """Newest first; ``query``: every word must occur in the question, the answer or a cited file name."""
    words = (query or "").lower().split()
    records = engine.store.questions(SEARCH_DEPTH if (words or origin) else limit)
    documents = engine.documents()
    out = []
    for record in records:
        entry = entry_for(record, documents)
        if (not words or matches(record, words)) and (origin is None or entry.origin == origin):
            out.append(entry)
            if len(out) >= limit:
                break
    return out


def thread(engine: "Engine", thread_id: str) -> list[HistoryEntry]:
    """A conversation's questions, oldest first; [] for a thread the log does not hold."""
    documents = engine.documents()
    return [entry_for(r, documents) for r in thread_records(engine.store.questions(SEARCH_DEPTH), thread_id)]


def entry(engine: "Engine", answer_id: str) -> HistoryEntry | None:
    record = engine.store.question(answer_id)
    return entry_for(record, engine.documents()) if record else None


def delete(engine: "Engine", answer_id: str) -> bool:
    return engine.store.delete_questions([answer_id]) > 0


def clear(engine: "Engine") -> int:
    return engine.store.delete_questions(None)


# --- export ------------------------------------------------------------------------------------------

def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(entries: list[HistoryEntry], label: Callable[[str, int], str | None] | None = None,
                title: str | None = None, names: dict[str, str] | None = None) -> str:
    """Answers with their citations, figures and formula, as Markdown. ``label(document_id, page)``
    gives a page's printed number, shown beside the physical one."""
    out: list[str] = [f"# {title}", ""] if title else []
    # one answer under its own question as title: the question is said once, not as two headings
    single = len(entries) == 1 and title == entries[0].record.answer.question
    for e in entries:
        r, a = e.record, e.record.answer
        shown = badge(a, e.document_deleted).words
        if not single:
            out.append(f"## {a.question}")
        asked = r.filters.get(ASKED_KEY)
        if asked:
            out.append(f"*Asked as:* {asked}  ")
        if r.filters.get(UNDERSTOOD_KEY):
            out.append(f"*Understood as:* {r.filters[UNDERSTOOD_KEY]}  ")
        scope = Scope.from_filters(r.filters)
        if not scope.is_empty():
            out.append(f"*Scope:* {describe_scope(scope, names)}  ")
        out.append(f"*{shown}* · {r.created_at} · from {e.origin}")
        out.append("")
        out.append(a.text)
        if a.reason:
            out += ["", f"Why: {a.reason}"]
        if a.formula:
            out += ["", f"Formula: `{a.formula}`"]
        if a.figures:
            out += ["", "| Figure | Value | Period | Document | Page |", "| --- | --- | --- | --- | --- |"]
            for f in a.figures:
                value = figure_value(f) + (" (computed)" if f.computed else "")
                out.append(f"| {_md_escape(f.name)} | {_md_escape(value)} | "
                           f"{f.period or ''} | {f.document or ''} | {f.page or ''} |")
        if a.citations:
            out += ["", "Citations:", ""]
            for c in a.citations:
                printed = label(c.document_id, c.page) if label else None
                where = f"{c.document}, page {c.page}" + (f" (printed {printed})" if printed else "")
                out.append(f"- {where}{f' — {c.about}' if c.about else ''}: “{c.quote}”")
        if e.document_deleted:
            out += ["", f"Note: {', '.join(e.deleted_documents)} was deleted since; the cited pages are gone."]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def describe_scope(scope: Scope, names: dict[str, str] | None = None) -> str:
    parts = []
    if scope.documents:
        parts.append(", ".join((names or {}).get(d, d) for d in scope.documents))
    if scope.company:
        parts.append(f"company {scope.company}")
    if scope.year:
        parts.append(f"FY{scope.year}")
    if scope.doc_type:
        parts.append(scope.doc_type)
    return "; ".join(parts) or "all documents"


def to_json(entries: list[HistoryEntry]) -> str:
    return json.dumps([{**e.record.model_dump(mode="json"), "origin": e.origin,
                        "thread": e.record.filters.get(THREAD_KEY),
                        "deleted_documents": list(e.deleted_documents)} for e in entries], ensure_ascii=False)


__all__ = ["HistoryEntry", "ORIGINS", "clear", "delete", "describe_scope", "entry", "entry_for", "matches", "search",
           "thread", "to_json", "to_markdown"]
