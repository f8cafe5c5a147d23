"""Reading an HTML filing is bounded: by bytes per file, cells per table, cells in all, and the page
limit applied while reading. Every hostile file is generated here.

Before these bounds a 50 MB single-table HTML peaked at 5.66 GB, and a 6,137-page one was parsed
and laid out in full (63 s, 2.0 GB) before the page limit refused it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from docqa.engine import Engine
from docqa.ingest import html
from docqa.ingest.html import parse_html
from docqa.ingest.html_layout import MAX_PAGE_LINES
from docqa.ingest.parse import ParseError
from docqa.limits import HtmlLimits

HEAD = ("<html><body><p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p><p>FORM 10-K</p>"
        "<p>ACME WIDGETS INC.</p><p>Annual report for the fiscal year ended December 31, 2023.</p>")
PROSE = "Revenue grew because customers bought more widgets in every region we serve. " * 6
GB = 1 << 30


def limits(**given) -> HtmlLimits:
    return HtmlLimits(**{"max_bytes": 100 << 20, "max_table_cells": 100_000, "max_cells": 500_000,
                         "max_pages": 2000, **given})


def table_rows(start: int, count: int) -> str:
    return "".join(f"<tr><td>Line item {i}</td><td>$</td><td>{(i * 7) % 99_999:,}</td><td></td>"
                   f"<td>$</td><td>{(i * 3) % 9_999:,}</td><td></td></tr>" for i in range(start, start + count))


def single_table(path: Path, megabytes: int) -> Path:
    """One table of ``megabytes`` MB: ~520,000 rows, 3.6 million cells for 50 MB."""
    with path.open("w", encoding="utf-8") as fh:
        fh.write(HEAD + "<table><tr><td></td><td colspan='3'>2023</td><td colspan='3'>2022</td></tr>")
        written, i = 0, 0
        while written < megabytes << 20:
            chunk = table_rows(i, 1000)
            fh.write(chunk)
            written, i = written + len(chunk), i + 1000
        fh.write("</table><p>After the table.</p></body></html>")
    return path


def many_pages(path: Path, pages: int, breaker: str = "<div style='page-break-after:always'></div>") -> Path:
    body = "".join(f"<p>Page {i}. {PROSE}</p>{breaker}" for i in range(pages))
    path.write_text(HEAD + breaker + body + "</body></html>", encoding="utf-8")
    return path


# ------------------------------------------------------------------------------- memory
CHILD = """
import json, sys
from docqa.engine import Engine
with Engine.open(sys.argv[2], dense=False) as engine:
    report = engine.ingest([sys.argv[1]])
print(json.dumps([[f.status, f.reason, list(f.warnings), f.pages] for f in report.files]))
"""
# A fresh launcher, so RUSAGE_CHILDREN holds the ingest's peak alone (not any earlier child of pytest's).
LAUNCHER = """
import resource, subprocess, sys
out = subprocess.run([sys.executable, "-c", sys.argv[1], *sys.argv[2:]], capture_output=True, text=True)
sys.stderr.write(out.stderr[-3000:])
print(out.stdout.strip().splitlines()[-1] if out.returncode == 0 and out.stdout.strip() else "null")
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
"""


@pytest.mark.slow  # ~40 s: 50 MB of HTML through the parser
def test_a_50_mb_single_table_is_ingested_in_under_1_gb(tmp_path):
    path = single_table(tmp_path / "giant-table.htm", 50)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOCQA_")}
    run = subprocess.run([sys.executable, "-c", LAUNCHER, CHILD, str(path), str(tmp_path / "idx")],
                         capture_output=True, text=True, env=env, timeout=900)
    outcome_line, peak_line = run.stdout.strip().splitlines()[-2:]
    peak = int(peak_line)
    outcomes = json.loads(outcome_line)
    assert outcomes, run.stderr
    status, reason, warnings, pages = outcomes[0]
    assert peak < GB, f"peak RSS {peak / 2**20:,.0f} MB"
    assert status == "indexed", reason
    cut = [w for w in warnings if "DOCQA_MAX_TABLE_CELLS" in w]
    assert cut and "more than 100,000 cells" in cut[0], warnings
    assert pages > 1  # the table's rows go on over pages of at most MAX_PAGE_LINES lines


# ------------------------------------------------------------------------------- pages
def test_thousands_of_pages_are_refused_while_reading(tmp_path, monkeypatch):
    path = many_pages(tmp_path / "pages.htm", 3000)

    def never(*args, **kwargs):
        raise AssertionError("the filing was laid out: the page limit came after parsing")

    monkeypatch.setattr(html, "paginate", never)
    with pytest.raises(ParseError) as refused:
        parse_html(path)
    message = str(refused.value)
    assert "more than 2,000 pages" in message and "raise DOCQA_MAX_PAGES" in message, message
    share = int(message.split("in the first ")[1].split("%")[0])
    assert share < 100, message  # stopped before the end of the file


def test_the_pipeline_says_why_and_goes_on(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    many_pages(folder / "pages.htm", 3000)
    (folder / "good.htm").write_text(HEAD + f"<p>{PROSE}</p></body></html>", encoding="utf-8")
    with Engine.open(tmp_path / "idx", dense=False) as engine:
        report = engine.ingest([folder])
    status = {Path(f.path).name: (f.status, f.reason) for f in report.files}
    assert status["pages.htm"][0] == "failed" and "DOCQA_MAX_PAGES" in status["pages.htm"][1], status
    assert status["good.htm"][0] == "indexed", status


@pytest.mark.parametrize("breaker", ["<hr>", ""], ids=["rules", "no breaks"])
def test_pages_without_break_styles_are_counted_while_reading(tmp_path, breaker):
    path = many_pages(tmp_path / "pages.htm", 1000, breaker)  # 5 lines each: 83 pages of 60 lines unbroken
    with pytest.raises(ParseError, match=r"more than 50 pages in the first \d+% of the file"):
        parse_html(path, limits=limits(max_pages=50))


def test_the_count_while_reading_is_the_pages_laid_out(tmp_path):
    # Breaks, prose, a table longer than a page: the limit refuses one page more than are made, never fewer.
    body = (HEAD + "<div style='page-break-before:always'></div>" + f"<p>{PROSE}</p>" * 30
            + "<table>" + table_rows(0, 450) + "</table>" + "<div style='break-after:page'></div>"
            + f"<p>{PROSE}</p>" + "<table>" + table_rows(0, 12) + "</table></body></html>")
    path = tmp_path / "mixed.htm"
    path.write_text(body, encoding="utf-8")
    pages = parse_html(path, limits=limits()).pages
    assert len(pages) >= 4 and max(len(p.lines) for p in pages) <= MAX_PAGE_LINES
    assert len(parse_html(path, limits=limits(max_pages=len(pages))).pages) == len(pages)
    with pytest.raises(ParseError, match="DOCQA_MAX_PAGES"):
        parse_html(path, limits=limits(max_pages=len(pages) - 1))


# ------------------------------------------------------------------------------- cells and bytes
def test_a_table_past_its_cell_limit_is_cut_with_a_warning(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCQA_MAX_TABLE_CELLS", "700")  # 100 rows of 7 cells
    path = tmp_path / "table.htm"
    path.write_text(HEAD + "<table>" + table_rows(0, 300) + "</table><p>After the table.</p></body></html>",
                    encoding="utf-8")
    parsed = parse_html(path)
    text = "\n".join(p.text for p in parsed.pages)
    assert "Line item 99 " in text and "Line item 100 " not in text and "After the table." in text
    warning = next(w for w in parsed.warnings if "DOCQA_MAX_TABLE_CELLS" in w)
    assert "more than 700 cells" in warning and "'Line item 0'" in warning, warning


def test_a_filing_past_its_cell_budget_is_read_up_to_there(tmp_path):
    tables = "".join(f"<p>Table {k}.</p><table>{table_rows(k * 10, 10)}</table>" for k in range(50))
    path = tmp_path / "tables.htm"
    path.write_text(HEAD + tables + "<p>The end.</p></body></html>", encoding="utf-8")
    parsed = parse_html(path, limits=limits(max_cells=700))
    text = "\n".join(p.text for p in parsed.pages)
    assert "Table 9." in text and "Table 11." not in text and "The end." not in text
    warning = next(w for w in parsed.warnings if "DOCQA_MAX_HTML_CELLS" in w)
    assert "more than 700 table cells, tagged facts and contexts" in warning, warning


def test_an_html_file_over_the_size_limit_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCQA_MAX_HTML_MB", "1")
    path = tmp_path / "big.htm"
    path.write_text(HEAD + f"<p>{PROSE}</p>" * 5000 + "</body></html>", encoding="utf-8")
    assert path.stat().st_size > 2 << 20

    def never(*args, **kwargs):
        raise AssertionError("the file was read")

    monkeypatch.setattr(html, "_sniff", never)
    with pytest.raises(ParseError, match=r"HTML file of 2\.\d MB, over the limit of 1 MB .* raise DOCQA_MAX_HTML_MB"):
        parse_html(path)

