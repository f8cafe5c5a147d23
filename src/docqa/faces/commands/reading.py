"""The commands that read the index: search, docs, ask, stats, show and export-log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape
from rich.table import Column, Table

from docqa.app import asking, pageview
from docqa.faces.commands.errors import EXIT_NOT_FOUND, EXIT_OK
from docqa.faces.commands.opening import IndexOpt, open_reader
from docqa.faces.commands.output import console, err, print_json


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
    engine = open_reader(index)
    result = engine.search_detailed(query, k=k, mode=mode, company=company, year=year, doc_type=doc_type, document=document)
    if as_json:
        print_json(json.dumps({
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


def docs(index: Optional[Path] = IndexOpt, as_json: bool = typer.Option(False, "--json")):
    """List indexed documents with what was detected in them."""
    engine = open_reader(index)
    documents = engine.documents()
    if as_json:
        print_json(json.dumps([d.model_dump(mode="json") for d in documents], indent=2))
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
    engine = open_reader(index)
    try:
        answer = asking.ask(engine, question, origin="cli", log=engine.settings.cli.cli_log_questions,
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
        print_json(json.dumps({**answer.model_dump(mode="json"), "badge": shown.words, **extra}, indent=2,
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


def stats(
    document: str,
    term: Optional[str] = typer.Option(None, help="count this word or phrase"),
    index: Optional[Path] = IndexOpt,
    as_json: bool = typer.Option(False, "--json"),
):
    """Exact page/word counts and term occurrences over a document's full text."""
    result = open_reader(index).stats(document, term)
    if as_json:
        print_json(result.model_dump_json(indent=2))
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
    engine = open_reader(index)
    shown = _write_evidence(lambda: pageview.evidence_image(engine, document, page, [quote] if quote else [],
                                                            [figure] if figure else []), out)
    if as_json:
        print_json(json.dumps(shown))
        return
    console.print(_wrote(shown))


def export_log(
    out: Path = typer.Option(Path("log.jsonl"), "--out", "-o"),
    index: Optional[Path] = IndexOpt,
    as_json: bool = typer.Option(False, "--json"),
):
    """Export asked questions and answers as JSONL in the dev-question format."""
    from docqa.app.questionlog import export_jsonl

    n = export_jsonl(open_reader(index), out)
    if as_json:
        print_json(json.dumps({"out": str(out), "questions": n}))
        return
    console.print(f"wrote {n} question(s) to {escape(str(out))}")
