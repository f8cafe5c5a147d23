import pytest

from docqa.eval.answers import leading_yes_no, numbers_match, score
from docqa.eval.metrics import hit_at, ndcg_at, paired_bootstrap, recall_at, reciprocal_rank

REL = {("a.pdf", 3), ("a.pdf", 5)}


def test_page_metrics():
    ranked = [("a.pdf", 1), ("a.pdf", 3), ("b.pdf", 3), ("a.pdf", 5)]
    assert hit_at(ranked, REL, 1) == 0 and hit_at(ranked, REL, 3) == 1
    assert recall_at(ranked, REL, 5) == 1.0 and recall_at(ranked, REL, 2) == 0.5
    assert reciprocal_rank(ranked, REL) == 0.5
    assert 0 < ndcg_at(ranked, REL, 5) < 1
    assert ndcg_at([("a.pdf", 3), ("a.pdf", 5)], REL, 5) == pytest.approx(1.0)


def test_paired_bootstrap_sees_a_real_improvement_and_not_noise():
    better = paired_bootstrap([0.0] * 50 + [1.0] * 50, [1.0] * 100)
    assert better["delta"] == pytest.approx(0.5) and better["ci_low"] > 0 and better["p_not_better"] == 0
    same = paired_bootstrap([0.0, 1.0] * 50, [0.0, 1.0] * 50)
    assert same["delta"] == 0 and same["p_not_better"] == 1.0


@pytest.mark.parametrize("reference, answer, ok", [
    ("$1577.00", "Capital expenditures for fiscal 2018: $1,577 million", True),
    ("$1.577 billion", "$1,577 million", True),
    ("$8.70", "$8.74 billion", True),          # within 1 %
    ("$0.40", "$0.39 billion", False),         # 2.5 % off
    ("24.26", "fixed asset turnover: 24.26", True),
    ("1.9%", "1.8%", False),
])
def test_numeric_match_within_one_percent_across_units(reference, answer, ok):
    assert numbers_match(reference, answer) is ok


def test_scores_by_type():
    assert leading_yes_no("No. Operating margin fell") == "no"
    assert score({"answer_type": "yes_no", "answer": "Yes, it did"}, "Yes. It rose.", True)["correct"] == 1.0
    assert score({"answer_type": "unanswerable"}, "Not found", False)["correct"] == 1.0
    assert score({"answer_type": "unanswerable"}, "$5", True)["correct"] == 0.0
    assert score({"answer_type": "numeric", "answer": "$5"}, "Not found", False)["correct"] == 0.0
    text = score({"answer_type": "text", "answer": "Packaging"}, "Not found", False)
    assert text["correct"] is None and text["proxy"] == 0.0
