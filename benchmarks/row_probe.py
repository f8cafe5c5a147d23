"""Row probe: is any printed row label a line item? Asked of hundreds of rows nobody chose.

For each annual filing of the index, rows of its note, segment, KPI and MD&A tables (never the
primary statements) are drawn at random (seeded): a label of two to eight words printed once in the
filing, with a figure in the one column of the filing's own fiscal year. Each becomes a question
in the printed words ("What was <company>'s <label> in fiscal <year>?"), is answered by the engine,
and is scored like `docqa eval answers` scores a numeric question (every number of the reference
within 1 %, across a unit shift), with whether the row's page was cited. One JSON line a row goes
to --out; the summary counts right, wrong and not found.

The reference is the stored table's own cell, so a misread table scores as its misreading: the
probe measures finding the row and its column, not reading the page.

    .venv/bin/python benchmarks/row_probe.py --index IDX --per-filing 3 --out probe.jsonl \
        [--files A.pdf B.pdf ...] [--seed 7]
    .venv/bin/python benchmarks/row_probe.py --parts --index IDX --per-filing 2 --out parts.jsonl
    .venv/bin/python benchmarks/row_probe.py --qualified --index IDX --per-filing 2 --out qualified.jsonl
    .venv/bin/python benchmarks/row_probe.py --compare BEFORE.jsonl AFTER.jsonl   # moves between two runs

``--parts`` asks two or three rows of one table in one question (each also alone); ``--qualified`` asks
rows a qualifier picks: the comparative year's column, or a label its section heading tells apart;
``--short-forms`` asks rows whose label holds a short form the filing's text defines ("EMEA", "PBNA")
by the words it stands for, and rows whose label spells out a defined short form by the short form,
each also in its printed words:

    .venv/bin/python benchmarks/row_probe.py --short-forms --index IDX --per-filing 3 --out short.jsonl [--seed 11]
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import time
from pathlib import Path

_WORDS = re.compile(r"[A-Za-z][A-Za-z'&-]*")
_ANNUAL = {"10k", "20f", "40f", "annual_report"}


def _label(text: str) -> str:
    label = re.sub(r"\s+", " ", re.sub(r"\(\d\)|\*", "", text)).strip(" :,.")
    return label.lower() if label.isupper() else label


def _candidates(pages, fiscal_year: int, year: int | None = None, by_section: bool = False) -> list[dict]:
    """Rows of non-statement tables with one figure in the filing's own year, label printed once.

    ``year`` asks another column of the same tables (the comparative year); ``by_section`` keeps
    instead the rows whose label is printed more than once and which their section heading alone
    tells apart ("Operating income" under "Americas"): the heading is the question's qualifier."""
    year = year or fiscal_year
    seen: collections.Counter = collections.Counter()
    in_section: collections.Counter = collections.Counter()
    rows = []
    for page in pages:
        for number, table in enumerate(page.tables):
            for row in table.rows:
                seen[_label(row.label).lower()] += 1
                in_section[(_label(row.section or "").lower(), _label(row.label).lower())] += 1
            if table.statement is not None:
                continue
            own = [c for c in table.period_columns() if c.fiscal_year == year
                   and (c.months or 12) == 12 and c.period not in ("quarter", "ytd")]
            if len(own) != 1 or (year != fiscal_year and not any(
                    c.fiscal_year == fiscal_year for c in table.period_columns())):
                continue  # a comparative year only beside the filing's own
            for row in table.rows:
                label = _label(row.label)
                words = _WORDS.findall(label)
                if not 2 <= len(words) <= 8 or len(label) > 70 or row.kind not in ("currency", "count"):
                    continue
                if not label[:1].isupper() and not row.label.strip()[:1].isupper() or re.search(r"\d", label):
                    continue  # a caption's tail ("as at 31 March") or a dated, numbered line (a note's coupon)
                if words[0].lower() == "total" and len(words) < 3:
                    continue
                cell = row.cell(own[0].index)
                if cell is None or cell.value is None or abs(cell.value) < 10:
                    continue
                unit = {"millions": "million", "thousands": "thousand", "billions": "billion"}.get(
                    str(table.unit or ""), "") if row.kind == "currency" else ""
                section = _label(row.section or "")
                if section and len(section.split()) <= 5 and not re.search(r"\d", section) and not by_section:
                    label = f"{label} ({section[:1].lower() + section[1:]})"  # "Sales return reserves (deferred tax assets)"
                if by_section and not (section and len(section.split()) <= 5 and not re.search(r"\d", section)):
                    continue
                rows.append({"label": label, "page": table.page, "raw": cell.raw.strip(), "value": cell.value,
                             "unit": unit, "section": row.section or "", "title": table.title[:80],
                             "row": _label(row.label), "table": f"{table.page}:{number}"})
    if by_section:
        return [r for r in rows if seen[r["row"].lower()] > 1
                and in_section[(_label(r["section"]).lower(), r["row"].lower())] == 1]
    return [r for r in rows if seen[r["row"].lower()] == 1]


def _opened(index: Path):
    from docqa.engine import Engine

    return Engine.open(index)


def _annual(engine, files: list[str] | None):
    """The annual filings of the index (or of ``files``) whose company and fiscal year are read, by name."""
    for doc in sorted(engine.documents(), key=lambda d: d.file_name):
        meta = doc.meta
        if files and doc.file_name not in files:
            continue
        if meta.company and meta.fiscal_year and str(getattr(meta.doc_type, "value", meta.doc_type)) in _ANNUAL:
            yield doc, meta


def probe(index: Path, per_filing: int, seed: int, files: list[str] | None) -> list[dict]:
    from docqa.eval.answers import numbers_match

    engine, out = _opened(index), []
    for doc, meta in _annual(engine, files):
        candidates = _candidates(engine.store.pages(doc.id), meta.fiscal_year)
        rng = random.Random(f"{seed}:{doc.file_name}")
        for row in rng.sample(candidates, min(per_filing, len(candidates))):
            question = f"What was {meta.company}'s {row['label'][:1].lower() + row['label'][1:]} in fiscal {meta.fiscal_year}?"
            started = time.perf_counter()
            answer = engine.ask(question)
            reference = f"{row['raw']} {row['unit']}".strip()
            right = answer.found and numbers_match(reference, answer.text)
            out.append({"document": doc.file_name, "question": question, "reference": reference, **row,
                        "found": answer.found, "right": right,
                        "cites_page": any(c.document == doc.file_name and c.page == row["page"] for c in answer.citations),
                        "cites_other_filing": any(c.document != doc.file_name for c in answer.citations),
                        "answer": answer.text[:300], "answerer": answer.answerer, "reason": (answer.reason or "")[:200],
                        "ms": round((time.perf_counter() - started) * 1000)})
    return out


_PAIR_FORMS = (
    "What were {co}'s {a} and {b} in fiscal {y}?",
    "{co} fiscal {y}: {a} vs {b}?",
    "How much was {co}'s {a} in fiscal {y}, and how much was its {b}?",
    "What was {co}'s {a} in fiscal {y}? And its {b}?",
    "{co} fiscal {y} - {a}; {b}",
    "{co}'s {a} versus {b} for fiscal {y}?",
)
_TRIPLE_FORMS = (
    "What were {co}'s {a}, {b} and {c} in fiscal {y}, respectively?",
    "{co} fiscal {y}: {a}, {b}, and {c}?",
)
_SHARED_FORMS = (
    "Within {s}, what were {co}'s {a} and {b} in fiscal {y}?",
    "{co} fiscal {y} {s}: {a} and {b}?",
)


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:] if not text[:2].isupper() else text


def _in_a_sentence(text: str) -> str:
    """A label as a sentence carries it: "Deferred tax assets" in lower case, a name ("Global Services",
    "Missiles and Fire Control", "EMEA") as printed."""
    later = re.findall(r"[A-Za-z][\w'&-]*", text)[1:]
    named = any(w[:1].isupper() for w in later if w.lower() not in ("and", "of", "the", "&"))
    return text if text[:2].isupper() or named else text[:1].lower() + text[1:]


def _part_question(rows: list[dict], company: str, year: int, rng: random.Random) -> str:
    """One question for two or three rows of one table, in a form drawn at random."""
    sections = {r["section"] for r in rows}
    section = _label(next(iter(sections)))
    if len(rows) == 2 and len(sections) == 1 and section and len(section.split()) <= 5 and rng.random() < 0.5:
        return rng.choice(_SHARED_FORMS).format(s=_lower(section), co=company, y=year,
                                                a=_lower(rows[0]["row"]), b=_lower(rows[1]["row"]))
    labels = [_lower(r["label"]) for r in rows]
    forms = _TRIPLE_FORMS if len(rows) == 3 else _PAIR_FORMS
    return rng.choice(forms).format(co=company, y=year, a=labels[0], b=labels[1], c=labels[-1])


def parts_probe(index: Path, per_filing: int, seed: int, files: list[str] | None) -> list[dict]:
    """Two or three rows of one table asked in one question, each also asked alone."""
    from docqa.eval.answers import numbers_match

    engine, out = _opened(index), []
    for doc, meta in _annual(engine, files):
        tables = collections.defaultdict(list)
        for row in _candidates(engine.store.pages(doc.id), meta.fiscal_year):
            if row["raw"] not in {r["raw"] for r in tables[row["table"]]}:  # figures told apart
                tables[row["table"]].append(row)
        rng = random.Random(f"parts:{seed}:{doc.file_name}")
        usable = sorted(t for t, rows in tables.items() if len(rows) >= 2)
        for table in rng.sample(usable, min(per_filing, len(usable))):
            rows = rng.sample(tables[table], 3 if len(tables[table]) >= 3 and rng.random() < 0.3 else 2)
            question = _part_question(rows, meta.company, meta.fiscal_year, rng)
            references = [f"{r['raw']} {r['unit']}".strip() for r in rows]
            try:
                answer = engine.ask(question)
            except Exception as error:  # noqa: BLE001 - a crash is a finding, counted; the probe goes on
                out.append({"document": doc.file_name, "question": question, "error": repr(error)[:300]})
                continue
            alone = []
            for row, reference in zip(rows, references):
                single = engine.ask(f"What was {meta.company}'s {_lower(row['label'])} in fiscal {meta.fiscal_year}?")
                alone.append(bool(single.found and numbers_match(reference, single.text)))
            parts_right = [bool(answer.found and numbers_match(ref, answer.text)) for ref in references]
            out.append({"document": doc.file_name, "question": question, "reference": "; ".join(references),
                        "rows": [r["label"] for r in rows], "page": rows[0]["page"], "found": answer.found,
                        "right": all(parts_right), "parts_right": parts_right, "alone_right": alone,
                        "cites_other_filing": any(c.document != doc.file_name for c in answer.citations),
                        "answer": answer.text[:600], "answerer": answer.answerer})
    return out


_SECTION_FORMS = (
    "What was {co}'s {a} for {s} in fiscal {y}?",
    "What was {co}'s {s} {a} in fiscal {y}?",
    "In fiscal {y}, what was the {a} of {co}'s {s}?",
    "{co} fiscal {y}: {a} ({s})?",
)
_PRIOR_FORMS = (
    "What was {co}'s {a} in fiscal {y}?",
    "How much was {co}'s {a} for {y}?",
)


def qualified_probe(index: Path, per_filing: int, seed: int, files: list[str] | None) -> list[dict]:
    """Rows a qualifier picks: the comparative year's column, or a label a section heading tells apart.

    The comparative year is asked only of companies whose prior-year annual filing the index does
    not hold, so the filing probed is the one place the figure is printed."""
    from docqa.eval.answers import numbers_match

    engine, out = _opened(index), []
    held = {(m.company, m.fiscal_year) for _, m in _annual(engine, None)}
    for doc, meta in _annual(engine, files):
        pages = engine.store.pages(doc.id)
        rng = random.Random(f"qualified:{seed}:{doc.file_name}")
        kinds = [("section", meta.fiscal_year, _candidates(pages, meta.fiscal_year, by_section=True))]
        if (meta.company, meta.fiscal_year - 1) not in held:
            kinds.append(("prior", meta.fiscal_year - 1, _candidates(pages, meta.fiscal_year, year=meta.fiscal_year - 1)))
        for kind, year, candidates in kinds:
            for row in rng.sample(candidates, min(per_filing, len(candidates))):
                section = _in_a_sentence(_label(row["section"]))
                form = rng.choice(_SECTION_FORMS if kind == "section" else _PRIOR_FORMS)
                question = form.format(co=meta.company, a=_in_a_sentence(row["label"]), s=section, y=year)
                reference = f"{row['raw']} {row['unit']}".strip()
                try:
                    answer = engine.ask(question)
                except Exception as error:  # noqa: BLE001 - a crash is a finding, counted; the probe goes on
                    out.append({"document": doc.file_name, "question": question, "kind": kind, "error": repr(error)[:300]})
                    continue
                out.append({"document": doc.file_name, "question": question, "kind": kind, "reference": reference,
                            **row, "found": answer.found, "right": bool(answer.found and numbers_match(reference, answer.text)),
                            "cites_page": any(c.document == doc.file_name and c.page == row["page"] for c in answer.citations),
                            "cites_other_filing": any(c.document != doc.file_name for c in answer.citations),
                            "answer": answer.text[:300], "answerer": answer.answerer, "reason": (answer.reason or "")[:200]})
    return out


def _respelt(label: str, defined: dict[str, str]) -> str | None:
    """The label with a defined short form it prints put as the words it stands for, or with the words
    of a defined short form put as that short form; None when it holds neither."""
    for short, long in sorted(defined.items(), key=lambda kv: -len(kv[1])):
        if re.search(rf"(?<![\w&]){re.escape(short)}(?![\w&])", label):
            return re.sub(rf"(?<![\w&]){re.escape(short)}(?![\w&])", long, label, count=1)
        spelt = r"[\s,]+".join(re.escape(w) for w in long.split())
        if len(long.split()) >= 2 and re.search(spelt, label, re.I):
            return re.sub(spelt, short, label, count=1, flags=re.I)
    return None


def short_forms_probe(index: Path, per_filing: int, seed: int, files: list[str] | None) -> list[dict]:
    """Rows whose label holds a short form the filing defines, or the words of one, asked the other way."""
    from docqa.eval.answers import numbers_match
    from docqa.finance.abbreviations import definitions

    engine, out = _opened(index), []
    for doc, meta in _annual(engine, files):
        pages = engine.store.pages(doc.id)
        defined = definitions(page.text for page in pages)
        candidates = [dict(r, respelt=x) for r in _candidates(pages, meta.fiscal_year)
                      if (x := _respelt(r["label"], defined)) is not None]
        rng = random.Random(f"short:{seed}:{doc.file_name}")
        for row in rng.sample(candidates, min(per_filing, len(candidates))):
            reference = f"{row['raw']} {row['unit']}".strip()
            asked = {}
            for how, label in (("printed", row["label"]), ("respelt", row["respelt"])):
                question = f"What was {meta.company}'s {_lower(label)} in fiscal {meta.fiscal_year}?"
                try:
                    answer = engine.ask(question)
                except Exception as error:  # noqa: BLE001 - a crash is a finding, counted; the probe goes on
                    asked[how] = {"question": question, "error": repr(error)[:300]}
                    continue
                asked[how] = {"question": question, "found": answer.found,
                              "right": bool(answer.found and numbers_match(reference, answer.text)),
                              "answer": answer.text[:300], "answerer": answer.answerer}
            respelt = asked["respelt"]
            out.append({"document": doc.file_name, "question": respelt["question"], "reference": reference, **row,
                        "found": respelt.get("found", False), "right": respelt.get("right", False),
                        "printed_right": asked["printed"].get("right", False), **({"error": respelt["error"]} if "error" in respelt else {}),
                        "answer": respelt.get("answer", ""), "printed_answer": asked["printed"].get("answer", "")})
    return out


def compare(before: Path, after: Path) -> None:
    """Each row's (or question's, with --parts) move between two runs (right R, wrong W, not found N, crashed E)."""
    def state(r: dict) -> str:
        return "E" if "error" in r else "R" if r["right"] else "W" if r["found"] else "N"
    read = lambda p: {r["question"]: r for r in map(json.loads, p.read_text(encoding="utf-8").splitlines()) if r}  # noqa: E731
    a, b = read(before), read(after)
    moves = collections.Counter(f"{state(a[q])}->{state(b[q])}" for q in a if q in b and state(a[q]) != state(b[q]))
    for q in a:
        if q in b and state(a[q]) == "R" and state(b[q]) != "R":
            print(f"lost: {q}")
    print(", ".join(f"{k} {v}" for k, v in sorted(moves.items())) or "no row moved",
          f"({sum(q in b for q in a)} rows in both runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--index", type=Path)
    parser.add_argument("--per-filing", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--files", nargs="*", default=None, help="only these file names")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--parts", action="store_true",
                        help="two or three rows of one table in one question (each also asked alone)")
    parser.add_argument("--qualified", action="store_true",
                        help="rows a qualifier picks: the comparative year's column, a section heading")
    parser.add_argument("--short-forms", action="store_true",
                        help="rows whose label holds a defined short form (or its words), asked the other way")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    if not (args.index and args.out):
        parser.error("give --index IDX and --out FILE, or --compare BEFORE AFTER")
    run = (parts_probe if args.parts else qualified_probe if args.qualified
           else short_forms_probe if args.short_forms else probe)
    rows = run(args.index, args.per_filing, args.seed, args.files)
    args.out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    n = len(rows)
    if args.parts:
        crashed = [r for r in rows if "error" in r]
        rows = [r for r in rows if "error" not in r]
        n = len(rows)
        right = sum(r["right"] for r in rows)
        alone = [r for r in rows if all(r["alone_right"])]
        print(f"{n} questions of {len({r['document'] for r in rows})} filings: every part right {right} "
              f"({right / max(n, 1):.2f}), some part right {sum(any(r['parts_right']) for r in rows)}, "
              f"not found {n - sum(r['found'] for r in rows)}; each part right when asked alone {len(alone)}, "
              f"of those every part right together {sum(r['right'] for r in alone)}; "
              f"another filing cited {sum(r['cites_other_filing'] for r in rows)}; crashed {len(crashed)}")
        return
    if args.qualified:
        for kind in ("section", "prior"):
            some = [r for r in rows if r.get("kind") == kind and "error" not in r]
            right, found = sum(r["right"] for r in some), sum(r["found"] for r in some)
            print(f"{kind}: {len(some)} rows of {len({r['document'] for r in some})} filings: right {right} "
                  f"({right / max(len(some), 1):.2f}), wrong {found - right}, not found {len(some) - found}; "
                  f"another filing cited {sum(r['cites_other_filing'] for r in some)}")
        print(f"crashed {sum('error' in r for r in rows)}")
        return
    if args.short_forms:
        ok = [r for r in rows if "error" not in r]
        right, found = sum(r["right"] for r in ok), sum(r["found"] for r in ok)
        printed = [r for r in ok if r["printed_right"]]
        print(f"{len(ok)} rows of {len({r['document'] for r in ok})} filings asked the other way: right {right} "
              f"({right / max(len(ok), 1):.2f}), wrong {found - right}, not found {len(ok) - found}; right in the "
              f"printed words {len(printed)}, of those right the other way {sum(r['right'] for r in printed)}; "
              f"crashed {len(rows) - len(ok)}")
        return
    right = sum(r["right"] for r in rows)
    found = sum(r["found"] for r in rows)
    print(f"{n} rows of {len({r['document'] for r in rows})} filings: right {right} ({right / max(n, 1):.2f}), "
          f"wrong {found - right}, not found {n - found}; row's page cited {sum(r['cites_page'] for r in rows)}; "
          f"another filing cited {sum(r['cites_other_filing'] for r in rows)}")


if __name__ == "__main__":
    main()
