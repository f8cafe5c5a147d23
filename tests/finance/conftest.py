"""Fixtures for the finance tests: parsed pages of real filings (parsed once per session) and a
builder for small synthetic pages that pin one layout rule each."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from docqa.ingest.parse import parse_pdf
from docqa.types import Line, Page, Word
from tests.filings import filing

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


@lru_cache(maxsize=16)
def _pages(path: str) -> tuple[Page, ...]:
    return tuple(parse_pdf(path).pages)


def sample_page(name: str, number: int) -> Page:
    """A 1-based page of a PDF bundled in samples/."""
    return _pages(str(SAMPLES / name))[number - 1]


def filing_page(name: str, number: int) -> Page:
    """A 1-based page of a corpus filing, parsed within its cut (tests/fixtures/filings) and numbered as
    in the filing: the cut holds the pages its running headers are told apart by."""
    cut = filing(name)
    return _pages(str(cut.path))[cut.index(number)].model_copy(update={"number": number})


def practice_page(file: str, number: int) -> Page:
    """A 1-based page of a practice-set filing (filings nobody tuned on), as ``filing_page``."""
    return filing_page(f"practice/pdfs/{file}", number)


def line(y: float, *cells: tuple[str, float], size: float = 8.0) -> Line:
    """One visual row: each cell is (text, x0); words of a cell are single-spaced at 4.4 pt a char."""
    words: list[Word] = []
    for text, x in cells:
        for token in text.split(" "):
            width = 4.4 * len(token)
            words.append(Word(text=token, bbox=(x, y, x + width, y + size)))
            x += width + 2.0
    words.sort(key=lambda w: w.bbox[0])
    parts = [words[0].text]
    for prev, w in zip(words, words[1:]):
        parts.append("  " if w.bbox[0] - prev.bbox[2] > 11 else " ")
        parts.append(w.text)
    bbox = (words[0].bbox[0], y, max(w.bbox[2] for w in words), y + size)
    return Line(text="".join(parts), bbox=bbox, words=tuple(words))


def num(text: str, right: float) -> tuple[str, float]:
    """A figure right-aligned at ``right`` (filings right-align figures)."""
    return text, right - 4.4 * len(text) - (2.0 * text.count(" "))


def page(*lines: Line, number: int = 1) -> Page:
    return Page(number=number, width=612, height=792, lines=tuple(lines))
