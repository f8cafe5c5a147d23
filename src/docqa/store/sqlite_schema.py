"""The SQLite store's file: its tables (one file holds documents, pages, chunks, the FTS5 index
and the service state) and how a connection to it is opened."""

from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    file_name TEXT NOT NULL,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    pages INTEGER NOT NULL,
    chunks INTEGER NOT NULL,
    meta TEXT NOT NULL,
    ocr_pages INTEGER NOT NULL DEFAULT 0,
    no_text_pages INTEGER NOT NULL DEFAULT 0,
    embedded INTEGER NOT NULL DEFAULT 0,
    added_at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS pages (
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    width REAL NOT NULL,
    height REAL NOT NULL,
    lines TEXT NOT NULL,
    info TEXT,
    tables TEXT,
    ocr INTEGER NOT NULL DEFAULT 0,
    no_text INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (document_id, number)
);
CREATE TABLE IF NOT EXISTS chunks (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    document TEXT NOT NULL,
    page INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    bbox TEXT,
    section TEXT,
    statement TEXT,
    company TEXT,
    fiscal_year INTEGER,
    doc_type TEXT,
    vector BLOB
);
CREATE INDEX IF NOT EXISTS chunks_document ON chunks(document_id, page);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(body, tokenize="porter unicode61 tokenchars '.&'");
-- service state (web app, MCP): background ingest jobs and the question log
CREATE TABLE IF NOT EXISTS jobs (
    seq INTEGER PRIMARY KEY,            -- insertion order: ties on created_at keep it
    id TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL                  -- the Job as JSON
);
CREATE TABLE IF NOT EXISTS questions (
    seq INTEGER PRIMARY KEY,
    answer_id TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,               -- the Answer as JSON
    filters TEXT NOT NULL,
    helpful INTEGER,                    -- NULL: no feedback yet
    note TEXT
);
"""


def connect(path: Path) -> sqlite3.Connection:
    """One connection shared by the store's threads (the store holds a lock around it), its tables
    created the first time. Autocommit: the store begins and ends its transactions itself."""
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA synchronous=NORMAL")
    db.executescript(SCHEMA)
    db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
    return db
