"""Answer evaluation with the conventions of shared/data/README.md.

* numeric: every number of the reference appears in the answer within 1 %, also across a unit
  shift ($1,577 million = $1.577 billion = 1577.00);
* yes_no: the answer's leading yes/no matches the reference's;
* text: no exact criterion exists; scored leniently as "every number of the reference appears"
  when the reference has numbers, else "half the reference's content words appear" (reported
  apart, as a proxy, never mixed into the strict score);
* unanswerable (our own labeled file): the answer must be found=False.
"""

from __future__ import annotations

import json
import re
import time
from collections import defaultdict
from pathlib import Path

from rich.console import Console
from rich.table import Table

from docqa.engine import Engine
from docqa.eval.metrics import bootstrap_ci, mean
from docqa.eval.runfolder import write_run
from docqa.text import query_tokens

_NUM = re.compile(r"-?\(?\$?\d[\d,]*\.?\d*")
_SHIFTS = (1.0, 1e3, 1e6, 1e9, 1e-3, 1e-6, 1e-9)


def numbers(text: str) -> list[float]:
    out = []
    for raw in _NUM.findall(text or ""):
        cleaned = raw.replace(",", "").replace("$", "").replace("(", "").replace("-", "")
        try:
            value = float(cleaned.rstrip("."))
        except ValueError:
            continue
        out.append(value)
    return out


def numbers_match(reference: str, answer: str, tolerance: float = 0.01) -> bool:
    wanted = [n for n in numbers(reference) if not (1990 <= n <= 2039 and float(n).is_integer())] or numbers(reference)
    got = numbers(answer)
    if not wanted:
        return False
    for w in wanted:
        if not any(_close(w, g * s, tolerance) for g in got for s in _SHIFTS):
            return False
    return True


def _close(a: float, b: float, tolerance: float) -> bool:
    if a == 0:
        return abs(b) < 1e-9
    return abs(abs(a) - abs(b)) <= tolerance * abs(a)


def leading_yes_no(text: str) -> str | None:
    m = re.match(r"\W*(yes|no)\b", (text or "").strip(), re.I)
    return m.group(1).lower() if m else None


def score(q: dict, answer_text: str, found: bool) -> dict[str, float | None]:
    kind = q.get("answer_type")
    if kind == "unanswerable":
        return {"correct": float(not found)}
    if not found:
        return {"correct": None, "proxy": 0.0} if kind == "text" else {"correct": 0.0}
    ref = q.get("answer", "")
    if kind == "numeric":
        return {"correct": float(numbers_match(ref, answer_text))}
    if kind == "yes_no":
        return {"correct": float(leading_yes_no(ref) is not None and leading_yes_no(ref) == leading_yes_no(answer_text))}
    # text: a lenient proxy, reported apart
    if numbers(ref):
        return {"correct": None, "proxy": float(numbers_match(ref, answer_text))}
    ref_words = set(query_tokens(ref))
    got = set(query_tokens(answer_text))
    return {"correct": None, "proxy": float(len(ref_words & got) >= 0.5 * len(ref_words)) if ref_words else 0.0}


def run_answer_eval(engine: Engine, question_files: list[Path], runs_dir: Path = Path("runs"),
                    console: Console | None = None, limit: int | None = None) -> Path:
    console = console or Console()
    questions = []
    for path in question_files:
        with path.open() as fh:
            questions.extend(json.loads(line) for line in fh if line.strip())
    if limit:
        questions = questions[:limit]
    rows = []
    for q in questions:
        started = time.perf_counter()
        answer = engine.ask(q["question"])
        elapsed = (time.perf_counter() - started) * 1000
        relevant = {(e["document"], int(e["page"])) for e in q.get("evidence", [])}
        cited = {(c.document, c.page) for c in answer.citations}
        result = score(q, answer.text, answer.found)
        rows.append({
            "id": q["id"], "question": q["question"], "answer_type": q.get("answer_type"),
            "reference": q.get("answer"), "answer": answer.text, "found": answer.found, "reason": answer.reason,
            "verification": answer.verification, "answerer": answer.answerer, "formula": answer.formula,
            "cited": sorted(cited), "evidence": sorted(relevant),
            "cites_evidence_page": bool(cited & relevant) if relevant else None,
            "citations_dropped": answer.citations_dropped, "latency_ms": round(elapsed, 1), **result,
        })
    summary = _summarise(rows)
    run = write_run(runs_dir, "answers", "answers.jsonl", rows, summary)
    _print(summary, console)
    console.print(f"run folder: {run}")
    return run


def _summarise(rows: list[dict]) -> dict:
    by_type: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_type[r["answer_type"]].append(r)
    out: dict = {"n": len(rows), "by_type": {}}
    strict = [r["correct"] for r in rows if r.get("correct") is not None and r["answer_type"] != "unanswerable"]
    lo, hi = bootstrap_ci(strict)
    out["strict_accuracy"] = {"mean": round(mean(strict), 3), "ci95": [round(lo, 3), round(hi, 3)], "n": len(strict)}
    for kind, subset in sorted(by_type.items()):
        block = {"n": len(subset), "found": round(mean([float(r["found"]) for r in subset]), 3),
                 "verified": round(mean([float(r["verification"] == "verified") for r in subset]), 3)}
        correct = [r["correct"] for r in subset if r.get("correct") is not None]
        if correct:
            block["accuracy"] = round(mean(correct), 3)
        proxy = [r["proxy"] for r in subset if r.get("proxy") is not None]
        if proxy:
            block["proxy_accuracy"] = round(mean(proxy), 3)
        cites = [float(r["cites_evidence_page"]) for r in subset if r["cites_evidence_page"] is not None and r["found"]]
        if cites:
            block["found_cites_evidence_page"] = round(mean(cites), 3)
        lat = sorted(r["latency_ms"] for r in subset)
        block["latency_p50_ms"] = lat[len(lat) // 2]
        out["by_type"][kind] = block
    # Precision of what is said: among answers given (found), how many are right.
    given = [r for r in rows if r["found"] and r.get("correct") is not None and r["answer_type"] != "unanswerable"]
    out["precision_when_found"] = round(mean([r["correct"] for r in given]), 3) if given else None
    return out


def _print(summary: dict, console: Console) -> None:
    table = Table(title=f"answers · {summary['n']} questions")
    for col in ("type", "n", "found", "verified", "accuracy", "proxy", "cites evidence page", "p50 ms"):
        table.add_column(col, justify="right")
    for kind, b in summary["by_type"].items():
        table.add_row(kind, str(b["n"]), f"{b['found']:.2f}", f"{b['verified']:.2f}",
                      f"{b['accuracy']:.2f}" if "accuracy" in b else "-",
                      f"{b['proxy_accuracy']:.2f}" if "proxy_accuracy" in b else "-",
                      f"{b['found_cites_evidence_page']:.2f}" if "found_cites_evidence_page" in b else "-",
                      f"{b['latency_p50_ms']:.0f}")
    console.print(table)
    s = summary["strict_accuracy"]
    console.print(f"strict accuracy (numeric + yes/no): {s['mean']:.3f} [{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}] over {s['n']}; "
                  f"precision when an answer is given: {summary['precision_when_found']}")
