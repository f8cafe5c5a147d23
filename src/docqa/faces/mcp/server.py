"""The MCP server: the engine's search, pages, verified answers and evidence images, for AI agents.

One Engine is opened per server process and serves every call (and, over HTTP, every session).
The face holds no logic: each tool validates nothing the engine does not, calls the Engine and
shapes its result for a calling model. Errors an agent can act on (an unknown document, a page
out of range, a bad argument) come back as tool errors that say what to do; ``found=false`` from
``ask`` is a normal result.

Transports: stdio (nothing but protocol on stdout; logs go to stderr) and Streamable HTTP on
``/mcp``, which requires ``Authorization: Bearer <DOCQA_MCP_TOKEN>`` when that token is set.
"""

from __future__ import annotations

import contextlib
import functools
import hmac
import inspect
import json
import logging
import sys
from typing import Annotated, Any, Literal
from urllib.parse import quote

from mcp.server.mcpserver import Image, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp_types import (
    ListResourcesResult,
    PaginatedRequestParams,
    Resource,
    TextContent,
    ToolAnnotations,
)
from pydantic import BaseModel, Field, ValidationError

from docqa import __version__
from docqa.config import Settings
from docqa.engine import Engine, PageOutOfRange
from docqa.faces.origin import HostPolicy, SameOrigin
from docqa.limits import MAX_NAME_CHARS, clipped, shown
from docqa.question import check_length
from docqa.app import asking
from docqa.app.conversation import ask_in_thread
from docqa.app.errors import AmbiguousDocument, DocumentNotFound, EmbedderMismatch, ParseError
from docqa.types import Answer, Document

log = logging.getLogger(__name__)

SERVER_NAME = "docqa"
HTTP_PATH = "/mcp"
RESOURCES_PER_LIST_PAGE = 200   # resources/list is paginated: an index can hold thousands of pages
MAX_KNOWN_IN_ERROR = 12         # how many known document names an unknown-document error lists
SNIPPET_CHARS = 400
MAX_IMAGE_BYTES = 75_000        # show_evidence: an image a model reads well, at most 100 kB as base64
TERM_ECHO_CHARS = 200           # document_stats sends its term back at most this long

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

DocTypeArg = Literal["10k", "10q", "8k", "earnings", "other"]
DOC_TYPE_HELP = "only this filing type: 10k (annual report), 10q (quarterly), 8k, earnings (results release), other"

# --- results: typed, so each tool publishes an output schema ---------------------------------


class DocumentInfo(BaseModel):
    document: str = Field(description="file name: pass it as `document` to the other tools")
    id: str
    company: str | None = None
    ticker: str | None = None
    doc_type: str | None = Field(None, description="10k, 10q, 8k, earnings or other")
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None
    period_end: str | None = Field(None, description="ISO date the fiscal period ends, when printed")
    pages: int
    chunks: int
    dense: bool = Field(description="whether the document has embeddings for vector search")


class DocumentList(BaseModel):
    count: int
    documents: list[DocumentInfo]
    hint: str | None = None


class SearchHit(BaseModel):
    rank: int
    document: str
    company: str | None = None
    year: int | None = None
    doc_type: str | None = None
    page: int = Field(description="1-based physical page")
    section: str | None = Field(None, description="e.g. 'Item 7' or 'Item 8'")
    statement: str | None = Field(None, description="the primary statement printed on the page, if any")
    snippet: str = Field(description="the best-matching passage on the page")
    score: float
    scores: dict[str, float] = Field(default_factory=dict, description="per-retriever scores")


class SearchResults(BaseModel):
    query: str
    mode: str
    companies: list[str] = Field(default_factory=list, description="companies the query was read as naming")
    years: list[int] = Field(default_factory=list, description="years the query was read as naming")
    notes: list[str] = Field(default_factory=list)
    hits: list[SearchHit]


class TableInfo(BaseModel):
    title: str | None = None
    unit: str | None = Field(None, description="e.g. 'in millions'")
    columns: list[str] = Field(default_factory=list)


class PageText(BaseModel):
    document: str
    page: int = Field(description="1-based physical page")
    pages: int = Field(description="pages in the document")
    previous_page: int | None = None
    next_page: int | None = None
    section: str | None = None
    statement: str | None = None
    tables: list[TableInfo] = Field(default_factory=list, description="statement tables read on this page")
    ocr: bool = Field(False, description="the text came from OCR")
    no_text: bool = Field(False, description="the page has no text layer and could not be read")
    text: str = Field(description="the page text, one visual row per line; table rows keep their figures")


class CitationOut(BaseModel):
    document: str
    page: int = Field(description="1-based physical page")
    quote: str = Field(description="verbatim from the page (checked)")
    about: str | None = Field(None, description="what the quote is about, read off the page (its heading and "
                                                "period, e.g. 'Safety and Graphics Business (2018)'): set when "
                                                "the quotes sit under different headings or pull opposite ways")


class FigureOut(BaseModel):
    name: str
    text: str = Field(description="as printed, or as computed")
    value: float
    unit: str | None = None
    scale: float = Field(1.0, description="value x scale = the amount (scale 1e6: in millions)")
    period: str | None = None
    document: str | None = None
    page: int | None = None
    computed: bool = False
    concept: str | None = Field(None, description="the inline XBRL fact it was read from (HTML filings), e.g. "
                                                  "'us-gaap:Revenues, Q2 2023, USD'")


class AnswerOut(BaseModel):
    question: str
    found: bool = Field(description="false: the filings do not support an answer (see reason)")
    text: str
    reason: str | None = None
    verification: Literal["verified", "partial", "passages", "not_found"]
    citations: list[CitationOut] = Field(default_factory=list)
    figures: list[FigureOut] = Field(default_factory=list)
    formula: str | None = None
    answerer: str = ""
    citations_dropped: int = Field(0, description="citations removed because their quote was not on the page")
    numbers_unverified: list[str] = Field(default_factory=list)
    notice: str | None = Field(None, description="set when the answer was made while the sentence model was "
                                                 "still loading: by words alone; asking again gives the full answer")


class StatsOut(BaseModel):
    document: str
    pages: int
    words: int
    term: str | None = None
    count: int | None = Field(
        None, description="whole-word, case-insensitive occurrences of the term over the full text")
    pages_with_term: list[int] = Field(default_factory=list)


# --- errors an agent can act on ----------------------------------------------------------------


def _unknown_document(exc: DocumentNotFound) -> ToolError:
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


def _page_out_of_range(exc: PageOutOfRange) -> ToolError:
    doc = exc.document
    return ToolError(
        f"{doc.file_name} has pages 1-{doc.pages}; page {exc.page} does not exist. "
        "Page numbers are 1-based physical pages of the PDF."
    )


@contextlib.contextmanager
def _agent_errors():
    """Turn the engine's input errors into tool errors whose text says what to do."""
    try:
        yield
    except AmbiguousDocument as exc:  # two documents share the name: say which, with the ids that work
        raise ToolError(f"{len(exc.matches)} documents are named {shown(exc.name)}: {'; '.join(exc.known)}; "
                        "pass the id instead") from exc
    except DocumentNotFound as exc:
        raise _unknown_document(exc) from exc
    except PageOutOfRange as exc:
        raise _page_out_of_range(exc) from exc
    except (ValueError, ParseError) as exc:  # bad mode/doc_type/query, vector search on a lexical index, PDF gone
        raise ToolError(str(exc)) from exc


# --- shaping engine results ----------------------------------------------------------------------


def _document_info(doc: Document) -> DocumentInfo:
    m = doc.meta
    return DocumentInfo(
        document=doc.file_name, id=doc.id, company=m.company, ticker=m.ticker,
        doc_type=m.doc_type.value if m.doc_type else None, fiscal_year=m.fiscal_year,
        fiscal_quarter=m.fiscal_quarter, period_end=m.period_end, pages=doc.pages, chunks=doc.chunks,
        dense=doc.embedded,
    )


def _answer_out(answer: Answer) -> AnswerOut:
    return AnswerOut(
        question=answer.question, found=answer.found, text=answer.text, reason=answer.reason,
        verification=answer.verification,
        citations=[CitationOut(document=c.document, page=c.page, quote=c.quote, about=c.about) for c in answer.citations],
        figures=[
            FigureOut(name=f.name, text=f.text, value=f.value, unit=f.unit, scale=f.scale, period=f.period,
                      document=f.document, page=f.page, computed=f.computed, concept=f.concept)
            for f in answer.figures
        ],
        formula=answer.formula, answerer=answer.answerer, citations_dropped=answer.citations_dropped,
        numbers_unverified=list(answer.numbers_unverified), notice=answer.notice,
    )


def _table_info(table: dict) -> TableInfo:
    columns = [str(c.get("header") or "") for c in table.get("columns", []) if isinstance(c, dict)]
    return TableInfo(title=table.get("title"), unit=table.get("unit_text") or table.get("unit"), columns=columns)


def _describe(fn) -> str:
    """A docstring as a tool description: dedented, each paragraph on one line."""
    paragraphs = inspect.cleandoc(fn.__doc__ or "").split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def page_uri(document: str, page: int) -> str:
    return f"docqa://documents/{quote(document, safe='')}/pages/{page}"


# --- the server -----------------------------------------------------------------------------------

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
# `ask` with DOCQA_MCP_LOG_QUESTIONS=true appends each question to the index's question log: a write.
LOGS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)


def _compact(result: Any) -> Any:
    """A tool's model as one compact JSON text block: what the calling model reads, once (no indent, no
    structuredContent copy of the same data; docs/mcp.md)."""
    if isinstance(result, BaseModel):
        return TextContent(type="text", text=result.model_dump_json())
    return result


def _argument_error(tool: str, exc: ValidationError) -> str:
    """One sentence per bad argument, without pydantic's URL or input echo."""
    problems = []
    for e in exc.errors(include_url=False, include_input=False):
        where = ".".join(str(part) for part in e["loc"]) or "arguments"
        problems.append(f"`{where}`: {e['msg'][:1].lower()}{e['msg'][1:]}")
    return f"Invalid arguments for {tool}: {'; '.join(problems)}. See the tool's input schema."

DocumentArg = Annotated[str, Field(description="file name as list_documents shows it (e.g. 'AMAZON_2017_10K.pdf'; "
                                               "'.pdf' optional) or the document id")]
PageArg = Annotated[int, Field(description="1-based physical page number of the PDF")]


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
                raise ToolError(_argument_error(name, exc.__cause__)) from exc.__cause__
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

    log_questions = engine.settings.mcp_log_questions

    def tool(title: str, annotations: ToolAnnotations = READ_ONLY):
        def register(fn):
            @functools.wraps(fn)
            def compact(*args, **kwargs):
                return _compact(fn(*args, **kwargs))

            server.add_tool(compact, name=fn.__name__, title=title, description=_describe(fn),
                            annotations=annotations, structured_output=False)
            return fn

        return register

    def named(document: str | None) -> None:
        """An empty index knows no document; say so before the engine looks for close names (and a name
        longer than any file name is refused before it is compared with every document's)."""
        if document is not None and len(document) > MAX_NAME_CHARS:
            raise ValueError(f"`document` is {len(document):,} characters long; a file name or id is at most "
                             f"{MAX_NAME_CHARS:,}: pass one as list_documents shows it")
        if document is not None and not engine.documents():
            raise DocumentNotFound(document, [])

    @tool('List indexed documents')
    def list_documents() -> DocumentList:
        """List every indexed document: file name (pass it as `document` to other tools), company,
        ticker, filing type (10k, 10q, 8k, earnings), fiscal year and quarter, period end, page count.

        Call this first to learn what can be asked about and how documents are named."""
        docs = [_document_info(d) for d in engine.documents()]
        hint = None if docs else "The index is empty: ingest PDFs with `docqa ingest PATH --index INDEX`."
        return DocumentList(count=len(docs), documents=docs, hint=hint)

    @tool('Search the filings')
    def search(
        query: Annotated[str, Field(description="what to look for, in plain words or the filing's own terms")],
        k: Annotated[int, Field(ge=1, le=50, description="how many pages to return")] = 8,
        mode: Annotated[Literal["hybrid", "lexical", "vector"],
                        Field(description="hybrid (default) fuses keyword and semantic ranking; lexical is "
                                          "keywords only; vector needs an index built with embeddings")] = "hybrid",
        company: Annotated[str | None, Field(description="only this company, e.g. 'Amazon'")] = None,
        year: Annotated[int | None, Field(description="only this fiscal year, e.g. 2017")] = None,
        doc_type: Annotated[DocTypeArg | None, Field(description=DOC_TYPE_HELP)] = None,
        document: Annotated[str | None, Field(description="only this document (file name or id)")] = None,
    ) -> SearchResults:
        """Find the pages that discuss something: ranked page-level hits, each with document,
        company, fiscal year, 1-based page, section, the best-matching snippet and scores.

        Use it to locate evidence yourself, to gather material from several pages or companies, or
        to check an answer; then read_page for the full text. Companies and years named in the
        query are understood as filters; the explicit filters narrow further. For a direct
        question prefer `ask`, which also verifies its answer; for exact counts use
        document_stats."""
        with _agent_errors():
            named(document)
            result = engine.search_detailed(query, k=k, mode=mode, company=company, year=year,
                                            doc_type=doc_type, document=document)
        hits = [
            SearchHit(
                rank=i, document=h.document, company=h.company, year=h.year,
                doc_type=h.doc_type.value if h.doc_type else None, page=h.page, section=h.section,
                statement=h.statement.value if h.statement else None,
                snippet=" ".join(h.text.split())[:SNIPPET_CHARS], score=round(h.score, 4),
                scores={k_: round(v, 4) for k_, v in h.scores.items()},
            )
            for i, h in enumerate(result.hits, 1)
        ]
        plan = result.plan
        return SearchResults(query=query, mode=mode, companies=list(plan.companies), years=list(plan.years),
                             notes=list(plan.notes), hits=hits)

    @tool('Read a page')
    def read_page(document: DocumentArg, page: PageArg) -> PageText:
        """The full text of one page, one visual row per line, so a table row keeps its label and
        all its figures on one line; plus the section, any financial statement on the page with
        its unit (e.g. 'in millions') and column headers, and the previous/next page numbers so
        you can widen to neighbouring pages.

        Use it to read around a search hit or a citation before relying on it."""
        with _agent_errors():
            named(document)
            doc = engine.document(document)
            stored = engine.page(doc.id, page)
        info = stored.info
        return PageText(
            document=doc.file_name, page=page, pages=doc.pages,
            previous_page=page - 1 if page > 1 else None, next_page=page + 1 if page < doc.pages else None,
            section=info.section if info else None,
            statement=info.statement.value if info and info.statement else None,
            tables=[_table_info(t) for t in stored.tables if isinstance(t, dict)],
            ocr=stored.ocr, no_text=stored.no_text, text=stored.text,
        )

    @tool('Ask a question (verified answer)', LOGS if log_questions else READ_ONLY)
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

            with _agent_errors():  # the previous question is a question: the same limit as REST's and `question`'s
                check_length(context, engine.settings.max_question_chars, "context")
                named(document)
                scope = Scope(documents=(document,) if document else (), company=company, year=year,
                              doc_type=getattr(doc_type, "value", doc_type))
                asked = ask_in_thread(engine, question, scope, context=context, origin="mcp", log=log_questions)
            return _answer_out(asked.answer)
        with _agent_errors():
            named(document)
            # logging is off by default: the tool is then read-only, as its annotations say
            answer = asking.ask(engine, question, origin="mcp", log=log_questions, document=document,
                                company=company, year=year, doc_type=doc_type)
        return _answer_out(answer)

    @tool('Exact document statistics')
    def document_stats(
        document: DocumentArg,
        term: Annotated[str | None,
                        Field(description="a word or phrase to count: whole words, case-insensitive")] = None,
    ) -> StatsOut:
        """Exact statistics over a document's full text (not retrieval): page count, word count,
        and, with a term, how many times it occurs and on which pages.

        Use it for questions like "how many times does the report mention X" or "how long is it";
        search only returns the top-ranked pages and cannot count."""
        with _agent_errors():  # a term is a search query: the same limit as REST's questions and `search`
            if term is not None:
                check_length(term, engine.settings.max_question_chars, "term")
            named(document)
            s = engine.stats(document, term)
        # the term comes back as counted, cut short: the caller knows what it sent
        return StatsOut(document=s.document, pages=s.pages, words=s.words,
                        term=clipped(s.term, TERM_ECHO_CHARS) if s.term is not None else None, count=s.count,
                        pages_with_term=list(s.pages_with_term))

    @tool('Show the evidence on the page')
    def show_evidence(
        document: DocumentArg,
        page: PageArg,
        quote: Annotated[str | None, Field(description="text on the page to box, e.g. a citation's quote")] = None,
        crop: Annotated[bool, Field(description="show only the boxed rows and about two inches above and below "
                                                "them, at the page's full width; false: the whole page")] = True,
        width: Annotated[int, Field(ge=300, le=2000, description="image width in pixels: larger shows small "
                                                                  "print better and costs more context")] = 1000,
    ) -> list[Image | TextContent]:
        """The page rendered as an image with the quote boxed in yellow (PNG, or JPEG when a PNG
        would be too large; under 100 kB as base64), followed by a line saying what was boxed and
        what is shown. With a quote the image is cropped to the boxed rows (crop=false for the whole
        page). Use it to look at a table or chart, or to show proof of a citation (pass its
        document, page and quote). Without a quote the whole page is shown unmarked."""
        from docqa.evidence import fit_image

        with _agent_errors():
            named(document)
            doc = engine.document(document)
            image = engine.evidence_image(doc.id, page, [quote] if quote else [])
        fitted = fit_image(image, crop=crop, width=width, max_bytes=MAX_IMAGE_BYTES)
        if quote and image.used != "quote":
            boxed = "the quote was not found on this page, so nothing is boxed"
        elif image.used == "none":
            boxed = "nothing boxed"
        else:
            boxed = f"boxed: {image.used} ({len(image.boxes)} box{'es' if len(image.boxes) != 1 else ''})"
        shown = "the boxed rows, cropped (crop=false for the whole page)" if fitted.cropped else "the whole page"
        caption = (f"{doc.file_name} page {page} of {doc.pages}; {boxed}; showing {shown}, "
                   f"{fitted.width}x{fitted.height} px {fitted.format.upper()}.")
        return [Image(data=fitted.data, format=fitted.format), TextContent(type="text", text=caption)]

    @server.resource("docqa://documents", name="documents", mime_type="application/json",
                     description="The indexed documents, as list_documents returns them.")
    def documents_resource() -> str:
        return list_documents().model_dump_json()

    @server.resource("docqa://documents/{document}/pages/{n}", name="page", mime_type="text/plain",
                     description="The text of page n (1-based) of an indexed document.")
    def page_resource(document: str, n: str) -> str:
        try:
            number = int(n)
        except ValueError as exc:
            raise ResourceNotFoundError(f"page must be a whole number, not {n!r}") from exc
        try:
            named(document)
            doc = engine.document(document)
            stored = engine.page(doc.id, number)
        except AmbiguousDocument as exc:
            raise ResourceNotFoundError(str(exc)) from exc
        except DocumentNotFound as exc:
            raise ResourceNotFoundError(str(_unknown_document(exc))) from exc
        except PageOutOfRange as exc:
            raise ResourceNotFoundError(str(_page_out_of_range(exc))) from exc
        header = f"{doc.file_name} — page {number} of {doc.pages}"
        return f"{header}\n\n{stored.text}"

    return server


# --- transports ------------------------------------------------------------------------------------


class BearerAuth:
    """ASGI middleware: every HTTP request needs ``Authorization: Bearer <token>``; 401 otherwise."""

    def __init__(self, app, token: str):
        self.app = app
        self._token = token.encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":  # lifespan: starts the session manager
            await self.app(scope, receive, send)
            return
        header = dict(scope.get("headers") or []).get(b"authorization", b"")
        scheme, _, given = header.partition(b" ")
        if scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self._token):
            await self.app(scope, receive, send)
            return
        body = json.dumps({
            "error": "invalid_token" if header else "unauthorized",
            "error_description": "send 'Authorization: Bearer <token>' with the server's DOCQA_MCP_TOKEN",
        }).encode()
        await send({"type": "http.response.start", "status": 401, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"www-authenticate", b'Bearer realm="docqa"'),
        ]})
        await send({"type": "http.response.body", "body": body})


def http_app(server: MCPServer, token: str | None, host: str = "127.0.0.1", allowed_hosts: str = ""):
    """The Streamable HTTP ASGI app at /mcp, behind the bearer check when a token is set; without
    one, behind the same Host/Origin guard as the web app (faces/origin.py; every method, as the
    MCP transport asks), which replaces the SDK's own so that DOCQA_ALLOWED_HOSTS applies."""
    if token:
        return BearerAuth(server.streamable_http_app(streamable_http_path=HTTP_PATH, host=host), token)
    from mcp.server.transport_security import TransportSecuritySettings

    app = server.streamable_http_app(
        streamable_http_path=HTTP_PATH, host=host,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))
    return SameOrigin(app, HostPolicy(host, allowed_hosts), all_methods=True)


async def _serve_http(server: MCPServer, host: str, port: int, token: str | None, allowed_hosts: str = "") -> None:
    import uvicorn

    config = uvicorn.Config(http_app(server, token, host, allowed_hosts), host=host, port=port, log_level="warning")
    await uvicorn.Server(config).serve()


def run_mcp(settings: Settings, http: bool = False, host: str = "127.0.0.1", port: int = 8765) -> None:
    """Open the index once and serve it over stdio, or Streamable HTTP with ``http=True``."""
    import anyio

    try:
        with contextlib.redirect_stdout(sys.stderr):  # stdout is the protocol's alone
            engine = Engine.open(settings)
            engine.load_model_in_background()  # the first question is answered at once, by words alone if need be
    except (EmbedderMismatch, ValueError) as exc:
        print(f"docqa mcp: {exc}", file=sys.stderr)
        raise SystemExit(2) from exc
    try:
        docs = engine.documents()
        if not docs:
            print(f"docqa mcp: warning: the index at {settings.index} holds no documents", file=sys.stderr)
        server = build_server(engine)
        if http:
            token = settings.mcp_token.get_secret_value() if settings.mcp_token else None
            if not token and host not in ("127.0.0.1", "localhost", "::1"):
                print(f"docqa mcp: warning: serving {host} without DOCQA_MCP_TOKEN: anyone who can reach it "
                      "can read the index", file=sys.stderr)
            print(f"docqa mcp: {len(docs)} document(s) from {settings.index} on http://{host}:{port}{HTTP_PATH}"
                  f" ({'bearer token required' if token else 'no token'})", file=sys.stderr, flush=True)
            anyio.run(_serve_http, server, host, port, token, settings.allowed_hosts)
        else:
            print(f"docqa mcp: {len(docs)} document(s) from {settings.index} over stdio", file=sys.stderr, flush=True)
            server.run("stdio")
    finally:
        engine.close()


__all__ = ["BearerAuth", "build_server", "http_app", "page_uri", "run_mcp"]
