"""Inline XBRL facts that cannot be trusted, and a batch that one bad file never stops.

The filings are EDGAR-like inline XBRL made here: a cover (dei: facts), two fiscal-year contexts
and an income statement whose figures are ``ix:nonFraction`` facts, with the scale under test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docqa import Engine
from docqa.finance.tables import TaggedFact
from docqa.ingest import html
from docqa.ingest.html import parse_html
from tests.faces.web_helpers import small_pdf

QUESTION = "What was ACME's total revenue in fiscal 2023?"

HEAD = """<?xml version="1.0"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
 xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:dei="http://xbrl.sec.gov/dei/2023"
 xmlns:us-gaap="http://fasb.org/us-gaap/2023" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"><body>
<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:DocumentType" contextRef="fy23">10-K</ix:nonNumeric>
<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="fy23">{company}</ix:nonNumeric>
<ix:nonNumeric name="dei:TradingSymbol" contextRef="fy23">{ticker}</ix:nonNumeric>
{period_end}
<ix:nonNumeric name="dei:DocumentFiscalPeriodFocus" contextRef="fy23">FY</ix:nonNumeric>
</ix:hidden><ix:resources>
<xbrli:context id="fy23"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2023-01-01</xbrli:startDate><xbrli:endDate>{end}</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="fy22"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2022-01-01</xbrli:startDate><xbrli:endDate>2022-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p><p>FORM 10-K</p>
<p>ANNUAL REPORT for the fiscal year ended December 31, 2023</p><p>{company}</p>
<div style="page-break-before:always"></div>
<p>CONSOLIDATED STATEMENTS OF INCOME</p>
"""
PERIOD_END = ('<ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="fy23">December 31, 2023'
              '</ix:nonNumeric>')
ROWS = (("Total revenues", "us-gaap:Revenues", "1,234", "1,100"),
        ("Cost of sales", "us-gaap:CostOfRevenue", "734", "700"),
        ("Operating income", "us-gaap:OperatingIncomeLoss", "500", "400"),
        ("Net income", "us-gaap:NetIncomeLoss", "390", "310"))


def _fact(concept: str, context: str, printed: str, scale: str) -> str:
    return (f'<ix:nonFraction name="{concept}" contextRef="{context}" unitRef="usd" decimals="-6" '
            f'scale="{scale}" format="ixt:num-dot-decimal">{printed}</ix:nonFraction>')


def filing(path: Path, scale: str = "6", company: str = "ACME WIDGETS INC.", ticker: str = "ACME",
           revenue: str = "1,234", end: str = "2023-12-31", period_end: str = PERIOD_END) -> Path:
    """An annual report whose income statement is printed "(in millions)", each figure tagged in ``scale``."""
    rows = ["<tr><td></td><td colspan='6'>Year Ended December 31,</td></tr>",
            "<tr><td>(in millions)</td><td></td><td>2023</td><td></td><td></td><td>2022</td><td></td></tr>"]
    for label, concept, this_year, last_year in ROWS:
        this_year = revenue if concept == "us-gaap:Revenues" else this_year
        rows.append(f"<tr><td>{label}</td><td>$</td><td>{_fact(concept, 'fy23', this_year, scale)}</td><td></td>"
                    f"<td>$</td><td>{_fact(concept, 'fy22', last_year, scale)}</td><td></td></tr>")
    body = (HEAD.format(company=company, ticker=ticker, end=end, period_end=period_end)
            + "<table>" + "".join(rows) + "</table><p>Revenue grew in 2023.</p></body></html>")
    path.write_text(body, encoding="utf-8")
    return path


def _outcomes(report) -> dict[str, object]:
    return {Path(f.path).name: f for f in report.files}


def _stated(text: str) -> float:
    """The dollar amount an answer's text states, in dollars ("$1,234 million" -> 1.234e9)."""
    m = re.search(r"\$\s?([\d,]+(?:\.\d+)?)(?:\s+(thousand|million|billion))?", text)
    assert m, text
    return float(m[1].replace(",", "")) * {None: 1, "thousand": 1e3, "million": 1e6, "billion": 1e9}[m[2]]


def _ask_revenue(tmp_path: Path, scale: str):
    """Index ACME's report tagged in ``scale``, ask for its revenue: (answer, the file's warnings)."""
    path = filing(tmp_path / "acme.htm", scale=scale)
    with Engine.open(tmp_path / "idx", dense=False) as engine:
        outcome = engine.ingest([path]).files[0]
        assert outcome.status == "indexed", outcome.reason
        return engine.ask(QUESTION), outcome.warnings


def assert_text_is_the_figure(answer) -> None:
    """Each figure read off the statement says what the answer's text says: value x scale."""
    read = [f for f in answer.figures if not f.computed]
    assert read, answer
    for figure in read:
        assert figure.value * figure.scale == pytest.approx(_stated(answer.text)), (answer.text, figure)
        assert figure.value == pytest.approx(float(re.sub(r"[^\d.]", "", figure.text)))  # the printed cell


# ------------------------------------------------------------------------------ facts, one by one
@pytest.mark.parametrize("scale", ["400", "-400", "99", "30000000", "6.5", "1e3", "six",
                                   pytest.param("9" * 5000, id="5000-digits")])
def test_a_scale_no_filing_prints_is_rejected(tmp_path, scale):
    parsed = parse_html(filing(tmp_path / "acme.htm", scale=scale))
    assert parsed.facts and all(f.rejected and "-6..12" in f.rejected and f.value is None for f in parsed.facts)


@pytest.mark.parametrize("scale, value", [("-2", 12.34), ("0", 1234), ("3", 1_234_000), ("6", 1_234_000_000),
                                          ("9", 1_234_000_000_000), ("", 1234)])
def test_the_scales_filings_use_are_read_exactly(tmp_path, scale, value):
    parsed = parse_html(filing(tmp_path / "acme.htm", scale=scale))
    revenue = parsed.facts[0]
    assert revenue.value == value and revenue.printed == 1234


def test_an_amount_larger_than_any_filing_prints_is_rejected(tmp_path):
    parsed = parse_html(filing(tmp_path / "acme.htm", revenue="9" * 40))
    revenue = parsed.facts[0]
    assert revenue.value is None and "larger than any amount" in revenue.rejected
    assert all(f.rejected is None for f in parsed.facts[1:])


def test_a_stored_fact_with_a_scale_no_filing_prints_is_no_figure():
    # an index built before such facts were rejected holds them on its cells
    for scale in (-400, 400, 99):
        fact = TaggedFact(value=1234.0, unit="USD", scale=scale)
        assert fact.shown is None and not fact.agrees("millions", "currency")
    assert TaggedFact(value=1_234_000.0, unit="USD", scale=3).agrees("millions", "currency") is False
    assert TaggedFact(value=0.0, unit="USD", scale=0).agrees("millions", "currency")  # "—" in any scale
    assert TaggedFact(value=1.5, unit="USD/shares", scale=0).agrees("millions", "per_share")


# ------------------------------------------------------------------------------ the batch goes on
def test_a_poisoned_scale_is_ignored_and_the_batch_goes_on(tmp_path):
    good = filing(tmp_path / "beta.htm", company="BETA GADGETS INC.", ticker="BETA")
    poisoned = filing(tmp_path / "acme.htm", scale="400")
    undated = filing(tmp_path / "gamma.htm", company="GAMMA TOOLS INC.", ticker="GMMA", end="2023-02-30",
                     period_end="")  # a context ending on no real day, and no period end on the cover
    pdf = small_pdf(tmp_path / "example.pdf")
    with Engine.open(tmp_path / "idx", dense=False) as engine:
        report = engine.ingest([good, poisoned, undated, pdf])
        outcomes = _outcomes(report)
        assert {name: o.status for name, o in outcomes.items()} == {
            "beta.htm": "indexed", "acme.htm": "indexed", "gamma.htm": "indexed", "example.pdf": "indexed"}
        warning = next(w for w in outcomes["acme.htm"].warnings if "inline XBRL" in w)
        assert 'scale="400"' in warning and "-6..12" in warning and "\n" not in warning
        assert not any("inline XBRL" in w for w in outcomes["beta.htm"].warnings)
        assert_text_is_the_figure(engine.ask(QUESTION))


def _crash_on(registrant: str, monkeypatch) -> None:
    """A parser bug that only one filing meets: reading its cover raises."""
    real = html.cover_meta

    def cover_meta(cover, *args, **kwargs):
        if registrant in cover.get("dei:EntityRegistrantName", []):
            raise ValueError("day is out of range for month")
        return real(cover, *args, **kwargs)

    monkeypatch.setattr(html, "cover_meta", cover_meta)


def test_a_file_the_parser_fails_on_fails_alone(tmp_path, monkeypatch):
    _crash_on("CRASH CORP", monkeypatch)
    crash = filing(tmp_path / "crash.htm", company="CRASH CORP", ticker="CRSH")
    good = filing(tmp_path / "beta.htm", company="BETA GADGETS INC.", ticker="BETA")
    with Engine.open(tmp_path / "idx", dense=False) as engine:
        outcomes = _outcomes(engine.ingest([crash, good, small_pdf(tmp_path / "example.pdf")]))
    assert outcomes["beta.htm"].status == outcomes["example.pdf"].status == "indexed"
    failed = outcomes["crash.htm"]
    assert failed.status == "failed" and "ValueError: day is out of range for month" in failed.reason
    assert "\n" not in failed.reason


def test_the_cli_says_some_files_failed(tmp_path, monkeypatch):
    from docqa.faces.cli import app
    from docqa.faces.commands.errors import EXIT_SOME_FAILED

    _crash_on("CRASH CORP", monkeypatch)
    files = [filing(tmp_path / "beta.htm", company="BETA GADGETS INC.", ticker="BETA"),
             filing(tmp_path / "acme.htm", scale="400"),
             filing(tmp_path / "crash.htm", company="CRASH CORP", ticker="CRSH"),
             small_pdf(tmp_path / "example.pdf")]
    result = CliRunner().invoke(app, ["ingest", *map(str, files), "--index", str(tmp_path / "idx"), "--no-dense"])
    assert result.exit_code == EXIT_SOME_FAILED == 3, result.output
    assert "3 indexed, 0 unchanged, 1 failed" in result.output
    failed = [line for line in result.output.splitlines() if line.startswith("failed")]
    assert len(failed) == 1 and "crash.htm" in failed[0] and "ValueError" in failed[0]


# ------------------------------------------------------------------------------ figures and their text
def test_a_negative_scale_beyond_any_filing_answers_without_an_error(tmp_path):
    answer, warnings = _ask_revenue(tmp_path, "-400")
    assert any('scale="-400"' in w for w in warnings)
    assert answer.found, answer.reason
    assert_text_is_the_figure(answer)


def test_a_huge_scale_is_no_figure_of_the_answer(tmp_path):
    answer, warnings = _ask_revenue(tmp_path, "99")
    assert any('scale="99"' in w for w in warnings)
    assert answer.found, answer.reason
    assert_text_is_the_figure(answer)
    assert all(f.scale == 1e6 and f.concept is None for f in answer.figures if not f.computed)


def test_a_fact_in_another_scale_than_its_table_prints_gives_way_to_the_table(tmp_path):
    answer, warnings = _ask_revenue(tmp_path, "3")  # tagged in thousands, printed "(in millions)"
    warning = next(w for w in warnings if "printed unit" in w)
    assert "us-gaap:Revenues tagged in 10^3" in warning and "millions" in warning
    assert answer.found, answer.reason
    assert "million" in answer.text
    assert_text_is_the_figure(answer)


def test_a_fact_in_its_tables_scale_is_the_figure(tmp_path):
    answer, warnings = _ask_revenue(tmp_path, "6")
    assert not any("inline XBRL" in w for w in warnings)
    assert_text_is_the_figure(answer)
    assert any(f.concept and f.concept.startswith("us-gaap:Revenues") for f in answer.figures)
