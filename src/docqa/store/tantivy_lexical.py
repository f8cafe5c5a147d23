"""tantivy (the Rust search library) as the SQLite store's lexical index, kept in a folder beside the
SQLite file. SQLite stays the record: the FTS5 table is still written, and this index holds the same
normalised token text (``indexed_body``) keyed by chunk rowid, so it can always be rebuilt from it.

Why: FTS5 ranked the planned searches at CPU p50/p95 11.0 / 27.3 ms, tantivy at 2.2 / 3.8 ms
(benchmarks/search_latency.py --engines, docs/benchmarks.md).

Visibility follows the SQLite store's rule: a document's chunks are replaced in one tantivy commit, so
a search sees all of them or none. The index itself says which documents it holds (a terms
aggregation over ``document_id``), so a crash between the SQLite commit and the tantivy commit is
repaired when the store is next opened (``SQLiteStore._reconcile_lexical``).
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

import snowballstemmer
import tantivy

from docqa.types import SearchFilters

# How the body is analysed (index_text, Snowball porter, whitespace). The index folder is named with
# it, so a store opened by a docqa that analyses otherwise builds a new folder from SQLite instead of
# matching other tokens, and no process deletes a folder another may be reading.
ANALYSIS_VERSION = 1
WRITER_HEAP = 50_000_000   # bytes of the writer's in-memory buffer: one filing's chunks fit in one
MAX_HELD = 1_000_000       # documents a terms aggregation may report
# The filter fields a SearchFilters constrains, by the chunk column it names (store.base.filter_columns).
_FIELDS = {"c.document_id": "document_id", "c.company": "company", "c.fiscal_year": "fiscal_year",
           "c.doc_type": "doc_type"}


# FTS5's tokenizer stems with the original Porter algorithm; tantivy's stemmer filter is Snowball
# English (Porter2), which ranked 1 FinanceBench question in 129 lower. So words are stemmed here,
# by Snowball's Porter, and tantivy only splits on spaces.
_porter = snowballstemmer.stemmer("porter")
_stem_lock = threading.Lock()  # snowballstemmer's stemmer objects are not thread-safe


@lru_cache(maxsize=500_000)
def _stem(word: str) -> str:
    with _stem_lock:
        return _porter.stemWord(word)


def stemmed(text: str) -> str:
    """index_text (or query) words, each Porter-stemmed, one space between."""
    return " ".join(_stem(w) for w in text.split())


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    # The body is docqa.text.index_text already (lower case, figures normalised, one space between
    # tokens), stemmed by stemmed(): split on spaces.
    builder.add_text_field("body", tokenizer_name="docqa")
    builder.add_integer_field("rowid", indexed=True, fast=True)
    builder.add_text_field("document_id", tokenizer_name="raw", fast=True)
    for name in ("company", "fiscal_year", "doc_type"):
        builder.add_text_field(name, tokenizer_name="raw")
    return builder.build()


class TantivyLexical:
    """One folder of tantivy index. Not thread-safe by itself: SQLiteStore calls it under its lock."""

    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.schema = _schema()
        self.index = tantivy.Index(self.schema, path=str(folder))
        self.index.register_tokenizer(
            "docqa", tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace()).build())
        self.index.reload()

    # --- writing ------------------------------------------------------------------------
    def replace(self, documents: dict[str, list[tuple[int, str, str | None, int | None, str | None, str]]]) -> None:
        """Make each document's chunks exactly its rows (rowid, document_id, company, fiscal_year,
        doc_type, body), all in one commit; no rows deletes the document."""
        writer = self.index.writer(WRITER_HEAP, 1)
        try:
            for document_id, rows in documents.items():
                writer.delete_documents_by_term("document_id", document_id)
                for rowid, doc_id, company, year, doc_type, body in rows:
                    doc = tantivy.Document(rowid=rowid, document_id=doc_id, body=stemmed(body))
                    for name, value in (("company", company), ("fiscal_year", year), ("doc_type", doc_type)):
                        if value is not None:
                            doc.add_text(name, str(value))
                    writer.add_document(doc)
            writer.commit()
        except BaseException:
            writer.rollback()
            raise
        finally:
            writer.wait_merging_threads()
        self.index.reload()

    # --- reading ------------------------------------------------------------------------
    def reload(self) -> None:
        """See commits made since (by this process or another)."""
        self.index.reload()

    def held(self) -> dict[str, int]:
        """document id -> chunks this index holds for it."""
        result = self.index.searcher().aggregate(
            tantivy.Query.all_query(), {"held": {"terms": {"field": "document_id", "size": MAX_HELD}}})
        return {b["key"]: int(b["doc_count"]) for b in result["held"]["buckets"]}

    def search(self, terms: list[str], phrases: list[str], filter_columns: list[tuple[str, list]],
               k: int) -> list[tuple[int, float]]:
        """(rowid, BM25 score) of the k best chunks matching any term or phrase, best first."""
        parts = [stemmed(t) for t in terms if t.strip()] + [stemmed(p) for p in phrases if p.strip()]
        if not parts:
            return []
        text = " OR ".join('"' + p.replace('"', " ").replace("\\", " ") + '"' for p in parts)
        query, _errors = self.index.parse_query_lenient(text, ["body"])
        must = [(tantivy.Occur.Must, query)]
        for column, values in filter_columns:
            # A filter restricts what is ranked, and adds nothing to the score.
            allowed = tantivy.Query.term_set_query(self.schema, _FIELDS[column], [str(v) for v in values])
            must.append((tantivy.Occur.Must, tantivy.Query.const_score_query(allowed, 0.0)))
        if len(must) > 1:
            query = tantivy.Query.boolean_query(must)
        searcher = self.index.searcher()
        hits = searcher.search(query, k, count=False).hits
        rowids = searcher.fast_field_values("rowid", [address for _score, address in hits])
        return [(rowid, score) for (score, _address), rowid in zip(hits, rowids) if rowid is not None]
