"""The store registry: a URL's beginning picks the store; no URL is SQLite in the index folder."""

from __future__ import annotations

import pytest

from docqa.config import Settings
from docqa.store import open_store
from docqa.store.factory import DEFAULT, STORES, StoreKind
from docqa.store.sqlite import SQLiteStore


def test_no_url_is_sqlite_in_the_index_folder(tmp_path):
    store = open_store(Settings(index=tmp_path, store=None, lexical="fts5"))
    try:
        assert isinstance(store, SQLiteStore) and (tmp_path / "docqa.sqlite").exists()
    finally:
        store.close()


def test_a_sqlite_url_names_its_file(tmp_path):
    store = open_store(Settings(index=tmp_path / "index", store=f"sqlite:{tmp_path}/elsewhere.sqlite"))
    try:
        assert isinstance(store, SQLiteStore) and (tmp_path / "elsewhere.sqlite").exists()
    finally:
        store.close()


def test_a_url_no_entry_takes_is_refused_with_every_form():
    with pytest.raises(ValueError) as refused:
        open_store(Settings(store="mysql://h/db"))
    forms = [kind.form for kind in STORES.values() if kind.form]
    assert all(form in str(refused.value) for form in forms) and "'mysql://h/db'" in str(refused.value)


def test_a_new_store_is_one_entry(tmp_path, monkeypatch):
    opened = []

    def fake(url, settings):
        opened.append((url, settings.index))
        return STORES[DEFAULT].open(None, settings)

    monkeypatch.setitem(STORES, "fake://", StoreKind(fake, "fake://..."))
    open_store(Settings(index=tmp_path, store="fake://here")).close()
    assert opened == [("fake://here", tmp_path)]
