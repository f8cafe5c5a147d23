"""Background ingestion: uploaded files wait as jobs in the store and one worker thread indexes them
(on the Dask cluster at ``DOCQA_INGEST_CLUSTER`` when one is configured, ingest/parallel.py).

The job state lives in the store, not in memory, so a restart loses nothing: queued jobs are
picked up again, and a job that was ``processing`` when the server stopped is put back in the
queue with a note (and given up after ``MAX_ATTEMPTS`` interruptions, so one file that kills the
process cannot keep a server in a crash loop).

A job's id is the first 16 hex digits of the file's SHA-256, which is also the id the document
gets once indexed: a client follows one id from upload to answer.

A ready job's ``reason`` holds what indexing warned about (one warning per line: the file looks
truncated, pages without text), as the CLI prints them; a failed job's says why, in the words of
pipeline.failure_reason.
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import os
import shutil

from docqa.engine import Engine
from docqa.ingest.pipeline import failure_reason
from docqa.ingest.parallel import TOTAL
from docqa.store import StoreUnavailable
from docqa.types import FileOutcome, Job

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3
DISK_FULL_REASON = ("no space left on the index's disk: free some space there (or move DOCQA_INDEX to a disk with "
                    "room), then delete this upload and send it again")
PROGRESS_EVERY_S = 0.5  # at most this often a job's progress is written to the store
STORE_RETRY_S = 2.0  # how often a worker whose store is down tries it again


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def job_id_for(sha256: str) -> str:
    return sha256[:16]


class IngestWorker:
    """One thread that indexes queued jobs, oldest first. Questions are answered meanwhile."""

    def __init__(self, engine: Engine, uploads_dir: Path):
        self.engine = engine
        self.store = engine.store
        self.uploads_dir = uploads_dir
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()  # guards the check-then-write of job state against deletes
        self.current: str | None = None

    # --- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        self.recover()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="docqa-ingest", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop taking jobs. A job being indexed is left ``processing`` and retried on the next start."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def recover(self) -> list[Job]:
        """Put jobs that a stopped server left ``processing`` back in the queue (or fail them)."""
        changed = []
        for job in self.store.jobs():
            if job.status != "processing":
                continue
            if job.attempts >= MAX_ATTEMPTS:
                job = job.model_copy(update={
                    "status": "failed", "updated_at": now(),
                    "reason": f"indexing was interrupted {job.attempts} times (the server stopped while reading "
                              "this file); delete it and upload it again to retry",
                })
            else:
                job = job.model_copy(update={
                    "status": "queued", "pages_done": 0, "updated_at": now(),
                    "reason": "interrupted when the server stopped; queued again",
                })
            self.store.put_job(job)
            if job.status == "failed":  # as for any failed job: the upload goes (docs/web.md)
                self._remove_upload(job)
            changed.append(job)
            log.warning("job %s (%s): %s", job.id, job.file_name, job.reason)
        return changed

    # --- queue -------------------------------------------------------------------------------
    def submit(self, job: Job) -> None:
        self.store.put_job(job)
        self._wake.set()

    def cancel(self, job_id: str) -> bool:
        """Forget a job; a job being indexed finishes and its document is then removed."""
        with self._lock:
            job = self.store.job(job_id)
            if job is None:
                return False
            self.store.delete_job(job_id)
        if job.status != "processing":
            self._remove_upload(job)
        return True

    def _next(self) -> Job | None:
        return next((j for j in self.store.jobs() if j.status == "queued"), None)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                job = self._next()
            except StoreUnavailable as exc:
                log.warning("ingest worker: the store is unavailable (%s); waiting", exc)
                self._stop.wait(STORE_RETRY_S)
                continue
            except Exception:  # the store is closing
                log.exception("ingest worker: cannot read the job queue")
                job = None
            if job is None:
                self._wake.wait(1.0)
                self._wake.clear()
                continue
            try:
                self._process(job)
            except StoreUnavailable as exc:  # the database is down: the file is fine, try it again later
                log.warning("job %s waits for the store: %s", job.id, exc)
                self._requeue_when_store_is_back(job, f"retrying after the store was unavailable: {exc}")
            except Exception as exc:  # a bug in a stage must fail the job, not the worker
                if self._stop.is_set():
                    return  # shutting down (the store may be closed): the job is retried on the next start
                log.exception("job %s failed", job.id)
                full = isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)  # store.DiskFull too
                try:
                    self._finish(job.id, status="failed",
                                 reason=DISK_FULL_REASON if full else f"internal error while indexing: {exc}")
                except Exception:
                    log.exception("job %s: cannot record the failure", job.id)
            finally:
                self.current = None

    def _requeue_when_store_is_back(self, job: Job, reason: str) -> None:
        """Mark the job queued again, waiting for the store as long as it takes: while the store is
        down the job still reads ``processing`` there, and nothing else would ever pick it up."""
        while not self._stop.wait(STORE_RETRY_S):
            try:
                if self._update(job.id, status="queued", reason=reason, pages_done=0) is not None:
                    log.warning("job %s queued again: the store is back", job.id)
                return  # queued again, or deleted meanwhile
            except StoreUnavailable:
                continue
        # stopping: the job stays 'processing' in the store and recover() queues it on the next start

    def _update(self, job_id: str, **changes) -> Job | None:
        with self._lock:
            job = self.store.job(job_id)
            if job is None:  # deleted meanwhile
                return None
            job = job.model_copy(update={**changes, "updated_at": now()})
            self.store.put_job(job)
            return job

    def _finish(self, job_id: str, **changes) -> Job | None:
        job = self._update(job_id, **changes)
        if job is not None and job.status in ("ready", "failed"):
            self._remove_upload(job)
        return job

    def _remove_upload(self, job: Job) -> None:
        path = Path(job.stored_path)
        if path.parent == self.uploads_dir:  # only files this server wrote
            path.unlink(missing_ok=True)

    def _ingest(self, job: Job, path: Path, progress) -> FileOutcome:
        """The file indexed here, or built on the configured cluster (this process still writes)."""
        cluster = self.engine.settings.ingest.ingest_cluster
        if not cluster:
            return self.engine.ingest_file(path, display_name=job.file_name, progress=progress)
        # run_parallel names a document after its file: the upload is linked under its display name.
        named = self.uploads_dir / f".job-{job.id}" / job.file_name
        named.parent.mkdir(parents=True, exist_ok=True)
        try:
            named.unlink(missing_ok=True)
            try:
                os.link(path, named)
            except OSError:  # another file system: a copy then
                shutil.copyfile(path, named)

            def on_progress(name: str, done: int, total: int) -> None:
                if name == TOTAL:
                    progress(name, done, total)

            report = self.engine.ingest_parallel([named], cluster=cluster, progress=on_progress)
        finally:
            shutil.rmtree(named.parent, ignore_errors=True)
        return report.files[0] if report.files else FileOutcome(path=str(path), status="failed",
                                                                reason="the cluster returned nothing for this file")

    def _process(self, job: Job) -> None:
        self.current = job.id  # before the status changes, so 'processing' always has a current job
        job = self._update(job.id, status="processing", attempts=job.attempts + 1, pages_done=0, reason=None)
        if job is None:
            return
        path = Path(job.stored_path)
        if not path.exists():
            self._finish(job.id, status="failed", reason="the uploaded file is gone from the server; upload it again")
            return
        last = [0.0]

        def progress(_name: str, done: int, total: int) -> None:
            t = time.monotonic()
            if done >= total or t - last[0] >= PROGRESS_EVERY_S:
                last[0] = t
                self._update(job.id, pages_done=done, pages_total=total)

        outcome = self._ingest(job, path, progress)
        if outcome.status == "failed":
            reason = failure_reason(path, outcome.reason or "could not be indexed", job.file_name)
            finished = self._finish(job.id, status="failed", reason=reason)
        else:
            # "skipped": the same bytes were already indexed (by the CLI, or before a restart): ready all the same.
            document = self.store.document(outcome.document_id) if outcome.document_id else None
            pages = document.pages if document else outcome.pages
            finished = self._finish(job.id, status="ready", document_id=outcome.document_id, pages_done=pages,
                                    pages_total=pages, reason="\n".join(outcome.warnings) or None)
            if finished is None and outcome.status == "indexed" and outcome.document_id:
                # The user deleted the document while it was being indexed: honour that.
                self.engine.delete(outcome.document_id)
        if finished is None:
            self._remove_upload(job)
