"""Accuracy per question file of one `docqa eval answers` run over several files.

    .venv/bin/python benchmarks/eval_by_set.py RUN_FOLDER QUESTIONS.jsonl [QUESTIONS.jsonl ...]

`docqa eval answers` scores all its --questions files together; this splits a run's answers.jsonl
back by the file each question came from: numeric, yes/no and unanswerable counts and strict accuracy.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", type=Path, help="a run folder of `docqa eval answers` (holds answers.jsonl)")
    ap.add_argument("questions", type=Path, nargs="+", help="the --questions files of that run")
    args = ap.parse_args()
    (answers,) = args.run.rglob("answers.jsonl")
    rows = [json.loads(line) for line in answers.read_text().splitlines() if line.strip()]
    for file in args.questions:
        ids = {json.loads(line)["id"] for line in file.read_text().splitlines() if line.strip()}
        subset = [r for r in rows if r["id"] in ids]
        parts = []
        for kind in ("numeric", "yes_no", "unanswerable"):
            got = [r["correct"] for r in subset if r["answer_type"] == kind and r.get("correct") is not None]
            if got:
                parts.append(f"{kind} {sum(got):.0f}/{len(got)} = {sum(got) / len(got):.2f}")
        strict = [r["correct"] for r in subset
                  if r["answer_type"] in ("numeric", "yes_no") and r.get("correct") is not None]
        if strict:
            parts.append(f"strict {sum(strict) / len(strict):.3f}")
        print(f"{file}: {len(subset)} questions; " + "; ".join(parts))


if __name__ == "__main__":
    main()
