"""Where a Milvus Lite load's time and memory go: copies of real filings written one document at a time
through benchmarks/scale.py's MilvusSide (MilvusStore.add_document), printing every --step chunks the wall
and CPU rate, this process's RSS and the wall time spent in each MilvusClient call; then the flush, the
first BM25 search (which builds the posting lists) and RSS after each (docs/milvus.md).

    .venv/bin/python benchmarks/milvus_load.py --chunks 20000 --step 5000 [--flush-every 10]
"""
import argparse, collections, os, resource, sys, tempfile, time
from pathlib import Path
import numpy as np
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks")); sys.path.insert(0, str(ROOT / "src"))
import scale
from docqa.types import SearchFilters

rss_mb = scale.rss_mb

ap = argparse.ArgumentParser()
ap.add_argument("--chunks", type=int, default=30000)
ap.add_argument("--step", type=int, default=10000)
ap.add_argument("--flush-every", type=int, default=0, help="flush after every N documents (0: never)")
ap.add_argument("--limit-docs", type=int, default=20, help="copy the first N documents of the source")
ap.add_argument("--source", type=Path, default=Path("/work/idx/depsmilvus-source/docqa.sqlite"))
ap.add_argument("--workdir", type=Path, default=None)
a = ap.parse_args()
base = scale.Base(a.source, a.limit_docs)
print(f"base {len(base.docs)} docs {base.chunks} chunks; rss {rss_mb():.0f} MB", flush=True)
wd = Path(tempfile.mkdtemp(prefix="docqa-milvus-load-", dir=a.workdir))
side = scale.MilvusSide(wd)
side.store.bind_embedder(base.identity)
rpc = collections.Counter(); calls = collections.Counter()
client = side.store._db._client
for name in ("insert", "upsert", "delete", "get", "query", "flush", "has_collection", "describe_collection"):
    orig = getattr(client, name)
    def wrap(*args, _o=orig, _n=name, **kw):
        w = time.perf_counter()
        try: return _o(*args, **kw)
        finally:
            rpc[_n] += time.perf_counter() - w; calls[_n] += 1
    setattr(client, name, wrap)
rng = np.random.default_rng(0)
total = copies = docs = 0
t0, c0 = time.perf_counter(), time.process_time()
mark_t, mark_c, mark_n = t0, c0, 0
print(f"after open rss {rss_mb():.0f} MB", flush=True)
while total < a.chunks:
    copies += 1
    d = base.copy(copies, rng)
    side.load([d]); total += len(d[2]); docs += 1
    if a.flush_every and docs % a.flush_every == 0:
        side.store.flush()
    if total - mark_n >= a.step:
        now, cpu = time.perf_counter(), time.process_time()
        print(f"{total:>8} chunks  {(total-mark_n)/(now-mark_t):6.0f} chunks/s wall  {(total-mark_n)/(cpu-mark_c):6.0f} chunks/CPU-s"
              f"  rss {rss_mb():6.0f} MB  load {os.getloadavg()[0]:.1f}  rpc s: " + " ".join(f"{k}={v:.1f}/{calls[k]}" for k, v in rpc.most_common(6)), flush=True)
        mark_t, mark_c, mark_n = now, cpu, total
        rpc.clear(); calls.clear()
print(f"loaded {total} in {time.perf_counter()-t0:.0f} s wall, {time.process_time()-c0:.0f} s CPU; rss {rss_mb():.0f}", flush=True)
t = time.perf_counter(); side.store.flush(); print(f"flush {time.perf_counter()-t:.1f} s; rss {rss_mb():.0f}", flush=True)
q = np.asarray(base.docs[0][3][0])
for i in range(3):
    t = time.perf_counter(); side.store.lexical_search(["revenue", "total"], [], SearchFilters(), 10)
    l = time.perf_counter() - t; t = time.perf_counter(); side.store.vector_search(q, SearchFilters(), 10)
    print(f"search {i}: lexical {l*1000:.0f} ms vector {(time.perf_counter()-t)*1000:.0f} ms; rss {rss_mb():.0f}", flush=True)
print(f"disk {side.disk_bytes()/1e6:.0f} MB; peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss/1024:.0f} MB", flush=True)
side.close()
import shutil; shutil.rmtree(wd, ignore_errors=True)
