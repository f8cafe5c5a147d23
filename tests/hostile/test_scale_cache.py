"""The tantivy index's word cache (FTS5 form of each word) past its size limit: a long-running indexer
keeps one cache for every upload, so a text that needs words cached by earlier texts must still get
them when the cache is full and is emptied."""

from __future__ import annotations

import pytest

from docqa.store import tantivy_lexical
from docqa.store.tantivy_lexical import _Fts5Words


def words(prefix: str, n: int) -> str:
    """n distinct words no other prefix makes ("aab12" would stem like "aab12s"; digits keep them apart)."""
    return " ".join(f"{prefix}{i}x" for i in range(n))


def fresh(text: str) -> str:
    """The text's terms from a cache that has seen nothing else: what a full cache must still give."""
    return _Fts5Words().text(text)


def test_a_text_needing_earlier_words_past_a_lowered_limit(monkeypatch):
    monkeypatch.setattr(tantivy_lexical, "STEM_CACHE", 100)
    cache = _Fts5Words()
    first = "revenues increased " + words("alpha", 60)
    second = words("beta", 50) + " revenues increased alpha3x"  # 50 new words overflow 100; 3 were cached
    assert cache.text(first) == fresh(first)
    assert cache.text(second) == fresh(second)
    assert cache.text(first) == fresh(first)  # and the first text again, after the cache was emptied
    assert len(cache._known) <= 100


def test_a_single_text_larger_than_the_limit(monkeypatch):
    monkeypatch.setattr(tantivy_lexical, "STEM_CACHE", 10)
    cache = _Fts5Words()
    cache.text(words("gamma", 8))
    big = words("gamma", 8) + " " + words("delta", 30)  # more distinct words than the cache holds at all
    assert cache.text(big) == fresh(big)


@pytest.mark.parametrize("first_n, second_n", [(300_000, 250_000)])
def test_at_the_real_limit(first_n, second_n):
    """The reported case, at the real STEM_CACHE: a 300k-word text, then a 250k-word one that shares words."""
    assert first_n + second_n > tantivy_lexical.STEM_CACHE
    cache = _Fts5Words()
    first = words("a", first_n)
    cache.text(first)
    second = words("b", second_n) + " a7x a299999x"
    out = cache.text(second).split()
    assert len(out) == second_n + 2
    assert out[-2:] == fresh("a7x a299999x").split()
