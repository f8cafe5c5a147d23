"""What the document viewer costs on a long filing: the page list, a page drawn at fit width and at
300 % on a 2x screen, and its printed page number (wall and CPU time, with the load average).

    .venv/bin/python benchmarks/viewer_pages.py /work/shared/data/pdfs/PEPSICO_2021_10K.pdf
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

from docqa.evidence import render_evidence
from docqa.viewer import page_label, page_sizes


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, (time.perf_counter() - w) * 1000, (time.process_time() - c) * 1000


def main(path: Path) -> None:
    print(f"{path.name}; load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    sizes, wall, cpu = timed(lambda: page_sizes(path))
    print(f"page list ({len(sizes)} pages): {wall:.0f} ms wall, {cpu:.0f} ms CPU")
    sample = [1 + i * (len(sizes) - 1) // 9 for i in range(10)]
    # fit width in the viewer's column (~560 CSS px for a 612 pt page) on a 1x screen; 300 % on a 2x screen
    for label, scale in (("fit width, 1x (scale 1.0)", 1.0), ("150 %, 1x (scale 2.0)", 2.0), ("300 %, 2x (scale 8.0)", 8.0)):
        walls, cpus, sizes_kb = [], [], []
        for n in sample:
            image, wall, cpu = timed(lambda: render_evidence(path, n, [], zoom=scale, max_pixels=25_000_000,
                                                             time_budget_s=10))
            walls.append(wall)
            cpus.append(cpu)
            sizes_kb.append(len(image.png) / 1024)
        print(f"page image {label}: median {statistics.median(walls):.0f} ms wall / {statistics.median(cpus):.0f} ms "
              f"CPU, max {max(walls):.0f} ms wall; median {statistics.median(sizes_kb):.0f} kB")
    walls, cpus = [], []
    for n in sample:
        _, wall, cpu = timed(lambda: page_label(path, n))
        walls.append(wall)
        cpus.append(cpu)
    print(f"printed page number: median {statistics.median(walls):.0f} ms wall / {statistics.median(cpus):.0f} ms CPU")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data/pdfs/PEPSICO_2021_10K.pdf"))
