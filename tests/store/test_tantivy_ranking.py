"""tantivy behind the SQLite store ranks as FTS5 does: the same terms (FTS5's own tokenizer), the same
document frequencies, FTS5's IDF. Checked on an index of the bundled real filings, with the searches
the planner makes for real questions."""

from __future__ import annotations

import pytest

from docqa.plan import build_plan
from docqa.store.sqlite import SQLiteStore
from docqa.store.tantivy_lexical import FTS5_TOKENIZE, stemmed
from docqa.types import SearchFilters

QUESTIONS = [
    "What is the FY2022 capital expenditure amount (in USD millions) for Adobe? Use the cash flow statement.",
    "What was Amazon's total net sales in 2017?",
    "How many paid memberships did Netflix have at the end of 2017?",
    "Did Adobe's operating margin improve in FY2022 versus FY2021?",
    "What are the main risks Amazon lists about its fulfillment network?",
    "What is the total long-term debt of Netflix as of December 31, 2017?",
    "Who is the chief executive officer of Adobe, and what does the company say about us and vs peers?",
]


@pytest.fixture(scope="module")
def both(lexical_engine):
    """The samples index searched through FTS5 and, beside the same file, through tantivy (built from
    SQLite when the store opens)."""
    path = lexical_engine.store.path
    fts5 = SQLiteStore(path, lexical="fts5")
    tantivy = SQLiteStore(path, lexical="tantivy")
    yield fts5, tantivy
    tantivy.close()
    fts5.close()


def _searches(store):
    docs = store.documents()
    for q in QUESTIONS:
        plan = build_plan(q, docs, None)
        for group in plan.groups:
            yield plan.terms, plan.phrases, group
        yield plan.terms, plan.phrases, SearchFilters()  # unrestricted too: the whole index ranked


def test_tantivy_reads_the_tokenizer_chunks_fts_is_declared_with(both):
    fts5, _ = both
    sql = fts5._db.execute("SELECT sql FROM sqlite_master WHERE name='chunks_fts'").fetchone()[0]
    assert FTS5_TOKENIZE in sql


def test_terms_are_fts5s_own(both):
    """Words under three letters stay as they are ("us" is not "u", "s" is not dropped), as FTS5's
    porter tokenizer leaves them; longer words are Porter-stemmed."""
    assert stemmed("us used vs s running sg&a 1.5 fy2022") == "us us vs s run sg&a 1.5 fy2022"
    fts5, tantivy = both
    searcher = tantivy._lexical.index.searcher()
    for terms, phrases, _ in _searches(fts5):
        for part in [*terms, *phrases]:
            words = tuple(stemmed(part).split())
            if not words:
                continue
            expected = fts5._db.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?",
                                        ['"' + part.replace('"', " ") + '"']).fetchone()[0]
            assert tantivy._lexical._frequency(searcher, words) == expected, part


def test_ranking_agrees_with_fts5(both):
    """Same chunks at the top, same scores but for tantivy's one-byte length norms (a few per cent)."""
    fts5, tantivy = both
    overlaps = []
    for terms, phrases, filters in _searches(fts5):
        a = fts5.lexical_search(terms, phrases, filters, 200)
        b = tantivy.lexical_search(terms, phrases, filters, 200)
        assert bool(a) == bool(b)
        if not a:
            continue
        top_a, top_b = [c for c, _ in a[:10]], [c for c, _ in b[:10]]
        overlaps.append(len(set(top_a) & set(top_b)) / len(top_a))
        assert top_a[0] in top_b[:3]
        scores = dict(b)
        for cid, score in a[:10]:
            if cid in scores:
                assert scores[cid] == pytest.approx(score, rel=0.05), (terms, phrases, cid)
    assert len(overlaps) >= len(QUESTIONS)
    assert sum(overlaps) / len(overlaps) >= 0.9
