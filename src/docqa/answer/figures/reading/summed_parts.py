"""A line item the filer prints only in parts: "Cost of products" and "Cost of services" (Boeing),
"Cost of services" and "Cost of wireless equipment" (Verizon), with no cost-of-revenue line.

The parts are adjacent sibling rows of one table on the item's own statement, each matching a part
form the lexicon declares ("cost of *": the heading words they share). Their sum is the item, shown
as the printed figures added up; a block holding a total is left to the row lookup, and parts
printed with mixed signs are no sum at all.
"""

from __future__ import annotations

from docqa.answer.figures.reading.evaluated import Evaluated, read_kind
from docqa.answer.figures.reading.located import Located
from docqa.answer.figures.reading.printed_rows import printed_metric
from docqa.answer.figures.reading.sources import Source
from docqa.finance import formulas as F
from docqa.finance.lexicon import Metric
from docqa.finance.lineitems import find_line_items
from docqa.finance.periods import Period
from docqa.finance.tables import Row, StatementTable
from docqa.finance.text import stems
from docqa.types import StatementKind

MIN_PARTS = 2
PART_SCORE = 0.9        # a part form matched whole (a wildcard match scores 0.97), not loosely
INDENT_SLACK = 3.0      # points: siblings print at one indent


def summed_parts(metric: Metric, sources: list[Source], period: Period) -> Evaluated | None:
    """The metric as the sum of its printed parts for ``period``, or None."""
    if metric.statement is None or metric.kind != "currency":
        return None
    stock = metric.statement == StatementKind.BALANCE
    for source in sources:
        for table, rows in part_blocks(source.tables, metric):
            column = source.column(table, period, stock)
            cells = [row.cell(column.index) if column is not None else None for row in rows]
            if any(c is None or c.value is None for c in cells):
                continue
            values = [c.value for c in cells]  # type: ignore[union-attr]
            if all(v <= 0 for v in values):
                values = [abs(v) for v in values]  # costs printed in parentheses: amounts
            elif any(v < 0 for v in values):
                continue
            used = [Located.at(source, printed_metric(row, table), value, cell, row, table, period)  # type: ignore[arg-type]
                    for row, cell, value in zip(rows, cells, values)]
            return Evaluated(metric.label, sum(values), read_kind(metric.kind), used,
                             " + ".join(u.metric.label.lower() for u in used),
                             " + ".join(F.fmt_number(v) for v in values), True, period, table.unit)
    return None


def part_blocks(tables: list[StatementTable], metric: Metric) -> list[tuple[StatementTable, list[Row]]]:
    """Blocks of adjacent rows that together print ``metric``, in table order (only a metric the
    lexicon declares parts for)."""
    out: list[tuple[StatementTable, list[Row]]] = []
    if not metric.parts:
        return out
    by_form = _by_part_form(tables, metric)
    for table in tables:
        if table.statement != metric.statement:
            continue
        rows = [r for r in table.rows if any(c.value is not None for c in r.cells)]
        for block in _runs(rows, by_form.get(id(table), set())):
            if len(block) >= MIN_PARTS and not any(_is_total(r) for r in block) and _siblings(block):
                out.append((table, block))
    return out


def _by_part_form(tables: list[StatementTable], metric: Metric) -> dict[int, set[int]]:
    """Per table, the ids of rows matching one of the metric's part forms."""
    forms = Metric(key=f"{metric.key}_part", label=metric.label, statement=metric.statement, kind=metric.kind,
                   prints=metric.parts, exclude=metric.exclude)
    out: dict[int, set[int]] = {}
    for match in find_line_items(tables, forms):
        if match.score >= PART_SCORE and match.table.statement == metric.statement:
            out.setdefault(id(match.table), set()).add(id(match.row))
    return out


def _runs(rows: list[Row], matching: set[int]) -> list[list[Row]]:
    """Maximal runs of adjacent matching rows."""
    runs: list[list[Row]] = [[]]
    for row in rows:
        if id(row) in matching:
            runs[-1].append(row)
        elif runs[-1]:
            runs.append([])
    return [r for r in runs if r]


def _is_total(row: Row) -> bool:
    return stems(row.label)[:1] == ("total",)


def _siblings(rows: list[Row]) -> bool:
    return max(r.indent for r in rows) - min(r.indent for r in rows) <= INDENT_SLACK and all(
        r.kind == "currency" for r in rows)
