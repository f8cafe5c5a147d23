"""Measures a question asks: a line item, a named formula, two measures combined, an expression."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from docqa.answer.figures.reading.evaluated import Evaluated, Measure, joined, read_kind, units_clash, wrap
from docqa.answer.figures.reading.line_item_words import leftover
from docqa.answer.figures.reading.located import Located, locate
from docqa.answer.figures.reading.printed_rows import RowMeasure
from docqa.answer.figures.reading.summed_parts import summed_parts
from docqa.finance import compose as C
from docqa.finance import formulas as F
from docqa.finance.lexicon import FormulaDef, Metric, load_lexicon
from docqa.finance.periods import Period
from docqa.types import StatementKind
from docqa.plan.line_text import leaf_text


@dataclass
class MetricMeasure(Measure):
    """A line item the lexicon names, read as printed; else the sum of its printed parts, else
    the first of its other routes that reads (the formula shown names what was read)."""

    metric: Metric
    asked: str = ""   # the question's own words for it (a row printed in them is that line)

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.metric.label

    def evaluate(self, sources, period):
        found = locate(self.metric, sources, period, self.asked)
        if found is not None and found.table.statement is None and self.metric.statement is not None:
            # The item's own statement prints no such row, only a note does ("Total liabilities 24"
            # of a held-for-sale group): the statement's parts, when a route gives them, come first.
            routed = self._routed(sources, period)
            if routed is not None:
                return routed
        if found is not None:
            return Evaluated.printed(found, read_kind(self.metric.kind))
        parts = summed_parts(self.metric, sources, period)
        if parts is not None:
            return parts
        return self._routed(sources, period)

    def _routed(self, sources, period) -> Evaluated | None:
        for route in self.metric.routes:
            value = ExprMeasure(self.metric.label, C.parse_formula(route), amounts=True).evaluate(sources, period)
            if value is not None:
                return value
        return None


@dataclass
class FormulaMeasure(Measure):
    """A named formula, computed from its inputs' printed figures."""

    formula: FormulaDef
    year_end: bool = False         # the question asked for year-end balances, not averages
    # The filer's own line of the measure ("Free cash flow, non-GAAP measure"), read before the
    # formula: an analyst who names a measure the filer defines and prints wants the printed figure
    # (PepsiCo's adds back asset sales). Decided once for the filings, so that a change over two
    # years never mixes the printed line with the formula.
    printed: Measure | None = None
    only_printed: bool = False     # the filer's own figure asked ("as reported by the company"): never computed
    _own: bool | None = None

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

    def alternative(self, period: Period | None = None) -> Alternative | None:
        """The other convention, stated in one clause beside the default (none for a quarter
        stated for a year: it would be the quarter's own)."""
        if (not self.formula.alternative or self.year_end or self._own
                or (period is not None and self.annualizing(period))):
            return None
        kind = self.formula.kind if self.formula.kind != "same" else None
        return Alternative(ExprMeasure(f"{self.formula.label} ({self.formula.alternative_label})",
                                       C.parse_formula(self.formula.alternative), kind), self.formula.alternative_label)

    def annualizing(self, period: Period) -> float | None:
        """A quarter's flow against balances (ROE, ROA, a turnover, days of sales) is stated for
        a year, as filers and analysts state it: the quarter's flow times four. None when the
        period is a year or the formula mixes no flow with a balance."""
        if period.quarter is None:
            return None
        lexicon = load_lexicon()
        kinds = [lexicon.metric(k).statement for k in self.formula.inputs if k != "subject"]
        flows = {StatementKind.INCOME, StatementKind.CASH_FLOW}
        if not kinds or not any(k in flows for k in kinds) or StatementKind.BALANCE not in kinds:
            return None
        return 4.0 if kinds[0] in flows else 0.25  # a flow over balances, or balances over a flow

    def evaluate(self, sources, period):
        if self.printed is not None and self._own is not False:
            found = self.printed.evaluate(sources, period)
            if self._own is None:
                self._own = (found is not None and _of_the_kind(found, self.formula.kind)
                             and (self.only_printed or not _agrees(found, self._computed(sources, period))))
            if self._own and found is not None and found.kind == "currency" and self.formula.kind != "currency":
                # "Leverage Ratio 3.8" in a table "in millions": a ratio, not 3.8 million dollars
                return replace(found, kind=self.formula.kind, unit=None)
            if self._own:
                return found
        if self.only_printed:
            return None
        return self._computed(sources, period)

    def _computed(self, sources, period) -> Evaluated | None:
        factor = self.annualizing(period)
        if factor is None:
            return self._evaluate(sources, period)
        # A quarterly report's balance sheet sets the quarter's end beside the last year-end, not
        # beside the same quarter a year before: a quarter's ratio is taken on its closing balances
        # (the formula's year-end convention), then stated for a year.
        closing = self.alternative()
        value = (closing.measure.evaluate(sources, period) if closing is not None else None) or self._evaluate(sources, period)
        return annualized(value, factor) if value is not None else None

    def _evaluate(self, sources, period):
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
            # An input this filer does not print may still be read another way (its parts, a
            # route): the formula as data reads its inputs as line items that know those ways.
            if not self.formula.compose:
                return None
            kind = self.formula.kind if self.formula.kind != "same" else None
            return ExprMeasure(self.formula.label, C.parse_formula(self.formula.compose), kind).evaluate(sources, period)
        # Cite last year's inputs only when the formula used them.
        used += [before[k] for k in self.formula.inputs
                 if k in prior and _uses_prior(result, prior[k], current.get(k))]
        return _from_result(self.formula.label, result, used, period)


# a row that names a kind of rate or ratio: its plain figure is one ("Leverage Ratio 3.8")
_A_RATE_NAMED = re.compile(r"\b(?:ratio|rate|margin\s+percentage|multiple|coverage|times)\b", re.I)


def _of_the_kind(found: Evaluated, kind: str) -> bool:
    """Is a printed figure of the formula's kind? An amount where a rate is named is another
    measure: a filer's "Gross margin 135,620" is its gross profit, not a gross margin."""
    if kind == "currency":
        return found.kind == "currency"
    if found.kind != "currency":
        return True
    raws = [u.cell.raw or "" for u in found.used]
    return (not any(re.search(r"[$\u20ac\u00a3\u00a5]", r) for r in raws)
            and (any(re.search(r"\d\s*(?:x|times)\s*$", r, re.I) for r in raws)
                 or any(_A_RATE_NAMED.search(u.row.label) for u in found.used)))


def _agrees(printed: Evaluated, computed: Evaluated | None) -> bool:
    """Does the formula give the printed figure, to the digits printed? Then the line is the
    formula's (an effective tax rate printed "(15)%" is 73,608 / 485,321), and the computed figure
    says it more precisely; a filer's own definition gives another figure."""
    if computed is None or not printed.used:
        return False
    value = computed.value * 100 if printed.kind == "percent_points" and computed.kind != "percent_points" else computed.value
    raw = printed.used[0].cell.raw or ""
    decimals = len(m.group(1)) if (m := re.search(r"\.(\d+)", raw)) else 0
    return abs(value - printed.value) <= 0.5 * 10 ** -decimals + 1e-9


def annualized(value: Evaluated, factor: float) -> Evaluated:
    """A quarter's ratio stated for a year: times four (a flow over balances), or divided by four
    (balances over a flow: days of a quarter's sales), the factor written into the formula."""
    if factor >= 1:
        symbolic, expression = f"{factor:g} * ({value.symbolic})", f"{factor:g} * ({value.expression})"
    else:
        symbolic, expression = f"({value.symbolic}) / {1 / factor:g}", f"({value.expression}) / {1 / factor:g}"
    label = value.label.replace("year-end", "quarter-end")  # the closing balances are the quarter's
    return Evaluated(f"{label} (annualized)", value.value * factor, value.kind, value.used,
                     symbolic + " [the quarter annualized]", expression, True, value.period, value.unit,
                     value.titled, value.points)


def _from_result(label: str, result: F.FormulaResult, used: list[Located], period: Period) -> Evaluated:
    parts = result.formula.split(" = ")
    unit = next((u.table.unit for u in used if u.table.unit), None)
    return Evaluated(label, result.value, result.kind, used, parts[0], parts[1] if len(parts) > 2 else parts[0],
                     True, period, unit)


def _uses_prior(result: F.FormulaResult, prior: float, current: float | None) -> bool:
    text = result.formula
    return F.fmt_number(prior) in text and (current is None or F.fmt_number(prior) != F.fmt_number(current))


@dataclass(frozen=True)
class Alternative:
    """A formula's other convention ("year-end balances"), and the words that name it."""

    measure: ExprMeasure
    label: str


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
        if units_clash(a, b):
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
        return joined(self.label, a, symbol, b, value, kind, period)


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
    amounts: bool = False            # leaves are amounts: a cost printed in parentheses is its magnitude
    one_table: bool = False          # a segment's ratio: both lines from the one table that prints the segment
    part_of_whole: bool = False      # a margin: a part of revenue over revenue, never more than all of it

    def evaluate(self, sources, period):
        value = self._eval(self.expr, sources, period)
        if value is None:
            return None
        if self.part_of_whole and abs(value.value) > 1.0 and value.value > 0:
            return None  # "959%" operating margin: the denominator read is not the revenue asked
        kind = self.kind or value.kind
        return Evaluated(self.label, value.value, kind, value.used, value.symbolic, value.expression,
                         True, period, value.unit)

    def _in_one_table(self, node, sources, period) -> Evaluated | None:
        """A ratio of two lines that one table prints side by side (a segment's operating income
        over its sales): the denominator's table first, then the numerator's."""
        a, b = self._eval(node.left, sources, period), self._eval(node.right, sources, period)
        if a is None or b is None:
            return None
        ta, tb = _table_of(a), _table_of(b)
        if ta is None or tb is None:
            return None
        if ta != tb:
            a2 = self._within(node.left, tb, sources, period)
            if a2 is not None:
                a = a2
            else:
                b = self._within(node.right, ta, sources, period)
                if b is None:
                    return None
        if b.value == 0 or [u.cell for u in a.used] == [u.cell for u in b.used]:
            return None
        return Evaluated(f"{a.label} / {b.label}", a.value / b.value, "ratio", a.used + b.used,
                         f"{wrap(a.symbolic)} / {wrap(b.symbolic)}", f"{wrap(a.expression)} / {wrap(b.expression)}",
                         True, period, a.unit or b.unit)

    def _within(self, node, table, sources, period) -> Evaluated | None:
        if not isinstance(node, C.Leaf):
            return None
        measure = leaf_measure(node, self.company_words)
        if not isinstance(measure, RowMeasure):
            return None
        value = replace(measure, within=table).evaluate(sources, period)
        if value is not None and not value.computed:
            value = Evaluated(value.label, value.value, value.kind, value.used, value.label.lower(),
                              value.expression, False, period, value.unit)
        return value

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
                             f"average {now.symbolic}", f"({wrap(before.expression)} + {wrap(now.expression)}) / 2",
                             True, period, now.unit)
        if isinstance(node, (C.Leaf, C.Name)):
            measure = leaf_measure(node, self.company_words)
            if measure is None:
                return None
            value = measure.evaluate(sources, period)
            if value is None:
                return None
            if value.kind == "currency" and not value.computed and value.used and _a_signed_total(value.used[0]):
                value.value = value.used[0].cell.value  # "net cash used in operating activities (1,785,948)" is negative
                value.expression = F.fmt_number(value.value)
            elif value.kind == "currency" and value.value < 0 and value.used and value.used[0].metric.outflow:
                value.value = abs(value.value)
            elif self.amounts and value.kind == "currency" and value.value < 0 and not value.computed:
                value.value = abs(value.value)
                value.expression = F.fmt_number(value.value)
            if not value.computed:
                value = Evaluated(value.label, value.value, value.kind, value.used, value.label.lower(),
                                  value.expression, False, period, value.unit)
            return value
        if self.one_table and node.op == "/":
            return self._in_one_table(node, sources, period)
        a = self._eval(node.left, sources, period)
        if a is None:
            return None
        b = self._eval(node.right, sources, period)
        if b is None:
            return None
        if units_clash(a, b):
            return None  # thousands and millions do not combine as printed
        if (len({a.kind, b.kind} & {"percent_points", "percent"}) == 1 and {a.kind, b.kind} & {"currency", "count"}
                and node.op != "*"):
            # a printed percentage (a growth rate, a share: "17 %") and an amount are no ratio, sum or
            # difference of amounts
            return None
        if node.op == "/":
            if b.value == 0 or (a.used and [u.cell for u in a.used] == [u.cell for u in b.used]):
                return None  # a figure over itself is no ratio anyone asks
            value, kind = a.value / b.value, "ratio"
        elif node.op == "*":
            value, kind = a.value * b.value, a.kind if b.kind == "ratio" else b.kind
        else:
            value = a.value + b.value if node.op == "+" else a.value - b.value
            kind = a.kind if a.kind != "ratio" else b.kind
        return joined(self.label, a, node.op, b, value, kind, period)


def _table_of(value: Evaluated) -> tuple | None:
    tables = {(u.document_id, u.table.page, u.table.bbox) for u in value.used}
    return next(iter(tables)) if len(tables) == 1 else None


# a cash-flow statement's total of an activity, or the year's change in cash: its sign is what it says
_SIGNED_TOTAL = re.compile(r"^\s*(?:net\s+)?cash\b.*\b(?:activities|operations)\b|^\s*net\s+(?:increase|decrease|change)\b",
                           re.I)


def _a_signed_total(found: Located) -> bool:
    """A line whose figure in arithmetic keeps the sign printed: "Net cash used in operating
    activities (1,785,948)" less capital spending is more negative, not less. (A cost printed in
    brackets on the same statement is its magnitude.)"""
    return (found.table.statement == StatementKind.CASH_FLOW and found.cell.value is not None
            and bool(_SIGNED_TOTAL.search(found.row.label)))


def leaf_measure(node, company_words: frozenset[str] = frozenset()) -> Measure | None:
    """A leaf of an expression as a measure: a lexicon key, the lexicon's line item the words name
    (falling back to the best printed row), or the best printed row."""
    lexicon = load_lexicon()
    if isinstance(node, C.Name):
        try:
            return MetricMeasure(lexicon.metric(node.key))
        except KeyError:
            return FormulaMeasure(lexicon.formula(node.key))
    text = leaf_text(node.text, company_words)
    if not text:
        return None
    matches = [m for m in lexicon.match(text) if not (m.kind == "formula" and m.key in F.SUBJECT_FORMULAS)]
    amount = len(matches) == 1 and matches[0].kind == "metric" and lexicon.metric(matches[0].key).kind == "currency"
    row = RowMeasure(text, asked=text, kinds=frozenset({"amount"}) if amount else frozenset())
    if len(matches) == 1 and not leftover(text, matches[0], company_words):
        m = matches[0]
        if m.kind == "formula":
            return FormulaMeasure(lexicon.formula(m.key))
        metric = lexicon.metric(m.key)
        return Either(MetricMeasure(metric), RowMeasure(text, asked=text, stands_for=metric))
    return row
