"""The tantivy index's word cache (``store.tantivy_lexical._Fts5Words``): how fast index text is
turned into FTS5's terms, on the ingest path (every chunk body) and the search path (every question).

    .venv/bin/python benchmarks/word_cache.py [--pdfs ../shared/data/pdfs] [--files 6] [--repeat 5]

Prints, best of --repeat, over the pages of the first --files PDFs (their ``index_text``):
- cold: a new cache (every word asked of FTS5 once), warm: the same pages again (every word cached);
- crossing: the same pages fed after the cache was filled to just under STEM_CACHE with other
  words, so it is emptied (but for the words the page needs) while they are read.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import fitz

from docqa.store import tantivy_lexical
from docqa.store.tantivy_lexical import _Fts5Words
from docqa.text import index_text


def bodies(folder: Path, files: int) -> list[str]:
    out = []
    for pdf in sorted(folder.glob("*.pdf"))[:files]:
        with fitz.open(pdf) as doc:
            out += [index_text(page.get_text()) for page in doc]
    return out


def timed(cache: _Fts5Words, texts: list[str]) -> float:
    started = time.perf_counter()
    for text in texts:
        cache.text(text)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pdfs", type=Path, default=Path(__file__).resolve().parents[2] / "shared/data/pdfs")
    parser.add_argument("--files", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    texts = bodies(args.pdfs, args.files)
    words = sum(len(t.split()) for t in texts)
    filler = " ".join(f"filler{i}x" for i in range(tantivy_lexical.STEM_CACHE - 1000))
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        cache = _Fts5Words()
        best["cold"] = min(best.get("cold", float("inf")), timed(cache, texts))
        best["warm"] = min(best.get("warm", float("inf")), timed(cache, texts))
        cache = _Fts5Words()
        cache.text(filler)  # just under the limit: the pages' words overflow it
        best["crossing"] = min(best.get("crossing", float("inf")), timed(cache, texts))
    print(f"{len(texts)} pages, {words:,} words (STEM_CACHE {tantivy_lexical.STEM_CACHE:,}); best of {args.repeat}")
    for name, seconds in best.items():
        print(f"  {name:9} {seconds * 1000:8.1f} ms  {words / seconds / 1e6:5.2f} M words/s")


if __name__ == "__main__":
    main()
