"""How `docqa serve` runs: answering in several processes, indexing uploads in one more.

Answering is CPU-bound Python. Threads of one process share one core (the GIL), so with eight
clients while a filing was indexed in the same process, questions queued behind the indexing and
one sentence model: ask p95 18.7 s. Here uvicorn runs ``answer_workers`` processes that answer
(each loads its own sentence model in the background and answers by words alone until it is
loaded), and one more process indexes the uploads, by default at the answering processes' priority
(``web.ingest_nice``), so that under full load it still gets its share of the cores.

Exactly once: the job queue lives in the store, and only the process that holds the index
folder's ingest lock takes jobs from it (``IngestLock``), however many processes serve. An
answering process's upload only writes the job; the indexing process polls the queue every second.
"""

from __future__ import annotations

import ctypes
import fcntl
import json
import logging
import multiprocessing
import os
import signal
import sys
import threading
from pathlib import Path

from docqa.config import Settings

log = logging.getLogger(__name__)

SETTINGS_ENV = "DOCQA_SERVE_SETTINGS"  # the parent's settings (CLI flags included), for its children
PR_SET_PDEATHSIG = 1
# uvicorn kills an answering process that does not answer its ping within this many seconds; one
# that is opening the index on a machine at load average 12 took longer than uvicorn's 5.
WORKER_HEALTHCHECK_S = 60


def answer_workers(settings: Settings) -> int:
    return settings.web.web_workers or os.cpu_count() or 1


def settings_blob(settings: Settings) -> str:
    """The settings as JSON, groups nested and secrets in the clear: ``Settings(**json.loads(blob))`` gives them back."""
    def plain(value):
        if isinstance(value, dict):
            return {name: plain(v) for name, v in value.items()}
        if hasattr(value, "get_secret_value"):
            return value.get_secret_value()
        return str(value) if isinstance(value, Path) else value

    return json.dumps(plain(settings.model_dump()))


def settings_from_env() -> Settings:
    blob = os.environ.get(SETTINGS_ENV)
    return Settings(**json.loads(blob)) if blob else Settings()


def die_with_parent() -> None:
    """A child of `docqa serve` ends when it does, even on SIGKILL: no orphan keeps indexing or the port."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass


class IngestLock:
    """An exclusive lock on ``<index>/ingest.lock``: the one process that may take ingest jobs.

    The kernel releases it when the holder dies, however it dies.
    """

    def __init__(self, index: Path):
        self.path = Path(index) / "ingest.lock"
        self._fh = None

    def acquire(self, stop: threading.Event, poll_s: float = 1.0) -> bool:
        """Wait for the lock until ``stop`` is set; True once held."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = self.path.open("a")
        warned = False
        while not stop.is_set():
            try:
                fcntl.flock(self._fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self._fh.seek(0)
                self._fh.truncate()
                self._fh.write(f"{os.getpid()}\n")  # who indexes: for `ps` and the load benchmark
                self._fh.flush()
                return True
            except BlockingIOError:
                if not warned:
                    log.warning("another docqa process is indexing %s; this one waits to take over", self.path.parent)
                    warned = True
                stop.wait(poll_s)
        return False

    def release(self) -> None:
        if self._fh is not None:
            fcntl.flock(self._fh, fcntl.LOCK_UN)
            self._fh.close()
            self._fh = None


def ingest_main(blob: str) -> None:
    """The indexing process: takes jobs from the store's queue until the parent stops it."""
    die_with_parent()
    settings = Settings(**json.loads(blob))
    # At the answering processes' own priority by default: with a lower one, eight clients left the
    # indexer a few seconds of CPU a minute and an upload waited for the load to end.
    os.nice(settings.web.ingest_nice)
    logging.basicConfig(level=logging.INFO, format="docqa ingest: %(message)s")
    from docqa.embed import load_in_background
    from docqa.engine import Engine
    from docqa.app.ingestjobs import IngestWorker

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    engine = Engine.open(settings)
    ingest = settings.ingest
    if ingest.dense:  # chunks need vectors: load now (ingest.model_threads: one core by default)
        load_in_background(ingest.embedder, ingest.embed_max_tokens, ingest.model_threads or None)
    lock = IngestLock(settings.index)
    try:
        if not lock.acquire(stop):
            return
        worker = IngestWorker(engine, settings.index / "uploads")
        worker.start()
        stop.wait()
        worker.stop(timeout=2.0)
    finally:
        lock.release()
        engine.close()


def worker_app():
    """The uvicorn factory of an answering process (it takes no ingest jobs)."""
    from docqa.faces.web.app import create_app

    die_with_parent()
    logging.getLogger("docqa").setLevel(logging.INFO)
    return create_app(settings_from_env(), worker=False, preload_model=True)


def run(settings: Settings) -> None:
    """Serve on settings.web.host:settings.web.port: one process, or ``answer_workers`` plus one that indexes."""
    import uvicorn

    workers = answer_workers(settings)
    if workers == 1:
        from docqa.faces.web.app import create_app

        app = create_app(settings, preload_model=True)
        uvicorn.run(app, host=settings.web.host, port=settings.web.port, log_level="info", timeout_graceful_shutdown=5)
        return
    from docqa.engine import Engine

    Engine.open(settings).close()  # a wrong index or store fails here, once, not in every child
    blob = settings_blob(settings)
    os.environ[SETTINGS_ENV] = blob  # the answering processes are spawned: they read it from their environment
    indexer = Indexer(blob)
    indexer.start()
    try:
        uvicorn.run("docqa.faces.web.serving:worker_app", factory=True, workers=workers, host=settings.web.host,
                    port=settings.web.port, log_level="info", timeout_graceful_shutdown=5,
                    timeout_worker_healthcheck=WORKER_HEALTHCHECK_S)
    finally:
        indexer.stop()


class Indexer:
    """The indexing process, started again when it dies (a file that crashes the parser kills only
    it; its job is then retried up to the ingest worker's attempt limit)."""

    RESTART_AFTER_S = 2.0

    def __init__(self, blob: str):
        self.blob = blob
        self.process: multiprocessing.process.BaseProcess | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._keep_running, name="docqa-indexer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _keep_running(self) -> None:
        while not self._stop.is_set():
            self.process = multiprocessing.get_context("spawn").Process(
                target=ingest_main, args=(self.blob,), name="docqa-ingest")
            self.process.start()
            self.process.join()
            if not self._stop.is_set():
                log.warning("the indexing process exited (code %s); starting it again", self.process.exitcode)
                self._stop.wait(self.RESTART_AFTER_S)

    def stop(self) -> None:
        self._stop.set()
        if self.process is not None and self.process.is_alive():
            self.process.terminate()
            self.process.join(10)
            if self.process.is_alive():
                self.process.kill()
        self._thread.join(5)
