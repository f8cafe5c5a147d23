"""Page-level retrieval metrics and the paired bootstrap used to compare runs."""

from __future__ import annotations

import math
import random
from typing import Sequence

Page = tuple[str, int]  # (document file name, 1-based page)


def ndcg_at(ranked: Sequence[Page], relevant: set[Page], k: int = 5) -> float:
    dcg = sum(1.0 / math.log2(i + 2) for i, p in enumerate(ranked[:k]) if p in relevant)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(relevant))))
    return dcg / ideal if ideal else 0.0


def recall_at(ranked: Sequence[Page], relevant: set[Page], k: int = 5) -> float:
    return len(set(ranked[:k]) & relevant) / len(relevant) if relevant else 0.0


def hit_at(ranked: Sequence[Page], relevant: set[Page], k: int) -> float:
    return float(any(p in relevant for p in ranked[:k]))


def reciprocal_rank(ranked: Sequence[Page], relevant: set[Page]) -> float:
    for i, p in enumerate(ranked):
        if p in relevant:
            return 1.0 / (i + 1)
    return 0.0


def page_metrics(ranked: Sequence[Page], relevant: set[Page]) -> dict[str, float]:
    return {
        "ndcg@5": ndcg_at(ranked, relevant, 5),
        "recall@5": recall_at(ranked, relevant, 5),
        "hit@3": hit_at(ranked, relevant, 3),
        "hit@5": hit_at(ranked, relevant, 5),
        "mrr": reciprocal_rank(ranked, relevant),
    }


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def bootstrap_ci(values: Sequence[float], samples: int = 2000, seed: int = 7) -> tuple[float, float]:
    """95% percentile interval of the mean."""
    if not values:
        return (0.0, 0.0)
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(samples))
    return means[int(0.025 * samples)], means[int(0.975 * samples) - 1]


def paired_bootstrap(a: Sequence[float], b: Sequence[float], samples: int = 2000, seed: int = 7) -> dict[str, float]:
    """Difference of means b - a over the same questions, with its 95% interval and the share of
    resamples in which b does not beat a (a one-sided p-value)."""
    if len(a) != len(b):
        raise ValueError("paired bootstrap needs the same questions in both runs")
    diffs = [y - x for x, y in zip(a, b)]
    lo, hi = bootstrap_ci(diffs, samples, seed)
    rng = random.Random(seed + 1)
    n = len(diffs)
    not_better = sum(1 for _ in range(samples) if sum(diffs[rng.randrange(n)] for _ in range(n)) <= 0)
    return {"delta": mean(diffs), "ci_low": lo, "ci_high": hi, "p_not_better": not_better / samples}
