"""What a search reads of its candidates from the SQLite store: every chunk asked for, whatever the
cache held; chunk heads that agree with the chunks; and one lexical query for several company
groups that gives each group the list its own search gives."""

from __future__ import annotations

import pytest

import docqa.store.sqlite as sqlite_store
from docqa.store.sqlite import SQLiteStore
from docqa.types import DocType, SearchFilters
from tests.store.battery import make_document

TEXTS = [
    "Revenue  1,000  900\nCost of revenue  400",
    "Revenue grew on software sales and services revenue",
    "Cash and revenue",
    "Total net sales  5,000  4,200",
    "Purchases of property, plant and equipment (PP&E)  (1,577)  (1,373)",
    "Net sales rose; revenue from services",
]


@pytest.fixture(params=["fts5", "tantivy"])
def store(request, tmp_path):
    s = SQLiteStore(tmp_path / "index.sqlite", lexical=request.param)
    for n, company in enumerate(["Alpha Corp", "Beta Inc.", "Gamma plc", "Delta AG"]):
        for year in (2021, 2022):
            doc_type = DocType.ANNUAL if year == 2022 else DocType.QUARTERLY
            texts = TEXTS[n:] + TEXTS[:n]  # each filing prints the words in another order and length
            s.add_document(*make_document(f"{company[:4].lower()}{year}", company, year, doc_type, texts))
    yield s
    s.close()


def test_chunks_returns_every_chunk_asked_when_the_cache_overflows(store, monkeypatch):
    """The chunk cache is emptied when the next read would overflow it: the chunks it held for this
    very request must still be returned (they were dropped, so a search lost its best candidates)."""
    monkeypatch.setattr(sqlite_store, "CHUNK_CACHE", 4)
    ids = [f"alph2021-{n}" for n in range(1, 7)]
    assert [c.id for c in store.chunks(ids[:3])] == ids[:3]
    assert [c.id for c in store.chunks(ids)] == ids


TERMS = ["revenue", "sales", "net", "services", "cash"]
PHRASES = ["total net sales", "cost of revenue", "property plant and equipment"]


def _groups(store) -> list[list[SearchFilters]]:
    """Company groups as the planner makes them (one filing each, or all of a company's), and the
    other filters a caller may add: years, filing types, a group with no filter, groups that overlap."""
    ids = {d.meta.company: [x.id for x in store.documents() if x.meta.company == d.meta.company]
           for d in store.documents()}
    alpha, beta, gamma = ids["Alpha Corp"], ids["Beta Inc."], ids["Gamma plc"]
    return [
        [SearchFilters(document_ids=tuple(alpha)), SearchFilters(document_ids=tuple(beta))],
        [SearchFilters(document_ids=(alpha[0],)), SearchFilters(document_ids=(beta[1],)),
         SearchFilters(document_ids=tuple(gamma))],
        [SearchFilters(document_ids=tuple(alpha + beta)), SearchFilters(document_ids=tuple(beta))],
        [SearchFilters(years=(2022,)), SearchFilters(companies=("Delta AG",), doc_types=(DocType.QUARTERLY,))],
        [SearchFilters(document_ids=tuple(gamma)), SearchFilters()],
    ]


@pytest.mark.parametrize("filter_terms", [1, 64])
@pytest.mark.parametrize("k", [1, 2, 5, 200])
def test_one_query_for_all_groups_ranks_each_group_as_its_own_search(store, k, filter_terms, monkeypatch):
    """Each group's list from the one query is the list of that group's own search: same chunks,
    same scores, same order; small k makes the one query stop short of some group's best, which is
    then searched on its own. Filters of more values than FILTER_TERMS are a term set in tantivy."""
    monkeypatch.setattr("docqa.store.tantivy_lexical.FILTER_TERMS", filter_terms)
    for groups in _groups(store):
        for terms, phrases in [(TERMS, PHRASES), (["revenue"], []), ([], ["total net sales"]), (["nowhere"], [])]:
            together = store.lexical_search_groups(terms, phrases, groups, k)
            alone = [store.lexical_search(terms, phrases, g, k) for g in groups]
            assert together == alone, (groups, terms, phrases)
    assert any(store.lexical_search_groups(TERMS, PHRASES, groups, k) != [[]] * len(groups) for groups in _groups(store))


def test_chunk_heads_are_the_chunks_own(store):
    """What ranking pages reads of a candidate (document, page, section, statement) is what its
    Chunk says, whether the head was kept by a search or read by id."""
    ranked = store.lexical_search(TERMS, PHRASES, SearchFilters(), 200)
    ids = [cid for cid, _ in ranked] + ["alph2022-1", "no-such-chunk"]
    chunks = {c.id: c for c in store.chunks(ids)}
    heads = store.chunk_heads(ids)
    assert set(heads) == set(chunks) and "alph2022-1" in heads
    for cid, chunk in chunks.items():
        assert heads[cid] == (chunk.document_id, chunk.page, chunk.section, chunk.statement)
    assert any(h[3] is not None for h in heads.values())  # a statement, as the Chunk types it


def test_no_group_is_no_list(store):
    assert store.lexical_search_groups(TERMS, PHRASES, [], 10) == []
