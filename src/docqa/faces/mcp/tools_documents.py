"""Tools about whole documents: what is indexed (``list_documents``, also the ``docqa://documents``
resource) and exact statistics over a document's full text (``document_stats``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from docqa.engine import Engine
from docqa.faces.mcp.errors import agent_errors
from docqa.faces.mcp.registry import DocumentArg, Tools
from docqa.faces.mcp.replies import DocumentList, StatsOut, document_info
from docqa.limits import clipped
from docqa.question import check_length

TERM_ECHO_CHARS = 200           # document_stats sends its term back at most this long


def document_list(engine: Engine) -> DocumentList:
    docs = [document_info(d) for d in engine.documents()]
    hint = None if docs else "The index is empty: ingest PDFs with `docqa ingest PATH --index INDEX`."
    return DocumentList(count=len(docs), documents=docs, hint=hint)


def register_list_documents(tools: Tools) -> None:
    @tools.tool('List indexed documents')
    def list_documents() -> DocumentList:
        """List every indexed document: file name (pass it as `document` to other tools), company,
        ticker, filing type (10k, 10q, 8k, earnings), fiscal year and quarter, period end, page count.

        Call this first to learn what can be asked about and how documents are named."""
        return document_list(tools.engine)


def register_document_stats(tools: Tools) -> None:
    engine = tools.engine

    @tools.tool('Exact document statistics')
    def document_stats(
        document: DocumentArg,
        term: Annotated[str | None,
                        Field(description="a word or phrase to count: whole words, case-insensitive")] = None,
    ) -> StatsOut:
        """Exact statistics over a document's full text (not retrieval): page count, word count,
        and, with a term, how many times it occurs and on which pages.

        Use it for questions like "how many times does the report mention X" or "how long is it";
        search only returns the top-ranked pages and cannot count."""
        with agent_errors():  # a term is a search query: the same limit as REST's questions and `search`
            if term is not None:
                check_length(term, engine.settings.limits.max_question_chars, "term")
            tools.named(document)
            s = engine.stats(document, term)
        # the term comes back as counted, cut short: the caller knows what it sent
        return StatsOut(document=s.document, pages=s.pages, words=s.words,
                        term=clipped(s.term, TERM_ECHO_CHARS) if s.term is not None else None, count=s.count,
                        pages_with_term=list(s.pages_with_term))


def register_documents_resource(tools: Tools) -> None:
    @tools.server.resource("docqa://documents", name="documents", mime_type="application/json",
                           description="The indexed documents, as list_documents returns them.")
    def documents_resource() -> str:
        return document_list(tools.engine).model_dump_json()
