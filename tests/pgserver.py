"""A PostgreSQL + pgvector server for the tests: one throwaway cluster per test session.

By default a private cluster is started on 127.0.0.1 (random port, temporary data directory) from
the server binaries that ``docqa.store.pgcluster.find_bindir`` finds, and stopped at the end of the
session. ``DOCQA_TEST_POSTGRES_URL=postgresql://user@host:5432/postgres`` (a URL) uses a server of your own
instead (the user must be allowed to create databases; each test gets a fresh one).
Without either, the tests that need it skip (and fail in CI, where DOCQA_CI=1).
"""

from __future__ import annotations

import atexit
import itertools
import os
import threading

import pytest

from tests.conftest import require


class Server:
    def __init__(self):
        self._cluster = None
        self._admin_url: str | None = None
        self._counter = itertools.count()
        self._template: str | None = None
        self.error: str | None = None

    def start(self) -> bool:
        try:
            import psycopg  # noqa: F401
            import pgvector  # noqa: F401
            import psycopg_pool  # noqa: F401
        except ImportError as exc:
            self.error = f"the 'postgres' extra is not installed ({exc})"
            return False
        external = os.environ.get("DOCQA_TEST_POSTGRES_URL")
        if external:
            self._admin_url = external
            return True
        from docqa.store.pgcluster import ClusterUnavailable, LocalCluster, find_bindir

        if find_bindir() is None:
            self.error = "no PostgreSQL server binaries with pgvector"
            return False
        try:
            self._cluster = LocalCluster.start()
        except ClusterUnavailable as exc:
            self.error = str(exc)
            return False
        self._admin_url = self._cluster.url()
        return True

    @property
    def cluster(self):
        return self._cluster

    def _with_db(self, name: str) -> str:
        from urllib.parse import urlsplit, urlunsplit

        parts = urlsplit(self._admin_url)
        return urlunsplit(parts._replace(path="/" + name))

    def new_database(self) -> str:
        """A fresh, empty database with pgvector enabled (and no docqa schema yet)."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(self._admin_url, autocommit=True) as conn:
            if self._template is None:
                self._template = f"docqa_test_template_{os.getpid()}"
                conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(self._template)))
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self._template)))
                with psycopg.connect(self._with_db(self._template), autocommit=True) as tconn:
                    tconn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            name = f"docqa_test_{os.getpid()}_{next(self._counter)}"
            conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(self._template)))
        return self._with_db(name)

    def drop_database(self, url: str) -> None:
        import psycopg
        from psycopg import sql

        name = psycopg.conninfo.conninfo_to_dict(url)["dbname"]
        with psycopg.connect(self._admin_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))

    def stop(self) -> None:
        if self._cluster is not None:
            self._cluster.stop()
            self._cluster = None
        elif self._admin_url and self._template:
            try:
                self.drop_database(self._with_db(self._template))
            except Exception:
                pass


_server: Server | None = None
_lock = threading.Lock()


def _shared() -> Server:
    global _server
    with _lock:
        if _server is None:
            _server = Server()
            _server.start()
            atexit.register(_server.stop)
        return _server


@pytest.fixture(scope="session")
def postgres_server() -> Server:
    server = _shared()
    require(server.error is None and server._admin_url is not None, f"PostgreSQL + pgvector ({server.error})")
    yield server
    server.stop()  # idempotent: every module that imports this fixture tears down the same server


@pytest.fixture
def postgres_url(postgres_server) -> str:
    url = postgres_server.new_database()
    yield url
    postgres_server.drop_database(url)
