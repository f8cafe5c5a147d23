"""The draft's own arithmetic: a formula as people write it, evaluated safely, and what it yields.

``evaluate`` reads plain arithmetic ("(177,866 - 111,934) / 177,866 x 100") without running code;
``parse_formula`` splits a draft's formula into its inputs (numbers that must be printed on a
cited page), its declared result ("= 37.07%") and what the arithmetic evaluates to.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass

from docqa.text import fold
from docqa.verify.numbers import CONSTANTS, SCALES, Number, matches, numbers_in

_FORMULA_NUMBER = re.compile(
    r"[$\u20ac\u00a3]?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s?(%)?"
    r"(?:\s?(thousands?|millions?|billions?|trillions?)\b)?",
    re.I,
)
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.Pow: lambda a, b: a ** b if abs(b) <= 12 else float("nan")}  # CAGR roots; no huge powers


def _safe_eval(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _safe_eval(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return float(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_safe_eval(node.left), _safe_eval(node.right))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _safe_eval(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    raise ValueError("not arithmetic")


def evaluate(expression: str) -> float | None:
    """Evaluate plain arithmetic as people write it ("(177,866 - 111,934) / 177,866 x 100")."""

    def number(match: re.Match) -> str:
        value = float(match.group(1).replace(",", ""))
        if match.group(2):
            value /= 100
        if match.group(3):
            value *= SCALES[match.group(3).lower()]
        return repr(value)

    text = fold(expression).replace("\u00d7", "*").replace("\u00f7", "/").replace("^", "**")
    text = _FORMULA_NUMBER.sub(number, text)
    text = re.sub(r"(?<=[\d)\s])[x\u00b7](?=[\s\d(])", "*", text)
    if not re.fullmatch(r"[\d.eE+\-*/()\s]+", text) or not re.search(r"\d", text):
        return None
    try:
        return _safe_eval(ast.parse(text.strip(), mode="eval"))
    except (SyntaxError, ValueError, ZeroDivisionError, RecursionError, OverflowError):
        return None


@dataclass
class Formula:
    inputs: list[Number]
    declared: Number | None
    evaluated: list[float]
    parts: tuple[Formula, ...] = ()  # a formula per year ("...; ...") when an answer compares years

    @property
    def adds_up(self) -> bool:
        if self.parts:
            return all(p.adds_up for p in self.parts)
        return self.declared is None or not self.evaluated or matches(self.declared, self.evaluated, percent_of_ratio=True)

    @property
    def outputs(self) -> list[float]:
        if self.parts:
            return [v for p in self.parts for v in p.outputs]
        return self.evaluated + ([self.declared.magnitude] if self.declared is not None else [])


def parse_formula(formula: str | None) -> Formula:
    """A draft's formula: its inputs, its declared result and what its arithmetic evaluates to."""
    if formula and (";" in formula or "\n" in formula):
        parts = tuple(parse_formula(f) for f in re.split(r"[;\n]", formula) if f.strip())
        return Formula([n for p in parts for n in p.inputs], None, [v for p in parts for v in p.evaluated], parts)
    if not formula:
        return Formula([], None, [])
    segments = fold(formula).split("=")
    body, last = segments[:-1], segments[-1]
    # The declared output is a last "= 37.07%" holding one number; "= (a - b) / a" is arithmetic.
    if len(segments) == 1 or len(numbers_in(last)) != 1:
        body, last = segments, ""
    declared = numbers_in(last)[0] if last else None
    inputs = [n for seg in body for n in numbers_in(seg, claims_only=True) if n.magnitude not in CONSTANTS]
    evaluated = [v for v in (evaluate(seg) for seg in body) if v is not None]
    return Formula(inputs, declared, evaluated)
