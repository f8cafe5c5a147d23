"""The web app: the REST API (api.py, questions.py), the error replies (errors.py), the OpenAPI document
(openapi.py), the page and its health check (pages.py) and the background ingest worker (jobs.py).

Safe by default: binds 127.0.0.1; when ``DOCQA_API_TOKEN`` (or ``DOCQA_API_TOKENS``) is set every /api
call needs ``Authorization: Bearer <token>``; request bodies have limits (guard.py); uploads are stored
under names the server chooses.
"""

from __future__ import annotations

import ipaddress
import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI

import docqa
from docqa.config import Settings
from docqa.engine import Engine
from docqa.faces.origin import HostPolicy, SameOrigin
from docqa.faces.web.api import router
from docqa.faces.web.conversations import router as conversations_router
from docqa.faces.web.viewer_api import router as viewer_router
from docqa.faces.web.errors import install_error_handlers
from docqa.faces.web.guard import Guard
from docqa.faces.web.jobs import IngestWorker
from docqa.faces.web.openapi import DESCRIPTION, fit_openapi
from docqa.faces.web.pages import include_pages
from docqa.faces.web.questions import router as questions_router

log = logging.getLogger(__name__)


def _lifespan(engine: Engine, ingest: IngestWorker, owns_engine: bool, worker: bool, preload_model: bool):
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if preload_model:  # a thread: the first question is answered at once, by words alone if need be
            engine.load_model_in_background()
        if worker:
            ingest.start()
        try:
            yield
        finally:
            ingest.stop(timeout=2.0)
            thread = ingest._thread
            if owns_engine and (thread is None or not thread.is_alive()):
                engine.close()

    return lifespan


def create_app(settings: Settings | None = None, engine: Engine | None = None, worker: bool = True,
               preload_model: bool = False) -> FastAPI:
    """The ASGI app. Opens the index from ``settings`` unless an engine is given; ``worker`` starts ingestion;
    ``preload_model`` loads the sentence model in the background at start (answers meanwhile say so)."""
    settings = settings or Settings()
    owns_engine = engine is None
    engine = engine or Engine.open(settings)
    settings = engine.settings
    uploads_dir = settings.index / "uploads"
    ingest = IngestWorker(engine, uploads_dir)

    app = FastAPI(title="docqa", version=docqa.__version__, description=DESCRIPTION,
                  lifespan=_lifespan(engine, ingest, owns_engine, worker, preload_model))
    app.state.engine = engine
    app.state.worker = ingest
    app.state.settings = settings
    app.state.uploads_dir = uploads_dir

    token = bool(settings.bearer_tokens)
    app.add_middleware(Guard, settings=settings)
    if not token:  # no token: only this machine's own pages may reach it (DNS rebinding, cross-site forms)
        app.add_middleware(SameOrigin, policy=HostPolicy(settings.web.host, settings.web.allowed_hosts))

    install_error_handlers(app)
    app.include_router(router)
    app.include_router(questions_router)
    app.include_router(conversations_router)
    app.include_router(viewer_router)
    fit_openapi(app, token_required=bool(token), max_question_chars=settings.limits.max_question_chars)
    include_pages(app)
    return app


def _is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run_server(settings: Settings) -> None:
    """``docqa serve``: the app on settings.web.host:settings.web.port (127.0.0.1:8000 unless told otherwise)."""
    logging.getLogger("docqa").setLevel(logging.INFO)
    if not _is_loopback(settings.web.host) and not settings.bearer_tokens:
        log.warning("serving on %s without DOCQA_API_TOKEN: anyone who can reach this address can upload, "
                    "ask and delete; set DOCQA_API_TOKEN", settings.web.host)
    from docqa.faces.web.serving import answer_workers, run

    shown = f"[{settings.web.host}]" if ":" in settings.web.host else settings.web.host
    workers = answer_workers(settings)
    processes = f" · {workers} answering processes + 1 indexing" if workers > 1 else ""
    print(f"docqa: index {settings.index} · open http://{shown}:{settings.web.port}/{processes}", flush=True)
    run(settings)
