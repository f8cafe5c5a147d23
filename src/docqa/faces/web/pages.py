"""What the web app serves beside the API: the page itself (static/), and a health check for load balancers."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"


def healthz() -> dict:
    return {"status": "ok"}


def index() -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html")


def include_pages(app: FastAPI) -> None:
    """The page and the health check, routes of the app itself (after the API's), then its files under /static."""
    app.get("/healthz", include_in_schema=False)(healthz)
    app.get("/", include_in_schema=False)(index)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
