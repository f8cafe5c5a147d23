"""Suggested questions: ones the indexed filings answer, checked by asking them.

A suggestion is a promise that asking it gives an answer, so each candidate (built from a document's
company, form and period) is asked of the engine, and kept only when the answer is found and
Verified and, for a figure, states a figure of the period asked: "What was Apple's total revenue
in 2023?" of a 10-Q for Q3 2023 drew the deferred revenue, with no period, and is not suggested;
"... in Q3 2023?" is.

Asking costs up to seconds a question, so the check runs once per set of documents, in a thread
of its own: ``suggested`` returns what is checked so far and whether more is coming (``pending``);
the same set of documents is never checked twice in a process. Nothing checked is logged.
"""

from __future__ import annotations

import logging
import threading
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docqa.types import Answer, DocType, Document

if TYPE_CHECKING:
    from docqa.engine import Engine

log = logging.getLogger(__name__)

# what a figure question asks for, and its verb ("What were ... capital expenditures")
MEASURES = (("total revenue", "was"), ("net income", "was"), ("operating income", "was"),
            ("capital expenditures", "were"))
MAX_CANDIDATES = 40  # asked at most, per set of documents


@dataclass(frozen=True)
class Candidate:
    question: str
    period: str | None = None   # the period a figure answer must state ("2017", "2023 Q3"); None: not a figure


@dataclass(frozen=True)
class Suggestions:
    questions: list[str]
    pending: bool               # still checking: ask again shortly for more


@dataclass
class _Check:
    """The check of one set of documents: what passed so far, and whether it is still running."""

    passed: list[str] = field(default_factory=list)
    done: threading.Event = field(default_factory=threading.Event)


_checks: "weakref.WeakKeyDictionary[Engine, dict[tuple, _Check]]" = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _who(doc: Document) -> str | None:
    meta = doc.meta
    return (meta.aliases[0] if meta.aliases else None) or meta.company


def _period(doc: Document) -> tuple[str, str] | None:
    """(words for the question, the figure period that answers it): ("in Q3 2023", "2023 Q3")."""
    meta = doc.meta
    if not meta.fiscal_year:
        return None
    if meta.doc_type == DocType.QUARTERLY and meta.fiscal_quarter:
        return f"in Q{meta.fiscal_quarter} {meta.fiscal_year}", f"{meta.fiscal_year} Q{meta.fiscal_quarter}"
    return f"in {meta.fiscal_year}", str(meta.fiscal_year)


def document_candidates(doc: Document) -> list[Candidate]:
    """A document's candidates, likeliest first: its figures by company and period, then exact counts."""
    out: list[Candidate] = []
    who, period = _who(doc), _period(doc)
    if who and period:
        words, answers = period
        out += [Candidate(f"What {verb} {who}'s {measure} {words}?", answers) for measure, verb in MEASURES]
    out.append(Candidate(f"How many pages does {doc.file_name} have?"))
    out.append(Candidate(f"How many times does 'risk' appear in {doc.file_name}?"))
    return out


def candidates(documents: list[Document], limit: int = 6) -> list[Candidate]:
    """One candidate of each document before a second of any (figures first), at most MAX_CANDIDATES."""
    per_doc = [document_candidates(d) for d in documents[: max(limit, 1)]]
    out: list[Candidate] = []
    for round_ in range(max((len(a) for a in per_doc), default=0)):
        out += [asks[round_] for asks in per_doc if round_ < len(asks)]
    return out[:MAX_CANDIDATES]


def answers_it(candidate: Candidate, answer: Answer) -> bool:
    """Found, Verified and, for a figure question, a figure of the period asked."""
    if not answer.found or answer.verification != "verified":
        return False
    if candidate.period is None:
        return True
    asked = set(candidate.period.split())
    return any(f.period and asked <= set(f.period.replace("-", " ").split()) for f in answer.figures)


def example_questions(documents: list[Document], limit: int = 6) -> list[str]:
    """The unchecked candidates' questions (for a face without an engine to ask them of)."""
    return [c.question for c in candidates(documents, limit)][:limit]


def _fingerprint(documents: list[Document]) -> tuple:
    return tuple(sorted((d.id, d.sha256) for d in documents))


def _run(engine: "Engine", found: list[Candidate], check: _Check, limit: int) -> None:
    try:
        for candidate in found:
            if len(check.passed) >= limit:
                break
            try:
                answer = engine.ask(candidate.question)
            except Exception as exc:  # a candidate that fails to answer is no suggestion; the rest go on
                log.warning("example question %r could not be asked: %s", candidate.question, exc)
                continue
            if answers_it(candidate, answer):
                check.passed.append(candidate.question)
    finally:
        check.done.set()


def suggested(engine: "Engine", limit: int = 6, wait_s: float | None = None) -> Suggestions:
    """Questions the indexed filings answer (found and Verified); checked once per set of documents,
    in the background. ``wait_s``: wait that long for the check to finish (None: not at all)."""
    documents = engine.documents()
    if not documents:
        return Suggestions([], pending=False)
    key = (_fingerprint(documents), limit)
    with _lock:
        per_engine = _checks.setdefault(engine, {})
        check = per_engine.get(key)
        if check is None:
            for old in [k for k, c in per_engine.items() if c.done.is_set()]:  # a set of documents gone by
                del per_engine[old]
            check = per_engine[key] = _Check()
            threading.Thread(target=_run, args=(engine, candidates(documents, limit), check, limit),
                             name="docqa-examples", daemon=True).start()
    if wait_s:
        check.done.wait(wait_s)
    return Suggestions(list(check.passed[:limit]), pending=not check.done.is_set())


__all__ = ["Candidate", "Suggestions", "answers_it", "candidates", "document_candidates", "example_questions",
           "suggested"]
