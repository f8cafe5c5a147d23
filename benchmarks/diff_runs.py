"""Two answer runs side by side: every question whose answer, verdict, answerer or score changed.

    python benchmarks/diff_runs.py RUN_A/answers.jsonl RUN_B/answers.jsonl

Prints one block per changed question (id, question, then A and B) and a count at the end, so that a
change of the code can be read answer by answer, not only as a score.
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


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
