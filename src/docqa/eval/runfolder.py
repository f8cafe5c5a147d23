"""A run folder: one JSON line per question plus a summary, named by kind and time."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path


def write_run(runs_dir: Path, kind: str, rows_file: str, rows: list[dict], summary: dict, suffix: str = "") -> Path:
    run = runs_dir / f"{kind}-{datetime.now().strftime('%Y%m%d-%H%M%S')}{'-' + suffix if suffix else ''}"
    run.mkdir(parents=True, exist_ok=True)
    with (run / rows_file).open("w") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
    (run / "summary.json").write_text(json.dumps(summary, indent=2))
    return run
