"""The MCP server over one open Engine: its instructions, its six tools (one module per group:
tools_documents, tools_search, tools_pages, tools_ask, tools_evidence) and the page resources,
listed page by page from the live index."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ListResourcesResult, PaginatedRequestParams, Resource
from pydantic import ValidationError

from docqa import __version__
from docqa.engine import Engine
from docqa.faces.mcp import tools_ask, tools_documents, tools_evidence, tools_pages, tools_search
from docqa.faces.mcp.errors import argument_error
from docqa.faces.mcp.registry import Tools

SERVER_NAME = "docqa"
RESOURCES_PER_LIST_PAGE = 200   # resources/list is paginated: an index can hold thousands of pages

INSTRUCTIONS = """\
docqa holds an index of company filings (10-K annual reports, 10-Qs, earnings releases) and \
answers with proof: every answer names the document and page it came from and quotes the line.

How to work with it:
1. list_documents: see what is indexed (company, fiscal year, filing type, file name, pages).
2. ask: a question in plain words -> a verified answer with citations (document, page, quote), \
the figures it used and any formula. found=false means the filings do not support an answer; \
that is a result, not a failure: say so, or search and read pages yourself.
3. search: find the pages about something (ranked page-level hits with snippets), e.g. to \
answer from several pages or to check an answer.
4. read_page: the full text of one page, table rows kept on one line, with the neighbouring \
page numbers so you can widen.
5. document_stats: exact counts (pages, words, how often a term occurs and on which pages) \
over a document's full text; use it for "how many times ..." instead of search.
6. show_evidence: the page as an image with the quote boxed (by default cropped to the boxed \
rows), to look at a table or show proof.

Documents are named by file name exactly as list_documents shows it (the '.pdf' may be \
omitted, or use the id). Page numbers are 1-based physical pages of the PDF, not the page \
numbers printed on the page.\
"""


def page_uri(document: str, page: int) -> str:
    return f"docqa://documents/{quote(document, safe='')}/pages/{page}"


class DocqaServer(MCPServer):
    """MCPServer whose resources/list enumerates the indexed pages, paginated, from the live index."""

    def __init__(self, engine: Engine, **kwargs: Any):
        self.engine = engine
        super().__init__(**kwargs)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None):
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:  # the SDK's argument errors carry pydantic's multi-line text and a URL
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(argument_error(name, exc.__cause__)) from exc.__cause__
            raise

    # MCPServer.list_resources takes no cursor, so the resources/list handler itself is replaced
    # (an SDK-internal hook: mcp is pinned; tests/faces/test_mcp.py pages through the listing).
    async def _handle_list_resources(self, ctx, params: PaginatedRequestParams | None) -> ListResourcesResult:
        import anyio.to_thread

        cursor = params.cursor if params else None
        try:
            start = int(cursor) if cursor else 0
        except ValueError:
            start = 0
        static = await self.list_resources()
        pages, total = await anyio.to_thread.run_sync(self._page_resources, start, RESOURCES_PER_LIST_PAGE)
        end = start + len(pages)
        return ListResourcesResult(
            resources=(static if start == 0 else []) + pages,
            next_cursor=str(end) if end < total else None,
        )

    def _page_resources(self, start: int, count: int) -> tuple[list[Resource], int]:
        out: list[Resource] = []
        offset = 0
        docs = self.engine.documents()
        total = sum(d.pages for d in docs)
        for doc in docs:
            if offset + doc.pages <= start:
                offset += doc.pages
                continue
            for n in range(max(1, start - offset + 1), doc.pages + 1):
                if len(out) >= count:
                    return out, total
                company = doc.meta.company or doc.file_name
                out.append(Resource(
                    uri=page_uri(doc.file_name, n), name=f"{doc.file_name} p.{n}",
                    title=f"{company} {doc.meta.fiscal_year or ''} page {n} of {doc.pages}".replace("  ", " "),
                    mime_type="text/plain",
                ))
            offset += doc.pages
        return out, total


def build_server(engine: Engine) -> DocqaServer:
    """The MCP server over one open Engine: six tools and the page resources."""
    server = DocqaServer(engine, name=SERVER_NAME, title="docqa: filings with proof", version=__version__,
                         instructions=INSTRUCTIONS, log_level="WARNING")
    tools = Tools(server, engine)
    # in this order: tools/list shows them so, the order an agent works in (INSTRUCTIONS)
    tools_documents.register_list_documents(tools)
    tools_search.register_search(tools)
    tools_pages.register_read_page(tools)
    tools_ask.register_ask(tools)
    tools_documents.register_document_stats(tools)
    tools_evidence.register_show_evidence(tools)
    tools_documents.register_documents_resource(tools)
    tools_pages.register_page_resource(tools)
    return server
