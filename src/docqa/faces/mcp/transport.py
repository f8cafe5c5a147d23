"""How the MCP server is reached: stdio (nothing but protocol on stdout; logs go to stderr) or
Streamable HTTP on ``/mcp``, behind ``Authorization: Bearer <DOCQA_MCP_TOKEN>`` when that token is
set, else behind the web app's Host/Origin guard."""

from __future__ import annotations

import contextlib
import hmac
import json
import sys

from mcp.server.mcpserver import MCPServer

from docqa.app.errors import EmbedderMismatch
from docqa.config import Settings
from docqa.engine import Engine
from docqa.faces.mcp.server import build_server
from docqa.faces.origin import HostPolicy, SameOrigin
from docqa.faces.web.guard import BODY_METHODS, BodyLimit, body_limits, capped

HTTP_PATH = "/mcp"


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


class BodyCap:
    """ASGI middleware: a request body over the REST API's JSON limit (DOCQA_MAX_JSON_KB) is refused
    with 413 before it is read, as on the REST API (faces/web/guard.py)."""

    def __init__(self, app, limit: BodyLimit):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope.get("method") in BODY_METHODS:
            await capped(self.app, self.limit, scope, receive, send)
        else:
            await self.app(scope, receive, send)


def http_app(server: MCPServer, token: str | None, host: str = "127.0.0.1", allowed_hosts: str = "",
             settings: Settings | None = None):
    """The Streamable HTTP ASGI app at /mcp, behind the bearer check when a token is set; without
    one, behind the same Host/Origin guard as the web app (faces/origin.py; every method, as the
    MCP transport asks), which replaces the SDK's own so that DOCQA_ALLOWED_HOSTS applies. A body
    over the JSON limit is refused first, whoever sends it."""
    limit = body_limits(settings or Settings())[1]
    return BodyCap(_guarded(server, token, host, allowed_hosts), limit)


def _guarded(server: MCPServer, token: str | None, host: str, allowed_hosts: str):
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
            token = settings.mcp.mcp_token.get_secret_value() if settings.mcp.mcp_token else None
            if not token and host not in ("127.0.0.1", "localhost", "::1"):
                print(f"docqa mcp: warning: serving {host} without DOCQA_MCP_TOKEN: anyone who can reach it "
                      "can read the index", file=sys.stderr)
            print(f"docqa mcp: {len(docs)} document(s) from {settings.index} on http://{host}:{port}{HTTP_PATH}"
                  f" ({'bearer token required' if token else 'no token'})", file=sys.stderr, flush=True)
            anyio.run(_serve_http, server, host, port, token, settings.web.allowed_hosts)
        else:
            print(f"docqa mcp: {len(docs)} document(s) from {settings.index} over stdio", file=sys.stderr, flush=True)
            server.run("stdio")
    finally:
        engine.close()
