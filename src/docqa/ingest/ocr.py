"""OCR of scanned pages and garbled text layers, page by page on a process pool sized to the cores.

Each page needing OCR is a task: a worker opens the PDF by path, renders that one page, reads it
with the OCR engine and sends back its words in page points; the parse goes on meanwhile and the
words come back as pages finish (``OcrRun``), so a 171-page scan uses every core, not one.

The page is rendered at a resolution chosen from its own text size (``page_dpi``): the printed
size of a garbled text layer's spans, or, on an image-only scan, the height of its inked text
rows. Tesseract (``--oem 1 --psm 4``) read the most printed figures of scanned statements right
at about 32 pixels per point of text size, and of the same pages drawn from their (sharp) text
layer at 24; a fixed 200 dpi read 8-pt statement figures worse and 11-pt prose slower
(benchmarks/ocr.py, docs/benchmarks.md). A garbled page of plain prose (``plain_prose``: no row
with table columns, no chart or ruled table) is read at 20: its figures came out as at 24 and its
words nearly so (99.84 against 99.92 %) for less CPU, where statement pages at 20 lost figures
(95.3 against 99.1 %). Light greys (row shading, scanner background) are turned white first:
tesseract's global threshold otherwise blackens shaded table rows.

Engines: ``tesseract`` or ``rapidocr`` (rapidocr-onnxruntime: PP-OCR models inside its wheel,
nothing downloaded), setting DOCQA_OCR_ENGINE. Tesseract runs inside each worker through tesserocr
(its wheel brings libtesseract 5.5; the model is the system's, Debian's tesseract-ocr-eng), loaded
once per worker: it took two thirds of the CPU a page of Debian's tesseract 5.3 command started per
page, which is what runs where tesserocr or the model's folder cannot be found.
"""

from __future__ import annotations

import functools
import gc
import logging
import multiprocessing
import os
import shutil
import subprocess
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from statistics import median
from typing import Iterator, Literal

import fitz
import numpy as np

from docqa.limits import capped_dpi

log = logging.getLogger(__name__)

Engine = Literal["tesseract", "rapidocr"]
RawWord = tuple[float, float, float, float, str]  # x0, y0, x1, y1 in page points, text

# The height of a scan's inked text rows is about 1/1.4 of its font size (ascenders to descenders
# of mixed text, digits alone are shorter): measured on ten statement pages, 1.25-1.53.
ROW_TO_SIZE = 1.4
SIZE_PROBE_DPI = 150  # the scan is looked at this coarsely to find its text rows
DEFAULT_SIZE_PT = 9.0  # a page whose text size cannot be told is read as 9-pt print
# Telling plain prose from tables (``plain_prose``), on the page drawn at 72 dpi (a few ms): a
# table row has a gap of over TABLE_GAP_EM row heights after a first part wider than a bullet or
# list number (BULLET_EM); a justified line's widest space is under one. Ink outside text rows
# (rules, a table whose vertical rules join its rows, a chart, a picture) over OUTSIDE_INK of
# the page's ink also makes it no plain prose. Of 769 pages of 40 shared filings it called 287
# plain prose, and only two of those print a figure after a wide gap, an amount after a list's
# bullet (benchmarks/ocr.py --prose-check).
LAYOUT_PROBE_DPI = 72
INK_GREY = 160
TABLE_GAP_EM = 2.0
BULLET_EM = 1.5
OUTSIDE_INK = 0.10


class OcrError(RuntimeError):
    """The engine failed on a page; the message says why, in one line."""


@dataclass(frozen=True)
class OcrOptions:
    engine: Engine = "tesseract"
    workers: int = 0           # OCR processes; 0: one per core
    psm: int = 4               # tesseract --psm: one column of text of varying sizes (measured best)
    oem: int = 1               # tesseract --oem: the LSTM engine (Debian's eng data has no legacy model)
    text_px: float = 32.0      # rendering a scan: pixels per point of its text size (measured best)
    sharp_text_px: float = 24.0  # rendering a garbled text layer: drawn sharp, it needs fewer pixels
    sharp_prose_text_px: float = 20.0  # a garbled page of plain prose (no table, no chart): fewer still
    min_dpi: int = 150
    max_dpi: int = 400
    light: int = 210           # grey levels above this (of a white page) are made white before OCR
    timeout_s: float = 120.0   # one page's engine run
    language: str = "eng"
    # tesseract's own variables, (name, value): none by default, as none measured faster at the same
    # figures; benchmarks/ocr.py --tesseract-var tries them
    tesseract_vars: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_settings(cls, settings=None) -> OcrOptions:
        from docqa.config import Settings

        s = (settings or Settings()).ingest
        return cls(engine=s.ocr_engine, workers=s.ocr_workers, psm=s.ocr_psm, oem=s.ocr_oem,
                   text_px=s.ocr_text_px, sharp_text_px=s.ocr_sharp_text_px,
                   sharp_prose_text_px=s.ocr_sharp_prose_text_px, timeout_s=s.ocr_timeout_s)

    @property
    def pool_size(self) -> int:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        return max(1, self.workers or cores)


def available(engine: str) -> bool:
    import importlib.util

    if engine == "rapidocr":
        return importlib.util.find_spec("rapidocr_onnxruntime") is not None
    library = importlib.util.find_spec("tesserocr") is not None and tessdata("eng") is not None
    return library or shutil.which("tesseract") is not None


# Where tesseract packages put their models: Debian and Ubuntu (5, 4.00), Fedora, source builds, Homebrew.
TESSDATA_DIRS = ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
                 "/usr/share/tessdata", "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata")


@functools.cache
def tessdata(language: str) -> str | None:
    """The folder holding the models of ``language`` ("eng", "eng+deu"): TESSDATA_PREFIX (tesseract's
    own variable) when set, else the first of TESSDATA_DIRS that has them. tesserocr's wheel knows
    no folder of its own."""
    prefix = os.environ.get("TESSDATA_PREFIX")
    for folder in ([prefix] if prefix else []) + list(TESSDATA_DIRS):
        if all(os.path.isfile(os.path.join(folder, f"{lang.lstrip('~')}.traineddata"))
               for lang in language.split("+")):
            return folder
    return None


def install_hint(engine: str) -> str:
    return ("pip install rapidocr-onnxruntime (or DOCQA_OCR_ENGINE=tesseract)" if engine == "rapidocr"
            else "install tesseract-ocr")


@dataclass
class PageOcr:
    """One page's OCR: its words, the dpi it was read at, or why it failed."""

    index: int                          # 0-based page index
    words: list[RawWord] = field(default_factory=list)
    dpi: int = 0
    capped: bool = False                # the pixel limit lowered the dpi
    error: str | None = None
    worker: int = field(default_factory=os.getpid)  # the process that read it


# --- reading one page ------------------------------------------------------------------------------

def text_size(page: fitz.Page) -> tuple[float | None, bool]:
    """The page's body text size in points, and whether it is drawn from a text layer: the layer's
    spans (a garbled layer keeps its sizes), else the height of the scan's inked rows."""
    sizes: list[float] = []
    for block in page.get_text("dict", flags=0)["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                n = len(span["text"].strip())
                if n and span["size"] > 1:
                    sizes.extend([span["size"]] * min(n, 50))
    if sizes:
        return float(median(sizes)), True
    return _scan_text_size(page), False


def _scan_text_size(page: fitz.Page) -> float | None:
    """Median height of inked rows in narrow vertical strips (narrow, so that a skewed scan's rows
    do not smear into each other), times ROW_TO_SIZE."""
    dpi = capped_dpi(page.rect.width, page.rect.height, SIZE_PROBE_DPI)
    ink = _grey(page.get_pixmap(dpi=dpi, colorspace=fitz.csGRAY, alpha=False)) < 128
    heights: list[np.ndarray] = []
    for strip in np.array_split(ink, max(1, min(8, ink.shape[1] // 64)), axis=1):
        rows = np.concatenate(([0], strip.any(axis=1).astype(np.int8), [0]))
        edges = np.diff(rows)
        h = np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)
        heights.append(h[(h >= 3) & (h <= dpi)])  # rules (1-2 px) and pictures are no text rows
    found = np.concatenate(heights) if heights else np.array([])
    if not len(found):
        return None
    return float(np.median(found)) * 72 / dpi * ROW_TO_SIZE


def plain_prose(page: fitz.Page) -> bool:
    """Whether the page shows only rows of running text: no row with table columns, and nearly all
    of its ink in text rows (see TABLE_GAP_EM). Told from the drawn page, not its text layer: a
    garbled layer can leave a table's figures out altogether."""
    dpi = capped_dpi(page.rect.width, page.rect.height, LAYOUT_PROBE_DPI)
    ink = _grey(page.get_pixmap(dpi=dpi, colorspace=fitz.csGRAY, alpha=False)) < INK_GREY
    total = int(np.count_nonzero(ink))
    rows = np.concatenate(([0], ink.any(axis=1).astype(np.int8), [0]))
    edges = np.diff(rows)
    in_rows = 0
    for top, bottom in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)):
        height = bottom - top
        if height < 3 or height > dpi / 3:  # a rule, or taller than 24-pt print: no row of running text
            continue
        band = ink[top:bottom]
        in_rows += int(np.count_nonzero(band))
        cols = np.diff(np.concatenate(([0], band.any(axis=0).astype(np.int8), [0])))
        starts, ends = np.flatnonzero(cols == 1), np.flatnonzero(cols == -1)
        wide = np.flatnonzero(starts[1:] - ends[:-1] > TABLE_GAP_EM * height)
        if np.any(ends[wide] - starts[0] > BULLET_EM * height):
            return False
    return total > 0 and in_rows > 0 and total - in_rows <= OUTSIDE_INK * total


def page_dpi(page: fitz.Page, options: OcrOptions) -> tuple[int, bool]:
    """The dpi the page is read at, and whether the pixel limit (DOCQA_MAX_RENDER_PIXELS) lowered it."""
    size, sharp = text_size(page)
    if not sharp:
        px = options.text_px
    elif options.sharp_prose_text_px != options.sharp_text_px and plain_prose(page):
        px = options.sharp_prose_text_px
    else:
        px = options.sharp_text_px
    wanted = int(min(options.max_dpi, max(options.min_dpi, round(px * 72 / (size or DEFAULT_SIZE_PT)))))
    dpi = capped_dpi(page.rect.width, page.rect.height, wanted)
    return dpi, dpi < wanted


def ocr_page(page: fitz.Page, options: OcrOptions) -> tuple[list[RawWord], int, bool]:
    """The page's words in page points, the dpi it was read at, and whether that was capped."""
    dpi, capped = page_dpi(page, options)
    gray = _grey(page.get_pixmap(dpi=dpi, colorspace=fitz.csGRAY, alpha=False))
    found = engine_words(whiten(gray, options.light), dpi, options)
    # pixels -> points, and the page's own origin (a CropBox need not start at 0, 0)
    scale = 72 / dpi
    x, y = page.rect.x0, page.rect.y0
    words = [(x + x0 * scale, y + y0 * scale, x + x1 * scale, y + y1 * scale, text)
             for x0, y0, x1, y1, text in found]
    return words, dpi, capped


def _grey(pix: fitz.Pixmap) -> np.ndarray:
    return np.frombuffer(pix.samples, np.uint8).reshape(pix.h, pix.stride)[:, : pix.w]


def whiten(gray: np.ndarray, light: int) -> np.ndarray:
    """Light greys made white: shaded rows and a scanner's grey paper, relative to the page's own
    background (its 90th-percentile grey), so that a darker scan keeps its print."""
    background = float(np.percentile(gray[::8, ::8], 90)) if gray.size else 255.0
    cut = int(light * background / 255)
    return np.where(gray > cut, np.uint8(255), gray)


def engine_words(gray: np.ndarray, dpi: int, options: OcrOptions) -> list[RawWord]:
    """Words found in a grey image, in its pixels: the one call into an OCR engine."""
    if options.engine == "rapidocr":
        return _rapidocr_words(gray)
    return _tesseract_words(gray, dpi, options)


_local = threading.local()  # this thread's tesseract, model loaded: {(language, psm, oem): api or None}


def _tesseract_api(options: OcrOptions):
    """This thread's tesserocr API for these options, loaded on first use; None where tesserocr or
    the model's folder is missing (the command is run instead)."""
    apis = _local.__dict__.setdefault("apis", {})
    key = (options.language, options.psm, options.oem, options.tesseract_vars)
    if key not in apis:
        apis[key] = None
        try:
            from tesserocr import PyTessBaseAPI
        except ImportError as exc:
            log.info("tesseract runs as a command (tesserocr: %s)", exc)
            return None
        folder = tessdata(options.language)
        if folder is None:
            log.info("tesseract runs as a command (no %s model in TESSDATA_PREFIX or %s)",
                     options.language, ", ".join(TESSDATA_DIRS))
            return None
        try:
            apis[key] = PyTessBaseAPI(path=folder.rstrip("/") + "/", lang=options.language,
                                      psm=options.psm, oem=options.oem, variables=dict(options.tesseract_vars))
        except RuntimeError as exc:
            log.info("tesseract runs as a command (tesserocr could not load %s: %s)", options.language, exc)
    return apis[key]


def tesseract_runs(options: OcrOptions) -> str:
    """How tesseract reads pages here, in a line: the library and its model's folder, or the command."""
    if _tesseract_api(options) is not None:
        import tesserocr

        version = tesserocr.tesseract_version().split()[1]
        return f"tesserocr {tesserocr.__version__} (libtesseract {version}), model in {tessdata(options.language)}"
    return "the tesseract command, one per page"


def _tesseract_words(gray: np.ndarray, dpi: int, options: OcrOptions) -> list[RawWord]:
    api = _tesseract_api(options)
    if api is None:
        return _tesseract_command_words(gray, dpi, options)
    h, w = gray.shape
    pixels = np.ascontiguousarray(gray).tobytes()  # tesseract reads it in place: kept alive until done
    api.SetImageBytes(pixels, w, h, 1, w)
    api.SetSourceResolution(dpi)
    try:
        done = api.Recognize(timeout=max(1, int(options.timeout_s * 1000)))
        words = _api_words(api) if done else []
    finally:
        api.Clear()  # the page's results; the model stays loaded
    if not done:
        raise OcrError(f"tesseract took over {options.timeout_s:g} s (DOCQA_OCR_TIMEOUT_S)")
    return words


def _api_words(api) -> list[RawWord]:
    from tesserocr import RIL, iterate_level

    words: list[RawWord] = []
    found = api.GetIterator()
    for word in iterate_level(found, RIL.WORD) if found is not None else ():
        text, box = word.GetUTF8Text(RIL.WORD), word.BoundingBox(RIL.WORD)
        if text and text.strip() and box:
            words.append((*box, text))
    return words


def _tesseract_command_words(gray: np.ndarray, dpi: int, options: OcrOptions) -> list[RawWord]:
    h, w = gray.shape
    pnm = b"P5 %d %d 255\n" % (w, h) + np.ascontiguousarray(gray).tobytes()
    command = ["tesseract", "stdin", "stdout", "--oem", str(options.oem), "--psm", str(options.psm),
               "-l", options.language, "--dpi", str(dpi),
               *(arg for name, value in options.tesseract_vars for arg in ("-c", f"{name}={value}")), "tsv"]
    try:
        done = subprocess.run(command, input=pnm, capture_output=True, timeout=options.timeout_s,
                              env={**os.environ, "OMP_THREAD_LIMIT": "1"})  # one core per page: the pool has the rest
    except subprocess.TimeoutExpired as exc:
        raise OcrError(f"tesseract took over {options.timeout_s:g} s (DOCQA_OCR_TIMEOUT_S)") from exc
    except OSError as exc:
        raise OcrError(f"tesseract could not be run ({exc.strerror or exc})") from exc
    if done.returncode != 0:
        said = [line for line in done.stderr.decode(errors="replace").splitlines() if line.strip()]
        raise OcrError(f"tesseract failed ({(said[0] if said else f'exit {done.returncode}')[:200]})")
    return list(_tsv_words(done.stdout.decode("utf-8", errors="replace")))


def _tsv_words(tsv: str) -> Iterator[RawWord]:
    for row in tsv.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) < 12 or cells[0] != "5" or not cells[11].strip():
            continue
        left, top, width, height = (int(c) for c in cells[6:10])
        yield (left, top, left + width, top + height, cells[11])


_rapid = None


def _rapidocr_words(gray: np.ndarray) -> list[RawWord]:
    """RapidOCR reads lines; each line's box is shared among its words by their lengths."""
    global _rapid
    if _rapid is None:
        from rapidocr_onnxruntime import RapidOCR

        _rapid = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)  # one core per page
    found, _ = _rapid(np.stack([gray] * 3, axis=-1), use_cls=False)
    words: list[RawWord] = []
    for box, text, _score in found or ():
        xs, ys = [p[0] for p in box], [p[1] for p in box]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        parts = text.split()
        chars = sum(map(len, parts)) + len(parts) - 1
        at = x0
        for part in parts:
            width = (x1 - x0) * len(part) / max(1, chars)
            words.append((at, y0, at + width, y1, part))
            at += width + (x1 - x0) / max(1, chars)
    return words


# --- the pool ----------------------------------------------------------------------------------------

_worker_doc: tuple[str, fitz.Document] | None = None


def _start_worker() -> None:
    global _worker_doc
    # A document the parent had open here shares its file offset with the parent: never read it.
    _worker_doc = None
    # Forked from a build that paused the garbage collector: a worker's pages are its own to free.
    # What it inherited is frozen first: a collection that walked the parent's objects wrote to
    # every page of them, so each OCR process copied the parse's whole heap (100 MB and more).
    gc.freeze()
    gc.enable()
    _local.__dict__.pop("apis", None)  # a tesseract the parent loaded is the parent's
    for name in ("OMP_NUM_THREADS", "OMP_THREAD_LIMIT", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[name] = "1"


def ocr_task(path: str, index: int, options: OcrOptions) -> PageOcr:
    """A worker's task: page ``index`` of the PDF at ``path``. The document stays open for the next page."""
    global _worker_doc
    try:
        if _worker_doc is None or _worker_doc[0] != path:
            if _worker_doc is not None:
                _worker_doc[1].close()
            _worker_doc = (path, fitz.open(path, filetype="pdf"))
        words, dpi, capped = ocr_page(_worker_doc[1][index], options)
        return PageOcr(index=index, words=words, dpi=dpi, capped=capped)
    except Exception as exc:  # one page's failure is that page's, said in one line
        dpi, capped = _dpi_for_message(path, index, options)
        return PageOcr(index=index, dpi=dpi, capped=capped, error=" ".join(str(exc).split())[:200] or type(exc).__name__)


def _close_doc() -> None:
    global _worker_doc
    if _worker_doc is not None:
        _worker_doc[1].close()
        _worker_doc = None


def _dpi_for_message(path: str, index: int, options: OcrOptions) -> tuple[int, bool]:
    try:
        return page_dpi(_worker_doc[1][index], options) if _worker_doc else (0, False)
    except Exception:
        return 0, False


def _context():
    # Forked workers start in milliseconds with this module loaded. Called off the main thread (the
    # web server's indexer) the workers come from a clean fork server instead: a fork copies whatever
    # locks the other threads held. Those workers import the caller's main module as spawn does, so
    # a script that parses from a thread guards its work with ``if __name__ == "__main__"``.
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.current_thread() is threading.main_thread():
        return multiprocessing.get_context("fork")
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(["docqa.ingest.ocr"])
    return ctx


class OcrRun:
    """One PDF's OCR pages: submitted as the parse finds them, read back as they finish.

    The pool starts on the first page that needs OCR (a PDF with a text layer never starts one)
    with one process per core. Where no process can be started (a daemonic Dask worker, no
    semaphores) the pages are read here, one after another. A worker that dies (out of memory,
    killed) loses no page: the pages not yet back are read again on a fresh pool, once."""

    def __init__(self, path: str, options: OcrOptions, pages: int = 2):
        self.path, self.options = path, options
        self.pool: ProcessPoolExecutor | None = None
        self.size = options.pool_size
        self.inline = self.size <= 1 or pages <= 1  # one page: no pool to start
        self.pending: dict[Future, int] = {}
        self.queued: list[int] = []  # pages to read here (no pool)
        self.retried = False

    def __enter__(self) -> OcrRun:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def submit(self, index: int) -> None:
        if not self.inline:
            try:
                if self.pool is None:
                    self.pool = ProcessPoolExecutor(self.size, mp_context=_context(),
                                                    initializer=_start_worker)
                self.pending[self.pool.submit(ocr_task, self.path, index, self.options)] = index
                return
            except (AssertionError, OSError, RuntimeError, BrokenProcessPool) as exc:
                # "daemonic processes are not allowed to have children", no /dev/shm...
                log.info("OCR runs in this process (%s)", exc)
                self.close()
                self.inline = True
                self.queued.extend(self.pending.values())
                self.pending.clear()
        self.queued.append(index)

    def results(self) -> Iterator[PageOcr]:
        """Every submitted page's result, in the order they finish."""
        while self.pending:
            done, _ = wait(self.pending, return_when=FIRST_COMPLETED)
            lost: list[int] = []
            for future in done:
                index = self.pending.pop(future)
                try:
                    yield future.result()
                except BrokenProcessPool:
                    lost.append(index)
                except Exception as exc:  # a task that could not even be sent or unpickled
                    yield PageOcr(index=index, error=f"{type(exc).__name__}: {exc}"[:200])
            if lost:
                yield from self._again(lost)
        while self.queued:
            yield ocr_task(self.path, self.queued.pop(0), self.options)
        _close_doc()  # read here: the document is not kept open past its pages


    def _again(self, lost: list[int]) -> Iterator[PageOcr]:
        """A worker died: every page still out goes to a fresh pool, once; after that they fail."""
        lost = [*lost, *self.pending.values()]  # a broken pool fails all of its futures
        self.pending.clear()
        self.close()
        if self.retried:
            for index in lost:
                yield PageOcr(index=index, error="the OCR worker process died (out of memory?)")
            return
        self.retried = True
        log.warning("an OCR worker died; reading %d page(s) again on a fresh pool", len(lost))
        for index in lost:
            self.submit(index)
