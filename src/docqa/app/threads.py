"""Conversations: a follow-up ("and in 2017?") asks the thread's last question again with what it changes.

A follow-up is read with the same QuestionPlan the search uses (search/query.py): what it names
(companies, fiscal years, a metric or topic) replaces the thread's, and what it omits is taken from
the thread's last question, as understood. The result is a whole question of its own
("What were 3M's capital expenditures in FY2017?") that is searched, answered and verified on its
own: nothing of the earlier answer is reused, only its subject. The scope (documents, company,
year, filing type) is inherited when the follow-up is asked without one.

Threads live in the question log: each record's filters carry its thread id, the words as typed
and the question as understood (``THREAD_KEY``, ``ASKED_KEY``, ``UNDERSTOOD_KEY``).

Whose they are: a web server with several tokens (DOCQA_API_TOKENS) asks each request's questions
``asking_as`` that token's owner (a digest of it, faces/web/guard.py). The log keeps the owner with
each question (``OWNER_KEY``), and an owner sees only its own questions and threads: a thread id
from another token is no thread at all. Without an owner (one token, no token, the CLI, MCP) the
log is one user's, as it always was.
"""

from __future__ import annotations

import re
import uuid
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Iterator

from docqa.plan.companies import canonical_companies, company_names
from docqa.plan import build_plan
from docqa.text import tokens
from docqa.types import Document, QuestionRecord

THREAD_KEY = "thread"
ASKED_KEY = "asked"
UNDERSTOOD_KEY = "understood"
ORIGIN_KEY = "origin"
INHERITED_KEY = "inherited"
OWNER_KEY = "owner"
SCOPE_KEYS = ("document", "documents", "company", "year", "doc_type")
THREAD_ID = re.compile(r"^[0-9a-f]{12}$")

# Words a follow-up is made of besides what it names: "and what about in 2017 then?" names a year only.
_FILLER = frozenset(
    "and what about how hmm also then same for in of the its their that this those these was were is are "
    "did does do again instead vs versus compared previous prior last year years fiscal fy quarter s "
    "please ok okay now what's how's".split()
)
_YEARISH = re.compile(r"^(?:fy)?'?\d{2,4}$")
_PLAIN = frozenset("total value amount much many net reported".split())  # add nothing to a metric's name
_LEAD = re.compile(r"^(?:and|also|then|so|ok(?:ay)?)[\s,]+", re.I)
_POSSESSIVE = re.compile(r"\b(?:its|their)\b", re.I)


@dataclass(frozen=True)
class Scope:
    """Where a question is searched: documents (ids), a company, a fiscal year, a filing type."""

    documents: tuple[str, ...] = ()
    company: str | None = None
    year: int | None = None
    doc_type: str | None = None

    def is_empty(self) -> bool:
        return not (self.documents or self.company or self.year or self.doc_type)

    def as_filters(self) -> dict[str, str | int | None]:
        out: dict[str, str | int | None] = {}
        if len(self.documents) == 1:
            out["document"] = self.documents[0]
        elif self.documents:
            out["documents"] = ",".join(self.documents)
        if self.company:
            out["company"] = self.company
        if self.year:
            out["year"] = self.year
        if self.doc_type:
            out["doc_type"] = self.doc_type
        return out

    @classmethod
    def from_filters(cls, filters: dict) -> "Scope":
        docs = tuple(d for d in str(filters.get("documents") or "").split(",") if d)
        if filters.get("document"):
            docs = (str(filters["document"]),) + tuple(d for d in docs if d != filters["document"])
        year = filters.get("year")
        return cls(documents=docs, company=filters.get("company") or None,  # type: ignore[arg-type]
                   year=int(year) if year else None, doc_type=filters.get("doc_type") or None)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Subject:
    """What a question is about, as its QuestionPlan reads it."""

    companies: tuple[str, ...] = ()
    years: tuple[int, ...] = ()
    quarter: int | None = None
    metric: str | None = None          # the lexicon phrase ("capital expenditures"), or None
    topic: tuple[str, ...] = ()        # the words left once names, periods and filler are taken out
    unheld: tuple[str, ...] = ()       # companies named that the index holds no filing of ("Tesla's")

    @property
    def has_topic(self) -> bool:
        return bool(self.metric or self.topic)


@dataclass(frozen=True)
class Understood:
    """A question as it will be answered: the words typed, the whole question, what came from the thread."""

    asked: str
    question: str
    label: str                          # "3M capital expenditures, FY2017"
    scope: Scope = field(default_factory=Scope)
    inherited: tuple[str, ...] = ()     # of "company", "period", "metric", "scope"
    thread_id: str = ""


_owner: ContextVar[str | None] = ContextVar("docqa_question_owner", default=None)


@contextmanager
def asking_as(owner: str | None) -> Iterator[None]:
    """Questions asked and read within the block are ``owner``'s (None: nobody's in particular)."""
    token = _owner.set(owner)
    try:
        yield
    finally:
        _owner.reset(token)


def current_owner() -> str | None:
    return _owner.get()


def visible(record: QuestionRecord) -> bool:
    """Whether the current owner may see ``record``: its own; everything when there is no owner."""
    owner = _owner.get()
    return owner is None or record.filters.get(OWNER_KEY) == owner


def new_thread_id() -> str:
    return uuid.uuid4().hex[:12]


def subject_of(question: str, documents: list[Document]) -> Subject:
    plan = build_plan(question, documents)
    matches = plan.measures
    named: set[str] = set()
    canonical = canonical_companies(documents)
    for doc in documents:
        if canonical.get(doc.id) in plan.companies:
            for name in company_names(doc):
                named.update(tokens(name))
    topic = tuple(t for t in plan.terms
                  if t not in _FILLER and t not in named and not _YEARISH.match(t) and len(t) > 1)
    return Subject(companies=tuple(plan.companies), years=tuple(plan.years), quarter=plan.quarter,
                   metric=matches[0].text if matches else None, topic=topic, unheld=plan.unheld)


def label_for(question: str, documents: list[Document], subject: Subject | None = None) -> str:
    """The question in a few words: company, metric or topic, period ("3M capital expenditures, FY2017")."""
    subject = subject or subject_of(question, documents)
    metric_words = set(tokens(subject.metric or ""))
    leftover = [t for t in subject.topic if t not in metric_words and t not in _PLAIN]
    if not subject.metric or leftover:  # "what drove the change in ...": its own words say it best
        return question
    who = " and ".join(_short(c) for c in subject.companies)
    what = subject.metric
    when = ", ".join(f"FY{y}" + (f" Q{subject.quarter}" if subject.quarter else "") for y in subject.years)
    head = " ".join(p for p in (who, what) if p)
    return ", ".join(p for p in (head, when) if p) or question


def _short(company: str) -> str:
    """ "3M Company" reads "3M", "Adobe Inc." reads "Adobe": the legal suffix adds nothing here."""
    return re.sub(r"[\s,]+(?:company|inc\.?|incorporated|corporation|corp\.?|co\.?|plc|ltd\.?|limited|llc|"
                  r"holdings?|group|n\.v\.|s\.a\.|ag|se)$", "", company.strip(), flags=re.I) or company


def _with_years(question: str, old: tuple[int, ...], new: tuple[int, ...]) -> str:
    """The question with its years swapped for the follow-up's ("FY2018" -> "FY2017")."""
    if not new:
        return question
    if len(old) == 1 and len(new) == 1 and str(old[0]) in question:
        return question.replace(str(old[0]), str(new[0]))
    stem = question.rstrip(" ?.")
    for year in old:
        stem = re.sub(rf"\s*(?:in|for|of)?\s*(?:fy|fiscal(?: year)?)?\s*'?{year}\b", "", stem, flags=re.I)
    return f"{stem} in {' and '.join(f'FY{y}' for y in new)}?"


def _with_companies(question: str, old: tuple[str, ...], new: tuple[str, ...], documents: list[Document]) -> str:
    """The question about the follow-up's companies instead of the thread's ("and Adobe?")."""
    stem = question
    canonical = canonical_companies(documents)
    for doc in documents:
        if canonical.get(doc.id) in old:
            for name in sorted({doc.meta.company or "", *doc.meta.aliases, doc.meta.ticker or ""}, key=len,
                               reverse=True):
                if name and len(name) > 1:
                    stem = re.sub(rf"\b{re.escape(name)}(?:'s|’s)?", "", stem, flags=re.I)
    stem = " ".join(stem.split()).rstrip(" ?.")
    return f"{stem} for {' and '.join(_short(c) for c in new)}?"


def understand(asked: str, previous: QuestionRecord | None, documents: list[Document], scope: Scope,
               thread_id: str = "") -> Understood:
    """The follow-up ``asked`` made whole from the thread's ``previous`` question (None: a first question)."""
    subject = subject_of(asked, documents)
    if previous is None:
        return Understood(asked=asked, question=asked, label=label_for(asked, documents, subject), scope=scope,
                          thread_id=thread_id)
    before_q = previous.answer.question
    before = subject_of(before_q, documents)
    inherited: list[str] = []
    if scope.is_empty() and not subject.companies and not subject.unheld:
        prior = Scope.from_filters(previous.filters)
        if not prior.is_empty():
            scope = prior
            inherited.append("scope")
    if not subject.has_topic:
        # "and in 2017?", "and Adobe?": the last question again, with what the follow-up names
        question = before_q
        if subject.years or subject.quarter:
            question = _with_years(question, before.years, subject.years)
            if subject.quarter and subject.quarter != before.quarter:
                question = f"{question.rstrip(' ?.')} (Q{subject.quarter})?"
        else:
            inherited.append("period")
        if subject.companies and set(subject.companies) != set(before.companies):
            question = _with_companies(question, before.companies, subject.companies, documents)
        elif subject.unheld:  # "and Tesla?": asked of Tesla, which the index may not hold
            question = _with_companies(question, before.companies, subject.unheld, documents)
        else:
            inherited.append("company")
        inherited.append("metric")
    else:
        question = _LEAD.sub("", asked).strip() or asked
        extra: list[str] = []
        # A question that names a company, held or not, is about that company: "What was Tesla's
        # revenue?" after an Amazon question is Tesla's (and not found), never Amazon's.
        if not subject.companies and not subject.unheld and before.companies:
            who = " and ".join(_short(c) for c in before.companies)
            if _POSSESSIVE.search(question):  # "and its revenue?" is 3M's revenue
                question = _POSSESSIVE.sub(f"{who}'s", question, count=1)
            else:
                extra.append(f"for {who}")
            inherited.append("company")
        if not subject.years and before.years:
            extra.append("in " + " and ".join(f"FY{y}" for y in before.years))
            inherited.append("period")
        if extra:
            question = f"{question.rstrip(' ?.')} {' '.join(extra)}?"
    understood = subject_of(question, documents)
    return Understood(asked=asked, question=question, label=label_for(question, documents, understood),
                      scope=scope, inherited=tuple(dict.fromkeys(inherited)), thread_id=thread_id)


def thread_records(records: list[QuestionRecord], thread_id: str) -> list[QuestionRecord]:
    """A thread's questions, oldest first, from the log (newest first, as the store returns it); only
    those the current owner may see."""
    return [r for r in reversed(records) if r.filters.get(THREAD_KEY) == thread_id and visible(r)]


__all__ = ["OWNER_KEY", "Scope", "Subject", "Understood", "asking_as", "current_owner", "label_for", "new_thread_id",
           "subject_of", "thread_records", "understand", "visible"]
