"""How a tool is put on the server: its title, description (the function's docstring, as the
calling model reads it), read-only or logging annotations and one compact JSON reply; and the
argument types the tools share."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from docqa.app.errors import DocumentNotFound
from docqa.engine import Engine
from docqa.limits import MAX_NAME_CHARS

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
# `ask` with DOCQA_MCP_LOG_QUESTIONS=true appends each question to the index's question log: a write.
LOGS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)

DocTypeArg = Literal["10k", "10q", "8k", "earnings", "other"]
DOC_TYPE_HELP = "only this filing type: 10k (annual report), 10q (quarterly), 8k, earnings (results release), other"
DocumentArg = Annotated[str, Field(description="file name as list_documents shows it (e.g. 'AMAZON_2017_10K.pdf'; "
                                               "'.pdf' optional) or the document id")]
PageArg = Annotated[int, Field(description="1-based physical page number of the PDF")]


def _compact(result: Any) -> Any:
    """A tool's model as one compact JSON text block: what the calling model reads, once (no indent, no
    structuredContent copy of the same data; docs/mcp.md)."""
    if isinstance(result, BaseModel):
        return TextContent(type="text", text=result.model_dump_json())
    return result


def _describe(fn) -> str:
    """A docstring as a tool description: dedented, each paragraph on one line."""
    paragraphs = inspect.cleandoc(fn.__doc__ or "").split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


class Tools:
    """The server the tools are registered on, and the one open Engine they call."""

    def __init__(self, server: MCPServer, engine: Engine):
        self.server = server
        self.engine = engine
        self.log_questions = engine.settings.mcp.mcp_log_questions

    def tool(self, title: str, annotations: ToolAnnotations = READ_ONLY) -> Callable[[Callable], Callable]:
        """Register the decorated function as a tool named after it; its reply goes out compact."""

        def register(fn):
            @functools.wraps(fn)
            def compact(*args, **kwargs):
                return _compact(fn(*args, **kwargs))

            self.server.add_tool(compact, name=fn.__name__, title=title, description=_describe(fn),
                                 annotations=annotations, structured_output=False)
            return fn

        return register

    def named(self, document: str | None) -> None:
        """An empty index knows no document; say so before the engine looks for close names (and a name
        longer than any file name is refused before it is compared with every document's)."""
        if document is not None and len(document) > MAX_NAME_CHARS:
            raise ValueError(f"`document` is {len(document):,} characters long; a file name or id is at most "
                             f"{MAX_NAME_CHARS:,}: pass one as list_documents shows it")
        if document is not None and not self.engine.documents():
            raise DocumentNotFound(document, [])
