"""A tiny PDF with one 14400 x 14400 pt page: file size, the evidence image's size, time and peak
memory of rendering it (the render pixel cap, DOCQA_MAX_RENDER_PIXELS, bounds both).

    .venv/bin/python benchmarks/giant_page.py
"""

from __future__ import annotations

import os
import resource
import tempfile
import time

import fitz

from docqa import Engine


def main() -> int:
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "giant.pdf")
    doc = fitz.open()
    page = doc.new_page(width=14400, height=14400)
    page.insert_text((72, 100), "ACME Corporation annual report 2023: revenue was $1,234 million.", fontsize=11)
    doc.save(path, garbage=4, deflate=True)
    engine = Engine.open(os.path.join(folder, "index"), dense=False)
    print(f"file {os.path.getsize(path)} bytes; ingest: {engine.ingest([path]).files[0].status}")
    started = time.perf_counter()
    image = engine.evidence_image("giant.pdf", 1, ["revenue was"])
    pixmap = fitz.Pixmap(image.png)
    print(f"evidence image {pixmap.width}x{pixmap.height} px in {time.perf_counter() - started:.2f} s; "
          f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
