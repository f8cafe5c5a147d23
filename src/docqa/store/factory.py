"""The stores, by the URL that names them (DOCQA_STORE): adding a store is one entry in ``STORES``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from docqa.config import Settings
from docqa.store.base import Store


@dataclass(frozen=True)
class StoreKind:
    open: Callable[[str | None, Settings], Store]  # (the URL, or None for the default; the settings)
    form: str | None = None  # how DOCQA_STORE names it, for the message a URL no entry takes gets


def _sqlite(url: str | None, settings: Settings) -> Store:
    from docqa.store.sqlite import SQLiteStore

    path = url.removeprefix("sqlite:") if url else settings.sqlite_path
    return SQLiteStore(path, lexical=settings.store.lexical)


def _postgres(url: str | None, settings: Settings) -> Store:
    from docqa.store.postgres import PostgresStore

    return PostgresStore(url)


def _milvus(url: str | None, settings: Settings) -> Store:
    from docqa.store.milvus import MilvusStore

    return MilvusStore(url)


# A URL's beginning -> its store, tried in this order.
STORES: dict[str, StoreKind] = {
    "postgresql://": StoreKind(_postgres, "postgresql://..."),
    "postgres://": StoreKind(_postgres),
    "milvus://": StoreKind(_milvus, "milvus://host:19530[/prefix]"),
    "milvuss://": StoreKind(_milvus),
    "milvus-lite://": StoreKind(_milvus, "milvus-lite:///path/index.db"),
    "sqlite:": StoreKind(_sqlite, "sqlite:PATH"),
}
DEFAULT = "sqlite:"  # no URL: SQLite in the index folder


def open_store(settings: Settings) -> Store:
    """The store ``settings.store.url`` names (DOCQA_STORE), or SQLite in the index folder when it names none."""
    url = settings.store.url
    if not url:
        return STORES[DEFAULT].open(None, settings)
    for prefix, kind in STORES.items():
        if url.startswith(prefix):
            return kind.open(url, settings)
    forms = [kind.form for kind in STORES.values() if kind.form]
    raise ValueError(f"DOCQA_STORE must be {', '.join(forms[:-1])} or {forms[-1]}, not {url!r}")
