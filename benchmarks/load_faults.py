"""Load and faults: the web app (`docqa serve`) on PostgreSQL, under 8 concurrent clients.

    .venv/bin/python benchmarks/load_faults.py [--clients 8] [--seconds 60] [--outage 15] [--no-dense]

Starts its own throwaway PostgreSQL cluster on 127.0.0.1 (docqa.store.pgcluster) and a real
`docqa serve` process on a free 127.0.0.1 port with DOCQA_STORE pointing at it, then:

1. load: CLIENTS threads POST /api/ask for SECONDS while a 549-page filing (--load-pdf) is uploaded
   and indexed; throughput, p50/p95 latency, errors, and the CPU seconds the server's processes
   spent (answering processes and the indexing one apart), hence CPU per answer and the answers/s
   the machine's cores sustain, whatever else ran on it meanwhile. A checker polls the database
   (one snapshot per query) for a half-visible document: a document row whose chunks or pages are
   not all there.
2. restart: the clients keep asking while PostgreSQL is stopped for OUTAGE seconds and started
   again: what the failed requests answered (status, error code, message), and how long after the
   server was back the requests succeeded again without anyone restarting docqa.
3. outage during ingest: a filing is uploaded and PostgreSQL is stopped for OUTAGE seconds while
   docqa indexes it: the job must wait, run again when the server is back (docqa is not restarted)
   and the document be stored exactly once, whole.
4. kill: a filing is uploaded and the docqa process is killed (SIGKILL) while it indexes it;
   docqa is started again: the job must be retried and the document stored exactly once.

Every request goes to 127.0.0.1; every loop is bounded in time. Prints a summary and writes
benchmarks/results/load-faults.json.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from docqa.store.pgcluster import LocalCluster  # noqa: E402

SAMPLES = ROOT / "samples"
SHARED = ROOT.parent / "shared" / "data" / "pdfs"
QUESTIONS = [
    "What was Amazon's total net sales in 2017?",
    "What was Netflix's net income in 2017?",
    "What was Adobe's total revenue in fiscal 2022?",
    "What were Amazon's operating expenses in 2017?",
    "How many times does 'streaming' appear in NETFLIX_2017_10K.pdf?",
    "What was Netflix's cash and cash equivalents at the end of 2017?",
    "What is Adobe's gross margin in FY2022?",
    "What was Amazon's capital expenditure in 2017?",
]


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One `docqa serve` process."""

    def __init__(self, index: Path, store_url: str, dense: bool, log: Path):
        self.index, self.store_url, self.dense, self.log = index, store_url, dense, log
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 180) -> None:
        env = {**os.environ, "DOCQA_STORE": self.store_url, "DOCQA_DENSE": "true" if self.dense else "false",
               "DOCQA_HOST": "127.0.0.1", "DOCQA_PORT": str(self.port), "DOCQA_INDEX": str(self.index)}
        env.pop("DOCQA_API_TOKEN", None)
        with self.log.open("a") as fh:
            self.proc = subprocess.Popen([sys.executable, "-m", "docqa.faces.cli", "serve"], env=env, stdout=fh,
                                         stderr=subprocess.STDOUT, cwd=ROOT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"docqa serve exited with {self.proc.returncode}; see {self.log}")
            try:
                if httpx.get(self.base + "/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        raise SystemExit(f"docqa serve did not answer within {timeout} s; see {self.log}")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def upload(self, path: Path) -> str:
        with path.open("rb") as fh:
            r = httpx.post(self.base + "/api/documents", files=[("files", (path.name, fh, "application/pdf"))],
                           timeout=120)
        r.raise_for_status()
        return r.json()["files"][0]["id"]

    def status(self, doc_id: str) -> dict:
        r = httpx.get(f"{self.base}/api/documents/{doc_id}", timeout=30)
        return r.json() if r.status_code == 200 else {"status": f"http {r.status_code}"}

    def delete(self, doc_id: str) -> None:
        httpx.delete(f"{self.base}/api/documents/{doc_id}", timeout=60).raise_for_status()

    def forget_embeddings(self) -> None:
        """Empty the index's cache of chunk vectors (by text), so a filing indexed again costs what it did."""
        cache = self.index / "embedding-cache.sqlite"
        if cache.exists():
            import sqlite3

            with sqlite3.connect(cache) as db:
                db.execute("DELETE FROM vectors")

    def indexer_pid(self) -> int | None:
        """The indexing process: the one that holds the index's ingest lock writes its pid there."""
        try:
            return int((self.index / "ingest.lock").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def wait_ready(self, doc_id: str, timeout: float = 600) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            info = self.status(doc_id)
            if info.get("status") in ("ready", "failed"):
                return info
            time.sleep(0.5)
        raise SystemExit(f"{doc_id} not indexed within {timeout} s")


class Clients:
    """N threads asking questions in a loop until stopped (or a hard deadline)."""

    def __init__(self, base: str, n: int, hard_limit_s: float):
        self.base, self.n, self.hard_limit = base, n, hard_limit_s
        self.records: list[tuple[float, float, int, str]] = []  # start (monotonic), seconds, status, error
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def _loop(self, i: int) -> None:
        deadline = time.monotonic() + self.hard_limit
        with httpx.Client(base_url=self.base, timeout=60) as client:
            k = i
            while not self._stop.is_set() and time.monotonic() < deadline:
                question = QUESTIONS[k % len(QUESTIONS)]
                k += 1
                t = time.monotonic()
                try:
                    r = client.post("/api/ask", json={"question": question})
                    status = r.status_code
                    error = "" if status == 200 else json.dumps(r.json().get("error", r.text))[:300]
                except httpx.HTTPError as exc:
                    status, error = 0, f"{type(exc).__name__}: {exc}"[:300]
                with self._lock:
                    self.records.append((t, time.monotonic() - t, status, error))
                if status != 200:
                    time.sleep(0.2)  # a failing server is not hammered

    def start(self) -> "Clients":
        self._threads = [threading.Thread(target=self._loop, args=(i,), daemon=True) for i in range(self.n)]
        for t in self._threads:
            t.start()
        return self

    def stop(self) -> list[tuple[float, float, int, str]]:
        self._stop.set()
        for t in self._threads:
            t.join(90)
        return sorted(self.records)


class VisibilityChecker(threading.Thread):
    """Polls the database: every document row must come with all its chunks and pages."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url = url
        self.checks = 0
        self.violations: list[str] = []
        self.max_documents = 0
        self._halt = threading.Event()

    def run(self) -> None:
        import psycopg

        sql = """SELECT d.id, d.chunks, d.pages,
                        (SELECT count(*) FROM docqa.chunks c WHERE c.document_id = d.id),
                        (SELECT count(*) FROM docqa.pages p WHERE p.document_id = d.id)
                 FROM docqa.documents d"""
        orphans = """SELECT count(*) FROM docqa.chunks c
                     WHERE NOT EXISTS (SELECT 1 FROM docqa.documents d WHERE d.id = c.document_id)"""
        conn = None
        while not self._halt.is_set():
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(self.url, autocommit=True, connect_timeout=2)
                with conn.transaction():  # one snapshot for both statements
                    conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                    rows = conn.execute(sql).fetchall()
                    orphan = conn.execute(orphans).fetchone()[0]
                self.checks += 1
                self.max_documents = max(self.max_documents, len(rows))
                for doc_id, chunks, pages, got_chunks, got_pages in rows:
                    if (chunks, pages) != (got_chunks, got_pages):
                        self.violations.append(f"{doc_id}: {got_chunks}/{chunks} chunks, {got_pages}/{pages} pages")
                if orphan:
                    self.violations.append(f"{orphan} chunks without their document")
            except Exception:
                conn = None  # the server is down (restart phase): try again
            time.sleep(0.05)

    def stop(self) -> None:
        self._halt.set()
        self.join(10)


def wait_processing(server: Server, doc_id: str, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.status(doc_id).get("status") == "processing":
            return
        time.sleep(0.1)
    raise SystemExit(f"{doc_id} did not start indexing within {timeout} s")


def stored_once(url: str, doc_id: str) -> dict:
    """How many times the filing is stored, and whether whole: its rows, chunks, pages and job."""
    import psycopg

    with psycopg.connect(url) as conn:
        copies = conn.execute("SELECT count(*) FROM docqa.documents WHERE sha256 LIKE %s",
                              (doc_id + "%",)).fetchone()[0]
        chunks, expected, pages, pages_expected = conn.execute(
            "SELECT (SELECT count(*) FROM docqa.chunks WHERE document_id = %(d)s), chunks,"
            " (SELECT count(*) FROM docqa.pages WHERE document_id = %(d)s), pages"
            " FROM docqa.documents WHERE id = %(d)s", {"d": doc_id}).fetchone()
        job = conn.execute("SELECT body FROM docqa.jobs WHERE id = %s", (doc_id,)).fetchone()[0]
    return {"document_rows": copies, "chunks": chunks, "chunks_expected": expected, "pages": pages,
            "pages_expected": pages_expected, "attempts": job.get("attempts"), "reason": job.get("reason")}


def _cpu_s(pid: int) -> float:
    """utime + stime of one process, in seconds (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _nice(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    except OSError:
        return 0


def _children(pid: int) -> list[tuple[int, str]]:
    out = subprocess.run(["ps", "-o", "pid=,args=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    rows = [line.strip().partition(" ") for line in out.splitlines() if line.strip()]
    return [(int(child), args) for child, _, args in rows if "resource_tracker" not in args]


def server_processes(root: int, indexer: int | None = None) -> dict[int, str]:
    """The `docqa serve` process and its descendants by job: the indexing one holds the ingest lock
    (``indexer``; else it is the one at a lower priority); a process a worker started (its sentence
    model's) counts for that worker's job."""
    found = {root: "supervisor"}
    for pid, _args in _children(root):
        job = "indexing" if (pid == indexer if indexer else _nice(pid) > _nice(root)) else "answering"
        found[pid] = job
        todo = [pid]
        while todo:
            for grandchild, _ in _children(todo.pop()):
                found[grandchild] = job
                todo.append(grandchild)
    return found


def cpu_by_process(root: int, indexer: int | None = None) -> dict[int, float]:
    return {pid: _cpu_s(pid) for pid in server_processes(root, indexer)}


def summarise(records, seconds: float) -> dict:
    ok = [d for _, d, s, _ in records if s == 200]
    return {
        "requests": len(records), "ok": len(ok), "errors": len(records) - len(ok),
        "throughput_rps": len(ok) / seconds if seconds else 0.0,
        "p50_ms": pct(ok, 50) * 1000, "p95_ms": pct(ok, 95) * 1000,
        "mean_ms": statistics.mean(ok) * 1000 if ok else float("nan"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--outage", type=float, default=15, help="seconds PostgreSQL stays down")
    ap.add_argument("--no-dense", action="store_true", help="index without embeddings (lexical search only)")
    ap.add_argument("--kill-pdf", type=Path, default=SHARED / "BOEING_2022_10K.pdf")
    ap.add_argument("--only-load", action="store_true", help="run the load phase only (no faults)")
    ap.add_argument("--ready-timeout", type=float, default=1800,
                    help="seconds a filing may take to index (a 500-page filing on a shared 2-core machine)")
    ap.add_argument("--load-pdf", type=Path, default=SHARED / "PEPSICO_2021_10K.pdf",
                    help="the filing indexed during the load phase (549 pages)")
    ap.add_argument("--outage-pdf", type=Path, default=SHARED / "PEPSICO_2022_10K.pdf",
                    help="the filing being indexed when PostgreSQL stops")
    args = ap.parse_args()
    # A stopped run (SIGTERM) still stops the PostgreSQL cluster it started and deletes its data.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    dense = not args.no_dense
    work = Path(tempfile.mkdtemp(prefix="docqa-load-"))
    results: dict = {"clients": args.clients, "dense": dense, "machine": f"{os.cpu_count()} cores",
                     "load_average_start": os.getloadavg()}
    cluster = LocalCluster.start(durable=True)
    server = None
    try:
        url = cluster.create_database("docqa")
        server = Server(work / "index", url, dense, work / "serve.log")
        t = time.monotonic()
        server.start()
        print(f"docqa serve on {server.base}, store {url} (dense={dense}); started in {time.monotonic() - t:.1f} s",
              flush=True)
        first = server.upload(SAMPLES / "AMAZON_2017_10K.pdf")
        print(f"preloaded AMAZON_2017_10K.pdf: {server.wait_ready(first)['status']}", flush=True)
        # The load phase's filing indexed once with no load, then deleted: its idle time to ready.
        # Twice: the first run after the server starts also waits for the indexer's sentence model.
        idle = {}
        for pdf in ([args.load_pdf] if args.load_pdf.exists() else []):
            for attempt in (1, 2):
                t = time.monotonic()
                doc_id = server.upload(pdf)
                server.wait_ready(doc_id, args.ready_timeout)
                idle[pdf.name] = time.monotonic() - t
                server.delete(doc_id)
                server.forget_embeddings()  # indexed again, its chunks are embedded again too
                print(f"idle ({attempt}): {pdf.name} ready in {idle[pdf.name]:.1f} s with no load", flush=True)
        results["idle_ready_s"] = idle

        # --- 1. load while two documents are indexed ---------------------------------------------
        checker = VisibilityChecker(url)
        checker.start()
        load_pdfs = [args.load_pdf] if args.load_pdf.exists() else [SAMPLES / "NETFLIX_2017_10K.pdf",
                                                                     SAMPLES / "ADOBE_2022_10K.pdf"]
        assert server.proc is not None
        lock_pid = server.indexer_pid()
        cpu_before = cpu_by_process(server.proc.pid, lock_pid)
        indexer = next((pid for pid, job in server_processes(server.proc.pid, lock_pid).items()
                        if job == "indexing"), None)
        load_before = os.getloadavg()
        clients = Clients(server.base, args.clients, args.seconds + 120).start()
        t0 = time.monotonic()
        time.sleep(2)
        uploaded_at = time.monotonic() - t0
        uploads = [server.upload(pdf) for pdf in load_pdfs]
        indexed_at = {}
        while time.monotonic() - t0 < args.seconds:
            for doc_id in uploads:
                if doc_id not in indexed_at and server.status(doc_id).get("status") == "ready":
                    indexed_at[doc_id] = time.monotonic() - t0
            time.sleep(0.5)
        records = clients.stop()
        elapsed = time.monotonic() - t0
        cpu_after = cpu_by_process(server.proc.pid, lock_pid)
        checker.stop()
        load = summarise(records, elapsed)
        spent = {pid: cpu_after.get(pid, 0.0) - cpu_before.get(pid, 0.0) for pid in cpu_after}
        jobs = server_processes(server.proc.pid, lock_pid)  # the indexer's own sentence model counts for it
        indexing_cpu = sum(cpu for pid, cpu in spent.items() if jobs.get(pid) == "indexing") if indexer else 0.0
        answering_cpu = sum(spent.values()) - indexing_cpu
        cores = os.cpu_count() or 1
        load.update({
            "files": [p.name for p in load_pdfs], "load_average": [load_before[0], os.getloadavg()[0]],
            "server_processes": len(cpu_after), "answering_cpu_s": answering_cpu, "indexing_cpu_s": indexing_cpu,
            "cpu_ms_per_answer": answering_cpu / max(1, load["ok"]) * 1000,
            # what the cores would sustain if the server had them to itself and nothing were indexed
            "sustainable_answers_per_s": cores / (answering_cpu / max(1, load["ok"])) if answering_cpu else None,
        })
        ready = {pdf.name: indexed_at[d] - uploaded_at for pdf, d in zip(load_pdfs, uploads) if d in indexed_at}
        load["ready_after_upload_s"] = ready
        load["ready_over_idle"] = {n: s / idle[n] for n, s in ready.items() if idle.get(n)}
        load.update({"seconds": elapsed, "indexed_during_run_s": sorted(indexed_at.values()),
                     "visibility_checks": checker.checks, "half_visible": checker.violations[:5],
                     "error_samples": sorted({e for *_, s, e in records if s != 200})[:3]})
        results["load"] = load
        print(f"[load] {load['ok']} answers in {elapsed:.0f} s = {load['throughput_rps']:.2f}/s, p50 "
              f"{load['p50_ms']:.0f} ms, p95 {load['p95_ms']:.0f} ms, errors {load['errors']}; documents ready at "
              f"{', '.join(f'{s:.0f} s' for s in load['indexed_during_run_s']) or 'not within the run'}; "
              f"{checker.checks} visibility checks, {len(checker.violations)} half-visible", flush=True)
        print(f"[load] {', '.join(load['files'])} indexed meanwhile; load average {load['load_average'][0]:.1f} -> "
              f"{load['load_average'][1]:.1f}; {load['server_processes']} server processes; CPU: answering "
              f"{load['answering_cpu_s']:.1f} s ({load['cpu_ms_per_answer']:.0f} ms per answer), indexing "
              f"{load['indexing_cpu_s']:.1f} s; {cores} cores sustain "
              f"{load['sustainable_answers_per_s'] or 0:.1f} answers/s", flush=True)
        for name, ratio in load["ready_over_idle"].items():
            print(f"[load] {name} ready {ready[name]:.1f} s after its upload under load = {ratio:.1f}x its idle "
                  f"{idle[name]:.1f} s", flush=True)
        if args.only_load:
            return
        for doc_id in uploads:
            server.wait_ready(doc_id, args.ready_timeout)

        # --- 2. PostgreSQL restarts under load -----------------------------------------------------
        clients = Clients(server.base, args.clients, 10 + args.outage + 60 + 60).start()
        t0 = time.monotonic()
        time.sleep(10)
        down_at = time.monotonic()
        cluster.pause()
        time.sleep(args.outage)
        cluster.resume()
        up_at = time.monotonic()
        time.sleep(30)
        records = clients.stop()
        failed = [(t, d, s, e) for t, d, s, e in records if s != 200]
        after = [(t, d, s, e) for t, d, s, e in records if t + d >= up_at]
        first_ok_after = next((t + d - up_at for t, d, s, _ in after if s == 200), None)
        last_error_end = max((t + d for t, d, s, _ in failed), default=None)
        statuses: dict[str, int] = {}
        for *_, s, _ in failed:
            statuses[str(s)] = statuses.get(str(s), 0) + 1
        outage = {
            "outage_s": up_at - down_at, "requests": len(records), "failed": len(failed), "statuses": statuses,
            "error_samples": sorted({e for *_, e in failed})[:3],
            "first_success_after_restart_s": first_ok_after,
            "last_failure_after_restart_s": (last_error_end - up_at) if last_error_end else None,
            "failed_before_outage": sum(1 for t, d, s, _ in failed if t + d < down_at),
            "slowest_during_outage_s": max((d for t, d, s, _ in records if down_at <= t + d <= up_at + 1), default=0),
        }
        results["restart"] = outage
        print(f"[restart] PostgreSQL down {outage['outage_s']:.1f} s: {len(failed)} of {len(records)} requests "
              f"failed {statuses}; first success {first_ok_after if first_ok_after is None else round(first_ok_after, 1)} s "
              f"after PostgreSQL was back; last failure ended "
              f"{'-' if last_error_end is None else round(last_error_end - up_at, 1)} s after; "
              f"e.g. {outage['error_samples'][:1]}", flush=True)

        # --- 3. PostgreSQL stops while docqa indexes a filing ------------------------------------
        pdf = args.outage_pdf if args.outage_pdf.exists() else SAMPLES / "NETFLIX_2017_10K.pdf"
        doc_id = server.upload(pdf)
        wait_processing(server, doc_id)
        time.sleep(1.0)
        state_at_stop = server.status(doc_id)
        cluster.pause()
        time.sleep(args.outage)
        cluster.resume()
        up_at = time.monotonic()
        final = server.wait_ready(doc_id, args.ready_timeout)
        ready_after = time.monotonic() - up_at
        during = stored_once(url, doc_id)
        during.update({"file": pdf.name, "outage_s": args.outage, "status_when_stopped": state_at_stop.get("status"),
                       "pages_done_when_stopped": state_at_stop.get("pages_done"),
                       "final_status": final.get("status"), "ready_after_restart_s": ready_after})
        results["outage_during_ingest"] = during
        print(f"[outage during ingest] PostgreSQL stopped {args.outage:.0f} s while {pdf.name} was "
              f"{during['status_when_stopped']} (page {during['pages_done_when_stopped']}); "
              f"{during['final_status']} {ready_after:.1f} s after it was back, with no restart of docqa; "
              f"stored {during['document_rows']} time(s), {during['chunks']}/{during['chunks_expected']} chunks, "
              f"{during['pages']}/{during['pages_expected']} pages, attempts {during['attempts']}", flush=True)

        # --- 4. kill docqa while it indexes -----------------------------------------------------
        pdf = args.kill_pdf if args.kill_pdf.exists() else None
        if pdf is None:
            victim = next(d for d in uploads)
            httpx.delete(f"{server.base}/api/documents/{victim}", timeout=60).raise_for_status()
            pdf = SAMPLES / "NETFLIX_2017_10K.pdf"
        doc_id = server.upload(pdf)
        wait_processing(server, doc_id)
        time.sleep(1.0)  # well inside the indexing (parse / embed)
        state_at_kill = server.status(doc_id)
        server.kill()
        import psycopg

        with psycopg.connect(url) as conn:
            present_after_kill = conn.execute("SELECT count(*) FROM docqa.documents WHERE id = %s",
                                              (doc_id,)).fetchone()[0]
        server.start()
        final = server.wait_ready(doc_id, args.ready_timeout)
        kill = stored_once(url, doc_id)
        kill.update({"file": pdf.name, "status_when_killed": state_at_kill.get("status"),
                     "pages_done_when_killed": state_at_kill.get("pages_done"),
                     "document_rows_after_kill": present_after_kill, "final_status": final.get("status")})
        results["kill"] = kill
        print(f"[kill] killed docqa while {pdf.name} was {kill['status_when_killed']} "
              f"(page {kill['pages_done_when_killed']}); rows for it after the kill: {present_after_kill}; after a "
              f"restart: {kill['final_status']}, stored {kill['document_rows']} time(s), "
              f"{kill['chunks']}/{kill['chunks_expected']} chunks, attempts {kill['attempts']}", flush=True)
    finally:
        if server:
            server.stop()
        cluster.stop()
        out = ROOT / "benchmarks" / "results"
        out.mkdir(parents=True, exist_ok=True)
        (out / "load-faults.json").write_text(json.dumps(results, indent=1))
        log = work / "serve.log"
        if log.exists():
            (out / "load-faults-serve.log").write_text(log.read_text(errors="replace")[-20000:])
        import shutil

        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
