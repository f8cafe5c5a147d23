"""The commands that fill the index: `docqa ingest` files and `docqa fetch` filings from EDGAR."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from docqa.faces.commands.errors import EXIT_ERROR, EXIT_SOME_FAILED
from docqa.faces.commands.opening import IndexOpt, open_engine
from docqa.faces.commands.output import PagesBar, console, err, print_json
from docqa.types import DocumentMeta


def ingest(
    paths: list[Path] = typer.Argument(..., help="PDF or EDGAR .htm/.html files, or folders of them"),
    index: Optional[Path] = IndexOpt,
    company: Optional[str] = typer.Option(None, help="override the detected company"),
    year: Optional[int] = typer.Option(None, help="override the detected fiscal year"),
    doc_type: Optional[str] = typer.Option(None, help="override the detected filing type: 10k, 10q, 8k, earnings"),
    dense: Optional[bool] = typer.Option(None, "--dense/--no-dense",
                                         help="also embed chunks for hybrid/vector search (default: $DOCQA_DENSE, off)"),
    as_json: bool = typer.Option(False, "--json"),
    workers: Optional[int] = typer.Option(None, "--workers", min=1,
                                          help="build documents on N local worker processes"),
    cluster: Optional[str] = typer.Option(None, "--cluster",
                                          help="build documents on the Dask cluster at this scheduler, e.g. tcp://host:8786"),
):
    """Index PDFs and EDGAR HTML filings. Unchanged files are skipped; each bad file gets a reason."""
    engine = open_engine(index, **({"dense": dense} if dense is not None else {}))
    overrides = None
    if company or year or doc_type:
        overrides = DocumentMeta(company=company, fiscal_year=year, doc_type=doc_type)
    bar = PagesBar()
    with bar.progress:
        if workers or cluster:
            from docqa.app.errors import ClusterUnavailable

            try:
                report = engine.ingest_parallel(paths, workers=workers, cluster=cluster, progress=bar,
                                                overrides=overrides)
            except ClusterUnavailable as exc:
                err.print(f"[red]error[/red] {escape(str(exc))}")
                raise typer.Exit(2)
        else:
            report = engine.ingest(paths, progress=bar, overrides=overrides)
    if as_json:
        print_json(report.model_dump_json(indent=2))
    else:
        for f in report.files:
            style = {"indexed": "green", "skipped": "yellow", "failed": "red"}[f.status]
            detail = f"{f.pages} pages, {f.chunks} chunks" if f.status != "failed" else f.reason
            if f.status == "skipped":
                detail = f.reason
            console.print(f"[{style}]{f.status:8}[/{style}] {escape(Path(f.path).name)}: {escape(str(detail))}")
            for w in f.warnings:
                console.print(f"         [yellow]warning[/yellow] {escape(w)}")
        console.print(
            f"{len(report.indexed)} indexed, {len(report.skipped)} unchanged, {len(report.failed)} failed"
        )
    if report.failed:
        total = len(report.files)
        if not report.indexed and not report.skipped:
            err.print(f"[red]error[/red] all {total} file(s) failed; the reasons are above", highlight=False)
            raise typer.Exit(EXIT_ERROR)
        err.print(f"[yellow]{len(report.failed)} of {total} file(s) failed[/yellow]; the reasons are above",
                  highlight=False)
        raise typer.Exit(EXIT_SOME_FAILED)


def fetch(
    ticker: str = typer.Argument(..., help="a ticker (PFE, BRK-B) or a CIK number"),
    form: Optional[list[str]] = typer.Option(None, "--form", "-f",
                                             help="10-K, 10-Q, 8-K, 20-F or 40-F; repeat for several "
                                                  "(default: the annual report)"),
    years: Optional[str] = typer.Option(None, "--years", "-y",
                                        help="fiscal years, e.g. 2023 or 2021-2024 (default: the latest filing)"),
    refresh: bool = typer.Option(False, "--refresh", help="read the SEC's ticker map and filing list again now"),
    index: Optional[Path] = IndexOpt,
    as_json: bool = typer.Option(False, "--json"),
):
    """Download a company's filings from SEC EDGAR and index them (needs DOCQA_SEC_USER_AGENT)."""
    from docqa.sources.edgar import EdgarError

    engine = open_engine(index)

    def fetched(item) -> None:
        if as_json:
            return
        f = item.filing
        where = "downloaded" if item.downloaded else "cached" if item.path else "failed"
        style = "red" if item.error else "green" if item.downloaded else "yellow"
        detail = f" ({item.error})" if item.error else ""
        err.print(f"[{style}]{where:10}[/{style}] "
                  + escape(f"{f.form} {f.report_date or f.filing_date} {f.primary_document}{detail}"),
                  highlight=False)

    bar = PagesBar()
    try:
        with bar.progress:
            report = engine.fetch(ticker, form, years, refresh=refresh, progress=bar, on_filing=fetched)
    except (EdgarError, ValueError) as exc:
        err.print(f"[red]error[/red] {escape(str(exc))}")
        raise typer.Exit(2)
    if as_json:
        print_json(report.model_dump_json(indent=2))
    else:
        for w in report.warnings:
            console.print(f"[yellow]warning[/yellow] {escape(w)}")
        ingest = report.ingest
        for f in ingest.files if ingest else ():
            style = {"indexed": "green", "skipped": "yellow", "failed": "red"}[f.status]
            detail = f"{f.pages} pages, {f.chunks} chunks" if f.status == "indexed" else f.reason
            console.print(f"[{style}]{f.status:8}[/{style}] {escape(Path(f.path).name)}: {escape(str(detail))}")
        downloaded = sum(1 for f in report.filings if f.downloaded)
        failed = sum(1 for f in report.filings if f.error)
        console.print(f"{escape(str(report.company))} (CIK {report.cik}): {len(report.filings)} filing(s), {downloaded} downloaded, "
                      f"{len(report.filings) - downloaded - failed} from the cache, {failed} not fetched; "
                      f"{len(ingest.indexed) if ingest else 0} indexed, {len(ingest.skipped) if ingest else 0} "
                      f"already indexed; {report.requests} request(s) to the SEC")
    if not report.filings or all(f.error for f in report.filings) or (report.ingest and report.ingest.failed
                                                                       and not report.ingest.indexed
                                                                       and not report.ingest.skipped):
        raise typer.Exit(1)
