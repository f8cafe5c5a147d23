"""Storage backends behind one contract (``base.Store``), picked by ``open_store``."""

from __future__ import annotations

from docqa.config import Settings
from docqa.store.base import DocumentNotFound, EmbedderMismatch, Store, StoredLine, StoredPage, StoreUnavailable


def open_store(settings: Settings) -> Store:
    url = settings.store
    if url and url.startswith(("postgresql://", "postgres://")):
        from docqa.store.postgres import PostgresStore

        return PostgresStore(url)
    if url and not url.startswith("sqlite:"):
        raise ValueError(f"DOCQA_STORE must be postgresql://... or sqlite:PATH, not {url!r}")
    from docqa.store.sqlite import SQLiteStore

    path = url.removeprefix("sqlite:") if url else settings.sqlite_path
    return SQLiteStore(path)


__all__ = ["DocumentNotFound", "EmbedderMismatch", "Store", "StoreUnavailable", "StoredLine", "StoredPage", "open_store"]
