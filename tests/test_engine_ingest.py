"""Ingest through the Engine: mixed folders, idempotency, crash consistency, embedder identity."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from docqa import Engine
from docqa.store import EmbedderMismatch
from tests.conftest import SAMPLES


def test_mixed_folder_good_files_indexed_bad_files_explained(tmp_path, bad_files):
    folder = tmp_path / "inbox"
    folder.mkdir()
    for path in bad_files.values():
        shutil.copy(path, folder / path.name)
    shutil.copy(SAMPLES / "NETFLIX_2017_10K.pdf", folder / "whatever-name.pdf")
    engine = Engine.open(tmp_path / "index", dense=False)
    report = engine.ingest([folder])
    by_name = {Path(f.path).name: f for f in report.files}
    assert by_name["whatever-name.pdf"].status == "indexed"
    assert by_name["whatever-name.pdf"].pages > 50
    for name in ("notes.pdf", "corrupt.pdf", "locked.pdf", "empty.pdf", "zero-pages.pdf"):
        outcome = by_name[name]
        assert outcome.status == "failed", name
        assert outcome.reason and "\n" not in outcome.reason
    assert "password" in by_name["locked.pdf"].reason
    assert "not a PDF" in by_name["notes.pdf"].reason

    again = engine.ingest([folder])
    assert {f.status for f in again.files if Path(f.path).name == "whatever-name.pdf"} == {"skipped"}
    assert len(engine.documents()) == 1
    doc = engine.documents()[0]
    assert doc.meta.company and "netflix" in doc.meta.company.lower()  # read from the document, not the name


def test_cli_exit_code_1_when_nothing_ingested_3_when_some_failed(tmp_path, bad_files):
    env = {**os.environ, "DOCQA_DENSE": "false"}
    cmd = [sys.executable, "-m", "docqa", "ingest", "--index", str(tmp_path / "i")]
    bad = subprocess.run(cmd + [str(bad_files["not_pdf"])], env=env, capture_output=True, text=True)
    assert bad.returncode == 1
    assert "not a PDF" in bad.stdout
    good = subprocess.run(cmd + [str(bad_files["not_pdf"]), str(SAMPLES / "NETFLIX_2017_10K.pdf")],
                          env=env, capture_output=True, text=True)
    assert good.returncode == 3, good.stderr  # some files failed (README, "Exit codes")
    assert "1 indexed" in good.stdout and "1 of 2 file(s) failed" in good.stderr


def _consistent(index: Path) -> dict[str, int]:
    db = sqlite3.connect(index / "docqa.sqlite")
    docs = dict(db.execute("SELECT id, chunks FROM documents").fetchall())
    chunk_counts = dict(db.execute("SELECT document_id, count(*) FROM chunks GROUP BY document_id").fetchall())
    pages = dict(db.execute("SELECT document_id, count(*) FROM pages GROUP BY document_id").fetchall())
    fts = db.execute("SELECT count(*) FROM chunks_fts").fetchone()[0]
    db.close()
    assert chunk_counts == docs, "every chunk belongs to a whole document"
    assert set(pages) == set(docs)
    assert fts == sum(docs.values())
    return docs


def test_killed_mid_ingest_then_rerun_is_consistent(tmp_path):
    index = tmp_path / "index"
    env = {**os.environ, "DOCQA_DENSE": "false"}
    proc = subprocess.Popen([sys.executable, "-m", "docqa", "ingest", "--index", str(index), str(SAMPLES)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:  # kill as soon as the first document has landed
        if (index / "docqa.sqlite").exists():
            try:
                if _consistent(index):
                    break
            except sqlite3.OperationalError:
                pass
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = _consistent(index)
    assert len(partial) < 3
    engine = Engine.open(index, dense=False)
    report = engine.ingest([SAMPLES])
    assert {f.status for f in report.files} <= {"indexed", "skipped"}
    assert len(_consistent(index)) == 3


def test_index_refuses_another_embedder(tmp_path):
    engine = Engine.open(tmp_path / "i", embedder="hashing", dense=True)
    engine.ingest([SAMPLES / "NETFLIX_2017_10K.pdf"])
    assert engine.store.embedder_identity() == "hashing-256"
    engine.close()
    with pytest.raises(EmbedderMismatch, match="hashing-256"):
        Engine.open(tmp_path / "i", embedder="minilm", dense=True)
