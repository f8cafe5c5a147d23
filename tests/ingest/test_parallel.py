"""Ingest on a 2-worker Dask LocalCluster gives the serial run's index, chunk for chunk."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("distributed")

from docqa import Engine  # noqa: E402
from docqa.ingest.parallel import ClusterUnavailable, run_parallel  # noqa: E402
from tests.conftest import SAMPLES  # noqa: E402

FILES = [SAMPLES / "NETFLIX_2017_10K.pdf", SAMPLES / "ADOBE_2022_10K.pdf"]


@pytest.fixture(scope="module")
def cluster():
    from distributed import Client, LocalCluster

    local = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                         dashboard_address=None)
    client = Client(local, set_as_default=False)  # the code under test must not rely on a default client
    yield local, client
    client.close()
    local.close()


def _index(engine: Engine) -> dict:
    db = engine.store._db
    docs = {d.id: (d.file_name, d.sha256, d.pages, d.chunks, d.meta) for d in engine.documents()}
    chunks = [tuple(r) for r in db.execute(
        "SELECT id, document_id, page, ordinal, kind, text, bbox, section, statement, company, fiscal_year,"
        " doc_type FROM chunks ORDER BY id")]
    pages = [tuple(r) for r in db.execute("SELECT document_id, number, lines, info, tables FROM pages ORDER BY 1, 2")]
    return {"documents": docs, "chunks": chunks, "pages": pages}


def _assert_same_index(got, want, serial: Engine, parallel: Engine) -> int:
    """The parallel run reports and stores what the serial run did, chunk for chunk; returns its page total."""
    assert [(f.path, f.status, f.document_id, f.pages, f.chunks) for f in got.files] == [
        (f.path, f.status, f.document_id, f.pages, f.chunks) for f in want.files]
    assert {f.status for f in got.files} == {"indexed"}
    a, b = _index(serial), _index(parallel)
    assert a["documents"] == b["documents"]
    assert len(a["chunks"]) == len(b["chunks"]) > 100
    assert a["chunks"] == b["chunks"]  # same ids, texts, boxes and metadata, chunk for chunk
    assert a["pages"] == b["pages"]
    return sum(f.pages for f in want.files)


def test_two_workers_build_the_serial_index(tmp_path, cluster):
    local, client = cluster
    assert local.scheduler_address.startswith("tcp://127.0.0.1:")
    serial = Engine.open(tmp_path / "serial", dense=False)
    parallel = Engine.open(tmp_path / "parallel", dense=False)
    try:
        want = serial.ingest(FILES)
        seen: list[tuple[str, int, int]] = []
        got = parallel.ingest_parallel(FILES, cluster=local.scheduler_address,
                                       progress=lambda *a: seen.append(a))
        total = _assert_same_index(got, want, serial, parallel)
        assert ("all files", total, total) in seen  # pages done across workers
        workers = {w for w in client.run(lambda: 1)}
        assert len(workers) == 2
    finally:
        serial.close()
        parallel.close()


def test_unchanged_files_are_skipped_before_any_work_is_shipped(tmp_path, cluster):
    local, client = cluster
    engine = Engine.open(tmp_path / "i", dense=False)
    try:
        engine.ingest([FILES[0]])

        class NoClient:  # would fail if anything were shipped
            def __getattr__(self, name):
                raise AssertionError(f"work shipped: client.{name}")

        report = run_parallel(engine._ingestor(None), [FILES[0]], client=NoClient())
        assert [f.status for f in report.files] == ["skipped"]
        # the same bytes twice in one run are built once; the second is reported as the serial run would
        copy = tmp_path / "copy.pdf"
        copy.write_bytes(FILES[1].read_bytes())
        report = engine.ingest_parallel([FILES[1], copy], client=client)
        assert [f.status for f in report.files] == ["indexed", "skipped"]
        assert report.files[1].document_id == report.files[0].document_id
    finally:
        engine.close()


def test_bad_files_fail_on_workers_with_their_reason(tmp_path, cluster, bad_files):
    _, client = cluster
    engine = Engine.open(tmp_path / "i", dense=False)
    try:
        report = engine.ingest_parallel([bad_files["not_pdf"], bad_files["encrypted"]], client=client)
        assert [f.status for f in report.files] == ["failed", "failed"]
        assert "not a PDF" in report.files[0].reason and "password" in report.files[1].reason
    finally:
        engine.close()


def test_unreachable_scheduler_fails_in_seconds_naming_it(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    engine = Engine.open(tmp_path / "i", dense=False)
    try:
        start = time.monotonic()
        with pytest.raises(ClusterUnavailable, match=address):
            run_parallel(engine._ingestor(None), [FILES[0]], cluster=address, connect_timeout=2)
        assert time.monotonic() - start < 15
    finally:
        engine.close()
    cli = subprocess.run([sys.executable, "-m", "docqa", "ingest", str(FILES[0]), "--index", str(tmp_path / "c"),
                          "--cluster", address], capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "DOCQA_DENSE": "false"})
    assert cli.returncode == 2 and address in cli.stderr


# --------------------------------------------------------------------------- local worker processes (--workers N)

@pytest.fixture(scope="module")
def serial_index(tmp_path_factory):
    engine = Engine.open(tmp_path_factory.mktemp("serial") / "i", dense=False)
    report = engine.ingest(FILES)
    yield engine, report
    engine.close()


def test_local_workers_build_the_serial_index(tmp_path, serial_index):
    serial, want = serial_index
    parallel = Engine.open(tmp_path / "parallel", dense=False)
    try:
        seen: list[tuple[str, int, int]] = []
        got = parallel.ingest_parallel(FILES, workers=2, progress=lambda *a: seen.append(a))
        total = _assert_same_index(got, want, serial, parallel)
        assert ("all files", total, total) in seen
        assert got.stage_seconds["parse"] > 0  # the workers' stage times reach the report
        again = parallel.ingest_parallel(FILES, workers=2)
        assert [f.status for f in again.files] == ["skipped", "skipped"]
    finally:
        parallel.close()


def test_a_worker_killed_mid_file_leaves_nothing_half_written_and_the_file_is_built_again(
        tmp_path, serial_index, caplog, monkeypatch):
    import os
    import signal
    import threading

    import psutil

    from docqa.ingest import pipeline

    serial, _ = serial_index
    killed: list[int] = []

    # Each file's parse first spends a second of CPU, so a worker is always found mid-file: the
    # samples alone parse in well under a second on a fast machine. The workers are forked, so
    # they inherit the patch.
    real_parse = pipeline.parse_pdf

    def slow_parse(*args, **kwargs):
        spin = time.process_time() + 1.0
        while time.process_time() < spin:
            pass
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(pipeline, "parse_pdf", slow_parse)

    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}  # e.g. the Dask cluster of the tests above

    def kill_a_busy_worker():  # the pool's workers are the children this process forks from now on
        deadline = time.monotonic() + 120
        while not killed and time.monotonic() < deadline:
            for worker in me.children(recursive=True):
                if worker.pid in before:
                    continue
                try:
                    if worker.cpu_times().user > 0.3:  # well into a file (a forked worker starts in milliseconds)
                        os.kill(worker.pid, signal.SIGKILL)
                        killed.append(worker.pid)
                        return
                except psutil.NoSuchProcess:
                    pass
            time.sleep(0.05)

    engine = Engine.open(tmp_path / "i", dense=False)
    try:
        killer = threading.Thread(target=kill_a_busy_worker)
        killer.start()
        with caplog.at_level("WARNING", logger="docqa.ingest.parallel"):
            report = engine.ingest_parallel(FILES, workers=2)
        killer.join()
        assert killed, "no worker was killed: the test did not exercise a death"
        assert "a worker died" in caplog.text
        assert [f.status for f in report.files] == ["indexed", "indexed"]
        assert _index(engine) == _index(serial)
    finally:
        engine.close()
