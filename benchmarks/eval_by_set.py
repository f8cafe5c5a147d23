"""Accuracy per question file of one `docqa eval answers` run over several files, and over them all.

    .venv/bin/python benchmarks/eval_by_set.py RUN_FOLDER QUESTIONS.jsonl [QUESTIONS.jsonl ...]
    .venv/bin/python benchmarks/eval_by_set.py RUN_FOLDER [RUN_FOLDER ...] --questions Q.jsonl [Q.jsonl ...]

`docqa eval answers` scores all its --questions files together; this splits a run's answers.jsonl
back by the file each question came from: numeric, yes/no and unanswerable counts and strict accuracy
(text questions: the lenient proxy, a reference page cited, found), then one line over all the files given: strict accuracy (numeric + yes/no), precision when an answer
is given, answers found but wrong, and citations of another period or company. Several run folders
(the second form) are read as one run, the later folder's answer winning: a "before" scored in two
runs (the older files in one, files written later in another). ``--answerers`` adds, per file, how many
answers each answerer gave in each verification state (which route answered, read without the answers).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path


def _answers(runs: list[Path]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for run in runs:
        for answers in sorted(run.rglob("answers.jsonl")) if run.is_dir() else [run]:
            out.update({r["id"]: r for r in map(json.loads, answers.read_text().splitlines()) if r})
    return out


def _ids(file: Path) -> list[str]:
    return [json.loads(line)["id"] for line in file.read_text().splitlines() if line.strip()]


def _scored(rows: list[dict]) -> list[dict]:
    return [r for r in rows if r["answer_type"] in ("numeric", "yes_no") and r.get("correct") is not None]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", type=Path, nargs="+", help="a run folder, then its --questions files")
    ap.add_argument("--questions", type=Path, nargs="+", default=None, help="the question files (runs before)")
    ap.add_argument("--answerers", action="store_true", help="per file: answers by answerer and verification state")
    args = ap.parse_args()
    runs, files = (args.paths, args.questions) if args.questions else (args.paths[:1], args.paths[1:])
    by_id = _answers(runs)
    every: list[dict] = []
    for file in files:
        subset = [by_id[i] for i in _ids(file) if i in by_id]
        every += subset
        parts = []
        for kind in ("numeric", "yes_no", "unanswerable"):
            got = [r["correct"] for r in subset if r["answer_type"] == kind and r.get("correct") is not None]
            if got:
                parts.append(f"{kind} {sum(got):.0f}/{len(got)} = {sum(got) / len(got):.2f}")
        text = [r for r in subset if r["answer_type"] == "text"]
        if text:  # no exact criterion: the lenient proxy, and whether a page the reference names is cited
            parts.append(f"text: proxy {sum(r.get('proxy') or 0 for r in text):.0f}/{len(text)}, cites a reference "
                         f"page {sum(bool(r.get('cites_evidence_page')) for r in text)}/{len(text)}, "
                         f"found {sum(bool(r.get('found')) for r in text)}/{len(text)}")
        strict = [r["correct"] for r in _scored(subset)]
        if strict:
            parts.append(f"strict {sum(strict) / len(strict):.3f}")
        print(f"{file}: {len(subset)} questions; " + "; ".join(parts))
        if args.answerers:
            routes = Counter(f"{r.get('answerer')} {r.get('verification')}" for r in subset)
            print("  answerers: " + ", ".join(f"{k} {v}" for k, v in sorted(routes.items())))
    scored = _scored(every)
    if len(files) > 1 and scored:
        right = sum(1 for r in scored if r["correct"] == 1)
        found = [r for r in scored if r.get("found")]
        wrong = sum(1 for r in found if r["correct"] != 1)
        precision = sum(1 for r in found if r["correct"] == 1) / max(len(found), 1)
        period = sum(1 for r in every if r.get("wrong_period"))
        company = sum(1 for r in every if r.get("wrong_company"))
        print(f"all {len(files)} files: strict {right}/{len(scored)} = {right / len(scored):.3f}; precision when "
              f"answered {precision:.3f}; found but wrong {wrong}; citing another period {period}, another company "
              f"{company}")


if __name__ == "__main__":
    main()
