"""How often the statement reader finds what FinanceBench's metric questions ask for.

For every metrics-generated question: the lexicon names the metrics (directly, or as inputs of a
named formula), the question names the fiscal years; the evidence pages are parsed and read into
tables; a (metric, year) pair is a hit when a row matching the metric has a value in that year's
column. Where the question is a plain lookup or a formula the library computes, the figure is
also compared with the reference answer (within 1 %, or equal at the asked rounding).

    .venv/bin/python benchmarks/statement_coverage.py [--data ../shared/data] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

from pydantic import TypeAdapter

from docqa.finance import formulas as F
from docqa.finance.lexicon import load_lexicon
from docqa.finance.statements import find_line_items, read_tables
from docqa.finance.tables import StatementTable
from docqa.ingest.parse import parse_pdf
from docqa.types import Page

_FY = re.compile(r"\bFY\s?'?((?:19|20)\d\d)\b(?:\s*(?:-|–|to|through)\s*FY\s?((?:19|20)\d\d)\b)?", re.I)
_NUMBER = re.compile(r"-?\d[\d,]*\.?\d*")


def asked_years(question: str) -> list[int]:
    years: set[int] = set()
    for m in _FY.finditer(question):
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) else a
        years.update(range(min(a, b), max(a, b) + 1))
    return sorted(years)


def reference_number(answer: str) -> float | None:
    m = _NUMBER.search(answer.replace("$", ""))
    return float(m.group(0).replace(",", "")) if m else None


def close(got: float, want: float, decimals: int | None) -> bool:
    if decimals is not None and round(got, decimals) == round(want, decimals):
        return True
    return abs(got - want) <= 0.01 * abs(want) + 1e-9


class Figures:
    """Values of metrics per year from the evidence tables (best-ranked row that has the year)."""

    def __init__(self, tables: list[StatementTable]):
        self.tables = tables
        self.rows: dict[tuple[str, int], tuple[float, str, StatementTable]] = {}

    def get(self, key: str, year: int) -> tuple[float, str, StatementTable] | None:
        if (key, year) not in self.rows:
            found = None
            for match in find_line_items(self.tables, key):
                cell = match.table.value(match.row, year)
                if cell is not None and cell.value is not None:
                    found = (cell.value, match.row.label, match.table)
                    break
            self.rows[(key, year)] = found  # type: ignore[assignment]
        return self.rows[(key, year)]

    def values(self, keys: list[str], year: int) -> dict[str, float]:
        out = {}
        for k in keys:
            got = self.get(k, year)
            if got is not None:
                out[k] = got[0]
        return out


def computed_answer(question: str, fig: Figures, years: list[int]) -> tuple[float, str] | None:
    """The number a figures-only answerer would give, in the question's units (None: not attempted)."""
    lx = load_lexicon()
    matches = lx.match(question)
    formulas = [m.key for m in matches if m.kind == "formula"]
    metrics = [m.key for m in matches if m.kind == "metric"]
    fmt = F.requested_format(question)
    if not years:
        return None
    last = years[-1]
    fixed = [f for f in formulas if f not in F.SUBJECT_FORMULAS]

    if fixed and any(m not in lx.formula(fixed[0]).inputs for m in metrics):
        return None  # a composite ("EBITDA less capex"): beyond this check, the answerer's job

    def one(year: int) -> tuple[float, str] | None:
        if fixed:
            key = fixed[0]
            definition = lx.formula(key)
            cur = fig.values([k for k in definition.inputs if k != "subject"], year)
            prior = fig.values([k for k in definition.inputs if k != "subject"], year - 1)
            try:
                r = F.compute(key, cur, prior)
            except F.FormulaError:
                return None
            return r.value, r.kind
        if "margin" in formulas and metrics:
            subject = next((m for m in metrics if m != "revenue"), None)
            s, rev = fig.get(subject, year) if subject else None, fig.get("revenue", year)
            if not s or not rev:
                return None
            return F.margin(abs(s[0]), rev[0]).value, "percent"
        return None

    if "growth" in formulas or "cagr" in formulas:
        subject = metrics[0] if metrics else (fixed[0] if fixed else None)
        if subject is None or len(years) < 2:
            return None
        a, b = fig.get(subject, years[0]), fig.get(subject, years[-1])
        if not a or not b:
            return None
        r = F.growth(b[0], a[0]) if "growth" in formulas else F.cagr(a[0], b[0], years[-1] - years[0])
        return r.value * 100, "percent"
    if "multi_year_average" in formulas:
        per_year = [one(y) for y in years]
        if any(p is None for p in per_year):
            return None
        kind = per_year[0][1]  # type: ignore[index]
        value = sum(p[0] for p in per_year) / len(per_year)  # type: ignore[index]
        return (value * 100 if kind == "percent" else value), kind
    result = one(last)
    if result is None and not formulas and len(metrics) == 1:
        got = fig.get(metrics[0], last)
        if got is None:
            return None
        metric = lx.metric(metrics[0])
        value = abs(got[0]) if metric.outflow else got[0]
        return F.convert(value, got[2].unit, fmt.scale or got[2].unit), "currency"
    if result is None:
        return None
    value, kind = result
    if kind == "percent":
        return value * 100, kind
    if kind == "currency":
        units = {fig.get(k, last)[2].unit for k in lx.formula(fixed[0]).inputs if fig.get(k, last)}  # type: ignore[index]
        unit = units.pop() if len(units) == 1 else None
        return F.convert(value, unit, fmt.scale or unit), kind
    return value, kind


_PAGES = TypeAdapter(list[Page])


def load_pages(pdf: Path, cache: str | None) -> list[Page]:
    if cache is None:
        return parse_pdf(pdf).pages
    path = Path(cache) / f"{pdf.name}.json"
    if path.exists():
        return _PAGES.validate_json(path.read_bytes())
    pages = parse_pdf(pdf).pages
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_PAGES.dump_json(pages))
    return pages


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[1] / ".." / "shared" / "data"))
    ap.add_argument("--verbose", action="store_true", help="print every question, not only misses")
    ap.add_argument("--cache", help="folder to keep parsed pages in as JSON (faster reruns)")
    args = ap.parse_args()
    data = Path(args.data)
    questions = [json.loads(line) for line in (data / "questions" / "financebench.jsonl").open()]
    questions = [q for q in questions if q["question_type"] == "metrics-generated"]
    lx = load_lexicon()

    started = time.perf_counter()
    parsed: dict[str, list] = {}
    pairs = hits = q_ok = checked = correct = 0
    misses: list[str] = []
    wrong: list[str] = []
    by_metric: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for q in questions:
        tables: list[StatementTable] = []
        for ev in q["evidence"]:
            doc = ev["document"]
            if doc not in parsed:
                parsed[doc] = load_pages(data / "pdfs" / doc, args.cache)
            tables.extend(read_tables(parsed[doc][ev["page"] - 1]))
        years = asked_years(q["question"])
        metrics = [m.key for m in lx.metrics_for(lx.match(q["question"]))]
        fig = Figures(tables)
        lines, all_ok = [], True
        if not metrics:
            all_ok = False
            lines.append("    no metric named (lexicon.match found nothing)")
        for key in metrics:
            for year in years:
                pairs += 1
                by_metric[key][1] += 1
                got = fig.get(key, year)
                if got is None:
                    all_ok = False
                    cands = find_line_items(tables, key)[:2]
                    seen = ", ".join(f"{c.row.label!r}@p{c.table.page} years={c.table.years()}" for c in cands) or "no row"
                    lines.append(f"    MISS {key} FY{year}: {seen}")
                else:
                    hits += 1
                    by_metric[key][0] += 1
                    lines.append(f"    ok   {key} FY{year} = {got[0]:,} ({got[1]!r}, p{got[2].page}, {got[2].unit})")
        q_ok += all_ok
        want = reference_number(q["answer"])
        got_answer = computed_answer(q["question"], fig, years) if all_ok else None
        verdict = ""
        if got_answer is not None and want is not None:
            checked += 1
            fmt = F.requested_format(q["question"])
            if close(got_answer[0], want, fmt.decimals):
                correct += 1
                verdict = f"answer ok ({got_answer[0]:.4g} vs {q['answer']})"
            else:
                verdict = f"ANSWER DIFFERS ({got_answer[0]:.4g} vs {q['answer']})"
                wrong.append(f"{q['id']}: {verdict} :: {q['question'][:110]}")
        head = f"{q['id']} {'OK  ' if all_ok else 'MISS'} {verdict} :: {q['question'][:120]}"
        if not all_ok or args.verbose:
            misses.append("\n".join([head, *lines]))
    elapsed = time.perf_counter() - started

    print("\n\n".join(misses))
    print("\nper metric (hits/pairs):", ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(by_metric.items())))
    if wrong:
        print("\nanswers that differ:\n  " + "\n  ".join(wrong))
    print(f"\nquestions: {len(questions)}  all figures found: {q_ok}/{len(questions)} = {q_ok / len(questions):.1%}")
    print(f"(metric, year) pairs found: {hits}/{pairs} = {hits / max(1, pairs):.1%}")
    print(f"computed answers checked: {checked}, matching the reference: {correct}/{checked}")
    print(f"time: {elapsed:.1f}s (parsing {len(parsed)} PDFs included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
