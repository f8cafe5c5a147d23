"""tantivy (the Rust search library) as the SQLite store's lexical index, kept in a folder beside the
SQLite file. SQLite stays the record: the FTS5 table is still written, and this index holds the same
normalised token text (``indexed_body``) keyed by chunk rowid, so it can always be rebuilt from it.

Why: FTS5 ranked the planned searches at CPU p50/p95 11.0 / 27.3 ms, tantivy at 2.2 / 3.8 ms
(benchmarks/search_latency.py --engines, docs/benchmarks.md), and FTS5's bm25() recounts every term
over the whole index on each query, so its cost grows with the index where tantivy's does not. It
ranks as FTS5 does: the same terms (FTS5's own tokenizer) weighted by FTS5's IDF (``_clause``), so
the default could move here without moving retrieval (top-10 overlap 0.983 per planned search).

Visibility follows the SQLite store's rule: a document's chunks are replaced in one tantivy commit, so
a search sees all of them or none. The index itself says which documents it holds (a terms
aggregation over ``document_id``), so a crash between the SQLite commit and the tantivy commit is
repaired when the store is next opened (``SQLiteStore._reconcile_lexical``).
"""

from __future__ import annotations

import math
import sqlite3
import threading
from pathlib import Path

import tantivy

# How the body is analysed (index_text, then FTS5's own tokenizer, whitespace). The index folder is
# named with it, so a store opened by a docqa that analyses otherwise builds a new folder from SQLite
# instead of matching other tokens, and no process deletes a folder another may be reading.
# 1: Snowball's Porter, which stemmed "s", "us" and "vs" where FTS5 leaves words under 3 letters alone.
ANALYSIS_VERSION = 2
# The tokenizer chunks_fts is declared with (store/sqlite_schema.py); tests/store check the two agree.
FTS5_TOKENIZE = "porter unicode61 tokenchars '.&'"
STEM_CACHE = 500_000       # words whose FTS5 form is kept
TABLE_WORDS = 10_000       # words of one lookup past which the next one starts a new FTS5 table
WRITER_HEAP = 20_000_000   # bytes of the writer's in-memory buffer (tantivy needs 15 MB a thread): one filing's chunks fit in one
MAX_HELD = 1_000_000       # documents a terms aggregation may report
DF_CACHE = 100_000         # document frequencies of terms and phrases kept between commits
FILTER_TERMS = 64          # filter values searched as term queries; more are a term set
# The filter fields a SearchFilters constrains, by the chunk column it names (store.base.filter_columns).
_FIELDS = {"c.document_id": "document_id", "c.company": "company", "c.fiscal_year": "fiscal_year",
           "c.doc_type": "doc_type"}


class _Fts5Words:
    """Each word as FTS5's tokenizer turns it into terms, read back from an in-memory FTS5 table.

    tantivy's stemmer is Snowball English (Porter2); Snowball's Porter still differs from FTS5's in the
    edges (FTS5 leaves words under 3 or over 64 bytes alone: "us" is not "u"), and every difference
    moves a document frequency. Asking FTS5 itself makes the terms the same by construction."""

    def __init__(self) -> None:
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._held = 0  # words the table holds from the last lookup
        self._new_table()
        self._known: dict[str, str] = {}
        self._lock = threading.Lock()

    def _new_table(self) -> None:
        self._db.execute("DROP TABLE IF EXISTS terms")
        self._db.execute("DROP TABLE IF EXISTS words")
        self._db.execute(f'CREATE VIRTUAL TABLE words USING fts5(word, tokenize="{FTS5_TOKENIZE}")')
        self._db.execute("CREATE VIRTUAL TABLE terms USING fts5vocab(words, instance)")
        self._held = 0

    def text(self, text: str) -> str:
        words = text.split()
        with self._lock:
            known = self._known
            distinct = dict.fromkeys(words)
            new = [w for w in distinct if w not in known]
            if new:
                if len(known) + len(new) > STEM_CACHE:
                    # Full: start again from the words this text needs. Emptying it all dropped cached
                    # words this text was about to read back (KeyError). A text with more distinct
                    # words than the limit holds them all until the next text empties the cache again.
                    self._known = known = {w: known[w] for w in distinct if w in known}
                known.update(self._terms(new))
            return " ".join(t for t in (known[w] for w in words) if t)

    def _terms(self, words: list[str]) -> dict[str, str]:
        if self._held > TABLE_WORDS:
            # Deleting a large lookup's rows took seconds, and what they left in the FTS5 index made
            # every later lookup some 20 times slower (40 ms for a chunk's words after 300,000 words).
            self._new_table()
        with self._db:
            if self._held:
                self._db.execute("DELETE FROM words")
            self._held = len(words)
            self._db.executemany("INSERT INTO words(rowid, word) VALUES (?, ?)", enumerate(words))
            found: dict[int, list[str]] = {}
            for row, term in self._db.execute("SELECT doc, term FROM terms ORDER BY doc, offset"):
                found.setdefault(row, []).append(term)
        return {w: " ".join(found.get(i, ())) for i, w in enumerate(words)}


_fts5_words = _Fts5Words()


def stemmed(text: str) -> str:
    """index_text (or query) words as FTS5 indexes them (Porter-stemmed), one space between."""
    return _fts5_words.text(text)


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
        self._df: dict[tuple[str, ...], int] = {}  # words -> chunks that hold them, until the next reload
        self._clauses: dict[tuple[str, ...], tantivy.Query | None] = {}  # words -> FTS5-weighted clause, as long

    # --- writing ------------------------------------------------------------------------
    @staticmethod
    def prepare(bodies: list[str]) -> None:
        """Learn the FTS5 terms of these bodies' words now, so that replace() only looks them up."""
        for body in bodies:
            stemmed(body)

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
            try:
                writer.rollback()
            except ValueError:  # (a full disk fails this too): the first error is the one that says why
                pass
            raise
        finally:
            writer.wait_merging_threads()
        self.index.reload()
        self._df.clear()
        self._clauses.clear()

    # --- reading ------------------------------------------------------------------------
    def reload(self) -> None:
        """See commits made since (by this process or another)."""
        self.index.reload()
        self._df.clear()
        self._clauses.clear()

    def held(self) -> dict[str, int]:
        """document id -> chunks this index holds for it."""
        result = self.index.searcher().aggregate(
            tantivy.Query.all_query(), {"held": {"terms": {"field": "document_id", "size": MAX_HELD}}})
        return {b["key"]: int(b["doc_count"]) for b in result["held"]["buckets"]}

    def search(self, terms: list[str], phrases: list[str], filter_columns: list[tuple[str, list]],
               k: int) -> list[tuple[int, float]]:
        """(rowid, BM25 score) of the k best chunks matching any term or phrase, best first."""
        return self.search_union(terms, phrases, [filter_columns], k)[0]

    def search_union(self, terms: list[str], phrases: list[str], groups: list[list[tuple[str, list]]],
                     k: int) -> tuple[list[tuple[int, float]], bool]:
        """The k best chunks that match any term or phrase and any one group's filter columns, best
        first, and whether that is every chunk that matches (fewer than k did). One query for all of a
        question's company groups: the filters restrict what is ranked and add nothing to a score, so
        a chunk scores the same here as in its own group's search, and ties break the same way (by
        index order): each group's own ranking is this one's rows that are the group's, in order."""
        searcher = self.index.searcher()
        match = self._match(searcher, terms, phrases)
        if match is None:
            return [], True
        must = [(tantivy.Occur.Must, match)]
        if all(groups):  # a group with no filter ranks every chunk, and so does their union
            if len(groups) == 1:
                must.extend((tantivy.Occur.Must, self._allowed(column, values)) for column, values in groups[0])
            else:
                either = [(tantivy.Occur.Should, tantivy.Query.boolean_query(
                    [(tantivy.Occur.Must, self._allowed(c, v)) for c, v in group])) for group in groups]
                must.append((tantivy.Occur.Must, tantivy.Query.const_score_query(
                    tantivy.Query.boolean_query(either), 0.0)))
        hits = searcher.search(tantivy.Query.boolean_query(must), k, count=False).hits
        rowids = searcher.fast_field_values("rowid", [address for _score, address in hits])
        ranked = [(rowid, score) for (score, _address), rowid in zip(hits, rowids) if rowid is not None]
        return ranked, len(hits) < k

    def _allowed(self, column: str, values: list) -> tantivy.Query:
        """A filter: it restricts what is ranked, and adds nothing to the score. A few values are a
        union of term queries (a term set fills a bitset over the whole index first: 15 % slower for a
        company's filings at 340k chunks), many a term set."""
        field = _FIELDS[column]
        if len(values) <= FILTER_TERMS:
            allowed = tantivy.Query.boolean_query(
                [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, field, str(v))) for v in values])
        else:
            allowed = tantivy.Query.term_set_query(self.schema, field, [str(v) for v in values])
        return tantivy.Query.const_score_query(allowed, 0.0)

    def _match(self, searcher: tantivy.Searcher, terms: list[str], phrases: list[str]) -> tantivy.Query | None:
        """Any of the terms or phrases, each its own clause weighted as FTS5 weighs it; None when none
        of them is in the index. The clauses are kept until the index changes: the lexicon's phrases
        come back question after question."""
        clauses = []
        parts = [*terms, *phrases]
        stemmed(" ".join(parts))  # every new word of the question in one FTS5 lookup, not one a part
        for part in parts:
            words = tuple(stemmed(part).split())  # FTS5's tokenizer reads a quoted part as a phrase of these terms
            if not words:
                continue
            if words not in self._clauses:
                if len(self._clauses) >= DF_CACHE:
                    self._clauses.clear()
                self._clauses[words] = self._clause(searcher, list(words))
            clause = self._clauses[words]
            if clause is not None:
                clauses.append((tantivy.Occur.Should, clause))
        return tantivy.Query.boolean_query(clauses) if clauses else None

    # --- ranking as FTS5 ranks ----------------------------------------------------------
    # tantivy's BM25 and FTS5's bm25() share k1=1.2, b=0.75 and the term-frequency part, and differ in
    # the IDF: tantivy weighs a term ln(1 + (N-n+0.5)/(n+0.5)), so a word in most chunks ("total",
    # "2022") still counts, where FTS5's ln((N-n+0.5)/(n+0.5)) gives it (nearly) nothing; and tantivy
    # weighs a phrase by the sum of its words' IDFs, FTS5 by the phrase's own document frequency. As
    # is, 12 % of the top 10 differed (Hit@5 equal, nDCG@5 and MRR lower). Each clause is boosted by
    # FTS5's IDF over tantivy's, so the scores are FTS5's but for tantivy's one-byte length norms.
    def _clause(self, searcher: tantivy.Searcher, words: list[str]) -> tantivy.Query | None:
        n = self._frequency(searcher, tuple(words))
        if n == 0:
            return None  # matches nothing: FTS5 leaves it out of the score as well
        total = searcher.num_docs
        theirs = sum(_tantivy_idf(total, self._frequency(searcher, (w,))) for w in words)
        query = (tantivy.Query.term_query(self.schema, "body", words[0]) if len(words) == 1
                 else tantivy.Query.phrase_query(self.schema, "body", words))
        return tantivy.Query.boost_query(query, _fts5_idf(total, n) / theirs)

    def _frequency(self, searcher: tantivy.Searcher, words: tuple[str, ...]) -> int:
        """Chunks holding the word, or the phrase (counted once, then kept until the index changes:
        the lexicon's phrases come back question after question)."""
        n = self._df.get(words)
        if n is None:
            if len(words) == 1:
                n = searcher.doc_freq("body", words[0])
            else:
                n = searcher.search(tantivy.Query.phrase_query(self.schema, "body", list(words)), 1,
                                    count=True).count
            if len(self._df) >= DF_CACHE:
                self._df.clear()
            self._df[words] = n
        return n


def _fts5_idf(total: int, n: int) -> float:
    """FTS5's bm25() IDF (fts5_aux.c): never zero or below, so a match still ranks above no match."""
    idf = math.log((total - n + 0.5) / (n + 0.5))
    return idf if idf > 0 else 1e-6


def _tantivy_idf(total: int, n: int) -> float:
    """tantivy's BM25 IDF (src/query/bm25.rs), the weight a boost of 1 leaves a clause."""
    return math.log(1 + (total - n + 0.5) / (n + 0.5))


def split_groups(ranked: list[tuple[int, float]], rows: dict[int, tuple], groups: list[list[tuple[str, list]]],
                 k: int, fields: tuple[str, ...]) -> list[list[tuple[str, float]]]:
    """Each group's (chunk id, score) list out of one ranking of all the groups' chunks: the rows the
    store holds (``rows``: rowid -> the chunk's ``fields``, its id and filter columns among them; a
    rowid it no longer holds, or holds with other values, is a stale entry and dropped) that pass the
    group's filter, in order."""
    at = {name: i for i, name in enumerate(fields)}
    out = []
    for group in groups:
        allowed = [(at[column.removeprefix("c.")], set(values)) for column, values in group]
        mine = []
        for rowid, score in ranked:
            row = rows.get(rowid)
            if row is not None and all(row[i] in values for i, values in allowed):
                mine.append((row[at["id"]], score))
                if len(mine) == k:
                    break
        out.append(mine)
    return out
