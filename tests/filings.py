"""The real filings the tests read, from the cuts committed in tests/fixtures/filings (no ../shared needed).

A PDF's cut holds some of the filing's pages, in order; tests name pages by their number in the filing
("page 60 of 3M_2018_10K.pdf") and ``Cut.index`` finds them in the cut (tests/fixtures/filings/manifest.json
says which pages each cut holds). HTML filings are whole, xz-compressed; ``filing_html`` unpacks them
once per test run. Rebuild the cuts with ``python tests/fixtures/cut_filings.py``.
"""

from __future__ import annotations

import atexit
import json
import lzma
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import fitz

FILINGS = Path(__file__).resolve().parent / "fixtures" / "filings"
MANIFEST = FILINGS / "manifest.json"
# the first row of the FinanceBench questions: the keys a dev question has
FINANCEBENCH = FILINGS / "questions" / "financebench.jsonl"
REBUILD = "add it to PDF_PAGES in tests/fixtures/cut_filings.py and run that script"


@dataclass(frozen=True)
class Cut:
    """A PDF of some pages of a filing."""

    source: str                 # the filing, under shared/data
    path: Path                  # the cut
    pages: tuple[int, ...]      # the filing's 1-based pages the cut holds, in order

    @property
    def name(self) -> str:
        return self.path.name

    def index(self, page: int) -> int:
        """The 0-based place in the cut of the filing's page ``page``."""
        if page not in self.pages:
            raise LookupError(f"page {page} of {self.name} is not in its cut (pages {list(self.pages)}): {REBUILD}")
        return self.pages.index(page)


@lru_cache(maxsize=1)
def _manifest() -> dict[str, dict]:
    return json.loads(MANIFEST.read_text())["files"]


def filing(name: str) -> Cut:
    """The cut of a filing, by its file name ("3M_2018_10K.pdf") or its path under shared/data."""
    matches = [rel for rel, entry in _manifest().items() if "pages" in entry and (rel == name or Path(rel).name == name)]
    if len(matches) != 1:
        raise LookupError(f"{name}: {'no cut of it' if not matches else 'more than one cut'} in {MANIFEST}; {REBUILD}")
    rel = matches[0]
    return Cut(source=rel, path=FILINGS / rel, pages=tuple(_manifest()[rel]["pages"]))


def filing_pdf(name: str) -> Path:
    return filing(name).path


def cut_filing(name: str, pages: Iterable[int], target: Path) -> Path:
    """A PDF of some of the filing's pages (numbered as in the filing), as the tests cut them: an index of
    a few statement pages builds in seconds."""
    cut = filing(name)
    with fitz.open(cut.path) as src, fitz.open() as out:
        for page in pages:
            out.insert_pdf(src, from_page=cut.index(page), to_page=cut.index(page))
        out.save(target)
    return target


@contextmanager
def filing_pages(name: str) -> Iterator[Callable[[int], fitz.Page]]:
    """The filing's pages, by their number in the filing, read from its cut."""
    cut = filing(name)
    with fitz.open(cut.path) as doc:
        yield lambda page: doc[cut.index(page)]


@lru_cache(maxsize=1)
def html_folder() -> Path:
    """Every HTML filing, unpacked into a folder laid out as shared/data/html (removed at exit)."""
    folder = Path(tempfile.mkdtemp(prefix="docqa-filings-"))
    atexit.register(shutil.rmtree, folder, True)
    for rel, entry in _manifest().items():
        if entry.get("compressed") == "xz":
            target = folder / Path(rel).relative_to("html")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(lzma.decompress((FILINGS / (rel + ".xz")).read_bytes()))
    return folder


def filing_html(name: str) -> Path:
    """An HTML filing as EDGAR serves it, by its path under shared/data/html."""
    path = html_folder() / name
    if not path.is_file():
        raise LookupError(f"{name}: no such HTML filing in {MANIFEST}; add it to HTML_FILES in "
                          "tests/fixtures/cut_filings.py and run that script")
    return path
