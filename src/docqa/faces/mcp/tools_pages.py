"""Reading one page: the ``read_page`` tool and the ``docqa://documents/{document}/pages/{n}`` resource."""

from __future__ import annotations

from mcp.server.mcpserver.exceptions import ResourceNotFoundError

from docqa.app.errors import AmbiguousDocument, DocumentNotFound
from docqa.engine import PageOutOfRange
from docqa.faces.mcp.errors import agent_errors, page_out_of_range, unknown_document
from docqa.faces.mcp.registry import DocumentArg, PageArg, Tools
from docqa.faces.mcp.replies import PageText, table_info


def register_read_page(tools: Tools) -> None:
    engine = tools.engine

    @tools.tool('Read a page')
    def read_page(document: DocumentArg, page: PageArg) -> PageText:
        """The full text of one page, one visual row per line, so a table row keeps its label and
        all its figures on one line; plus the section, any financial statement on the page with
        its unit (e.g. 'in millions') and column headers, and the previous/next page numbers so
        you can widen to neighbouring pages.

        Use it to read around a search hit or a citation before relying on it."""
        with agent_errors():
            tools.named(document)
            doc = engine.document(document)
            stored = engine.page(doc.id, page)
        info = stored.info
        return PageText(
            document=doc.file_name, page=page, pages=doc.pages,
            previous_page=page - 1 if page > 1 else None, next_page=page + 1 if page < doc.pages else None,
            section=info.section if info else None,
            statement=info.statement.value if info and info.statement else None,
            tables=[table_info(t) for t in stored.tables],
            ocr=stored.ocr, no_text=stored.no_text, text=stored.text,
        )


def register_page_resource(tools: Tools) -> None:
    engine = tools.engine

    @tools.server.resource("docqa://documents/{document}/pages/{n}", name="page", mime_type="text/plain",
                           description="The text of page n (1-based) of an indexed document.")
    def page_resource(document: str, n: str) -> str:
        try:
            number = int(n)
        except ValueError as exc:
            raise ResourceNotFoundError(f"page must be a whole number, not {n!r}") from exc
        try:
            tools.named(document)
            doc = engine.document(document)
            stored = engine.page(doc.id, number)
        except AmbiguousDocument as exc:
            raise ResourceNotFoundError(str(exc)) from exc
        except DocumentNotFound as exc:
            raise ResourceNotFoundError(str(unknown_document(exc))) from exc
        except PageOutOfRange as exc:
            raise ResourceNotFoundError(str(page_out_of_range(exc))) from exc
        header = f"{doc.file_name} — page {number} of {doc.pages}"
        return f"{header}\n\n{stored.text}"
