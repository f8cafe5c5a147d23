"""The ``ask`` tool: a verified answer with citations, or found=false with a reason; a follow-up
with ``context`` is made whole from the previous question first (app/threads.py)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from docqa.app import asking
from docqa.app.conversation import ask_in_thread
from docqa.faces.mcp.errors import agent_errors
from docqa.faces.mcp.registry import DOC_TYPE_HELP, LOGS, READ_ONLY, DocTypeArg, Tools
from docqa.faces.mcp.replies import AnswerOut, answer_out
from docqa.question import check_length


def register_ask(tools: Tools) -> None:
    engine, log_questions = tools.engine, tools.log_questions

    @tools.tool('Ask a question (verified answer)', LOGS if log_questions else READ_ONLY)
    def ask(
        question: Annotated[str, Field(description="the question, in plain words; name the company and year "
                                                   "when you know them")],
        document: Annotated[str | None, Field(description="only this document (file name or id)")] = None,
        company: Annotated[str | None, Field(description="only this company, e.g. 'Netflix'")] = None,
        year: Annotated[int | None, Field(description="only this fiscal year")] = None,
        doc_type: Annotated[DocTypeArg | None, Field(description=DOC_TYPE_HELP)] = None,
        context: Annotated[str | None, Field(description="the previous question of this conversation, when this "
                                                         "one follows it (e.g. 'and in 2017?'): what this one "
                                                         "omits (company, period, metric) is taken from it; the "
                                                         "answer's question says how it was understood")] = None,
    ) -> AnswerOut:
        """Answer a question from the filings, verified: the answer text, found (true/false), the
        reason when not found, citations (document, 1-based page, verbatim quote checked against
        that page), the figures used (as printed, with unit, scale and period) and the formula for
        anything computed.

        found=false is a normal result meaning the filings do not support an answer: report that
        rather than guessing, or use search/read_page to look further. Use show_evidence with a
        citation's document, page and quote to see it on the page."""
        if context and context.strip():  # a follow-up: made whole from the context (threads.py)
            from docqa.app.threads import Scope

            with agent_errors():  # the previous question is a question: the same limit as REST's and `question`'s
                check_length(context, engine.settings.limits.max_question_chars, "context")
                tools.named(document)
                scope = Scope(documents=(document,) if document else (), company=company, year=year,
                              doc_type=getattr(doc_type, "value", doc_type))
                asked = ask_in_thread(engine, question, scope, context=context, origin="mcp", log=log_questions)
            return answer_out(asked.answer)
        with agent_errors():
            tools.named(document)
            # logging is off by default: the tool is then read-only, as its annotations say
            answer = asking.ask(engine, question, origin="mcp", log=log_questions, document=document,
                                company=company, year=year, doc_type=doc_type)
        return answer_out(answer)
