"""The index's disk fills up while a file is indexed: the user reads "no space left on the index's disk"
and what to do (not SQLite's "cannot rollback - no transaction is active", which hid it), no copy of
the file is left in the index's files/ folder, and the index takes the file once there is room.

The full disk is injected (a SQLite connection that fails as SQLite does on a full disk, an ENOSPC
while the file is copied, tantivy's own message), and is also real where a small tmpfs can be mounted."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import fitz
import pytest
from typer.testing import CliRunner

from docqa.faces.cli import app as cli
from docqa.faces.commands.errors import EXIT_ERROR
from docqa.ingest import pipeline
from docqa.store import DiskFull, disk_full
from docqa.store.sqlite import SQLiteStore
from docqa.store.tantivy_lexical import TantivyLexical
from docqa.types import DocType
from tests.store.battery import CASH_FLOW, PROSE, make_document

SAYS = "no space left on the index's disk"


class FullDiskConnection:
    """A SQLite connection whose disk is full once the chunks' text is written: as SQLite does then,
    the transaction is already rolled back when "database or disk is full" is raised."""

    def __init__(self, real: sqlite3.Connection):
        object.__setattr__(self, "_real", real)

    def __getattr__(self, name):
        return getattr(self._real, name)

    def __setattr__(self, name, value):
        setattr(self._real, name, value)

    def execute(self, sql: str, *args):
        if sql.startswith("INSERT INTO chunks_fts"):
            self._real.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self._real.execute(sql, *args)


@pytest.fixture
def full_database(monkeypatch):
    """Every index SQLite file opened from now on sits on a full disk."""
    real_connect = sqlite3.connect

    def connect(path, *args, **kwargs):
        real = real_connect(path, *args, **kwargs)
        return FullDiskConnection(real) if str(path).endswith("docqa.sqlite") else real

    monkeypatch.setattr(sqlite3, "connect", connect)


def make_filing(path: Path, pages: int = 3, words: int = 80) -> Path:
    doc = fitz.open()
    for n in range(pages):
        page = doc.new_page()
        text = " ".join(f"ACME Corporation annual report 2023 page {n} item{n}w{i} revenue" for i in range(words // 8))
        page.insert_textbox(fitz.Rect(50, 50, 560, 780), text, fontsize=8)
    doc.save(path, garbage=4, deflate=True)
    return path


def cli_ingest(pdf: Path, index: Path, lexical: str = "fts5"):
    return CliRunner().invoke(cli, ["ingest", str(pdf), "--index", str(index)], prog_name="docqa",
                              env={"DOCQA_LEXICAL": lexical, "DOCQA_DENSE": "false"})


def files_left(index: Path) -> list[str]:
    folder = index / "files"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


# --- the store ---------------------------------------------------------------------------
@pytest.mark.parametrize("lexical", ["fts5", "tantivy"])
def test_the_store_raises_disk_full_not_the_rollback_error(tmp_path, full_database, lexical):
    store = SQLiteStore(tmp_path / "docqa.sqlite", lexical=lexical)
    with pytest.raises(DiskFull) as raised:
        store.add_document(*make_document("aaaa1111", "ACME", 2023, DocType.ANNUAL, [CASH_FLOW, PROSE]))
    assert isinstance(raised.value, OSError) and raised.value.errno == errno.ENOSPC
    assert "database or disk is full" in str(raised.value.__cause__)
    assert SAYS in str(raised.value) and str(tmp_path) in str(raised.value)
    assert store.documents() == [] and store.delete_document("aaaa1111") is False  # still usable
    store.close()


def test_tantivy_out_of_space_is_disk_full_too(tmp_path, monkeypatch):
    """tantivy (Rust) says ENOSPC only in its message, as a ValueError."""
    store = SQLiteStore(tmp_path / "docqa.sqlite", lexical="tantivy")

    def full(self, documents):
        raise ValueError("An IO error occurred: 'No space left on device (os error 28)'")

    monkeypatch.setattr(TantivyLexical, "replace", full)
    with pytest.raises(DiskFull):
        store.add_document(*make_document("aaaa1111", "ACME", 2023, DocType.ANNUAL, [PROSE]))
    monkeypatch.undo()
    assert store.documents() == []  # the SQLite half was rolled back with it
    store.close()


@pytest.mark.parametrize("error, full", [
    (OSError(errno.ENOSPC, "No space left on device"), True),
    (OSError(errno.EDQUOT, "Disk quota exceeded"), True),
    (sqlite3.OperationalError("database or disk is full"), True),
    (ValueError("An IO error occurred: 'No space left on device (os error 28)'"), True),
    (OSError(errno.EACCES, "Permission denied"), False),
    (sqlite3.OperationalError("database is locked"), False),
])
def test_what_says_the_disk_is_full(error, full):
    assert (disk_full(error) is not None) is full


def test_disk_full_survives_a_worker_process():
    import pickle

    again = pickle.loads(pickle.dumps(DiskFull("/idx")))
    assert isinstance(again, DiskFull) and again.where == "/idx" and again.errno == errno.ENOSPC


# --- the kept copy -----------------------------------------------------------------------
def test_no_copy_is_left_when_the_document_cannot_be_written(tmp_path, full_database):
    pdf = make_filing(tmp_path / "acme.pdf")
    index = tmp_path / "index"
    result = cli_ingest(pdf, index)
    assert result.exit_code == EXIT_ERROR, result.output
    assert SAYS in result.stderr and "free some space" in result.stderr
    assert "cannot rollback" not in result.output and "Traceback" not in result.output
    assert len([line for line in result.stderr.splitlines() if "error" in line]) == 1
    assert files_left(index) == []


def test_no_half_copy_is_left_when_the_copy_meets_a_full_disk(tmp_path, monkeypatch):
    pdf = make_filing(tmp_path / "acme.pdf")
    index = tmp_path / "index"

    def half_then_full(src, dst, length=0):
        dst.write(src.read(1000))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pipeline.shutil, "copyfileobj", half_then_full)
    result = cli_ingest(pdf, index)
    assert result.exit_code == EXIT_ERROR, result.output
    assert SAYS in result.stderr and "Traceback" not in result.output
    assert files_left(index) == []
    monkeypatch.undo()
    again = cli_ingest(pdf, index)  # room again: the same command now indexes the file
    assert again.exit_code == 0 and "1 indexed" in again.stdout, again.output
    assert len(files_left(index)) == 1


# --- a real full disk ---------------------------------------------------------------------
@pytest.fixture
def small_disk(tmp_path):
    """A 2 MB tmpfs, when this machine lets the test mount one (root, outside most sandboxes)."""
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", f"docqa-test-{uuid.uuid4().hex[:6]}", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


@pytest.mark.parametrize("lexical", ["fts5", "tantivy"])
def test_a_real_full_disk(tmp_path, small_disk, lexical):
    # 400 pages of distinct words: a small PDF (its text compressed) that needs far more than 2 MB indexed
    pdf = make_filing(tmp_path / "acme.pdf", pages=400, words=400)
    assert pdf.stat().st_size < 1_000_000
    index = small_disk / "index"
    done = subprocess.run([sys.executable, "-m", "docqa.faces.cli", "ingest", str(pdf), "--index", str(index)],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "DOCQA_LEXICAL": lexical, "DOCQA_DENSE": "false"})
    assert done.returncode == EXIT_ERROR, done.stdout + done.stderr
    assert SAYS in done.stderr and "Traceback" not in done.stderr and "cannot rollback" not in done.stderr
    assert files_left(index) == []
