"""The store battery against Milvus Lite (in-process), plus what only the Milvus store has: the
write-then-flip visibility of one document, URL parsing, the layout of the lexical text and
Milvus's own hybrid search."""

from __future__ import annotations

import hashlib
import os
import threading

import numpy as np
import pytest

pytest.importorskip("pymilvus")
pytest.importorskip("milvus_lite")

from docqa.store.milvus import MilvusStore, lexical_body, lexical_query, parse_milvus_url  # noqa: E402
from docqa.types import DocType, SearchFilters  # noqa: E402
from tests.store.battery import (  # noqa: E402,F401  (fixture)
    BALANCE,
    CASH_FLOW,
    EMBEDDER,
    PROSE,
    ServiceStateBattery,
    StoreBattery,
    make_document,
    two_documents,
)


# DOCQA_TEST_MILVUS_URL=milvus://127.0.0.1:19530 runs the same tests against a Milvus server, each
# test under its own collection prefix, dropped afterwards. Without it: Milvus Lite in this process.
SERVER = os.environ.get("DOCQA_TEST_MILVUS_URL", "").rstrip("/")


def _url(tmp_path) -> str:
    if SERVER:
        return f"{SERVER}/t{hashlib.sha1(str(tmp_path).encode()).hexdigest()[:12]}"
    return f"milvus-lite://{tmp_path}/index.db"


@pytest.fixture
def store(tmp_path):
    s = MilvusStore(_url(tmp_path))
    yield s
    if SERVER:
        s.drop_all()
    s.close()


@pytest.fixture
def second_store(store, tmp_path):
    """Another client on the same index (Milvus Lite: the same in-process server)."""
    s = MilvusStore(_url(tmp_path))
    yield s
    s.close()


class TestMilvusStore(StoreBattery, ServiceStateBattery):
    def test_reopening_keeps_everything(self, tmp_path):
        url = _url(tmp_path / "again")
        first = MilvusStore(url)
        first.add_document(*make_document("eeee5555", "Z plc", 2019, DocType.ANNUAL, ["Revenue  1,000  900"]))
        first.bind_embedder("model-a")
        first.close()
        second = MilvusStore(url)
        assert [d.id for d in second.documents()] == ["eeee5555"]
        assert second.embedder_identity() == "model-a"
        assert second.lexical_search(["1000"], [], SearchFilters(), 5)[0][0] == "eeee5555-1"
        assert second.vector_search(EMBEDDER.embed(["Revenue"])[0], SearchFilters(), 5)[0][0] == "eeee5555-1"
        if SERVER:
            second.drop_all()
        second.close()

    def test_open_store_routes_milvus_urls(self, tmp_path):
        from docqa.config import Settings
        from docqa.store import open_store

        s = open_store(Settings(index=tmp_path, store=f"milvus-lite://{tmp_path}/routed.db"))
        assert isinstance(s, MilvusStore)
        s.close()

    def test_one_documents_writes_become_visible_together(self, store, second_store, monkeypatch):
        """Write-then-flip: while a document is being written, another client sees none of it."""
        store.add_document(*make_document("aaaa1111", "3M Company", 2018, DocType.ANNUAL, [CASH_FLOW]))
        seen: dict = {}

        def look(document):
            seen["documents"] = [d.id for d in second_store.documents()]
            seen["lexical"] = second_store.lexical_search(["1577"], [], SearchFilters(), 10)
            seen["dense"] = second_store.vector_search(EMBEDDER.embed([CASH_FLOW])[0], SearchFilters(), 10)
            seen["page"] = second_store.page("bbbb2222", 1)

        monkeypatch.setattr(store, "_before_commit", look)
        store.add_document(*make_document("bbbb2222", "Adobe Inc.", 2022, DocType.ANNUAL, [CASH_FLOW, PROSE]))
        assert seen["documents"] == ["aaaa1111"]
        assert [c for c, _ in seen["lexical"]] == ["aaaa1111-1"]
        assert [c for c, _ in seen["dense"]] == ["aaaa1111-1"]
        assert seen["page"] is None
        # after the flip, all of it at once
        assert {c for c, _ in second_store.lexical_search(["1577"], [], SearchFilters(), 10)} == {"aaaa1111-1", "bbbb2222-1"}
        assert [p.number for p in second_store.pages("bbbb2222")] == [1, 2]

    def test_a_write_that_fails_midway_is_rolled_back(self, store, monkeypatch):
        store.add_document(*make_document("aaaa1111", "3M Company", 2018, DocType.ANNUAL, [CASH_FLOW]))

        def fail(document):
            raise RuntimeError("the worker died")

        monkeypatch.setattr(store, "_before_commit", fail)
        with pytest.raises(RuntimeError, match="died"):
            store.add_document(*make_document("bbbb2222", "Adobe Inc.", 2022, DocType.ANNUAL, [CASH_FLOW, PROSE]))
        assert [d.id for d in store.documents()] == ["aaaa1111"]
        assert store.chunks(["bbbb2222-1", "bbbb2222-2"]) == []
        assert store.page("bbbb2222", 1) is None
        assert store._query_all("pages", 'document_id == "bbbb2222"', ["id"]) == []

    def test_a_dead_writers_document_stays_hidden_until_rewritten(self, store):
        document, pages, chunks, vectors = make_document("cccc3333", "X Corp", 2020, DocType.ANNUAL, [CASH_FLOW])
        store._ensure_chunks(vectors.shape[1])
        store._put_document(document, "writing")  # as a writer that died after its inserts
        store._insert_pages(document.id, pages)
        store._insert_chunks(chunks, vectors)
        assert store.documents() == [] and store.document_by_sha(document.sha256) is None
        assert store.lexical_search(["1577"], [], SearchFilters(), 5) == []
        store.add_document(document, pages, chunks, vectors)  # ingesting the file again
        assert [c for c, _ in store.lexical_search(["1577"], [], SearchFilters(), 5)] == ["cccc3333-1"]

    def test_only_a_document_with_a_row_has_its_old_parts_deleted(self, store, monkeypatch):
        """A new document skips the delete-by-filter (a whole-collection scan in Milvus Lite); one that
        has a row, ready or left "writing", gets its old parts deleted and no duplicates."""
        scans: list[str] = []
        real = store._delete_parts
        monkeypatch.setattr(store, "_delete_parts", lambda doc_id: (scans.append(doc_id), real(doc_id)))
        document, pages, chunks, vectors = make_document("dddd4444", "X Corp", 2020, DocType.ANNUAL, [CASH_FLOW, PROSE])
        store.add_document(document, pages, chunks, vectors)
        assert scans == []
        store.add_document(document, pages, chunks, vectors)  # re-ingested: replaced, not added
        assert scans == ["dddd4444"]
        assert sorted(c for c, _ in store.lexical_search(["1577"], [], SearchFilters(), 10)) == ["dddd4444-1"]
        assert len(store._query_all("chunks", 'document_id == "dddd4444"', ["id"])) == 2
        assert len(store._query_all("pages", 'document_id == "dddd4444"', ["id"])) == 2

    def test_concurrent_writers_of_different_documents(self, store):
        docs = [make_document(f"doc{i:05d}", "3M Company", 2018, DocType.ANNUAL, [CASH_FLOW, PROSE]) for i in range(4)]
        threads = [threading.Thread(target=store.add_document, args=d) for d in docs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(store.documents()) == 4
        assert len(store.lexical_search(["1577"], [], SearchFilters(), 10)) == 4

    def test_milvus_hybrid_search_fuses_by_rank(self, store, two_documents):
        vec = EMBEDDER.embed([BALANCE])[0]
        fused = store.hybrid_search(["1577"], [], vec, SearchFilters(document_ids=("aaaa1111",)), 5)
        ids = [c for c, _ in fused]
        assert set(ids) <= {"aaaa1111-1", "aaaa1111-2", "aaaa1111-3"}
        assert "aaaa1111-1" in ids and "aaaa1111-2" in ids  # the lexical best and the dense best
        assert fused[0][1] >= fused[-1][1]

    def test_lexical_only_index_refuses_vectors_once_it_holds_chunks(self, store):
        document, pages, chunks, vectors = make_document("dddd4444", "Y Inc.", 2021, DocType.ANNUAL, [PROSE])
        store.add_document(document, pages, chunks, None)
        other = make_document("eeee5555", "Y Inc.", 2022, DocType.ANNUAL, [PROSE])
        with pytest.raises(ValueError, match="another prefix"):
            store.add_document(*other)
        assert [d.id for d in store.documents()] == ["dddd4444"]


class TestLexicalText:
    def test_every_token_is_one_analyzer_word(self):
        from docqa.types import Chunk

        chunk = Chunk(id="c", document_id="d", document="d.pdf", page=1, ordinal=0,
                      text="Purchases of PP&E (1,577) 8.70 FY2018 10-K")
        words = lexical_body(chunk).split()
        assert all(w.isalnum() and w.isascii() for w in words)
        # unigrams are the stemmed index_text tokens; the phrase's pairs are among the words too
        assert {"purchas", "1577", "fy2018", "2018", "10k"} <= set(words)
        for query in (["pp&e"], ["8.70"], ["purchases"]):
            assert set(lexical_query(query, [])) and set(lexical_query(query, []).split()) <= set(words)
        assert set(lexical_query([], ["purchases of pp&e"]).split()) <= set(words)
        assert not set(lexical_query([], ["pp&e purchases"]).split()) & set(words)  # order matters


class TestUrls:
    @pytest.mark.parametrize("url, uri, prefix", [
        ("milvus://milvus.internal:19530", "http://milvus.internal:19530", "docqa"),
        ("milvus://milvus.internal/filings", "http://milvus.internal:19530", "filings"),
        ("milvuss://m:443/team_a", "https://m:443", "team_a"),
        ("milvus-lite:///tmp/x/index.db", "/tmp/x/index.db", "docqa"),
    ])
    def test_parse(self, url, uri, prefix):
        got_uri, _, got_prefix = parse_milvus_url(url)
        assert (got_uri, got_prefix) == (uri, prefix)

    def test_credentials_become_a_token(self):
        _, kwargs, _ = parse_milvus_url("milvus://root:s%40cret@h:19530")
        assert kwargs == {"token": "root:s@cret"}

    @pytest.mark.parametrize("url, message", [
        ("milvus-lite://", "give a file"),
        ("milvus-lite:///tmp/index.sqlite", "ending in .db"),
        ("milvus:///nohost", "no host"),
        ("milvus://h:19530/bad-prefix", "prefix"),
    ])
    def test_bad_urls_say_what_to_do(self, url, message):
        with pytest.raises(ValueError, match=message):
            parse_milvus_url(url)

    def test_wrong_scheme_fails_at_open(self, tmp_path):
        from docqa.config import Settings
        from docqa.store import open_store

        with pytest.raises(ValueError, match="milvus://host:19530"):
            open_store(Settings(index=tmp_path, store="milvis://h:19530"))

    def test_unreachable_server_is_unavailable_quickly(self):
        import socket
        import time

        from docqa.store import StoreUnavailable

        with socket.socket() as s:  # a port nothing listens on
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        start = time.monotonic()
        with pytest.raises(StoreUnavailable, match=f"127.0.0.1:{port}"):
            MilvusStore(f"milvus://127.0.0.1:{port}/x", timeout=2)
        assert time.monotonic() - start < 15
