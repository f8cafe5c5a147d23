"""Statement reading over whole annual reports, not just the pages FinanceBench points at.

For every 10-K in corpus.json: read the tables of every page, keep those on primary statements,
and look up core metrics for the report's own fiscal year. A metric counts as found when its best
row on its own statement has a value in that year's column. Two identities check that the right
rows and columns were read: total assets = total liabilities and equity, and gross profit =
revenue - cost of revenue (where the statement prints all three).

    .venv/bin/python benchmarks/statement_corpus.py [--data ../shared/data] [--cache DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from docqa.finance.lexicon import load_lexicon
from docqa.finance.lineitems import find_line_items
from docqa.finance.statements import read_tables
from docqa.finance.tables import StatementTable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from statement_coverage import load_pages  # noqa: E402  (same folder; shares the page cache)

CORE = ["revenue", "net_income", "operating_income", "total_assets", "total_liabilities", "total_equity",
        "cash_and_equivalents", "operating_cash_flow", "capex", "eps_diluted", "current_assets",
        "current_liabilities"]


def lookup(tables: list[StatementTable], key: str, year: int) -> tuple[float, str, int] | None:
    metric = load_lexicon().metric(key)
    own = [t for t in tables if t.statement == metric.statement] if metric.statement else tables
    for match in find_line_items(own, metric):
        cell = match.table.value(match.row, year)
        if cell is not None and cell.value is not None:
            return cell.value, match.row.label, match.table.page
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[1] / ".." / "shared" / "data"))
    ap.add_argument("--cache", help="folder to keep parsed pages in as JSON (faster reruns)")
    args = ap.parse_args()
    data = Path(args.data)
    corpus = [d for d in json.loads((data / "corpus.json").read_text()) if d["doc_type"] == "10k"]
    started = time.perf_counter()
    found = total = 0
    per_metric: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    misses: list[str] = []
    checks = {"assets = liabilities + equity": [0, 0], "gross profit = revenue - cost": [0, 0]}
    for doc in corpus:
        pages = load_pages(data / "pdfs" / doc["file"], args.cache)
        tables = [t for p in pages for t in read_tables(p) if t.statement is not None]
        year = int(doc["period"])
        got: dict[str, tuple[float, str, int] | None] = {}
        for key in CORE:
            got[key] = lookup(tables, key, year)
            total += 1
            per_metric[key][1] += 1
            if got[key] is not None:
                found += 1
                per_metric[key][0] += 1
            else:
                misses.append(f"{doc['file']} FY{year} {key}")
        balance = [t for t in tables if t.statement and t.statement.value == "balance"]
        if got["total_assets"]:
            checks["assets = liabilities + equity"][1] += 1
            same_page = [t for t in balance if t.page in (got["total_assets"][2], got["total_assets"][2] + 1)]
            tle = _total_liabilities_and_equity(same_page, year)
            if tle is not None and abs(tle - got["total_assets"][0]) <= 0.5:
                checks["assets = liabilities + equity"][0] += 1
            else:
                misses.append(f"{doc['file']} FY{year} CHECK total assets {got['total_assets']} vs liabilities+equity {tle}")
        gp = lookup(tables, "gross_profit", year)
        cogs = lookup(tables, "cost_of_revenue", year)
        if gp and cogs and got["revenue"] and gp[2] == cogs[2] == got["revenue"][2]:
            checks["gross profit = revenue - cost"][1] += 1
            if abs(got["revenue"][0] - abs(cogs[0]) - gp[0]) <= max(1.0, 0.001 * abs(gp[0])):
                checks["gross profit = revenue - cost"][0] += 1
            else:
                misses.append(f"{doc['file']} FY{year} CHECK revenue {got['revenue'][:2]} - cost {cogs[:2]} != gross profit {gp[:2]}")
    print("misses:\n  " + "\n  ".join(misses) if misses else "no misses")
    print("\nper metric:", ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in per_metric.items()))
    for name, (ok, n) in checks.items():
        print(f"check {name}: {ok}/{n}")
    print(f"\n10-Ks: {len(corpus)}  core metrics found for the report's fiscal year: {found}/{total} = {found / max(1, total):.1%}")
    print(f"time: {time.perf_counter() - started:.1f}s")
    return 0


def _total_liabilities_and_equity(tables: list[StatementTable], year: int) -> float | None:
    for t in tables:
        for row in t.rows:
            label = row.label.lower()
            if label.startswith(("total liabilities and", "total liabilities,", "total capitalization and liabilities")):
                cell = t.value(row, year)
                if cell is not None and cell.value:
                    return cell.value
    return None


if __name__ == "__main__":
    sys.exit(main())
