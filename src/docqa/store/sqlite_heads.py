"""What a search reads of its candidate chunks from the SQLite store: each chunk's *head* (its id, the
document and page it is on, its section and statement, and the filter columns), not its text.

A search ranks 200 candidate chunks to keep the best one per page; building each as a ``Chunk`` (text,
boxes) to read four fields of it was a quarter of a search. The heads are plain tuples, kept by rowid
and by chunk id until the store is written: questions about one filing rank the same chunks again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable

from docqa.types import StatementKind

HEAD_CACHE = 50_000   # heads kept between searches (~0.4 kB each)
HEAD_FIELDS = ("rowid", "id", "document_id", "page", "section", "statement", "company", "fiscal_year", "doc_type")
_STATEMENTS = {kind.value: kind for kind in StatementKind}


class ChunkHeads:
    """Heads read from ``db`` and kept while ``version()`` (moved by every write, this process's or
    another's) stays the same. Not thread-safe by itself: the store calls it under its lock."""

    def __init__(self, db: sqlite3.Connection, version: Callable[[], tuple[int, int]]):
        self._db = db
        self._version = version
        self._kept: tuple[tuple[int, int], dict[int, tuple], dict[str, tuple]] | None = None

    def by_rowid(self, rowids: Iterable[int]) -> dict[int, tuple]:
        """rowid -> head (HEAD_FIELDS) of each rowid the store holds; one it does not hold is absent."""
        return self._heads(rowids, 0)

    def by_id(self, chunk_ids: Iterable[str]) -> dict[str, tuple]:
        """chunk id -> head (HEAD_FIELDS) of each chunk the store holds."""
        return self._heads(chunk_ids, 1)

    def _heads(self, keys: Iterable, at: int) -> dict:
        """key -> head of each key the store holds, the key being the head's field ``at`` (0: rowid,
        1: id): the kept heads, and the others read in one query."""
        keys = list(keys)
        kept = self._current()[at]
        found = {k: row for k in keys if (row := kept.get(k)) is not None}
        missing = [k for k in dict.fromkeys(keys) if k not in found]
        if missing:
            found.update((row[at], row) for row in self._read(HEAD_FIELDS[at], missing))
        return found

    def _current(self) -> tuple[dict[int, tuple], dict[str, tuple]]:
        key = self._version()
        if self._kept is None or self._kept[0] != key:
            self._kept = (key, {}, {})
        return self._kept[1], self._kept[2]

    def _read(self, column: str, keys: list) -> list[tuple]:
        cursor = self._db.cursor()
        cursor.row_factory = None  # plain tuples: a search reads 200 of them
        marks = ",".join("?" * len(keys))
        rows = [(*r[:5], _STATEMENTS.get(r[5]), *r[6:]) for r in cursor.execute(
            f"SELECT {', '.join(HEAD_FIELDS)} FROM chunks WHERE {column} IN ({marks})", keys)]
        by_rowid, by_id = self._current()
        if len(by_rowid) + len(rows) > HEAD_CACHE:
            by_rowid.clear()
            by_id.clear()
        for row in rows:
            by_rowid[row[0]] = by_id[row[1]] = row
        return rows
