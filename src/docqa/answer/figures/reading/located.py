"""A line item read off a statement: the row, the cell of the period's column, and its citation."""

from __future__ import annotations

from dataclasses import dataclass

from docqa.answer.figures.reading.sources import Source, has_tags
from docqa.answer.statement_lines import printed_line
from docqa.finance.lexicon import Metric
from docqa.finance.lineitems import LineItemMatch, find_line_items
from docqa.finance.periods import Period
from docqa.finance.rowlookup import entity_column
from docqa.finance.tables import Cell, Row, StatementTable, TaggedFact
from docqa.finance.text import clean_label, expense_amount, stems
from docqa.types import Citation, Figure, StatementKind


# The unit a row's own heading gives its counts ("Connections (‘000):" in a table "(dollars in millions)"):
# set where the row is read, and said in the answer ("6,541 thousand")
COUNTED_IN_THOUSANDS = "('000)"

@dataclass
class Located:
    """A line item's figure for one period, as printed: the cell, its row and table, and where."""

    metric: Metric
    value: float               # in the table's unit, outflows made positive
    cell: Cell
    row: Row
    table: StatementTable
    document: str
    document_id: str
    period: Period
    quote: str                 # the printed line holding the cell, as stored

    @classmethod
    def at(cls, source: Source, metric: Metric, value: float, cell: Cell, row: Row, table: StatementTable,
           period: Period) -> Located:
        """The cell read from ``source``, quoted by the stored line that prints its row."""
        page = source.pages.get(table.page)
        quote = printed_line(page, row) if page else row.label
        return cls(metric=metric, value=value, cell=cell, row=row, table=table, document=source.document,
                   document_id=source.document_id, period=period, quote=quote)

    @property
    def year(self) -> int:
        return self.period.fiscal_year

    @property
    def fact(self) -> TaggedFact | None:
        """The inline XBRL fact tagged on the cell (HTML filings), when it is the figure read: the same
        number as printed, for the column's period (end date within a week, same length)."""
        fact, concept = self.cell.fact, self.cell.concept
        if fact is None or concept is None or fact.shown is None or self.cell.value is None:
            return None
        if not fact.agrees(self.table.unit, self.row.kind):
            return None  # tagged in another scale than the table prints: the text and figure say the table's
        if abs(fact.shown - abs(self.cell.value)) > 1e-6 * max(1.0, fact.shown):
            return None  # not the printed number: the cell reading stands
        column = next((c for c in self.table.columns if c.index == self.cell.column), None)
        if column is not None and fact.end:
            if column.period_end and _days_apart(column.period_end, fact.end) > 7:
                return None
            if column.months and fact.start and not fact.instant and abs(
                    _days_apart(fact.start, fact.end) / 30.44 - column.months) > 1:
                return None
        return fact

    @property
    def concept(self) -> str | None:
        """What the tagged fact is, as an analyst reads it: "us-gaap:Revenues, Q2 2023, USD"."""
        fact = self.fact
        if fact is None:
            return None
        members = "".join(f" [{member}]" for _, member in fact.dimensions)
        period = f"Q{self.period.quarter} {self.period.fiscal_year}" if self.period.quarter else f"FY{self.year}"
        return ", ".join(x for x in (f"{self.cell.concept}{members}", period, fact.unit) if x)

    def figure(self) -> Figure:
        value, unit, scale = self.value, _unit(self.metric), self.table.scale or 1.0
        fact = self.fact
        if fact is not None:
            # The tagged fact is preferred: its number (signed as the statement prints it, which is
            # how formulas read it), its unit and, for amounts, its own scale.
            value = -fact.shown if value < 0 else fact.shown
            if self.metric.kind in ("currency", "per_share", "shares"):
                unit = {"USD/shares": "USD/share", "pure": unit}.get(fact.unit or "", fact.unit) or unit
                if fact.scale is not None:
                    scale = float(10 ** fact.scale)
        return Figure(
            name=self.metric.label, value=value, text=self.cell.raw, unit=unit,
            scale=scale, period=self.period.short, document=self.document,
            page=self.table.page, bbox=self.cell.bbox, concept=self.concept,
        )

    def citation(self) -> Citation:
        return Citation(document=self.document, document_id=self.document_id, page=self.table.page,
                        quote=self.quote, boxes=(self.row.bbox,))


def locate(metric: Metric, sources: list[Source], period: Period | int, asked: str = "") -> Located | None:
    """The metric's value for a period: the best-matching row with a cell in that period's column.
    ``asked``: the question's own words for it; a row of the best table printed in those words is
    that line ("total equity" is "Total equity", not the lexicon's preferred "Total shareholders' equity")."""
    if isinstance(period, int):
        period = Period(period)
    stock = is_stock(metric)
    for source in sources:
        matches = printed_as_asked(find_line_items(source.tables, metric), asked)
        if metric.statement is not None:
            # The metric's own statement first, then the other primary statements, then notes and
            # MD&A tables: a joint venture's "Total net sales" in a note is not the company's revenue.
            # In an inline XBRL filing every figure of a statement is tagged: a "statement" table
            # without tags is an excerpt (MD&A's analysis of the income statement), ranked as one.
            def kind(table: StatementTable) -> StatementKind | None:
                return table.statement if not source.tagged or has_tags(table) else None

            matches.sort(key=lambda m: 0 if kind(m.table) == metric.statement
                         else 1 if kind(m.table) is not None else 2)
        for match in matches:
            if another_kind_of_figure(stock, match.table, match.row.label):
                continue
            words = asked or metric.label  # of columns of one period, the one whose header names it
            column = source.column(match.table, period, stock,
                                   choose=lambda cols, m=match: entity_column(words, m.row, m.table, cols))
            cell = match.row.cell(column.index) if column is not None else None
            if cell is None or cell.value is None or not states_an_amount(cell, match.row, match.table):
                continue
            value = (abs(cell.value) if metric.outflow
                     else expense_amount(match.row.label, cell.value) if metric.signed_by_label else cell.value)
            printed = clean_label(match.row.label)
            # (Not a "loss" line's negative figure: "Operating loss: -8,696,876" reads as a gain.)
            if asked and stems(printed) == stems(asked) != stems(metric.label) \
                    and not (value < 0 and "loss" in printed.lower()):
                return Located.at(source, metric.model_copy(update={"label": printed}), value, cell, match.row,
                                  match.table, period)  # named as printed and asked ("Total equity")
            return Located.at(source, metric, value, cell, match.row, match.table, period)
    return None


def printed_as_asked(matches: list[LineItemMatch], asked: str) -> list[LineItemMatch]:
    words = stems(asked)
    if not matches or not words:
        return matches
    best = matches[0].table
    exact = [m for m in matches if m.table is best and stems(clean_label(m.row.label)) == words]
    return exact + [m for m in matches if m not in exact] if exact else matches


def states_an_amount(cell: Cell, row: Row, table: StatementTable) -> bool:
    """A dash is zero only where the table prints amounts: in a table of growth rates and percentage
    points with no unit ("FLNA  8 %  (0.5)  —  7 %"), a dash is no amount of anything."""
    if any(ch.isdigit() for ch in cell.raw):
        return True
    return table.unit is not None or row.kind != "currency" or any(
        any(sign in c.raw for sign in "$€£¥") for c in row.cells)


_FLOWS_OR_STOCKS = (StatementKind.BALANCE, StatementKind.INCOME, StatementKind.CASH_FLOW, StatementKind.COMPREHENSIVE)


def is_stock(metric: Metric) -> bool | None:
    """A balance (True), a flow (False), or either (None: the lexicon names no statement)."""
    return metric.statement == StatementKind.BALANCE if metric.statement is not None else None


def another_kind_of_figure(stock: bool | None, table: StatementTable, label: str) -> bool:
    """A balance read off a flow statement (its row there is a change; "cash at end of year"
    excepted), or a flow off the balance sheet: another measure."""
    return (stock is not None and table.statement in _FLOWS_OR_STOCKS
            and (table.statement == StatementKind.BALANCE) != stock and "end of" not in label.lower())


def _days_apart(a: str, b: str) -> int:
    from datetime import date

    try:
        return abs((date.fromisoformat(a[:10]) - date.fromisoformat(b[:10])).days)
    except ValueError:
        return 0


def _unit(metric: Metric) -> str | None:
    return {"currency": "USD", "per_share": "USD/share", "shares": "shares", "percent": "%"}.get(metric.kind)
