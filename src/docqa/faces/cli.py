"""The command line. Holds no logic: parses flags, calls the Engine, prints."""

from __future__ import annotations

import json
import logging
import re
import sys
from pathlib import Path
from typing import Optional

import click
import typer
from rich.console import Console, ConsoleDimensions
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Column, Table
from rich.text import Text

from docqa.config import Settings
from docqa.app import asking, pageview
from docqa.engine import Engine
from docqa.types import DocumentMeta

# Exit codes (README "Exit codes"): scripts can tell these apart.
EXIT_OK = 0
EXIT_ERROR = 1         # the work failed: every file failed to index, a page too large to render, ...
EXIT_INPUT = 2         # bad input: a flag or argument, an unknown document, a page out of range, no index there
EXIT_SOME_FAILED = 3   # ingest: some files were indexed, some failed
EXIT_NOT_FOUND = 4     # ask: the filings do not support an answer

PIPE_WIDTH = 10_000    # output to a pipe or file is not wrapped: one record per line, quotes whole


# Control characters (Unicode Cc) but newline and tab: ESC, CSI (U+009B), BEL, backspace, carriage return...
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str, *, as_json: bool = False) -> str:
    """``text`` as the CLI may print it: a filing's (or a file name's) control characters would reach
    the terminal as commands (ESC [31m recolours it, ESC ]52 writes the clipboard, CR overwrites a
    line), on a terminal or through a pipe into one. Every printed text passes here: plain text loses
    them; JSON gets them as \\u escapes (the same string, still valid JSON, no raw byte)."""
    if as_json:
        return _CONTROL.sub(lambda m: f"\\u{ord(m[0]):04x}", text)
    return _CONTROL.sub("", text)


def _print_json(text: str) -> None:
    print(printable(text, as_json=True))


class _Console(Console):
    """A rich Console that wraps only on a terminal (piped output keeps each line whole), and prints
    every string it is given (a line, a table's cell) through ``printable``."""

    def render_str(self, text: str, **options) -> Text:
        return super().render_str(printable(text), **options)

    @property
    def size(self) -> ConsoleDimensions:
        size = Console.size.fget(self)
        return size if self.is_terminal else ConsoleDimensions(PIPE_WIDTH, size.height)

    @size.setter
    def size(self, new_size) -> None:
        Console.size.fset(self, new_size)


class UserError(Exception):
    """A mistake the user can fix: printed as one line, exit 2, no traceback."""


def _user_error_line(exc: BaseException) -> str | None:
    """The one line for an error the user can act on; None for a bug (which keeps its traceback)."""
    from docqa.engine import PageOutOfRange
    from docqa.app.errors import AmbiguousDocument, DocumentNotFound, EmbedderMismatch, ParseError

    if isinstance(exc, UserError):
        return str(exc)
    if (full := _disk_full(exc)) is not None:
        at = f" ({full.where})" if full.where else ""
        return (f"no space left on the index's disk{at}: free some space there, or use an index on a disk with "
                "room (--index or DOCQA_INDEX), then run the command again (files already indexed are skipped)")
    if isinstance(exc, AmbiguousDocument):
        return str(exc)
    if isinstance(exc, DocumentNotFound):
        if not exc.known:
            return f"unknown document {exc.name!r}: the index holds no documents yet; add some with `docqa ingest FILES`"
        known = ", ".join(exc.known[:5]) + (f" and {len(exc.known) - 5} more" if len(exc.known) > 5 else "")
        return f"unknown document {exc.name!r}; closest: {known}. List them all with `docqa docs`"
    if isinstance(exc, PageOutOfRange):
        return (f"{exc.document.file_name} has pages 1-{exc.document.pages}; page {exc.page} does not exist "
                "(pages are 1-based physical pages of the PDF)")
    if isinstance(exc, (ValueError, ParseError, EmbedderMismatch)):  # bad k/mode/doc_type/question, unreadable PDF
        return str(exc)
    if isinstance(exc, OSError) and exc.filename:  # a questions file that is not there, an --out folder that is not
        return f"{exc.filename}: {exc.strerror or exc}"
    return None


def _disk_full(exc: BaseException):
    """The store's DiskFull, or SQLite saying so where the store does not (opening an index): not any
    ENOSPC, since ``show --out`` on a full disk is about that file (and says so with its name)."""
    import sqlite3

    from docqa.app.errors import DiskFull, disk_full

    if isinstance(exc, DiskFull):
        return exc
    return disk_full(exc) if isinstance(exc, sqlite3.Error) else None


class _Group(typer.core.TyperGroup):
    """Every command's user errors become one line on stderr and a non-zero exit (tracebacks only with --debug)."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except Exception as exc:
            line = _user_error_line(exc)
            if line is None or _DEBUG["on"]:
                raise
            err.print(f"[red]error[/red] {escape(line)}", highlight=False, soft_wrap=True)
            # a full disk is no mistake in the input: the work failed
            raise click.exceptions.Exit(EXIT_ERROR if _disk_full(exc) is not None else EXIT_INPUT) from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            from typer import rich_utils

            rich_utils.rich_format_error(exc)
            sys.exit(exc.exit_code)
        except click.UsageError as exc:  # one line: what is wrong, where to read more
            where = exc.ctx.command_path if exc.ctx else "docqa"
            err.print(f"[red]error[/red] {exc.format_message()} (see `{where} --help`)", highlight=False,
                      soft_wrap=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            err.print(f"[red]error[/red] {exc.format_message()}", highlight=False, soft_wrap=True)
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            err.print("aborted")
            sys.exit(EXIT_ERROR)
        sys.exit(result if isinstance(result, int) else EXIT_OK)


_DEBUG = {"on": False}

app = typer.Typer(cls=_Group, add_completion=False, no_args_is_help=True, suggest_commands=False,
                  help="Questions about company filings, answered with proof. Exit codes: 0 ok, 1 failed, "
                       "2 bad input, 3 some files failed (ingest), 4 not found (ask).")
eval_app = typer.Typer(no_args_is_help=True, help="Measure retrieval and answers on labeled questions.")
app.add_typer(eval_app, name="eval")

console = _Console()
err = _Console(stderr=True)

IndexOpt = typer.Option(None, "--index", "-i", help="index folder (default: $DOCQA_INDEX or ./.docqa)")


def _engine(index: Optional[Path], **overrides) -> Engine:
    settings = Settings()
    if index is not None:
        overrides["index"] = index
    return Engine.open(settings.model_copy(update=overrides) if overrides else settings)


@app.callback()
def _options(debug: bool = typer.Option(False, "--debug", help="show the full traceback of an error")):
    _DEBUG["on"] = debug
    from docqa.embed import on_load_wait

    # A command that needs the sentence model waits 7-14 s the first time: say why it is quiet.
    on_load_wait(lambda: err.print("loading the sentence model...", highlight=False))


def _existing_index(index: Optional[Path]) -> Settings:
    """The settings for a command that only reads: an index folder that does not exist is an error, not a new index."""
    settings = Settings()
    path = index if index is not None else settings.index
    if settings.store is None and not (path / "docqa.sqlite").exists():
        what = "does not exist" if not path.exists() else "holds no docqa index"
        raise UserError(f"no index at {path}: the folder {what}. Create one with `docqa ingest FILES --index {path}`, "
                        "or pass --index (or set DOCQA_INDEX) to an existing index")
    return settings.model_copy(update={"index": path})


def _reader(index: Optional[Path], **overrides) -> Engine:
    _existing_index(index)
    return _engine(index, **overrides)


class _Bar:
    """rich progress over pages: pages done, pages/s, ETA."""

    def __init__(self):
        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} pages/s"), TimeRemainingColumn(), console=err, transient=False,
        )
        self.tasks: dict[str, int] = {}

    def __call__(self, name: str, done: int, total: int) -> None:
        if name not in self.tasks:
            self.tasks[name] = self.progress.add_task(escape(printable(name[:40])), total=total, rate="-")
        task_id = self.tasks[name]
        self.progress.update(task_id, completed=done, total=total)
        task = self.progress.tasks[task_id]
        if task.elapsed:
            self.progress.update(task_id, rate=f"{done / task.elapsed:.1f}")

    def note(self, name: str, text: str) -> None:
        """What the file's pages wait on, after its name: "report.pdf  OCR page 40 of 171"."""
        if name in self.tasks:
            self.progress.update(self.tasks[name], description=escape(f"{printable(name[:40])}  {text}"))


@app.command()
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
    engine = _engine(index, **({"dense": dense} if dense is not None else {}))
    overrides = None
    if company or year or doc_type:
        overrides = DocumentMeta(company=company, fiscal_year=year, doc_type=doc_type)
    bar = _Bar()
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
        _print_json(report.model_dump_json(indent=2))
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


@app.command()
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

    engine = _engine(index)

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

    bar = _Bar()
    try:
        with bar.progress:
            report = engine.fetch(ticker, form, years, refresh=refresh, progress=bar, on_filing=fetched)
    except (EdgarError, ValueError) as exc:
        err.print(f"[red]error[/red] {escape(str(exc))}")
        raise typer.Exit(2)
    if as_json:
        _print_json(report.model_dump_json(indent=2))
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


@app.command()
def search(
    query: str,
    k: int = typer.Option(10, "--k", "-k", min=1, help="how many pages to return"),
    mode: str = typer.Option("hybrid", help="hybrid | lexical | vector"),
    company: Optional[str] = None,
    year: Optional[int] = None,
    doc_type: Optional[str] = None,
    document: Optional[str] = None,
    index: Optional[Path] = IndexOpt,
    as_json: bool = typer.Option(False, "--json"),
):
    """Find the pages that answer a question."""
    engine = _reader(index)
    result = engine.search_detailed(query, k=k, mode=mode, company=company, year=year, doc_type=doc_type, document=document)
    if as_json:
        _print_json(json.dumps({
            "query": query,
            "companies": result.plan.companies, "years": result.plan.years, "notes": result.plan.notes,
            "timings": result.timings, "hits": [h.model_dump(mode="json") for h in result.hits],
        }, indent=2))
        return
    plan = result.plan
    console.print(
        f"[dim]companies: {escape(', '.join(plan.companies)) or 'any'} · years: {', '.join(map(str, plan.years)) or 'any'}"
        f" · {result.timings['total_ms']:.0f} ms[/dim]"
    )
    for note in plan.notes:
        console.print(f"[yellow]{escape(note)}[/yellow]")
    if not result.hits:
        console.print("no pages found")
    for rank, hit in enumerate(result.hits, 1):
        snippet = " ".join(hit.text.split())[:220]
        where = " · ".join(x for x in (hit.company, str(hit.year or ""), hit.statement.value if hit.statement else "", hit.section or "") if x)
        console.print(f"[bold]{rank:2}. {escape(hit.document)} p.{hit.page}[/bold]  score {hit.score:.2f}  "
                      f"[dim]{escape(where)}[/dim]")
        console.print(f"    {escape(snippet)}", highlight=False)


@app.command()
def docs(index: Optional[Path] = IndexOpt, as_json: bool = typer.Option(False, "--json")):
    """List indexed documents with what was detected in them."""
    engine = _reader(index)
    documents = engine.documents()
    if as_json:
        _print_json(json.dumps([d.model_dump(mode="json") for d in documents], indent=2))
        return
    plain = {} if console.is_terminal else {"box": None}  # a pipe gets plain columns, no box drawing
    table = Table(Column("file", no_wrap=True, overflow="fold"), "company", "type", "year", "Q", "pages", "chunks",
                  "dense", **plain)
    for d in documents:
        m = d.meta
        table.add_row(
            escape(d.file_name), escape(m.company or "?"), m.doc_type.value if m.doc_type else "?", str(m.fiscal_year or "?"),
            str(m.fiscal_quarter or ""), str(d.pages), str(d.chunks), "yes" if d.embedded else "no",
        )
    console.print(table)


BADGE_COLOURS = {"verified": "green", "partial": "yellow", "passages": "cyan", "not_found": "red"}


@app.command()
def ask(
    question: str,
    document: Optional[str] = typer.Option(None, help="only this document (file name or id)"),
    company: Optional[str] = None,
    year: Optional[int] = None,
    doc_type: Optional[str] = None,
    index: Optional[Path] = IndexOpt,
    as_json: bool = typer.Option(False, "--json"),
    evidence: Optional[Path] = typer.Option(None, "--evidence", help="write the first cited page to this PNG, "
                                            "the figure's cell (else the quote) boxed"),
):
    """Answer a question with citations, quotes and the arithmetic; or say why not."""
    engine = _reader(index)
    try:
        answer = asking.ask(engine, question, origin="cli", log=engine.settings.cli_log_questions,
                            document=document, company=company, year=year, doc_type=doc_type)
    except ValueError as exc:  # an empty question, a doc_type that is none
        err.print(f"[red]error[/red] {escape(str(exc))}")
        raise typer.Exit(2)
    from docqa.app.badge import badge as badge_of

    shown = badge_of(answer)  # the words every face shows, from answer.verification alone
    drawn = _write_evidence(lambda: pageview.answer_image(engine, answer), evidence) \
        if evidence and answer.citations else None
    if as_json:
        extra = {"evidence": drawn} if evidence else {}
        _print_json(json.dumps({**answer.model_dump(mode="json"), "badge": shown.words, **extra}, indent=2,
                               ensure_ascii=False))
        raise typer.Exit(EXIT_OK if answer.found else EXIT_NOT_FOUND)
    from docqa.app.asking import how_answered

    colour = BADGE_COLOURS.get(shown.key, "red")
    line = (f"[{colour}]{escape(shown.words)}[/{colour}]", how_answered(answer),
            f"{answer.timings.get('total_ms', 0):.0f} ms")
    console.print(" · ".join(x for x in line if x))
    console.print(answer.text, highlight=False, markup=False)
    if not answer.found and answer.reason:
        console.print(f"[dim]why: {escape(answer.reason)}[/dim]")
    if answer.notice:
        console.print(f"[yellow]note:[/yellow] {escape(answer.notice)}", highlight=False)
    if answer.formula:
        console.print(f"[bold]formula[/bold] {escape(answer.formula)}", highlight=False)
    for fig in answer.figures:
        where = f"{fig.document} p.{fig.page}" if fig.page else "computed"
        tagged = f" [dim]{escape(fig.concept)}[/dim]" if fig.concept else ""
        console.print(f"  [dim]figure[/dim] " + escape(f"{fig.name}: {fig.text} ({fig.period or ''}) — {where}") + tagged,
                      highlight=False)
    for c in answer.citations:
        about = f"{escape(c.about)}: " if c.about else ""
        console.print(f"  [bold]{escape(c.document)} p.{c.page}[/bold] {about}“{escape(c.quote)}”", highlight=False)
    if answer.citations_dropped:
        console.print(f"[dim]{answer.citations_dropped} citation(s) dropped: not found on their pages[/dim]")
    if drawn:
        console.print(f"[dim]evidence:[/dim] {_wrote(drawn)}")
    elif evidence:
        console.print("[dim]evidence: no page is cited, so none was written[/dim]")
    if not answer.found:
        raise typer.Exit(EXIT_NOT_FOUND)


@app.command()
def stats(
    document: str,
    term: Optional[str] = typer.Option(None, help="count this word or phrase"),
    index: Optional[Path] = IndexOpt,
    as_json: bool = typer.Option(False, "--json"),
):
    """Exact page/word counts and term occurrences over a document's full text."""
    result = _reader(index).stats(document, term)
    if as_json:
        _print_json(result.model_dump_json(indent=2))
        return
    console.print(f"{escape(result.document)}: {result.pages} pages, {result.words:,} words")
    if term:
        console.print(f"“{escape(term)}”: {result.count} occurrence(s) on pages {', '.join(map(str, result.pages_with_term)) or 'none'}")


def _write_evidence(draw, out: Path) -> dict:
    """Draw an evidence image, write it to ``out`` and say what it boxes."""
    from docqa.limits import PageTooLarge

    try:
        image = draw()
    except PageTooLarge as exc:
        err.print(f"[red]cannot render[/red] {escape(str(exc))}")
        raise typer.Exit(1)
    out.write_bytes(image.png)
    return {"out": str(out), "bytes": len(image.png), "boxed": image.used, "boxes": [list(b) for b in image.boxes]}


def _wrote(shown: dict) -> str:
    return (f"wrote {escape(shown['out'])} ({shown['bytes']:,} bytes; boxed: {shown['boxed']}, "
            f"{len(shown['boxes'])} box(es))")


@app.command()
def show(
    document: str,
    page: int,
    quote: Optional[str] = typer.Option(None, help="box this quote on the page"),
    figure: Optional[str] = typer.Option(None, help="a figure as printed (e.g. 81,797): box its cell on the quoted row"),
    out: Path = typer.Option(Path("page.png"), "--out", "-o"),
    index: Optional[Path] = IndexOpt,
    as_json: bool = typer.Option(False, "--json"),
):
    """Render a page to PNG with the evidence boxed: the figure's cell, else the quote."""
    engine = _reader(index)
    shown = _write_evidence(lambda: pageview.evidence_image(engine, document, page, [quote] if quote else [],
                                                            [figure] if figure else []), out)
    if as_json:
        _print_json(json.dumps(shown))
        return
    console.print(_wrote(shown))


@app.command()
def mcp(
    http: bool = typer.Option(False, "--http", help="serve Streamable HTTP instead of stdio"),
    host: str = typer.Option("127.0.0.1"),
    port: int = typer.Option(8765),
    index: Optional[Path] = IndexOpt,
):
    """Serve the index to AI agents over MCP (stdio by default)."""
    from docqa.faces.mcp import run_mcp

    settings = _existing_index(index)  # serving reads: a misspelt --index is an error, not a new empty index
    run_mcp(settings, http=http, host=host, port=port)


@app.command()
def serve(
    host: Optional[str] = typer.Option(None, help="default 127.0.0.1 ($DOCQA_HOST)"),
    port: Optional[int] = typer.Option(None, help="default 8000 ($DOCQA_PORT)"),
    workers: Optional[int] = typer.Option(None, min=0, help="answering processes; default one per core "
                                          "($DOCQA_WEB_WORKERS); uploads are indexed in one more"),
    index: Optional[Path] = IndexOpt,
):
    """Run the web app and REST API."""
    from docqa.faces.web.app import run_server

    settings = Settings()
    updates = {k: v for k, v in {"index": index, "host": host, "port": port, "web_workers": workers}.items()
               if v is not None}
    run_server(settings.model_copy(update=updates) if updates else settings)


@app.command("export-log")
def export_log(
    out: Path = typer.Option(Path("log.jsonl"), "--out", "-o"),
    index: Optional[Path] = IndexOpt,
    as_json: bool = typer.Option(False, "--json"),
):
    """Export asked questions and answers as JSONL in the dev-question format."""
    from docqa.app.questionlog import export_jsonl

    n = export_jsonl(_reader(index), out)
    if as_json:
        _print_json(json.dumps({"out": str(out), "questions": n}))
        return
    console.print(f"wrote {n} question(s) to {escape(str(out))}")


@eval_app.command("retrieval")
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

    engine = _engine(index) if pdfs else _reader(index)  # --pdfs indexes what is missing; without it, only reads
    if pdfs:
        bar = _Bar()
        with bar.progress:
            engine.ingest([pdfs], progress=bar)
    run_retrieval_eval(engine, questions, mode=mode, k=k, oracle=oracle, runs_dir=runs_dir,
                       baseline=baseline, compare=compare, console=console)


@eval_app.command("answers")
def eval_answers(
    questions: list[Path] = typer.Option(..., help="JSONL files of labeled questions (repeatable)"),
    index: Optional[Path] = IndexOpt,
    runs_dir: Path = typer.Option(Path("runs")),
    limit: Optional[int] = typer.Option(None, help="only the first N questions"),
):
    """Answer accuracy (numeric within 1 %, yes/no lead, abstention on unanswerable), verification rate."""
    from docqa.eval.answers import run_answer_eval

    run_answer_eval(_reader(index), questions, runs_dir=runs_dir, console=console, limit=limit)


@eval_app.command("compare")
def eval_compare(a: Path, b: Path, metric: str = typer.Option("all")):
    """Compare two run folders with 95% paired bootstrap confidence intervals."""
    from docqa.eval.retrieval import compare_runs

    compare_runs(a, b, console=console)


def main() -> None:  # pragma: no cover
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
