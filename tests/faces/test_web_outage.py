"""When the database cannot be reached the API says 503 and when to retry, not 500."""

from __future__ import annotations

from fastapi.testclient import TestClient

from docqa.config import Settings
from docqa.faces.web.app import create_app
from docqa.store import StoreUnavailable


def test_store_outage_is_a_503_with_retry_after(tmp_path, monkeypatch):
    app = create_app(Settings(index=tmp_path, dense=False), worker=False)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        engine = app.state.engine

        def down(*args, **kwargs):
            raise StoreUnavailable("cannot connect to PostgreSQL at 127.0.0.1:5432/docqa: connection refused")

        monkeypatch.setattr(engine, "ask", down)
        monkeypatch.setattr(engine.store, "documents", down)
        r = client.post("/api/ask", json={"question": "What was revenue in 2022?"})
        assert r.status_code == 503, r.text
        assert r.headers["Retry-After"] == "5"
        body = r.json()["error"]
        assert body["code"] == "store_unavailable" and "try again" in body["message"]
