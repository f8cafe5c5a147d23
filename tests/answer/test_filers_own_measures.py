"""A measure with a textbook formula that the filer defines and prints itself (free cash flow, net
debt, working capital, EBITDA) is read as printed when the question names it, and computed as the
question says when the question defines it (tables as PepsiCo's and Netflix's 10-Ks print them)."""

from __future__ import annotations

from docqa.answer.figures.reading.asked import asked_measures
from docqa.answer.figures.reading.composition import compose_measures
from docqa.answer.figures.reading.printed_rows import labelled_only_as
from docqa.answer.figures.reading.sources import Source
from docqa.finance.periods import Period
from docqa.finance.tables import Cell, Column, Row, StatementTable
from docqa.plan import build_plan
from docqa.types import StatementKind

BOX = (0.0, 0.0, 1.0, 1.0)


def _row(label: str, *values: float, percent: bool = False) -> Row:
    cells = tuple(Cell(value=v, raw=f"{v:g} %" if percent else f"({-v:,.0f})" if v < 0 else f"{v:,.0f}", column=k,
                       bbox=BOX) for k, v in enumerate(values))
    top = float(len(label))  # a row of its own on the page: one line is counted once in a formula
    return Row(label=label, cells=cells, bbox=(0.0, top, 1.0, top + 1), indent=0)


def _table(title: str, rows, page: int, statement=None, year: int = 2021) -> StatementTable:
    columns = (Column(index=0, header=str(year), fiscal_year=year, period="year", x0=0, x1=1),
               Column(index=1, header=str(year - 1), fiscal_year=year - 1, period="year", x0=1, x1=2))
    return StatementTable(page=page, title=title, statement=statement, unit="millions", columns=columns,
                          rows=tuple(rows), bbox=BOX)


def _pepsico() -> Source:
    cash_flows = _table("Consolidated Statement of Cash Flows", [
        _row("Net Cash Provided by Operating Activities", 11616, 10613),
        _row("Capital spending", -4625, -4240),
        _row("Sales of property, plant and equipment", 166, 55)], page=63, statement=StatementKind.CASH_FLOW)
    free = _table("Free Cash Flow", [
        _row("Net cash provided by operating activities", 11616, 10613),
        _row("Capital spending", -4625, -4240),
        _row("Sales of property, plant and equipment", 166, 55),
        _row("Free cash flow, non-GAAP measure", 7157, 6428)], page=53)
    return Source("PEPSICO_2021_10K.pdf", "pep", [cash_flows, free], {}, names=("PepsiCo, Inc.",))


def _value(question: str, source: Source, year: int = 2021):
    plan = build_plan(question, [])
    asked = asked_measures(plan.reading)
    compose_measures(plan, asked, frozenset({"pepsico"}), "")
    for measure in asked.measures:
        value = measure.evaluate([source], Period(year))
        if value is not None:
            return value
    return None


def test_a_label_names_the_measure_give_or_take_the_words_that_mark_it_non_gaap():
    names = ("Free cash flow",)
    assert labelled_only_as("Free cash flow, non-GAAP measure", names)
    assert labelled_only_as("Non-GAAP free cash flow", names)
    assert labelled_only_as("Net debt (non-GAAP measure)", ("Net debt",))
    assert not labelled_only_as("Adjusted free cash flow", names)       # another measure
    assert not labelled_only_as("Free cash flow conversion", names)
    assert not labelled_only_as("Non-GAAP", names)


def test_a_measure_named_is_the_filers_printed_line_not_the_textbook_formula():
    value = _value("What was PepsiCo's free cash flow in 2021?", _pepsico())
    assert value is not None and value.value == 7157 and not value.computed   # 11,616 - 4,625 would be 6,991
    assert "Free cash flow" in value.label


def test_a_measure_the_question_defines_is_computed_as_defined():
    value = _value("What was PepsiCo's free cash flow in 2021, taking free cash flow as net cash provided by "
                   "operating activities minus capital spending?", _pepsico())
    assert value is not None and value.computed and round(value.value) == 6991


def test_without_a_printed_line_the_formula_is_shown():
    source = _pepsico()
    source = Source(source.document, source.document_id, [source.tables[0]], {}, names=source.names)
    value = _value("What was PepsiCo's free cash flow in 2021?", source)
    assert value is not None and value.computed and round(value.value) == 6991


def test_a_measures_own_line_keeps_its_sign():
    # Netflix prints its free cash flow in the cash-flow table's style, in brackets: it was negative
    flows = _table("Free cash flow reconciliation", [
        _row("Net cash used in operating activities", -1785948, -1473984),
        _row("Purchases of property and equipment", -173302, -107653),
        _row("Free cash flow", -2019659, -1659755)], page=29, statement=StatementKind.CASH_FLOW, year=2017)
    source = Source("NETFLIX_2017_10K.pdf", "nflx", [flows], {}, names=("Netflix, Inc.",))
    value = _value("What was Netflix's free cash flow in 2017?", source, 2017)
    assert value is not None and value.value == -2019659 and not value.computed


def test_the_filers_own_figure_asked_is_not_found_where_the_filer_prints_none():
    source = _pepsico()
    statement_only = Source(source.document, source.document_id, [source.tables[0]], {}, names=source.names)
    asked = "What free cash flow did PepsiCo report for 2021, as reported by the company?"
    assert _value(asked, statement_only) is None               # computed is not what PepsiCo reported
    assert _value(asked, _pepsico()).value == 7157


def test_a_printed_figure_the_formula_gives_to_the_digits_printed_is_computed_more_precisely():
    flows = _table("Consolidated Statement of Cash Flows", [
        _row("Net Cash Provided by Operating Activities", 11616, 10613),
        _row("Capital spending", -4625, -4240)], page=63, statement=StatementKind.CASH_FLOW)
    free = _table("Free Cash Flow", [_row("Free cash flow", 6991, 6373)], page=53)
    source = Source("PEPSICO_2021_10K.pdf", "pep", [flows, free], {}, names=("PepsiCo, Inc.",))
    value = _value("What was PepsiCo's free cash flow in 2021?", source)
    assert value is not None and value.computed and round(value.value) == 6991


def test_a_measure_printed_with_another_figure_on_each_part_page_is_no_companys():
    # a bank prints "Return on equity" on each line of business's page, each its own
    pages = [_table(f"{name} results", [_row("Return on equity", pct, pct - 1, percent=True)], page=20 + k)
             for k, (name, pct) in enumerate([("Consumer Banking", 38.0), ("Investment Bank", 15.0)])]
    rows = [_row("Net income", 14472, 12000), _row("Total stockholders' equity", 312516, 290000)]
    statements = _table("Consolidated balance sheets and income", rows, page=90, statement=StatementKind.BALANCE)
    source = Source("BANK_2021_10K.pdf", "bank", [*pages, statements], {}, names=("A Bank",))
    value = _value("What was the bank's return on equity in 2021?", source)
    assert value is None or value.computed        # never 38 % or 15 %, a part's
    company = _table("Financial highlights", [_row("Return on equity", 21.0, 18.0, percent=True)], page=3)
    printed = _value("What was the bank's return on equity in 2021?",
                     Source("BANK_2021_10K.pdf", "bank", [company, statements], {}, names=("A Bank",)))
    assert printed is not None and printed.value == 21.0 and not printed.computed
