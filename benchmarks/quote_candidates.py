"""How many lexically closest lines the extractive answerer must re-rank by meaning.

    .venv/bin/python benchmarks/quote_candidates.py --index IDX --questions Q.jsonl [--questions ...] [--sizes 40 20 16]

Asks every question once with the first size; the questions the extractive answerer answered are
asked again with each other size (``extractive.SEMANTIC_CANDIDATES``), and the script prints how
many keep the same verdict (found or not), the same first quote and the same quotes. The sentence
model's cost grows with the candidates; the answers should not change.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--index", required=True)
    ap.add_argument("--questions", action="append", type=Path, required=True)
    ap.add_argument("--sizes", nargs="+", type=int, default=[40, 20, 16])
    args = ap.parse_args()
    os.environ.setdefault("DOCQA_CLI_LOG_QUESTIONS", "false")
    import docqa.answer.extractive as extractive
    from docqa import Engine

    questions = [json.loads(line)["question"] for f in args.questions for line in f.read_text().splitlines() if line.strip()]
    engine = Engine.open(args.index)

    def asked(qs: list[str]) -> list[tuple]:
        out = []
        for q in qs:
            a = engine.ask(q)
            out.append((a.answerer, a.found, tuple((c.document, c.page, c.quote) for c in a.citations[:3])))
        return out

    extractive.SEMANTIC_CANDIDATES = args.sizes[0]
    first = asked(questions)
    text = [(q, r) for q, r in zip(questions, first) if r[0] == "extractive"]
    print(f"{len(questions)} questions, {len(text)} answered by the extractive answerer with {args.sizes[0]} candidates")
    for size in args.sizes[1:]:
        extractive.SEMANTIC_CANDIDATES = size
        again = asked([q for q, _ in text])
        verdict = sum(a[1] == b[1] for (_, a), b in zip(text, again))
        top = sum(a[2][:1] == b[2][:1] for (_, a), b in zip(text, again))
        same = sum(a[1:] == b[1:] for (_, a), b in zip(text, again))
        print(f"{size:>3} candidates: same verdict {verdict}/{len(text)}, same first quote {top}/{len(text)}, "
              f"same quotes {same}/{len(text)}")
        for (q, a), b in zip(text, again):
            if a[1:] != b[1:]:
                print(f"    differs: {q[:100]}")
    engine.close()


if __name__ == "__main__":
    main()
