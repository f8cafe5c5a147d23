"""How the planner reads each question of some files: its intent, its ranking and the companies it names,
one JSON line a question, so that two versions of the code can be compared plan by plan without
answering (or reading the answers of) held-out questions.

    PYTHONPATH=OLD/src python benchmarks/plan_slots.py --index IDX Q.jsonl [Q.jsonl ...] > old.jsonl
    PYTHONPATH=NEW/src python benchmarks/plan_slots.py --index IDX Q.jsonl [Q.jsonl ...] > new.jsonl
    python benchmarks/plan_slots.py --compare old.jsonl new.jsonl

``--compare`` prints the ids whose plans differ and a count of questions compared.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def plans(index: Path, files: list[Path]) -> None:
    from docqa.engine import Engine

    engine = Engine.open(index)
    documents = engine.documents()
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            question = json.loads(line)
            plan = engine.searcher().plan(question["question"], documents)
            print(json.dumps({"id": question["id"], "intent": plan.intent.value, "ranked": str(plan.ranked),
                              "companies": list(plan.companies)}))


def compare(old: Path, new: Path) -> None:
    read = lambda p: {r["id"]: r for r in map(json.loads, p.read_text(encoding="utf-8").splitlines()) if r}  # noqa: E731
    a, b = read(old), read(new)
    changed = sorted(i for i in a if a[i] != b.get(i))
    for i in changed:
        print(f"{i}: {a[i]} -> {b.get(i)}")
    print(f"{len(changed)} plans differ of {len(a)} questions compared")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--index", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("OLD", "NEW"))
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
    elif args.index and args.files:
        plans(args.index, args.files)
    else:
        parser.error("give --index IDX and question files, or --compare OLD NEW")
        sys.exit(2)


if __name__ == "__main__":
    main()
