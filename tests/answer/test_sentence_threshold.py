"""A level asked of a figure a filing states only in a sentence (sentences copied from the filings named)."""

from __future__ import annotations

import pytest

from docqa.answer.contract import Evidence
from docqa.answer.sentence_threshold import SentenceThresholdAnswerer
from docqa.plan import build_plan
from docqa.types import EvidencePage

# ADOBE_2022_10K.pdf (stock repurchase program)
ADOBE = ("During fiscal 2022, we repurchased a total of 15.7 million shares, including approximately 10.4 million "
         "shares at an average price of $375.03 through structured repurchase agreements.")


def _answer(question: str, *texts: str, year: int = 2022):
    pages = [EvidencePage(label="P1", document="X_10K.pdf", document_id="x", page=4, text=t, year=year) for t in texts]
    return SentenceThresholdAnswerer().answer(build_plan(question, []), Evidence.of(pages))


@pytest.mark.parametrize("question, verdict", [
    ("Did the company repurchase more than 15 million shares in fiscal 2022?", "Yes"),
    ("Did the company repurchase more than 16 million shares in fiscal 2022?", "No"),
    ("Did the company repurchase fewer than 20 million shares in fiscal 2022?", "Yes"),
])
def test_a_count_stated_in_a_sentence_is_held_to_the_level(question, verdict):
    draft = _answer(question, ADOBE)
    assert draft is not None and draft.text.startswith(verdict), draft
    assert draft.citations[0].quote == ADOBE


def test_the_level_is_no_word_of_what_it_is_a_level_of():
    plan = build_plan("Was the Standardized CET1 capital ratio above 14% at June 30, 2023?", [])
    assert plan.threshold is not None and plan.threshold.unit == "%"
    assert "14" not in plan.judged and "CET1 capital ratio" in plan.judged


def test_another_year_or_figures_on_both_sides_give_no_verdict():
    assert _answer("Did the company repurchase more than 15 million shares in fiscal 2021?", ADOBE, year=2022) is None
    other = "During fiscal 2022, we also repurchased a total of 12.0 million shares under the prior program."
    assert _answer("Did the company repurchase more than 15 million shares in fiscal 2022?", ADOBE, other) is None
