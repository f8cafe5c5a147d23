"""How often metadata detection reads company, filing type and period right, from the pages alone.

    .venv/bin/python benchmarks/metadata_accuracy.py [--data ../shared/data] [--cache DIR] [--no-ocr]

Runs over every corpus with truth: ``DATA/corpus.json`` (PDFs in ``DATA/pdfs``) and
``DATA/practice/corpus.json`` (PDFs in ``DATA/practice/pdfs``); ``--corpus`` picks one of them.
Truth is corpus.json (company, doc_type, period, country per file; a row without a country is
US). Only the parsed pages are given to detection; the file name is used to look up the truth
row and nothing else. A company counts as found when the detected name or any alias equals the
true name after normalisation (case, punctuation, '&'/'and', a leading 'The' and legal suffixes
such as Inc/Corporation/Company/plc/Co/Ltd/Limited). A generic phrase stored as the company
("The Group", "the Company", "N/a") is counted and listed on its own.

Statement detection is checked on FinanceBench evidence pages whose question names the statement
("... shown in the balance sheet"): the page must be detected as one of the statements named.

Pages are parsed as ingest parses them (OCR on for scans and garbled text layers, when
tesseract is installed). --cache DIR keeps the parsed pages (pickles) so that re-runs skip
parsing; delete it after changing the parser.
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from docqa.ingest.metadata import detect_document, detect_pages
from docqa.ingest.parse import parse_pdf
from docqa.types import Page

LEGAL = {"inc", "incorporated", "corporation", "corp", "company", "co", "plc", "ltd", "limited", "llc", "the"}
# A stored company made only of these words says nothing about who filed ("The Group", "N/a",
# "Investment Company", "German Stock Corporation", "Co., Ltd."): counted as a generic phrase.
GENERIC_WORDS = LEGAL | {
    "group", "a", "n", "na", "none", "registrant", "issuer", "parent", "we", "us", "our", "firm", "entity",
    "investment", "stock", "german", "public", "private", "joint", "holding", "holdings", "trust", "fund",
    "bank", "board", "directors", "auditor", "auditors", "members", "shareholders", "subsidiaries",
}
STATEMENT_WORDS = {
    "balance sheet": "balance",
    "statement of financial position": "balance",
    "cash flow statement": "cash_flow",
    "statement of cash flows": "cash_flow",
    "income statement": "income",
    "statement of income": "income",
    "p&l": "income",
}


def company_key(name: str) -> str:
    words = re.sub(r"[^a-z0-9 ]", " ", name.lower().replace("&", " and ")).split()
    return " ".join(w for w in words if w not in LEGAL)


def is_generic(name: str | None) -> bool:
    return bool(name) and not (set(company_key(name).split()) | {"the"}) - GENERIC_WORDS


def load_pages(pdf: Path, cache: Path | None, ocr: bool = True) -> list[Page]:
    if cache:
        stored = cache / (pdf.name + ".pkl")
        if stored.exists():
            return pickle.loads(stored.read_bytes())
    pages = parse_pdf(pdf, ocr=ocr).pages
    if cache:
        cache.mkdir(parents=True, exist_ok=True)
        stored.write_bytes(pickle.dumps(pages))
    return pages


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1] / "../shared/data")
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--corpus", choices=("all", "dev", "practice"), default="all")
    ap.add_argument("--no-ocr", action="store_true",
                    help="parse without OCR, as a machine without tesseract does (use its own --cache)")
    args = ap.parse_args()
    corpora = [("dev", args.data), ("practice", args.data / "practice")]
    rows = [
        (name, folder, row)
        for name, folder in corpora
        if args.corpus in ("all", name) and (folder / "corpus.json").exists()
        for row in json.loads((folder / "corpus.json").read_text())
    ]
    questions = [json.loads(line) for line in (args.data / "questions/financebench.jsonl").open()]

    wanted: dict[str, dict[int, set[str]]] = defaultdict(dict)  # file -> page -> statement kinds
    for q in questions:
        kinds = {k for phrase, k in STATEMENT_WORDS.items() if phrase in q["question"].lower()}
        if q["question_type"] == "metrics-generated" and kinds:
            for ev in q["evidence"]:
                wanted[ev["document"]][ev["page"]] = kinds

    fields = ("company", "doc_type", "period")
    hits: Counter[str] = Counter()
    by_group: dict[str, Counter] = defaultdict(Counter)  # "corpus dev", "country UK" -> field hits + "n"
    misses: list[str] = []
    generic: list[str] = []
    unknown: list[str] = []
    statement_ok = statement_total = 0
    statement_misses: list[str] = []
    kinds_per_doc: dict[str, Counter] = {}
    detect_seconds = 0.0
    n_pages = 0
    for corpus_name, folder, row in rows:
        pdf = folder / "pdfs" / row["file"]
        pages = load_pages(pdf, args.cache, ocr=not args.no_ocr)
        t0 = time.perf_counter()
        meta = detect_document(pages)
        infos = detect_pages(pages)
        detect_seconds += time.perf_counter() - t0
        n_pages += len(pages)

        names = [meta.company or ""] + list(meta.aliases)
        checks = {
            "company": company_key(row["company"]) in {company_key(n) for n in names if n},
            "doc_type": (meta.doc_type.value if meta.doc_type else None) == row["doc_type"].lower(),
            "period": meta.fiscal_year == row["period"],
        }
        country = row.get("country") or "US"
        for group in (f"corpus {corpus_name}", f"country {country}"):
            by_group[group]["n"] += 1
        for field, ok in checks.items():
            hits[field] += ok
            for group in (f"corpus {corpus_name}", f"country {country}"):
                by_group[group][field] += ok
            if not ok:
                got = {"company": f"{meta.company!r} conf={meta.company_confidence} aliases={list(meta.aliases)[:6]}"
                                  f" evidence={(meta.company_evidence or '')[:90]!r}",
                       "doc_type": meta.doc_type and meta.doc_type.value,
                       "period": f"{meta.fiscal_year} (q={meta.fiscal_quarter}, end={meta.period_end})"}[field]
                misses.append(f"  {field:8} {corpus_name:8} {row['file'][:44]:44} truth={row[field]!r:28} detected={got}")
        if is_generic(meta.company) or any(is_generic(a) for a in meta.aliases):
            generic.append(f"  {row['file'][:44]:44} company={meta.company!r} aliases={list(meta.aliases)}")
        if not meta.company:
            unknown.append(f"  {row['file'][:44]:44} reason={meta.company_evidence!r}")

        kinds_per_doc[row["file"]] = Counter(i.statement.value for i in infos if i.statement)
        for page, kinds in wanted.get(row["file"], {}).items() if corpus_name == "dev" else ():
            statement_total += 1
            got = infos[page - 1].statement if page <= len(infos) else None
            if got and got.value in kinds:
                statement_ok += 1
            else:
                statement_misses.append(f"  {row['file']:45} p{page:<4} wanted={sorted(kinds)} detected={got and got.value}")

    n = len(rows)
    print(f"metadata accuracy over {n} files ({n_pages} pages)")
    for field in fields:
        print(f"  {field:9} {hits[field] / max(1, n):6.1%}  ({hits[field]}/{n})")
    print(f"  generic phrase stored as company: {len(generic)}")
    print(f"  company unknown (left unset, with a reason): {len(unknown)}")
    print(f"  statement {statement_ok / max(1, statement_total):6.1%}  ({statement_ok}/{statement_total} FinanceBench evidence pages)")
    print(f"  detect time {detect_seconds:.2f} s total, {1000 * detect_seconds / max(1, n_pages):.3f} ms/page (parsing excluded)")
    print("per corpus / country:   n  " + "  ".join(f"{f:>9}" for f in fields))
    for group in sorted(by_group, key=lambda g: (not g.startswith("corpus"), g)):
        c = by_group[group]
        print(f"  {group:20} {c['n']:3}  " + "  ".join(f"{c[f] / c['n']:8.0%} " for f in fields))
    if misses:
        print("misses:")
        print("\n".join(misses))
    if generic:
        print("generic phrases stored as a company:")
        print("\n".join(generic))
    if unknown:
        print("company unknown:")
        print("\n".join(unknown))
    if statement_misses:
        print("statement misses:")
        print("\n".join(statement_misses))
    print("statement pages per document (many of one kind suggests false positives):")
    for file, counts in kinds_per_doc.items():
        print(f"  {file[:45]:45} " + " ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
