"""How search cost grows with the corpus, for each store: SQLite (embedded) and PostgreSQL + pgvector.

    .venv/bin/python benchmarks/scale.py --store sqlite   --sizes 10000 30000 100000
    .venv/bin/python benchmarks/scale.py --store sqlite --lexical tantivy --sizes 30000 100000  # rows "sqlite-tantivy"
    .venv/bin/python benchmarks/scale.py --store postgres --sizes 10000 30000 100000
    .venv/bin/python benchmarks/scale.py --store milvus-lite --sizes 30000 100000 300000 1000000
    .venv/bin/python benchmarks/scale.py --report docs/benchmarks-scale.png   # table + plot
    .venv/bin/python benchmarks/scale.py --agreement .docqa-lex/docqa.sqlite  # lexical: PostgreSQL vs FTS5

The base is a real index of the shared corpus (``--source``, built by ``docqa ingest
../shared/data/pdfs --index .docqa-corpus``): every chunk that has its all-MiniLM-L6-v2 vector,
with its document's pages. The index is grown synthetically to each size with copies of those
documents under new document ids (same text, same metadata) whose chunk vectors are the real
vectors perturbed by Gaussian noise (noise norm 0.5, so a copy's cosine to its original is about
0.89) and re-normalised: nothing is re-embedded. Each store is written through its own
``add_document`` (one transaction per document; PostgreSQL from two threads, one per core).

For each size: load time, index build time (PostgreSQL: the HNSW index is dropped before growing
and built after, m=16, ef_construction=64, plus ANALYZE; SQLite: loading the vector matrix into
memory on first use), disk size, search latency p50/p95 through ``Engine.search`` for the 150
FinanceBench questions in each mode (the question's embedding is precomputed: the model's
forward pass, about 10 ms, is the same for every store and size), recall@10 of the store's vector
search against exact search (PostgreSQL: HNSW with k=10, ef_search=40, and as the engine calls
it, k=200 with ef_search=200), and peak memory (SQLite: this process's RSS, which holds the
vector matrix; PostgreSQL: the serving backend's peak RSS, shared buffers included).
Results go to benchmarks/results/scale-STORE.json; --report prints the markdown table.

Milvus Lite (``--store milvus-lite``) runs in this process through ``MilvusStore.add_document``, one
document at a time; its "index build" is the flush that seals the segments, the wait for Lite's
background compaction and HNSW builds (M=16, efConstruction=200, search ef=max(128, k)) and the first
BM25 search (it builds the posting lists); peak memory is this process's RSS, Milvus Lite included.
Lite holds the whole index in memory: growth stops before the RSS, with the posting lists still to
build, would pass ``--max-rss-mb`` (or at ``--grow-until``), and the size reached is measured; the
load rate and RSS every 10k chunks go to the JSON's ``load_curve``;
exact search for recall is a brute-force pass over the loaded vectors, kept in a file outside the RSS.
A source without MiniLM vectors (benchmarks/dense_source.py --embedder hashing) is measured as is.
"""

from __future__ import annotations

import argparse
import calendar
import json
import os
import platform
import resource
import signal
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from docqa.config import Settings  # noqa: E402
from docqa.engine import Engine  # noqa: E402
from docqa.store.base import StoredPage  # noqa: E402
from docqa.store.sqlite import _chunk, _document, _page  # noqa: E402
from docqa.types import Chunk, Document, SearchFilters  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
NOISE = 0.5
MODES = ("lexical", "vector", "hybrid")
STORE_COLOURS = {"postgres": "tab:blue", "sqlite": "tab:orange", "milvus-lite": "tab:green",
                 "sqlite-tantivy": "tab:red"}


def rss_mb() -> float:
    """This process's resident memory now (ru_maxrss is the peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


# --- the base corpus --------------------------------------------------------------------------


class Base:
    """Real documents with their pages, chunks and vectors, read from a SQLite index."""

    def __init__(self, path: Path, limit_docs: int | None = None):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        db.row_factory = sqlite3.Row
        self.identity = db.execute("SELECT value FROM meta WHERE key='embedder'").fetchone()
        if not self.identity:
            raise SystemExit(f"{path} has no embedder: build it with dense embeddings")
        self.identity = self.identity[0]
        self.docs: list[tuple[Document, list[StoredPage], list[Chunk], np.ndarray]] = []
        rows = db.execute("SELECT * FROM documents ORDER BY file_name").fetchall()
        for row in rows[:limit_docs]:
            doc = _document(row)
            chunk_rows = db.execute(
                "SELECT * FROM chunks WHERE document_id=? ORDER BY rowid", (doc.id,)).fetchall()
            if not chunk_rows or any(r["vector"] is None for r in chunk_rows):
                continue  # still being embedded by whoever builds the index
            chunks = [_chunk(r) for r in chunk_rows]
            vectors = np.vstack([np.frombuffer(r["vector"], dtype=np.float32) for r in chunk_rows])
            pages = [_page(r) for r in db.execute(
                "SELECT * FROM pages WHERE document_id=? ORDER BY number", (doc.id,))]
            self.docs.append((doc, pages, chunks, vectors))
        db.close()
        self.chunks = sum(len(c) for _, _, c, _ in self.docs)
        if not self.docs:
            raise SystemExit(f"{path}: no fully embedded documents")

    def copy(self, n: int, rng: np.random.Generator):
        """Copy number n (1, 2, ...) of base document n % len(docs), as a new document."""
        doc, pages, chunks, vectors = self.docs[(n - 1) % len(self.docs)]
        new_id = f"{doc.id[:10]}{n:06x}"
        stem = doc.file_name.rsplit(".", 1)[0]
        document = doc.model_copy(update={"id": new_id, "file_name": f"{stem}~{n}.pdf", "sha256": f"{new_id}{n:x}" * 3})
        new_pages = [p.model_copy(update={"document_id": new_id}) for p in pages]
        new_chunks = [c.model_copy(update={"id": f"{new_id}-{i}", "document_id": new_id,
                                           "document": document.file_name}) for i, c in enumerate(chunks)]
        noise = rng.standard_normal(vectors.shape).astype(np.float32)
        noise *= NOISE / np.linalg.norm(noise, axis=1, keepdims=True)
        new_vectors = vectors + noise
        new_vectors /= np.linalg.norm(new_vectors, axis=1, keepdims=True)
        return document, new_pages, new_chunks, new_vectors


class Precomputed:
    """The query embedder: precomputed vectors for the benchmark questions."""

    def __init__(self, identity: str, questions: list[str]):
        from docqa.embed import HashingEmbedder, get_embedder

        self.identity = identity
        # A hashing-embedded source (bag of words, no model pass) measures the same costs at the same
        # dimension when there is no time to embed the corpus with MiniLM; recall then reads differently.
        model = (HashingEmbedder(int(identity.split("-")[1])) if identity.startswith("hashing-")
                 else get_embedder("minilm", int(identity.rsplit("max", 1)[1])))
        if model.identity != identity:
            raise SystemExit(f"source index built with {identity}, this embedder is {model.identity}")
        self.dim = model.dim
        self._vectors = dict(zip(questions, model.embed(questions)))

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        return np.vstack([self._vectors[t] for t in texts])


# --- the stores ---------------------------------------------------------------------------------


class SQLiteSide:
    name = "sqlite"

    def __init__(self, workdir: Path, lexical: str = "fts5"):
        from docqa.store.sqlite import SQLiteStore

        self.path = workdir / "docqa.sqlite"
        self.store = SQLiteStore(self.path, lexical=lexical)
        # tantivy: the copies go in through an FTS5 store on the same file (one SQLite transaction per
        # document, as ever), and the tantivy index is brought in line with SQLite after each growth
        # step in one commit, as opening an existing index does (SQLiteStore._reconcile_lexical): a
        # tantivy commit per document would make loading a million chunks take hours on two cores.
        self.writer = SQLiteStore(self.path, lexical="fts5") if lexical != "fts5" else self.store

    def load(self, docs) -> None:
        for d in docs:
            self.writer.add_document(*d)

    def build(self) -> float:
        t = time.perf_counter()
        if self.writer is not self.store:
            with self.store._lock:
                self.store._lexical_in_line = self.store._reconcile_lexical()
            assert self.store._lexical_in_line, "tantivy index not in line with SQLite"
        self.store._vectors()  # the in-memory matrix exact search runs on
        return time.perf_counter() - t

    def before_growth(self) -> None:
        pass

    def disk_bytes(self) -> int:
        # docqa.sqlite* takes in the tantivy folder beside the file when that is the lexical index
        return sum(f.stat().st_size for p in self.path.parent.glob("docqa.sqlite*")
                   for f in ([p] if p.is_file() else p.rglob("*")) if f.is_file())

    def exact(self, vector: np.ndarray, k: int) -> list[str]:
        return [c for c, _ in self.store.vector_search(vector, SearchFilters(), k)]

    def approx(self, vector: np.ndarray, k: int) -> list[str]:
        return self.exact(vector, k)

    def peak_mb(self) -> float:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    def close(self) -> None:
        if self.writer is not self.store:
            self.writer.close()
        self.store.close()


class PostgresSide:
    name = "postgres"

    def __init__(self, workdir: Path):
        from docqa.store.pgcluster import LocalCluster
        from docqa.store.postgres import PostgresStore

        self.cluster = LocalCluster.start(durable=True, settings={
            "shared_buffers": "'2GB'", "maintenance_work_mem": "'8GB'", "work_mem": "'64MB'",
            "max_parallel_maintenance_workers": "1", "max_wal_size": "'8GB'", "checkpoint_timeout": "'30min'",
        })
        self.url = self.cluster.create_database("docqa")
        self.store = PostgresStore(self.url, max_size=4)
        import psycopg
        from pgvector.psycopg import register_vector

        self.conn = psycopg.connect(self.url, autocommit=True)
        register_vector(self.conn)

    def load(self, docs) -> None:
        docs = list(docs)
        errors: list[BaseException] = []

        def work(part):
            try:
                for d in part:
                    self.store.add_document(*d)
            except BaseException as exc:  # surfaced below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(docs[i::2],)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]

    def before_growth(self) -> None:
        self.conn.execute("DROP INDEX IF EXISTS docqa.chunks_embedding")

    def build(self) -> float:
        t = time.perf_counter()
        self.conn.execute("CREATE INDEX IF NOT EXISTS chunks_embedding ON docqa.chunks"
                          " USING hnsw (embedding vector_cosine_ops)")
        self.conn.execute("VACUUM ANALYZE docqa.chunks")
        return time.perf_counter() - t

    def disk_bytes(self) -> int:
        return self.conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]

    def exact(self, vector: np.ndarray, k: int) -> list[str]:
        with self.conn.transaction():
            self.conn.execute("SET LOCAL enable_indexscan = off")
            rows = self.conn.execute("SELECT id FROM docqa.chunks ORDER BY embedding <=> %s LIMIT %s",
                                     (vector, k)).fetchall()
        return [r[0] for r in rows]

    def approx(self, vector: np.ndarray, k: int) -> list[str]:
        return [c for c, _ in self.store.vector_search(vector, SearchFilters(), k)]

    def peak_mb(self) -> float:
        peak = 0
        for pid in self.cluster.server_pids():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
            except OSError:
                continue
        return peak / 1024

    def close(self) -> None:
        self.store.close()
        self.conn.close()
        self.cluster.stop()


class MilvusSide:
    """Milvus Lite (in this process) through the Milvus store: the same add_document, one document at a
    time. Exact search is a brute-force pass over the vectors this side loaded, kept in a file and read in
    blocks (so they do not count in this process's peak RSS, which is Milvus Lite's memory)."""

    name = "milvus-lite"
    BLOCK = 65_536
    # Memory the first BM25 search after a flush adds per chunk (Lite builds each segment's posting
    # lists as Python lists then; compaction drops a merged segment's lists, so the next search rebuilds
    # them for old chunks too): 0.034 MB measured at 20k chunks, 0.037 at 100k; raised by what each
    # build measures.
    BUILD_MB_PER_CHUNK = 0.035

    def __init__(self, workdir: Path, max_rss_mb: float = 18_000, grow_until: float | None = None):
        from docqa.store.milvus import MilvusStore

        self.path = workdir / "milvus" / "index.db"
        self.url = f"milvus-lite://{self.path}"
        self.store = MilvusStore(self.url, timeout=600)
        self._ids: list[str] = []
        self._matrix = (workdir / "vectors.f32").open("ab")
        self._rows = 0
        self._dim = 0
        # Growth stops (and the size reached is measured) before this process's RSS, with the posting
        # lists still to build, would pass max_rss_mb (Lite holds every segment in memory: the machine
        # must not swap or OOM-kill other work), or at grow_until (epoch seconds).
        self.max_rss_mb, self.grow_until = max_rss_mb, grow_until
        self.stopped: str | None = None
        self.progress: list[dict] = []  # chunks/s and RSS every 10k chunks: the load curve

    def _guard(self) -> bool:
        rss = rss_mb()
        # every chunk's posting lists, not only the new ones' (compaction): errs towards stopping early
        pending = self._rows * self.BUILD_MB_PER_CHUNK
        if rss + pending > self.max_rss_mb:
            self.stopped = (f"memory guard: RSS {rss:.0f} MB + {pending:.0f} MB of posting lists to build "
                            f"would pass {self.max_rss_mb:.0f} MB")
        elif self.grow_until and time.time() > self.grow_until:
            self.stopped = "time guard: --grow-until reached"
        return self.stopped is None

    @property
    def loaded_chunks(self) -> int:
        return self._rows

    def curve(self) -> list[dict]:
        """Load rate and RSS per 10k chunks (wall and CPU rate: the machine is shared)."""
        return [{"chunks": b["chunks"], "chunks_per_s": (b["chunks"] - a["chunks"]) / (b["t"] - a["t"]),
                 "chunks_per_cpu_s": (b["chunks"] - a["chunks"]) / max(1e-9, b["cpu"] - a["cpu"]),
                 "rss_mb": b["rss_mb"], "loadavg": b["loadavg"]}
                for a, b in zip(self.progress, self.progress[1:]) if not b.get("restart")]

    def load(self, docs) -> None:
        for d in docs:
            if self.stopped or not self._guard():
                return
            if not self.progress or self._rows - self.progress[-1]["chunks"] >= 10_000:
                self.progress.append({"chunks": self._rows, "t": time.perf_counter(), "cpu": time.process_time(),
                                      "rss_mb": rss_mb(), "loadavg": os.getloadavg()[0]})
                if len(self.progress) > 1:
                    a, b = self.progress[-2], self.progress[-1]
                    print(f"  milvus-lite: {b['chunks']:,} chunks, {(b['chunks'] - a['chunks']) / (b['t'] - a['t']):.0f}"
                          f" chunks/s wall, {(b['chunks'] - a['chunks']) / max(1e-9, b['cpu'] - a['cpu']):.0f} per CPU-s,"
                          f" RSS {b['rss_mb']:.0f} MB, load {b['loadavg']:.1f}", flush=True)
            self.store.add_document(*d)
            self._ids.extend(c.id for c in d[2])
            vectors = np.ascontiguousarray(d[3], dtype=np.float32)
            self._dim = vectors.shape[1]
            self._rows += len(vectors)
            self._matrix.write(vectors.tobytes())

    def before_growth(self) -> None:
        # the load curve restarts here: the build and the measurements since its last point are not loading
        self.progress.append({"chunks": self._rows, "t": time.perf_counter(), "cpu": time.process_time(),
                              "rss_mb": rss_mb(), "loadavg": os.getloadavg()[0], "restart": True})

    def _wait_for_background(self) -> None:
        """Milvus Lite compacts segments and builds their HNSW graphs in a background thread after a flush;
        the measurements must not run beside it. No RPC waits for it, so reach the engine in-process."""
        from milvus_lite import server_manager_instance

        entry = server_manager_instance._servers.get(str(self.path.resolve()))
        if entry is None:
            print("  milvus-lite: cannot reach the engine to wait for its background work", flush=True)
            return
        entry[1].get_collection(self.store._name("chunks"))._wait_for_bg()

    def build(self) -> float:
        # Seal the growing segments (a server does this by itself by size and age) and wait for Lite's
        # compaction and HNSW builds; then the first BM25 search builds every new segment's posting
        # lists (pure Python: most of the build, and a third of the memory). All of it is "index build",
        # not the first question's latency.
        t = time.perf_counter()
        self.store.flush()
        self._matrix.flush()
        self._wait_for_background()
        before = rss_mb()
        self.store.lexical_search(["revenue"], [], SearchFilters(), 10)
        grown = rss_mb() - before
        if self._rows and grown > 0:
            self.BUILD_MB_PER_CHUNK = max(self.BUILD_MB_PER_CHUNK, grown / self._rows)
        return time.perf_counter() - t

    def disk_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.path.rglob("*") if p.is_file()) if self.path.is_dir() \
            else self.path.stat().st_size

    def exact(self, vector: np.ndarray, k: int) -> list[str]:
        best_i = np.empty(0, dtype=np.int64)
        best_s = np.empty(0, dtype=np.float32)
        with open(self._matrix.name, "rb") as f:
            start = 0
            while start < self._rows:
                n = min(self.BLOCK, self._rows - start)
                block = np.fromfile(f, dtype=np.float32, count=n * self._dim).reshape(n, self._dim)
                scores = block @ vector.astype(np.float32)
                best_i = np.concatenate([best_i, np.arange(start, start + n)])
                best_s = np.concatenate([best_s, scores])
                keep = np.argsort(-best_s, kind="stable")[:k]
                best_i, best_s = best_i[keep], best_s[keep]
                start += n
        return [self._ids[i] for i in best_i]

    def approx(self, vector: np.ndarray, k: int) -> list[str]:
        return [c for c, _ in self.store.vector_search(vector, SearchFilters(), k)]

    def peak_mb(self) -> float:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    def close(self) -> None:
        self._matrix.close()
        self.store.close()


# --- the run ------------------------------------------------------------------------------------


def measure(side, engine: Engine, questions: list[str], vectors: np.ndarray) -> dict:
    out: dict = {}
    for mode in MODES:
        engine.search(questions[0], k=10, mode=mode)  # warm
        times, cpu = [], []
        for q in questions:
            t, c = time.perf_counter(), time.process_time()
            engine.search(q, k=10, mode=mode)
            cpu.append((time.process_time() - c) * 1000)
            times.append((time.perf_counter() - t) * 1000)
        # CPU time of this process beside the wall time: on a busy machine the wall time is mostly
        # waiting for a core (a server store's own CPU time is not in it).
        out[mode] = {"p50_ms": pct(times, 50), "p95_ms": pct(times, 95), "mean_ms": statistics.mean(times),
                     "cpu_p50_ms": pct(cpu, 50), "cpu_p95_ms": pct(cpu, 95)}
    recall10, recall200, t_exact, t_approx = [], [], [], []
    for v in vectors:
        t = time.perf_counter()
        truth = side.exact(v, 10)
        t_exact.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        got = side.approx(v, 10)
        t_approx.append((time.perf_counter() - t) * 1000)
        recall10.append(len(set(truth) & set(got)) / len(truth))
        recall200.append(len(set(truth) & set(side.approx(v, 200)[:10])) / len(truth))
    out["recall@10"] = statistics.mean(recall10)
    out["recall@10_k200"] = statistics.mean(recall200)
    out["exact_p50_ms"] = pct(t_exact, 50)
    out["ann_p50_ms"] = pct(t_approx, 50)
    return out


def run(args) -> None:
    questions = [json.loads(line)["question"] for line in args.questions.open()]
    base = Base(args.source, args.limit_docs)
    print(f"base: {len(base.docs)} real documents, {base.chunks} chunks with vectors, from {args.source}",
          flush=True)
    embedder = Precomputed(base.identity, questions)
    vectors = embedder.embed(questions)
    if args.lexical != "fts5" and args.store != "sqlite":
        raise SystemExit("--lexical picks the SQLite store's lexical index: use it with --store sqlite")
    label = args.store if args.lexical == "fts5" else f"{args.store}-{args.lexical}"
    workdir = Path(tempfile.mkdtemp(prefix=f"docqa-scale-{label}-", dir=args.workdir))
    side = (SQLiteSide(workdir, args.lexical) if args.store == "sqlite"
            else {"postgres": PostgresSide, "milvus-lite": MilvusSide}[args.store](workdir))
    side.store.bind_embedder(base.identity)
    if isinstance(side, MilvusSide):  # its memory and time guards
        side.max_rss_mb, side.grow_until = args.max_rss_mb, args.grow_until
    engine = Engine(Settings(index=workdir / "index", store=getattr(side, "url", None), dense=True), side.store)
    engine._embedder = embedder  # queries are embedded already
    rng = np.random.default_rng(0)
    results = {"store": label, "machine": f"{platform.machine()}, {os.cpu_count()} cores",
               "base_docs": len(base.docs), "base_chunks": base.chunks, "noise": NOISE, "sizes": []}
    total, copies, load_s = 0, 0, 0.0
    try:
        for size in sorted(args.sizes):
            side.before_growth()
            batch = []
            t = time.perf_counter()
            if total == 0:
                batch = [(d, p, c, v) for d, p, c, v in base.docs]
                total += base.chunks
            while total < size and not getattr(side, "stopped", None):
                copies += 1
                doc = base.copy(copies, rng)
                batch.append(doc)
                total += len(doc[2])
                if len(batch) >= 32:
                    side.load(batch)
                    batch = []
            side.load(batch)
            if getattr(side, "stopped", None):  # a guard stopped growth: measure the size reached
                total = side.loaded_chunks
                if results["sizes"] and results["sizes"][-1]["chunks"] == total:
                    results["stopped"] = f"{side.stopped}, after the {total:,}-chunk row"
                    (args.results or RESULTS / f"scale-{label}.json").write_text(json.dumps(results, indent=1))
                    break  # stopped before this size grew at all: nothing new to measure
            grow_s = time.perf_counter() - t
            load_s += grow_s
            build_s = side.build()
            loadavg = os.getloadavg()[0]
            row = {"chunks": total, "documents": len(side.store.documents()), "load_s": grow_s,
                   "build_s": build_s, "disk_mb": side.disk_bytes() / 1e6}
            row.update(measure(side, engine, questions, vectors))
            row["peak_mb"] = side.peak_mb()
            row["loadavg"] = loadavg
            if getattr(side, "stopped", None):
                row["stopped"] = side.stopped
            if hasattr(side, "curve"):
                results["load_curve"] = side.curve()
            results["sizes"].append(row)
            print(json.dumps(row), flush=True)
            out = args.results or RESULTS / f"scale-{label}.json"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(results, indent=1))
            if getattr(side, "stopped", None):
                break
    finally:
        side.close()
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)


# --- the report ---------------------------------------------------------------------------------


def report(plot: Path | None) -> None:
    runs = [json.loads(p.read_text()) for p in sorted(RESULTS.glob("scale-*.json"))]
    if not runs:
        raise SystemExit("no results yet: run with --store first")
    print("| store | chunks | load: chunks/s | index build s | disk MB | lexical p50/p95 ms | vector p50/p95 ms "
          "| hybrid p50/p95 ms | recall@10 (k=10 / k=200) | peak RSS MB | load avg |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in runs:
        before = 0
        for s in r["sizes"]:
            modes = " | ".join(f"{s[m]['p50_ms']:.0f} / {s[m]['p95_ms']:.0f}" for m in MODES)
            rate = (s["chunks"] - before) / s["load_s"]
            before = s["chunks"]
            print(f"| {r['store']} | {s['chunks']:,} | {rate:,.0f} | {s['build_s']:.1f} | {s['disk_mb']:.0f} "
                  f"| {modes} | {s['recall@10']:.3f} / {s['recall@10_k200']:.3f} | {s['peak_mb']:.0f} "
                  f"| {s.get('loadavg', float('nan')):.1f} |")
    if plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 3, figsize=(13, 4), sharey=False)
        for ax, mode in zip(axes, MODES):
            for r in runs:
                colour = STORE_COLOURS.get(r["store"], "tab:gray")  # a store keeps its colour as stores are added
                xs = [s["chunks"] for s in r["sizes"]]
                ax.plot(xs, [s[mode]["p50_ms"] for s in r["sizes"]], "o-", color=colour, label=f"{r['store']} p50")
                ax.plot(xs, [s[mode]["p95_ms"] for s in r["sizes"]], "o--", color=colour, alpha=0.6,
                        label=f"{r['store']} p95")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"{mode} search")
            ax.set_xlabel("chunks in the index")
            ax.grid(True, which="both", alpha=0.3)
        axes[0].set_ylabel("latency per question, ms (Engine.search, k=10)")
        axes[0].legend(fontsize=8)
        fig.suptitle("Search latency vs corpus size (150 FinanceBench questions, 2 cores)")
        fig.tight_layout()
        fig.savefig(plot, dpi=110)
        print(f"plot: {plot}")


def agreement(source: Path, questions_path: Path) -> None:
    """Copy a (lexical) SQLite index into PostgreSQL and compare lexical search on the same chunks:
    top-10 overlap with FTS5's BM25 and latency, over the FinanceBench questions."""
    from docqa.plan import build_plan
    from docqa.store.pgcluster import LocalCluster
    from docqa.store.postgres import PostgresStore
    from docqa.store.sqlite import SQLiteStore

    questions = [json.loads(line)["question"] for line in questions_path.open()]
    lite = SQLiteStore(source)
    db = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    with LocalCluster.start(settings={"shared_buffers": "'1GB'"}) as cluster:
        pg = PostgresStore(cluster.create_database("docqa"), max_size=4)
        docs = lite.documents()
        t = time.perf_counter()
        n = 0
        for doc in docs:
            chunks = [_chunk(r) for r in db.execute(
                "SELECT * FROM chunks WHERE document_id=? ORDER BY rowid", (doc.id,))]
            pg.add_document(doc, lite.pages(doc.id), chunks, None)
            n += len(chunks)
        load = time.perf_counter() - t
        print(f"copied {len(docs)} documents, {n} chunks into PostgreSQL in {load:.0f} s ({n / load:.0f} chunks/s)")
        overlap, t_lite, t_pg = [], [], []
        for q in questions:
            plan = build_plan(q, docs, None)
            for f in plan.groups:
                t0 = time.perf_counter()
                a = lite.lexical_search(plan.terms, plan.phrases, f, 200)
                t1 = time.perf_counter()
                b = pg.lexical_search(plan.terms, plan.phrases, f, 200)
                t2 = time.perf_counter()
                t_lite.append((t1 - t0) * 1000)
                t_pg.append((t2 - t1) * 1000)
                top_a, top_b = [c for c, _ in a[:10]], [c for c, _ in b[:10]]
                if top_a:
                    overlap.append(len(set(top_a) & set(top_b)) / len(top_a))
        print(f"{len(t_pg)} lexical searches (k=200), FinanceBench questions as the engine plans them:")
        print(f"  top-10 overlap with SQLite FTS5 BM25: {statistics.mean(overlap):.3f}")
        print(f"  SQLite p50 {pct(t_lite, 50):.0f} ms, p95 {pct(t_lite, 95):.0f} ms;"
              f" PostgreSQL p50 {pct(t_pg, 50):.0f} ms, p95 {pct(t_pg, 95):.0f} ms")
        pg.close()
    lite.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", choices=("sqlite", "postgres", "milvus-lite"))
    ap.add_argument("--lexical", choices=("fts5", "tantivy"), default="fts5",
                    help="the SQLite store's lexical index (its rows are reported as sqlite-tantivy)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 30_000, 100_000])
    ap.add_argument("--source", type=Path, default=ROOT / ".docqa-corpus" / "docqa.sqlite")
    ap.add_argument("--max-rss-mb", type=float, default=18_000,
                    help="milvus-lite: stop growing before this process's RSS would pass this")
    ap.add_argument("--grow-until", type=lambda v: calendar.timegm(time.strptime(v, "%Y-%m-%dT%H:%M")),
                    default=None, metavar="YYYY-MM-DDTHH:MM", help="milvus-lite: stop growing at this UTC time")
    ap.add_argument("--limit-docs", type=int, default=None, help="use only the first N documents of the source")
    ap.add_argument("--questions", type=Path, default=ROOT.parent / "shared/data/questions/financebench.jsonl")
    ap.add_argument("--workdir", type=Path, default=None, help="where the throwaway indexes go (default: /tmp)")
    ap.add_argument("--results", type=Path, default=None,
                    help="write the JSON here instead of benchmarks/results/scale-STORE.json (a side check)")
    ap.add_argument("--agreement", type=Path, default=None, metavar="INDEX.sqlite",
                    help="compare lexical search on PostgreSQL with SQLite's on a copy of this index")
    ap.add_argument("--report", nargs="?", const="", default=None, metavar="PLOT.png",
                    help="print the table from benchmarks/results (and draw the plot)")
    args = ap.parse_args()
    # A stopped run (SIGTERM) still stops the PostgreSQL cluster it started and deletes its data.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.agreement:
        agreement(args.agreement, args.questions)
    elif args.report is not None:
        report(Path(args.report) if args.report else None)
    elif args.store:
        run(args)
    else:
        ap.error("give --store sqlite|postgres|milvus-lite, or --report")


if __name__ == "__main__":
    main()
