"""Ingest throughput: serial by stage, beside PyMuPDF's plain text rate, and on N worker processes.

    .venv/bin/python benchmarks/ingest_throughput.py --pdfs ../shared/data/pdfs --index /tmp/bench-index [--workers 2]
        [--files 10] [--dense [--cold]] [--same-as OTHER_INDEX] [--parse-digest FILE | --parse-same-as FILE]

1. PyMuPDF alone: ``page.get_text()`` over every page, the floor any PDF parse pays (one core).
2. docqa serially (``Engine.ingest``) into an empty index folder (deleted first): pages/s overall
   and per stage (parse, metadata, chunk, tables, index).
3. With ``--workers N`` (default 2, 0 to skip): the same files into another empty index with
   ``Engine.ingest_parallel(workers=N)`` (local worker processes), its pages/s, the speedup over
   step 2, and a check that both indexes are the same (documents, chunks, pages) row for row.
4. ``--same-as OTHER_INDEX``: the serial index must equal another index folder (e.g. one built by
   the code before a change): documents, chunks and pages (lines, boxes, page info, tables) row for row.
   ``--parse-digest FILE`` writes a digest of every parsed page (lines, word texts and word boxes, flags)
   to FILE; ``--parse-same-as FILE`` parses again and compares with such a file: word boxes are not in
   the index, so this is how a parse change proves it kept them.

Every run prints wall time, CPU time (this process and its worker processes) and the load
average, because the machine may be shared: wall time is only comparable on a quiet machine.
Peak memory is the largest sum of proportional set sizes (PSS: a page shared by k processes
counts 1/k in each) over this process and all its children, sampled every 0.5 s (Meter says why). The
embedding cache is kept across runs unless --cold is given.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
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
    """Wall time, CPU time of this process and its children, peak total PSS, load average.

    Reading a process's PSS costs the kernel a walk of its page tables (about 4 ms of CPU for an
    ingest worker): sampled every 0.1 s over three processes that took 10-15 % of a core from the
    run it measured. It is sampled every ``SAMPLE`` seconds, and the sampler's own CPU is kept out
    of the CPU figures (reported apart).
    """

    SAMPLE = 0.5  # seconds: a document's memory is held for seconds, so no peak slips between samples

    def __enter__(self):
        self.me = psutil.Process()
        self.cpu_seen: dict[int, float] = {}
        self.peak_rss = 0
        self.sampler_cpu = 0.0
        self.stop = threading.Event()
        self.own_cpu = time.process_time()
        self.children_cpu = _children_cpu()
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
        started = time.thread_time()
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
            self.stop.wait(self.SAMPLE)
        self.sampler_cpu = time.thread_time() - started

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.wall
        self.stop.set()
        self.thread.join()
        self.own_cpu = time.process_time() - self.own_cpu - self.sampler_cpu
        # worker processes that have ended (the pool joins them) are counted whole by the kernel;
        # the samples are the fallback for any still running
        reaped = _children_cpu() - self.children_cpu
        self.cpu = self.own_cpu + max(reaped, sum(self.cpu_seen.values()))
        self.load = os.getloadavg()[0]

    def line(self, pages: int) -> str:
        return (f"wall {self.wall:.1f} s = {pages / self.wall:.1f} pages/s; CPU {self.cpu:.1f} s "
                f"(= {pages / self.cpu:.1f} pages per CPU-second; this process {self.own_cpu:.1f} s; "
                f"the memory sampler {self.sampler_cpu:.1f} s more, not counted); "
                f"peak memory {self.peak_rss / 2**20:.0f} MB (PSS, this process and its children); "
                f"load avg {self.load:.1f} at the end")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def index_rows(index: Path) -> dict[str, list[tuple]]:
    """Every stored row of an index folder that a parse change could alter, in a stable order."""
    with sqlite3.connect(index / "docqa.sqlite") as db:
        return {
            "documents": db.execute("SELECT id, file_name, path, sha256, pages, chunks, meta, ocr_pages,"
                                    " no_text_pages, embedded FROM documents ORDER BY id").fetchall(),
            "chunks": db.execute("SELECT id, document_id, document, page, ordinal, kind, text, bbox, section,"
                                 " statement, company, fiscal_year, doc_type FROM chunks ORDER BY id").fetchall(),
            "pages": db.execute("SELECT document_id, number, width, height, lines, info, tables, ocr, no_text"
                                " FROM pages ORDER BY document_id, number").fetchall(),
        }


def index_differences(a: Path, b: Path) -> list[str]:
    """What differs between two index folders, table by table ([] when they are the same)."""
    left, right = index_rows(a), index_rows(b)
    out = []
    for table in left:
        if left[table] != right[table]:
            changed = [x for x, y in zip(left[table], right[table]) if x != y]
            out.append(f"{table}: {len(left[table])} vs {len(right[table])} rows, {len(changed)} differ"
                       + (f"; first: {str(changed[0])[:300]}" if changed else ""))
    return out


def parse_digest(files: list[Path]) -> dict[str, list[str]]:
    """File name -> one sha1 per parsed page over its flags, lines, and every word's text and box."""
    from docqa.ingest.parse import parse_pdf

    out = {}
    for path in files:
        parsed = parse_pdf(path)
        digests = []
        for p in parsed.pages:
            h = hashlib.sha1(repr((p.number, p.width, p.height, p.ocr, p.no_text)).encode())
            for line in p.lines:
                h.update(repr((line.text, line.bbox, line.is_table,
                               [(w.text, w.bbox) for w in line.words])).encode())
            digests.append(h.hexdigest())
        out[path.name] = digests + [hashlib.sha1(repr(parsed.warnings).encode()).hexdigest()]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdfs", type=Path, default=Path("../shared/data/pdfs"))
    ap.add_argument("--index", type=Path, default=Path("/tmp/docqa-bench-index"))
    ap.add_argument("--files", type=int, default=0, help="only the first N PDFs by name (0: all)")
    ap.add_argument("--workers", type=int, default=2, help="also ingest on N local worker processes (0: skip)")
    ap.add_argument("--dense", action="store_true", help="also embed chunks (the default index is lexical)")
    ap.add_argument("--cold", action="store_true", help="drop the embedding cache too")
    ap.add_argument("--same-as", type=Path, help="the serial index must equal this index folder")
    ap.add_argument("--parse-digest", type=Path, help="write per-page parse digests (words and boxes) here")
    ap.add_argument("--parse-same-as", type=Path, help="the parse must match these per-page digests")
    args = ap.parse_args()
    files = sorted(args.pdfs.glob("*.pdf"))
    if args.files:
        files = files[: args.files]

    if args.parse_digest or args.parse_same_as:
        with Meter() as meter:
            digest = parse_digest(files)
        pages = sum(len(d) - 1 for d in digest.values())
        print(f"parse_pdf alone (digests of lines, words and boxes), {pages} pages: {meter.line(pages)}")
        if args.parse_digest:
            args.parse_digest.write_text(json.dumps(digest))
            print(f"parse digests written to {args.parse_digest}")
        if args.parse_same_as:
            want = json.loads(args.parse_same_as.read_text())
            bad = {name: sum(x != y for x, y in zip(d, want[name])) + abs(len(d) - len(want[name]))
                   if name in want else -1 for name, d in digest.items()}
            bad = {k: v for k, v in bad.items() if v}  # -1 pages: a file the digests do not know
            print(f"same parse (lines, words, boxes, warnings) of {len(digest)} files as {args.parse_same_as}: "
                  f"{not bad}"
                  + (f"; pages differing per file: {bad}" if bad else ""))
            if bad:
                raise SystemExit("the parse changed")
        return

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
    if args.same_as:
        differences = index_differences(args.same_as, args.index)
        print(f"same index as {args.same_as} (documents, chunks, pages' lines, boxes, info, tables): "
              f"{not differences}")
        for d in differences:
            print("  " + d)
        if differences:
            raise SystemExit("the serial run built another index than --same-as")
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
        differences = index_differences(args.index, target)
        same = not differences
        print(f"docqa --workers {args.workers}: {parallel.line(ppages)}")
        print(f"  speedup over serial: {serial.wall / parallel.wall:.2f}x (wall); "
              f"same index as the serial run (documents, chunks, pages): {same}")
        for d in differences:
            print("  " + d)
        if not same or ppages != pages:
            raise SystemExit("the parallel run built another index")


if __name__ == "__main__":
    main()
