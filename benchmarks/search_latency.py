"""Search latency p50/p95 per mode over the FinanceBench questions, on an existing index.

    .venv/bin/python benchmarks/search_latency.py --index .docqa-corpus
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
from pathlib import Path

from docqa import Engine


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", type=Path, default=Path(".docqa-corpus"))
    ap.add_argument("--questions", type=Path, default=Path("../shared/data/questions/financebench.jsonl"))
    ap.add_argument("--k", type=int, default=10)
    args = ap.parse_args()
    questions = [json.loads(l)["question"] for l in args.questions.open()]
    engine = Engine.open(args.index)
    docs = engine.documents()
    print(f"index: {len(docs)} documents, {sum(d.chunks for d in docs)} chunks, {sum(d.pages for d in docs)} pages")
    modes = ["lexical"] + (["vector", "hybrid"] if engine.dense_available else [])
    for mode in modes:
        engine.search("warm up", k=1, mode=mode)
        times = []
        for q in questions:
            t = time.perf_counter()
            engine.search(q, k=args.k, mode=mode)
            times.append((time.perf_counter() - t) * 1000)
        print(f"{mode:8} p50 {pct(times, 50):7.1f} ms   p95 {pct(times, 95):7.1f} ms   mean {statistics.mean(times):7.1f} ms"
              f"   ({len(times)} queries)")
    print(f"peak memory (RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
