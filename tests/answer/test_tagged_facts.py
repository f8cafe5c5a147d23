"""The figures answerer and inline XBRL facts: a cell's tagged fact is preferred and its concept shown.

A small inline XBRL 10-K is made here; the Pfizer 10-Q is EDGAR's own (tests/fixtures/filings/html).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from docqa import Engine
from docqa.answer.figures import Located
from docqa.finance.lexicon import load_lexicon
from docqa.finance.periods import Period
from docqa.finance.statements import read_tables
from docqa.finance.tables import StatementTable
from docqa.ingest.parse import parse_pdf
from tests.filings import filing_html

ROOT = Path(__file__).resolve().parents[2]
PFIZER = "pfe-10-q-2023-07-02.html"


def _context(cid: str, start: str, end: str) -> str:
    return (f'<xbrli:context id="{cid}"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier>'
            f'</xbrli:entity><xbrli:period><xbrli:startDate>{start}</xbrli:startDate><xbrli:endDate>{end}'
            "</xbrli:endDate></xbrli:period></xbrli:context>")


def _fact(concept: str, cid: str, text: str) -> str:
    return (f'<ix:nonFraction name="{concept}" contextRef="{cid}" unitRef="usd" decimals="-6" scale="6" '
            f'format="ixt:num-dot-decimal">{text}</ix:nonFraction>')


def _row(label: str, concept: str, now: str, before: str, dollar: bool = False, paren: bool = False) -> str:
    sign = "<td>$</td>" if dollar else "<td></td>"
    o, c = ("(", ")") if paren else ("", "")
    return (f"<tr><td>{label}</td>{sign}<td>{o}{_fact(concept, 'fy23', now)}</td><td>{c}</td>"
            f"{sign}<td>{o}{_fact(concept, 'fy22', before)}</td><td>{c}</td></tr>")


FILING = f"""<?xml version="1.0"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
 xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:dei="http://xbrl.sec.gov/dei/2023"
 xmlns:us-gaap="http://fasb.org/us-gaap/2023" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"><body>
<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:DocumentType" contextRef="fy23">10-K</ix:nonNumeric>
<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="fy23">ACME WIDGETS INC.</ix:nonNumeric>
<ix:nonNumeric name="dei:TradingSymbol" contextRef="fy23">ACME</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="fy23">December 31, 2023</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="fy23">2023</ix:nonNumeric>
</ix:hidden><ix:resources>
{_context("fy23", "2023-01-01", "2023-12-31")}{_context("fy22", "2022-01-01", "2022-12-31")}
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p><p>FORM 10-K</p><p>ACME WIDGETS INC.</p>
<p>Annual report for the fiscal year ended December 31, 2023.</p>
<div style="page-break-before:always"></div>
<p>ACME WIDGETS INC.</p><p>CONSOLIDATED STATEMENTS OF OPERATIONS</p><p>(in millions)</p>
<table>
<tr><td></td><td colspan="6">Year Ended December 31,</td></tr>
<tr><td></td><td colspan="3">2023</td><td colspan="3">2022</td></tr>
{_row("Total revenue", "us-gaap:Revenues", "1,234", "1,000", dollar=True)}
{_row("Cost of revenue", "us-gaap:CostOfRevenue", "600", "550", paren=True)}
{_row("Operating income", "us-gaap:OperatingIncomeLoss", "634", "450")}
{_row("Income tax expense", "us-gaap:IncomeTaxExpenseBenefit", "313", "170", paren=True)}
{_row("Net income", "us-gaap:NetIncomeLoss", "321", "280", dollar=True)}
</table>
</body></html>"""


@pytest.fixture(scope="module")
def acme(tmp_path_factory):
    folder = tmp_path_factory.mktemp("acme")
    path = folder / "acme-10-k.htm"
    path.write_text(FILING, encoding="utf-8")
    engine = Engine.open(folder / "index", dense=False)
    outcome = engine.ingest([path]).files[0]
    assert outcome.status == "indexed", outcome.reason
    yield engine, folder / "index"
    engine.close()


def test_the_answer_shows_the_tagged_concept(acme):
    engine, _ = acme
    answer = engine.ask("What was ACME's total revenue in FY2023?")
    assert answer.found and answer.verification == "verified", answer.text
    assert "tagged us-gaap:Revenues, FY2023, USD" in answer.text
    (figure,) = answer.figures
    assert (figure.value, figure.unit, figure.scale, figure.page) == (1234, "USD", 1e6, 2)
    assert figure.concept == "us-gaap:Revenues, FY2023, USD"


def test_a_cost_printed_subtractive_is_its_size(acme):
    # "(600)" on the statement, a positive concept value (a cost): the answer is the cost, 600, and
    # shows the cell as printed.
    engine, _ = acme
    answer = engine.ask("What was ACME's cost of revenue in FY2023?")
    (figure,) = answer.figures
    assert figure.value == 600 and figure.concept == "us-gaap:CostOfRevenue, FY2023, USD"
    assert figure.text == "(600)" and "as printed: (600)" in answer.text
    assert answer.verification == "verified", answer.text


def test_the_cli_prints_the_concept(acme):
    from docqa.faces.cli import app as cli

    _, index = acme
    result = CliRunner().invoke(cli, ["ask", "What is ACME's FY2023 net income?", "--index", str(index)])
    assert result.exit_code == 0, result.output
    assert "us-gaap:NetIncomeLoss, FY2023, USD" in result.output


def _located(engine, label: str, column: int = 0, **fact_changes) -> Located:
    doc = engine.document("acme-10-k.htm")
    table = engine.page(doc.file_name, 2).tables[0]
    row = next(r for r in table.rows if r.label == label)
    cell = row.cells[column]
    if fact_changes:
        cell = cell.model_copy(update={"fact": cell.fact.model_copy(update=fact_changes)})
    return Located(metric=load_lexicon().metric("revenue"), value=cell.value, cell=cell, row=row, table=table,
                   document=doc.file_name, document_id=doc.id, period=Period(2023), quote=row.label)


def test_a_fact_that_is_not_the_printed_figure_is_not_used(acme):
    engine, _ = acme
    good = _located(engine, "Total revenue")
    assert good.cell.concept == "us-gaap:Revenues" and good.fact is not None
    assert good.figure().concept == "us-gaap:Revenues, FY2023, USD"
    for changes in ({"value": 1_235_000_000}, {"end": "2022-12-31"}, {"start": "2023-10-01"}):
        odd = _located(engine, "Total revenue", **changes)
        assert odd.fact is None, changes
        figure = odd.figure()
        assert figure.concept is None and figure.value == 1234 and figure.unit == "USD"


def test_pdf_tables_are_stored_without_fact_keys():
    page = parse_pdf(ROOT / "samples" / "AMAZON_2017_10K.pdf", ocr=False).pages[37]
    stored = [t.model_dump(mode="json") for t in read_tables(page)]
    cells = [c for t in stored for r in t["rows"] for c in r["cells"]]
    assert cells and not any({"concept", "context", "fact"} & set(c) for c in cells)
    assert StatementTable.model_validate(stored[0]).rows[0].cells[0].fact is None


def test_pfizer_revenue_is_read_off_the_tagged_income_statement():
    """MD&A's untagged "analysis of the statements of income" no longer outranks the statement."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder, Engine.open(folder, dense=False) as engine:
        assert engine.ingest([filing_html(PFIZER)]).files[0].status == "indexed"
        answer = engine.ask("What was Pfizer's total revenue for the quarter ended July 2, 2023?")
        assert answer.verification == "verified", answer.text
        (figure,) = answer.figures
        assert figure.value == 12734 and figure.concept == "us-gaap:Revenues, Q2 2023, USD"
        page = engine.page(PFIZER, figure.page)
        assert page.info and page.info.statement and page.info.statement.value == "income"
        assert "tagged us-gaap:Revenues, Q2 2023, USD" in answer.text
