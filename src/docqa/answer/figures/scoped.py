"""A figure of the part of the company the question names (plan.scope: "the Electronics and Energy
segment", "in Russia"), never the company's total in its place.

Every printed figure an answer uses must sit where the filing prints that name: its row's label,
the heading above the row, the table's title or the figure's own column header. A named formula
("operating margin of the Domestic segment") is computed from the segment's own lines: its inputs
become the rows that name the segment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docqa.answer.figures.evaluated import Evaluated, Measure
from docqa.answer.figures.located import Located
from docqa.answer.figures.measures import ExprMeasure, FormulaMeasure
from docqa.answer.figures.printed_rows import RowMeasure
from docqa.finance import compose as C
from docqa.finance.lexicon import load_lexicon
from docqa.finance.rowlookup import STOP, has_word, normalized
from docqa.finance.text import stems

_DIVISION = re.compile(r"^\s*([a-z][\w\s&'-]*?)\s*/\s*([a-z][\w\s&'-]*?)\s*$", re.I)


def scope_words(scope: tuple[str, ...]) -> list[list[str]]:
    """Each name's content stems ("Electronics and Energy" -> [electronic, energy])."""
    out = []
    for name in scope:
        words = [s for s in normalized(stems(name)) if s not in STOP]
        if words:
            out.append(words)
    return out


def honours(found: Located, names: list[list[str]]) -> bool:
    """Is the figure printed under every name asked (in its row, heading, title or column)?"""
    column = next((c for c in found.table.columns if c.index == found.cell.column), None)
    context = " ".join(x for x in (found.row.label, found.row.section or "", found.table.title,
                                   column.header if column else "") if x)
    held = set(normalized(stems(context)))
    return all(all(has_word(held, w) or any(h.startswith(w) or w.startswith(h) for h in held if len(h) >= 4)
                   for w in words) for words in names)


@dataclass
class Scoped(Measure):
    """A measure read only from figures printed under the names asked."""

    inner: Measure
    names: list[list[str]]
    scope: str

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.inner.label

    def evaluate(self, sources, period) -> Evaluated | None:
        value = self.inner.evaluate(sources, period)
        if value is None or not value.used or not all(honours(u, self.names) for u in value.used):
            return None
        if _compact(self.scope) not in _compact(value.label):
            value.label = f"{value.label} ({self.scope})"
        return value


def _compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def scoped_measures(measures: list[Measure], scope: tuple[str, ...], subject: str,
                    kinds: frozenset[str], company_words: frozenset[str]) -> list[Measure]:
    """The measures asked, each read from the part of the company named; a named ratio of two
    lines is recomputed from the lines that name it."""
    names = scope_words(scope)
    if not names:
        return measures
    label = " ".join(scope)
    out: list[Measure] = []
    for measure in measures:
        if isinstance(measure, FormulaMeasure):
            own = _from_scoped_inputs(measure, label, company_words)
            if own is not None:
                out.append(Scoped(own, names, label))
        out.append(Scoped(measure, names, label))
    if subject and not any(isinstance(m, Scoped) and isinstance(m.inner, RowMeasure) for m in out):
        out.append(Scoped(RowMeasure(subject, asked=subject, kinds=kinds), names, label))
    return out


def _from_scoped_inputs(measure: FormulaMeasure, scope: str, company_words: frozenset[str]) -> ExprMeasure | None:
    """"Operating income / revenue" of a segment: the segment's operating income over its revenue."""
    formula = measure.formula
    if len(formula.inputs) != 2 or not _DIVISION.match(formula.expression or ""):
        return None
    lexicon = load_lexicon()
    try:
        top, bottom = (lexicon.metric(k) for k in formula.inputs)
    except KeyError:
        return None
    kind = formula.kind if formula.kind != "same" else None
    return ExprMeasure(formula.label, C.BinOp("/", C.Leaf(f"{scope} {top.label}"), C.Leaf(f"{scope} {bottom.label}")),
                       kind, company_words, one_table=True)
