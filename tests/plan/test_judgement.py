"""A did/has question that names a line item asks whether the filing reports it for the period:
its figure settles it (an amount is a Yes with that amount)."""

from __future__ import annotations

import pytest

from docqa.plan import Intent, build_plan


@pytest.mark.parametrize("question", [
    "Did 3M repurchase shares in 2018?",
    "Did 3M buy back stock in 2018?",
    "Has Microsoft paid dividends in fiscal 2023?",
    "Did Pfizer record any restructuring charges in 2021?",
])
def test_an_event_named_by_a_line_item_is_settled_by_its_figure(question):
    plan = build_plan(question, [])
    assert plan.judgement == "exists"
    assert plan.intent is Intent.YES_NO


@pytest.mark.parametrize("question, judged", [
    ("Did 3M's revenue grow in 2018?", "up"),
    ("Was 3M profitable in 2018?", "positive"),
    ("Is 3M's current ratio healthy?", "healthy"),
    ("What were 3M's share repurchases in 2018?", None),
])
def test_other_verdicts_keep_their_own_reading(question, judged):
    assert build_plan(question, []).judgement == judged
