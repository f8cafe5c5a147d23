"""Ingest on many workers: local processes (``--workers N``) or a Dask cluster (``--cluster``).

One task function, ``build_document``, runs on a worker: parse -> metadata -> chunk -> tables ->
embed (the same ``Ingestor._build`` the serial path runs), and returns a document ready to store.
Nothing on a worker touches the store: the client writes each document as it comes back, in one
transaction per document (``Store.add_document``), so a worker that dies mid-file leaves nothing
half-written, and the file is built again (``retries``).

Before any work is shipped, each file's sha256 is looked up in the store: unchanged files are
skipped on the client. Files with the same bytes are shipped once, the largest first so that no
worker is left with a long file at the end.

``--workers N`` runs N plain worker processes on this machine (``concurrent.futures``, forked):
a Dask ``LocalCluster`` measured slower than serial on 2 cores (0.64x: its
scheduler, nannies and event loops compete with the workers for the same two cores, and it takes
seconds to start), while a process pool costs next to nothing beside the work. A worker that dies
breaks the pool: the files not yet back are built again on a fresh one. ``--cluster
tcp://host:8786`` (or a ``client``) runs on Dask; a scheduler that cannot be reached fails within
``connect_timeout`` seconds, naming the address. Workers of a local scheduler read the files by
path; workers of a remote cluster get the file's bytes (they need not share a filesystem).
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import urlsplit

from docqa.ingest.html import is_html
from docqa.ingest.parse import ParseError, open_pdf
from docqa.ingest.pipeline import (IngestOptions, Ingestor, Progress, expand_paths, file_sha256, failure_reason,
                                   read_again_note, unique_name)
from docqa.store.base import StoredPage
from docqa.types import Chunk, Document, FileOutcome, IngestReport

log = logging.getLogger(__name__)

TOTAL = "all files"  # the progress line that counts pages done across workers


class ClusterUnavailable(RuntimeError):
    """The Dask scheduler cannot be reached."""


@dataclass
class Built:
    """What a worker sends back: a document ready to store, or why the file failed."""

    document: Document | None = None
    pages: list[StoredPage] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    vectors: Any = None  # numpy array, one row per chunk, when embedding
    bodies: list[str] | None = None  # each chunk's lexical text (store.base.indexed_body)
    warnings: list[str] = field(default_factory=list)
    stage_seconds: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0
    error: str | None = None
    worker: str = ""


def build_document(source: str | bytes, suffix: str, sha: str, name: str, options: IngestOptions,
                   embedder: tuple[str, int] | None) -> Built:
    """The task: one file (a path the worker can read, or its bytes) -> Built. Runs on a worker."""
    started = time.perf_counter()
    model = None
    if embedder is not None:
        from docqa.embed import get_embedder

        model = get_embedder(*embedder)  # loaded once per worker process
    builder = Ingestor(None, model, Path(tempfile.gettempdir()), options)  # no store: nothing is written here
    tmp = None
    try:
        if isinstance(source, bytes):
            fd, tmp = tempfile.mkstemp(prefix="docqa-", suffix=suffix)
            with os.fdopen(fd, "wb") as fh:
                fh.write(source)
            path = Path(tmp)
        else:
            path = Path(source)
        document, pages, chunks, vectors, warnings, bodies = builder._build(path, sha, name, None)
    except ParseError as exc:
        return Built(error=str(exc), seconds=time.perf_counter() - started, worker=_worker_name())
    finally:
        if tmp:
            os.unlink(tmp)
    return Built(document=document, pages=[p.packed() for p in pages], chunks=chunks, vectors=vectors, bodies=bodies,
                 warnings=list(warnings), stage_seconds=dict(builder.stage_seconds), seconds=time.perf_counter() - started,
                 worker=_worker_name())


def _worker_name() -> str:
    if "distributed" in sys.modules:  # a Dask worker; importing it in a local pool's worker took 1.7 s of CPU
        try:
            from distributed import get_worker

            return get_worker().address
        except Exception:
            pass
    return f"pid {os.getpid()}"


def _start_worker(workers: int = 1) -> None:
    """Each worker computes on one core: the numeric libraries' own thread pools (torch, BLAS, when
    embedding) would otherwise put N x cores threads on the machine's cores. OCR likewise: a worker's
    OCR pool is its share of the cores (none, when there are no more cores than workers: it reads
    its pages itself), unless DOCQA_OCR_WORKERS says otherwise. A pool of one process per core in
    each worker put 2 x cores OCR processes and their tesseracts on the cores, and twice the memory.

    The parent's objects a forked worker inherits are frozen: the garbage collector then never walks
    them, and a walk writes to every page it reads, so each worker copied the parent's heap."""
    gc.freeze()
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[name] = "1"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    os.environ.setdefault("DOCQA_OCR_WORKERS", str(max(1, cores // max(1, workers))))
    torch = sys.modules.get("torch")
    if torch is not None:  # imported before the fork (the embedder loaded in the parent): too late for the variables
        torch.set_num_threads(1)


def _pool(workers: int) -> ProcessPoolExecutor:
    # Forked workers start in milliseconds with the ingest code already imported, and do not run
    # the caller's main module again (a fork server or spawn would: an unguarded script calling
    # ingest_parallel would start over in every worker). The pool forks all its workers at once,
    # before its own thread starts; workers touch nothing of the parent's but the task.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method),
                               initializer=_start_worker, initargs=(workers,))


def connect(workers: int | None = None, cluster: str | None = None, connect_timeout: float = 5.0):
    """A Dask client, and the LocalCluster it owns (None for a remote scheduler)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("parallel ingest needs the 'cluster' extra: pip install -e '.[cluster]'") from exc
    if cluster:
        try:
            return Client(cluster, timeout=connect_timeout, set_as_default=False), None
        except (OSError, TimeoutError) as exc:
            raise ClusterUnavailable(
                f"cannot reach the Dask scheduler at {cluster} within {connect_timeout:g} s ({exc}); "
                "start one (`dask scheduler`, docs/cluster.md) or leave out --cluster"
            ) from exc
    n = max(1, int(workers or 1))
    local = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                         dashboard_address=None, silence_logs=logging.WARNING)
    return Client(local, set_as_default=False), local


def _is_local(client) -> bool:
    host = urlsplit(client.scheduler.address).hostname or ""
    return host in ("127.0.0.1", "localhost", "::1")


def run_parallel(
    ingestor: Ingestor,
    paths: Iterable[str | Path],
    *,
    workers: int | None = None,
    cluster: str | None = None,
    client=None,
    embedder: tuple[str, int] | None = None,
    progress: Progress | None = None,
    connect_timeout: float = 5.0,
    retries: int = 2,
) -> IngestReport:
    """Like ``Ingestor.run``, with the building of each document on worker processes: ``workers``
    local ones, or a Dask cluster (``cluster`` address or ``client``)."""
    files, failed = expand_paths(paths)
    outcomes: dict[Path, FileOutcome] = {}
    todo: dict[str, list[Path]] = {}  # sha -> files with those bytes (the first one is built)
    again: dict[str, tuple[str, int]] = {}  # sha -> (stored name, pages to read by OCR) of a document read again
    for path in files:
        try:
            sha = file_sha256(path)
        except OSError as exc:
            outcomes[path] = FileOutcome(path=str(path), status="failed", reason=f"cannot read file: {exc}")
            continue
        existing = ingestor.store.document_by_sha(sha)
        if existing is not None and (unread := ingestor.unread_pages(existing, path)):
            again[sha] = (existing.file_name, unread)  # read again (OCR can read it now), under its name
        elif existing is not None:  # unchanged: skipped before any work is shipped
            outcomes[path] = FileOutcome(
                path=str(path), status="skipped", reason=f"unchanged: already indexed as {existing.file_name}",
                document_id=existing.id, pages=existing.pages, chunks=existing.chunks,
            )
            continue
        todo.setdefault(sha, []).append(path)
    if todo and client is None and not cluster:
        _build_local(ingestor, max(1, int(workers or os.cpu_count() or 1)), todo, outcomes, embedder, progress,
                     retries, again)
    elif todo:
        own = client is None
        local = None
        if own:
            client, local = connect(workers, cluster, connect_timeout)
        try:
            _build_all(ingestor, client, todo, outcomes, embedder, progress, retries, again)
        finally:
            if own:
                client.close()
                if local is not None:
                    local.close()
    ordered = [outcomes[p] for p in files]
    return IngestReport(files=tuple(failed + ordered), stage_seconds=dict(ingestor.stage_seconds))


def _page_count(path: Path) -> int:
    if is_html(path):
        return 0
    try:
        with open_pdf(path) as doc:
            return doc.page_count
    except ParseError:
        return 0


class _Collector:
    """The client's side of a parallel run, whoever the workers are: display names given in file
    order (as the serial run gives them), documents stored as they come back, progress across
    workers."""

    def __init__(self, ingestor: Ingestor, todo: dict[str, list[Path]], outcomes: dict[Path, FileOutcome],
                 progress: Progress | None, again: dict[str, tuple[str, int]] | None = None):
        self.ingestor, self.todo, self.outcomes, self.progress = ingestor, todo, outcomes, progress
        self.again = again or {}
        self.totals = {sha: _page_count(paths[0]) for sha, paths in todo.items()}
        self.pages_total, self.pages_done = sum(self.totals.values()), 0
        taken = [d.file_name for d in ingestor.store.documents()]  # display names stay unique (unique_name)
        self.names: dict[str, str] = {}
        for sha, paths in todo.items():
            self.names[sha] = self.again[sha][0] if sha in self.again else unique_name(paths[0].name, taken)
            taken.append(self.names[sha])
        if progress:
            progress(TOTAL, 0, self.pages_total)

    def largest_first(self) -> list[str]:
        return sorted(self.todo, key=lambda sha: -(self.totals[sha] or self.todo[sha][0].stat().st_size // 50_000))

    def done(self, sha: str, built: Built) -> None:
        ingestor, paths = self.ingestor, self.todo[sha]
        for stage, seconds in built.stage_seconds.items():
            ingestor.stage_seconds[stage] += seconds
        first, rest = paths[0], paths[1:]
        if sha in self.again and built.error is None:
            built.warnings = [read_again_note(self.again[sha][1]), *built.warnings]
        self.outcomes[first] = _store(ingestor, first, sha, built)
        for other in rest:  # same bytes: as the serial run sees them, once the first is stored
            done = self.outcomes[first]
            self.outcomes[other] = done if done.status == "failed" else FileOutcome(
                path=str(other), status="skipped", reason=f"unchanged: already indexed as {first.name}",
                document_id=done.document_id, pages=done.pages, chunks=done.chunks)
        self.pages_done += self.totals[sha] or self.outcomes[first].pages
        if self.progress:
            self.progress(first.name, self.outcomes[first].pages, self.outcomes[first].pages)
            self.progress(TOTAL, self.pages_done, max(self.pages_total, self.pages_done))


def _build_local(ingestor: Ingestor, workers: int, todo: dict[str, list[Path]], outcomes: dict[Path, FileOutcome],
                 embedder, progress: Progress | None, retries: int, again: dict[str, tuple[str, int]]) -> None:
    collect = _Collector(ingestor, todo, outcomes, progress, again)
    pending = collect.largest_first()
    for attempt in range(retries + 1):
        broken: list[str] = []
        with _pool(min(workers, len(pending))) as pool:
            futures = {
                pool.submit(build_document, str(todo[sha][0]), todo[sha][0].suffix.lower(), sha, collect.names[sha],
                            ingestor.options, embedder): sha
                for sha in pending
            }
            for future in as_completed(futures):
                sha = futures.pop(future)  # a finished future holds its document: let it go once stored
                try:
                    built = future.result()
                except BrokenProcessPool:  # a worker died (killed, out of memory): this file is built again
                    broken.append(sha)
                    continue
                except Exception as exc:  # a bug on the worker: this file fails, the others go on
                    built = Built(error=f"worker failed: {type(exc).__name__}: {exc}".splitlines()[0])
                collect.done(sha, built)
        if not broken:
            return
        log.warning("a worker died; building %d file(s) again on a fresh pool", len(broken))
        pending = [sha for sha in collect.largest_first() if sha in broken]
    for sha in pending:
        collect.done(sha, Built(error=f"worker failed after {retries + 1} attempts: a worker process died"))


def _build_all(ingestor: Ingestor, client, todo: dict[str, list[Path]], outcomes: dict[Path, FileOutcome],
               embedder, progress: Progress | None, retries: int, again: dict[str, tuple[str, int]]) -> None:
    from distributed import as_completed as completed

    ship_paths = _is_local(client)
    collect = _Collector(ingestor, todo, outcomes, progress, again)
    futures = {}
    for sha in collect.largest_first():
        path = todo[sha][0]
        source = str(path) if ship_paths else client.scatter(path.read_bytes(), hash=False)
        future = client.submit(build_document, source, path.suffix.lower(), sha, collect.names[sha],
                               ingestor.options, embedder, key=f"docqa-build-{sha[:16]}-{time.time_ns()}",
                               retries=retries, pure=False)
        futures[future] = sha
    for future in completed(futures, loop=client.loop):
        sha = futures.pop(future)  # a finished future holds its document: let it go once stored
        try:
            built: Built = future.result()
        except Exception as exc:  # the task failed on every attempt (a worker died each time, or a bug)
            reason = f"worker failed after {retries + 1} attempts: {type(exc).__name__}: {exc}"
            built = Built(error=reason.splitlines()[0])
        collect.done(sha, built)


def _store(ingestor: Ingestor, path: Path, sha: str, built: Built) -> FileOutcome:
    """The client's half: keep a copy of the file and write the document in one transaction."""
    if built.error is not None:
        return FileOutcome(path=str(path), status="failed", reason=failure_reason(path, built.error))
    started = time.perf_counter()
    document = built.document.model_copy(update={"path": str(path)})
    refused = ingestor.store_document(path, sha, document, built.pages, built.chunks, built.vectors, built.bodies)
    if refused is not None:
        return refused
    return FileOutcome(
        path=str(path), status="indexed", document_id=document.id, pages=document.pages,
        chunks=len(built.chunks), seconds=round(built.seconds + time.perf_counter() - started, 2),
        warnings=tuple(built.warnings),
    )
