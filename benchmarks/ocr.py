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

Engines: ``tesseract`` (the default: ingest/ocr.py's settings), ``rapidocr``
(rapidocr-onnxruntime, models inside its wheel), ``before`` (PyMuPDF's built-in tesseract at a
fixed 200 dpi, one page after another: the path this replaced). Prints pages/s, CPU seconds a page
and the load average while each ran (the machine is shared: read figures beside their load), and
writes benchmarks/results/ocr.json.
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

from docqa.ingest.ocr import OcrOptions, ocr_page
from docqa.ingest.parse import _page, _read_layer, drop_running_lines, parse_pdf

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
STATEMENTS = [("AMAZON_2017_10K", 36), ("AMAZON_2017_10K", 37), ("3M_2018_10K", 80), ("PEPSICO_2022_10K", 61),
              ("PEPSICO_2022_10K", 65), ("NIKE_2021_10K", 61), ("BESTBUY_2019_10K", 51), ("JPMORGAN_2022Q2_10Q", 87),
              ("COSTCO_2021_10K", 39), ("ADOBE_2017_10K", 60)]  # 0-based page indexes
_FIGURE = re.compile(r"\d[\d,.]*\d|\d")


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


def sharp_score(engine: str, truths: list[str]) -> dict:
    """Figures read right on the statement pages drawn from their own text layer."""
    options = replace(OcrOptions.from_settings(), engine=engine)
    pages = []
    for k, (name, index) in enumerate(STATEMENTS):
        with fitz.open(DATA / "pdfs" / f"{name}.pdf") as src:
            page = src[index]
            if engine == "before":
                textpage = page.get_textpage_ocr(language="eng", dpi=200, full=True)
                words = page.get_text("words", textpage=textpage, sort=False)
            else:
                words = ocr_page(page, options)[0]
            pages.append(_page(page.rect, k + 1, words, True, True))
    return score(drop_running_lines(pages), truths)


def run(engine: str, pdf: Path) -> tuple[list, dict]:
    cpu, started = _cpu(), time.perf_counter()
    with LoadSampler() as load:
        if engine == "before":
            pages = read_before(pdf)
        else:
            pages = parse_pdf(pdf, ocr_options=replace(OcrOptions.from_settings(), engine=engine)).pages
    seconds = time.perf_counter() - started
    n = len(pages)
    return pages, {"pages": n, "seconds": round(seconds, 1), "pages_per_s": round(n / seconds, 3),
                   "cpu_s_per_page": round((_cpu() - cpu) / n, 2),
                   "load_avg": round(float(np.mean(load.samples)), 2), "load_max": round(max(load.samples), 2)}


def score(pages, truths: list[str]) -> dict:
    right = total = 0
    worst = []
    for page, truth in zip(pages, truths):
        want, got = figures(truth), figures(page.text)
        ok = sum((want & got).values())
        right, total = right + ok, total + sum(want.values())
        worst.append(sum(want.values()) - ok)
    return {"figures": total, "figures_right": right, "share_right": round(right / total, 4), "missed_per_page": worst}


def _idle_rate(engine: str, figures: dict, cores: int) -> float:
    """What the CPU a page allows when no one else uses the cores: the pool keeps each one busy
    (the replaced path ran on one)."""
    return (1 if engine == "before" else cores) / figures["cpu_s_per_page"]


def _cores(engine: str, cores: int) -> str:
    return "the one core it uses" if engine == "before" else f"{cores} idle cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", default="tesseract,rapidocr", help="tesseract, rapidocr, before (comma-separated)")
    parser.add_argument("--garbled", type=int, default=20, help="garbled report pages read (0: all 171)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "ocr.json")
    args = parser.parse_args()
    cores = OcrOptions().pool_size
    results = {"cores": cores, "engines": {}}
    with tempfile.TemporaryDirectory() as tmp:
        report, garbled_total = sample_garbled(garbled_report(), args.garbled, Path(tmp) / "garbled.pdf")
        statements, truths = scanned_statements(Path(tmp) / "statements.pdf")
        print(f"{cores} cores; garbled report: {fitz.open(report).page_count} of its {garbled_total} garbled pages; "
              f"scanned statements: {len(truths)} pages, {sum(sum(figures(t).values()) for t in truths)} figures")
        for engine in args.engines.split(","):
            _, speed = run(engine, report)
            pages, scanned = run(engine, statements)
            scanned.update(score(pages, truths))
            sharp = sharp_score(engine, truths)
            results["engines"][engine] = {"garbled_report": speed, "scanned_statements": scanned,
                                          "sharp_statements": sharp}
            print(f"{engine:10s} garbled report: {speed['pages_per_s']:.2f} pages/s, {speed['cpu_s_per_page']:.2f} s CPU "
                  f"a page (load {speed['load_avg']:.1f}, max {speed['load_max']:.1f}; CPU-bound: "
                  f"{_idle_rate(engine, speed, cores):.2f} pages/s on {_cores(engine, cores)})")
            print(f"{'':10s} scanned statements: {scanned['pages_per_s']:.2f} pages/s, {scanned['cpu_s_per_page']:.2f} s "
                  f"CPU a page ({_idle_rate(engine, scanned, cores):.2f} pages/s on {_cores(engine, cores)}), figures read right {scanned['share_right']:.1%} ({scanned['figures_right']}/"
                  f"{scanned['figures']}, missed per page {scanned['missed_per_page']}) (load {scanned['load_avg']:.1f}, "
                  f"max {scanned['load_max']:.1f})")
            print(f"{'':10s} sharp statements: figures read right {sharp['share_right']:.1%} ({sharp['figures_right']}/"
                  f"{sharp['figures']}, missed per page {sharp['missed_per_page']})", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
