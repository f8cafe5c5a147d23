"""Errors an agent can act on: the engine's input errors as tool errors whose text says what to do,
and the SDK's argument errors as one sentence per bad argument."""

from __future__ import annotations

import contextlib

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from docqa.app.errors import AmbiguousDocument, DocumentNotFound, ParseError
from docqa.engine import PageOutOfRange
from docqa.limits import shown

MAX_KNOWN_IN_ERROR = 12         # how many known document names an unknown-document error lists


def unknown_document(exc: DocumentNotFound) -> ToolError:
    known = list(exc.known)
    if not known:
        return ToolError(f"Unknown document {shown(exc.name)}: the index is empty. Ingest PDFs with `docqa ingest`.")
    listed = ", ".join(known[:MAX_KNOWN_IN_ERROR])
    extra = len(known) - MAX_KNOWN_IN_ERROR
    more = f" (and {extra} more; call list_documents)" if extra > 0 else ""
    return ToolError(
        f"Unknown document {shown(exc.name)}. Known documents, closest first: {listed}{more}. "
        "Pass a file name as list_documents shows it."
    )


def page_out_of_range(exc: PageOutOfRange) -> ToolError:
    doc = exc.document
    return ToolError(
        f"{doc.file_name} has pages 1-{doc.pages}; page {exc.page} does not exist. "
        "Page numbers are 1-based physical pages of the PDF."
    )


@contextlib.contextmanager
def agent_errors():
    """Turn the engine's input errors into tool errors whose text says what to do."""
    try:
        yield
    except AmbiguousDocument as exc:  # two documents share the name: say which, with the ids that work
        raise ToolError(f"{len(exc.matches)} documents are named {shown(exc.name)}: {'; '.join(exc.known)}; "
                        "pass the id instead") from exc
    except DocumentNotFound as exc:
        raise unknown_document(exc) from exc
    except PageOutOfRange as exc:
        raise page_out_of_range(exc) from exc
    except (ValueError, ParseError) as exc:  # bad mode/doc_type/query, vector search on a lexical index, PDF gone
        raise ToolError(str(exc)) from exc


def argument_error(tool: str, exc: ValidationError) -> str:
    """One sentence per bad argument, without pydantic's URL or input echo."""
    problems = []
    for e in exc.errors(include_url=False, include_input=False):
        where = ".".join(str(part) for part in e["loc"]) or "arguments"
        problems.append(f"`{where}`: {e['msg'][:1].lower()}{e['msg'][1:]}")
    return f"Invalid arguments for {tool}: {'; '.join(problems)}. See the tool's input schema."
