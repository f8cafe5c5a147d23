"""The store battery against a real PostgreSQL + pgvector server, plus what only PostgreSQL has:
migrations, a connection pool shared by threads, and an outage the store recovers from."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from docqa.types import DocType, SearchFilters
from tests.pgserver import postgres_server, postgres_url  # noqa: F401  (fixtures)
from tests.store.battery import (  # noqa: F401  (fixture)
    CASH_FLOW,
    EMBEDDER,
    PROSE,
    ServiceStateBattery,
    StoreBattery,
    make_document,
    make_job,
    two_documents,
)



@pytest.fixture
def store(postgres_url):
    from docqa.store.postgres import PostgresStore

    s = PostgresStore(postgres_url, max_size=4)
    yield s
    s.close()


@pytest.fixture
def second_store(store, postgres_url):
    """Another store on the same database, as another process would open it."""
    from docqa.store.postgres import PostgresStore

    s = PostgresStore(postgres_url, max_size=2)
    yield s
    s.close()


class TestPostgresStore(StoreBattery, ServiceStateBattery):
    def test_reopening_keeps_everything(self, postgres_url):
        from docqa.store.postgres import PostgresStore

        first = PostgresStore(postgres_url)
        first.add_document(*make_document("eeee5555", "Z plc", 2019, DocType.ANNUAL, ["Revenue  1,000  900"]))
        first.bind_embedder("model-a")
        first.close()
        second = PostgresStore(postgres_url)
        assert [d.id for d in second.documents()] == ["eeee5555"]
        assert second.embedder_identity() == "model-a"
        assert second.lexical_search(["1000"], [], SearchFilters(), 5)[0][0] == "eeee5555-1"
        assert second.vector_search(EMBEDDER.embed(["Revenue"])[0], SearchFilters(), 5)[0][0] == "eeee5555-1"
        second.close()

    def test_open_store_routes_postgresql_urls(self, postgres_url, tmp_path):
        from docqa.config import Settings
        from docqa.store import open_store
        from docqa.store.postgres import PostgresStore

        s = open_store(Settings(index=tmp_path, store=postgres_url))
        assert isinstance(s, PostgresStore)
        s.close()


class TestSchema:
    def test_fresh_database_gets_every_migration(self, store, postgres_url):
        import psycopg

        from docqa.store.postgres import MIGRATIONS, SCHEMA_VERSION

        with psycopg.connect(postgres_url) as conn:
            versions = [r[0] for r in conn.execute("SELECT version FROM docqa.schema_version ORDER BY version")]
        assert versions == [v for v, _, _ in MIGRATIONS] and versions[-1] == SCHEMA_VERSION

    def test_an_old_schema_is_upgraded_in_order_keeping_its_data(self, postgres_url):
        import psycopg

        from docqa.store.postgres import SCHEMA_VERSION, PostgresStore, migrate

        with psycopg.connect(postgres_url) as conn:
            assert migrate(conn, target=1) == 1  # a database written by the first release
            conn.execute(
                "INSERT INTO docqa.meta (key, value) VALUES ('embedder', 'model-a')"
            )
            conn.commit()
            assert conn.execute("SELECT to_regclass('docqa.jobs')").fetchone()[0] is None
        store = PostgresStore(postgres_url)
        try:
            assert store.embedder_identity() == "model-a"
            store.put_job(make_job("job1", "2025-01-01T00:00:00Z"))
            assert [j.id for j in store.jobs()] == ["job1"]
        finally:
            store.close()
        with psycopg.connect(postgres_url) as conn:
            assert conn.execute("SELECT max(version) FROM docqa.schema_version").fetchone()[0] == SCHEMA_VERSION

    def test_a_newer_schema_is_refused(self, postgres_url):
        import psycopg

        from docqa.store.postgres import PostgresStore, migrate

        with psycopg.connect(postgres_url) as conn:
            migrate(conn)
            conn.execute("INSERT INTO docqa.schema_version (version, description) VALUES (999, 'from the future')")
            conn.commit()
        with pytest.raises(RuntimeError, match="upgrade docqa"):
            PostgresStore(postgres_url)

    def test_two_processes_migrating_at_once_do_not_collide(self, postgres_url):
        from docqa.store.postgres import PostgresStore

        stores, errors = [], []

        def open_one():
            try:
                stores.append(PostgresStore(postgres_url, max_size=1))
            except Exception as exc:  # pragma: no cover - the failure being tested for
                errors.append(exc)

        threads = [threading.Thread(target=open_one) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors and len(stores) == 4
        for s in stores:
            s.close()

    def test_english_configuration_would_lose_figures_ours_keeps_them(self, store, postgres_url):
        import psycopg

        body = "purchases of pp&e 1577 8.70 fy2018 2018 10k"
        with psycopg.connect(postgres_url) as conn:
            english = conn.execute("SELECT to_tsvector('english', %s)::text", (body,)).fetchone()[0]
            ours = conn.execute("SELECT docqa.tsvector_of(%s)::text", (body,)).fetchone()[0]
        assert "'pp&e'" not in english and "'of'" not in english  # split at '&', stop word dropped
        for lexeme in ("'purchas'", "'of'", "'pp&e'", "'1577'", "'8.70'", "'fy2018'", "'10k'"):
            assert lexeme in ours

    def test_hnsw_and_gin_indexes_serve_searches(self, store, two_documents, postgres_url):
        import psycopg
        from pgvector.psycopg import register_vector

        with psycopg.connect(postgres_url) as conn:
            register_vector(conn)
            conn.execute("SET enable_seqscan = off")
            plan = "\n".join(r[0] for r in conn.execute(
                "EXPLAIN SELECT id FROM docqa.chunks ORDER BY embedding <=> %s LIMIT 5",
                (EMBEDDER.embed(["x"])[0],)))
            assert "chunks_embedding" in plan
            plan = "\n".join(r[0] for r in conn.execute(
                "EXPLAIN SELECT id FROM docqa.chunks WHERE tsv @@ docqa.tsquery_of(ARRAY['1577'])"))
            assert "chunks_tsv" in plan


class TestPostgresOnly:
    def test_vectors_of_another_dimension_are_refused(self, store):
        store.add_document(*make_document("aaaa1111", "3M Company", 2018, DocType.ANNUAL, [PROSE]))
        document, pages, chunks, _ = make_document("ffff6666", "Q", 2018, DocType.ANNUAL, [PROSE])
        with pytest.raises(ValueError, match="64-dimensional"):
            store.add_document(document, pages, chunks, np.ones((1, 32), np.float32))
        with pytest.raises(ValueError, match="64-dimensional"):
            store.vector_search(np.ones(32, np.float32), SearchFilters(), 5)

    def test_nul_characters_from_a_pdf_text_layer_are_stored(self, store):
        document, pages, chunks, vectors = make_document("abab1212", "N", 2018, DocType.ANNUAL, ["Sales\x00 rose"])
        store.add_document(document, pages, chunks, vectors)
        assert store.chunks(["abab1212-1"])[0].text == "Sales\ufffd rose"
        assert store.lexical_search(["sales"], [], SearchFilters(), 5)

    def test_bm25_statistics_follow_adds_replaces_and_deletes(self, store, two_documents, postgres_url):
        import psycopg

        a, _ = two_documents
        store.add_document(*a)  # replacing must not count twice
        store.delete_document("bbbb2222")
        with psycopg.connect(postgres_url) as conn:
            count = conn.execute("SELECT value::int FROM docqa.meta WHERE key = 'chunk_count'").fetchone()[0]
            df = conn.execute("SELECT df FROM docqa.lexemes WHERE lexeme = '1577'").fetchone()[0]
            real = conn.execute("SELECT count(*) FROM docqa.chunks WHERE tsv @@ '1577'::tsquery").fetchone()[0]
        assert count == 3 and df == real == 1

    def test_rare_terms_outweigh_common_ones(self, store):
        texts = [f"revenue grew in region {i}" for i in range(8)] + ["revenue and adhesives"]
        store.add_document(*make_document("aaaa1111", "3M Company", 2018, DocType.ANNUAL, texts))
        hits = store.lexical_search(["revenue", "adhesives"], [], SearchFilters(), 3)
        assert hits[0][0] == "aaaa1111-9"

    def test_concurrent_readers_never_see_half_a_document(self, store):
        texts = [f"Segment {i} revenue 1,577 adhesives" for i in range(300)]
        big = make_document("bbbb2222", "Big Co", 2020, DocType.ANNUAL, texts)
        seen, stop, errors = set(), threading.Event(), []

        def read():
            while not stop.is_set():
                try:
                    n = len(store.lexical_search(["adhesives"], [], SearchFilters(), 1000))
                    m = len(store.vector_search(big[3][0], SearchFilters(document_ids=("bbbb2222",)), 1000))
                    seen.add(n)
                    seen.add(m)
                except Exception as exc:  # pragma: no cover - the failure being tested for
                    errors.append(exc)

        readers = [threading.Thread(target=read) for _ in range(3)]
        for t in readers:
            t.start()
        try:
            for _ in range(3):
                store.add_document(*big)
                store.delete_document("bbbb2222")
            store.add_document(*big)
        finally:
            stop.set()
            for t in readers:
                t.join()
        assert not errors
        assert seen <= {0, 300}
        assert len(store.lexical_search(["adhesives"], [], SearchFilters(), 1000)) == 300

    def test_an_outage_fails_clearly_and_recovers_by_itself(self, postgres_server, postgres_url):
        from docqa.store.postgres import PostgresStore, StoreUnavailable

        cluster = postgres_server.cluster
        if cluster is None:
            pytest.skip("needs the test session's own cluster to restart it")
        store = PostgresStore(postgres_url, max_size=2, timeout=2)
        try:
            store.add_document(*make_document("aaaa1111", "3M Company", 2018, DocType.ANNUAL, [CASH_FLOW]))
            cluster.pause()
            try:
                with pytest.raises(StoreUnavailable, match="unavailable"):
                    store.lexical_search(["1577"], [], SearchFilters(), 5)
            finally:
                cluster.resume()
            deadline = time.monotonic() + 20
            while True:
                try:
                    assert store.lexical_search(["1577"], [], SearchFilters(), 5)[0][0] == "aaaa1111-1"
                    break
                except StoreUnavailable:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
        finally:
            store.close()

    def test_an_unreachable_server_is_a_clear_error(self):
        import socket

        from docqa.store.postgres import PostgresStore, StoreUnavailable

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]  # nothing listens here
        with pytest.raises(StoreUnavailable, match=f"127.0.0.1:{port}/docqa"):
            PostgresStore(f"postgresql://docqa:secret@127.0.0.1:{port}/docqa", connect_timeout=2)
