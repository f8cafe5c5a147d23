"""EDGAR HTML (inline XBRL) filings: pages, tables as rows, cover metadata, tagged facts, bad input.

The real filings are EDGAR's own, whole (tests/fixtures/filings/html, xz-compressed); the small cases
are made here.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from docqa.ingest.html import parse_html
from docqa.ingest.ixbrl import cover_meta, fact_value, fiscal_year_of
from docqa.ingest.parse import ParseError
from docqa.ingest.pipeline import expand_paths
from docqa.types import DocType
from tests.filings import filing_html, html_folder

# the README table of shared/data/html (where the fixtures were copied from) is the truth
TRUTH = {
    "pfe-10-q-2023-07-02.html": ("Pfizer", DocType.QUARTERLY, "2023-07-02", 2023, 2, "PFE"),
    "mmm-10-q-2023-06-30.html": ("3M", DocType.QUARTERLY, "2023-06-30", 2023, 2, "MMM"),
    "aapl-10-q-2023-07-01.html": ("Apple", DocType.QUARTERLY, "2023-07-01", 2023, 3, "AAPL"),
    "amzn-10-q-2023-06-30.html": ("Amazon", DocType.QUARTERLY, "2023-06-30", 2023, 2, "AMZN"),
    "mcd-10-k-2023-12-31.html": ("McDonald’s", DocType.ANNUAL, "2023-12-31", 2023, None, "MCD"),
    "pep-10-k-2023-12-30.html": ("PepsiCo", DocType.ANNUAL, "2023-12-30", 2023, None, "PEP"),
    "aapl-10-k-2024-11-01.html": ("Apple", DocType.ANNUAL, "2024-09-28", 2024, None, "AAPL"),
    "nflx-10-k-2025-01-27.html": ("Netflix", DocType.ANNUAL, "2024-12-31", 2024, None, "NFLX"),
    "nke-10-k-2025-07-17.html": ("NIKE", DocType.ANNUAL, "2025-05-31", 2025, None, "NKE"),
    "aapl-10-q-2025-03-29-filing/aapl-20250329.htm": ("Apple", DocType.QUARTERLY, "2025-03-29", 2025, 2, "AAPL"),
}
PFIZER = "pfe-10-q-2023-07-02.html"


@pytest.fixture(scope="module")
def html_engine(tmp_path_factory):
    """One index of every HTML filing, ingested as `docqa ingest` would (folder discovery)."""
    from docqa import Engine

    engine = Engine.open(tmp_path_factory.mktemp("html-index"), dense=False)
    report = engine.ingest([html_folder()])
    yield engine, report
    engine.close()


def _doc(engine, name: str):
    return engine.document(Path(name).name)


# ------------------------------------------------------------------------- the real filings
def test_every_html_filing_ingests(html_engine):
    engine, report = html_engine
    by_name = {Path(f.path).name: f for f in report.files}
    for name in TRUTH:
        outcome = by_name.get(Path(name).name)
        assert outcome is not None, f"{name} was not picked up from the folder"
        assert outcome.status == "indexed", (name, outcome.reason)
    assert not report.failed, [(f.path, f.reason) for f in report.failed]


@pytest.mark.parametrize("name", sorted(TRUTH))
def test_company_form_and_period_from_the_cover(html_engine, name):
    engine, _ = html_engine
    company, doc_type, period_end, year, quarter, ticker = TRUTH[name]
    meta = _doc(engine, name).meta
    assert meta.company and company.lower() in meta.company.lower(), meta.company
    assert meta.doc_type == doc_type
    assert meta.period_end == period_end
    assert meta.fiscal_year == year
    assert meta.fiscal_quarter == quarter
    assert meta.ticker == ticker
    assert meta.currency == "USD"


@pytest.mark.parametrize("name", sorted(TRUTH))
def test_pages_follow_the_filings_page_breaks(html_engine, name):
    engine, _ = html_engine
    raw = filing_html(name).read_text(errors="replace")
    breaks = len(re.findall(r"page-break-(?:before|after)\s*:\s*always", raw, re.I))
    pages = _doc(engine, name).pages
    assert 0.8 * breaks <= pages <= breaks + 2, (pages, breaks)
    stored = engine.store.pages(_doc(engine, name).id)
    assert all(p.width >= 612 and p.height >= 792 for p in stored)
    assert sum(1 for p in stored if p.lines) >= 0.95 * len(stored)


def test_statement_tables_are_rows_with_label_then_figures(html_engine):
    engine, _ = html_engine
    doc = _doc(engine, PFIZER)
    pages = engine.store.pages(doc.id)
    income = next(p for p in pages if p.info and p.info.statement and p.info.statement.value == "income")
    row = next(l for l in income.lines if l.text.startswith("Revenues"))
    assert row.text == "Revenues  $ 12,734  $ 27,742  $ 31,015  $ 53,402"
    assert row.is_table
    other = next(l for l in income.lines if l.text.startswith("Other (income)/deductions"))
    assert "(347)" in other.text.split("  ")
    # the statement reader read it; the cells carry their tagged facts
    table = income.tables[0]
    revenues = next(r for r in table.rows if r.label == "Revenues")
    assert [c.value for c in revenues.cells] == [12734.0, 27742.0, 31015.0, 53402.0]
    first = revenues.cells[0]
    assert first.concept == "us-gaap:Revenues"
    assert first.fact.value == 12_734_000_000 and first.fact.unit == "USD"
    assert (first.fact.start, first.fact.end) == ("2023-04-03", "2023-07-02")


def test_pfizer_html_answers_with_a_cited_figure(html_engine):
    engine, _ = html_engine
    answer = engine.ask("What was Pfizer's total revenue for the quarter ended July 2, 2023?")
    assert answer.found and answer.verification == "verified", answer.text
    assert any(round(f.value) == 12734 for f in answer.figures), answer.figures
    cited = answer.citations[0]
    assert cited.document == PFIZER
    page = engine.page(cited.document, cited.page)
    assert cited.quote in page.text


def test_facts_are_typed_and_located():
    parsed = parse_html(filing_html(PFIZER))
    assert len(parsed.facts) > 1500
    placed = [f for f in parsed.facts if f.page is not None]
    assert len(placed) >= 0.95 * len(parsed.facts)
    revenue = [f for f in parsed.facts if f.concept == "us-gaap:Revenues" and not f.dimensions
               and f.end == "2023-07-02" and f.months == 3]
    assert revenue and revenue[0].value == 12_734_000_000 and revenue[0].decimals == -6
    page = parsed.pages[revenue[0].page - 1]
    x0, y0, x1, y1 = revenue[0].bbox
    words = [w.text for l in page.lines for w in l.words if w.bbox[0] >= x0 - 0.1 and w.bbox[2] <= x1 + 0.1
             and w.bbox[1] >= y0 - 0.1 and w.bbox[3] <= y1 + 0.1]
    assert words == ["12,734"]
    # a segment member (dimension) is kept with its axis
    assert any(("srt:StatementGeographicalAxis" in dict(f.dimensions)) for f in parsed.facts)


# ------------------------------------------------------------------------------ small cases
def _write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


FILING_HEAD = ("<html><body><p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p><p>FORM 10-K</p>"
               "<p>ACME WIDGETS INC.</p>")


def test_pages_split_at_break_styles_and_rules(tmp_path):
    styled = _write(tmp_path, "a.htm", FILING_HEAD + "<p>one</p><div style='page-break-before:always'>two</div>"
                    "<p>three</p><hr style='page-break-after: always'/><p>four</p></body></html>")
    assert [p.text.split("\n")[-1] for p in parse_html(styled).pages] == ["one", "three", "four"]
    ruled = _write(tmp_path, "b.htm", FILING_HEAD + "<p>one</p><hr><p>two</p></body></html>")
    assert len(parse_html(ruled).pages) == 2
    # break styles present: a plain <hr> is a rule, not a page break
    mixed = _write(tmp_path, "c.htm", FILING_HEAD + "<p>one</p><hr><p>two</p>"
                   "<div style='break-before:page'>three</div></body></html>")
    assert len(parse_html(mixed).pages) == 2


def test_table_cells_merge_dollar_and_parentheses(tmp_path):
    table = ("<table><tr><td></td><td colspan='3'>Year Ended</td></tr>"
             "<tr><td>(in millions)</td><td colspan='3'>2023</td><td colspan='3'>2022</td></tr>"
             "<tr><td>Net sales</td><td>$</td><td>1,234</td><td></td><td>$</td><td>999</td><td></td></tr>"
             "<tr><td>Other</td><td></td><td>(12</td><td>)</td><td></td><td>7</td><td></td></tr></table>")
    page = parse_html(_write(tmp_path, "t.htm", FILING_HEAD + table + "</body></html>")).pages[0]
    texts = [l.text for l in page.lines]
    assert "Net sales  $ 1,234  $ 999" in texts
    assert "Other  (12)  7" in texts
    row = next(l for l in page.lines if l.text.startswith("Net sales"))
    assert [w.text for w in row.words] == ["Net", "sales", "$", "1,234", "$", "999"]
    assert row.is_table
    # figures of a column are right-aligned: the reader clusters them by right edge
    other = next(l for l in page.lines if l.text.startswith("Other"))
    assert abs(row.words[3].bbox[2] - other.words[1].bbox[2]) <= 6


def test_scripts_styles_and_hidden_text_are_not_read(tmp_path):
    body = (FILING_HEAD + "<script>document.write('SCRIPTED')</script><style>p{color:red} STYLED</style>"
            "<img src='http://example.invalid/x.png'><div style='display:none'>HIDDEN</div><p>Visible text.</p>"
            "<iframe src='http://example.invalid/'>FRAMED</iframe></body></html>")
    text = "\n".join(p.text for p in parse_html(_write(tmp_path, "s.htm", body)).pages)
    assert "Visible text." in text
    for absent in ("SCRIPTED", "STYLED", "HIDDEN", "FRAMED", "example.invalid"):
        assert absent not in text


@pytest.mark.parametrize("body, reason", [
    ("<html><body><h1>Our bakery</h1><p>Fresh bread every day.</p></body></html>", "not an SEC filing"),
    ("<html><body><p>Filing Detail</p><table><tr><td>Document Format Files</td></tr></table></body></html>",
     "filing index"),
    ("", "empty file"),
    ("just some words, no markup at all", "not HTML"),
    ("<html><head><script>x()</script></head><body></body></html>", "no text"),
])
def test_not_a_filing_gets_a_reason(tmp_path, body, reason):
    with pytest.raises(ParseError, match=reason):
        parse_html(_write(tmp_path, "x.html", body))


def test_bad_html_fails_alone_in_the_pipeline(tmp_path):
    from docqa import Engine

    folder = tmp_path / "in"
    folder.mkdir()
    _write(folder, "bakery.html", "<html><body><p>Fresh bread every day.</p></body></html>")
    (folder / "fake.htm").write_bytes(b"%PDF-1.7 not html")
    _write(folder, "good.htm", FILING_HEAD + "<p>Annual report for the fiscal year ended December 31, 2023.</p>"
           + "<p>Revenue grew.</p>" * 20 + "</body></html>")
    engine = Engine.open(tmp_path / "index", dense=False)
    try:
        report = engine.ingest([folder])
        status = {Path(f.path).name: (f.status, f.reason) for f in report.files}
        assert status["bakery.html"][0] == "failed" and "not an SEC filing" in status["bakery.html"][1]
        assert status["fake.htm"][0] == "failed" and "PDF" in status["fake.htm"][1]
        assert status["good.htm"][0] == "indexed"
    finally:
        engine.close()


IXBRL = """<?xml version="1.0"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
 xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi"
 xmlns:dei="http://xbrl.sec.gov/dei/2023" xmlns:us-gaap="http://fasb.org/us-gaap/2023"
 xmlns:iso4217="http://www.xbrl.org/2003/iso4217"><body>
<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:DocumentType" contextRef="c1">10-K</ix:nonNumeric>
<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="c1">ACME WIDGETS INC.</ix:nonNumeric>
<ix:nonNumeric name="dei:TradingSymbol" contextRef="c1">ACME</ix:nonNumeric>
</ix:hidden><ix:resources>
<xbrli:context id="c1"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2022-01-02</xbrli:startDate><xbrli:endDate>2023-01-01</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="c2"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier><xbrli:segment>
<xbrldi:explicitMember dimension="srt:StatementGeographicalAxis">country:US</xbrldi:explicitMember></xbrli:segment></xbrli:entity>
<xbrli:period><xbrli:instant>2023-01-01</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<p>ANNUAL REPORT. Net loss was $<ix:nonFraction name="us-gaap:NetIncomeLoss" contextRef="c1" unitRef="usd"
 decimals="-6" scale="6" sign="-" format="ixt:num-dot-decimal">1,234.5</ix:nonFraction> million.</p>
<p>US assets <ix:nonFraction name="us-gaap:Assets" contextRef="c2" unitRef="usd" decimals="INF" scale="3"
 format="ixt:fixed-zero">—</ix:nonFraction> and <ix:nonFraction name="us-gaap:Liabilities" contextRef="c9"
 unitRef="usd" decimals="0">7</ix:nonFraction>.</p>
</body></html>"""


def test_inline_xbrl_facts_and_cover(tmp_path):
    parsed = parse_html(_write(tmp_path, "acme.htm", IXBRL))
    loss, assets, liabilities = parsed.facts
    assert loss.concept == "us-gaap:NetIncomeLoss" and loss.value == -1_234_500_000 and loss.negated
    assert (loss.start, loss.end, loss.unit, loss.decimals, loss.months) == ("2022-01-02", "2023-01-01", "USD", -6, 12)
    assert loss.page == 1 and loss.bbox is not None
    assert assets.value == 0 and assets.instant and assets.dimensions == (("srt:StatementGeographicalAxis", "country:US"),)
    assert liabilities.end is None  # a context the filing does not define: kept, period unknown, warned
    assert any("context" in w for w in parsed.warnings)
    meta = parsed.meta
    assert (meta.company, meta.ticker, meta.doc_type) == ("Acme Widgets Inc.", "ACME", DocType.ANNUAL)
    # no DocumentFiscalYearFocus: a 52/53-week year ending on January 1 belongs to the year before
    assert meta.period_end == "2023-01-01" and meta.fiscal_year == 2022
    text = parsed.pages[0].text
    assert "Net loss was $1,234.5 million." in text


def test_values_and_fiscal_years():
    assert fact_value("1,234", "ixt:num-dot-decimal", 6, True) == -1_234_000_000
    assert fact_value("1.234,5", "ixt:num-comma-decimal", 0) == 1234.5
    assert fact_value("—", "ixt:fixed-zero", 6) == 0
    assert fact_value("three", "ixt-sec:numwordsen", 0) == 3
    assert fact_value("12.5", None, -2) == 0.125
    assert fact_value("n/a", None, 0) is None
    assert fiscal_year_of(date(2023, 1, 1)) == 2022 and fiscal_year_of(date(2023, 1, 28)) == 2023
    cover = {"dei:DocumentType": ["10-Q"], "dei:DocumentPeriodEndDate": ["July 2, 2023"],
             "dei:DocumentFiscalYearFocus": ["2023"], "dei:DocumentFiscalPeriodFocus": ["Q2"],
             "dei:EntityRegistrantName": ["McDONALD’S CORPORATION"]}
    meta = cover_meta(cover, {}, {})
    assert (meta.doc_type, meta.period_end, meta.fiscal_year, meta.fiscal_quarter) == (
        DocType.QUARTERLY, "2023-07-02", 2023, 2)
    assert meta.company == "McDonald’s Corporation"


def test_folders_yield_html_beside_pdfs(tmp_path):
    for name in ("a.pdf", "b.htm", "c.HTML", "d.xml", "e.txt"):
        (tmp_path / name).write_bytes(b"x")
    files, missing = expand_paths([tmp_path])
    assert sorted(p.name for p in files) == ["a.pdf", "b.htm", "c.HTML"] and not missing


def _collapse_by_character(raw: str, marks: list[tuple[int, int, int]]) -> tuple[str, list[tuple[int, int, int]]]:
    """The reference: a table of new offsets, one per character of ``raw``."""
    out, new_index, space, n = [], [0] * (len(raw) + 1), True, 0
    for i, ch in enumerate(raw):
        new_index[i] = n
        if ch.isspace():
            if not space:
                out.append(" ")
                n, space = n + 1, True
        else:
            out.append(ch)
            n, space = n + 1, False
    new_index[len(raw)] = n
    text = "".join(out)
    stripped, mapped = text.rstrip(), []
    for index, start, end in marks:
        s, e = new_index[start], new_index[len(raw) if end < 0 else end]
        while s < e and s < len(text) and text[s] == " ":
            s += 1
        e = min(e, len(stripped))
        if s < e:
            mapped.append((index, s, e))
    return stripped, mapped


def test_fact_offsets_survive_whitespace_collapsing():
    # Offsets are mapped run by run (a paragraph can be megabytes long): the same as character by character.
    import random

    from docqa.ingest.html_layout import collapse

    rng = random.Random(7)
    for _ in range(3000):
        raw = "".join(rng.choice("ab \n\t\xa0c") for _ in range(rng.randint(0, 14)))
        marks = []
        for index in range(rng.randint(0, 3)):
            start = rng.randint(0, len(raw))
            marks.append((index, start, rng.choice([-1, rng.randint(start, len(raw))])))
        assert collapse(raw, marks) == _collapse_by_character(raw, marks), (raw, marks)
