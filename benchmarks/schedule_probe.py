"""Schedule probe: is a later year's figure read off the schedule that prints it? Asked of cells nobody chose.

For each annual filing of the index, cells of tables that print a year after the filing's own fiscal
year are drawn at random (seeded): the years across the columns (a row of debt maturities, lease
payments, benefit payments, amortization to come) or down the rows (the column then names what is
scheduled), the label printed once for that year. Each becomes a question in the printed words, the
filing named by its year ("According to X's fiscal 2022 annual report, what <label> is scheduled for
2025?"), and is scored like `docqa eval answers` scores a numeric question. A second kind asks the
same label for a year no column or row of the filing prints (three years past the last): the right
answer is "not found".

    .venv/bin/python benchmarks/schedule_probe.py --index IDX --per-filing 2 --out schedule.jsonl [--seed 7]
    .venv/bin/python benchmarks/row_probe.py --compare BEFORE.jsonl AFTER.jsonl   # moves between two runs
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import time
from pathlib import Path

from row_probe import _annual, _label, _lower, _opened

_LAST_YEAR = re.compile(r"(?:^|[\s,])((?:19|20)\d\d)\s*$")
_FORMS = (
    "According to {co}'s fiscal {fy} annual report, what {label} is scheduled for {y}?",
    "In its fiscal {fy} annual report, how much {label} did {co} expect for {y}?",
    "{co}, fiscal {fy} filing: {label} due in {y}?",
)


def _year_alone(text: str) -> int | None:
    """A header or label naming one year at its end ("2025", "Year Ended December 31, 2025"), no range."""
    text = text.strip()
    if re.search(r"\d\s*[-–—]\s*\d|through|thereafter|after|beyond", text, re.I):
        return None
    m = _LAST_YEAR.search(text)
    return int(m.group(1)) if m and len(re.findall(r"(?:19|20)\d\d", text)) == 1 else None


def _cells(pages, fiscal_year: int) -> list[dict]:
    """Cells of a later year with a label of two to eight words; (label, year) printed once in the filing."""
    found = []
    for page in pages:
        for table in page.tables:
            later = {c.index: y for c in table.columns if (y := _year_alone(c.header)) and fiscal_year < y <= fiscal_year + 10}
            for row in table.rows:
                label = _label(row.label)
                row_year = _year_alone(row.label) or (_year_alone(row.cells[0].raw) if row.cells and not row.label.strip() else None)
                for cell in row.cells:
                    if cell.value is None or not any(ch.isdigit() for ch in cell.raw):
                        continue  # (a dash: nothing scheduled, which the scorer cannot tell from a miss)
                    if cell.column in later and label and not _year_alone(label):
                        found.append({"label": label, "year": later[cell.column], "raw": cell.raw.strip(),
                                      "unit": table.unit or "", "page": page.number})
                    elif row_year and fiscal_year < row_year <= fiscal_year + 10 and cell.raw.strip() != str(row_year):
                        header = next((c.header for c in table.columns if c.index == cell.column), "")
                        name = _label(" ".join(w for w in header.split() if not re.search(r"\d", w)))
                        if name:
                            found.append({"label": name, "year": row_year, "raw": cell.raw.strip(),
                                          "unit": table.unit or "", "page": page.number})
    counts = collections.Counter((c["label"].lower(), c["year"]) for c in found)
    words = lambda c: 2 <= len(c["label"].split()) <= 8  # noqa: E731
    return [c for c in found if counts[(c["label"].lower(), c["year"])] == 1 and words(c)]


def probe(index: Path, per_filing: int, seed: int, files: list[str] | None) -> list[dict]:
    from docqa.eval.answers import numbers_match

    engine, out = _opened(index), []
    for doc, meta in _annual(engine, files):
        cells = _cells(engine.store.pages(doc.id), meta.fiscal_year)
        rng = random.Random(f"{seed}:{doc.file_name}")
        last = max((c["year"] for c in cells), default=None)
        for n, cell in enumerate(rng.sample(cells, min(per_filing, len(cells)))):
            form = _FORMS[(n + len(doc.file_name)) % len(_FORMS)]
            for kind, year in (("printed", cell["year"]), ("beyond", last + 3)):
                if kind == "beyond" and n:
                    continue  # one question a filing past its last year printed
                question = form.format(co=meta.company, fy=meta.fiscal_year, label=_lower(cell["label"]), y=year)
                started = time.perf_counter()
                answer = engine.ask(question)
                reference = f"{cell['raw']} {cell['unit']}".strip()
                right = (answer.found and numbers_match(reference, answer.text)) if kind == "printed" else not answer.found
                out.append({"document": doc.file_name, "kind": kind, "question": question, "reference": reference,
                            **cell, "year": year, "found": answer.found, "right": right,
                            "cites_other_filing": any(c.document != doc.file_name for c in answer.citations),
                            "answer": answer.text[:300], "answerer": answer.answerer,
                            "reason": (answer.reason or "")[:200], "ms": round((time.perf_counter() - started) * 1000)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--per-filing", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--files", nargs="*", default=None, help="only these file names")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rows = probe(args.index, args.per_filing, args.seed, args.files)
    args.out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    for kind in ("printed", "beyond"):
        some = [r for r in rows if r["kind"] == kind]
        right, found = sum(r["right"] for r in some), sum(r["found"] for r in some)
        wrong = found - right if kind == "printed" else found
        print(f"{kind}: {len(some)} questions of {len({r['document'] for r in some})} filings: right {right} "
              f"({right / max(len(some), 1):.2f}), wrong {wrong}, not found {len(some) - found}; "
              f"another filing cited {sum(r['cites_other_filing'] for r in some)}")


if __name__ == "__main__":
    main()
