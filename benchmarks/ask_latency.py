"""Ask latency: p50/p95 of `Engine.ask` for figure answers and text answers, warm and cold.

    .venv/bin/python benchmarks/ask_latency.py [--index /work/idx/serveload] [--rounds 2] [--cold 6] [--profile]

The index is one you may write to (a copy of the 111-PDF index: `cp -r /work/idx/v2 /work/idx/NAME`).
Questions: the practice set (../shared/data/practice/questions.jsonl). An answer counts as a figure
answer when the figures answerer made it, as a text answer when the extractive answerer did (quotes
re-ranked by the sentence model); the others (filing facts, lists, yes/no disclosures, not found)
are shown as "other".

- warm: one process, the sentence model loaded (and a few questions answered), every question
  asked once; "warm, again": the same questions asked ``--rounds``-1 more times.
- cold, as a server: a new process per question that does what `docqa serve` does at start (opens
  the index, starts the model loading in the background) and asks its first question at once.
- cold, as the CLI: a new process per text question that must wait for the model (`docqa ask`).

Wall time and CPU time (this process's) per answer, and the load average: the machine is shared.
With ``--profile`` the slowest warm answers of each kind are profiled (cProfile, top functions by
cumulative time) into benchmarks/results/ask-latency-profile.txt. Prints a table and writes
benchmarks/results/ask-latency.json.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
QUESTIONS = ROOT.parent / "shared" / "data" / "practice" / "questions.jsonl"
RESULTS = ROOT / "benchmarks" / "results"
TARGET_MS = {"figure": 500.0, "text": 1500.0}


@dataclass
class Sample:
    question: str
    kind: str          # figure | text | other
    wall_ms: float
    cpu_ms: float
    answerer: str
    notice: bool = False


def kind_of(answerer: str) -> str:
    return {"figures": "figure", "extractive": "text"}.get(answerer, "other")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def timed_ask(engine, question: str, profile: cProfile.Profile | None = None) -> tuple[Sample, object]:
    t, c = time.perf_counter(), time.process_time()
    if profile:
        profile.enable()
    answer = engine.ask(question)
    if profile:
        profile.disable()
    wall, cpu = (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000
    return Sample(question, kind_of(answer.answerer), wall, cpu, answer.answerer, answer.notice is not None), answer


def load_questions(limit: int | None) -> list[dict]:
    rows = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    return rows[:limit] if limit else rows


def summarise(samples: list[Sample]) -> dict:
    out = {}
    for kind in ("figure", "text", "other"):
        got = [s for s in samples if s.kind == kind]
        if not got:
            continue
        walls = [s.wall_ms for s in got]
        out[kind] = {"n": len(got), "p50_ms": pct(walls, 50), "p95_ms": pct(walls, 95), "max_ms": max(walls),
                     "mean_cpu_ms": statistics.mean(s.cpu_ms for s in got),
                     "p95_cpu_ms": pct([s.cpu_ms for s in got], 95),
                     "lexical_for_model": sum(s.notice for s in got)}
    return out


def warm(index: Path, questions: list[dict], rounds: int, profile_out: Path | None) -> tuple[dict, list[Sample]]:
    from docqa import Engine
    from docqa.embed import get_embedder

    engine = Engine.open(index)
    s = engine.settings.ingest
    get_embedder(s.embedder, s.embed_max_tokens, s.model_threads or None)  # warm: the model is loaded, as a server loads it
    for q in questions[:3]:  # the lexicon, topic and statement caches, as in a server that has answered once
        engine.ask(q["question"])
    samples: list[Sample] = []
    again: list[Sample] = []  # the same questions asked again: the model's vectors of their lines are remembered
    for round_ in range(rounds):
        for q in questions:
            (again if round_ else samples).append(timed_ask(engine, q["question"])[0])
    if profile_out is not None:
        slowest = {}
        for s in sorted(samples, key=lambda s: -s.wall_ms):
            slowest.setdefault(s.kind, [])
            if len(slowest[s.kind]) < 3 and s.question not in slowest[s.kind]:
                slowest[s.kind].append(s.question)
        buf = io.StringIO()
        for kind, qs in slowest.items():
            prof = cProfile.Profile()
            for question in qs:
                timed_ask(engine, question, prof)
            buf.write(f"=== {kind}: the {len(qs)} slowest warm answers ===\n" + "\n".join(qs) + "\n")
            pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(45)
            pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(20)
        profile_out.write_text(buf.getvalue())
    engine.close()
    return {"first": summarise(samples), "again": summarise(again)}, samples


def cold_one(index: Path, question: str, as_server: bool) -> None:
    """Child: a new process's first question, printed as JSON on the last line."""
    t0, c0 = time.perf_counter(), time.process_time()
    from docqa import Engine

    engine = Engine.open(index)
    if as_server:
        engine.load_model_in_background()
    opened_ms = (time.perf_counter() - t0) * 1000
    sample, _ = timed_ask(engine, question)
    print(json.dumps({**asdict(sample), "open_ms": opened_ms, "process_cpu_ms": (time.process_time() - c0) * 1000}))
    sys.stdout.flush()
    os._exit(0)  # do not wait for the model still loading in the background


def cold(index: Path, questions: list[dict], as_server: bool) -> list[Sample]:
    samples = []
    for q in questions:
        cmd = [sys.executable, __file__, "--index", str(index), "--cold-one", q["question"]]
        if as_server:
            cmd.append("--as-server")
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=ROOT)
        line = (out.stdout.strip().splitlines() or ["{}"])[-1]
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            raise SystemExit(f"cold run failed: {out.stderr[-2000:]}")
        row.pop("open_ms", None)
        row.pop("process_cpu_ms", None)
        samples.append(Sample(**row))
    return samples


def pick(questions: list[dict], answer_type: str, n: int) -> list[dict]:
    return [q for q in questions if q.get("answer_type") == answer_type][:n]


def show(title: str, summary: dict) -> None:
    for kind, s in summary.items():
        target = TARGET_MS.get(kind)
        verdict = "" if target is None else (" (target <= %.0f ms: %s)" % (target, "met" if s["p95_ms"] <= target else "NOT met"))
        lexical = f", {s['lexical_for_model']} by words alone (model loading)" if s["lexical_for_model"] else ""
        print(f"{title:<14} {kind:<7} n={s['n']:<3} p50 {s['p50_ms']:7.0f} ms  p95 {s['p95_ms']:7.0f} ms  "
              f"max {s['max_ms']:7.0f} ms  cpu mean {s['mean_cpu_ms']:6.0f} ms{lexical}{verdict}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--index", type=Path, default=Path("/work/idx/serveload"))
    ap.add_argument("--rounds", type=int, default=2, help="times each question is asked warm")
    ap.add_argument("--limit", type=int, default=None, help="only the first N practice questions (warm)")
    ap.add_argument("--cold", type=int, default=6, help="cold processes per kind (0: no cold runs)")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--cold-one", help=argparse.SUPPRESS)
    ap.add_argument("--as-server", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.cold_one:
        cold_one(args.index, args.cold_one, args.as_server)
        return
    if not (args.index / "docqa.sqlite").exists():
        raise SystemExit(f"no index at {args.index}: cp -r /work/idx/v2 {args.index}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    questions = load_questions(args.limit)
    started = time.time()
    result: dict = {"index": str(args.index), "questions": len(questions), "rounds": args.rounds,
                    "machine": f"{os.cpu_count()} cores", "load_average_start": os.getloadavg()}
    t, c = time.perf_counter(), time.process_time()
    summary, samples = warm(args.index, questions, args.rounds,
                            RESULTS / "ask-latency-profile.txt" if args.profile else None)
    result["warm"] = summary["first"]
    result["warm_again"] = summary["again"]
    result["warm_process"] = {"wall_s": time.perf_counter() - t, "cpu_s": time.process_time() - c}
    show("warm", summary["first"])
    show("warm, again", summary["again"])
    if args.cold:
        # numeric questions mostly get figure answers, text questions extractive ones: kinds come from the answerer
        chosen = pick(questions, "numeric", args.cold) + pick(questions, "text", args.cold)
        server = cold(args.index, chosen, as_server=True)
        result["cold_server"] = summarise(server)
        show("cold (serve)", result["cold_server"])
        cli = cold(args.index, pick(questions, "text", max(1, args.cold // 2)), as_server=False)
        result["cold_cli"] = summarise(cli)
        show("cold (CLI)", result["cold_cli"])
        result["cold_samples"] = [asdict(s) for s in server + cli]
    result["load_average_end"] = os.getloadavg()
    result["seconds"] = time.time() - started
    result["slowest_warm"] = [asdict(s) for s in sorted(samples, key=lambda s: -s.wall_ms)[:8]]
    (RESULTS / "ask-latency.json").write_text(json.dumps(result, indent=1))
    print(f"load average {result['load_average_start'][0]:.1f} -> {result['load_average_end'][0]:.1f}; "
          f"wrote {RESULTS / 'ask-latency.json'}")


if __name__ == "__main__":
    main()
