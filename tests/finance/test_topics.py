"""Which narrative topics a question asks about (topics.yaml): a synonym table, read on word stems."""

from __future__ import annotations

import pytest

from docqa.finance.topics import topics_for


@pytest.mark.parametrize("question, keys", [
    ("What are the main risks 3M faces?", ["risks"]),
    # "risk" read inside a longer ask of another topic is that topic's: foreign currency risk is market risk
    ("How does Adobe hedge its foreign currency risk?", ["market_risk"]),
    ("What market risks does General Mills face?", ["market_risk"]),
    # both asked, each in words of its own
    ("Which risk factors concern cybersecurity, and what is the interest rate risk?", ["risks", "market_risk"]),
])
def test_a_topic_read_only_inside_a_longer_ask_of_another_is_not_asked(question, keys):
    assert [t.key for t in topics_for(question)] == keys
