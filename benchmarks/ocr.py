"""OCR engines on the same pages: speed (pages/s on this machine's cores) and figures read right.

    .venv/bin/python benchmarks/ocr.py --engines tesseract,rapidocr
    .venv/bin/python benchmarks/ocr.py --engines tesseract,before --garbled 0   # all 171 pages

Two sets of pages, each read through ``parse_pdf`` (the OCR pool, one process per core):

- the garbled report: MongoDB's annual report of the practice set, whose text layer is garbled on
  171 of its 180 pages (``--garbled N`` of them, spread over the report; 0: all). Speed only:
  its own text layer is noise, so there is nothing to check the words against.
- scanned statements: ten real statement pages of the shared filings (income statements, balance
  sheets, cash flows), rendered at 200 dpi, turned 0.4 degrees, given grey noise and saved as
  JPEG inside an image-only PDF, as a scanner would. Figures read right: of the numbers printed
  in the page's own text layer (a multiset), the share that the OCR'd page holds exactly, commas
  and decimal points included.
- sharp statements: the same ten pages drawn from their own text layer, as a garbled page is drawn
  (a broken font encoding garbles the text, not the glyphs): figures read right, one page after
  another (``ocr.ocr_page``; no speed figure).
- sharp prose: ten pages of running text of the shared filings (no table; each holds figures in
  its sentences), drawn from their own layer the same way: words and figures read right and the
  CPU a page, one page after another. Garbled pages of plain prose are read at fewer pixels
  (``ocr.plain_prose``); this set says what that costs in words and figures.

Engines: ``tesseract`` (the default: ingest/ocr.py's settings; tesseract loaded once in each
worker through tesserocr), ``tesseract-command`` (the same settings, the system's tesseract command
started for each page: what runs without tesserocr), ``rapidocr`` (rapidocr-onnxruntime, models
inside its wheel), ``before`` (PyMuPDF's built-in tesseract at a fixed 200 dpi, one page after
another: the path the pool replaced). Prints pages/s, CPU seconds a page and the load average
while each ran (the machine is shared: read figures beside their load), and writes
benchmarks/results/ocr.json. Settings come from the environment as in docqa
(``DOCQA_OCR_SHARP_PROSE_TEXT_PX=24``: prose read like tables); ``--tesseract-var NAME=VALUE`` sets
one of tesseract's own variables (``tessedit_do_invert=0``) for the run.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import resource
import tempfile
import threading
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import fitz
import numpy as np

from docqa.ingest import ocr
from docqa.ingest.ocr import OcrOptions, ocr_page, plain_prose
from docqa.ingest.parse import _page, _read_layer, drop_running_lines, parse_pdf

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
STATEMENTS = [("AMAZON_2017_10K", 36), ("AMAZON_2017_10K", 37), ("3M_2018_10K", 80), ("PEPSICO_2022_10K", 61),
              ("PEPSICO_2022_10K", 65), ("NIKE_2021_10K", 61), ("BESTBUY_2019_10K", 51), ("JPMORGAN_2022Q2_10Q", 87),
              ("COSTCO_2021_10K", 39), ("ADOBE_2017_10K", 60)]  # 0-based page indexes
# Pages of running text, one from each of ten filings (0-based): the page with the most words among
# those of the first 60 with no table row and at least eight figures in its sentences.
PROSE = [("3M_2018_10K", 18), ("ADOBE_2015_10K", 31), ("ADOBE_2022_10K", 16), ("AMCOR_2022_8K_dated-2022-07-01", 7),
         ("GENERALMILLS_2020_10K", 6), ("KRAFTHEINZ_2019_10K", 33), ("LOCKHEEDMARTIN_2022_10K", 53),
         ("MGMRESORTS_2022Q4_EARNINGS", 7), ("PEPSICO_2023_8K_dated-2023-05-30", 35), ("WALMART_2018_10K", 23)]
_FIGURE = re.compile(r"\d[\d,.]*\d|\d")


_AMOUNT = re.compile(r"^\(?\$?\d[\d,.]*\)?%?$")


def layer_table_rows(page: fitz.Page) -> int:
    """Rows of the page's own text layer with a figure after a gap of over two of its heights: a
    table's column of figures (or a list's bullet before an amount)."""
    rows: list[list] = []
    for word in sorted((w for w in page.get_text("words", sort=False) if w[4].strip()),
                       key=lambda w: ((w[1] + w[3]) / 2, w[0])):
        middle, height = (word[1] + word[3]) / 2, word[3] - word[1]
        if rows and abs((rows[-1][0][1] + rows[-1][0][3]) / 2 - middle) < 0.4 * height:
            rows[-1].append(word)
        else:
            rows.append([word])
    found = 0
    for row in rows:
        row.sort(key=lambda w: w[0])
        found += any(b[0] - a[2] > 2 * (b[3] - b[1]) and _AMOUNT.match(b[4]) for a, b in zip(row, row[1:]))
    return found


def prose_check(files: int, per_file: int) -> dict:
    """``ocr.plain_prose`` on pages of the shared filings that have a text layer to check it by: how
    many it calls plain prose, and which of those hold a figure in a table row (read at fewer pixels)."""
    import random

    rng = random.Random(1)
    pages = prose = 0
    doubtful = []
    for path in rng.sample(sorted((DATA / "pdfs").glob("*.pdf")), files):
        with fitz.open(path) as doc:
            for index in rng.sample(range(doc.page_count), min(per_file, doc.page_count)):
                pages += 1
                if plain_prose(doc[index]):
                    prose += 1
                    if layer_table_rows(doc[index]):
                        doubtful.append(f"{path.stem} p.{index + 1}")
    return {"pages": pages, "plain_prose": prose, "prose_with_figure_rows": doubtful}


def figures(text: str) -> Counter[str]:
    """The numbers printed in a text, as printed: "1,234", "5.01", "2022" (no trailing stop or comma)."""
    return Counter(m.rstrip(".,") for m in _FIGURE.findall(text))


def garbled_report() -> Path:
    corpus = json.loads((DATA / "practice" / "corpus.json").read_text())
    (entry,) = [e for e in corpus if e["company"].startswith("MongoDB")]
    return DATA / "practice" / "pdfs" / entry["file"]


def sample_garbled(report: Path, n: int, out: Path) -> tuple[Path, int]:
    """A PDF of ``n`` of the report's garbled pages, spread evenly (0: all of them)."""
    with fitz.open(report) as doc:
        garbled = [i for i in range(doc.page_count) if _read_layer(doc[i])[1]]
        picked = garbled if n <= 0 or n >= len(garbled) else [garbled[round(k * len(garbled) / n)] for k in range(n)]
        doc.select(picked)
        doc.save(out)
    return out, len(garbled)


def scanned_statements(out: Path, dpi: int = 200, angle: float = 0.4, noise: float = 8.0) -> tuple[Path, list[str]]:
    """The statement pages as a scanner makes them; and each page's own text layer as the parse reads
    it (the truth: the same rows, and the same running lines and page numbers dropped)."""
    from PIL import Image  # matplotlib's dependency (dev extra)

    rng = np.random.default_rng(0)
    scan, originals = fitz.open(), fitz.open()
    for name, index in STATEMENTS:
        with fitz.open(DATA / "pdfs" / f"{name}.pdf") as src:
            page = src[index]
            originals.insert_pdf(src, from_page=index, to_page=index)
            pix = page.get_pixmap(dpi=dpi, colorspace=fitz.csGRAY)
            image = Image.frombytes("L", (pix.w, pix.h), pix.samples).rotate(angle, Image.BILINEAR, fillcolor=255)
            grey = np.asarray(image).astype(np.float32) + rng.normal(0, noise, (pix.h, pix.w))
            jpeg = io.BytesIO()
            Image.fromarray(np.clip(grey, 0, 255).astype(np.uint8)).save(jpeg, "JPEG", quality=80)
            new = scan.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, stream=jpeg.getvalue())
    scan.save(out)
    originals.save(out.with_name("originals.pdf"))
    truths = [page.text for page in parse_pdf(out.with_name("originals.pdf"), ocr=False).pages]
    return out, truths


class LoadSampler:
    """The 1-minute load average, sampled every few seconds while a run lasts."""

    def __init__(self):
        self.samples = [os.getloadavg()[0]]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.wait(3):
            self.samples.append(os.getloadavg()[0])

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.samples.append(os.getloadavg()[0])


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def read_before(pdf: Path):
    """The replaced path: PyMuPDF's tesseract at 200 dpi, page after page, in this process."""
    pages = []
    with fitz.open(pdf) as doc:
        for i, page in enumerate(doc):
            textpage = page.get_textpage_ocr(language="eng", dpi=200, full=True)
            pages.append(_page(page.rect, i + 1, page.get_text("words", textpage=textpage, sort=False), True, True))
    return pages


def layer_truths(pages: list[tuple[str, int]], out: Path) -> list[str]:
    """The pages' own text layers as the parse reads them (running lines and page numbers dropped)."""
    originals = fitz.open()
    for name, index in pages:
        with fitz.open(DATA / "pdfs" / f"{name}.pdf") as src:
            originals.insert_pdf(src, from_page=index, to_page=index)
    originals.save(out)
    return [page.text for page in parse_pdf(out, ocr=False).pages]


TESSERACT_VARS: tuple[tuple[str, str], ...] = ()  # --tesseract-var


def options_for(engine: str) -> OcrOptions:
    return replace(OcrOptions.from_settings(), engine=engine, tesseract_vars=TESSERACT_VARS)


def sharp_score(engine: str, truths: list[str], pages_read: list[tuple[str, int]] = STATEMENTS) -> dict:
    """Figures (and words) read right on pages drawn from their own text layer, one after another."""
    options = options_for(engine)
    pages, cpu = [], _cpu()
    for k, (name, index) in enumerate(pages_read):
        with fitz.open(DATA / "pdfs" / f"{name}.pdf") as src:
            page = src[index]
            if engine == "before":
                textpage = page.get_textpage_ocr(language="eng", dpi=200, full=True)
                words = page.get_text("words", textpage=textpage, sort=False)
            else:
                words = ocr_page(page, options)[0]
            pages.append(_page(page.rect, k + 1, words, True, True))
    result = score(drop_running_lines(pages), truths)
    result["cpu_s_per_page"] = round((_cpu() - cpu) / len(pages_read), 2)
    return result


def run(engine: str, pdf: Path) -> tuple[list, dict]:
    cpu, started = _cpu(), time.perf_counter()
    with LoadSampler() as load:
        if engine == "before":
            pages = read_before(pdf)
        else:
            pages = parse_pdf(pdf, ocr_options=options_for(engine)).pages
    seconds = time.perf_counter() - started
    n = len(pages)
    return pages, {"pages": n, "seconds": round(seconds, 1), "pages_per_s": round(n / seconds, 3),
                   "cpu_s_per_page": round((_cpu() - cpu) / n, 2),
                   "load_avg": round(float(np.mean(load.samples)), 2), "load_max": round(max(load.samples), 2)}


def score(pages, truths: list[str]) -> dict:
    right = total = words_right = words = 0
    worst = []
    for page, truth in zip(pages, truths):
        want, got = figures(truth), figures(page.text)
        ok = sum((want & got).values())
        right, total = right + ok, total + sum(want.values())
        worst.append(sum(want.values()) - ok)
        want, got = Counter(truth.split()), Counter(page.text.split())
        words_right, words = words_right + sum((want & got).values()), words + sum(want.values())
    return {"figures": total, "figures_right": right, "share_right": round(right / total, 4), "missed_per_page": worst,
            "words": words, "words_right": words_right, "words_share_right": round(words_right / words, 4)}


def _idle_rate(engine: str, figures: dict, cores: int) -> float:
    """What the CPU a page allows when no one else uses the cores: the pool keeps each one busy
    (the replaced path ran on one)."""
    return (1 if engine == "before" else cores) / figures["cpu_s_per_page"]


def _cores(engine: str, cores: int) -> str:
    return "the one core it uses" if engine == "before" else f"{cores} idle cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", default="tesseract,rapidocr",
                        help="tesseract, tesseract-command, rapidocr, before (comma-separated)")
    parser.add_argument("--garbled", type=int, default=20, help="garbled report pages read (0: all 171)")
    parser.add_argument("--prose-check", type=int, default=0, metavar="FILES",
                        help="also check ocr.plain_prose on 20 pages of each of FILES shared filings")
    parser.add_argument("--tesseract-var", action="append", default=[], metavar="NAME=VALUE",
                        help="one of tesseract's own variables, for this run (repeatable)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "ocr.json")
    args = parser.parse_args()
    global TESSERACT_VARS
    TESSERACT_VARS = tuple(tuple(v.split("=", 1)) for v in args.tesseract_var)
    cores = OcrOptions().pool_size
    results = {"cores": cores, "tesseract_vars": dict(TESSERACT_VARS), "engines": {}}
    with tempfile.TemporaryDirectory() as tmp:
        report, garbled_total = sample_garbled(garbled_report(), args.garbled, Path(tmp) / "garbled.pdf")
        statements, truths = scanned_statements(Path(tmp) / "statements.pdf")
        prose_truths = layer_truths(PROSE, Path(tmp) / "prose.pdf")
        with fitz.open(report) as doc:
            prose = sum(plain_prose(page) for page in doc)
        print(f"{cores} cores; garbled report: {fitz.open(report).page_count} of its {garbled_total} garbled pages "
              f"({prose} of them plain prose); scanned statements: {len(truths)} pages, "
              f"{sum(sum(figures(t).values()) for t in truths)} figures; sharp prose: {len(PROSE)} pages, "
              f"{sum(len(t.split()) for t in prose_truths)} words, {sum(sum(figures(t).values()) for t in prose_truths)} figures")
        results["garbled_prose_pages"] = prose
        if args.prose_check:
            check = results["prose_check"] = prose_check(args.prose_check, 20)
            print(f"plain prose check: {check['plain_prose']} of {check['pages']} pages of {args.prose_check} shared "
                  f"filings called plain prose; of those, with a figure after a wide gap in their own text layer: "
                  f"{len(check['prose_with_figure_rows'])} {check['prose_with_figure_rows']}", flush=True)
        print(f"tesseract: {ocr.tesseract_runs(options_for('tesseract'))}"
              + "".join(f"; -c {name}={value}" for name, value in TESSERACT_VARS))
        for name in args.engines.split(","):
            engine = "tesseract" if name == "tesseract-command" else name
            library = ocr._tesseract_api
            if name == "tesseract-command":  # the forked workers inherit it
                ocr._tesseract_api = lambda options: None
            try:
                _, speed = run(engine, report)
                pages, scanned = run(engine, statements)
                scanned.update(score(pages, truths))
                sharp = sharp_score(engine, truths)
                sharp_prose = sharp_score(engine, prose_truths, PROSE)
            finally:
                ocr._tesseract_api = library
            engine = name
            results["engines"][engine] = {"garbled_report": speed, "scanned_statements": scanned,
                                          "sharp_statements": sharp, "sharp_prose": sharp_prose}
            print(f"{engine:10s} garbled report: {speed['pages_per_s']:.2f} pages/s, {speed['cpu_s_per_page']:.2f} s CPU "
                  f"a page (load {speed['load_avg']:.1f}, max {speed['load_max']:.1f}; CPU-bound: "
                  f"{_idle_rate(engine, speed, cores):.2f} pages/s on {_cores(engine, cores)})")
            print(f"{'':10s} scanned statements: {scanned['pages_per_s']:.2f} pages/s, {scanned['cpu_s_per_page']:.2f} s "
                  f"CPU a page ({_idle_rate(engine, scanned, cores):.2f} pages/s on {_cores(engine, cores)}), figures read right {scanned['share_right']:.1%} ({scanned['figures_right']}/"
                  f"{scanned['figures']}, missed per page {scanned['missed_per_page']}) (load {scanned['load_avg']:.1f}, "
                  f"max {scanned['load_max']:.1f})")
            print(f"{'':10s} sharp statements: figures read right {sharp['share_right']:.1%} ({sharp['figures_right']}/"
                  f"{sharp['figures']}, missed per page {sharp['missed_per_page']})")
            print(f"{'':10s} sharp prose: {sharp_prose['cpu_s_per_page']:.2f} s CPU a page, words read right "
                  f"{sharp_prose['words_share_right']:.2%} ({sharp_prose['words_right']}/{sharp_prose['words']}), figures "
                  f"{sharp_prose['share_right']:.1%} ({sharp_prose['figures_right']}/{sharp_prose['figures']}, missed per "
                  f"page {sharp_prose['missed_per_page']})", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
