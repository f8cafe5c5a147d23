"""Milvus Lite against SQLite at a modest size: load rate, disk, and store-level search latency.

    .venv/bin/python benchmarks/milvus_search.py --chunks 30000

The base is the three bundled 10-Ks (samples/), ingested lexically into a SQLite index; each
chunk gets a 384-dimensional HashingEmbedder vector (a stand-in for MiniLM's: the latency of an
HNSW search depends on the dimension and the count, not on what the vectors mean). The corpus is
grown to --chunks with copies of those documents under new ids (same text and metadata, vectors
perturbed by Gaussian noise of norm 0.5, as benchmarks/scale.py does), written through each
store's ``add_document``. Each of the 150 FinanceBench questions is then searched at the store
level with k=200 (the engine's candidates): lexical (the question's query tokens), vector, and
hybrid (SQLite: both searches, fused in Python by reciprocal rank as search.hybrid does; Milvus:
its own ``hybrid_search`` with RRFRanker, one call). After loading, the Milvus store is flushed
(its growing segments sealed, as a server does by itself). Results: benchmarks/results/milvus-lite.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from docqa import Engine
from docqa.embed import HashingEmbedder
from docqa.text import query_tokens
from docqa.types import SearchFilters

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT.parent / "shared" / "data" / "questions" / "financebench.jsonl"
K = 200


def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def folder_bytes(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def base_docs(work: Path, embedder):
    engine = Engine.open(work / "base", dense=False)
    engine.ingest(sorted((ROOT / "samples").glob("*.pdf")))
    db = engine.store._db
    docs = []
    for d in engine.documents():
        ids = [r[0] for r in db.execute("SELECT id FROM chunks WHERE document_id=? ORDER BY rowid", (d.id,))]
        chunks = engine.store.chunks(ids)
        docs.append((d, engine.store.pages(d.id), chunks, embedder.embed([c.text for c in chunks])))
    engine.close()
    return docs


def copies(docs, n_chunks, rng):
    n, total = 0, 0
    while total < n_chunks:
        n += 1
        doc, pages, chunks, vectors = docs[(n - 1) % len(docs)]
        new_id = f"{doc.id[:10]}{n:06x}"
        document = doc.model_copy(update={"id": new_id, "file_name": f"{doc.file_name[:-4]}~{n}.pdf",
                                          "sha256": f"{new_id}{n:x}" * 3})
        new_pages = [p.model_copy(update={"document_id": new_id}) for p in pages]
        new_chunks = [c.model_copy(update={"id": f"{new_id}-{i}", "document_id": new_id,
                                           "document": document.file_name}) for i, c in enumerate(chunks)]
        noise = rng.standard_normal(vectors.shape).astype(np.float32)
        noise *= 0.5 / np.linalg.norm(noise, axis=1, keepdims=True)
        v = vectors + noise
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        total += len(chunks)
        yield document, new_pages, new_chunks, v


def rrf(*rankings, k=60):
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, (cid, _) in enumerate(ranking):
            scores[cid] = scores.get(cid, 0.0) + 1.0 / (k + rank + 1)
    return sorted(scores.items(), key=lambda kv: -kv[1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chunks", type=int, default=30_000)
    ap.add_argument("--stores", nargs="+", default=["sqlite", "milvus-lite"])
    ap.add_argument("--questions", type=int, default=150, help="how many of the FinanceBench questions")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="docqa-milvus-bench-"))
    embedder = HashingEmbedder(384)
    questions = [json.loads(line)["question"] for line in QUESTIONS.read_text().splitlines() if line.strip()]
    questions = questions[: args.questions]
    qvecs = embedder.embed(questions)
    out = {"machine": f"{platform.node()} {os.cpu_count()} cores", "k": K, "rows": []}
    try:
        docs = base_docs(work, embedder)
        for name in args.stores:
            if name == "sqlite":
                from docqa.store.sqlite import SQLiteStore

                where = work / "sqlite.db"
                store = SQLiteStore(where)
            else:
                from docqa.store.milvus import MilvusStore

                where = work / "milvus" / "index.db"
                store = MilvusStore(f"milvus-lite://{where}")
            rng = np.random.default_rng(7)
            t, loaded = time.perf_counter(), 0
            for d in copies(docs, args.chunks, rng):
                store.add_document(*d)
                loaded += len(d[2])
            load_s = time.perf_counter() - t
            t = time.perf_counter()
            if hasattr(store, "flush"):  # Milvus: seal the growing segments (a server does it by itself)
                store.flush()
            build_s = time.perf_counter() - t
            print(f"{name}: {loaded} chunks loaded in {load_s:.0f} s, flushed in {build_s:.1f} s", flush=True)
            times = {"lexical": [], "vector": [], "hybrid": []}
            filters = SearchFilters()
            for q, v in zip(questions, qvecs):
                terms = query_tokens(q)
                t = time.perf_counter(); lex = store.lexical_search(terms, [], filters, K)
                times["lexical"].append(time.perf_counter() - t)
                t = time.perf_counter(); vec = store.vector_search(v, filters, K)
                times["vector"].append(time.perf_counter() - t)
                t = time.perf_counter()
                if hasattr(store, "hybrid_search"):
                    store.hybrid_search(terms, [], v, filters, K)
                else:
                    rrf(store.lexical_search(terms, [], filters, K), store.vector_search(v, filters, K))
                times["hybrid"].append(time.perf_counter() - t)
            row = {"store": name, "chunks": loaded, "load_chunks_per_s": round(loaded / load_s),
                   "flush_s": round(build_s, 1),
                   "disk_mb": round(folder_bytes(where) / 1e6, 1),
                   "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                   "load_avg": round(os.getloadavg()[0], 1)}
            for mode, ts in times.items():
                row[f"{mode}_p50_ms"] = round(statistics.median(ts) * 1000, 1)
                row[f"{mode}_p95_ms"] = round(pct(ts, 95) * 1000, 1)
            out["rows"].append(row)
            store.close()
            print(row, flush=True)
        (ROOT / "benchmarks" / "results").mkdir(exist_ok=True)
        (ROOT / "benchmarks" / "results" / "milvus-lite.json").write_text(json.dumps(out, indent=2) + "\n")
        print("| store | chunks | load chunks/s | disk MB | lexical p50/p95 ms | vector p50/p95 ms | hybrid p50/p95 ms |"
              " peak RSS MB | load avg |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for r in out["rows"]:
            print(f"| {r['store']} | {r['chunks']:,} | {r['load_chunks_per_s']:,} | {r['disk_mb']} | "
                  f"{r['lexical_p50_ms']} / {r['lexical_p95_ms']} | {r['vector_p50_ms']} / {r['vector_p95_ms']} | "
                  f"{r['hybrid_p50_ms']} / {r['hybrid_p95_ms']} | {r['peak_rss_mb']} | {r['load_avg']} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
