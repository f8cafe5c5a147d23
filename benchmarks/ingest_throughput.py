"""Ingest throughput: serial by stage, beside PyMuPDF's plain text rate, and on N worker processes.

    .venv/bin/python benchmarks/ingest_throughput.py --pdfs ../shared/data/pdfs --index /tmp/bench-index [--workers 2]
        [--files 10] [--dense [--cold]]

1. PyMuPDF alone: ``page.get_text()`` over every page, the floor any PDF parse pays (one core).
2. docqa serially (``Engine.ingest``) into an empty index folder (deleted first): pages/s overall
   and per stage (parse, metadata, chunk, tables, index).
3. With ``--workers N`` (default 2, 0 to skip): the same files into another empty index with
   ``Engine.ingest_parallel(workers=N)`` (local worker processes), its pages/s, the speedup over
   step 2, and a check that both indexes hold the same chunks (ids, texts) chunk for chunk.

Every run prints wall time, CPU time (this process and its worker processes) and the load
average, because the machine may be shared: wall time is only comparable on a quiet machine.
Peak memory is the largest sum of proportional set sizes (PSS: a page shared by k processes
counts 1/k in each) over this process and all its children, sampled every 0.1 s. The embedding cache is kept across runs unless --cold is given.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sqlite3
import threading
import time
from pathlib import Path

import fitz
import psutil

from docqa import Engine


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


class Meter:
    """Wall time, CPU time of this process and its children, peak total RSS, load average."""

    def __enter__(self):
        self.me = psutil.Process()
        self.cpu_seen: dict[int, float] = {}
        self.peak_rss = 0
        self.stop = threading.Event()
        self.own_cpu = time.process_time()
        self.wall = time.perf_counter()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()
        return self

    @staticmethod
    def _memory(process: psutil.Process) -> int:
        # PSS, not RSS: forked workers share the parent's pages, which RSS would count once per process
        try:
            return process.memory_full_info().pss
        except (AttributeError, psutil.AccessDenied):
            return process.memory_info().rss

    def _sample(self) -> None:
        while not self.stop.is_set():
            rss = self._memory(self.me)
            for child in self.me.children(recursive=True):
                try:
                    rss += self._memory(child)
                    t = child.cpu_times()
                    self.cpu_seen[child.pid] = t.user + t.system
                except psutil.NoSuchProcess:
                    pass
            self.peak_rss = max(self.peak_rss, rss)
            self.stop.wait(0.1)

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.wall
        self.own_cpu = time.process_time() - self.own_cpu
        self.stop.set()
        self.thread.join()
        self.cpu = self.own_cpu + sum(self.cpu_seen.values())
        self.load = os.getloadavg()[0]

    def line(self, pages: int) -> str:
        return (f"wall {self.wall:.1f} s = {pages / self.wall:.1f} pages/s; CPU {self.cpu:.1f} s "
                f"(= {pages / self.cpu:.1f} pages per CPU-second); peak memory {self.peak_rss / 2**20:.0f} MB "
                f"(PSS, this process and its children); load avg {self.load:.1f} at the end")


def chunk_rows(index: Path) -> list[tuple]:
    with sqlite3.connect(index / "docqa.sqlite") as db:
        return db.execute("SELECT id, document_id, page, ordinal, text FROM chunks ORDER BY id").fetchall()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdfs", type=Path, default=Path("../shared/data/pdfs"))
    ap.add_argument("--index", type=Path, default=Path("/tmp/docqa-bench-index"))
    ap.add_argument("--files", type=int, default=0, help="only the first N PDFs by name (0: all)")
    ap.add_argument("--workers", type=int, default=2, help="also ingest on N local worker processes (0: skip)")
    ap.add_argument("--dense", action="store_true", help="also embed chunks (the default index is lexical)")
    ap.add_argument("--cold", action="store_true", help="drop the embedding cache too")
    args = ap.parse_args()
    files = sorted(args.pdfs.glob("*.pdf"))
    if args.files:
        files = files[: args.files]

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"PyMuPDF {fitz.VersionBind}; load avg at start {os.getloadavg()[0]:.1f}")

    with Meter() as plain:
        pages = 0
        for path in files:
            with fitz.open(path) as doc:
                for page in doc:
                    page.get_text()
                    pages += 1
    print(f"PyMuPDF page.get_text() alone, {len(files)} files, {pages} pages: {plain.line(pages)}")

    cache = args.index / "embedding-cache.sqlite"
    kept_cache = None
    if cache.exists() and not args.cold:
        kept_cache = Path("/tmp/docqa-bench-cache.sqlite")
        shutil.copy(cache, kept_cache)
    shutil.rmtree(args.index, ignore_errors=True)
    args.index.mkdir(parents=True)
    if kept_cache:
        shutil.copy(kept_cache, cache)

    engine = Engine.open(args.index, dense=args.dense)
    with Meter() as serial:
        report = engine.ingest(files)
    engine.close()
    pages = sum(f.pages for f in report.indexed)
    chunks = sum(f.chunks for f in report.indexed)
    print(f"files: {len(report.indexed)} indexed, {len(report.failed)} failed; pages {pages}; chunks {chunks}")
    print(f"dense: {args.dense}{' (embedding cache kept from an earlier run)' if kept_cache and args.dense else ''}")
    print(f"docqa serial: {serial.line(pages)}")
    print(f"  docqa / PyMuPDF plain text: {plain.wall / serial.wall:.2f} of its rate (wall), "
          f"{plain.cpu / serial.cpu:.2f} (CPU)")
    for stage, seconds in report.stage_seconds.items():
        rate = pages / seconds if seconds else float("inf")
        print(f"  {stage:9} {seconds:8.1f} s  {rate:9.1f} pages/s")
    print(f"index size on disk: {folder_size(args.index) / 1e6:.1f} MB "
          f"(SQLite {args.index.joinpath('docqa.sqlite').stat().st_size / 1e6:.1f} MB)")

    if args.workers:
        target = args.index.with_name(args.index.name + f"-workers{args.workers}")
        shutil.rmtree(target, ignore_errors=True)
        if kept_cache:
            target.mkdir(parents=True)
            shutil.copy(kept_cache, target / "embedding-cache.sqlite")
        engine = Engine.open(target, dense=args.dense)
        with Meter() as parallel:
            preport = engine.ingest_parallel(files, workers=args.workers)
        engine.close()
        ppages = sum(f.pages for f in preport.indexed)
        same = chunk_rows(args.index) == chunk_rows(target)
        print(f"docqa --workers {args.workers}: {parallel.line(ppages)}")
        print(f"  speedup over serial: {serial.wall / parallel.wall:.2f}x (wall); "
              f"same chunks as the serial run (ids, texts): {same}")
        if not same or ppages != pages:
            raise SystemExit("the parallel run built another index")


if __name__ == "__main__":
    main()
