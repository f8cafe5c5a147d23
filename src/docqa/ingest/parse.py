"""PDF -> Pages of visual rows, with word boxes kept for highlighting.

Filings print statements as whitespace-aligned tables. PyMuPDF's own line order splits a row
like ``Net sales  $ 222,730  $ 192,052`` into separate spans, so rows are rebuilt here from word
coordinates: words whose vertical centres agree form one row, cells far apart are joined by
two spaces so the table's columns stay visible in the text.
"""

from __future__ import annotations

import logging
import re
import shutil
from collections import Counter
from itertools import chain
from operator import itemgetter, sub
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from statistics import median

import fitz  # PyMuPDF
import numpy as np

from docqa.ingest import ocr as ocr_engines
from docqa.ingest.letterspacing import merge_rows
from docqa.ingest.ocr import OcrOptions, OcrRun, PageOcr
from docqa.types import Line, Page, Word

log = logging.getLogger(__name__)

fitz.TOOLS.mupdf_display_errors(False)  # malformed PDFs are reported by us, not printed by MuPDF

_LEADER = re.compile(r"^[.\u2026·_\-]{3,}$")
_TRAILING_LEADER = re.compile(r"[.\u2026·_]{3,}$")
_LEADER_CHARS = frozenset(".\u2026·_-")  # a word that starts (or ends) with none of these is no leader
_NUMERIC_CELL = re.compile(r"^\(?-?\$?\(?[\d,]*\d(\.\d+)?\)?%?\)?$")
_DASH_CELL = re.compile(r"^[\u2014\u2013\-]+$")
_CELL = re.compile(r"(?:\(?-?\$?\(?[\d,]*\d(?:\.\d+)?\)?%?\)?|[\u2014\u2013\-]+)$")  # either of the two
_CELL_START = frozenset("(-$,\u2014\u2013")  # or a digit: how every numeric or dash cell begins
_DIGITS = re.compile(r"\d+")
# Zero-width joiners, spaces and marks some generators glue to figures ("(8,002,612)\u200c"): they
# print nothing, and a figure with one attached reads as no number. Bidirectional marks and embeddings
# likewise ("\u200eassets" under "Long-lived" in a column heading): a word with one reads as no word.
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                                     "\u2066\u2067\u2068\u2069\u061c"))

# A text layer whose font encoding is broken prints words of random glyphs ("=F97HCFG 5B8 C:"):
# such a page is read like a scan (OCR) or, without OCR, flagged and left unindexed.
_WORDLIKE = re.compile(
    r"[A-Za-zÀ-ÖØ-öø-ÿ]+(?:['’\-/.&][A-Za-zÀ-ÖØ-öø-ÿ]+)*['’]?"       # a word, "Group's", "year-end", "U.S"
    r"|[$€£¥]?\(?[\d.,]*\d[\d.,]*\)?%?"                          # a figure
    r"|[A-Z]{1,4}-?\d{1,4}|\d{1,4}-?[A-Za-z]{1,3}"                # codes: FY2022, Q3, 3M, 10-K, 1st
)
_VOWELS = "aeiouyàâäéèêëíîïóôöúùûüAEIOUY"
_VOWEL = re.compile(f"[{_VOWELS}]")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ufffd]")
_ALNUM = re.compile(r"[^\W_]")  # str.isalnum, one character
_PLAIN_TOKEN = re.compile(r"^(?:([b-df-hj-np-tv-xzB-DF-HJ-NP-TV-XZ]{4,})|[A-Za-z]+|[0-9]+)$", re.M)
_ASCII_LETTERS = re.compile(r"[A-Za-z]+")
_NOT_ASCII = re.compile(r"[^\x00-\x7f]")
_STRIP = "\"'“”‘’()[]{},.;:!?*•–—-"
GARBLED_MIN_TOKENS = 12       # too little text to judge below this
GARBLED_WORDLIKE_SHARE = 0.5  # in real text of any Latin-script language most tokens are words
GARBLED_CONTROL_SHARE = 0.02  # control characters never belong in printed text

HEADER_FOOTER_BAND = 0.09  # fraction of page height at top and bottom scanned for running lines
REPEAT_SHARE = 0.3         # a line on at least this share of pages is a running header/footer


class ParseError(Exception):
    """The file cannot be read as a PDF; the message says why and what to do."""


@dataclass
class ParsedPdf:
    pages: list[Page]
    warnings: list[str] = field(default_factory=list)
    ocr_failures: dict[int, str] = field(default_factory=dict)  # page -> why the OCR engine failed on it
    ocr_engine: str = "tesseract"

    @property
    def ocr_pages(self) -> int:
        return sum(p.ocr for p in self.pages)

    @property
    def no_text_pages(self) -> int:
        return sum(p.no_text for p in self.pages)


def open_pdf(path: str | Path) -> fitz.Document:
    """Open a PDF or raise ParseError with a reason a person can act on."""
    path = Path(path)
    try:
        head = path.read_bytes()[:1024]
    except OSError as exc:
        raise ParseError(f"cannot read file: {exc.strerror or exc}") from exc
    if not head:
        raise ParseError("empty file (0 bytes)")
    if b"%PDF" not in head:
        raise ParseError("not a PDF (the file does not start with a PDF header); export it to PDF first")
    try:
        doc = fitz.open(path, filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for broken files
        raise ParseError(f"corrupt PDF, cannot be opened ({exc}); re-download or re-export it") from exc
    if doc.needs_pass:
        doc.close()
        raise ParseError("password-protected PDF; remove the password and add it again")
    if doc.page_count == 0:
        doc.close()
        raise ParseError("PDF has no pages")
    return doc


def tesseract_available() -> bool:
    return shutil.which("tesseract") is not None


def ocr_available(engine: str = "tesseract") -> bool:
    return tesseract_available() if engine == "tesseract" else ocr_engines.available(engine)


def parse_pdf(path: str | Path, ocr: bool = True, progress: Callable[..., None] | None = None,
              ocr_options: OcrOptions | None = None, table_words: int = 0) -> ParsedPdf:
    """``progress(pages_done, pages_total)`` is called every few pages, and
    ``progress(pages_done, pages_total, "OCR page 40 of 171")`` as each OCR page comes back.

    Pages that need OCR (scans, garbled text layers) go to the OCR pool as they are found
    (ocr.OcrRun); the other pages are parsed here meanwhile.

    ``table_words``: keep the lines' words (and their boxes) only on pages with at least this many
    table rows, before running headers are dropped; 0 keeps them on every page. Ingest reads words
    only to read tables, and making them was a third of building a page's lines."""
    options = ocr_options or OcrOptions.from_settings()
    can_ocr = ocr and ocr_available(options.engine)
    doc = open_pdf(path)
    total = doc.page_count
    pages: dict[int, Page] = {}
    warnings: list[str] = []
    garbled: list[int] = []
    failures: dict[int, str] = {}
    out: dict[int, fitz.Rect] = {}  # pages sent to OCR, by index
    try:
        with OcrRun(str(path), options, total) as run:
            for index in range(total):
                if progress and index % 10 == 0:
                    progress(len(pages), total)
                try:
                    page = doc[index]
                    raw, noise, scanned = _read_layer(page)
                    if noise:
                        garbled.append(index + 1)
                    if scanned and can_ocr:
                        out[index] = page.rect
                        run.submit(index)
                        continue
                    pages[index] = _page(page.rect, index + 1, [] if noise else raw, scanned=scanned,
                                         table_words=table_words)
                except Exception as exc:  # one broken page must not lose the document
                    warnings.append(f"page {index + 1}: unreadable ({exc})")
                    pages[index] = Page(number=index + 1, width=0, height=0, lines=(), no_text=True)
            for k, result in enumerate(run.results(), 1):
                pages[result.index] = _ocr_page(result, out[result.index], failures, table_words)
                if progress:
                    progress(len(pages), total, f"OCR page {k} of {len(out)}")
    finally:
        doc.close()
    parsed = drop_running_lines([pages[i] for i in range(total)])
    warnings += _flag_warnings(parsed, garbled, failures, ocr, options.engine)
    return ParsedPdf(pages=parsed, warnings=warnings, ocr_failures=failures, ocr_engine=options.engine)


def _flag_warnings(pages: list[Page], garbled: list[int], failures: dict[int, str], ocr: bool,
                   engine: str) -> list[str]:
    """What became of the pages OCR was for: read, flagged (and how to read them), failed."""
    warnings = []
    hint = ocr_engines.install_hint(engine)
    if garbled:
        warnings.append(
            f"{len(garbled)} page(s) with a garbled text layer (broken font encoding), "
            + ("read by OCR" if ocr and ocr_available(engine)
               else "not indexed; OCR is off (DOCQA_OCR=false): turn it on and ingest the file again to read them"
               if not ocr else f"not indexed; {hint} and ingest the file again to read them")
            + f": {_ranges(garbled)}")
    if failures:  # the engine is installed and ran: say what went wrong, not "install tesseract-ocr"
        first = next(iter(failures.values()))
        warnings.append(f"OCR failed on {len(failures)} page(s) ({first}): {_ranges(sorted(failures))}")
    flagged = [p.number for p in pages if p.no_text and p.number not in garbled and p.number not in failures]
    if flagged:
        how = ("OCR found no text" if ocr_available(engine) and ocr
               else "OCR is off (DOCQA_OCR=false): turn it on and ingest the file again" if not ocr
               else f"{hint} and ingest the file again to read them")
        warnings.append(f"{len(flagged)} page(s) without a text layer ({how}): {_ranges(flagged)}")
    return warnings


def why_no_text(parsed, ocr: bool) -> str:
    """Why scanned pages gave no text: OCR off, the engine missing, the engine failing, or nothing to read."""
    engine = getattr(parsed, "ocr_engine", "tesseract")  # a ParsedPdf (an HTML filing has no OCR)
    if not ocr:
        return "OCR is off (DOCQA_OCR=false): turn it on, or add a PDF with a text layer"
    if not ocr_available(engine):
        return f"{ocr_engines.install_hint(engine)}, or add a PDF with a text layer"
    if failures := getattr(parsed, "ocr_failures", None):
        page, reason = next(iter(failures.items()))
        return f"OCR failed on page {page}: {reason}"
    return "OCR ran and read no words in them; add a PDF with a text layer"


def is_garbled(words: list[str]) -> bool:
    """True when a text layer is noise: a broken font encoding prints words of random glyphs.

    Language-independent shape tests, no word list: control characters in the text, or too few
    tokens that look like words (letters with a vowel, acronyms, figures), or letters without the
    vowel share every alphabetic language has.
    """
    tokens = [t for t in map(str.strip, words) if t]
    if not tokens:
        return False
    # Every count below runs in the regex engine (it is run on every page): same verdicts as
    # character-by-character Python loops, a fraction of their cost.
    text = "".join(tokens)
    if len(_CONTROL.findall(text)) > max(2, GARBLED_CONTROL_SHARE * len(text)):
        return True
    if len(tokens) < GARBLED_MIN_TOKENS:
        return False
    # leaders, "$", "—" say nothing. Most tokens are all letters or digits (str.isalnum, one C call):
    # they contain an alphanumeric and have nothing of _STRIP to strip; only the rest pay the regex.
    plain = [t for t in tokens if t.isalnum()]
    stripped = [t.strip(_STRIP) for t in tokens if not t.isalnum() and _ALNUM.search(t)]
    if len(plain) + len(stripped) < GARBLED_MIN_TOKENS:
        return False
    enough = GARBLED_WORDLIKE_SHARE * (len(plain) + len(stripped))
    # Which tokens look like words is counted by kind (the verdict is the count's, not the order's),
    # over the tokens one a line in the regex engine: a run of ASCII letters is a word unless it has
    # 4 or more letters and no vowel (those fill the group), and ASCII digits are a figure. Only when
    # those are too few to decide are the other tokens tested one by one, as each token was before.
    wordlike = _PLAIN_TOKEN.findall("\n".join(plain)).count("")
    if wordlike < enough:
        rest = [t for t in plain if not t.isascii() or not (t.isalpha() or t.isdigit())]
        for t in chain(rest, stripped):
            if _WORDLIKE.fullmatch(t) and (len(t) < 4 or not t.isalpha() or _VOWEL.search(t)):
                wordlike += 1
                if wordlike >= enough:  # decided: the rest cannot make it garbled
                    break
    if wordlike < enough:
        return True
    # ASCII letters are counted by deleting their runs (one C pass); other characters one by one
    letters = len(text) - len(_ASCII_LETTERS.sub("", text))
    if not text.isascii():
        letters += sum(map(str.isalpha, _NOT_ASCII.findall(text)))
    if letters >= 200:
        vowels = sum(map(text.count, _VOWELS))  # every vowel is a letter; str.count is a C scan
        return not 0.2 <= vowels / letters <= 0.6  # Latin-script prose sits near 0.35-0.45
    return False


def parse_page(page: fitz.Page, number: int, ocr: bool = True) -> Page:
    """One page on its own; OCR, when needed, runs here (no pool)."""
    raw, garbled, scanned = _read_layer(page)
    options = OcrOptions.from_settings()
    if scanned and ocr and ocr_available(options.engine):
        try:
            words, _, _ = ocr_engines.ocr_page(page, options)
            return _page(page.rect, number, words, scanned=True, ocr=True)
        except Exception as exc:  # the engine's data missing or OCR crashed: flag the page instead
            log.warning("OCR failed on page %d: %s", number, exc)
    return _page(page.rect, number, [] if garbled else raw, scanned=scanned)


def _read_layer(page: fitz.Page) -> tuple[list[tuple], bool, bool]:
    """The page's own words, whether they are garbled, and whether the page needs OCR.

    A page with no words but with images is a scan; with neither it is simply blank. A page
    whose words are random glyphs (broken font encoding) is read like a scan."""
    raw = page.get_text("words", sort=False)
    garbled = is_garbled([w[4] for w in raw])
    scanned = garbled or (not any(w[4].strip() for w in raw) and _has_images(page))
    return raw, garbled, scanned


def _page(rect: fitz.Rect, number: int, raw: list[tuple], scanned: bool, ocr: bool = False,
          table_words: int = 0) -> Page:
    """A Page of visual rows from words (x0, y0, x1, y1, text, ...) in page points; the lines' words
    only when the page has ``table_words`` table rows or more (0: always)."""
    words = _clean_words(raw)
    lines = tuple(_rows_to_lines(merge_rows(_columns(_rows(words), rect.width)), table_words))
    return Page(number=number, width=rect.width, height=rect.height, lines=lines, ocr=ocr,
                no_text=scanned and not lines)


def _ocr_page(result: PageOcr, rect: fitz.Rect, failures: dict[int, str], table_words: int = 0) -> Page:
    """A page from its OCR: its words, or flagged (no text) with the engine's reason kept."""
    number = result.index + 1
    if result.error is None:
        return _page(rect, number, result.words, scanned=True, ocr=True, table_words=table_words)
    log.warning("OCR failed on page %d: %s", number, result.error)
    failures[number] = _ocr_failure(result.error, rect, result.dpi, result.capped)
    return _page(rect, number, [], scanned=True)


def _ocr_failure(text: str, rect: fitz.Rect, dpi: int, capped: bool) -> str:
    """The engine's failure in a line, with the page's size when the pixel cap lowered the dpi."""
    if capped:
        text += (f" (the {rect.width / 72:,.0f} x {rect.height / 72:,.0f} inch page was read at {dpi} dpi "
                 "to stay within DOCQA_MAX_RENDER_PIXELS)")
    return text


def _has_images(page: fitz.Page) -> bool:
    try:
        return bool(page.get_images(full=False))
    except Exception:
        return True


# Inside this module a word is PyMuPDF's own tuple (x0, y0, x1, y1, text): grouping rows and
# finding gutters over tuples is several times cheaper than over models. Words become typed
# ``Word`` objects once, when their ``Line`` is made.
_RawWord = tuple[float, float, float, float, str]


def _clean_words(raw: list[tuple]) -> list[_RawWord]:
    words = []
    append = words.append
    for w in raw:  # indexing, not ``x0, y0, x1, y1, text, *_ = w``: the starred rest is a list per word
        text = w[4].strip()
        if not text.isascii():
            text = text.translate(_ZERO_WIDTH).strip()
        if not text or (text[0] in _LEADER_CHARS and _LEADER.match(text)):
            continue
        if text[-1] in _LEADER_CHARS:
            text = _TRAILING_LEADER.sub("", text) or text
        append((w[0], w[1], w[2], w[3], text))
    return words


def _rows(words: list[_RawWord]) -> list[list[_RawWord]]:
    """Group words into visual rows by vertical centre."""
    if not words:
        return []
    tolerance = max(1.5, 0.45 * median([w[3] - w[1] for w in words]))
    # Ordered by (centre, x0), ties in input order: the decorated tuples compare in C, where a key
    # function would be a Python call per word. The index ``i`` only breaks exact ties, as a stable
    # sort on (centre, x0) does.
    ordered = sorted([((w[1] + w[3]) / 2, w[0], i) for i, w in enumerate(words)])
    rows: list[list[_RawWord]] = []
    row: list[_RawWord] = []
    centre = 0.0
    for c, _, i in ordered:
        if row and abs(c - centre) <= tolerance:
            row.append(words[i])
            n = len(row)
            centre = (centre * (n - 1) + c) / n
        else:
            row = [words[i]]
            rows.append(row)
            centre = c
    return [sorted(r, key=_x0) for r in rows]


_x0 = itemgetter(0)  # a word's left edge
_x1 = itemgetter(2)  # and its right edge


def is_numeric_cell(text: str) -> bool:
    return bool(_NUMERIC_CELL.match(text)) or bool(_DASH_CELL.match(text))


def _columns(rows: list[list[_RawWord]], width: float) -> list[list[_RawWord]]:
    """Split a two-column prose page at its gutter; leave tables whole.

    A gutter is a vertical band in the middle of the page that no word crosses, with prose
    (not figures) on both sides of it in most rows. Rows are then read left column first.
    """
    if len(rows) < 8 or width <= 0:
        return rows
    lo, hi = width * 0.3, width * 0.7
    xs = np.arange(int(lo), int(hi), 4)
    if not len(xs):
        return rows
    # every candidate x against every word at once: crossed where x0 < x < x1 (the edges read into
    # arrays in C: a list of pairs was most of the cost)
    words = list(chain.from_iterable(rows))
    x0 = np.fromiter(map(_x0, words), np.float64, len(words))
    x1 = np.fromiter(map(_x1, words), np.float64, len(words))
    crossed = ((x0[:, None] < xs) & (xs < x1[:, None])).any(axis=0)
    candidates = xs[~crossed]
    if not len(candidates):
        return rows
    gutter = int(candidates[len(candidates) // 2])
    both_sides_prose = 0
    for r in rows:
        left = [w for w in r if w[2] <= gutter]
        right = [w for w in r if w[0] >= gutter]
        if left and right and _is_prose(left) and _is_prose(right):
            both_sides_prose += 1
    if both_sides_prose < max(4, len(rows) * 0.4):
        return rows
    left_rows = [[w for w in r if w[2] <= gutter] for r in rows]
    right_rows = [[w for w in r if w[0] >= gutter] for r in rows]
    return [r for r in left_rows if r] + [r for r in right_rows if r]


def _is_prose(words: list[_RawWord]) -> bool:
    alpha = sum(1 for w in words if any(ch.isalpha() for ch in w[4]))
    return alpha >= max(1, len(words) * 0.6)


def _rows_to_lines(rows: list[list[_RawWord]], table_words: int = 0) -> list[Line]:
    built = []  # (text, bbox, is_table) of each row: whether the page keeps its words depends on them all
    for row in rows:
        x0s, y0s, x1s, y1s, texts = zip(*row)
        chars = sum(map(len, texts))
        # the same sums and differences, in the same order, as word by word: the same gaps come out wide
        char_width = sum(map(sub, x1s, x0s)) / chars if chars else 5.0
        wide = 2.5 * char_width
        gaps = [gap > wide for gap in map(sub, x0s[1:], x1s)]
        if any(gaps):  # cells far apart are joined by two spaces, so the table's columns stay visible
            parts = [texts[0]]
            for far, text in zip(gaps, texts[1:]):
                parts.append("  " if far else " ")
                parts.append(text)
            text = "".join(parts)
        else:
            text = " ".join(texts)
        numeric = sum(1 for t in texts
                      if (t[0] in _CELL_START or t[0].isdecimal()) and t not in ("-", "$") and _CELL.match(t))
        built.append((text, (min(x0s), min(y0s), max(x1s), max(y1s)), numeric >= 2))
    if table_words and sum(is_table for *_, is_table in built) < table_words:
        return [_line(text, bbox, (), is_table) for text, bbox, is_table in built]
    return [_line(text, bbox, tuple([_word(w[4], w[:4]) for w in row]), is_table)
            for (text, bbox, is_table), row in zip(built, rows)]


# A page holds hundreds of words, and validating each one was the parse's largest single cost.
# Every value here is already of its declared type (PyMuPDF's floats and str, our bool), so the
# models are assembled as pydantic's validator would leave them: equal, hashable, picklable and
# copyable like any other instance.
_new = object.__new__
_set = object.__setattr__
# One set of set fields for all words and one for all lines: every field is set, and pydantic copies
# the set before it changes one (model_copy), so no instance changes another's.
_WORD_FIELDS = {"text", "bbox"}
_LINE_FIELDS = {"text", "bbox", "words", "is_table"}


def _word(text: str, bbox: tuple[float, float, float, float]) -> Word:
    word = _new(Word)
    _set(word, "__dict__", {"text": text, "bbox": bbox})
    _set(word, "__pydantic_fields_set__", _WORD_FIELDS)
    _set(word, "__pydantic_extra__", None)
    _set(word, "__pydantic_private__", None)
    return word


def _line(text: str, bbox: tuple[float, float, float, float], words: tuple[Word, ...], is_table: bool) -> Line:
    line = _new(Line)
    _set(line, "__dict__", {"text": text, "bbox": bbox, "words": words, "is_table": is_table})
    _set(line, "__pydantic_fields_set__", _LINE_FIELDS)
    _set(line, "__pydantic_extra__", None)
    _set(line, "__pydantic_private__", None)
    return line


def _signature(text: str) -> str:
    return _DIGITS.sub("#", text.strip().lower())


def drop_running_lines(pages: list[Page]) -> list[Page]:
    """Remove running headers and footers: short lines in the top/bottom bands that repeat.

    Page numbers alone ("12", "Page 12 of 80", "F-3") are dropped too.
    """
    if len(pages) < 3:
        return pages
    counts: Counter[str] = Counter()
    for page in pages:
        seen = {_signature(line.text) for line in page.lines if _in_band(line, page)}
        counts.update(seen)
    threshold = max(2, int(len(pages) * REPEAT_SHARE))
    running = {sig for sig, n in counts.items() if n >= threshold}
    cleaned = []
    for page in pages:
        last = len(page.lines) - 1
        kept = tuple(
            line
            for i, line in enumerate(page.lines)
            if not (
                (_in_band(line, page) and (_signature(line.text) in running or _is_page_number(line.text)))
                # a bare page number ends (or starts) the page even where the text block is short
                or (i in (0, last) and _is_page_number(line.text))
            )
        )
        cleaned.append(page if len(kept) == len(page.lines) else page.model_copy(update={"lines": kept}))
    return cleaned


def _in_band(line: Line, page: Page) -> bool:
    if page.height <= 0:
        return False
    band = page.height * HEADER_FOOTER_BAND
    return line.bbox[3] <= band or line.bbox[1] >= page.height - band


_PAGE_NUMBER = re.compile(r"^(page\s*)?([a-z]-?)?\d{1,4}(\s*(of|/)\s*\d{1,4})?$", re.I)


def _is_page_number(text: str) -> bool:
    return bool(_PAGE_NUMBER.match(text.strip()))


def _ranges(numbers: list[int]) -> str:
    out, start, prev = [], None, None
    for n in numbers:
        if start is None:
            start = prev = n
        elif n == prev + 1:
            prev = n
        else:
            out.append(f"{start}-{prev}" if start != prev else str(start))
            start = prev = n
    if start is not None:
        out.append(f"{start}-{prev}" if start != prev else str(start))
    return ", ".join(out)
