"""`docqa eval`: retrieval and answer scores on labeled questions, and two runs compared."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from docqa.faces.commands.opening import IndexOpt, open_engine, open_reader
from docqa.faces.commands.output import PagesBar, console


def eval_retrieval(
    questions: Path = typer.Option(..., help="JSONL of labeled questions"),
    pdfs: Optional[Path] = typer.Option(None, help="folder of the PDFs the questions cite; missing ones are ingested"),
    index: Optional[Path] = IndexOpt,
    mode: str = typer.Option("hybrid"),
    k: int = typer.Option(10),
    oracle: bool = typer.Option(False, help="tell search the right document (upper bound on filtering)"),
    runs_dir: Path = typer.Option(Path("runs"), help="where run folders are written"),
    baseline: bool = typer.Option(True, help="also score plain BM25 over page text (rank_bm25)"),
    compare: Optional[Path] = typer.Option(None, help="an earlier run folder to compare with (paired bootstrap)"),
):
    """nDCG@5, Recall@5, Hit@3, Hit@5, MRR on labeled evidence pages; writes a run folder."""
    from docqa.eval.retrieval import run_retrieval_eval

    engine = open_engine(index) if pdfs else open_reader(index)  # --pdfs indexes what is missing; without it, only reads
    if pdfs:
        bar = PagesBar()
        with bar.progress:
            engine.ingest([pdfs], progress=bar)
    run_retrieval_eval(engine, questions, mode=mode, k=k, oracle=oracle, runs_dir=runs_dir,
                       baseline=baseline, compare=compare, console=console)


def eval_answers(
    questions: list[Path] = typer.Option(..., help="JSONL files of labeled questions (repeatable)"),
    index: Optional[Path] = IndexOpt,
    runs_dir: Path = typer.Option(Path("runs")),
    limit: Optional[int] = typer.Option(None, help="only the first N questions"),
):
    """Answer accuracy (numeric within 1 %, yes/no lead, abstention on unanswerable), verification rate."""
    from docqa.eval.answers import run_answer_eval

    run_answer_eval(open_reader(index), questions, runs_dir=runs_dir, console=console, limit=limit)


def eval_compare(a: Path, b: Path, metric: str = typer.Option("all")):
    """Compare two run folders with 95% paired bootstrap confidence intervals."""
    from docqa.eval.retrieval import compare_runs

    compare_runs(a, b, console=console)
