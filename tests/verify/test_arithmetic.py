"""verify.arithmetic: plain arithmetic evaluated without running code; a formula's inputs and result."""

from __future__ import annotations

import math

import pytest

from docqa.verify import evaluate
from docqa.verify.arithmetic import parse_formula


def test_evaluate_plain_arithmetic():
    assert evaluate("(177,866 - 111,934) / 177,866") == pytest.approx(0.37068, rel=1e-4)
    assert evaluate("4,106 / 177,866 x 100") == pytest.approx(2.3085, rel=1e-4)
    assert evaluate("$1.5 billion / 3") == pytest.approx(5e8)
    assert evaluate("Revenue / COGS") is None
    assert evaluate("__import__('os').system('x')") is None
    assert evaluate("1 / 0") is None


def test_evaluate_refuses_huge_powers():
    assert evaluate("(1.2 ^ (1 / 3))") == pytest.approx(1.2 ** (1 / 3))
    assert math.isnan(evaluate("10 ^ 400"))  # not a number, never a huge computation


def test_a_formula_declares_its_result_after_the_last_equals():
    f = parse_formula("gross margin = (177,866 - 111,934) / 177,866 = 37.07%")
    assert [n.magnitude for n in f.inputs] == [177866, 111934, 177866]
    assert f.declared is not None and f.declared.magnitude == 37.07
    assert f.adds_up


def test_wrong_arithmetic_does_not_add_up():
    assert not parse_formula("(177,866 - 111,934) / 177,866 = 42.0%").adds_up


def test_constants_of_arithmetic_are_not_inputs():
    f = parse_formula("365 / (111,934 / ((11,461 + 16,047) / 2))")
    assert [n.magnitude for n in f.inputs] == [111934, 11461, 16047]
    assert f.declared is None and f.adds_up


def test_one_formula_per_year_each_adds_up():
    f = parse_formula("4,106 / 177,866 = 2.31%; 4,186 / 135,987 = 3.08%")
    assert len(f.parts) == 2 and f.adds_up and f.declared is None
    assert not parse_formula("4,106 / 177,866 = 2.31%; 4,186 / 135,987 = 9.99%").adds_up


def test_no_formula_has_no_inputs():
    f = parse_formula(None)
    assert (f.inputs, f.declared, f.evaluated, f.outputs) == ([], None, [], [])
