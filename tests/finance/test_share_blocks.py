"""A block of a table whose first row prints "%" is a block of shares down to the next "$" or heading
(Coca-Cola's capital expenditures by segment: "$ 1,675", then "4.8%", "3.3", "3.0" ...), and a rate
among a statement's amounts starts no such block."""

from __future__ import annotations

from docqa.finance.tables import Cell, Column, Row, StatementTable, under_a_share
from docqa.finance.text import stem

BOX = (0.0, 0.0, 1.0, 1.0)


def _table(rows: list[tuple[str, str, str | None]]) -> StatementTable:
    return StatementTable(page=1, title="", statement=None, unit="millions", bbox=BOX,
                          columns=(Column(index=0, header="2017", fiscal_year=2017, x0=0, x1=1),),
                          rows=tuple(Row(label=label, section=section, indent=0, bbox=BOX,
                                         cells=(Cell(value=float(raw.strip("$% ()").replace(",", "")), raw=raw, column=0,
                                                     bbox=BOX),)) for label, raw, section in rows))


def test_bare_figures_after_a_first_percentage_are_shares():
    table = _table([("Capital expenditures", "$ 1,675", None), ("Europe, Middle East & Africa", "4.8%", None),
                    ("Latin America", "3.3", None), ("Asia Pacific", "3.0", None)])
    rows = table.rows
    assert not under_a_share(table, rows[0], 0)
    assert under_a_share(table, rows[2], 0) and under_a_share(table, rows[3], 0)


def test_a_rate_among_a_statements_amounts_starts_no_block():
    table = _table([("Revenue", "$ 10,000", None), ("Income taxes", "1,000", None), ("Effective tax rate", "21.0%", None),
                    ("Net income", "3,762", None)])
    assert not under_a_share(table, table.rows[3], 0)


def test_a_new_heading_ends_the_block():
    table = _table([("Growth", "4.0%", "Sales growth:"), ("Europe", "2.0", "Sales growth:"),
                    ("Europe", "1,200", "Net sales:")])
    assert under_a_share(table, table.rows[1], 0)
    assert not under_a_share(table, table.rows[2], 0)


def test_plural_es_after_x_ch_sh_goes_with_the_singular():
    assert stem("taxes") == stem("tax") and stem("branches") == stem("branch")
    assert stem("expenses") == stem("expense")


def test_shares_each_marked_leave_the_amounts_between_them_amounts():
    table = _table([("Americas", "$ 4,216.5", None), ("Percentage of total revenue", "58%", None),
                    ("EMEA", "1,985.1", None), ("Percentage of total revenue", "27%", None), ("APAC", "1,099.9", None)])
    assert not under_a_share(table, table.rows[2], 0) and not under_a_share(table, table.rows[4], 0)
