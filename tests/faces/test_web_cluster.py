"""The web app's background ingestion on a Dask cluster (DOCQA_INGEST_CLUSTER): an upload is built
by ingest/parallel.py's path on the scheduler and keeps the name the person gave it."""

from __future__ import annotations

import hashlib
import shutil
import time

import pytest

pytest.importorskip("distributed")

from docqa.config import Settings  # noqa: E402
from docqa.engine import Engine  # noqa: E402
from docqa.app.ingestjobs import IngestWorker, job_id_for, now  # noqa: E402
from docqa.types import Job  # noqa: E402
from tests.conftest import SAMPLES  # noqa: E402

NETFLIX = SAMPLES / "NETFLIX_2017_10K.pdf"


def test_an_upload_is_built_on_the_configured_cluster(tmp_path):
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        settings = Settings(index=tmp_path / "index", dense=False, ingest_cluster=cluster.scheduler_address)
        with Engine.open(settings) as engine:
            uploads = settings.index / "uploads"
            uploads.mkdir(parents=True)
            sha = hashlib.sha256(NETFLIX.read_bytes()).hexdigest()
            stored = uploads / f"{job_id_for(sha)}.pdf"
            shutil.copyfile(NETFLIX, stored)
            def serial(*args, **kwargs):
                raise AssertionError("indexed in this process, not on the cluster")

            engine.ingest_file = serial  # the serial path must not be taken when a cluster is configured
            worker = IngestWorker(engine, uploads)
            stamp = now()
            worker.submit(Job(id=job_id_for(sha), file_name="Netflix annual report.pdf", stored_path=str(stored),
                              sha256=sha, pages_total=73, created_at=stamp, updated_at=stamp))
            worker.start()
            try:
                deadline = time.monotonic() + 240
                while time.monotonic() < deadline:
                    job = engine.store.job(job_id_for(sha))
                    if job.status in ("ready", "failed"):
                        break
                    time.sleep(0.5)
            finally:
                worker.stop(timeout=10)
            assert job.status == "ready", job.reason
            doc = engine.document("Netflix annual report.pdf")  # the name given, not the server's file name
            assert doc.pages == 73 and doc.chunks > 0
            assert not stored.exists() and not any(p.name.startswith(".job-") for p in uploads.iterdir())
