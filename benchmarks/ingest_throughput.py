"""Ingest throughput by stage (parse, metadata, chunk, embed, index) in pages/s, index size, peak memory.

    .venv/bin/python benchmarks/ingest_throughput.py --pdfs ../shared/data/pdfs --index /tmp/bench-index [--dense [--cold]]

Starts from an empty index folder (deleted first) so every file is really processed; the
embedding cache is kept unless --cold is given.
"""

from __future__ import annotations

import argparse
import platform
import resource
import shutil
import time
from pathlib import Path

from docqa import Engine


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdfs", type=Path, default=Path("../shared/data/pdfs"))
    ap.add_argument("--index", type=Path, default=Path("/tmp/docqa-bench-index"))
    ap.add_argument("--dense", action="store_true", help="also embed chunks (the default index is lexical)")
    ap.add_argument("--cold", action="store_true", help="drop the embedding cache too")
    args = ap.parse_args()

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
    started = time.perf_counter()
    report = engine.ingest([args.pdfs])
    wall = time.perf_counter() - started
    pages = sum(f.pages for f in report.indexed)
    chunks = sum(f.chunks for f in report.indexed)
    print(f"machine: {platform.machine()}, {__import__('os').cpu_count()} cores, Python {platform.python_version()}")
    print(f"files: {len(report.indexed)} indexed, {len(report.failed)} failed; pages {pages}; chunks {chunks}")
    print(f"dense: {args.dense}{' (embedding cache kept from an earlier run)' if kept_cache and args.dense else ''}")
    print(f"wall: {wall:.1f} s = {pages / wall:.1f} pages/s overall")
    for stage, seconds in report.stage_seconds.items():
        rate = pages / seconds if seconds else float("inf")
        print(f"  {stage:9} {seconds:8.1f} s  {rate:9.1f} pages/s")
    print(f"index size on disk: {folder_size(args.index) / 1e6:.1f} MB "
          f"(SQLite {args.index.joinpath('docqa.sqlite').stat().st_size / 1e6:.1f} MB)")
    print(f"peak memory (RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
