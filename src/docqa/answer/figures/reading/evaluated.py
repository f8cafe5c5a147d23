"""A measure, and its value for a period written out as the printed figures it is computed from."""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.answer.figures.reading.located import Located
from docqa.answer.figures.reading.sources import Source
from docqa.finance import compose as C
from docqa.finance import formulas as F
from docqa.finance.periods import Period


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

    @property
    def stated(self) -> float:
        """The value as an answer states it: a share in percent, not as a fraction."""
        return self.value * (100 if self.kind == "percent" else 1)

    @classmethod
    def printed(cls, found: Located, kind: str) -> Evaluated:
        """A figure as printed: no formula, its expression the number itself."""
        return cls(found.metric.label, found.value, kind, [found], found.metric.label.lower(),
                   F.fmt_number(found.value), False, found.period, found.table.unit)


class Measure:
    """Something a question asks for, evaluated for one period from the filings' tables."""

    label: str

    def evaluate(self, sources: list[Source], period: Period) -> Evaluated | None:  # pragma: no cover
        raise NotImplementedError


def read_kind(kind: str) -> str:
    """A printed percentage ("21.6%") is read as points, not as a fraction."""
    return {"percent": "percent_points"}.get(kind, kind)


def show(value: float, kind: str, unit: str | None = None, fmt: F.Format | None = None) -> str:
    if kind == "percent_points":
        return f"{value:g}%"
    fmt = fmt or F.Format(decimals=2 if kind in ("ratio", "times", "days") else None)
    return F.render(value, kind, fmt, unit)  # type: ignore[arg-type]


def wrap(text: str) -> str:
    """Parenthesise an expression (not a name, not a lone figure) before combining it."""
    text = text.strip()
    if C.enclosed(text) or not (re.search(r"\s[-+*/x^]\s|\^", text) or text.startswith("-")):
        return text
    return f"({text})"


def magnitude(value: Evaluated) -> str:
    """The expression of |value| (growth divides by the prior year's magnitude)."""
    if value.value < 0 and re.fullmatch(r"-[\d,.]+", value.expression.strip()):
        return value.expression.strip()[1:]
    return wrap(value.expression)


def growth_expression(now: Evaluated, before: Evaluated) -> str:
    """(current - prior) / |prior|, written out in printed figures."""
    return f"({wrap(now.expression)} - {wrap(before.expression)}) / {magnitude(before)}"


def units_clash(a: Evaluated, b: Evaluated) -> bool:
    """Amounts in thousands and in millions do not combine as printed."""
    return bool(a.kind == "currency" and b.kind == "currency" and a.unit and b.unit and a.unit != b.unit)


def joined(label: str, a: Evaluated, symbol: str, b: Evaluated, value: float, kind: str, period: Period) -> Evaluated:
    """``a symbol b`` as one computed value, citing each figure once."""
    return Evaluated(label, value, kind, a.used + [u for u in b.used if u not in a.used],
                     f"{wrap(a.symbolic)} {symbol} {wrap(b.symbolic)}",
                     f"{wrap(a.expression)} {symbol} {wrap(b.expression)}", True, period, a.unit or b.unit)
