"""Ingest throughput, serial against Dask workers: pages/s and speedup on the same files.

    .venv/bin/python benchmarks/parallel_ingest.py --pdfs ../shared/data/pdfs --files 8 --workers 2

Takes the first --files PDFs by name (or all with --files 0), ingests them lexically (no
embeddings) into a fresh index serially (``Engine.ingest``), then into another fresh index with
``Engine.ingest_parallel(workers=N)`` (a Dask LocalCluster of N single-threaded processes on
127.0.0.1, started and stopped by the call: its start-up is inside the timed run and also
reported alone). Both runs must give the same documents and chunk counts. Prints one markdown
row per run and writes benchmarks/results/parallel-ingest.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import tempfile
import time
from pathlib import Path

from docqa import Engine

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdfs", type=Path, default=ROOT.parent / "shared" / "data" / "pdfs")
    ap.add_argument("--files", type=int, default=8, help="how many PDFs (first by name); 0 for all")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()

    files = sorted(args.pdfs.glob("*.pdf"))
    if args.files:
        files = files[: args.files]
    work = Path(tempfile.mkdtemp(prefix="docqa-parallel-"))
    rows = []
    try:
        from distributed import Client, LocalCluster

        t = time.perf_counter()
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None) as lc, Client(lc):
            startup = time.perf_counter() - t

        results = {}
        for label, workers in (("serial", None), (f"--workers {args.workers}", args.workers)):
            engine = Engine.open(work / label.replace(" ", "_"), dense=False)
            t = time.perf_counter()
            report = engine.ingest(files) if workers is None else engine.ingest_parallel(files, workers=workers)
            seconds = time.perf_counter() - t
            load = os.getloadavg()[0]  # the machine is shared: how busy it was during the run
            pages = sum(f.pages for f in report.indexed)
            results[label] = {
                "seconds": round(seconds, 2), "pages": pages, "files": len(report.indexed),
                "failed": len(report.failed), "chunks": sum(f.chunks for f in report.indexed),
                "pages_per_s": round(pages / seconds, 1), "load_avg_1min": round(load, 1),
                "file_seconds_sum": round(sum(f.seconds for f in report.indexed), 1),
                "docs": sorted((d.id, d.pages, d.chunks) for d in engine.documents()),
            }
            engine.close()
        serial, parallel = results["serial"], results[f"--workers {args.workers}"]
        assert serial["docs"] == parallel["docs"], "the parallel run built another index"
        speedup = serial["seconds"] / parallel["seconds"]
        out = {
            "machine": f"{platform.node()} {os.cpu_count()} cores", "files": [f.name for f in files],
            "local_cluster_startup_s": round(startup, 2), "speedup": round(speedup, 2),
            **{k: {kk: vv for kk, vv in v.items() if kk != "docs"} for k, v in results.items()},
        }
        (ROOT / "benchmarks" / "results").mkdir(exist_ok=True)
        (ROOT / "benchmarks" / "results" / "parallel-ingest.json").write_text(json.dumps(out, indent=2) + "\n")
        print(f"{len(files)} PDFs, {serial['pages']} pages, {serial['chunks']} chunks; "
              f"LocalCluster start-up {startup:.1f} s (inside the parallel run)")
        print("| run | seconds | pages/s | speedup | load avg (1 min, at the end) |\n| --- | ---: | ---: | ---: | ---: |")
        print(f"| serial | {serial['seconds']} | {serial['pages_per_s']} | 1.00 | {serial['load_avg_1min']} |")
        print(f"| --workers {args.workers} | {parallel['seconds']} | {parallel['pages_per_s']} | {speedup:.2f} |"
              f" {parallel['load_avg_1min']} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
