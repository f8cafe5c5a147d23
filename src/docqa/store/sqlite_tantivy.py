"""The tantivy index beside the SQLite file (setting ``lexical="tantivy"``): written inside SQLite's
transactions, brought in line with SQLite at open, searched only while it is in line (FTS5 answers
meanwhile, and it is always written)."""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from docqa.store.tantivy_lexical import TantivyLexical

log = logging.getLogger(__name__)


class TantivyMirror:
    """A part of SQLiteStore (its connection, lock and version are the store's)."""

    path: Path
    _db: sqlite3.Connection
    _lock: threading.RLock
    _version: Callable[[], tuple[int, int]]

    def _open_lexical(self, lexical: str) -> None:
        self._lexical: TantivyLexical | None = None
        if lexical not in ("fts5", "tantivy"):
            raise ValueError(f"lexical must be fts5 or tantivy, not {lexical!r}")
        if lexical == "tantivy":
            try:
                from docqa.store.tantivy_lexical import ANALYSIS_VERSION, TantivyLexical
            except ImportError:
                # FTS5 is always written, so an install without the tantivy wheel still answers, as before.
                log.warning("tantivy is not installed (pip install tantivy): searching SQLite FTS5")
                lexical = "fts5"
        if lexical == "tantivy":
            self._lexical = TantivyLexical(self.path.with_name(f"{self.path.name}.tantivy{ANALYSIS_VERSION}"))
            with self._lock:
                self._lexical_in_line = self._reconcile_lexical()
                self._lexical_seen = self._version()

    def _lexical_rows(self, document_id: str) -> list[tuple]:
        """What the tantivy index holds for a document: the FTS5 rows' text, with the filter columns."""
        return self._db.execute(
            "SELECT c.rowid, c.document_id, c.company, c.fiscal_year, c.doc_type, f.body FROM chunks c"
            " JOIN chunks_fts f ON f.rowid = c.rowid WHERE c.document_id=? ORDER BY c.rowid", (document_id,)
        ).fetchall()

    def _write_lexical(self, document_id: str) -> None:
        """Inside the SQLite transaction, before its commit: the document's chunks (as this transaction
        holds them; none when it deletes the document) into tantivy, in one tantivy commit.

        Why before: another process reloads its tantivy view when SQLite's data_version moves, so
        the document must be in tantivy by the time SQLite lists it; a process that reloads for some
        other write in between sees rowids its SQLite view does not hold yet, and drops them. A crash
        between the two commits leaves tantivy ahead of SQLite, repaired at the next open."""
        if self._lexical is None:
            return
        self._lexical.replace({document_id: self._lexical_rows(document_id)})

    def _reconcile_lexical(self) -> bool:
        """Make the tantivy index hold exactly SQLite's chunks, per document: repairs a crash between
        the two commits, and builds the index the first time an existing store is opened with it.
        False when it could not (another process is writing, or building it too): FTS5 answers until it can.

        In two passes: the bulk without SQLite's write lock (a first build can take minutes, and other
        writers would time out), then what is still out of line with the lock held, so that no writer
        is between its two commits then (the first pass may have undone such a writer's tantivy write)."""
        assert self._lexical is not None
        stale = self._lexical_stale()
        if not stale:
            return True
        try:
            log.info("tantivy lexical index: bringing %d documents in line with SQLite", len(stale))
            self._lexical.replace({doc_id: self._lexical_rows(doc_id) for doc_id in stale})
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if stale := self._lexical_stale():
                    self._lexical.replace({doc_id: self._lexical_rows(doc_id) for doc_id in stale})
            finally:
                self._db.execute("ROLLBACK")
        except (ValueError, sqlite3.OperationalError) as e:
            # another process holds tantivy's writer (building it too) or SQLite's (writing): its commit
            # moves data_version, and the check runs again then
            log.warning("tantivy lexical index not in line with SQLite yet (%s); searching FTS5 meanwhile", e)
            return False
        return True

    def _lexical_stale(self) -> list[str]:
        """Documents whose chunks tantivy does not hold exactly as SQLite does."""
        assert self._lexical is not None
        want = dict(self._db.execute("SELECT document_id, count(*) FROM chunks GROUP BY document_id").fetchall())
        held = self._lexical.held()
        return [d for d in held if d not in want] + [d for d, n in want.items() if held.get(d) != n]

    def _lexical_current(self) -> bool:
        """Is the tantivy index to be searched? Reloaded after a write here or in another process; one
        not yet in line with SQLite (another process was building it) is checked again then."""
        assert self._lexical is not None
        with self._lock:
            version = self._version()
            if version != self._lexical_seen:
                self._lexical.reload()
                if not self._lexical_in_line:
                    self._lexical_in_line = self._reconcile_lexical()
                self._lexical_seen = version
            return self._lexical_in_line
