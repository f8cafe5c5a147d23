"""Rule: the draft's figures stand on the cited pages.

A figure read off a page (an input), and every number in the draft's formula, must be printed on
a surviving cited page (across a unit shift and rounding). A computed figure (an output) is
trusted only when all inputs are grounded and the stated arithmetic adds up.
"""

from __future__ import annotations

from dataclasses import dataclass

from docqa.types import Citation, Draft, Figure
from docqa.verify.arithmetic import parse_formula
from docqa.verify.numbers import Number, matches, numbers_in


def _figure_number(figure: Figure) -> Number | None:
    parsed = numbers_in(figure.text)
    if len(parsed) == 1:
        return parsed[0]
    value = abs(figure.value) * figure.scale
    text = f"{figure.value}"
    decimals = len(text.split(".", 1)[1].rstrip("0")) if "." in text else 0
    return Number(figure.text, value, decimals, figure.scale, figure.unit == "%", True)


def _figure_values(figure: Figure) -> list[float]:
    values = [abs(figure.value) * figure.scale, abs(figure.value)]
    values += [n.magnitude for n in numbers_in(figure.text)]
    return values


@dataclass(frozen=True)
class Support:
    """What the cited pages and the draft's arithmetic ground: the values printed on the cited
    pages, the input and output figures that stand, and the values they vouch for."""

    page_values: list[float]
    inputs: list[Figure]
    outputs: list[Figure]
    input_values: list[float]
    trusted: list[float]

    def stands(self, figure: Figure) -> bool:
        return figure in self.inputs or figure in self.outputs

    def figures(self, draft: Draft) -> tuple[Figure, ...]:
        """The draft's figures that stand, in the draft's order."""
        return tuple(f for f in draft.figures if self.stands(f))


def _outputs(draft: Draft, trusted: list[float], evaluated: bool) -> list[Figure]:
    """The computed figures that agree with the formula's outputs (``trusted`` grows with each)."""
    verified: list[Figure] = []
    for figure in (f for f in draft.figures if f.computed):
        n = _figure_number(figure)
        if n is not None and (not evaluated or matches(n, trusted, percent_of_ratio=True)):
            verified.append(figure)
            trusted += _figure_values(figure)
    return verified


def supported(draft: Draft, kept: tuple[Citation, ...], pages: dict[tuple[str, int], str]) -> Support:
    """Which of the draft's figures the kept citations' pages ground."""
    cited_pages = {(c.document_id, c.page) for c in kept}
    page_values = [n.magnitude for key in cited_pages for n in numbers_in(pages[key])]
    formula = parse_formula(draft.formula)
    inputs = [f for f in draft.figures if not f.computed]
    verified_inputs = [f for f in inputs if (n := _figure_number(f)) is not None and matches(n, page_values)]
    input_values = [v for f in verified_inputs for v in _figure_values(f)]
    formula_inputs_ok = all(matches(n, page_values + input_values) for n in formula.inputs)
    inputs_ok = bool(inputs or formula.inputs) and len(verified_inputs) == len(inputs) and formula_inputs_ok
    trusted: list[float] = []
    verified_outputs: list[Figure] = []
    if inputs_ok and formula.adds_up:
        trusted = formula.outputs
        verified_outputs = _outputs(draft, trusted, bool(formula.evaluated))
    return Support(page_values, verified_inputs, verified_outputs, input_values, trusted)
