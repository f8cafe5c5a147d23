"""The lexical text of the Milvus store (module docstring of docqa.store.milvus): the other stores'
index_text tokens, stemmed as PostgreSQL stems them, with a token per neighbouring pair for phrases,
and every token the analyzer could split hashed into one ``[a-z0-9]`` word."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from docqa.store.base import indexed_body
from docqa.store.milvus_rows import MAX_VARCHAR
from docqa.text import index_text, stem
from docqa.types import Chunk


def _stem(token: str) -> str:
    return stem(token) if token.isalpha() else token


@lru_cache(maxsize=200_000)
def _word(token: str) -> str:
    """A token as one analyzer word: plain ``[a-z0-9]+`` as is, anything else hashed."""
    if token.isalnum() and token.isascii():
        return token
    return "x" + hashlib.blake2b(token.encode(), digest_size=8).hexdigest()


def _stems(text: str) -> list[str]:
    """The stemmed tokens of an ``index_text`` string."""
    return [_stem(t) for t in text.split()]


def lexical_body(chunk: Chunk, indexed: str | None = None) -> str:
    """What the BM25 function reads for a chunk: its stemmed tokens, then its neighbouring pairs."""
    stems = _stems(indexed_body(chunk) if indexed is None else indexed)
    words = [_word(s) for s in stems] + [_word(a + " " + b) for a, b in zip(stems, stems[1:])]
    body = " ".join(words)
    if len(body) > MAX_VARCHAR:  # a very long chunk: keep what fits, whole words
        body = body[: body.rfind(" ", 0, MAX_VARCHAR)]
    return body


def lexical_query(terms: list[str], phrases: list[str]) -> str:
    words: dict[str, None] = {}
    for term in terms:
        for s in _stems(index_text(term or "")):
            words.setdefault(_word(s))
    for phrase in phrases:
        stems = _stems(index_text(phrase or ""))
        if len(stems) == 1:
            words.setdefault(_word(stems[0]))
        for a, b in zip(stems, stems[1:]):
            words.setdefault(_word(a + " " + b))
    return " ".join(words)
