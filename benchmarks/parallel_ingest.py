"""Which engine for local parallel ingest: the process pool behind ``--workers N`` against a Dask
LocalCluster of N single-threaded worker processes, on the same files, beside a serial run.

    .venv/bin/python benchmarks/parallel_ingest.py --pdfs ../shared/data/pdfs --files 8 --workers 2

The throughput figures of record (all 74 PDFs, serial and ``--workers N``, PyMuPDF's plain text
rate beside them) come from ``benchmarks/ingest_throughput.py``; this script says why ``--workers``
does not run on Dask locally. Takes the first --files PDFs by name (0: all), ingests them
lexically into fresh indexes: serially, with ``Engine.ingest_parallel(workers=N)`` and with
``Engine.ingest_parallel(client=...)`` on a LocalCluster (its start-up reported apart and added
to its run, as ``--workers`` on Dask paid it). All three must build the same documents and chunk
counts. Prints wall and CPU time and the load average (the machine may be shared) and writes
benchmarks/results/parallel-ingest.json.
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


def _run(work: Path, label: str, files: list[Path], **how) -> dict:
    import psutil

    engine = Engine.open(work / label.replace(" ", "_"), dense=False)
    me = psutil.Process()
    cpu0 = time.process_time()
    t = time.perf_counter()
    report = engine.ingest_parallel(files, **how) if how else engine.ingest(files)
    seconds = time.perf_counter() - t
    pages = sum(f.pages for f in report.indexed)
    out = {
        "seconds": round(seconds, 2), "pages": pages, "files": len(report.indexed), "failed": len(report.failed),
        "chunks": sum(f.chunks for f in report.indexed), "pages_per_s": round(pages / seconds, 1),
        "client_cpu_s": round(time.process_time() - cpu0, 1), "load_avg_1min": round(os.getloadavg()[0], 1),
        "client_rss_mb": round(me.memory_info().rss / 2**20),
        "docs": sorted((d.id, d.pages, d.chunks) for d in engine.documents()),
    }
    engine.close()
    return out


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
    try:
        from distributed import Client, LocalCluster

        results = {"serial": _run(work, "serial", files),
                   f"--workers {args.workers} (process pool)": _run(work, "pool", files, workers=args.workers)}
        t = time.perf_counter()
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None) as lc, Client(lc) as client:
            startup = time.perf_counter() - t
            dask = _run(work, "dask", files, client=client)
        dask["startup_s"] = round(startup, 2)
        dask["seconds"] = round(dask["seconds"] + startup, 2)
        dask["pages_per_s"] = round(dask["pages"] / dask["seconds"], 1)
        results[f"Dask LocalCluster, {args.workers} workers (with its start-up)"] = dask
        serial = results["serial"]
        for label, r in results.items():
            assert r["docs"] == serial["docs"], f"{label} built another index"
            r["speedup"] = round(serial["seconds"] / r["seconds"], 2)
        out = {"machine": f"{platform.node()} {os.cpu_count()} cores", "files": [f.name for f in files],
               **{k: {kk: vv for kk, vv in v.items() if kk != "docs"} for k, v in results.items()}}
        (ROOT / "benchmarks" / "results").mkdir(exist_ok=True)
        (ROOT / "benchmarks" / "results" / "parallel-ingest.json").write_text(json.dumps(out, indent=2) + "\n")
        print(f"{len(files)} PDFs, {serial['pages']} pages, {serial['chunks']} chunks; "
              f"LocalCluster start-up {startup:.1f} s")
        print("| run | seconds | pages/s | speedup | client CPU s | load avg (1 min, at the end) |\n"
              "| --- | ---: | ---: | ---: | ---: | ---: |")
        for label, r in results.items():
            print(f"| {label} | {r['seconds']} | {r['pages_per_s']} | {r['speedup']:.2f} | {r['client_cpu_s']} |"
                  f" {r['load_avg_1min']} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
