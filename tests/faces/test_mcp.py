"""The MCP server, through real clients: the SDK's ClientSession over stdio and Streamable HTTP
(each against `python -m docqa mcp` in its own process), raw JSON-RPC lines over stdio, and the
MCP Inspector's CLI from npm (a client nobody here wrote).

One index of the bundled samples (lexical only, so no embedding model) serves the whole module;
each transport keeps one live session for all of its tests, which run once per transport.
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import functools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import asynccontextmanager
from pathlib import Path

import fitz
import httpx2
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests.conftest import require

TOOLS = {"list_documents", "search", "read_page", "ask", "document_stats", "show_evidence"}
TOKEN = "test-token-7f3a"
AMAZON = "AMAZON_2017_10K.pdf"
INCOME_PAGE = 38  # Amazon's consolidated statements of operations
INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"  # the version .ci/setup.d pre-installs


@pytest.fixture(scope="module")
def index_dir(lexical_engine) -> Path:
    """The bundled samples, lexical only (conftest builds it once per session: Engine.open(dense=False) + ingest).

    The servers under test open it in their own processes; this process only reads it.
    """
    names = {d.file_name for d in lexical_engine.documents()}
    assert {"ADOBE_2022_10K.pdf", AMAZON, "NETFLIX_2017_10K.pdf"} <= names
    return lexical_engine.settings.index


def server_env(token: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOCQA_")}
    if token:
        env["DOCQA_MCP_TOKEN"] = token
    return env


def server_args(index: Path, *extra: str) -> list[str]:
    return ["-m", "docqa", "mcp", "--index", str(index), *extra]


class LiveSession:
    """A ClientSession kept open on a background event loop, so that plain tests can share it.

    The session's contexts are entered and left by one task (anyio requires it); tests hand that
    task coroutine functions to run and wait for their results.
    """

    def __init__(self, connect):
        self._connect = connect
        self._loop = asyncio.new_event_loop()
        self._ready: concurrent.futures.Future = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._main(),), daemon=True)
        self._thread.start()
        self.init = self._ready.result(timeout=120)

    async def _main(self) -> None:
        self._jobs: asyncio.Queue = asyncio.Queue()
        try:
            async with self._connect() as session:
                init = await session.initialize()
                self._ready.set_result(init)
                while (job := await self._jobs.get()) is not None:
                    fn, done = job
                    try:
                        done.set_result(await fn(session))
                    except Exception as exc:  # handed to the waiting test
                        done.set_exception(exc)
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            else:
                raise

    def run(self, fn, timeout: float = 120):
        done: concurrent.futures.Future = concurrent.futures.Future()
        self._loop.call_soon_threadsafe(self._jobs.put_nowait, (fn, done))
        return done.result(timeout=timeout)

    def call(self, tool: str, arguments: dict | None = None):
        return self.run(lambda s: s.call_tool(tool, arguments or {}))

    def close(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._jobs.put_nowait, None)
            self._thread.join(timeout=30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the MCP server exited with {process.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(f"nothing listened on port {port} within {timeout}s")


@pytest.fixture(scope="module")
def http_server(index_dir, tmp_path_factory):
    """`docqa mcp --http` with DOCQA_MCP_TOKEN set, in its own process."""
    port = free_port()
    log = tmp_path_factory.mktemp("mcp-http") / "stderr.txt"
    with open(log, "w") as err:
        process = subprocess.Popen(
            [sys.executable, *server_args(index_dir, "--http", "--port", str(port))],
            env=server_env(TOKEN), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
        )
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def stdio_stderr(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("mcp-stdio") / "stderr.txt"


@pytest.fixture(scope="module", params=["stdio", "http"])
def session(request, index_dir, stdio_stderr) -> LiveSession:
    if request.param == "stdio":
        @asynccontextmanager
        async def connect():
            params = StdioServerParameters(command=sys.executable, args=server_args(index_dir), env=server_env())
            with open(stdio_stderr, "w") as errlog:
                async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as s:
                    yield s
    else:
        url = request.getfixturevalue("http_server")

        @asynccontextmanager
        async def connect():
            headers = {"Authorization": f"Bearer {TOKEN}"}
            async with (
                httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as http,
                streamable_http_client(url, http_client=http) as (read, write),
                ClientSession(read, write) as s,
            ):
                yield s

    live = LiveSession(connect)
    yield live
    live.close()


def data(result) -> dict:
    """A JSON tool result: one compact JSON text block, not repeated as structuredContent (docs/mcp.md)."""
    assert not result.is_error, result.content
    assert len(result.content) == 1 and result.content[0].type == "text"
    assert result.structured_content is None
    text = result.content[0].text
    assert "\n" not in text and not re.search(r'(?<!\\)": ', text), text[:200]  # compact: no indent, no spaces
    return json.loads(text)


def error_text(result) -> str:
    assert result.is_error, result
    return " ".join(c.text for c in result.content if c.type == "text")


def squash(text: str) -> str:
    return " ".join(text.split())


# --- the protocol ---------------------------------------------------------------------------------


def test_initialize_names_the_server_and_explains_the_tools(session):
    init = session.init
    assert init.server_info.name == "docqa"
    assert init.capabilities.tools is not None and init.capabilities.resources is not None
    assert "1-based" in init.instructions and "list_documents" in init.instructions


def test_tools_are_listed_with_typed_input_schemas(session):
    tools = {t.name: t for t in session.run(lambda s: s.list_tools()).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and len(tool.description) > 80, tool.name
        assert tool.annotations.read_only_hint is True  # `ask` logs nothing unless DOCQA_MCP_LOG_QUESTIONS
        assert tool.input_schema["type"] == "object"
    required = {name: set(t.input_schema.get("required", [])) for name, t in tools.items()}
    assert required == {
        "list_documents": set(), "search": {"query"}, "read_page": {"document", "page"}, "ask": {"question"},
        "document_stats": {"document"}, "show_evidence": {"document", "page"},
    }
    search = tools["search"].input_schema["properties"]
    assert search["k"] == {**search["k"], "type": "integer", "default": 8, "minimum": 1, "maximum": 50}
    assert search["mode"]["enum"] == ["hybrid", "lexical", "vector"]
    assert set(search) == {"query", "k", "mode", "company", "year", "doc_type", "document"}
    assert tools["read_page"].input_schema["properties"]["page"]["type"] == "integer"
    assert "1-based" in tools["read_page"].input_schema["properties"]["page"]["description"]
    # results are one compact JSON text block each: no output schema, so no structuredContent copy
    assert all(t.output_schema is None for t in tools.values())
    evidence = tools["show_evidence"].input_schema["properties"]
    assert evidence["crop"]["default"] is True and evidence["width"]["maximum"] == 2000


# --- every tool -----------------------------------------------------------------------------------


def test_list_documents(session):
    result = data(session.call("list_documents"))
    by_name = {d["document"]: d for d in result["documents"]}
    assert {"ADOBE_2022_10K.pdf", AMAZON, "NETFLIX_2017_10K.pdf"} <= set(by_name)
    amazon = by_name[AMAZON]
    assert amazon["company"].startswith("Amazon") and amazon["fiscal_year"] == 2017
    assert amazon["doc_type"] == "10k" and amazon["pages"] == 85 and amazon["chunks"] > 0
    assert result["count"] == len(result["documents"]) and result["hint"] is None


def test_search_returns_page_hits_with_filters(session):
    result = data(session.call("search", {"query": "Amazon total net sales 2017", "k": 5}))
    hits = result["hits"]
    assert 1 <= len(hits) <= 5 and [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    assert (hits[0]["document"], hits[0]["page"]) == (AMAZON, INCOME_PAGE)
    assert hits[0]["statement"] == "income" and hits[0]["year"] == 2017 and hits[0]["scores"]
    assert "net sales" in hits[0]["snippet"].lower()
    assert result["years"] == [2017] and any(c.startswith("Amazon") for c in result["companies"])

    netflix = data(session.call("search", {"query": "revenue", "k": 4, "company": "Netflix", "mode": "lexical"}))
    assert netflix["hits"] and {h["document"] for h in netflix["hits"]} == {"NETFLIX_2017_10K.pdf"}
    assert data(session.call("search", {"query": "revenue", "year": 2001}))["hits"] == []


def test_read_page_keeps_table_rows_and_names_neighbours(session):
    page = data(session.call("read_page", {"document": AMAZON, "page": INCOME_PAGE}))
    assert "Total net sales  107,006  135,987  177,866" in page["text"].splitlines()
    assert (page["previous_page"], page["next_page"], page["pages"]) == (37, 39, 85)
    assert page["statement"] == "income" and page["tables"][0]["unit"] == "in millions"
    first = data(session.call("read_page", {"document": "AMAZON_2017_10K", "page": 1}))  # '.pdf' optional
    assert first["previous_page"] is None and first["next_page"] == 2


def test_ask_returns_a_verified_answer_with_citations(session):
    answer = data(session.call("ask", {"question": "What was Amazon's total net sales in 2017?"}))
    assert answer["found"] is True and answer["verification"] in ("verified", "partial")
    assert answer["citations"] and answer["text"]
    assert any(c["document"] == AMAZON and "net sales" in c["quote"].lower() for c in answer["citations"])
    assert "177,866" in answer["text"]  # $ millions, Amazon's 2017 total net sales as printed on p.38
    for citation in answer["citations"]:  # every quote is on the page it cites
        page = data(session.call("read_page", {"document": citation["document"], "page": citation["page"]}))
        assert squash(citation["quote"]) in squash(page["text"])
    # quotes from different headings say what each is about (read off the page), beside the quote
    why = data(session.call("ask", {"question": "What drove Adobe's revenue growth in 2022?"}))
    assert len({c["about"] for c in why["citations"]}) > 1 and all(c["about"] for c in why["citations"]), why
    assert all(f"{c['about']}: \u201c{c['quote']}\u201d" in why["text"] for c in why["citations"])


def test_ask_not_found_is_a_result_not_an_error(session):
    answer = data(session.call("ask", {"question": "What was Amazon's total net sales?", "year": 1999}))
    assert answer["found"] is False and answer["verification"] == "not_found"
    assert answer["reason"] and answer["citations"] == []


def test_document_stats_counts_exactly(session):
    stats = data(session.call("document_stats", {"document": AMAZON, "term": "net sales"}))
    assert stats["pages"] == 85 and stats["words"] > 10_000
    assert stats["count"] >= len(stats["pages_with_term"]) > 0 and INCOME_PAGE in stats["pages_with_term"]
    plain = data(session.call("document_stats", {"document": AMAZON}))
    assert plain["count"] is None and plain["words"] == stats["words"]


def test_show_evidence_returns_a_bounded_image_with_the_quote_boxed(session):
    result = session.call("show_evidence", {"document": AMAZON, "page": INCOME_PAGE, "quote": "Total net sales"})
    assert not result.is_error, result.content
    image, caption = result.content
    assert image.type == "image" and image.mime_type in ("image/png", "image/jpeg")
    assert len(image.data) <= 100_000  # base64, as it lands in the model's context
    pixmap = fitz.Pixmap(base64.b64decode(image.data))  # decodes
    assert pixmap.width == 1000 and pixmap.height < pixmap.width  # cropped to the boxed rows, full width
    assert caption.type == "text" and "page 38 of 85" in caption.text and "boxed: quote" in caption.text
    assert "cropped" in caption.text and f"{pixmap.width}x{pixmap.height} px" in caption.text

    whole = session.call("show_evidence", {"document": AMAZON, "page": INCOME_PAGE, "quote": "Total net sales",
                                           "crop": False, "width": 600})
    page = fitz.Pixmap(base64.b64decode(whole.content[0].data))
    assert page.width == 600 and page.height > page.width and len(whole.content[0].data) <= 100_000
    assert "the whole page" in whole.content[1].text

    missing = session.call("show_evidence", {"document": AMAZON, "page": 1, "quote": "Total net sales"})
    assert "not found on this page" in missing.content[1].text


# --- errors an agent can act on -------------------------------------------------------------------


@pytest.mark.parametrize("tool, arguments", [
    ("read_page", {"document": "AMAZN_2017_10K", "page": 3}),
    ("document_stats", {"document": "AMAZN_2017_10K"}),
    ("show_evidence", {"document": "AMAZN_2017_10K", "page": 3}),
    ("search", {"query": "revenue", "document": "AMAZN_2017_10K"}),
    ("ask", {"question": "What was revenue?", "document": "AMAZN_2017_10K"}),
])
def test_unknown_document_lists_the_known_ones_closest_first(session, tool, arguments):
    text = error_text(session.call(tool, arguments))
    assert "Unknown document 'AMAZN_2017_10K'" in text
    listed = text.split("closest first:")[1]
    assert listed.index(AMAZON) < listed.index("NETFLIX_2017_10K.pdf")
    assert listed.index(AMAZON) < listed.index("ADOBE_2022_10K.pdf")


@pytest.mark.parametrize("tool", ["read_page", "show_evidence"])
@pytest.mark.parametrize("page", [0, 86, -3])
def test_page_out_of_range_gives_the_valid_range(session, tool, page):
    text = error_text(session.call(tool, {"document": AMAZON, "page": page}))
    assert "has pages 1-85" in text and f"page {page} does not exist" in text


@pytest.mark.parametrize("tool, arguments, says", [
    ("read_page", {"document": AMAZON, "page": "thirty-eight"}, "page"),
    ("read_page", {"document": AMAZON}, "page"),
    ("search", {"query": "revenue", "k": 0}, "k"),
    ("search", {"query": "revenue", "mode": "fuzzy"}, "mode"),
    ("search", {"query": "revenue", "mode": "vector"}, "vector search needs"),
    ("search", {"query": "  "}, "query must be a non-empty string"),
    ("search", {"query": "revenue", "year": "last year"}, "year"),
    ("ask", {"question": ["not", "a", "string"]}, "question"),
    ("ask", {"question": "revenue?", "doc_type": "annual"}, "doc_type"),
])
def test_bad_arguments_are_tool_errors_and_the_session_lives_on(session, tool, arguments, says):
    text = error_text(session.call(tool, arguments))
    assert says in text
    assert "pydantic" not in text and "http" not in text and "\n" not in text, text  # one sentence, no URL
    assert data(session.call("list_documents"))["count"] >= 3


def test_unknown_tool_is_an_error_not_a_crash(session):
    result = session.call("delete_everything", {})
    assert result.is_error and "delete_everything" in error_text(result)


# --- resources ------------------------------------------------------------------------------------


def test_pages_are_resources(session):
    first = session.run(lambda s: s.list_resources())
    uris = [str(r.uri) for r in first.resources]
    assert "docqa://documents" in uris
    assert any(u.endswith("/pages/1") for u in uris) and first.next_cursor
    second = session.run(lambda s: s.list_resources(params=_page(first.next_cursor)))
    assert second.resources and not set(map(str, (r.uri for r in second.resources))) & set(uris)

    templates = session.run(lambda s: s.list_resource_templates()).resource_templates
    assert [t.uri_template for t in templates] == ["docqa://documents/{document}/pages/{n}"]

    page = session.run(lambda s: s.read_resource(f"docqa://documents/{AMAZON}/pages/{INCOME_PAGE}"))
    assert "Total net sales  107,006  135,987  177,866" in page.contents[0].text
    listing = session.run(lambda s: s.read_resource("docqa://documents"))
    assert AMAZON in {d["document"] for d in json.loads(listing.contents[0].text)["documents"]}


def _page(cursor: str):
    from mcp_types import PaginatedRequestParams

    return PaginatedRequestParams(cursor=cursor)


def test_unknown_resource_says_what_exists(session):
    with pytest.raises(MCPError, match="Known documents, closest first: AMAZON_2017_10K.pdf"):
        session.run(lambda s: s.read_resource("docqa://documents/AMAZN/pages/1"))
    with pytest.raises(MCPError, match="has pages 1-85"):
        session.run(lambda s: s.read_resource(f"docqa://documents/{AMAZON}/pages/400"))
    with pytest.raises(MCPError, match="whole number"):
        session.run(lambda s: s.read_resource(f"docqa://documents/{AMAZON}/pages/last"))


# --- transport specifics --------------------------------------------------------------------------


def _post(url: str, headers: dict[str, str]):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}})
    request = urllib.request.Request(url, data=body.encode(), method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers})
    return urllib.request.urlopen(request, timeout=30)


@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token", f"Basic {TOKEN}", "Bearer"])
def test_http_without_the_token_is_401(http_server, authorization):
    with pytest.raises(urllib.error.HTTPError) as caught:
        _post(http_server, {"Authorization": authorization} if authorization else {})
    assert caught.value.code == 401
    assert caught.value.headers["WWW-Authenticate"].startswith("Bearer")
    assert "DOCQA_MCP_TOKEN" in json.loads(caught.value.read())["error_description"]


def test_http_with_the_token_initializes(http_server):
    with _post(http_server, {"Authorization": f"Bearer {TOKEN}"}) as response:
        assert response.status == 200 and response.headers["mcp-session-id"]


def test_stdio_writes_nothing_but_protocol_to_stdout(index_dir):
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "ask", "arguments": {"question": "What was Amazon's total net sales in 2017?"}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
         "params": {"name": "read_page", "arguments": {"document": "nope", "page": 1}}},
    ]
    process = subprocess.Popen(
        [sys.executable, *server_args(index_dir)], env=server_env(), stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    replies = []
    try:
        for message in messages:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
            if "id" in message:  # wait for each answer before the next request
                line = process.stdout.readline()
                replies.append(json.loads(line))
        process.stdin.close()
        rest = process.stdout.read()
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert [r["id"] for r in replies] == [1, 2, 3, 4] and all(r["jsonrpc"] == "2.0" for r in replies)
    assert rest.strip() == ""
    result = replies[2]["result"]
    assert "structuredContent" not in result and json.loads(result["content"][0]["text"])["found"] is True
    assert replies[3]["result"]["isError"] is True
    assert "over stdio" in process.stderr.read()


# --- a client nobody here wrote: the MCP Inspector's CLI --------------------------------------------


INSPECTOR_VERSION = INSPECTOR.rsplit("@", 1)[1]


@functools.lru_cache(maxsize=1)
def inspector_command() -> tuple[str, ...] | None:
    """The pinned Inspector's CLI as installed globally by .ci/setup.d (`make test-deps`): tests download nothing.

    The installed `mcp-inspector` binary is run directly: `npx --offline pkg@version` would ask npm's
    cache for the registry's answer about that version, which a global install does not leave there.
    """
    found = shutil.which("mcp-inspector")
    if found is None:
        return None
    try:
        done = subprocess.run([found, "--cli", "--version"], capture_output=True, text=True, timeout=120,
                              env={**os.environ, "npm_config_update_notifier": "false"})
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0 or done.stdout.strip() != INSPECTOR_VERSION:
        return None
    return (found, "--cli")


def inspector(*args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    command = inspector_command()
    require(command is not None, f"the MCP Inspector CLI ({INSPECTOR}, npm, as `mcp-inspector` on PATH)")
    env = {**server_env(), "npm_config_update_notifier": "false", "MCP_INSPECTOR_SECRET_STORE": "memory"}
    # The server's start (imports, opening the index) takes 20 s and more on a busy 2-core machine: the
    # Inspector's own 15 s connect timeout would fail a healthy server.
    return subprocess.run([*command, "--connect-timeout", "120000", *args],
                          env=env, capture_output=True, text=True, timeout=timeout)


def test_inspector_cli_lists_the_tools(index_dir):
    done = inspector("--strict", "--method", "tools/list", "--", sys.executable, *server_args(index_dir))
    assert done.returncode == 0, done.stderr
    tools = {t["name"]: t for t in json.loads(done.stdout)["tools"]}
    assert set(tools) == TOOLS
    assert tools["read_page"]["inputSchema"]["required"] == ["document", "page"]


def test_inspector_cli_calls_a_tool_over_http_with_the_token(http_server):
    done = inspector("--method", "tools/call", "--tool-name", "read_page", "--tool-arg", f"document={AMAZON}",
                     f"page={INCOME_PAGE}", "--header", f"Authorization: Bearer {TOKEN}", "--transport", "http",
                     http_server)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert not result.get("isError")
    assert "structuredContent" not in result
    assert "Total net sales  107,006  135,987  177,866" in json.loads(result["content"][0]["text"])["text"]


# --- in process: an empty index -------------------------------------------------------------------


def test_an_empty_index_says_how_to_fill_it(tmp_path):
    import anyio
    from mcp import Client

    from docqa import Engine
    from docqa.faces.mcp import build_server

    async def scenario(server):
        async with Client(server) as client:
            listed = data(await client.call_tool("list_documents", {}))
            missing = await client.call_tool("read_page", {"document": AMAZON, "page": 1})
            return listed, missing

    with Engine.open(tmp_path / "empty", dense=False) as engine:
        listed, missing = anyio.run(scenario, build_server(engine))
    assert listed["count"] == 0 and "docqa ingest" in listed["hint"]
    assert "the index is empty" in error_text(missing)


def test_docs_list_every_tool_with_the_description_the_model_reads(tmp_path):
    import anyio

    from docqa import Engine
    from docqa.faces.mcp import build_server

    docs = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text()
    with Engine.open(tmp_path / "empty", dense=False) as engine:
        tools = anyio.run(build_server(engine).list_tools)
    assert {t.name for t in tools} == TOOLS
    for tool in tools:
        assert f"### `{tool.name}(" in docs and tool.description in docs, tool.name


def test_ask_logs_questions_only_when_the_setting_is_on(tmp_path, sample_pdfs):
    """Read-only by default: `ask` writes nothing to the question log; DOCQA_MCP_LOG_QUESTIONS=true logs it
    and then the tool no longer claims to be read-only."""
    import anyio
    from mcp import Client

    from docqa import Engine
    from docqa.faces.mcp import build_server

    netflix = next(p for p in sample_pdfs if p.name == "NETFLIX_2017_10K.pdf")

    async def scenario(server):
        async with Client(server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            await client.call_tool("ask", {"question": "What was Netflix's revenue in 2017?"})
            return tools["ask"].annotations

    with Engine.open(tmp_path / "index", dense=False) as engine:
        engine.ingest([netflix])
        annotations = anyio.run(scenario, build_server(engine))
        assert annotations.read_only_hint is True and engine.store.questions() == []
    with Engine.open(tmp_path / "index", dense=False, mcp_log_questions=True) as engine:
        annotations = anyio.run(scenario, build_server(engine))
        logged = engine.store.questions()
    assert annotations.read_only_hint is False and annotations.destructive_hint is False
    assert [r.answer.question for r in logged] == ["What was Netflix's revenue in 2017?"]
    assert logged[0].filters == {"origin": "mcp"}  # history says which face asked it
