"""Reaching Milvus: the store's URL, outages said as StoreUnavailable, and Milvus Lite's in-process
servers, one per file, released with the last store on it."""

from __future__ import annotations

import threading
from typing import Callable
from urllib.parse import unquote, urlsplit

from docqa.store.base import StoreUnavailable
from docqa.store.milvus_extra import MilvusClient, MilvusException, MilvusUnavailableException


def parse_milvus_url(url: str) -> tuple[str, dict, str]:
    """``milvus://[user:pass@]host:port[/prefix]`` or ``milvus-lite:///path.db`` -> (uri, client kwargs, prefix)."""
    parts = urlsplit(url)
    if parts.scheme == "milvus-lite":
        path = unquote(parts.netloc + parts.path)
        if not path or path == "/":
            raise ValueError(f"DOCQA_STORE={url!r}: give a file, as in milvus-lite:///path/to/index.db")
        if not path.endswith(".db"):
            raise ValueError(f"DOCQA_STORE={url!r}: a Milvus Lite index is a file ending in .db")
        prefix = "docqa"
        return path, {}, prefix
    if parts.scheme not in ("milvus", "milvuss"):
        raise ValueError(f"DOCQA_STORE={url!r}: expected milvus://host:19530[/prefix] or milvus-lite:///path.db")
    if not parts.hostname:
        raise ValueError(f"DOCQA_STORE={url!r}: no host; expected milvus://host:19530[/prefix]")
    scheme = "https" if parts.scheme == "milvuss" else "http"
    uri = f"{scheme}://{parts.hostname}:{parts.port or 19530}"
    kwargs: dict = {}
    if parts.username:
        kwargs["token"] = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
    prefix = parts.path.strip("/") or "docqa"
    if not prefix.replace("_", "").isalnum() or not prefix[0].isalpha():
        raise ValueError(f"DOCQA_STORE={url!r}: the collection prefix {prefix!r} must be letters, digits and _")
    return uri, kwargs, prefix


# How many stores are open on each Milvus Lite file: its in-process server outlives all but the last.
_lite_users: dict[str, int] = {}
_lite_lock = threading.Lock()


def _is_outage(exc: BaseException) -> bool:
    if isinstance(exc, MilvusUnavailableException):
        return True
    text = str(exc).lower()
    return isinstance(exc, MilvusException) and any(
        s in text for s in ("unavailable", "deadline", "connect", "failed to connect", "timeout", "server is not ready")
    )


class Guarded:
    """The MilvusClient with outages turned into StoreUnavailable (faces: 503 + Retry-After)."""

    def __init__(self, client: MilvusClient, where: str):
        self._client = client
        self._where = where

    def __getattr__(self, name: str) -> Callable:
        method = getattr(self._client, name)

        def call(*args, **kwargs):
            try:
                return method(*args, **kwargs)
            except Exception as exc:
                if _is_outage(exc):
                    raise StoreUnavailable(
                        f"Milvus at {self._where} is unavailable: {str(exc).splitlines()[0]} (try again shortly)"
                    ) from exc
                raise

        return call


def hold_lite(path: str) -> None:
    with _lite_lock:
        _lite_users[path] = _lite_users.get(path, 0) + 1


def release_lite(path: str) -> None:
    """One store fewer on this Milvus Lite file: the last one stops its in-process server, which frees the file."""
    with _lite_lock:
        left = _lite_users.get(path, 1) - 1
        if left <= 0:
            _lite_users.pop(path, None)
        else:
            _lite_users[path] = left
    if left <= 0:
        from milvus_lite import server_manager_instance

        server_manager_instance.release_server(path)
