"""Retrieval evaluation: the system against labeled evidence pages, beside a plain BM25 baseline.

A run folder holds ``questions.jsonl`` (one line per question: ranked pages, metrics, what the
query planner detected) and ``summary.json``; two folders are compared question by question.
"""

from __future__ import annotations

import json
import re
import time
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

from rich.console import Console
from rich.table import Table

from docqa.engine import Engine
from docqa.eval.metrics import bootstrap_ci, mean, page_metrics, paired_bootstrap
from docqa.eval.runfolder import write_run

METRICS = ["ndcg@5", "recall@5", "hit@3", "hit@5", "mrr"]


def load_questions(path: Path) -> list[dict]:
    with path.open() as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _relevant(q: dict) -> set[tuple[str, int]]:
    return {(e["document"], int(e["page"])) for e in q.get("evidence", [])}


class PageBM25:
    """The peers' baseline: rank_bm25 over each page's full text, whole corpus, no filters."""

    def __init__(self, engine: Engine):
        from rank_bm25 import BM25Okapi

        self.keys: list[tuple[str, int]] = []
        corpus = []
        for doc in engine.documents():
            for page in engine.store.pages(doc.id):
                self.keys.append((doc.file_name, page.number))
                corpus.append(_simple_tokens(page.text))
        self.bm25 = BM25Okapi(corpus)

    def rank(self, question: str, k: int, documents: set[str] | None = None) -> list[tuple[str, int]]:
        scores = self.bm25.get_scores(_simple_tokens(question))
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        out = []
        for i in order:
            if documents and self.keys[i][0] not in documents:
                continue
            out.append(self.keys[i])
            if len(out) >= k:
                break
        return out


def _simple_tokens(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def run_retrieval_eval(
    engine: Engine,
    questions_path: Path,
    mode: str = "hybrid",
    k: int = 10,
    oracle: bool = False,
    runs_dir: Path = Path("runs"),
    baseline: bool = True,
    compare: Path | None = None,
    console: Console | None = None,
) -> Path:
    console = console or Console()
    if mode != "lexical" and engine.embedder() is None:
        mode = "lexical"  # what hybrid means on an index without vectors; say so in the run
    questions = load_questions(questions_path)
    known = {d.file_name for d in engine.documents()}
    missing = sorted({doc for q in questions for doc in q.get("documents", []) if doc not in known})
    if missing:
        console.print(f"[yellow]{len(missing)} cited documents are not indexed (their questions score 0): {missing[:5]}[/yellow]")
    bm25 = PageBM25(engine) if baseline else None
    rows = []
    latencies = []
    engine.search("warm up the embedder", k=1, mode=mode)  # model load is not query latency
    for q in questions:
        relevant = _relevant(q)
        document = q["documents"][0] if oracle and q.get("documents") else None
        started = time.perf_counter()
        result = engine.search_detailed(q["question"], k=k, mode=mode, document=document if document in known else None)
        latencies.append((time.perf_counter() - started) * 1000)
        ranked = [(h.document, h.page) for h in result.hits]
        row = {
            "id": q["id"], "question": q["question"], "answer_type": q.get("answer_type"),
            "question_type": q.get("question_type"), "relevant": sorted(relevant), "ranked": ranked,
            "metrics": page_metrics(ranked, relevant),
            "companies": result.plan.companies, "years": result.plan.years, "notes": result.plan.notes,
            "latency_ms": round(latencies[-1], 1),
        }
        if bm25:
            docs = set(q.get("documents", [])) if oracle else None
            row["baseline_ranked"] = bm25.rank(q["question"], k, docs)
            row["baseline_metrics"] = page_metrics(row["baseline_ranked"], relevant)
        rows.append(row)

    summary = {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "questions": str(questions_path), "mode": mode, "oracle": oracle, "n": len(rows),
        "documents_indexed": len(known),
        "latency_ms": {"p50": _pct(latencies, 50), "p95": _pct(latencies, 95)},
        "system": _summarise(rows, "metrics"),
    }
    if bm25:
        summary["baseline_bm25_pages"] = _summarise(rows, "baseline_metrics")
    run = write_run(runs_dir, "retrieval", "questions.jsonl", rows, summary,
                    suffix=f"{mode}{'-oracle' if oracle else ''}")
    _print_summary(summary, console)
    console.print(f"run folder: {run}")
    if compare:
        compare_runs(compare, run, console)
    return run


def _pct(values: list[float], p: int) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))], 1)


def _summarise(rows: list[dict], key: str) -> dict:
    def block(subset: list[dict]) -> dict:
        out = {"n": len(subset)}
        for m in METRICS:
            values = [r[key][m] for r in subset]
            lo, hi = bootstrap_ci(values)
            out[m] = {"mean": round(mean(values), 3), "ci95": [round(lo, 3), round(hi, 3)]}
        return out

    result = {"overall": block(rows)}
    for field in ("answer_type", "question_type"):
        groups: dict[str, list[dict]] = defaultdict(list)
        for r in rows:
            groups[str(r.get(field))].append(r)
        result[field] = {g: block(sub) for g, sub in sorted(groups.items())}
    return result


def _print_summary(summary: dict, console: Console) -> None:
    table = Table(title=f"retrieval · {summary['n']} questions · mode {summary['mode']}"
                  f"{' · oracle document' if summary['oracle'] else ''}")
    table.add_column("slice")
    table.add_column("n", justify="right")
    for m in METRICS:
        table.add_column(m, justify="right")
    systems = [("docqa", summary["system"])]
    if "baseline_bm25_pages" in summary:
        systems.append(("BM25 pages", summary["baseline_bm25_pages"]))
    for name, s in systems:
        table.add_row(f"[bold]{name}[/bold] overall", str(s["overall"]["n"]),
                      *[f"{s['overall'][m]['mean']:.3f}" for m in METRICS])
    for field in ("answer_type", "question_type"):
        for group, block in summary["system"][field].items():
            table.add_row(f"  {field}={group}", str(block["n"]), *[f"{block[m]['mean']:.3f}" for m in METRICS])
    console.print(table)
    lat = summary["latency_ms"]
    console.print(f"query latency p50 {lat['p50']} ms · p95 {lat['p95']} ms")


def compare_runs(a: Path, b: Path, console: Console | None = None) -> dict:
    console = console or Console()
    rows_a = {json.loads(l)["id"]: json.loads(l) for l in (a / "questions.jsonl").open()}
    rows_b = {json.loads(l)["id"]: json.loads(l) for l in (b / "questions.jsonl").open()}
    ids = sorted(set(rows_a) & set(rows_b))
    table = Table(title=f"{b.name} vs {a.name} · {len(ids)} paired questions")
    for col in ("metric", "A", "B", "B-A", "95% CI", "p(B<=A)"):
        table.add_column(col, justify="right")
    out = {}
    for m in METRICS:
        va = [rows_a[i]["metrics"][m] for i in ids]
        vb = [rows_b[i]["metrics"][m] for i in ids]
        res = paired_bootstrap(va, vb)
        out[m] = res
        table.add_row(m, f"{mean(va):.3f}", f"{mean(vb):.3f}", f"{res['delta']:+.3f}",
                      f"[{res['ci_low']:+.3f}, {res['ci_high']:+.3f}]", f"{res['p_not_better']:.3f}")
    console.print(table)
    return out
