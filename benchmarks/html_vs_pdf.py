"""The same filing as HTML and as PDF: do the HTML's tagged facts agree with the PDF's statement tables?

    .venv/bin/python benchmarks/html_vs_pdf.py [--data ../shared/data] [--no-questions]

1. Facts vs tables. ``html/pfe-10-q-2023-07-02.html`` and ``pdfs/Pfizer_2023Q2_10Q.pdf`` are one
   filing. Every figure the statement reader reads from the PDF's primary statements (a row of a
   table on a page detected as a statement, in a column with a period) is looked up among the
   HTML's tagged facts: the fact printed in the HTML statement row with the same label (as the
   reader cleans it) whose context has the same period end and length (months; 0 for a balance).
   It agrees when the PDF's number, times the table's unit, equals the fact's value in magnitude
   (the sign of an iXBRL fact is the concept's, not the print's: "(347)" for a gain in "Other
   (income)/deductions" is a negative print of a positive fact; the printed signs are compared
   separately). Printed: agreement rate, then every disagreement and every PDF figure without a
   fact.
2. Items. For each ``html/*.sections.json`` (the filing's top-level Items, as the sec-parser
   project labelled them), the Items that ``metadata.detect_pages`` labels the HTML pages with,
   in order, against the expected list: found, missing, and extra.
3. Questions. The dev questions whose evidence is the Pfizer PDF, asked of an index of the PDF
   and of an index of the HTML: both answers printed side by side, and whether the figures agree.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from docqa.finance.statements import read_tables  # noqa: E402
from docqa.finance.tables import StatementTable  # noqa: E402
from docqa.ingest import metadata  # noqa: E402
from docqa.ingest.metadata import sections  # noqa: E402
from docqa.ingest.html import annotate_tables, parse_html  # noqa: E402
from docqa.ingest.parse import parse_pdf  # noqa: E402

HTML_NAME = "pfe-10-q-2023-07-02.html"
PDF_NAME = "Pfizer_2023Q2_10Q.pdf"


def _key(label: str) -> str:
    return re.sub(r"[^a-z0-9]", "", label.lower())


def _months(table: StatementTable, index: int) -> int | None:
    column = next(c for c in table.columns if c.index == index)
    if column.period == "instant":
        return 0
    return table.column_months().get(index)


def pdf_figures(pdf: Path) -> list[dict]:
    pages = parse_pdf(pdf, ocr=False).pages
    infos = metadata.detect_pages(pages)
    out = []
    for page, info in zip(pages, infos):
        if info.statement is None:
            continue
        for table in read_tables(page):
            scale = table.scale or 1.0
            for row in table.rows:
                for cell in row.cells:
                    column = next(c for c in table.columns if c.index == cell.column)
                    if cell.value is None or column.derived or not column.period_end:
                        continue
                    # "(MILLIONS, EXCEPT PER SHARE DATA)": the unit scales amounts and share counts
                    value = cell.value * (scale if row.kind in ("currency", "shares") else 1.0)
                    out.append({"page": page.number, "statement": info.statement.value, "label": row.label,
                                "end": column.period_end, "months": _months(table, cell.column),
                                "raw": cell.raw, "value": value, "kind": row.kind})
    return out


def html_facts_by_row(html: Path) -> tuple[dict[tuple, list[dict]], int]:
    parsed = parse_html(html)
    infos = metadata.detect_pages(parsed.pages)
    rows: dict[tuple, list[dict]] = {}
    for page, info in zip(parsed.pages, infos):
        if info.statement is None:
            continue
        tables = [t.model_dump(mode="json") for t in read_tables(page)]
        for table in annotate_tables(tables, parsed.facts_on(page.number)):
            for row in table["rows"]:
                for cell in row["cells"]:
                    if "fact" not in cell or cell["fact"]["dimensions"]:
                        continue
                    fact = cell["fact"]
                    months = 0 if fact["instant"] else (
                        round((_date(fact["end"]) - _date(fact["start"])).days / 30.44) if fact["start"] else None)
                    key = (info.statement.value, _key(row["label"]), fact["end"], months)
                    rows.setdefault(key, []).append({**fact, "concept": cell["concept"], "raw": cell["raw"],
                                                     "page": page.number, "label": row["label"]})
    return rows, len(parsed.facts)


def _date(iso: str):
    from datetime import date
    return date.fromisoformat(iso)


def compare(data: Path) -> None:
    html, pdf = data / "html" / HTML_NAME, data / "pdfs" / PDF_NAME
    if not (html.exists() and pdf.exists()):
        print(f"skipped: {html} or {pdf} missing")
        return
    started = time.perf_counter()
    figures = pdf_figures(pdf)
    facts, total_facts = html_facts_by_row(html)
    agree, sign_differs, disagree, unmatched = 0, 0, [], []
    for fig in figures:
        key = (fig["statement"], _key(fig["label"]), fig["end"], fig["months"])
        candidates = facts.get(key)
        if not candidates and fig["months"]:
            # "Cash ... at beginning / end of period" in a six-month column is a balance (an
            # instant fact) at the period's start or end
            end = _date(fig["end"])
            candidates = [f for (st, label, _, months), found in facts.items()
                          if (st, label) == key[:2] and months == 0 for f in found
                          if abs((_date(f["end"]) - end).days) <= 7
                          or abs((end - _date(f["end"])).days - fig["months"] * 30.44) <= 10]
        if not candidates:
            unmatched.append(fig)
            continue
        best = min(candidates, key=lambda f: abs(abs(f["value"] or 0) - abs(fig["value"])))
        if best["value"] is not None and abs(abs(best["value"]) - abs(fig["value"])) <= 1e-6 * max(1.0, abs(fig["value"])):
            agree += 1
            if ("(" in best["raw"]) != (fig["value"] < 0):
                sign_differs += 1
        else:
            disagree.append((fig, best))
    n = len(figures)
    matched = n - len(unmatched)
    print(f"## Facts vs tables: {HTML_NAME} against {PDF_NAME} ({time.perf_counter() - started:.1f} s)\n")
    print(f"PDF statement figures with a period column: {n}; HTML tagged facts in the filing: {total_facts}")
    print(f"matched to a tagged fact (same statement, row label, period end and length): {matched}/{n} "
          f"({matched / n:.1%})" if n else "no PDF figures")
    if matched:
        print(f"agree in value: {agree}/{matched} ({agree / matched:.1%}); of those, printed sign differs: {sign_differs}")
    print(f"\ndisagreements ({len(disagree)}):")
    for fig, fact in disagree:
        print(f"  PDF p.{fig['page']} {fig['label']!r} {fig['end']} {fig['months']}m: {fig['raw']} -> {fig['value']:g}"
              f"  |  HTML p.{fact['page']} {fact['concept']} = {fact['value']:g} (printed {fact['raw']})")
    print(f"\nPDF figures without a tagged fact ({len(unmatched)}):")
    for fig in unmatched:
        print(f"  PDF p.{fig['page']} {fig['statement']} {fig['label']!r} {fig['end']} {fig['months']}m: {fig['raw']}")


_ROMAN = {"I": "1", "II": "2", "III": "3", "IV": "4"}


def _section_id(section: str, quarterly: bool) -> str:
    m = re.match(r"(?:Part\s+([IV]+),\s*)?Item\s+(\w+)", section, re.I)
    if not m:
        return section
    item = m.group(2).upper()
    if quarterly and m.group(1):
        return f"part{_ROMAN.get(m.group(1).upper(), m.group(1))}item{item.lower()}"
    return item


def sections(data: Path) -> None:
    print("\n## Items: sections detected on the HTML pages against *.sections.json\n")
    print(f"{'file':<32} {'expected':>8} {'headings':>8} {'labels':>6} {'recall':>7}  labels missing / extra")
    total_expected = total_found = total_heads = 0
    for truth_file in sorted((data / "html").glob("*.sections.json")):
        html = truth_file.with_name(truth_file.name.replace(".sections.json", ".html"))
        expected = [d["identifier"] for d in json.loads(truth_file.read_text())]
        quarterly = expected[0].startswith("part")
        parsed = parse_html(html)
        infos = metadata.detect_pages(parsed.pages)
        found: list[str] = []
        for info in infos:
            if info.section:
                sid = _section_id(info.section, quarterly)
                if not found or found[-1] != sid:
                    found.append(sid)
        heads = _headings(parsed.pages, quarterly)
        head_hit = [e for e in expected if e in heads]
        total_heads += len(head_hit)
        hit = [e for e in expected if e in found]
        missing = [e for e in expected if e not in found]
        extra = [f for f in dict.fromkeys(found) if f not in expected]
        total_expected += len(expected)
        total_found += len(hit)
        print(f"{html.name:<32} {len(expected):>8} {len(head_hit):>8} {len(hit):>6} {len(hit) / len(expected):>7.0%}  "
              f"missing {missing or '-'}; extra {extra or '-'}")
    if total_expected:
        print(f"{'all':<32} {total_expected:>8} {total_heads:>8} {total_found:>6} {total_found / total_expected:>7.0%}")
    print("headings: expected Items whose heading line metadata's Item pattern finds on a page that is not a "
          "table of contents;\nlabels: Items that label a page (PageInfo.section). An Item that begins on a page "
          "another Item already began on\ncannot label a page, so it counts as missing there.")


def _headings(pages, quarterly: bool) -> list[str]:
    """Item headings as metadata.detect_pages finds them (its own patterns), before page labelling."""
    out: list[str] = []
    part = None
    for page in pages:
        items, page_part = [], part
        for line in page.lines:
            text = line.text
            if len(text) > 160:
                continue
            if p := sections.PART.match(text):
                page_part = p.group(1).upper()
            if (m := sections.ITEM.match(text)) and not sections.CROSS_REFERENCE.search(text, m.end()):
                page_part = m.group(1).upper() if m.group(1) else page_part
                items.append((page_part, m.group(2).upper()))
        if len({i for _, i in items}) >= sections.TOC_ITEMS:
            continue
        part = page_part
        for p, item in items:
            out.append(f"part{_ROMAN.get(p or '', '?')}item{item.lower()}" if quarterly else item)
    return out


def questions(data: Path) -> None:
    from docqa import Engine

    qfile = data / "questions" / "financebench.jsonl"
    html, pdf = data / "html" / HTML_NAME, data / "pdfs" / PDF_NAME
    if not (qfile.exists() and html.exists() and pdf.exists()):
        return
    rows = [json.loads(l) for l in qfile.read_text().splitlines() if l.strip()]
    rows = [r for r in rows if PDF_NAME in r.get("documents", [])]
    print(f"\n## Dev questions on {PDF_NAME}, asked of the PDF and of the HTML ({len(rows)})\n")
    answers = {}
    for kind, path in (("pdf", pdf), ("html", html)):
        with tempfile.TemporaryDirectory() as tmp:
            engine = Engine.open(tmp, dense=False)
            engine.ingest([path])
            answers[kind] = [engine.ask(r["question"]) for r in rows]
            engine.close()
    same = 0
    for r, a_pdf, a_html in zip(rows, answers["pdf"], answers["html"]):
        figs = lambda a: sorted(round(f.value, 4) for f in a.figures)  # noqa: E731
        agree = (a_pdf.found == a_html.found) and figs(a_pdf) == figs(a_html)
        same += agree
        print(f"- {r['id']}: {r['question']}\n  expected: {r['answer']}\n"
              f"  PDF  [{a_pdf.verification}] {a_pdf.text[:300]}\n  HTML [{a_html.verification}] {a_html.text[:300]}\n"
              f"  same found/figures: {'yes' if agree else 'no'}")
    print(f"\nsame outcome (found and figures): {same}/{len(rows)}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--no-questions", action="store_true")
    args = ap.parse_args()
    data = Path(args.data)
    compare(data)
    sections(data)
    if not args.no_questions:
        questions(data)


if __name__ == "__main__":
    main()
