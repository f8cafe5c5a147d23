"""Engine.build, the composition root: the store, the embedder and the answerers come from their registries."""

from __future__ import annotations

import pytest

from docqa import Engine
from docqa.config import Settings
from docqa.embed import EMBEDDERS, HashingEmbedder, embedder_identity, embedder_kind, get_embedder
from docqa.store.sqlite import SQLiteStore


def test_build_opens_the_store_the_settings_name(tmp_path):
    with Engine.build(Settings(index=tmp_path / "index", dense=False, lexical="fts5")) as engine:
        assert isinstance(engine.store, SQLiteStore) and engine.settings.sqlite_path.exists()


def test_open_routes_flat_overrides(tmp_path):
    settings = Settings(index=tmp_path / "a", dense=False)
    with Engine.open(settings, quote_by_meaning=False, candidates=50) as engine:
        assert engine.settings.answer.quote_by_meaning is False and engine.settings.search.candidates == 50
    with Engine.open(tmp_path / "b", dense=False, max_pages=10) as engine:
        assert engine.settings.index == tmp_path / "b" and engine.settings.limits.max_pages == 10
    with pytest.raises(ValueError):
        Engine.open(settings, not_a_setting=1)


def test_embedders_by_name():
    assert embedder_identity("hashing", 128) == HashingEmbedder().identity == embedder_identity("hashing-256", 64)
    assert embedder_identity("minilm", 256).endswith("/max256")
    assert embedder_identity("nothing", 128) is None
    assert EMBEDDERS["minilm"].model and not embedder_kind("hashing").model
    assert isinstance(get_embedder("hashing"), HashingEmbedder)
    with pytest.raises(ValueError, match="choose 'minilm' or 'hashing'"):
        get_embedder("nothing")
