"""Search latency p50/p95 per mode over labeled questions, on an existing index; with --peer, beside
the peers' approach (rank_bm25 over every page's text, docqa.eval.retrieval.PageBM25) in the same run.

    .venv/bin/python benchmarks/search_latency.py --index .docqa-corpus
    .venv/bin/python benchmarks/search_latency.py --index IDX --peer \\
        --questions ../shared/data/questions/financebench.jsonl --questions ../shared/data/practice/questions.jsonl
    DOCQA_LEXICAL=fts5 .venv/bin/python benchmarks/search_latency.py --index IDX ...   # FTS5 instead of tantivy
    .venv/bin/python benchmarks/search_latency.py --index IDX --slowest 10   # the tail: each slow question's plan

At a corpus size of your choosing (the index's filings copied under new ids until it holds that many
pages, as benchmarks/scale.py grows its stores; the copy is kept in --workdir and reused by the next
run), side by side with the peer, waiting for a quiet machine first:

    .venv/bin/python benchmarks/search_latency.py --index IDX --grow 24000 --pages --workdir GROWN --peer \\
        --quiet-load 2.5 --questions FINANCEBENCH --questions PRACTICE --questions eval/unanswerable.jsonl

Each question is timed as wall time and as the searching process's CPU time: on a shared machine the
wall time includes waiting for a core, the CPU time does not. With --peer the two searches alternate
question by question, so both see the same load; the peer runs in a process of its own (each system
in its own process, as each is run; --peer-in-process for the benchmark's own). Every figure is
printed with the 1-minute load average seen while it was measured.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import time
from pathlib import Path

from docqa import Engine


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Timings:
    """Wall and CPU time of each call, with the 1-minute load average seen while timing them."""

    def __init__(self, name: str):
        self.name = name
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.load: list[float] = []

    def time(self, fn, *args, **kwargs):
        w, c = time.perf_counter(), time.process_time()
        out = fn(*args, **kwargs)
        self.cpu.append((time.process_time() - c) * 1000)
        self.wall.append((time.perf_counter() - w) * 1000)
        self.load.append(os.getloadavg()[0])
        return out

    def add(self, wall_ms: float, cpu_ms: float) -> None:
        """A call timed elsewhere (the peer's own process)."""
        self.wall.append(wall_ms)
        self.cpu.append(cpu_ms)
        self.load.append(os.getloadavg()[0])

    def loads(self) -> str:
        return f"load {min(self.load):.1f}-{max(self.load):.1f}" if self.load else "load -"

    def line(self) -> str:
        return (f"{self.name:22} wall p50 {pct(self.wall, 50):7.1f} ms  p95 {pct(self.wall, 95):7.1f} ms  "
                f"mean {statistics.mean(self.wall):7.1f} ms   cpu p50 {pct(self.cpu, 50):7.1f} ms  "
                f"p95 {pct(self.cpu, 95):7.1f} ms   ({len(self.wall)} queries, {self.loads()})")


def wait_for_quiet(limit: float, patience: float) -> None:
    """On a shared machine, wait (at most ``patience`` seconds) for the 1-minute load average to
    fall under ``limit`` before a timed pass; say how long it waited and what it found."""
    if limit <= 0:
        return
    t = time.monotonic()
    while os.getloadavg()[0] >= limit and time.monotonic() - t < patience:
        time.sleep(5)
    load = os.getloadavg()[0]
    note = "" if load < limit else f" (still over {limit}: measured anyway)"
    print(f"waited {time.monotonic() - t:.0f} s for load under {limit}: load average {load:.1f}{note}", flush=True)


def grow(index: Path, sizes: list[int], workdir: Path, unit: str = "chunks", pages: bool = False):
    """Copies of the index grown to each size (in chunks, or in pages with unit="pages"), one after
    the other, with copies of its documents under new ids: same text, metadata and company, as
    benchmarks/scale.py grows its stores, but written in SQL (chunks and their FTS5 rows; their pages
    too with ``pages`` or unit="pages", for the peers' page BM25; no vectors), so that the lexical
    cost at a million chunks is measured in minutes. The tantivy index is built from SQLite when the
    engine opens the folder. A workdir that already holds a grown copy of at least the one size asked
    is searched as it is (its ``meta`` row ``grown_from`` names the source). Yields (size, folder)."""
    import sqlite3

    workdir.mkdir(parents=True, exist_ok=True)
    pages = pages or unit == "pages"
    db = sqlite3.connect(workdir / "docqa.sqlite", isolation_level=None)
    grown_from = db.execute("SELECT value FROM meta WHERE key='grown_from'").fetchone() if _has_meta(db) else None
    measure_sql = "SELECT sum(pages) FROM documents" if unit == "pages" else "SELECT count(*) FROM chunks"
    if len(sizes) == 1 and grown_from and grown_from[0] == str(index.resolve()) and pages_copied(db) >= pages:
        total = db.execute(measure_sql).fetchone()[0] or 0
        if total >= sizes[0]:
            db.close()
            yield total, workdir
            return
    source = sqlite3.connect(f"file:{index / 'docqa.sqlite'}?mode=ro", uri=True)
    source.backup(db)
    source.close()
    for stale in workdir.glob("docqa.sqlite.tantivy*"):  # built again from the copy's SQLite at open
        shutil.rmtree(stale)
    db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('grown_from', '')")
    spans = db.execute("SELECT d.id, min(c.rowid), max(c.rowid), d.pages FROM documents d JOIN chunks c"
                       " ON c.document_id = d.id GROUP BY d.id ORDER BY min(c.rowid)").fetchall()
    columns = "document, page, ordinal, kind, text, bbox, section, statement, company, fiscal_year, doc_type"
    page_columns = "number, width, height, lines, info, tables, ocr, no_text"
    total = db.execute(measure_sql).fetchone()[0]
    copy = 0
    for size in sorted(sizes):
        while total < size:
            copy += 1
            doc_id, lo, hi, doc_pages = spans[(copy - 1) % len(spans)]
            new_id = f"{doc_id[:10]}{copy:06x}"
            start = db.execute("SELECT max(rowid) FROM chunks").fetchone()[0] + 1
            db.execute("BEGIN")
            db.execute("INSERT INTO documents(id, file_name, path, sha256, pages, chunks, meta, ocr_pages, no_text_pages,"
                       " embedded) SELECT ?, replace(file_name, '.pdf', '~' || ? || '.pdf'), path, sha256 || ?, pages,"
                       " chunks, meta, ocr_pages, no_text_pages, embedded FROM documents WHERE id=?",
                       (new_id, copy, copy, doc_id))
            db.execute(f"INSERT INTO chunks(rowid, id, document_id, {columns}) SELECT rowid - ? + ?,"
                       f" ? || '-' || (rowid - ?), ?, {columns} FROM chunks WHERE rowid BETWEEN ? AND ?",
                       (lo, start, new_id, lo, new_id, lo, hi))
            db.execute("INSERT INTO chunks_fts(rowid, body) SELECT rowid - ? + ?, body FROM chunks_fts"
                       " WHERE rowid BETWEEN ? AND ?", (lo, start, lo, hi))
            if pages:
                db.execute(f"INSERT INTO pages(document_id, {page_columns}) SELECT ?, {page_columns} FROM pages"
                           " WHERE document_id=?", (new_id, doc_id))
            db.execute("COMMIT")
            total += doc_pages if unit == "pages" else hi - lo + 1
        db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('grown_from', ?), ('grown_pages', ?)",
                   (str(index.resolve()), int(pages)))
        yield total, workdir
    db.close()


def _has_meta(db) -> bool:
    return bool(db.execute("SELECT 1 FROM sqlite_master WHERE name='meta'").fetchone())


def pages_copied(db) -> bool:
    row = db.execute("SELECT value FROM meta WHERE key='grown_pages'").fetchone()
    return bool(row and int(row[0]))


def restricted(engine: Engine, questions: list[str], k: int) -> None:
    """Store-level lexical cost on a grown index, per planned search: restricted to every document
    the plan chose (in a grown index a company-year holds one filing and all its copies), and to the
    real filings among them alone (what a corpus of distinct filings of the same size would search)."""
    from docqa.plan import build_plan
    from docqa.types import SearchFilters

    docs = engine.documents()
    copies = {d.id for d in docs if "~" in d.file_name}
    plan_t, every, originals = Timings("build_plan"), Timings("lexical, all chosen"), Timings("lexical, real filings")
    for q in questions:
        plan = plan_t.time(build_plan, q, docs, None)
        for f in plan.groups:
            every.time(engine.store.lexical_search, plan.terms, plan.phrases, f, k)
            real = tuple(d for d in f.document_ids if d not in copies)
            if f.document_ids and real:
                originals.time(engine.store.lexical_search, plan.terms, plan.phrases, SearchFilters(document_ids=real), k)
    for t in (plan_t, every, originals):
        print(t.line())


def compare_engines(engine: Engine, questions: list[str], k: int) -> None:
    """FTS5 (this store) against tantivy at the store level: the same planned searches (terms OR
    phrases, restricted to each company group's documents), over the same indexed text."""
    import tempfile

    import tantivy

    from docqa.plan import build_plan

    store = engine.store
    rows = store._db.execute("SELECT c.id, c.document_id, f.body FROM chunks c JOIN chunks_fts f ON f.rowid = c.rowid"
                             ).fetchall()
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("body", tokenizer_name="docqa")
    builder.add_text_field("document_id", tokenizer_name="raw")
    builder.add_text_field("id", stored=True, tokenizer_name="raw")
    schema = builder.build()
    folder = tempfile.mkdtemp(prefix="docqa-tantivy-")
    index = tantivy.Index(schema, path=folder)
    # The body is docqa.text.index_text already (lower case, figures normalised): split on spaces and
    # stem, as FTS5's porter tokenizer does.
    index.register_tokenizer("docqa", tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace())
                             .filter(tantivy.Filter.stemmer("english")).build())
    t = time.perf_counter()
    writer = index.writer(heap_size=200_000_000, num_threads=1)
    for cid, doc_id, body in rows:
        writer.add_document(tantivy.Document(id=cid, document_id=doc_id, body=body))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    searcher = index.searcher()
    print(f"tantivy {tantivy.__name__}: indexed {len(rows)} chunks in {time.perf_counter() - t:.1f} s")

    def tantivy_search(terms, phrases, filters):
        parts = [t for t in terms if t] + [p for p in phrases if p.strip()]
        text = " OR ".join('"' + p.replace('"', " ").replace("\\", " ") + '"' for p in parts)
        query, _errors = index.parse_query_lenient(text, ["body"])
        if filters.document_ids:
            only = tantivy.Query.const_score_query(
                tantivy.Query.term_set_query(schema, "document_id", list(filters.document_ids)), 0.0)
            query = tantivy.Query.boolean_query([(tantivy.Occur.Must, query), (tantivy.Occur.Must, only)])
        hits = searcher.search(query, k).hits
        return [(searcher.doc(address)["id"][0], score) for score, address in hits]

    docs = engine.documents()
    searches = [(plan.terms, plan.phrases, f) for plan in (build_plan(q, docs, None) for q in questions)
                for f in plan.groups]
    fts, tan = Timings("FTS5 (SQLite)"), Timings("tantivy")
    overlap = []
    for terms, phrases, filters in searches:
        a = fts.time(store.lexical_search, terms, phrases, filters, k)
        b = tan.time(tantivy_search, terms, phrases, filters)
        if a:
            top = {c for c, _ in a[:10]}
            overlap.append(len(top & {c for c, _ in b[:10]}) / len(top))
    print(f"{len(searches)} store-level lexical searches (k={k}), as the engine plans them:")
    print(fts.line())
    print(tan.line())
    print(f"top-10 overlap tantivy vs FTS5: {statistics.mean(overlap):.3f}")
    import shutil

    shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--index", type=Path, default=Path(".docqa-corpus"))
    ap.add_argument("--questions", type=Path, action="append",
                    help="JSONL with a 'question' per line; repeat for several files "
                         "(default: ../shared/data/questions/financebench.jsonl)")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--peer", action="store_true",
                    help="also time rank_bm25 over page text, interleaved question by question (in a process of its own)")
    ap.add_argument("--peer-in-process", action="store_true", help="with --peer: run rank_bm25 in this process")
    ap.add_argument("--slowest", type=int, default=0, metavar="N",
                    help="also print the N slowest questions (CPU) with their plans and the rows each search matched")
    ap.add_argument("--modes", nargs="+", default=None, help="default: lexical, plus vector and hybrid if dense")
    ap.add_argument("--grow", type=int, nargs="+", default=None, metavar="SIZE",
                    help="instead of the index itself, time copies of it grown to these sizes: chunks, or pages with --pages")
    ap.add_argument("--pages", action="store_true", help="--grow sizes are pages, not chunks (pages are copied too)")
    ap.add_argument("--workdir", type=Path, default=None,
                    help="where --grow writes its copy, kept and reused by the next run (default: a temp dir)")
    ap.add_argument("--quiet-load", type=float, default=0.0, metavar="LOAD",
                    help="before each timed pass, wait (up to --quiet-wait s) for the 1-minute load average to fall under LOAD")
    ap.add_argument("--quiet-wait", type=float, default=600.0)
    ap.add_argument("--restricted", action="store_true",
                    help="instead: store-level lexical cost on a --grow index, all copies vs the real filings")
    ap.add_argument("--engines", action="store_true",
                    help="instead: FTS5 against tantivy at the store level (SQLite index; pip install tantivy)")
    args = ap.parse_args()
    paths = args.questions or [Path("../shared/data/questions/financebench.jsonl")]
    questions = [json.loads(line)["question"] for p in paths for line in p.open() if line.strip()]
    if args.grow:
        import tempfile

        workdir = args.workdir or Path(tempfile.mkdtemp(prefix="docqa-grow-"))
        unit = "pages" if args.pages else "chunks"
        try:
            for size, folder in grow(args.index, args.grow, workdir, unit=unit, pages=args.peer):
                t = time.perf_counter()
                engine = Engine.open(folder)  # builds the tantivy index from the grown SQLite when it is behind
                print(f"grown to {size:,} {unit} in {folder} (opened in {time.perf_counter() - t:.1f} s)")
                measure(engine, questions, args, peer=args.peer, modes=args.modes or ["lexical"])
                engine.close()
        finally:
            if not args.workdir:
                shutil.rmtree(workdir, ignore_errors=True)
        return
    engine = Engine.open(args.index)
    if args.engines:
        compare_engines(engine, questions, 200)
        return
    if args.restricted:
        restricted(engine, questions, 200)
        return
    measure(engine, questions, args, peer=args.peer, modes=args.modes)


def slowest(engine: Engine, questions: list[str], cpu: list[float], n: int, mode: str) -> None:
    """The tail, question by question: what each planned search asked of the lexical index."""
    order = sorted(range(len(questions)), key=lambda i: -cpu[i])[:n]
    print(f"the {len(order)} slowest questions ({mode}, CPU ms): terms, lexicon phrases, and per search the"
          " documents it was restricted to and the chunks it matched")
    for i in order:
        plan = engine.search_detailed(questions[i], k=1, mode=mode).plan
        print(f"  {cpu[i]:6.1f} ms  {questions[i][:100]!r}")
        print(f"           {len(plan.terms)} terms {plan.terms[:12]}; {len(plan.phrases)} phrases {plan.phrases[:4]}")
        for f in plan.groups:
            matched = len(engine.store.lexical_search(plan.terms, plan.phrases, f, 1_000_000))
            print(f"           search: {len(f.document_ids) or 'all'} documents, {matched} chunks matched")


class PeerProcess:
    """The peers' page BM25 in a process of its own, asked question by question over a pipe: each
    system in its own process and heap, as each is run (the peer's token lists, 1.1 GB at 24k pages,
    are not in docqa's heap, its garbage collections or its RSS figure); ``--peer-in-process`` runs
    it in this one. Either way the two share the CPU caches: after each of the peer's scans of every
    page docqa's search starts cold, and its CPU time is about 1.5x what it is alone."""

    def __init__(self, index: Path):
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_peer_worker, args=(str(index), child), daemon=True)
        self._proc.start()
        child.close()
        self.pages, self.build_s = self._conn.recv()

    def timed_rank(self, question: str, k: int) -> tuple[float, float]:
        """(wall ms, CPU ms) of the peer's search for the question, as its own process timed it."""
        self._conn.send((question, k))
        return self._conn.recv()

    def close(self) -> None:
        self._conn.send(None)
        self._proc.join(timeout=60)


def _peer_worker(index: str, conn) -> None:
    from docqa.eval.retrieval import PageBM25

    engine = Engine.open(Path(index))
    t = time.perf_counter()
    peer = PageBM25(engine)
    conn.send((len(peer.keys), time.perf_counter() - t))
    while (ask := conn.recv()) is not None:
        w, c = time.perf_counter(), time.process_time()
        peer.rank(*ask)
        conn.send(((time.perf_counter() - w) * 1000, (time.process_time() - c) * 1000))
    engine.close()


def start_peer(engine: Engine, in_process: bool):
    """The peer and a function that times one of its searches: (wall ms, CPU ms)."""
    t = time.perf_counter()
    if in_process:
        from docqa.eval.retrieval import PageBM25

        bm25 = PageBM25(engine)
        pages, build_s = len(bm25.keys), time.perf_counter() - t

        def timed(q: str, k: int) -> tuple[float, float]:
            w, c = time.perf_counter(), time.process_time()
            bm25.rank(q, k)
            return (time.perf_counter() - w) * 1000, (time.process_time() - c) * 1000

        close = None
    else:
        process = PeerProcess(engine.store.path.parent)
        pages, build_s, timed, close = process.pages, process.build_s, process.timed_rank, process.close
    where = "in this process" if in_process else "in a process of its own"
    print(f"peer: rank_bm25 (BM25Okapi) over {pages} pages {where}, built in {build_s:.1f} s", flush=True)
    return timed, close


def measure(engine: Engine, questions: list[str], args, peer: bool, modes: list[str] | None) -> None:
    docs = engine.documents()
    print(f"index: {len(docs)} documents, {sum(d.chunks for d in docs)} chunks, {sum(d.pages for d in docs)} pages;"
          f" {len(questions)} questions; lexical index {engine.settings.store.lexical} (DOCQA_LEXICAL);"
          f" load average {os.getloadavg()[0]:.1f}")
    timed_peer, close_peer = start_peer(engine, getattr(args, "peer_in_process", False)) if peer else (None, None)
    modes = modes or (["lexical"] + (["vector", "hybrid"] if engine.dense_available else []))
    try:
        for mode in modes:
            interleaved(engine, questions, args, mode, timed_peer)
    finally:
        if close_peer is not None:
            close_peer()


def interleaved(engine: Engine, questions: list[str], args, mode: str, timed_peer) -> None:
    """docqa's search and the peer's, question by question, so that both see the same load."""
    engine.search("warm up", k=1, mode=mode)
    wait_for_quiet(getattr(args, "quiet_load", 0.0), getattr(args, "quiet_wait", 0.0))
    ours = Timings(f"docqa {mode}")
    theirs = Timings("peer rank_bm25 pages")
    for q in questions:
        ours.time(engine.search, q, k=args.k, mode=mode)
        if timed_peer is not None:
            theirs.add(*timed_peer(q, args.k))
    print(ours.line(), flush=True)
    if getattr(args, "slowest", 0):
        slowest(engine, questions, ours.cpu, args.slowest, mode)
    if timed_peer is not None:
        print(theirs.line())
        print(f"{'ratio (peer / docqa)':22} wall p50 {pct(theirs.wall, 50) / pct(ours.wall, 50):5.1f}x"
              f"   p95 {pct(theirs.wall, 95) / pct(ours.wall, 95):5.1f}x"
              f"   cpu p50 {pct(theirs.cpu, 50) / pct(ours.cpu, 50):5.1f}x"
              f"   p95 {pct(theirs.cpu, 95) / pct(ours.cpu, 95):5.1f}x   ({ours.loads()})", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}; peak memory (RSS): "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
