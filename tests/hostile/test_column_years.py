"""A column's year: a heading row "Year Ended December 31, 2023 | 2022" gives 2023 and 2022, and a
tagged inline XBRL fact's period wins over the printed column's, never a verified figure of the
other year.

The filings are EDGAR-like inline XBRL 10-Ks made here: a cover (dei: facts), a context for each
fiscal year and an income statement whose figures are ``ix:nonFraction`` facts (the markup the
shared EDGAR filings use: ``$`` and the figure in cells of their own, headings spanning three cells).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docqa.engine import Engine
from docqa.finance.statements import read_tables
from tests.finance.conftest import line, page

COMPANY = "ACME WIDGETS INC."
QUESTION = "What was Acme Widgets' total revenue in fiscal {year}?"
REVENUE = {2023: "5,100", 2022: "4,200"}
ROWS = (("Total revenue", "us-gaap:Revenues", REVENUE[2023], REVENUE[2022]),
        ("Cost of revenue", "us-gaap:CostOfRevenue", "3,000", "2,600"),
        ("Gross profit", "us-gaap:GrossProfit", "2,100", "1,600"),
        ("Operating income", "us-gaap:OperatingIncomeLoss", "1,200", "800"),
        ("Net income", "us-gaap:NetIncomeLoss", "1,000", "650"))

# One heading row, the first heading so long it is set over the labels (or in the label cell itself).
HEADINGS = {
    "label cell, then one year": '<tr><td>Year Ended December 31, 2023</td><td colspan="3">2022</td></tr>',
    "label cell, an empty column": ('<tr><td>Year Ended December 31, 2023</td><td colspan="3"></td>'
                                    '<td colspan="3">2022</td></tr>'),
    "spanning the labels": '<tr><td colspan="4">Year Ended December 31, 2023</td><td colspan="3">2022</td></tr>',
    "over the figures": '<tr><td></td><td colspan="3">Year Ended December 31, 2023</td><td colspan="3">2022</td></tr>',
}
PLAIN = HEADINGS["over the figures"]


def _context(cid: str, year: int) -> str:
    return (f'<xbrli:context id="{cid}"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001'
            f'</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:startDate>{year}-01-01</xbrli:startDate>'
            f'<xbrli:endDate>{year}-12-31</xbrli:endDate></xbrli:period></xbrli:context>')


def _fact(concept: str, context: str, printed: str) -> str:
    return (f'<ix:nonFraction name="{concept}" contextRef="{context}" unitRef="usd" decimals="-6" scale="6" '
            f'format="ixt:num-dot-decimal">{printed}</ix:nonFraction>')


def filing(path: Path, heading: str = PLAIN, tagged: tuple[str, str] = ("fy2023", "fy2022"),
           revenue_tags: tuple[str, str] | None = None) -> Path:
    """The 10-K: ``heading`` over the income statement, the first column's figures tagged with
    context ``tagged[0]`` and the second's with ``tagged[1]`` (the revenue row's with ``revenue_tags``)."""
    rows = []
    for label, concept, first, second in ROWS:
        left, right = revenue_tags if revenue_tags and concept == "us-gaap:Revenues" else tagged
        rows.append(f"<tr><td>{label}</td><td>$</td><td>{_fact(concept, left, first)}</td><td></td>"
                    f"<td>$</td><td>{_fact(concept, right, second)}</td><td></td></tr>")
    path.write_text(f"""<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
 xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:dei="http://xbrl.sec.gov/dei/2023"
 xmlns:us-gaap="http://fasb.org/us-gaap/2023" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"><body>
<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:DocumentType" contextRef="fy2023">10-K</ix:nonNumeric>
<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="fy2023">{COMPANY}</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="fy2023">December 31, 2023</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="fy2023">2023</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalPeriodFocus" contextRef="fy2023">FY</ix:nonNumeric>
</ix:hidden><ix:resources>{_context("fy2023", 2023)}{_context("fy2022", 2022)}
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p><p>FORM 10-K</p><p>{COMPANY}</p>
<p>Annual report for the fiscal year ended December 31, 2023.</p>
<div style="page-break-after:always"></div>
<p>{COMPANY}</p><p>CONSOLIDATED STATEMENTS OF INCOME</p><p>(In millions)</p>
<table>{heading}{"".join(rows)}</table>
<div style="page-break-after:always"></div><p>Other matters.</p>
</body></html>""", encoding="utf-8")
    return path


def answers(tmp_path: Path, path: Path) -> dict[int, object]:
    with Engine.open(tmp_path / "idx", dense=False) as engine:
        report = engine.ingest([path])
        assert report.indexed, report.files
        return {year: engine.ask(QUESTION.format(year=year)) for year in (2022, 2023)}


def _figure_of(answer) -> str | None:
    return answer.figures[0].text if answer.found and answer.figures else None


@pytest.mark.parametrize("heading", sorted(HEADINGS))
def test_a_one_row_heading_gives_each_column_its_year(tmp_path, heading):
    got = answers(tmp_path, filing(tmp_path / "acme.htm", heading=HEADINGS[heading]))
    for year, other in ((2022, 2023), (2023, 2022)):
        answer = got[year]
        assert REVENUE[other] not in answer.text, (heading, year, answer.text)
        assert answer.found and _figure_of(answer) == f"$ {REVENUE[year]}", (heading, year, answer.text)
        assert answer.verification == "verified"


def test_the_tagged_period_wins_over_the_printed_column(tmp_path):
    # Printed "2023 | 2022", tagged the other way round: each column is the year its facts state.
    got = answers(tmp_path, filing(tmp_path / "acme.htm", tagged=("fy2022", "fy2023")))
    for year, printed_as in ((2022, 2023), (2023, 2022)):
        answer = got[year]
        assert _figure_of(answer) in (f"$ {REVENUE[printed_as]}", None), (year, answer.text)
        assert f"$ {REVENUE[year]}" != _figure_of(answer), (year, answer.text)


def test_a_figure_tagged_with_another_year_answers_for_neither(tmp_path):
    # The 2022 column's revenue is tagged FY2023: not a verified FY2022 figure (nor the 2023 one).
    got = answers(tmp_path, filing(tmp_path / "acme.htm", revenue_tags=("fy2023", "fy2023")))
    answer = got[2022]
    assert not (answer.found and answer.verification == "verified" and REVENUE[2022] in answer.text), answer.text
    assert REVENUE[2023] not in answer.text, answer.text
    assert _figure_of(got[2023]) == f"$ {REVENUE[2023]}", got[2023].text


def test_a_pdf_row_of_one_heading_and_a_year_reads_both_years():
    # The same heading row as a PDF prints it: the first heading starts over the labels.
    p = page(
        line(100, ("CONSOLIDATED STATEMENTS OF INCOME", 40)),
        line(130, ("Year Ended December 31, 2023", 200), ("2022", 426)),
        line(145, ("Total revenue", 40), ("$", 330), ("5,100", 360), ("$", 400), ("4,200", 425)),
        line(160, ("Cost of revenue", 40), ("3,000", 360), ("2,600", 425)),
        line(175, ("Net income", 40), ("1,000", 360), ("650", 434)),
    )
    tables = read_tables(p)
    assert tables, [l.text for l in p.lines]
    table = tables[0]
    assert [c.fiscal_year for c in table.columns] == [2023, 2022], [(c.header, c.fiscal_year) for c in table.columns]
    revenue = next(r for r in table.rows if r.label == "Total revenue")
    assert table.value(revenue, 2022).raw.endswith("4,200") and table.value(revenue, 2023).raw.endswith("5,100")
