"""Two answer runs side by side: every question whose answer, verdict, answerer or score changed.

    python benchmarks/diff_runs.py RUN_A/answers.jsonl RUN_B/answers.jsonl
    python benchmarks/diff_runs.py RUN_A/answers.jsonl RUN_B/answers.jsonl --moves Q.jsonl [Q.jsonl ...]

Prints one block per changed question (id, question, then A and B) and a count at the end, so that a
change of the code can be read answer by answer, not only as a score. With ``--moves`` it prints, per
question file, only how many answers moved between right (R), found but wrong (W) and not found (N):
the counts a held-out file may be read for without reading its answers.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

FIELDS = ("found", "verification", "answerer", "correct")


def load(path: str) -> dict[str, dict]:
    rows = (json.loads(line) for line in Path(path).read_text().splitlines() if line.strip())
    return {r["id"]: r for r in rows}


def main(a_path: str, b_path: str) -> int:
    a, b = load(a_path), load(b_path)
    changed = alone = 0
    for qid in sorted(set(a) | set(b)):
        ra, rb = a.get(qid), b.get(qid)
        if ra is None or rb is None:
            print(f"{qid}: only in {'B' if ra is None else 'A'}")
            alone += 1
            continue
        if all(ra.get(f) == rb.get(f) for f in FIELDS) and ra.get("answer") == rb.get("answer"):
            continue
        changed += 1
        print(f"== {qid} ({ra.get('answer_type')}): {ra['question'][:160]}")
        for label, r in (("A", ra), ("B", rb)):
            print(f"  {label}: correct={r.get('correct')} found={r.get('found')} {r.get('verification')} "
                  f"[{r.get('answerer')}] {str(r.get('answer'))[:300]}")
    same = len(set(a) & set(b)) - changed
    print(f"{changed} changed, {same} the same, {alone} in one run only, of {len(set(a) | set(b))} questions")
    return 0


def _outcome(r: dict) -> str:
    return "R" if r.get("correct") == 1 else "W" if r.get("found") else "N"


def moves(a_path: str, b_path: str, files: list[str]) -> int:
    a, b = load(a_path), load(b_path)
    for file in files:
        ids = [json.loads(line)["id"] for line in Path(file).read_text().splitlines() if line.strip()]
        counts: dict[str, int] = {}
        for qid in ids:
            if qid in a and qid in b and a[qid].get("correct") is not None and _outcome(a[qid]) != _outcome(b[qid]):
                key = f"{_outcome(a[qid])}->{_outcome(b[qid])}"
                counts[key] = counts.get(key, 0) + 1
        print(f"{file}: " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "no answer moved"))
    return 0


if __name__ == "__main__":
    if "--moves" in sys.argv:
        at = sys.argv.index("--moves")
        sys.exit(moves(sys.argv[1], sys.argv[2], sys.argv[at + 1:]))
    sys.exit(main(*sys.argv[1:3]))
