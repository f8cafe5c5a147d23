"""The behavioural battery every store backend passes. Backends plug in through the ``store`` fixture."""

from __future__ import annotations

import numpy as np
import pytest

from docqa.embed import HashingEmbedder
from docqa.store.base import EmbedderMismatch, StoredLine, StoredPage
from docqa.types import Chunk, DocType, Document, DocumentMeta, PageInfo, SearchFilters, StatementKind

EMBEDDER = HashingEmbedder(64)


def make_document(doc_id: str, company: str, year: int, doc_type: DocType, texts: list[str]):
    meta = DocumentMeta(company=company, fiscal_year=year, doc_type=doc_type)
    document = Document(id=doc_id, file_name=f"{doc_id}.pdf", path=f"/x/{doc_id}.pdf", sha256=doc_id * 4,
                        pages=len(texts), chunks=len(texts), meta=meta)
    pages, chunks = [], []
    for n, text in enumerate(texts, start=1):
        statement = StatementKind.CASH_FLOW if "Purchases of property" in text else None
        pages.append(StoredPage(document_id=doc_id, number=n, width=612, height=792,
                                lines=tuple(StoredLine(text=t, bbox=(10, 10 * i, 300, 10 * i + 8))
                                            for i, t in enumerate(text.split("\n"))),
                                info=PageInfo(number=n, section="Item 8", statement=statement)))
        chunks.append(Chunk(id=f"{doc_id}-{n}", document_id=doc_id, document=document.file_name, page=n, ordinal=0,
                            text=text, kind="table" if statement else "text", section="Item 8", statement=statement,
                            company=company, fiscal_year=year, doc_type=doc_type))
    vectors = EMBEDDER.embed([c.text for c in chunks])
    return document, pages, chunks, vectors


CASH_FLOW = "Consolidated Statement of Cash Flows\nPurchases of property, plant and equipment (PP&E)  (1,577)  (1,373)"
BALANCE = "Balance sheet\nProperty, plant and equipment - net  8.70  8.87\nFY2018 Form 10-K"
PROSE = "Our business sells adhesives and abrasives to industrial customers around the world."


@pytest.fixture
def two_documents(store):
    a = make_document("aaaa1111", "3M Company", 2018, DocType.ANNUAL, [CASH_FLOW, BALANCE, PROSE])
    b = make_document("bbbb2222", "Adobe Inc.", 2022, DocType.QUARTERLY, [PROSE.replace("adhesives", "software"), CASH_FLOW])
    store.add_document(*a)
    store.add_document(*b)
    return a, b


class StoreBattery:
    def test_empty_store(self, store):
        assert store.documents() == []
        assert store.lexical_search(["sales"], [], SearchFilters(), 5) == []
        assert store.vector_search(EMBEDDER.embed(["sales"])[0], SearchFilters(), 5) == []
        assert store.embedder_identity() is None

    def test_documents_pages_chunks_round_trip(self, store, two_documents):
        (doc_a, pages_a, chunks_a, _), _ = two_documents
        assert [d.id for d in store.documents()] == ["aaaa1111", "bbbb2222"]
        got = store.document("aaaa1111")
        assert got.meta.company == "3M Company" and got.meta.fiscal_year == 2018 and got.chunks == 3
        assert store.document_by_sha(doc_a.sha256).id == doc_a.id
        page = store.page("aaaa1111", 1)
        assert page.lines[1].text.startswith("Purchases of property")
        assert page.info.statement == StatementKind.CASH_FLOW
        assert [p.number for p in store.pages("aaaa1111")] == [1, 2, 3]
        assert store.page("aaaa1111", 9) is None
        chunk = store.chunks(["aaaa1111-1"])[0]
        assert chunk == chunks_a[0]

    @pytest.mark.parametrize("term", ["1577", "8.70", "fy2018", "10k", "pp&e"])
    def test_figures_and_forms_are_matchable(self, store, two_documents, term):
        hits = store.lexical_search([term], [], SearchFilters(document_ids=("aaaa1111",)), 5)
        assert hits, term
        assert all(cid.startswith("aaaa1111") for cid, _ in hits)

    def test_phrase_outranks_scattered_words(self, store, two_documents):
        hits = store.lexical_search(["property"], ["purchases of property plant and equipment"],
                                    SearchFilters(document_ids=("aaaa1111",)), 5)
        assert hits[0][0] == "aaaa1111-1"
        assert hits[0][1] > hits[-1][1] or len(hits) == 1

    @pytest.mark.parametrize("filters, expected", [
        (SearchFilters(companies=("Adobe Inc.",)), {"bbbb2222-2"}),
        (SearchFilters(years=(2018,)), {"aaaa1111-1"}),
        (SearchFilters(doc_types=(DocType.QUARTERLY,)), {"bbbb2222-2"}),
        (SearchFilters(document_ids=("aaaa1111",)), {"aaaa1111-1"}),
        (SearchFilters(), {"aaaa1111-1", "bbbb2222-2"}),
    ])
    def test_filters(self, store, two_documents, filters, expected):
        lexical = {cid for cid, _ in store.lexical_search(["1577"], [], filters, 10)}
        assert lexical == expected
        vec = EMBEDDER.embed([CASH_FLOW])[0]
        dense = [cid for cid, _ in store.vector_search(vec, filters, 10)]
        assert expected <= set(dense)
        assert set(dense) <= {c for c in dense if any(c.startswith(e.split("-")[0]) for e in expected)}

    def test_vector_search_ranks_nearest_first(self, store, two_documents):
        vec = EMBEDDER.embed([BALANCE])[0]
        ranked = store.vector_search(vec, SearchFilters(), 3)
        assert ranked[0][0] == "aaaa1111-2"
        assert ranked[0][1] >= ranked[1][1]

    def test_re_adding_replaces_without_duplicates(self, store, two_documents):
        a, _ = two_documents
        store.add_document(*a)
        assert len(store.documents()) == 2
        hits = store.lexical_search(["1577"], [], SearchFilters(document_ids=("aaaa1111",)), 10)
        assert len(hits) == 1

    def test_delete_removes_everything(self, store, two_documents):
        assert store.delete_document("aaaa1111") is True
        assert store.delete_document("aaaa1111") is False
        assert [d.id for d in store.documents()] == ["bbbb2222"]
        assert store.page("aaaa1111", 1) is None
        assert all(not c.startswith("aaaa") for c, _ in store.lexical_search(["1577"], [], SearchFilters(), 10))
        vec = EMBEDDER.embed([CASH_FLOW])[0]
        assert all(not c.startswith("aaaa") for c, _ in store.vector_search(vec, SearchFilters(), 10))

    def test_failed_write_leaves_nothing_behind(self, store):
        document, pages, chunks, vectors = make_document("cccc3333", "X Corp", 2020, DocType.ANNUAL, [PROSE, CASH_FLOW])
        broken = [chunks[0], chunks[0]]  # duplicate chunk id violates uniqueness mid-transaction
        with pytest.raises(Exception):
            store.add_document(document, pages, broken, np.vstack([vectors[0], vectors[0]]))
        assert store.documents() == []
        assert store.page("cccc3333", 1) is None
        assert store.lexical_search(["adhesives"], [], SearchFilters(), 5) == []

    def test_embedder_identity_is_enforced(self, store):
        store.bind_embedder("model-a")
        store.bind_embedder("model-a")
        assert store.embedder_identity() == "model-a"
        with pytest.raises(EmbedderMismatch, match="model-a"):
            store.bind_embedder("model-b")

    def test_lexical_only_documents(self, store):
        document, pages, chunks, _ = make_document("dddd4444", "Y Inc.", 2021, DocType.ANNUAL, [PROSE])
        store.add_document(document, pages, chunks, None)
        assert store.lexical_search(["adhesives"], [], SearchFilters(), 5)[0][0] == "dddd4444-1"
        assert store.vector_search(EMBEDDER.embed([PROSE])[0], SearchFilters(), 5) == []
        assert store.document("dddd4444").embedded is False
