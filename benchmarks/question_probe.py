"""Probe for failure classes: analysts' questions nobody tuned on, asked of many filings at once.

Each template (capex, EPS, margins, dividends, buybacks, debt ratios, yes/no comparisons, ...) is
asked of each filing of a corpus list (the latest 10-K of each company in ../shared/data, or the
practice filings), and every answer is written as one JSON line (found, verification, text, first
citations) to be read against its page. The summary counts answers found per template: found is
not correct, so read the lines; the probe finds classes of failure, it does not score them.

    .venv/bin/python benchmarks/question_probe.py --index IDX --corpus ../shared/data/corpus.json \
        --latest-10k --out probe.jsonl [--only capex eps]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
from pathlib import Path

TEMPLATES = {
    "capex": "What is {c}'s FY{y} capital expenditure in USD millions? Use the cash flow statement.",
    "eps": "What was {c}'s diluted earnings per share for fiscal {y}?",
    "opm": "What is the FY{y} operating margin for {c}?",
    "inv": "What were {c}'s total inventories at the end of FY{y}?",
    "div": "How much did {c} pay in dividends during fiscal {y}?",
    "etr": "What was {c}'s effective tax rate in FY{y}?",
    "fcf": "What is {c}'s free cash flow for FY{y}?",
    "roa": "What is {c}'s FY{y} return on assets?",
    "de": "What is {c}'s debt-to-equity ratio at the end of FY{y}?",
    "ar": "What was {c}'s accounts receivable, net at the end of fiscal {y}?",
    "da": "What was {c}'s depreciation and amortization expense in FY{y}?",
    "buyback": "How much did {c} spend repurchasing its own shares in FY{y}?",
    "int": "What was {c}'s interest expense in fiscal {y}?",
    "gp": "What was {c}'s gross profit in FY{y}?",
    "yn_grow": "Did {c}'s revenue grow in fiscal {y} compared with the prior year?",
    "yn_loss": "Did {c} report a net loss for fiscal {y}?",
    "yn_cfo": "Was {c}'s cash from operations larger than its net income in FY{y}?",
    # the same measures in the forms analysts add: a unit, a rounding, a statement, a span of years
    "rev_bn": "What is {c}'s FY{y} total revenue in USD billions?",
    "ni_k": "What was {c}'s FY{y} net income attributable to shareholders? Answer in USD thousands.",
    "ca_bs": "Based on the balance sheet, what were {c}'s total current assets as of the end of FY{y}?",
    "quick": "What is {c}'s FY{y} quick ratio? Round to two decimal places.",
    "dso": "What is the FY{y} days sales outstanding for {c}?",
    "invturn": "What is {c}'s FY{y} inventory turnover ratio?",
    "cagr": "What is {c}'s two-year revenue CAGR from FY{y2} to FY{y}?",
    "ebitda": "What is {c}'s FY{y} EBITDA (operating income plus depreciation and amortization)?",
    "cfo_chg": "By what percentage did {c}'s cash from operations change in FY{y} compared with FY{y1}?",
    # yes/no forms: existence, direction, level, sign
    "yn_div": "Did {c} pay dividends in fiscal {y}?",
    "yn_assets": "Did {c}'s total assets increase in fiscal {y}?",
    "yn_cr": "Was {c}'s current ratio above 1 at the end of fiscal {y}?",
    "yn_fcf": "Did {c} have positive free cash flow in fiscal {y}?",
    "yn_gm": "Did {c}'s gross margin improve in FY{y}?",
    # more line items and ratios, in the words analysts use for them
    "cash": "How much cash and cash equivalents did {c} hold at the end of FY{y}?",
    "liab": "What were {c}'s total liabilities at the end of fiscal {y}?",
    "equity": "What was {c}'s total shareholders' equity at the end of FY{y}?",
    "cfi": "What was {c}'s net cash used in investing activities in FY{y}?",
    "rd_pct": "What percentage of {c}'s FY{y} revenue was spent on research and development?",
    "icr": "What was {c}'s interest coverage ratio in FY{y}?",
    "payout": "What was {c}'s dividend payout ratio in FY{y}?",
    "netdebt": "What was {c}'s net debt at the end of FY{y}?",
    "eps_basic": "What were {c}'s basic earnings per share in FY{y}?",
    "opex": "What were {c}'s total operating expenses in FY{y}?",
    "npm": "What was {c}'s net profit margin in FY{y}?",
    "yn_debt": "Did {c}'s total debt decrease in FY{y}?",
    "yn_buyback": "Did {c} buy back any of its shares in FY{y}?",
}


def filings(corpus: Path, latest_10k: bool) -> list[dict]:
    rows = json.loads(corpus.read_text())
    if not latest_10k:
        return rows
    latest: dict[str, dict] = {}
    for row in rows:
        if row["doc_type"] == "10k" and row["period"] >= latest.get(row["company"], {}).get("period", 0):
            latest[row["company"]] = row
    return list(latest.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--index", required=True)
    ap.add_argument("--corpus", type=Path, required=True, help="corpus.json: file, company, period per filing")
    ap.add_argument("--latest-10k", action="store_true", help="only each company's latest 10-K")
    ap.add_argument("--only", nargs="*", default=None, help="template keys to ask (default: all)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    os.environ.setdefault("DOCQA_CLI_LOG_QUESTIONS", "false")
    from docqa.engine import Engine

    keys = args.only or list(TEMPLATES)
    engine = Engine.open(args.index)
    found: collections.Counter[str] = collections.Counter()
    asked: collections.Counter[str] = collections.Counter()
    with args.out.open("w") as out:
        for filing in filings(args.corpus, args.latest_10k):
            for key in keys:
                year = filing["period"]
                question = TEMPLATES[key].format(c=filing["company"], y=year, y1=year - 1, y2=year - 2)
                answer = engine.ask(question)
                asked[key] += 1
                found[key] += answer.found
                cites = " | ".join(f"{c.document} p{c.page}: {c.quote[:100]!r}" for c in answer.citations[:3])
                out.write(json.dumps({"k": key, "file": filing["file"], "q": question, "found": answer.found,
                                      "v": answer.verification, "text": answer.text, "reason": answer.reason,
                                      "cites": cites}) + "\n")
    print(f"{sum(asked.values())} questions over {len(filings(args.corpus, args.latest_10k))} filings; found per template:")
    for key in keys:
        print(f"  {key:<8} {found[key]:>3}/{asked[key]}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
