"""Storage backends behind one contract (``base.Store``), picked by ``open_store``."""

from __future__ import annotations

from docqa.config import Settings
from docqa.store.base import (AmbiguousDocument, DiskFull, DocumentNotFound, EmbedderMismatch, Store, StoredLine,
                              StoredPage, StoreUnavailable, disk_full)


def open_store(settings: Settings) -> Store:
    url = settings.store.url
    if url and url.startswith(("postgresql://", "postgres://")):
        from docqa.store.postgres import PostgresStore

        return PostgresStore(url)
    if url and url.startswith(("milvus://", "milvuss://", "milvus-lite://")):
        from docqa.store.milvus import MilvusStore

        return MilvusStore(url)
    if url and not url.startswith("sqlite:"):
        raise ValueError(
            "DOCQA_STORE must be postgresql://..., milvus://host:19530[/prefix], milvus-lite:///path/index.db"
            f" or sqlite:PATH, not {url!r}"
        )
    from docqa.store.sqlite import SQLiteStore

    path = url.removeprefix("sqlite:") if url else settings.sqlite_path
    return SQLiteStore(path, lexical=settings.store.lexical)


__all__ = ["AmbiguousDocument", "DiskFull", "DocumentNotFound", "EmbedderMismatch", "Store", "StoreUnavailable",
           "StoredLine", "StoredPage", "disk_full", "open_store"]
