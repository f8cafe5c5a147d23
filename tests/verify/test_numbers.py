"""verify.numbers: numbers read with their scale, references left out, agreement across a unit shift."""

from __future__ import annotations

import pytest

from docqa.verify import matches, numbers_in


def test_references_are_not_claims():
    text = ("In fiscal 2018 (Item 7, page 38, Note 5) Q2 sales per the 10-K rose; see FY2017, "
            "December 31, 2017 and the 3rd quarter [P1].")
    assert numbers_in(text, claims_only=True) == []


def test_dates_are_references_but_numbers_beside_them_are_claims():
    (n,) = numbers_in("On 12/31/2017 and 2017-12-31 the balance was 4,106.", claims_only=True)
    assert n.magnitude == 4106
    assert len(numbers_in("On 12/31/2017 the balance was 4,106.")) > 1  # without claims_only, every number


def test_claims_are_read_with_their_scale():
    (a, b, c, d) = numbers_in("$1,577 million, $1.577 billion, 4.8% and (459)", claims_only=True)
    assert a.magnitude == b.magnitude == 1.577e9
    assert (c.magnitude, c.percent, c.decimals) == (4.8, True, 1)
    assert d.magnitude == 459


def test_a_lone_scale_letter_counts_only_glued_to_an_amount():
    (glued,) = numbers_in("$5m")
    assert glued.magnitude == 5e6 and glued.explicit
    (spaced,) = numbers_in("$5 m")
    assert spaced.magnitude == 5 and spaced.raw == "$5"


def test_trailing_zeros_are_formatting_not_precision():
    (a,) = numbers_in("$4.60")
    (b,) = numbers_in("$4.6")
    assert a.decimals == b.decimals == 1 and a.tolerance == b.tolerance


@pytest.mark.parametrize("claim", ["$1,577 million", "$1.577 billion", "1577.00", "$1.6 billion", "1,577"])
def test_unit_shift_and_rounding(claim):
    (n,) = numbers_in(claim)
    assert matches(n, [1577.0])


@pytest.mark.parametrize("claim, ok", [("4.8%", True), ("5%", True), ("4.81%", True), ("4.9%", False),
                                       ("4.812%", False), ("48.1%", False)])
def test_rounding_follows_the_answer(claim, ok):
    (n,) = numbers_in(claim)
    assert matches(n, [4.81]) is ok


def test_a_percentage_matches_a_ratio_only_when_asked_to():
    (n,) = numbers_in("37.1%")
    assert not matches(n, [0.3707])
    assert matches(n, [0.3707], percent_of_ratio=True)


def test_a_decimal_with_a_scale_letter_is_a_claim_and_a_name_like_3m_is_not():
    claims = numbers_in("It sold a small portion of Greatland Gold (3.8m shares) and 3M stock; see the 10K.", claims_only=True)
    assert [(n.magnitude, n.scale) for n in claims] == [(3_800_000, 1e6)]
