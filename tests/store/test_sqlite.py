import pytest

from docqa.store.sqlite import SQLiteStore
from docqa.types import SearchFilters
from tests.store.battery import ServiceStateBattery, StoreBattery, two_documents  # noqa: F401  (fixture)


@pytest.fixture(params=["fts5", "tantivy"])
def lexical(request):
    """Every test here runs with either lexical index behind the store (setting ``lexical``)."""
    return request.param


@pytest.fixture
def store(tmp_path, lexical):
    s = SQLiteStore(tmp_path / "index.sqlite", lexical=lexical)
    yield s
    s.close()


@pytest.fixture
def second_store(store, tmp_path, lexical):
    """Another connection to the same index, as another process would open it."""
    s = SQLiteStore(tmp_path / "index.sqlite", lexical=lexical)
    yield s
    s.close()


class TestSQLiteStore(StoreBattery, ServiceStateBattery):
    def test_reopening_keeps_everything(self, tmp_path, lexical):
        from tests.store.battery import make_document
        from docqa.types import DocType

        path = tmp_path / "again.sqlite"
        first = SQLiteStore(path, lexical=lexical)
        first.add_document(*make_document("eeee5555", "Z plc", 2019, DocType.ANNUAL, ["Revenue  1,000  900"]))
        first.bind_embedder("model-a")
        first.close()
        second = SQLiteStore(path, lexical=lexical)
        assert [d.id for d in second.documents()] == ["eeee5555"]
        assert second.embedder_identity() == "model-a"
        assert second.lexical_search(["1000"], [], __import__("docqa.types").types.SearchFilters(), 5)
        second.close()

    def test_a_pages_tables_are_validated_once_and_kept_with_the_cached_page(self, store, monkeypatch):
        from docqa.finance.tables import StatementTable
        from docqa.types import DocType
        from tests.store.battery import CASH_FLOW, cash_flow_table, make_document

        document, pages, chunks, vectors = make_document("ffff6666", "3M Company", 2018, DocType.ANNUAL, [CASH_FLOW])
        store.add_document(document, [pages[0].model_copy(update={"tables": (cash_flow_table(),)})], chunks, vectors)
        validated = []
        real = StatementTable.model_validate
        monkeypatch.setattr(StatementTable, "model_validate", lambda data: validated.append(1) or real(data))
        page = store.pages("ffff6666")[0]
        assert page.tables and not validated  # whether a page has tables is known without reading them
        first = page.tables[0]
        again = store.pages("ffff6666")[0].tables[0]
        assert again is first and len(validated) == 1 and first == cash_flow_table()


class TestDocumentRestrictedRanking:
    """A document filter restricts FTS5 to the documents' rowid spans before ranking: the result must
    be the unfiltered ranking's rows of those documents, same scores, and follow every write."""

    TEXTS = ["Revenue  1,000  900\nCost of revenue  400", "Revenue grew on software sales", "Cash and revenue"]

    def _docs(self, store, ids):
        from docqa.types import DocType
        from tests.store.battery import make_document

        for n, doc_id in enumerate(ids):
            store.add_document(*make_document(doc_id, f"Co {n}", 2020 + n, DocType.ANNUAL, self.TEXTS))

    def test_filtered_equals_unfiltered_restricted(self, store):
        from docqa.types import SearchFilters

        self._docs(store, ["aaaa0001", "bbbb0002", "cccc0003", "dddd0004"])
        everything = store.lexical_search(["revenue", "software"], ["cost of revenue"], SearchFilters(), 100)
        assert len(everything) == 12
        for wanted in (("bbbb0002",), ("aaaa0001", "cccc0003"), ("dddd0004", "aaaa0001", "bbbb0002")):
            got = store.lexical_search(["revenue", "software"], ["cost of revenue"],
                                       SearchFilters(document_ids=wanted), 100)
            expected = [(cid, score) for cid, score in everything if cid.split("-")[0] in wanted]
            assert sorted(got, key=lambda h: (-h[1], h[0])) == sorted(expected, key=lambda h: (-h[1], h[0]))
            assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)
        # the document filter combines with the other filters, and k still limits
        assert store.lexical_search(["revenue"], [], SearchFilters(document_ids=("aaaa0001", "bbbb0002"), years=(2021,)),
                                    100) and all(c.startswith("bbbb0002") for c, _ in store.lexical_search(
                                        ["revenue"], [], SearchFilters(document_ids=("aaaa0001", "bbbb0002"),
                                                                       years=(2021,)), 100))
        assert len(store.lexical_search(["revenue"], [], SearchFilters(document_ids=("aaaa0001",)), 2)) == 2
        assert store.lexical_search(["revenue"], [], SearchFilters(document_ids=("nosuchdoc",)), 10) == []

    def test_spans_follow_writes_from_another_connection(self, store, second_store):
        from docqa.types import SearchFilters

        self._docs(store, ["aaaa0001", "bbbb0002"])
        only_a = SearchFilters(document_ids=("aaaa0001",))
        assert {c for c, _ in store.lexical_search(["revenue"], [], only_a, 10)} == {f"aaaa0001-{i}" for i in (1, 2, 3)}
        # Re-adding A elsewhere gives its chunks new rowids after B's; the cached span must not be used.
        second_store.delete_document("aaaa0001")
        assert store.lexical_search(["revenue"], [], only_a, 10) == []
        self._docs(second_store, ["aaaa0001"])
        assert {c for c, _ in store.lexical_search(["revenue"], [], only_a, 10)} == {f"aaaa0001-{i}" for i in (1, 2, 3)}
        assert {c for c, _ in store.lexical_search(["revenue"], [], SearchFilters(document_ids=("bbbb0002",)), 10)} \
            == {f"bbbb0002-{i}" for i in (1, 2, 3)}

    def test_chunks_read_again_after_a_write_elsewhere(self, store, second_store):
        from docqa.types import DocType
        from tests.store.battery import make_document

        self._docs(store, ["aaaa0001"])
        assert store.chunks(["aaaa0001-2", "aaaa0001-2"])[0].text == self.TEXTS[1]  # now kept by this store
        second_store.add_document(*make_document("aaaa0001", "Co 0", 2020, DocType.ANNUAL, ["Other", "Changed text"]))
        assert [c.text for c in store.chunks(["aaaa0001-2", "aaaa0001-3", "aaaa0001-1"])] == ["Changed text", "Other"]


    def test_pages_read_again_after_a_write_elsewhere(self, store, second_store):
        from docqa.types import DocType
        from tests.store.battery import make_document

        self._docs(store, ["aaaa0001"])
        before = store.pages("aaaa0001")
        assert store.pages("aaaa0001") == before and before  # the second read comes from the cache
        store.pages("aaaa0001").clear()  # a caller changing its list does not change the kept one
        assert store.pages("aaaa0001") == before
        second_store.add_document(*make_document("aaaa0001", "Co 0", 2020, DocType.ANNUAL, ["Other", "Changed text"]))
        assert [p.text for p in store.pages("aaaa0001")] == [p.text for p in second_store.pages("aaaa0001")]
        assert [p.text for p in store.pages("aaaa0001")] != [p.text for p in before]

def test_word_lookups_outlive_a_searcher_but_not_a_new_filing(store):
    """The engine makes a searcher per question; what planning learnt about words is kept per store
    for one set of documents, and learnt again when a filing is added."""
    from docqa.search.hybrid import HybridSearcher
    from docqa.types import DocType
    from tests.store.battery import make_document

    store.add_document(*make_document("aaaa0001", "Co A", 2020, DocType.ANNUAL, ["Revenue  1,000"]))
    first = HybridSearcher(store, None)
    first.search("revenue of Co A", store.documents(), mode="lexical")
    assert first.is_word("revenue") and not first.is_word("zanzibar")
    calls = []
    original = store.lexical_search
    store.lexical_search = lambda *a, **k: calls.append(a) or original(*a, **k)
    second = HybridSearcher(store, None)
    second.search("revenue of Co A", store.documents(), mode="lexical")
    assert not second.is_word("zanzibar") and calls and not any(a[0] == ["zanzibar"] for a in calls)
    store.add_document(*make_document("bbbb0002", "Co B", 2021, DocType.ANNUAL, ["Zanzibar sales  5"]))
    third = HybridSearcher(store, None)
    third.search("revenue of Co B", store.documents(), mode="lexical")
    assert third.is_word("zanzibar")


def test_many_documents_in_one_filter(store, monkeypatch):
    """More documents than one query takes as separate spans: gaps are closed, results unchanged."""
    import docqa.store.sqlite_search as sqlite_search
    from docqa.types import DocType, SearchFilters
    from tests.store.battery import make_document

    ids = [f"doc{n:05d}" for n in range(12)]
    for n, doc_id in enumerate(ids):
        store.add_document(*make_document(doc_id, f"Co {n}", 2020, DocType.ANNUAL, ["Revenue  1,000", f"Revenue {n} x"]))
    wanted = tuple(ids[::2])  # every other document: no two spans adjacent
    everything = store.lexical_search(["revenue"], [], SearchFilters(), 100)
    expected = sorted((c, s) for c, s in everything if c.split("-")[0] in wanted)
    monkeypatch.setattr(sqlite_search, "MAX_SPANS", 2)
    assert len(store._rowid_ranges(wanted)) <= 2
    assert sorted(store.lexical_search(["revenue"], [], SearchFilters(document_ids=wanted), 100)) == expected
    monkeypatch.setattr(sqlite_search, "MAX_SPANS", 200)
    assert len(store._rowid_ranges(wanted)) == 6
    assert sorted(store.lexical_search(["revenue"], [], SearchFilters(document_ids=wanted), 100)) == expected


class TestTantivyRepair:
    """The tantivy index is committed inside the SQLite transaction, just before SQLite's commit; a
    crash between the two leaves tantivy ahead of SQLite, and opening the store again brings tantivy in
    line with SQLite, document by document."""

    def _crash_after_tantivy(self, store, monkeypatch, write):
        written = store._write_lexical

        def dies(document_id):
            written(document_id)
            raise KeyboardInterrupt  # the process dies here, before SQLite's COMMIT

        monkeypatch.setattr(store, "_write_lexical", dies)
        with pytest.raises(KeyboardInterrupt):
            write()
        monkeypatch.undo()

    def test_added_and_deleted_documents_repaired_at_open(self, tmp_path, monkeypatch):
        from docqa.types import DocType
        from tests.store.battery import make_document

        path = tmp_path / "index.sqlite"
        store = SQLiteStore(path, lexical="tantivy")
        store.add_document(*make_document("aaaa0001", "Co A", 2020, DocType.ANNUAL, ["Revenue  1,000", "Zanzibar"]))
        store.add_document(*make_document("bbbb0002", "Co B", 2021, DocType.ANNUAL, ["Revenue  2,000"]))
        self._crash_after_tantivy(store, monkeypatch, lambda: store.add_document(
            *make_document("cccc0003", "Co C", 2022, DocType.ANNUAL, ["Revenue  3,000", "Revenue grew"])))
        self._crash_after_tantivy(store, monkeypatch, lambda: store.delete_document("aaaa0001"))
        # Torn: tantivy holds C, which SQLite never committed, and has lost A, which SQLite keeps.
        assert {d.id for d in store.documents()} == {"aaaa0001", "bbbb0002"}
        assert store._lexical.held() == {"bbbb0002": 1, "cccc0003": 2}
        # C's rowids are not SQLite's: dropped, never shown as another chunk.
        assert {c for c, _ in store.lexical_search(["revenue"], [], SearchFilters(), 10)} == {"bbbb0002-1"}
        store.close()

        again = SQLiteStore(path, lexical="tantivy")
        assert again._lexical.held() == {"aaaa0001": 2, "bbbb0002": 1}
        assert {c for c, _ in again.lexical_search(["revenue"], [], SearchFilters(), 10)} == \
            {"aaaa0001-1", "bbbb0002-1"}
        assert [c for c, _ in again.lexical_search(["zanzibar"], [], SearchFilters(), 10)] == ["aaaa0001-2"]
        # The repaired index ranks as FTS5 does over the same rows.
        fts5 = SQLiteStore(path, lexical="fts5")
        assert [c for c, _ in again.lexical_search(["revenue", "zanzibar"], [], SearchFilters(), 10)] == \
            [c for c, _ in fts5.lexical_search(["revenue", "zanzibar"], [], SearchFilters(), 10)]
        fts5.close()
        again.close()

    def test_another_process_never_lists_a_document_its_search_cannot_find(self, tmp_path, monkeypatch):
        """A server's store opened before another process indexes a filing: at every moment of that
        write, a document the server lists is one its lexical search finds (the server first asked
        between the two commits got "not found" for a document it listed as ready)."""
        from docqa.types import DocType
        from tests.store.battery import make_document

        path = tmp_path / "index.sqlite"
        writer = SQLiteStore(path, lexical="tantivy")
        writer.add_document(*make_document("aaaa0001", "Co A", 2020, DocType.ANNUAL, ["Revenue  1,000"]))
        server = SQLiteStore(path, lexical="tantivy")  # another connection: data_version moves as for a process
        assert server.lexical_search(["zanzibar"], [], SearchFilters(), 10) == []
        seen = []

        def observe() -> None:
            listed = {d.id for d in server.documents()}
            found = {c.split("-")[0] for c, _ in server.lexical_search(["zanzibar"], [], SearchFilters(), 10)}
            seen.append((listed, found))

        replace = writer._lexical.replace

        def observed(documents):
            observe()  # just before tantivy's commit,
            replace(documents)
            observe()  # and between it and SQLite's
        monkeypatch.setattr(writer._lexical, "replace", observed)
        writer.add_document(*make_document("bbbb0002", "Co B", 2021, DocType.ANNUAL, ["Zanzibar  2,000"]))
        observe()  # and after both
        assert [("bbbb0002" in listed, "bbbb0002" in found) for listed, found in seen] == \
            [(False, False), (False, False), (True, True)]
        server.close()
        writer.close()

    def test_existing_fts5_store_gets_a_tantivy_index_at_open(self, tmp_path):
        from docqa.types import DocType
        from tests.store.battery import make_document

        path = tmp_path / "index.sqlite"
        plain = SQLiteStore(path)
        plain.add_document(*make_document("aaaa0001", "Co A", 2020, DocType.ANNUAL, ["Revenue  1,000", "Cash"]))
        plain.close()
        assert not list(tmp_path.glob("index.sqlite.tantivy*"))
        store = SQLiteStore(path, lexical="tantivy")
        assert store._lexical.held() == {"aaaa0001": 2}
        assert [c for c, _ in store.lexical_search(["1000"], [], SearchFilters(), 5)] == ["aaaa0001-1"]
        store.close()

    def test_searches_fts5_while_another_process_holds_the_writer(self, tmp_path):
        """Two processes opening an index at once: the one that cannot build the tantivy index
        searches FTS5 (always written) until a write shows it the index is in line."""
        from docqa.store.tantivy_lexical import ANALYSIS_VERSION, TantivyLexical
        from docqa.types import DocType
        from tests.store.battery import make_document

        path = tmp_path / "index.sqlite"
        plain = SQLiteStore(path)
        plain.add_document(*make_document("aaaa0001", "Co A", 2020, DocType.ANNUAL, ["Revenue  1,000", "Cash"]))
        other = TantivyLexical(tmp_path / f"index.sqlite.tantivy{ANALYSIS_VERSION}")
        writer = other.index.writer(15_000_000, 1)  # "another process" building it
        store = SQLiteStore(path, lexical="tantivy")
        assert not store._lexical_in_line and store._lexical.held() == {}
        assert [c for c, _ in store.lexical_search(["1000"], [], SearchFilters(), 5)] == ["aaaa0001-1"]  # FTS5
        writer.rollback()
        del writer
        plain.add_document(*make_document("bbbb0002", "Co B", 2021, DocType.ANNUAL, ["Revenue  2,000"]))
        assert {c for c, _ in store.lexical_search(["revenue"], [], SearchFilters(), 5)} == {"aaaa0001-1", "bbbb0002-1"}
        assert store._lexical_in_line and store._lexical.held() == {"aaaa0001": 2, "bbbb0002": 1}
        store.close()
        plain.close()
