"""Answer evaluation with FinanceBench's scoring conventions (docs/benchmarks.md, Evaluation data).

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
from docqa.plan.companies import canonical_companies
from docqa.text import query_tokens
from docqa.types import DocType, Document
from docqa.verify import REASON_MEASURE_PREFIX, measure_asked

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
    documents = engine.documents()
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
            "numbers_unverified": list(answer.numbers_unverified),
            **grounding_counts(q, answer, documents),
            "measure": answer.measure, "another_measure": answer.found and bool(answer.figures) and not measure_asked(q["question"], answer.measure),
            "refused_as_another_measure": (answer.reason or "").startswith(REASON_MEASURE_PREFIX),
        })
    summary = _summarise(rows)
    run = write_run(runs_dir, "answers", "answers.jsonl", rows, summary)
    _print(summary, console)
    console.print(f"run folder: {run}")
    return run


def _covers(cited: Document, expected: Document) -> bool:
    """Does the cited filing report the period the expected one does? The same filing does; an
    annual filing reports its year and the two before (comparatives); a quarterly filing reports its
    quarter, and next year's filing of that quarter reports it again."""
    if cited.id == expected.id:
        return True
    c, e = cited.meta, expected.meta
    if c.fiscal_year is None or e.fiscal_year is None:
        return False
    annual = bool(c.doc_type and c.doc_type.is_annual)
    full_year = bool(e.doc_type and e.doc_type.is_annual) or (e.doc_type == DocType.EARNINGS and e.fiscal_quarter == 4)
    if full_year:  # a fourth-quarter release reports the full year too, as the year's annual filing does
        return ((annual and e.fiscal_year <= c.fiscal_year <= e.fiscal_year + 2)
                or (c.fiscal_quarter == 4 and c.fiscal_year == e.fiscal_year))
    if e.fiscal_quarter:
        return c.fiscal_quarter == e.fiscal_quarter and e.fiscal_year <= c.fiscal_year <= e.fiscal_year + 1
    return c.fiscal_year == e.fiscal_year and c.fiscal_quarter == e.fiscal_quarter


def grounding_counts(q: dict, answer, documents: list[Document]) -> dict[str, int]:
    """Citations of another company's filing than the question's (its labelled documents'), and
    citations of the right company's filing that does not cover the asked period."""
    if not answer.found:
        return {"wrong_company": 0, "wrong_period": 0}
    canonical = canonical_companies(documents)
    by_file = {d.file_name: d for d in documents}
    by_id = {d.id: d for d in documents}
    wanted = [by_file[f] for f in dict.fromkeys([*q.get("documents", []), *(e["document"] for e in q.get("evidence", []))])
              if f in by_file]
    if not wanted:
        return {"wrong_company": 0, "wrong_period": 0}
    companies = {canonical.get(d.id) for d in wanted}
    wrong_company = wrong_period = 0
    for c in answer.citations:
        cited = by_id.get(c.document_id)
        if cited is None:
            continue
        if canonical.get(cited.id) not in companies:
            wrong_company += 1
        elif not any(_covers(cited, e) for e in wanted):
            wrong_period += 1
    return {"wrong_company": wrong_company, "wrong_period": wrong_period}


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
    found = [r for r in rows if r["found"]]
    out["grounding"] = {
        "found_answers": len(found),
        "ungrounded_numbers": sum(1 for r in found if r.get("numbers_unverified")),
        "wrong_company_citations": sum(r.get("wrong_company", 0) for r in rows),
        "wrong_period_citations": sum(r.get("wrong_period", 0) for r in rows),
        "answers_citing_wrong_company": sum(1 for r in rows if r.get("wrong_company")),
        "another_measure": sum(1 for r in rows if r.get("another_measure")),
        "refused_as_another_measure": sum(1 for r in rows if r.get("refused_as_another_measure")),
    }
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
    g = summary["grounding"]
    console.print(f"grounding over {g['found_answers']} found answers: ungrounded numbers {g['ungrounded_numbers']} · "
                  f"wrong-company citations {g['wrong_company_citations']} "
                  f"({g['answers_citing_wrong_company']} answers) · wrong-period citations {g['wrong_period_citations']} · "
                  f"answers to another measure {g['another_measure']} "
                  f"({g['another_measure'] / max(1, g['found_answers']):.1%} of found; "
                  f"{g['refused_as_another_measure']} drafts refused by verify for it)")
