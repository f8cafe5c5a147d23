"""The question log: every asked question, its answer and the asker's feedback, kept in the index.

``export_jsonl`` writes the log in the dev-question format of ``financebench.jsonl`` (id, question,
answer, answer_type, documents, evidence [{document, page}], ...) plus the feedback, so that real
questions can be labelled into the next eval set.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Literal

from docqa.store.base import Store
from docqa.types import Answer, QuestionRecord
from docqa.plan.intent import worded_as_yes_no

if TYPE_CHECKING:
    from docqa.engine import Engine

AnswerType = Literal["numeric", "yes_no", "text"]

EXPORT_LIMIT = 10_000_000  # "everything": the store's questions() takes a limit

_NUMBER = re.compile(r"[-+(]?\$?\s?\d[\d,]*(?:\.\d+)?\s?(?:%|x|bn|billion|million|m|k)?\)?", re.I)


def record_answer(store: Store, answer: Answer, filters: dict | None = None) -> QuestionRecord:
    """Log an answer (it must carry an id) with the filters it was asked with, and whose it is when a
    web server with several tokens asks for one of them (threads.asking_as); returns the record."""
    from docqa.app.threads import OWNER_KEY, current_owner

    stamp = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
    filters = dict(filters or {})
    owner = current_owner()
    if owner is not None:
        filters[OWNER_KEY] = owner
    record = QuestionRecord(answer=answer, filters=filters, created_at=stamp)
    store.log_question(record)
    return record


def guess_answer_type(question: str, answer: Answer) -> AnswerType:
    """numeric | yes_no | text, as the dev questions label them; a guess for a labeller to check."""
    if worded_as_yes_no(question):
        return "yes_no"
    if answer.figures or answer.formula:
        return "numeric"
    text = answer.text.strip().strip("“”\"'.")
    if text and len(text) <= 40 and _NUMBER.search(text) and len(_NUMBER.sub("", text).split()) <= 3:
        return "numeric"
    return "text"


def to_dev_question(record: QuestionRecord) -> dict:
    """One log record in the dev-question format, with the feedback fields after the standard ones."""
    answer = record.answer
    evidence, documents = [], []
    for c in answer.citations:
        if {"document": c.document, "page": c.page} not in evidence:
            evidence.append({"document": c.document, "page": c.page})
    for f in answer.figures:
        if f.document and f.page and {"document": f.document, "page": f.page} not in evidence:
            evidence.append({"document": f.document, "page": f.page})
    for item in evidence:
        if item["document"] not in documents:
            documents.append(item["document"])
    if not documents and record.filters.get("document"):
        documents.append(str(record.filters["document"]))
    justification = answer.formula or " | ".join(c.quote for c in answer.citations[:3]) or (answer.reason or "")
    return {
        "id": f"log-{answer.id}",
        "question": answer.question,
        "answer": answer.text if answer.found else "",
        "answer_type": guess_answer_type(answer.question, answer),
        "documents": documents,
        "evidence": evidence,
        "justification": justification,
        "question_type": "logged",
        "question_reasoning": answer.answerer or "",
        "source": "docqa-log",
        # what the asker saw and said
        "asked_at": record.created_at,
        "filters": record.filters,
        "found": answer.found,
        "verification": answer.verification,
        "reason": answer.reason,
        "helpful": record.helpful,
        "note": record.note,
    }


def iter_log(store: Store) -> Iterator[QuestionRecord]:
    """Every logged question, oldest first."""
    yield from reversed(store.questions(EXPORT_LIMIT))


def write_jsonl(records: Iterable[QuestionRecord], out_path: str | Path) -> int:
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with out.open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(to_dev_question(record), ensure_ascii=False) + "\n")
            n += 1
    return n


def export_jsonl(engine: "Engine", out_path: str | Path) -> int:
    """Write the whole log to ``out_path`` as JSONL (oldest first); returns how many questions."""
    return write_jsonl(iter_log(engine.store), out_path)


__all__ = ["export_jsonl", "guess_answer_type", "iter_log", "record_answer", "to_dev_question", "write_jsonl"]
