"""The web app's background ingestion is an engine use case now: docqa.app.ingestjobs. Kept so that
``from docqa.faces.web.jobs import IngestWorker`` (serving.py, tests) goes on working."""

from docqa.app.ingestjobs import MAX_ATTEMPTS, PROGRESS_EVERY_S, STORE_RETRY_S, IngestWorker, job_id_for, now

__all__ = ["MAX_ATTEMPTS", "PROGRESS_EVERY_S", "STORE_RETRY_S", "IngestWorker", "job_id_for", "now"]
