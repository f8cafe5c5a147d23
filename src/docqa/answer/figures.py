"""The figures answerer: read line items off statement tables and compute formulas in code.

A question that names a metric ("capital expenditure") or a formula ("fixed asset turnover")
is answered from the tables read at ingest: the row that prints the metric, the column of the
fiscal period asked, the cell's box on the page. Formulas take their inputs the same way (the
year before as well, where the convention averages two year-ends). Every input is cited with
the printed row it came from; the formula is shown with the inputs substituted.

What the question asks is built as a *measure*: a line item, a named formula, a line item as a
share of another ("net earnings as a percent of sales"), or two of them combined in the
question's own words ("EBITDA less capex", "fixed assets / total assets"). A measure is then
evaluated for the periods asked: a fiscal year, or a quarter ("Q2 of FY2024"), read from the
column that reports that period (a quarter's three months, a balance at the quarter's end),
with each filing's fiscal calendar mapping printed dates to fiscal periods. Over periods a
measure can be averaged, grown, compounded, or judged (yes/no: up, down, positive, healthy,
stable, capital-intensive, high-growth).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from docqa.answer.intent import asks_why
from docqa.answer.statement_lines import largest_line, line_asked, printed_line
from docqa.finance import formulas as F
from docqa.finance.lexicon import FormulaDef, Metric, MetricMatch, load_lexicon
from docqa.finance import compose as C
from docqa.finance.lineitems import find_line_items
from docqa.finance.rowlookup import entity_column, find_rows
from docqa.finance.text import clean_label, stems
from docqa.finance.periods import FiscalCalendar, Period, asked_periods
from docqa.finance.tables import Cell, Row, StatementTable, TaggedFact
from docqa.search.query import QueryPlan
from docqa.store.base import Store, StoredPage
from docqa.types import Citation, DocType, Draft, EvidencePage, Figure, StatementKind

MAX_DOCUMENTS = 2     # the evidence's leading filings; beyond them the question is elsewhere


# ---------------------------------------------------------------------------------- sources
@dataclass
class Source:
    """One filing's statement tables, and how to read its columns as fiscal periods."""

    document: str
    document_id: str
    tables: list[StatementTable]
    pages: dict[int, StoredPage]
    calendar: FiscalCalendar | None = None
    quarterly: bool = False          # a 10-Q or an earnings release: quarter and year-to-date columns
    fiscal_quarter: int | None = None
    fiscal_year: int | None = None

    @cached_property
    def tagged(self) -> bool:
        """An inline XBRL filing: its tables' cells carry tagged facts."""
        return any(_has_tags(t) for t in self.tables)

    def column(self, table: StatementTable, period: Period, stock: bool | None):
        if period.quarter is None and not self.quarterly:
            # An annual report: the year's column as the statement reader dated it.
            return table.column_for(period.fiscal_year)
        return table.column_for_period(period, self.calendar, self.fiscal_quarter, stock)


@dataclass
class Located:
    metric: Metric
    value: float               # in the table's unit, outflows made positive
    cell: Cell
    row: Row
    table: StatementTable
    document: str
    document_id: str
    period: Period
    quote: str                 # the printed line holding the cell, as stored

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


def locate(metric: Metric, sources: list[Source], period: Period | int) -> Located | None:
    """The metric's value for a period: the best-matching row with a cell in that period's column."""
    if isinstance(period, int):
        period = Period(period)
    stock = metric.statement == StatementKind.BALANCE if metric.statement is not None else None
    for source in sources:
        matches = find_line_items(source.tables, metric)
        if metric.statement is not None:
            # The metric's own statement first, then the other primary statements, then notes and
            # MD&A tables: a joint venture's "Total net sales" in a note is not the company's revenue.
            # In an inline XBRL filing every figure of a statement is tagged: a "statement" table
            # without tags is an excerpt (MD&A's analysis of the income statement), ranked as one.
            def kind(table: StatementTable) -> StatementKind | None:
                return table.statement if not source.tagged or _has_tags(table) else None

            matches.sort(key=lambda m: 0 if kind(m.table) == metric.statement
                         else 1 if kind(m.table) is not None else 2)
        for match in matches:
            if stock is not None and match.table.statement in _FLOWS_OR_STOCKS and (
                    (match.table.statement == StatementKind.BALANCE) != stock) and "end of" not in match.row.label.lower():
                # A balance is not read off a flow statement (its row there is a change; "cash at
                # end of year" excepted), nor a flow off a balance sheet.
                continue
            column = source.column(match.table, period, stock)
            cell = match.row.cell(column.index) if column is not None else None
            if cell is None or cell.value is None:
                continue
            value = abs(cell.value) if metric.outflow else cell.value
            page = source.pages.get(match.table.page)
            quote = printed_line(page, match.row) if page else match.row.label
            return Located(metric=metric, value=value, cell=cell, row=match.row, table=match.table,
                           document=source.document, document_id=source.document_id, period=period, quote=quote)
    return None


_FLOWS_OR_STOCKS = (StatementKind.BALANCE, StatementKind.INCOME, StatementKind.CASH_FLOW, StatementKind.COMPREHENSIVE)


def _sources(evidence: list[EvidencePage], store: Store) -> list[Source]:
    """Tables of the leading filings: their primary statements first, then the evidence pages."""
    order: list[tuple[str, str]] = []
    for page in evidence:
        if (page.document_id, page.document) not in order:
            order.append((page.document_id, page.document))
    out = []
    for document_id, document in order[:MAX_DOCUMENTS]:
        pages = {p.number: p for p in store.pages(document_id)}
        statement_pages = [n for n, p in pages.items() if p.info and p.info.statement and p.tables]
        evidence_pages = [e.page for e in evidence if e.document_id == document_id and pages.get(e.page) and pages[e.page].tables]
        seen: list[int] = []
        for n in statement_pages + evidence_pages:
            if n not in seen:
                seen.append(n)
        tables = [StatementTable.model_validate(t) for n in seen for t in pages[n].tables]
        if tables:
            doc = store.document(document_id)
            out.append(_source(document, document_id, tables, pages, doc.meta if doc else None))
    return out


def _annual_report(store: Store, document_id: str, year: int | None) -> Source | None:
    """The same company's annual report for ``year`` (or the one just after, which prints it as a
    comparative); with no year, its latest."""
    from docqa.search.query import canonical_companies

    documents = store.documents()
    canonical = canonical_companies(documents)
    company = canonical.get(document_id)
    if company is None:
        return None
    annuals = [d for d in documents if canonical.get(d.id) == company and d.meta.doc_type is not None and d.meta.doc_type.is_annual
               and d.meta.fiscal_year is not None]
    if year is not None:
        annuals = [d for d in annuals if year <= d.meta.fiscal_year <= year + 1]  # type: ignore[operator]
    if not annuals:
        return None
    doc = min(annuals, key=lambda d: d.meta.fiscal_year - year) if year is not None else max(  # type: ignore[operator]
        annuals, key=lambda d: d.meta.fiscal_year or 0)
    pages = {p.number: p for p in store.pages(doc.id)}
    tables = [StatementTable.model_validate(t) for n, p in sorted(pages.items()) if p.info and p.info.statement
              for t in p.tables]
    if not tables:
        return None
    return _source(doc.file_name, doc.id, tables, pages, doc.meta)


def _dated_quarter(plan: QueryPlan, sources: list[Source], store: Store) -> Period | None:
    """The fiscal quarter a question names by its end date, when a quarterly source closes on it."""
    if not plan.period_end:
        return None
    from docqa.search.query import days_apart

    for source in sources:
        doc = store.document(source.document_id)
        meta = doc.meta if doc else None
        if (meta and source.quarterly and meta.fiscal_quarter and meta.fiscal_year and meta.period_end
                and days_apart(meta.period_end, plan.period_end) <= 7):
            return Period(meta.fiscal_year, meta.fiscal_quarter)
    return None


def _source(document: str, document_id: str, tables: list[StatementTable], pages: dict[int, StoredPage], meta) -> Source:
    quarterly = bool(meta and (meta.doc_type in (DocType.QUARTERLY, DocType.EARNINGS) or meta.fiscal_quarter))
    quarter = meta.fiscal_quarter if meta and quarterly else None
    calendar = None
    if meta is not None:
        anchor = meta.period_end
        if quarterly and anchor is None:
            # No period in the metadata: the latest quarter column closes the filing's quarter.
            ends = [c.period_end for t in tables for c in t.period_columns() if c.period_end and c.months == 3]
            anchor = max(ends) if ends and quarter else None
        if anchor:
            try:
                calendar = FiscalCalendar.from_period_end(anchor, meta.fiscal_year, quarter)
            except ValueError:
                calendar = None
    return Source(document, document_id, tables, pages, calendar, quarterly, quarter,
                  meta.fiscal_year if meta is not None else None)


# ---------------------------------------------------------------------------------- measures
@dataclass
class Evaluated:
    """A measure's value for one period, with the printed figures it came from."""

    label: str
    value: float
    kind: str                      # currency | per_share | shares | percent | percent_points | ratio | days | times
    used: list[Located]
    symbolic: str                  # "capex / revenue"
    expression: str                # "1,577 / 32,765": printed figures only, evaluates to ``value``
    computed: bool                 # False: read off the page as printed
    period: Period
    unit: str | None = None        # the table's scale of currency figures
    titled: bool = False           # the label names its period already
    points: bool = False           # a change in a percentage, stated in percentage points

    @property
    def formula(self) -> str | None:
        if not self.computed:
            return None
        shown = f"{self.value:g}%" if self.kind == "percent_points" else F.show(self.kind, self.value)  # type: ignore[arg-type]
        return f"{self.symbolic} = {self.expression} = {shown}"


def _show(value: float, kind: str, unit: str | None = None, fmt: F.Format | None = None) -> str:
    if kind == "percent_points":
        return f"{value:g}%"
    fmt = fmt or F.Format(decimals=2 if kind in ("ratio", "times", "days") else None)
    return F.render(value, kind, fmt, unit)  # type: ignore[arg-type]


def _wrap(text: str) -> str:
    """Parenthesise an expression (not a name, not a lone figure) before combining it."""
    text = text.strip()
    if C.enclosed(text) or not (re.search(r"\s[-+*/x^]\s|\^", text) or text.startswith("-")):
        return text
    return f"({text})"


def _magnitude(value: Evaluated) -> str:
    """The expression of |value| (growth divides by the prior year's magnitude)."""
    if value.value < 0 and re.fullmatch(r"-[\d,.]+", value.expression.strip()):
        return value.expression.strip()[1:]
    return _wrap(value.expression)


class Measure:
    label: str

    def evaluate(self, sources: list[Source], period: Period) -> Evaluated | None:  # pragma: no cover
        raise NotImplementedError


@dataclass
class MetricMeasure(Measure):
    metric: Metric

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.metric.label

    def evaluate(self, sources, period):
        found = locate(self.metric, sources, period)
        if found is None:
            return None
        kind = {"percent": "percent_points"}.get(self.metric.kind, self.metric.kind)
        return Evaluated(self.metric.label, found.value, kind, [found], self.metric.label.lower(),
                         F.fmt_number(found.value), False, period, found.table.unit)


@dataclass
class FormulaMeasure(Measure):
    formula: FormulaDef
    year_end: bool = False         # the question asked for year-end balances, not averages

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.formula.label

    def composed(self) -> ExprMeasure | None:
        """The formula as data, when the lexicon gives one and the code has no function for it
        (or the question's convention differs from the function's)."""
        if not self.formula.compose or (self.formula.key in F.FORMULA_KEYS and not self.year_end):
            return None
        kind = self.formula.kind if self.formula.kind != "same" else None
        label = self.formula.label + (" (year-end balances)" if self.year_end and "avg(" in self.formula.compose else "")
        return ExprMeasure(label, C.parse_formula(self.formula.compose), kind, year_end=self.year_end)

    def alternative(self) -> tuple[ExprMeasure, str] | None:
        """The other convention, stated in one clause beside the default."""
        if not self.formula.alternative or self.year_end:
            return None
        kind = self.formula.kind if self.formula.kind != "same" else None
        return (ExprMeasure(f"{self.formula.label} ({self.formula.alternative_label})",
                            C.parse_formula(self.formula.alternative), kind), self.formula.alternative_label)

    def evaluate(self, sources, period):
        composed = self.composed()
        if composed is not None:
            return composed.evaluate(sources, period)
        lexicon = load_lexicon()
        current: dict[str, float] = {}
        prior: dict[str, float] = {}
        used: list[Located] = []
        before: dict[str, Located] = {}
        rows: set[tuple[str, int, tuple]] = set()
        for key in self.formula.inputs:
            metric = lexicon.metric(key)
            found = locate(metric, sources, period)
            if found is not None:
                row = (found.document_id, found.table.page, found.row.bbox)
                if row in rows:
                    continue  # "Short-term borrowings and current portion of long-term debt": one line, counted once
                rows.add(row)
                current[key] = found.value
                used.append(found)
            earlier = locate(metric, sources, period.prior())
            if earlier is not None:
                prior[key] = earlier.value
                before[key] = earlier
        try:
            result = F.compute(self.formula.key, current, prior)
        except (F.FormulaError, ZeroDivisionError, KeyError):
            return None
        # Cite last year's inputs only when the formula used them.
        used += [before[k] for k in self.formula.inputs
                 if k in prior and _uses_prior(result, prior[k], current.get(k))]
        return _from_result(self.formula.label, result, used, period)


def _from_result(label: str, result: F.FormulaResult, used: list[Located], period: Period) -> Evaluated:
    parts = result.formula.split(" = ")
    unit = next((u.table.unit for u in used if u.table.unit), None)
    return Evaluated(label, result.value, result.kind, used, parts[0], parts[1] if len(parts) > 2 else parts[0],
                     True, period, unit)


@dataclass
class Combined(Measure):
    """Two measures combined as the question says: ``a - b``, ``a + b``, ``a / b`` (a share: ``%``)."""

    label: str
    left: Measure
    op: str                        # "+", "-", "/", "%"
    right: Measure

    def evaluate(self, sources, period):
        a = self.left.evaluate(sources, period)
        if a is None:
            return None
        b = self.right.evaluate(sources, period)
        if b is None:
            return None
        ratio = self.op in ("/", "%")
        if not ratio and a.kind != b.kind:
            return None
        if a.kind == "currency" and b.kind == "currency" and a.unit and b.unit and a.unit != b.unit:
            return None  # figures in thousands and in millions do not add up as printed
        if ratio:
            if b.value == 0:
                return None
            value = a.value / b.value
            kind = "percent" if self.op == "%" else "ratio"
            symbol = "/"
        else:
            value = a.value + b.value if self.op == "+" else a.value - b.value
            kind, symbol = a.kind, self.op
        return Evaluated(self.label, value, kind, a.used + [u for u in b.used if u not in a.used],
                         f"{_wrap(a.symbolic)} {symbol} {_wrap(b.symbolic)}",
                         f"{_wrap(a.expression)} {symbol} {_wrap(b.expression)}", True, period, a.unit or b.unit)


# ---------------------------------------------------------------------------------- any printed row
_TABLE_CACHE: dict[str, list[StatementTable]] = {}
_TABLE_CACHE_SIZE = 8


def _all_tables(source: Source) -> list[StatementTable]:
    """Every table of the filing (statements and evidence pages first, then notes, MD&A, segments)."""
    cached = _TABLE_CACHE.get(source.document_id)
    if cached is None:
        seen = {(t.page, t.bbox) for t in source.tables}
        rest = [StatementTable.model_validate(t) for n, p in sorted(source.pages.items()) for t in (p.tables or ())]
        cached = [t for t in rest if (t.page, t.bbox) not in seen]
        if len(_TABLE_CACHE) >= _TABLE_CACHE_SIZE:
            _TABLE_CACHE.pop(next(iter(_TABLE_CACHE)))
        _TABLE_CACHE[source.document_id] = cached
    return list(source.tables) + cached


def _printed_metric(row: Row, table: StatementTable) -> Metric:
    label = clean_label(row.label).rstrip(":")
    if len(label.split()) > 6:
        label = re.split(r":|;", label, 1)[0]  # "Treasury stock, shares at cost: 2021—3,851; ..."
    if row.section and set(stems(label)) <= _GENERIC_LABEL:
        label = f"{clean_label(row.section).rstrip(':')} \u203a {label}"
    return Metric(key="printed", label=label[:1].upper() + label[1:], statement=table.statement,
                  kind=row.kind if row.kind != "percent" else "percent")


_GENERIC_LABEL = frozenset(stems("total net other basic diluted amount"))


@dataclass
class RowMeasure(Measure):
    """A line item the lexicon does not name (or names but the filing prints otherwise): the row
    whose label, under its headings, best matches the question's words."""

    phrase: str
    asked: str = ""                # the question's words, for the label
    question: str = ""             # the kind of number it asks (a count, a per-share amount) filters rows

    @property
    def label(self) -> str:  # type: ignore[override]
        text = self.asked or self.phrase
        return text[:1].upper() + text[1:]

    def evaluate(self, sources, period):
        for source in sources:
            for match in find_rows(_all_tables(source), self.phrase):
                table, row = match.table, match.row
                stock = True if table.statement == StatementKind.BALANCE else None
                column = source.column(table, period, stock)
                same = [c for c in table.period_columns() if column is not None and c.fiscal_year == column.fiscal_year
                        and c.period == column.period and c.months == column.months]
                if len(same) > 1:
                    column = entity_column(self.phrase, row, table, same) or column
                cell = row.cell(column.index) if column is not None else None
                if cell is None or cell.value is None:
                    continue
                metric = _printed_metric(row, table)
                outflow = table.statement in (StatementKind.CASH_FLOW, StatementKind.BALANCE) and row.kind == "currency"
                value = abs(cell.value) if outflow else cell.value
                page = source.pages.get(table.page)
                quote = printed_line(page, row) if page else row.label
                found = Located(metric=metric, value=value, cell=cell, row=row, table=table, document=source.document,
                                document_id=source.document_id, period=period, quote=quote)
                kind = {"percent": "percent_points"}.get(row.kind, row.kind)
                if self.question and not _kind_answers(self.question, Evaluated("", value, kind, [], "", "", False, period)):
                    continue
                if self.question and _COUNT.search(self.question) and kind == "currency":
                    kind = "count"  # "how many stores": units, not dollars
                return Evaluated(metric.label, value, kind, [found], metric.label.lower(), F.fmt_number(value), False,
                                 period, table.unit)
        return None


@dataclass
class Either(Measure):
    """The lexicon's canonical row, else the printed row that best matches the words."""

    first: Measure
    then: Measure

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.first.label

    def evaluate(self, sources, period):
        return self.first.evaluate(sources, period) or self.then.evaluate(sources, period)


@dataclass
class ExprMeasure(Measure):
    """An expression whose leaves are line items: the question's arithmetic, or a formula as data."""

    label: str
    expr: C.Node
    kind: str | None = None          # the result's kind; None: ratio for a division, else the leaves'
    company_words: frozenset[str] = frozenset()
    year_end: bool = False           # avg(x) read as the year-end x (the question said so)

    def evaluate(self, sources, period):
        value = self._eval(self.expr, sources, period)
        if value is None:
            return None
        kind = self.kind or value.kind
        return Evaluated(self.label, value.value, kind, value.used, value.symbolic, value.expression,
                         True, period, value.unit)

    def _eval(self, node, sources, period) -> Evaluated | None:
        if isinstance(node, C.Num):
            return Evaluated(f"{node.value:g}", node.value, "ratio", [], f"{node.value:g}", f"{node.value:g}", True, period)
        if isinstance(node, C.Avg):
            now = self._eval(node.arg, sources, period)
            if now is None or self.year_end:
                return now
            before = self._eval(node.arg, sources, period.prior())
            if before is None:
                return None
            return Evaluated(f"average {now.label.lower()}", (now.value + before.value) / 2, now.kind, now.used + before.used,
                             f"average {now.symbolic}", f"({_wrap(before.expression)} + {_wrap(now.expression)}) / 2",
                             True, period, now.unit)
        if isinstance(node, (C.Leaf, C.Name)):
            measure = _leaf_measure(node, self.company_words)
            if measure is None:
                return None
            value = measure.evaluate(sources, period)
            if value is None:
                return None
            if value.kind == "currency" and value.value < 0 and value.used and value.used[0].metric.outflow:
                value.value = abs(value.value)
            if not value.computed:
                value = Evaluated(value.label, value.value, value.kind, value.used, value.label.lower(),
                                  value.expression, False, period, value.unit)
            return value
        a = self._eval(node.left, sources, period)
        if a is None:
            return None
        b = self._eval(node.right, sources, period)
        if b is None:
            return None
        if a.kind == "currency" and b.kind == "currency" and a.unit and b.unit and a.unit != b.unit:
            return None  # thousands and millions do not combine as printed
        if node.op == "/":
            if b.value == 0:
                return None
            value, kind = a.value / b.value, "ratio"
        elif node.op == "*":
            value, kind = a.value * b.value, a.kind if b.kind == "ratio" else b.kind
        else:
            value = a.value + b.value if node.op == "+" else a.value - b.value
            kind = a.kind if a.kind != "ratio" else b.kind
        return Evaluated(self.label, value, kind, a.used + [u for u in b.used if u not in a.used],
                         f"{_wrap(a.symbolic)} {node.op} {_wrap(b.symbolic)}",
                         f"{_wrap(a.expression)} {node.op} {_wrap(b.expression)}", True, period, a.unit or b.unit)


def _leaf_measure(node, company_words: frozenset[str] = frozenset()) -> Measure | None:
    """A leaf of an expression as a measure: a lexicon key, the lexicon's line item the words name
    (falling back to the best printed row), or the best printed row."""
    lexicon = load_lexicon()
    if isinstance(node, C.Name):
        try:
            return MetricMeasure(lexicon.metric(node.key))
        except KeyError:
            return FormulaMeasure(lexicon.formula(node.key))
    text = _leaf_text(node.text, company_words)
    if not text:
        return None
    matches = [m for m in lexicon.match(text) if not (m.kind == "formula" and m.key in F.SUBJECT_FORMULAS)]
    row = RowMeasure(text, asked=text)
    if len(matches) == 1 and not _leftover(text, matches[0], company_words):
        m = matches[0]
        if m.kind == "formula":
            return FormulaMeasure(lexicon.formula(m.key))
        return Either(MetricMeasure(lexicon.metric(m.key)), row)
    return row


_SCAFFOLD = frozenset(stems(
    "what which how much many was were is are did does do has have had the a an its their of in on at for during "
    "by from to as end ending ended close year fiscal fy quarter quarterly period month months week weeks "
    "bring brought record recorded report reported receive received generate generated earn earned post posted "
    "give answer round rounded decimal decimals place places one two three usd dollar dollars us "
    "million millions billion billions thousand thousands figure value company company's "
    "balance sheet statement statements filing report annual 10 k q january february march april may june "
    "july august september october november december calendar date grow grew growth versus vs compared "
    "percentage percent change increase decrease rise rose decline fell prior yoy over"))


def _leaf_text(text: str, company_words: frozenset[str] = frozenset()) -> str:
    """The line item's words: without the company's name, periods, dates, and scaffolding."""
    text = re.sub(r"\b[\w.&-]+(?:\s+[A-Z][\w.&-]*){0,3}['\u2019]s\b", lambda m: "" if _is_company(m.group(0), company_words) else m.group(0), text)
    text = re.sub(r"\b(?:19|20)\d\d\b|\b\d{1,2},|\bq[1-4]\b|\bfy\d{2}\b", " ", text, flags=re.I)
    words = [t for t in re.findall(r"[A-Za-z0-9&'\u2019-]+|\([^)]*\)", text)]
    out = []
    for w in words:
        if w.startswith("("):
            continue  # "(at cost)", "(GAAP)": a qualifier, not the line item
        s = stems(w)
        if not s or set(s) <= _SCAFFOLD or set(s) <= company_words:
            continue
        out.append(w.strip("'\u2019"))
    return " ".join(out)


def _is_company(text: str, company_words: frozenset[str]) -> bool:
    s = set(stems(re.sub(r"['\u2019]s$", "", text)))
    return bool(s) and (not company_words or bool(s & company_words) or text[:1].isupper())


def _leftover(text: str, match: MetricMatch, company_words: frozenset[str]) -> list[str]:
    """Words of ``text`` outside the lexicon match that the metric's own vocabulary lacks:
    "King segment net revenues" is not revenue."""
    lexicon = load_lexicon()
    entry = lexicon.metric(match.key) if match.kind == "metric" else lexicon.formula(match.key)
    vocabulary = {s for p in (*entry.asks, *getattr(entry, "prints", ())) for s in stems(p)}
    outside = text[:match.span[0]] + " " + text[match.span[1]:]
    return [s for s in stems(outside) if s not in vocabulary and s not in _SCAFFOLD and s not in company_words
            and s not in SOFT_WORDS]


SOFT_WORDS = frozenset(stems("total net gaap consolidated reported overall"))


# ---------------------------------------------------------------------------------- question -> measure
_OPERATORS = (
    (re.compile(r"^(?:less|minus|-|\u2013|\u2212|subtract(?:ing)?|after\s+deducting)$", re.I), "-"),
    (re.compile(r"^(?:plus|\+|added\s+to)$", re.I), "+"),
    (re.compile(r"^(?:/|divided\s+by|over|per)$", re.I), "/"),
    (re.compile(r"^(?:as\s+an?\s+)?(?:%|percent|percentage|share|proportion|fraction)\s+of(?:\s+the)?$", re.I), "%"),
    (re.compile(r"^(?:as\s+a\s+)?ratio\s+(?:to|of)$|^relative\s+to$|^to$", re.I), "/"),
)
_DEFINITION = re.compile(
    r"\b(?:is|are|be)\s+defined\s+as\b|\bdefined\s+as\b|^\s*(?:define|defining)\b|\b(?:calculat|comput)\w*\s+[\w\s%&/-]{0,60}?\b(?:using|as|from)\b",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.?!])\s+")
_TIME_FORMULAS = {"growth", "cagr", "multi_year_average"}
_CHANGE = re.compile(
    r"\b(?P<noun>(?:change|increase|decrease|difference|movement|variation)\s+in)\b"
    r"|\bhow\s+much\s+(?:did|has|have|was|were)\b.{0,80}?\b(?P<verb>(?:increase|decrease|grow|decline|change|rise|fall|drop)\w*)\b"
    r"|\b(?P<by>by\s+how\s+(?:much|many\s+(?:percentage\s+|basis\s+)?points))\b"
    r"|\bhow\s+many\s+(?:percentage\s+|basis\s+)?points\s+(?:did|has|have|was|were)\b.{0,120}?\b(?P<points>(?:change|increase|decrease|grow|decline|rise|fall|drop|move|expand|contract)\w*)\b"
    r"|^\s*how\s+(?:does|did|do)\b.{0,120}?\b(?P<compare>compare[sd]?)\s+(?:to|with|against)\b",
    re.I,
)
_GROWTH = re.compile(
    r"\b(?:by\s+)?what\s+(?:percent(?:age)?|%|rate)\s+(?:did|does|has|have|was|were)\b[^?]{0,120}?"
    r"\b(?:grow|grew|increase|rise|rose|decline|decrease|fall|fell|drop|change|expand|shrink|contract)\w*", re.I)
_PART_OF_WHOLE = re.compile(r"\b(?:what|which)\s+(?:percent(?:age)?|share|portion|proportion|fraction|part)\s+of\b", re.I)


def _definition_spans(question: str) -> list[tuple[int, int]]:
    """Character spans of the sentences that define terms ("Define EBITDA as ..."): what they
    name are the ingredients of what is asked, not what is asked."""
    spans, start = [], 0
    for part in _SENTENCE.split(question):
        begin = question.find(part, start)
        end = begin + len(part)
        if _DEFINITION.search(part):
            spans.append((begin, end))
        start = end
    return spans


@dataclass
class Asked:
    measures: list[Measure] = field(default_factory=list)   # candidates, best first
    over_time: str | None = None                             # growth | cagr | multi_year_average


def asked_measures(question: str, matches: list[MetricMatch] | None = None) -> Asked:
    """What the question asks to compute, as candidate measures in order of preference."""
    lexicon = load_lexicon()
    matches = lexicon.match(question) if matches is None else matches
    definitions = _definition_spans(question)

    def defining(m: MetricMatch) -> bool:
        return any(a <= m.span[0] < b for a, b in definitions)

    asked = [m for m in matches if not defining(m)] or list(matches)
    by_position = sorted(asked, key=lambda m: (m.span[0], -(m.span[1] - m.span[0])))
    out = Asked()
    over = [m for m in asked if m.kind == "formula" and m.key in _TIME_FORMULAS]
    changes = [c for c in _CHANGE.finditer(question) if not any(a <= c.start() < b for a, b in definitions)]
    # Only the words that say "change" count for the overlap test: in "how much has the tax rate
    # changed" the metric sits between them, in "net change in cash" the words are the metric.
    said = [(c.start(g), c.end(g)) for c in changes[:1] for g in ("noun", "verb", "by", "compare", "points") if c.group(g)]
    grows = _GROWTH.search(question)
    if over:
        out.over_time = over[0].key
    elif grows and not any(a <= grows.start() < b for a, b in definitions):
        out.over_time = "growth"  # "by what percentage did discount revenue grow in 2022 versus 2021"
    elif said and not asks_why(question) and not any(
            m.span[0] < said[0][1] and said[0][0] < m.span[1] for m in matches):
        # "the change in total assets between FY2021 and FY2022": a difference. ("Net change in
        # cash" is a line item of its own.)
        out.over_time = "change"

    def single(m: MetricMatch) -> Measure | None:
        if m.kind == "metric":
            return None if _qualified(question, m) else MetricMeasure(lexicon.metric(m.key))
        if m.key in F.SUBJECT_FORMULAS:
            return None
        return FormulaMeasure(lexicon.formula(m.key))

    combined: list[tuple[int, int]] = []
    # 1. Two things joined by an operator in the question's words: "EBITDA less capex".
    plain = [m for m in by_position if not (m.kind == "formula" and m.key in F.SUBJECT_FORMULAS)]
    for a, b in zip(plain, plain[1:]):
        between = question[a.span[1]:b.span[0]].strip(" ,")
        op = next((o for pattern, o in _OPERATORS if pattern.match(between)), None)
        if op is None or a.span[1] > b.span[0]:
            continue
        left, right = single(a), single(b)
        if left is not None and right is not None and a.key != b.key:
            label = question[a.span[0]:b.span[1]].strip()
            out.measures.append(Combined(label[:1].upper() + label[1:], left, op, right))
            combined.append((a.span[0], b.span[1]))
    # 2. A share of revenue ("net earnings as a percent of sales", "COGS % margin").
    share = next((m for m in by_position if m.kind == "formula" and m.key == "margin"), None)
    if share is not None:
        subjects = [m for m in by_position if m.kind == "metric" and m.key != "revenue"]
        before = [m for m in subjects if m.span[1] <= share.span[0]]
        subject = (before[-1] if before else subjects[0]) if subjects else None
        if subject is not None:
            part = MetricMeasure(lexicon.metric(subject.key))
            out.measures.append(Combined(f"{part.label} as a % of revenue", part, "%",
                                         MetricMeasure(lexicon.metric("revenue"))))
            combined.append((min(subject.span[0], share.span[0]), max(subject.span[1], share.span[1])))
    # 3. Named formulas, then line items, as the lexicon ranks them (longest mention first). A
    # part of a combination asked for is not an answer to it: "EBITDA less capex" is not capex.
    def inside(m: MetricMatch) -> bool:
        return any(a <= m.span[0] and m.span[1] <= b for a, b in combined)

    for m in asked:
        if m.kind == "formula" and m.key not in F.SUBJECT_FORMULAS and not inside(m):
            out.measures.append(FormulaMeasure(lexicon.formula(m.key)))
    for m in asked:
        if m.kind == "metric" and not inside(m) and not _qualified(question, m):
            out.measures.append(MetricMeasure(lexicon.metric(m.key)))
    return out


_QUALIFIER = re.compile(
    r"^\s*(?:(?:that\s+(?:came|comes)\s+)?from|generated\s+(?:by|from|in)|derived\s+from|earned\s+(?:from|in|by)|"
    r"(?:of|in|for|at)\s+(?:the|its|their)\s+[\w&\s-]{1,40}?\s(?:segment|division|business|unit|region|product\s+line))\b"
    r"(?!\s+(?:the\s+)?(?:income|cash|balance|statements?|p&l|10-?[kq]|annual|quarterly|filings?|operations|"
    r"operating|continuing|financ\w*|invest\w*|company|fiscal|last|prior|previous|this|that|same|year|quarter|"
    r"period|fy|q[1-4])\b|\s+(?:fy|q[1-4]|fiscal)?\s*'?\d)",
    re.I,
)


def _qualified(question: str, m: MetricMatch) -> bool:
    """"Revenue from the sale of physical stores", "revenue of the Americas segment": a part of
    the line item, which the total does not answer."""
    return bool(_QUALIFIER.match(question[m.span[1]:]))


# ---------------------------------------------------------------------------------- composition
_ASKS_FIGURE = re.compile(
    r"^\s*(?:(?:in|from|according\s+to|per|based\s+on|using)\b[^,?]{0,120},\s*)?(?:what|how\s+much|how\s+many)\b"
    r"(?!\s+(?:drove|caused|are\s+the\s+(?:risks|reasons|main|key|primary)|is\s+the\s+(?:reason|strategy|outlook)))", re.I)


def _company_words(store: Store, sources: list[Source], plan: QueryPlan) -> frozenset[str]:
    """Stems of the names the company goes by, so that "Activision's" is not part of a line item."""
    words: set[str] = set()
    for name in plan.companies:
        words |= set(stems(name))
    for source in sources:
        doc = store.document(source.document_id)
        if doc is None:
            continue
        meta = doc.meta
        for name in (meta.company, meta.ticker, *meta.aliases):
            if name:
                words |= set(stems(name))
    generic = set(stems("inc corporation corp company co ltd plc group holdings the and of limited llc sa ag nv"))
    return frozenset(words - generic - set(stems("total net revenue sales income")))


def _main_clause(question: str) -> str:
    """The question without its format instructions and the definition it gives."""
    main = question.split("?")[0]
    found = C.definition(main)
    if found is not None:
        main = main[:main.find(found[0])] if found[0] in main else main
    main = re.split(r"\b(?:answer|round(?:ed)?|give|express)\s+(?:in|to|it|the|your|as|rounded|with|using|one|two)\b",
                    main, flags=re.I)[0]
    main = re.sub(r"\bin\s+(?:usd|us\$|\$)?\s*(?:millions?|billions?|thousands?)(?:\s+of\s+(?:us\s+)?dollars)?\b", " ", main, flags=re.I)
    return main


def _compose_measures(question: str, asked: Asked, matches: list[MetricMatch], composition, company_words) -> None:
    """Put the question's own arithmetic first, its convention on named formulas, and replace a
    line item the question qualifies ("King segment net revenues") by the printed row it names."""
    lexicon = load_lexicon()
    convention = C.convention(question)
    for measure in asked.measures:
        if isinstance(measure, FormulaMeasure) and convention == "year_end" and measure.formula.average:
            measure.year_end = True
    named = [m for m in asked.measures if isinstance(m, FormulaMeasure)]
    first: list[Measure] = []
    if composition is not None:
        label, kind = composition.label, composition.kind
        if named and composition.defined:
            label = named[0].label
            kind = kind or (named[0].formula.kind if named[0].formula.kind != "same" else None)
        first.append(ExprMeasure(label[:1].upper() + label[1:], composition.expr, kind, company_words,
                                 year_end=convention == "year_end"))
    elif named and named[0].formula.inputs and len(named[0].formula.inputs) == 2:
        inputs = C.defined_inputs(question)
        if len(inputs) == 2:
            # "ROA using net income attributable to Walmart and total assets": numerator, denominator.
            avg = named[0].formula.average and convention != "year_end"
            right = C.Avg(C.Leaf(inputs[1])) if avg else C.Leaf(inputs[1])
            first.append(ExprMeasure(named[0].label, C.BinOp("/", C.Leaf(inputs[0]), right), named[0].formula.kind,
                                     company_words))
    main = _main_clause(question)
    subject = _leaf_text(main, company_words)
    kept: list[Measure] = []
    for measure in asked.measures:
        if isinstance(measure, MetricMeasure):
            m = next((x for x in matches if x.kind == "metric" and x.key == measure.metric.key), None)
            if m is not None and m.span[1] <= len(main) and _qualifiers(main, m, company_words):
                # The words around the line item qualify it: the total is a neighbour, not the answer.
                kept.append(RowMeasure(subject, asked=subject, question=question))
                continue
            kept.append(Either(measure, RowMeasure(subject, asked=subject, question=question)) if subject else measure)
        else:
            kept.append(measure)
    if named:
        # A ratio is asked: one of its inputs is not an answer to it.
        inputs = {i for f in named for i in (*f.formula.inputs, *re.findall(r"[a-z_]+", f.formula.compose))}
        kept = [k for k in kept if not (_metric_key(k) in inputs or (isinstance(k, RowMeasure) and first))]
    asked.measures = first + kept
    if not asked.measures and subject and _ASKS_FIGURE.match(question) and not matches:
        asked.measures = [RowMeasure(subject, asked=subject, question=question)]


_SEGMENT_AFTER = re.compile(r"^[^,;:?]{0,60}?\b(?:segment|division|region|geograph\w*|brand|business\s+unit|reportable)\b", re.I)


def _qualifiers(main: str, m: MetricMatch, company_words: frozenset[str]) -> list[str]:
    """Words that narrow the line item named at ``m``: premodifiers ("King segment net revenues",
    "short-term unearned revenue") and a segment named after it ("net sales did the Aeronautics
    segment bring in"). Generic words and the company's name do not narrow it."""
    lexicon = load_lexicon()
    entry = lexicon.metric(m.key)
    vocabulary = {s for p in (*entry.asks, *entry.prints) for s in stems(p)}
    before = re.findall(r"[\w&'\u2019.-]+", main[:m.span[0]])
    words: list[str] = []
    for w in reversed(before):
        if re.search(r"['\u2019]s$|\d", w) or set(stems(w)) <= (_SCAFFOLD | company_words) or not stems(w):
            break
        words.append(w)
    after = _SEGMENT_AFTER.match(main[m.span[1]:])
    if after:
        words += [w for w in re.findall(r"[\w&-]+", after.group(0)) if w[:1].isupper() or w.lower() == "segment"]
    return [s for w in words for s in stems(w) if s not in vocabulary and s not in SOFT_WORDS and s not in company_words
            and s not in _QUESTION_WORDS and s not in _SCAFFOLD]


def _metric_key(measure: Measure) -> str | None:
    if isinstance(measure, Either):
        measure = measure.first
    return measure.metric.key if isinstance(measure, MetricMeasure) else None


_QUESTION_WORDS = frozenset(stems(
    "amount value level figure number line item reported gaap much many bring brought in during "
    "holders holder per share"))


# ---------------------------------------------------------------------------------- the answerer
class FiguresAnswerer:
    name = "figures"

    def answer(self, question: str, evidence: list[EvidencePage], plan: QueryPlan, store: Store) -> Draft | None:
        draft = self._answer(question, evidence, plan, store)
        return in_reporting_currency(draft, store) if draft is not None and draft.found else draft

    def _answer(self, question: str, evidence: list[EvidencePage], plan: QueryPlan, store: Store) -> Draft | None:
        lexicon = load_lexicon()
        matches = lexicon.match(question)
        named = list(dict.fromkeys([m.key for m in matches if m.kind == "metric"] + _listed_activities(question)))
        pick = _which_is_most(question) if len(named) >= 2 else None
        line = line_asked(question)
        composition = C.compose(question)
        free = not matches and _ASKS_FIGURE.match(question) is not None and not asks_why(question)
        if not matches and pick is None and line is None and composition is None and not free:
            return None
        asked = asked_measures(question, matches)
        judged = judgement(question)
        if (not asked.measures and judged not in ("capital_intensive", "high_growth") and pick is None and line is None
                and composition is None and not free):
            return None
        sources = _sources(evidence, store)
        if not sources:
            return None
        company_words = _company_words(store, sources, plan)
        _compose_measures(question, asked, matches, composition, company_words)
        if not asked.measures and not (judged or pick is not None or line is not None):
            return None
        default_year = max(plan.years) if plan.years else evidence[0].year
        periods = asked_periods(question, default_year)
        dated = _dated_quarter(plan, sources, store) if not any(p.quarter for p in periods) else None
        if dated is not None:
            # "the three months ended December 31, 2022": the quarter of the filing that closes on
            # that date, by the filer's own fiscal calendar (Amcor's Q2 of fiscal 2023), not a year.
            periods = [dated]
        if not any(p.quarter for p in periods) and all(s.quarterly for s in sources):
            # Years asked of quarterly filings: the company's annual report holds the years.
            annual = _annual_report(store, sources[0].document_id, max((p.fiscal_year for p in periods), default=None))
            if annual is not None:
                sources.insert(0, annual)
                if not periods:
                    default_year = annual.fiscal_year
        if not periods:
            if default_year is None:
                return None
            periods = [Period(default_year)]
        fmt = F.requested_format(question)
        if line is not None:
            return largest_line(line, sources, periods[-1])
        if judged is not None:
            draft = self._yes_no(judged, question, asked, sources, periods)
            if draft is not None:
                return draft
        if _YES_NO.match(question):
            return None  # a yes/no question a figure alone does not answer
        target = periods[-1]
        whole = next((p for p in periods if p.quarter is None), None)
        part = next((p for p in periods if p.quarter is not None), None)
        if whole and part and whole.fiscal_year == part.fiscal_year and _PART_OF_WHOLE.search(question):
            # "What percent of FY2023 buybacks occurred in Q4 of FY2023?": the quarter over the year.
            for measure in asked.measures:
                a, b = measure.evaluate(sources, part), measure.evaluate(sources, whole)
                if a is not None and b is not None and b.value and a.kind == b.kind == "currency":
                    value = Evaluated(f"Share of {whole.label} {measure.label.lower()} in Q{part.quarter}", a.value / b.value,
                                      "percent", a.used + b.used, f"{part.label} / {whole.label}",
                                      f"{_wrap(a.expression)} / {_wrap(b.expression)}", True, part, a.unit, titled=True)
                    return _draft(value, fmt, self.name)
            return None  # the share is asked; the year's total alone does not answer it
        if pick is not None:
            draft = self._most(pick, named, sources, target)
            if draft is not None:
                return draft
        if asks_why(question) or _asks_which(question, matches):
            # "What drove the margin change?", "Which segment had the lowest revenue?": the
            # company's figure is not the answer; the filing's words (or a breakdown) are.
            return None
        if asked.over_time and asked.measures:
            # Growth, averages and changes are what is asked: the bare figure is no answer.
            return self._over_time(asked, sources, periods, fmt)
        for measure in asked.measures:
            value = measure.evaluate(sources, target)
            if value is not None and not _kind_answers(question, value):
                continue  # a total where a per-share amount is asked, a percentage where a count is
            if value is not None:
                alternative = measure.alternative() if isinstance(measure, FormulaMeasure) and C.convention(question) is None else None
                if alternative is not None:
                    other = alternative[0].evaluate(sources, target)
                    if other is not None and other.kind == value.kind:
                        return _draft(value, fmt, self.name, parts=[other],
                                      also=f"{_show(other.value, other.kind, other.unit, fmt)} {alternative[1]}")
                return _draft(value, fmt, self.name)
        return None

    # --- growth, CAGR, multi-year averages ---------------------------------------------------
    def _over_time(self, asked: Asked, sources, periods: list[Period], fmt: F.Format) -> Draft | None:
        first, last = periods[0], periods[-1]
        if asked.over_time == "multi_year_average":
            if len(periods) < 2:
                return None
            span = [Period(y, last.quarter) for y in range(first.fiscal_year, last.fiscal_year + 1)]
            for measure in asked.measures:
                values = [measure.evaluate(sources, p) for p in span]
                if all(v is not None for v in values):
                    return _draft(_average(values, measure.label), fmt, self.name)  # type: ignore[arg-type]
            return None
        if len(periods) < 2:
            first = last.prior()
        for measure in asked.measures:
            a, b = measure.evaluate(sources, first), measure.evaluate(sources, last)
            if a is None or b is None:
                continue
            if asked.over_time == "change":
                if a.kind != b.kind:
                    return None
                points = a.kind in ("percent", "percent_points")  # a rate's change is in percentage points
                then, now = _show(a.value, a.kind, a.unit), _show(b.value, b.kind, b.unit)
                change = Evaluated(
                    f"Change in {measure.label.lower()} from {first.label} ({then}) to {last.label} ({now})",
                    b.value - a.value, a.kind, a.used + b.used, "current - prior",
                    f"{_wrap(b.expression)} - {_wrap(a.expression)}", True, last, a.unit or b.unit, titled=True,
                    points=points)
                return _draft(change, fmt, self.name, parts=[a, b])
            try:
                if asked.over_time == "cagr":
                    if len(periods) < 2:
                        return None
                    years = last.fiscal_year - first.fiscal_year
                    result = F.cagr(a.value, b.value, years)
                    symbolic = f"(last / first)^(1/{years}) - 1"
                    expression = f"({_wrap(b.expression)} / {_wrap(a.expression)})^(1/{years}) - 1"
                    label = f"{measure.label} CAGR {first.fiscal_year}–{last.fiscal_year}"
                else:
                    result = F.growth(b.value, a.value)
                    symbolic = "(current - prior) / prior"
                    expression = f"({_wrap(b.expression)} - {_wrap(a.expression)}) / {_wrap(a.expression)}"
                    if a.value < 0:
                        expression = f"({_wrap(b.expression)} - {_wrap(a.expression)}) / {_magnitude(a)}"
                    label = f"{measure.label} growth"
            except (F.FormulaError, ZeroDivisionError):
                return None
            value = Evaluated(label, result.value, "percent", a.used + b.used, symbolic, expression, True, last,
                              a.unit or b.unit)
            return _draft(value, fmt, self.name)
        return None

    # --- which of the items named is the largest / smallest ----------------------------------
    def _most(self, largest: bool, keys: list[str], sources, period: Period) -> Draft | None:
        """"Among operating, investing and financing activities, which brought in the most cash?",
        "Which was larger in 2017, capex or D&A?": each item the question names, read for the
        period and compared as printed: a net outflow of cash is less than any inflow."""
        lexicon = load_lexicon()
        values = []
        for key in keys:
            metric = lexicon.metric(key)
            found = locate(metric, sources, period)
            if found is not None:
                values.append((found.value, metric, found))  # an outflow line item (capex) by its size
        if len(values) < 2 or len(values) < len(keys) or len({v[1].kind for v in values}) != 1:
            return None  # every item named must be read, in one kind of unit, for the comparison to hold
        values.sort(key=lambda v: v[0], reverse=largest)
        shown = [F.render(v, metric.kind, F.Format(), found.table.unit) for v, metric, found in values]  # type: ignore[arg-type]
        others = "; ".join(f"{metric.label.lower()} {text}" for (_, metric, _), text in zip(values[1:], shown[1:]))
        best = values[0]
        word = "largest" if largest else "smallest"
        text = (f"{best[1].label}: {shown[0]} in {period.label}, "
                f"the {word} of the {len(values)} (as printed: {best[2].cell.raw}); against {others}.")
        used = [v[2] for v in values]
        return Draft(text=text, found=True, citations=_citations(used), figures=tuple(u.figure() for u in used),
                     answerer=self.name)

    # --- yes/no about a measure's direction, sign, level or stability -----------------------
    def _yes_no(self, judged: str, question: str, asked: Asked, sources, periods: list[Period]) -> Draft | None:
        lexicon = load_lexicon()
        last = periods[-1]
        if judged == "capital_intensive":
            return self._capital_intensive(sources, last)
        if judged == "high_growth":
            # A high-growth company is one whose sales grow fast, whatever else the question names.
            return self._high_growth(MetricMeasure(lexicon.metric("revenue")), sources, last)
        for measure in asked.measures:
            draft = self._judge(judged, question, measure, sources, periods)
            if draft is not None:
                return draft
        return None

    def _judge(self, judged: str, question: str, measure: Measure, sources, periods: list[Period]) -> Draft | None:
        last = periods[-1]
        if judged == "stable":
            return self._stable(question, measure, sources, periods)
        if judged == "threshold":
            return self._threshold(question, measure, sources, periods)
        now = measure.evaluate(sources, last)
        if now is None and judged == "exists" and last.quarter:
            # A quarter the filing does not break out: the fiscal year that holds it.
            last = Period(last.fiscal_year)
            now = measure.evaluate(sources, last)
        if now is None:
            return None
        label = measure.label
        shown = _show(now.value, now.kind, now.unit)
        printed = "" if now.computed else f" (as printed: {now.used[0].cell.raw})"
        if judged == "exists":
            answer = abs(now.value) > 0
            text = f"{'Yes' if answer else 'No'}. {label} for {last.label}: {shown}{printed}."
            return _judged([now], text, self.name)
        if judged == "healthy":
            key = measure.formula.key if isinstance(measure, FormulaMeasure) else ""
            floor = HEALTHY_FLOOR.get(key)
            if floor is None:
                return None
            answer = now.value >= floor
            text = (f"{'Yes' if answer else 'No'}. {label} for {last.label} was {shown}, "
                    f"{'at or above' if answer else 'below'} {floor:g}, the level usually read as healthy.")
            return _judged([now], text, self.name)
        if judged in ("positive", "negative"):
            answer = (now.value > 0) == (judged == "positive")
            text = f"{'Yes' if answer else 'No'}. {label} for {last.label} was {shown}{printed}."
            return _judged([now], text, self.name)
        first = periods[0] if len(periods) >= 2 else last.prior()
        before = measure.evaluate(sources, first)
        if before is None:
            return None
        rose = now.value > before.value
        answer = rose if judged == "up" else not rose
        verb = "rose" if rose else ("fell" if now.value < before.value else "was unchanged")
        then = _show(before.value, before.kind, before.unit)
        if then == shown and now.value != before.value:  # one more decimal, so the move shows
            fine = F.Format(decimals=2 if now.kind == "percent" else 4)
            then, shown = (_show(before.value, before.kind, before.unit, fine), _show(now.value, now.kind, now.unit, fine))
        text = (f"{'Yes' if answer else 'No'}. {label} {verb} from {then} "
                f"in {first.label} to {shown} in {last.label}.")
        return _judged([before, now], text, self.name)

    def _threshold(self, question: str, measure: Measure, sources, periods: list[Period]) -> Draft | None:
        """"Was capex more than 10% of revenue?", "Did revenue exceed $50 billion?", "Did sales grow
        by more than 5%?": the measure against the level the question names."""
        asked = _parse_threshold(question)
        if asked is None:
            return None
        above, level, unit, words = asked
        last = periods[-1]
        now = measure.evaluate(sources, last)
        if now is None:
            return None
        values = [now]
        if unit == "%":
            if now.kind == "percent":
                value = now.value * 100
            elif now.kind == "percent_points":
                value = now.value
            elif now.kind == "currency" and (_UP.search(question) or _DOWN.search(question)):
                first = periods[0] if len(periods) >= 2 else last.prior()
                before = measure.evaluate(sources, first)
                if before is None or before.value == 0:
                    return None
                rate = (now.value - before.value) / abs(before.value)
                values = [before, now, Evaluated(f"{measure.label} growth", rate, "percent", [], "(current - prior) / prior",
                                                 f"({_wrap(now.expression)} - {_wrap(before.expression)}) / {_magnitude(before)}",
                                                 True, last)]
                value = rate * 100
            else:
                return None
        elif unit == "$":
            if now.kind != "currency":
                return None
            scale = now.used[0].table.scale or 1.0 if now.used else 1.0
            value = now.value * scale
        else:
            if now.kind not in ("ratio", "times", "days", "per_share", "shares"):
                return None
            value = now.value
        answer = value > level if above else value < level
        if words.startswith("at least"):
            answer = value >= level
        shown = (f"{value:.1f}%" if unit == "%" else _show(now.value, now.kind, now.unit))
        subject = values[-1].label if len(values) == 3 else measure.label
        text = (f"{'Yes' if answer else 'No'}. {subject} for {last.label} was {shown}, "
                f"{'above' if value > level else 'below' if value < level else 'equal to'} the level asked about.")
        return _judged(values, text, self.name)

    def _stable(self, question: str, measure: Measure, sources, periods: list[Period]) -> Draft | None:
        """"Historically consistent (not fluctuating more than roughly 2% each year)": every
        year-over-year move within the band, over the years the filing reports."""
        last = periods[-1]
        values: list[Evaluated] = []
        for back in range(0, 5):
            p = Period(last.fiscal_year - back, last.quarter)
            v = measure.evaluate(sources, p)
            if v is None:
                break
            values.insert(0, v)
        if len(values) < 3 and not (len(values) == 2 and len(periods) >= 2):
            return None
        band = _band(question)
        points = values[0].kind in ("percent", "percent_points")
        moves: list[tuple[float, str]] = []
        for a, b in zip(values, values[1:]):
            if values[0].kind == "percent":   # a share: the move in percentage points
                moves.append((abs(b.value - a.value) * 100, f"({_wrap(b.expression)} - {_wrap(a.expression)}) x 100"))
            elif values[0].kind == "percent_points":
                moves.append((abs(b.value - a.value), f"{_wrap(b.expression)} - {_wrap(a.expression)}"))
            elif a.value:
                moves.append((abs(b.value - a.value) / abs(a.value) * 100,
                              f"({_wrap(b.expression)} - {_wrap(a.expression)}) / {_magnitude(a)} x 100"))
        if not moves:
            return None
        largest, arithmetic = max(moves, key=lambda m: m[0])
        answer = largest <= band
        unit = "percentage points" if points else "%"
        series = ", ".join(f"{_show(v.value, v.kind, v.unit)} in {v.period.label}" for v in values)
        text = (f"{'Yes' if answer else 'No'}. {measure.label} was {series}: the largest year-over-year move "
                f"is {largest:.1f} {unit}, {'within' if answer else 'more than'} {band:g} {unit}.")
        move = Evaluated("largest year-over-year move", largest, "ratio", [], "largest year-over-year move",
                         arithmetic, True, periods[-1])
        return _judged(values + [move], text, self.name)

    def _capital_intensive(self, sources, period: Period) -> Draft | None:
        """Capital intensity as analysts read it: capex / revenue, and total assets / revenue
        (the assets it takes to earn a dollar of sales)."""
        lexicon = load_lexicon()
        capex = FormulaMeasure(lexicon.formula("capex_to_revenue")).evaluate(sources, period)
        assets = Combined("Total assets / revenue", MetricMeasure(lexicon.metric("total_assets")), "/",
                          MetricMeasure(lexicon.metric("revenue"))).evaluate(sources, period)
        if capex is None and assets is None:
            return None
        signs = []
        shown = []
        if capex is not None:
            signs.append(capex.value >= CAPITAL_INTENSIVE["capex_to_revenue"])
            shown.append(f"capex was {_show(capex.value, 'percent')} of revenue "
                         f"({'at or above' if signs[-1] else 'below'} {CAPITAL_INTENSIVE_WORDS['capex_to_revenue']})")
        if assets is not None:
            signs.append(assets.value >= CAPITAL_INTENSIVE["assets_to_revenue"])
            shown.append(f"total assets were {_show(assets.value, 'ratio')} times revenue "
                         f"({'at or above' if signs[-1] else 'below'} {CAPITAL_INTENSIVE_WORDS['assets_to_revenue']})")
        answer = any(signs)
        text = f"{'Yes' if answer else 'No'}. In {period.label}, " + "; ".join(shown) + "."
        return _judged([v for v in (capex, assets) if v is not None], text, self.name)

    def _high_growth(self, measure: Measure, sources, period: Period) -> Draft | None:
        now, before = measure.evaluate(sources, period), measure.evaluate(sources, period.prior())
        if now is None or before is None or before.value == 0:
            return None
        rate = (now.value - before.value) / abs(before.value)
        answer = rate >= HIGH_GROWTH
        label = measure.label
        growth = Evaluated(f"{label} growth", rate, "percent", before.used + now.used, "(current - prior) / prior",
                           f"({_wrap(now.expression)} - {_wrap(before.expression)}) / {_magnitude(before)}",
                           True, period, now.unit)
        text = (f"{'Yes' if answer else 'No'}. {label} grew {_show(rate, 'percent')} in {period.label} "
                f"(from {_show(before.value, before.kind, before.unit)} to {_show(now.value, now.kind, now.unit)}); "
                f"{'at or above' if answer else 'below'} {HIGH_GROWTH_WORDS}.")
        return _judged([growth], text, self.name)


_PER_SHARE = re.compile(r"\bper\s+(?:share|cdi|ads|unit)\b|\bcents\b", re.I)
_COUNT = re.compile(r"^\s*(?:(?:in|from|according\s+to)\b[^,?]{0,120},\s*)?how\s+many\b(?!\s+times\b|\s+(?:percentage\s+|basis\s+)?points\b|\s+days\b)", re.I)


def _kind_answers(question: str, value: Evaluated) -> bool:
    """The kind of number asked is the kind answered: a per-share amount is not a total, a count
    ("how many stores") is not a percentage or a dollar amount."""
    if _PER_SHARE.search(question) and value.kind in ("currency", "shares"):
        return False
    if _COUNT.search(question) and value.kind in ("percent", "percent_points", "per_share"):
        return False
    return True


def in_reporting_currency(draft: Draft, store: Store) -> Draft:
    """Amounts written in the filing's own currency: an Australian report's "$" is A$, a Canadian
    one's C$; the answer says "AUD 3,480,120", never a bare "$" that reads as US dollars. The cells
    quoted "as printed" keep their own signs."""
    doc = store.document(draft.citations[0].document_id) if draft.citations else None
    code = doc.meta.currency if doc is not None else None
    if not code or code == "USD":
        return draft
    text = re.sub(r"(?<![A-Za-z$])\$(?=\d)", f"{code} ", draft.text)
    figures = tuple(f.model_copy(update={"unit": code}) if f.unit == "USD" else f for f in draft.figures)
    return draft.model_copy(update={"text": text, "figures": figures})


def _average(values: list[Evaluated], label: str) -> Evaluated:
    first, last = values[0], values[-1]
    mean = sum(v.value for v in values) / len(values)
    terms = " + ".join(_wrap(v.expression) for v in values)
    used = [u for v in values for u in v.used]
    symbolic = f"mean of ({first.symbolic}) over {first.period.fiscal_year}–{last.period.fiscal_year}"
    return Evaluated(f"{first.period.fiscal_year}–{last.period.fiscal_year} average {label.lower()}", mean, first.kind,
                     used, symbolic, f"({terms}) / {len(values)}", True, last.period, first.unit)


def _draft(value: Evaluated, fmt: F.Format, answerer: str, parts: list[Evaluated] = (), also: str = "") -> Draft:
    """The answer for one value; ``parts`` are computed values the text also states (a change's
    two ends), shown as figures of their own so that each can be checked."""
    if not value.computed:
        found = value.used[0]
        if value.kind == "per_share" and fmt.decimals is None:
            printed = re.search(r"\.(\d+)", found.cell.raw)
            fmt = fmt.model_copy(update={"decimals": max(2, len(printed.group(1)) if printed else 2)})
        text = (f"{found.value:g}%" if value.kind == "percent_points"  # printed as 21.6, not a fraction
                else f"{found.value:,.{fmt.decimals or 0}f}" if value.kind == "count"
                else F.render(found.value, value.kind, fmt, found.table.unit))  # type: ignore[arg-type]
        return Draft(
            text=f"{value.label} for {value.period.label}: {text} (as printed: {found.cell.raw}"
                 f"{' ' + found.table.unit if found.table.unit and value.kind == 'currency' else ''}, "
                 f"{found.document} p. {found.table.page}{'; tagged ' + found.concept if found.concept else ''}).",
            found=True, citations=(found.citation(),), figures=(found.figure(),), answerer=answerer,
            measure=value.label,
        )
    shown = F.render(value.value, value.kind, fmt, value.unit)  # type: ignore[arg-type]
    as_percent: Figure | None = None
    if value.kind == "ratio" and abs(value.value) < 1.5 and not value.points:
        # A ratio below one and a half is often quoted as a percentage (payout, return on equity).
        pct = F.render(value.value, "percent", fmt.model_copy(update={"decimals": fmt.decimals if fmt.decimals is not None else 1}))
        shown = f"{shown} ({pct})"
        as_percent = Figure(name=f"{value.label} as a percentage", value=value.value * 100, text=pct, unit="%",
                            period=value.period.short, computed=True)
    if value.points:
        scaled = value.value * (100 if value.kind == "percent" else 1)
        shown = f"{scaled:+.{1 if fmt.decimals is None else fmt.decimals}f} percentage points"
    # A computed part the text states is checked by its own formula, shown before the whole's.
    formula = "; ".join([p.formula for p in parts if p.formula] + [value.formula or ""]).strip("; ") or None
    figures = tuple(u.figure() for u in value.used) + (
        Figure(name=value.label, value=value.value * (100 if value.kind == "percent" else 1), text=shown,
               unit="%" if value.kind == "percent" else None, period=value.period.short, computed=True),
    ) + tuple(_computed_figure(p) for p in parts if p.computed) + ((as_percent,) if as_percent else ())
    inputs = "; ".join(f"{u.metric.label} {u.period.label.replace('fiscal ', '')}: {u.cell.raw} "
                       f"({u.document} p. {u.table.page})" for u in _unique(value.used))
    return Draft(
        text=f"{value.label}{'' if value.titled else ' for ' + value.period.label}: {shown}"
             f"{' (' + also + ')' if also else ''}. Computed as {formula}. Inputs: {inputs}.",
        found=True, citations=_citations(value.used), figures=figures, formula=formula, answerer=answerer,
        measure=value.label,
    )


def _judged(values: list[Evaluated], text: str, answerer: str) -> Draft:
    used = [u for v in values for u in v.used]
    formulas = [v.formula for v in values if v.formula]
    figures = tuple(u.figure() for u in _unique(used))
    figures += tuple(_computed_figure(v) for v in values if v.computed)
    return Draft(text=text, found=True, citations=_citations(used), figures=figures,
                 formula="; ".join(formulas) or None, answerer=answerer, measure=values[-1].label if values else None)


def _computed_figure(value: Evaluated) -> Figure:
    """A value the answer states that no page prints: checked against the formula shown with it."""
    return Figure(name=value.label, value=value.value * (100 if value.kind == "percent" else 1),
                  text=f"{value.value:.4g}", period=value.period.short, computed=True)


def _unique(used: list[Located]) -> list[Located]:
    out: list[Located] = []
    for u in used:
        if not any(u is o or (u.cell == o.cell and u.table.page == o.table.page and u.document_id == o.document_id)
                   for o in out):
            out.append(u)
    return out


def _citations(used: list[Located]) -> tuple[Citation, ...]:
    citations: list[Citation] = []
    for u in used:
        c = u.citation()
        if c not in citations:
            citations.append(c)
    return tuple(citations)


def _has_tags(table: StatementTable) -> bool:
    return any(c.fact is not None for r in table.rows for c in r.cells)


def _days_apart(a: str, b: str) -> int:
    from datetime import date

    try:
        return abs((date.fromisoformat(a[:10]) - date.fromisoformat(b[:10])).days)
    except ValueError:
        return 0


def _unit(metric: Metric) -> str | None:
    return {"currency": "USD", "per_share": "USD/share", "shares": "shares", "percent": "%"}.get(metric.kind)


def _uses_prior(result: F.FormulaResult, prior: float, current: float | None) -> bool:
    text = result.formula
    return F.fmt_number(prior) in text and (current is None or F.fmt_number(prior) != F.fmt_number(current))


_WHICH_MOST = re.compile(
    r"\b(?:which|what)\b(?:(?!\?).){0,200}?\b(?P<word>most|least|highest|lowest|largest|smallest|biggest|greatest|"
    r"larger|smaller|higher|lower|bigger|greater)\b", re.I)
_ACTIVITIES = re.compile(
    r"\b(operat\w*)\s*,\s*(investing)\s*,?\s*(?:and|or|&)\s*(financing)\b(?:\s+activities)?", re.I)


def _asks_which(question: str, matches: list[MetricMatch]) -> bool:
    """"Which (of the segments / debt securities / regions) ... <metric>": an entity is asked for."""
    first = min((m.span[0] for m in matches), default=len(question))
    return re.search(r"\bwhich\b", question[:first], re.I) is not None


def _which_is_most(question: str) -> bool | None:
    """True for "which ... the most / largest", False for "the least / smallest", None otherwise."""
    m = _WHICH_MOST.search(question)
    if m is None:
        return None
    return m.group("word").lower() not in ("least", "lowest", "smallest", "smaller", "lower")


def _listed_activities(question: str) -> list[str]:
    """"operations, investing and financing activities": the three cash flow totals, named once."""
    if _ACTIVITIES.search(question):
        return ["operating_cash_flow", "investing_cash_flow", "financing_cash_flow"]
    return []


# ---------------------------------------------------------------------------------- judgements
_YES_NO = re.compile(r"^\s*(?:is|are|does|do|did|has|have|had|was|were|can|will)\b", re.I)
_UP = re.compile(r"\b(improv\w*|increas\w*|grow\w*|grew|rise|rising|rose|higher|expand\w*|accelerat\w*)\b", re.I)
_DOWN = re.compile(r"\b(declin\w*|decreas\w*|drop\w*|fall\w*|fell|lower|shrink\w*|contract\w*|deteriorat\w*)\b", re.I)
_SIGN = re.compile(r"\b(positive|negative)\b", re.I)
_HEALTHY = re.compile(r"\b(healthy|strong|sound|adequate|comfortable|good)\b", re.I)
_EXISTS = re.compile(r"^\s*(?:has|have|had|did|does|do)\b.*\b(pa(?:y|id)|report\w*|record\w*|incur\w*|any)\b", re.I)
_CAPITAL_INTENSIVE = re.compile(r"\bcapital[\s-]+intensive\b|\bcapital[\s-]+intensity\b", re.I)
_HIGH_GROWTH = re.compile(r"\bhigh[\s-]+growth\b|\bfast[\s-]+growing\b|\bgrowth\s+(?:company|stock)\b", re.I)
_STABLE = re.compile(r"\b(consistent\w*|stable|stabilit\w*|steady|fluctuat\w*|volatil\w*|vary|varied|varies)\b", re.I)
_BAND = re.compile(r"(?:more|greater|higher)\s+than\s+(?:roughly\s+|about\s+|approximately\s+|around\s+|~\s*)?(\d+(?:\.\d+)?)\s*(?:%|percent|percentage\s+points?|pp)", re.I)
# Ratio levels analysts read as healthy: a liquidity ratio of 1 covers current liabilities.
HEALTHY_FLOOR = {"current_ratio": 1.0, "quick_ratio": 1.0}
# Capital intensity: capex of a tenth of revenue or more (telecoms, utilities, manufacturing),
# or two dollars of assets or more per dollar of revenue (Investopedia's capital intensity ratio).
CAPITAL_INTENSIVE = {"capex_to_revenue": 0.10, "assets_to_revenue": 2.0}
# In words: figures an answer states must be printed on the cited pages, and these are not.
CAPITAL_INTENSIVE_WORDS = {"capex_to_revenue": "the tenth of revenue that marks a capital-intensive business",
                           "assets_to_revenue": "the two dollars of assets per dollar of revenue that marks one"}
HIGH_GROWTH = 0.15           # revenue growth a year that reads as a high-growth company
HIGH_GROWTH_WORDS = "the fifteen percent a year that marks a high-growth company"
STABLE_BAND = 2.0            # percentage points (or % for amounts) a year, unless the question says


def _band(question: str) -> float:
    m = _BAND.search(question)
    return float(m.group(1)) if m else STABLE_BAND


_THRESHOLD = re.compile(
    r"\b(exceed(?:s|ed|ing)?|more\s+than|greater\s+than|higher\s+than|above|over|at\s+least|in\s+excess\s+of|"
    r"less\s+than|lower\s+than|below|under|fewer\s+than|at\s+most)\s+(?:roughly\s+|about\s+|approximately\s+)?"
    r"(\$\s*)?(\d[\d,]*(?:\.\d+)?)\s*(%|percent\b|per\s+cent\b|trillion\b|billion\b|million\b|thousand\b|bn\b|mm\b|x\b|times\b)?",
    re.I,
)
_SCALE_WORDS = {"trillion": 1e12, "billion": 1e9, "bn": 1e9, "million": 1e6, "mm": 1e6, "thousand": 1e3}


def _parse_threshold(question: str) -> tuple[bool, float, str, str] | None:
    """(above?, level, unit "%" | "$" | "", the words) of "more than 10%", "below $5 billion"."""
    m = _THRESHOLD.search(question.split("?")[0])
    if m is None:
        return None
    words = " ".join(m.group(1).lower().split())
    above = not words.startswith(("less", "lower", "below", "under", "fewer", "at most"))
    level = float(m.group(3).replace(",", ""))
    suffix = (m.group(4) or "").lower()
    if suffix in ("%", "percent", "per cent"):
        return above, level, "%", words
    if suffix in _SCALE_WORDS or m.group(2):
        return above, level * _SCALE_WORDS.get(suffix, 1.0), "$", words
    if 1900 <= level <= 2100 and "." not in m.group(3):
        return None  # "over 2022" is a year
    return above, level, "", words


def judgement(question: str) -> str | None:
    """What a yes/no question about a metric asks: "up", "down", "positive", "negative",
    "healthy", "exists", "stable", "threshold", "capital_intensive" or "high_growth"."""
    if not _YES_NO.match(question):
        return None
    first = question.split("?")[0]
    if _CAPITAL_INTENSIVE.search(first):
        return "capital_intensive"
    if _HIGH_GROWTH.search(first):
        return "high_growth"
    if _STABLE.search(first):
        return "stable"
    if _parse_threshold(first) is not None:
        return "threshold"
    sign = _SIGN.search(first)
    if sign:
        return sign.group(1).lower()
    up, down = _UP.search(first), _DOWN.search(first)
    if up and (not down or up.start() < down.start()):
        return "up"
    if down:
        return "down"
    if _HEALTHY.search(first):
        return "healthy"
    if _EXISTS.match(first):
        return "exists"
    return None
