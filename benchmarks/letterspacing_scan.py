"""Letter-spaced headings over the whole corpus: which rows docqa.ingest.letterspacing rejoins.

    .venv/bin/python benchmarks/letterspacing_scan.py [--sample 40] [--seed 14] [PDF ...]
    .venv/bin/python benchmarks/letterspacing_scan.py --parse-overhead PDF ...

Reads every page of ../shared/data/pdfs and ../shared/data/practice/pdfs (or the PDFs named),
rebuilds rows as parse.py does, and prints per file: rows, rows with a narrow gap between letters
(the row's gap evidence alone), rows changed by the merge (with before -> after samples), then
totals, a random sample of changed rows to read by eye, the narrow gaps left alone whose two sides
the page prints nowhere else (where a missed split word would be), the cost of the merge (wall and
CPU) next to the cost of reading the words, and how many rows hold "(Millions" without its closing
bracket.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import fitz

from docqa.ingest import letterspacing
from docqa.ingest.parse import _clean_words, _columns, _rows

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = (ROOT.parent / "shared" / "data" / "pdfs", ROOT.parent / "shared" / "data" / "practice" / "pdfs")
_OPEN_MILLIONS = re.compile(r"\((?:in )?millions\b(?![^()]*\))", re.I)


@dataclass
class FileScan:
    name: str
    pages: int = 0
    rows: int = 0
    narrow: int = 0            # rows with a letter gap narrower than the row's word gaps
    changed: list[tuple[int, str, str]] = field(default_factory=list)  # (page, before, after)
    open_millions: list[tuple[int, str]] = field(default_factory=list)
    # narrow letter gaps left alone, shaped like a cut word, whose two sides are printed nowhere else
    # on the page ("Equit y"):
    # where a split word the page cannot confirm would show up, to estimate what the merge misses
    suspects: list[tuple[int, str]] = field(default_factory=list)
    read_s: float = 0.0
    merge_wall: float = 0.0
    merge_cpu: float = 0.0


def _core(text: str) -> str:
    return text.strip(letterspacing._EDGE).lower()


def _fragment_shape(left: str, right: str) -> bool:
    """Looks like a word cut in two: letters, one case pattern, one side of at most 3 letters
    ("Equit y", "OPERATI ONS"), not a sentence opening ("A summary")."""
    a, b = left.lstrip(letterspacing._EDGE), right.rstrip(letterspacing._EDGE)
    if not (a.isalpha() and b.isalpha()) or min(len(a), len(b)) > 3:
        return False
    joined = a + b
    if len(a) == 1 and a.isupper() and b[0].islower():
        return False
    return joined.isupper() or joined.islower() or (joined[0].isupper() and joined[1:].islower())


def _text(row) -> str:
    return " ".join(w[4] for w in row)


def _around_change(before: str, after: str, width: int = 36) -> tuple[str, str]:
    """The two texts cut to a window around their first difference (long rows change far right)."""
    i = next((k for k, (a, b) in enumerate(zip(before, after)) if a != b), min(len(before), len(after)))
    lo = max(0, i - width)
    return ("…" if lo else "") + before[lo:i + width], ("…" if lo else "") + after[lo:i + width]


def _has_narrow(row) -> bool:
    return letterspacing.may_apply(row) and bool(letterspacing.narrow_gaps(row))


def scan(path: Path) -> FileScan:
    out = FileScan(path.name)
    doc = fitz.open(path)
    try:
        for index in range(doc.page_count):
            page = doc[index]
            t0 = time.perf_counter()
            rows = _columns(_rows(_clean_words(page.get_text("words", sort=False))), page.rect.width)
            out.read_s += time.perf_counter() - t0
            w0, c0 = time.perf_counter(), time.process_time()
            merged = letterspacing.merge_rows(rows)
            out.merge_wall += time.perf_counter() - w0
            out.merge_cpu += time.process_time() - c0
            out.pages += 1
            out.rows += len(rows)
            out.narrow += sum(map(_has_narrow, rows))
            counts: Counter[str] | None = None
            for before, after in zip(rows, merged):
                if after is not before:
                    out.changed.append((index + 1, *_around_change(_text(before), _text(after))))
                elif letterspacing.may_apply(before) and (narrow := letterspacing.narrow_gaps(before)):
                    if counts is None:
                        counts = Counter(_core(w[4]) for r in rows for w in r)
                    mine = Counter(_core(w[4]) for w in before)
                    for k in narrow:
                        left, right = _core(before[k][4]), _core(before[k + 1][4])
                        if _fragment_shape(before[k][4], before[k + 1][4]) and counts[left] == mine[left] \
                                and counts[right] == mine[right]:
                            where = f"{before[k][4]}^{before[k + 1][4]} in {_text(before)[:70]!r}"
                            out.suspects.append((index + 1, where))
            for row in merged:
                text = _text(row)
                if _OPEN_MILLIONS.search(text):
                    out.open_millions.append((index + 1, text))
    finally:
        doc.close()
    return out


def parse_overhead(files: list[Path], repeats: int = 3) -> None:
    """parse_pdf with and without the merge, alternated; best of ``repeats`` CPU and wall each."""
    from docqa.ingest import parse

    best: dict[str, tuple[float, float]] = {}
    pages = 0
    for _ in range(repeats):
        for mode in ("with merge", "without merge"):
            parse.merge_rows = letterspacing.merge_rows if mode == "with merge" else (lambda rows: rows)
            w0, c0 = time.perf_counter(), time.process_time()
            pages = sum(len(parse.parse_pdf(f).pages) for f in files)
            cpu, wall = time.process_time() - c0, time.perf_counter() - w0
            old = best.get(mode, (float("inf"), float("inf")))
            best[mode] = (min(old[0], cpu), min(old[1], wall))
    parse.merge_rows = letterspacing.merge_rows
    for mode, (cpu, wall) in best.items():
        print(f"parse_pdf {mode}: {pages} pages, best of {repeats}: {cpu:.2f} s CPU, {wall:.2f} s wall")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdfs", nargs="*", type=Path)
    ap.add_argument("--sample", type=int, default=40, help="changed rows to print at random for reading")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--per-file", type=int, default=3, help="before -> after samples per file")
    ap.add_argument("--suspects", type=int, default=60, help="possible misses to print")
    ap.add_argument("--parse-overhead", action="store_true",
                    help="only time parse_pdf with and without the merge on the PDFs named")
    args = ap.parse_args()
    files = args.pdfs or sorted(p for folder in FOLDERS for p in folder.glob("*.pdf"))
    if args.parse_overhead:
        parse_overhead(files)
        return
    wall0, cpu0 = time.perf_counter(), time.process_time()
    scans = []
    for path in files:
        s = scan(path)
        scans.append(s)
        if s.changed or s.open_millions:
            print(f"{s.name}: {s.pages} pages, {s.rows} rows, {s.narrow} with a narrow letter gap, "
                  f"{len(s.changed)} changed, {len(s.open_millions)} '(Millions' unclosed")
            for page, before, after in s.changed[:args.per_file]:
                print(f"   p{page}: {before[:90]!r}\n      -> {after[:90]!r}")
            for page, text in s.open_millions[:2]:
                print(f"   p{page} open bracket: {text[:90]!r}")
    changed = [(s.name, *c) for s in scans for c in s.changed]
    pages = sum(s.pages for s in scans)
    print(f"\nfiles {len(scans)}, pages {pages}, rows {sum(s.rows for s in scans)}")
    print(f"rows with a narrow letter gap (row gap evidence alone): {sum(s.narrow for s in scans)} "
          f"in {sum(1 for s in scans if s.narrow)} files")
    print(f"rows changed: {len(changed)} in {sum(1 for s in scans if s.changed)} files")
    print(f"rows with '(Millions' and no closing bracket: {sum(len(s.open_millions) for s in scans)}")
    suspects = [(s.name, *x) for s in scans for x in s.suspects]
    print("narrow gaps left alone, shaped like a cut word, whose sides the page prints nowhere else "
          f"(possible misses): {len(suspects)} "
          f"in {sum(1 for s in scans if s.suspects)} files")
    for name, page, text in suspects[:args.suspects]:
        print(f"  {name[:28]} p{page}: {text}")
    merge_wall, merge_cpu = sum(s.merge_wall for s in scans), sum(s.merge_cpu for s in scans)
    read_s = sum(s.read_s for s in scans)
    print(f"merge cost: {merge_wall:.2f} s wall, {merge_cpu:.2f} s CPU over {pages} pages "
          f"({1e6 * merge_cpu / max(pages, 1):.0f} us CPU/page); reading words + rows: {read_s:.1f} s wall "
          f"(merge = {100 * merge_wall / max(read_s, 1e-9):.1f} % of it)")
    print(f"scan total: {time.perf_counter() - wall0:.0f} s wall, {time.process_time() - cpu0:.0f} s CPU, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if changed and args.sample:
        print(f"\nrandom sample of {min(args.sample, len(changed))} changed rows (seed {args.seed}):")
        for name, page, before, after in random.Random(args.seed).sample(changed, min(args.sample, len(changed))):
            print(f"  {name[:28]} p{page}: {before[:80]!r}\n{'':>10}-> {after[:80]!r}")


if __name__ == "__main__":
    main()
