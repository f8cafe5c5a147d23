"""The commands that serve the index: `docqa mcp` to AI agents, `docqa serve` the web app and REST API."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from docqa.config import Settings
from docqa.faces.commands.opening import IndexOpt, existing_index


def mcp(
    http: bool = typer.Option(False, "--http", help="serve Streamable HTTP instead of stdio"),
    host: str = typer.Option("127.0.0.1"),
    port: int = typer.Option(8765),
    index: Optional[Path] = IndexOpt,
):
    """Serve the index to AI agents over MCP (stdio by default)."""
    from docqa.faces.mcp import run_mcp

    settings = existing_index(index)  # serving reads: a misspelt --index is an error, not a new empty index
    run_mcp(settings, http=http, host=host, port=port)


def serve(
    host: Optional[str] = typer.Option(None, help="default 127.0.0.1 ($DOCQA_HOST)"),
    port: Optional[int] = typer.Option(None, help="default 8000 ($DOCQA_PORT)"),
    workers: Optional[int] = typer.Option(None, min=0, help="answering processes; default one per core "
                                          "($DOCQA_WEB_WORKERS); uploads are indexed in one more"),
    index: Optional[Path] = IndexOpt,
):
    """Run the web app and REST API."""
    from docqa.faces.web.app import run_server

    settings = Settings()
    updates = {k: v for k, v in {"index": index, "host": host, "port": port, "web_workers": workers}.items()
               if v is not None}
    run_server(settings.with_(**updates) if updates else settings)
