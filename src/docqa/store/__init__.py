"""Storage backends behind one contract (``base.Store``), picked by ``open_store`` from ``factory.STORES``."""

from __future__ import annotations

from docqa.store.base import (AmbiguousDocument, DiskFull, DocumentNotFound, EmbedderMismatch, Store, StoredLine,
                              StoredPage, StoreUnavailable, disk_full)
from docqa.store.factory import open_store

__all__ = ["AmbiguousDocument", "DiskFull", "DocumentNotFound", "EmbedderMismatch", "Store", "StoreUnavailable",
           "StoredLine", "StoredPage", "disk_full", "open_store"]
